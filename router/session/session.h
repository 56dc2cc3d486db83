// Session: one MySQL client connection's protocol state machine — greeting, authentication,
// then commands — over bytes in and bytes out. It never touches sockets: the Connection feeds
// it what arrived and sends what it produced.
//
// Owned by its Connection; used only on that connection's worker thread.
//
// States (how each is entered and left):
//   kGreeting    — entered at Start() after the greeting is produced; left on the client's
//                  HandshakeResponse41 to kAuthSwitch, kCommand or kClosing.
//   kAuthSwitch  — entered after sending AuthSwitchRequest (the client asked for a plugin we
//                  do not verify directly, or probed caching_sha2_password with an empty
//                  response), from the handshake or COM_CHANGE_USER; left on its
//                  AuthSwitchResponse to kCommand or kClosing. Full caching_sha2
//                  authentication is never needed: every account's SHA256(SHA256(password))
//                  decides the fast path.
//   kCommand     — authenticated; every packet is a command. Left on COM_QUIT or a fatal
//                  error to kClosing.
//   kClosing     — nothing more is read; the connection closes once output is flushed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/messages.h"
#include "protocol/packet.h"
#include "protocol/resultset.h"
#include "protocol/sql_error.h"
#include "router/session/context.h"
#include "router/sql/executor.h"

namespace shoal::router {

class Session : private sql::ResultSink {
 public:
  enum class Action { kContinue, kClose };

  // `data`: the worker's data nodes (may be null: table statements then fail).
  Session(const RouterContext* context, uint32_t connection_id, std::string peer_host,
          sql::DataAccess* data = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The ER_CON_COUNT_ERROR packet a refused connection gets instead of a greeting.
  static std::string TooManyConnectionsPacket();

  // How long the connection may sit idle: connect_timeout (10 s) until authenticated, then
  // the session's wait_timeout.
  absl::Duration IdleTimeout() const;
  // Appends ER_CLIENT_INTERACTION_TIMEOUT (4031), which MySQL 8.0 sends before it closes an
  // idle connection.
  void AppendIdleTimeoutError(std::string* out);

  // Appends the server greeting to `out`.
  void Start(std::string* out);
  // Handles every whole packet at the front of `in`, appending replies to `out`; `*consumed`
  // is how many bytes of `in` were used (the rest waits for more input). kClose: close the
  // connection once `out` has been sent.
  //
  // A statement that runs on the data nodes leaves the session waiting(): OnInput stops after
  // its packet, and the reply comes later — the session appends it to `*deferred_out` (see
  // SetDeferredOutput) and calls `resumed`, after which the connection sends it and feeds the
  // rest of its input again.
  Action OnInput(absl::Span<const uint8_t> in, size_t* consumed, std::string* out);
  bool waiting() const { return waiting_; }
  void SetDeferredOutput(std::string* deferred_out, absl::AnyInvocable<void()> resumed);

 private:
  enum class State { kGreeting, kAuthSwitch, kCommand, kClosing };

  // A COM_STMT_PREPAREd statement.
  struct Statement {
    std::unique_ptr<sql::PreparedStatement> plan;
    std::vector<mysql::ParamType> types;  // bound by the last execute that sent them
    absl::flat_hash_map<uint16_t, std::string> long_data;  // COM_STMT_SEND_LONG_DATA
    bool long_data_too_long = false;                       // a parameter passed max_allowed_packet
  };

  Action OnPacket(absl::Span<const uint8_t> payload, std::string* out);
  // sql::ResultSink: a deferred statement finished (inside the client's Poll()).
  void StatementDone(sql::StatementResult result) override;
  // Sends that result and goes on (the rest of a multi-statement query, then the client's
  // next commands); from the worker's loop.
  void Resume(sql::StatementResult result);
  // Runs the statements of a COM_QUERY from `next_statement_` on until one is deferred or
  // all have answered.
  void RunQueryStatements(std::string* out);
  // After Execute returned Deferred: the result, if it was delivered already.
  bool TakeEarlyResult(sql::StatementResult* result);

  // Authentication (session.cc).
  Action OnHandshakeResponse(absl::Span<const uint8_t> payload, std::string* out);
  // The first authentication step, shared by the handshake and COM_CHANGE_USER: verify the
  // response to our scramble, or ask the client to switch to mysql_native_password.
  Action Authenticate(absl::string_view plugin, absl::string_view response, std::string* out);
  Action OnAuthSwitchResponse(absl::Span<const uint8_t> payload, std::string* out);
  // Checks `response` made by `plugin` against the account; false when it does not match.
  bool Verify(const UserAccount* account, absl::string_view plugin,
              absl::string_view response) const;
  Action LoginSucceeded(std::string* out);
  Action LoginFailed(std::string* out);

  // Commands (commands.cc).
  Action OnCommand(absl::Span<const uint8_t> payload, std::string* out);
  void OnQuery(absl::string_view text, std::string* out);
  void OnStmtPrepare(absl::string_view text, std::string* out);
  void OnStmtExecute(absl::Span<const uint8_t> payload, std::string* out);
  Action OnChangeUser(absl::Span<const uint8_t> payload, std::string* out);
  void ResetSessionState();
  // USE `name`, through the executor like any statement.
  sql::StatementResult UseDatabase(absl::string_view name);
  // Sends one statement's result; `more` sets SERVER_MORE_RESULTS_EXISTS.
  void SendResult(const sql::StatementResult& result, mysql::RowFormat format, bool more,
                  std::string* out);
  void SendOk(const sql::OkResult& ok, uint16_t extra_status, std::string* out);
  void SendError(const mysql::SqlError& error, std::string* out);
  void SendEof(std::string* out);
  uint16_t StatusFlags() const;

  const RouterContext* context_;
  uint32_t connection_id_;
  std::string peer_host_;
  State state_ = State::kGreeting;
  mysql::PacketDecoder decoder_;
  uint8_t seq_ = 0;    // the sequence id of the next packet we send
  uint32_t caps_ = 0;  // negotiated: what both sides support
  std::string scramble_;
  std::string user_;
  std::string requested_database_;
  uint8_t client_collation_ = 0;
  sql::SessionState sql_;
  absl::flat_hash_map<uint32_t, Statement> statements_;
  uint32_t next_statement_id_ = 1;
  // The deferred statement's reply: where it goes, how rows are encoded, and what to run after
  // it (the rest of a multi-statement COM_QUERY).
  bool waiting_ = false;
  std::string* deferred_out_ = nullptr;
  absl::AnyInvocable<void()> resumed_;
  mysql::RowFormat deferred_format_ = mysql::RowFormat::kText;
  std::vector<std::string> query_statements_;  // a multi-statement COM_QUERY, split
  size_t next_statement_ = 0;
  std::optional<sql::StatementResult> early_result_;
  // Tasks deferred to the loop hold it weakly: a session gone by then is not touched.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  Counter* commands_;
  Counter* logins_failed_;
};

}  // namespace shoal::router
