// Session: one MySQL client connection's protocol state machine — greeting, authentication,
// then commands — over bytes in and bytes out. It never touches sockets: the Connection feeds
// it what arrived and sends what it produced (output(), which the session owns).
//
// A command that runs on the data nodes does not block the worker: OnInput returns kWait, and
// the reply comes when the engine answers — the session appends it to output() right there,
// inside the completion, and calls `answered` so that the connection sends it and feeds the
// rest of its input. Nothing on that path waits (no dictionary call blocks, table_access.h),
// so the way back to the client is as short as the way out.
//
// Owned by its Connection; used only on that connection's worker thread.
//
// States (how each is entered and left):
//   kGreeting    — entered at Start() after the greeting is produced; left on the client's
//                  HandshakeResponse41 to kAuthSwitch, kCommand or kClosing. An SSLRequest
//                  before it (where the router offers TLS) stays here: OnInput returns
//                  kStartTls, the connection speaks TLS from the next byte on, and the
//                  HandshakeResponse41 comes through it.
//   kAuthSwitch  — entered after sending AuthSwitchRequest (the client asked for a plugin we
//                  do not verify directly, probed caching_sha2_password with an empty
//                  response, or the account has one plugin's hash alone: we switch to that
//                  plugin), from the handshake or COM_CHANGE_USER; left on its
//                  AuthSwitchResponse to kCommand, kFullAuth or kClosing.
//   kFullAuth    — entered after AuthMoreData 0x04 (perform full authentication): the
//                  account is known by its caching_sha2_password stored form alone and this
//                  router has not yet learned its SHA256(SHA256(password)) (access/sha2_cache.h).
//                  The client asks for the RSA public key (0x02; answered, stays) or sends
//                  its password: in the clear over TLS or a Unix socket, else RSA-encrypted.
//                  Left to kCommand or kClosing.
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
#include "router/access/transport.h"
#include "router/session/context.h"
#include "router/sql/exec/executor.h"

namespace shoal::router {

class Session : private sql::ResultSink {
 public:
  enum class Action { kContinue, kClose, kStartTls };
  // What the connection does after OnInput: read on; wait — a command runs on the data nodes,
  // nothing more is handled until the session calls `answered`; close once output() is sent;
  // or start TLS — the client's SSLRequest was the last packet in the clear (the input after
  // it is the TLS handshake), and TlsEstablished follows once the handshake is done.
  enum class Step { kRead, kWait, kClose, kStartTls };

  // `data`: the worker's data nodes (may be null: table statements then fail). `answered`:
  // called on this thread when a command the session waited for has put its reply in output().
  // `kill`: KILL of this session from any thread (ProcessList): closes the connection, handing
  // the work to this session's thread.
  Session(const RouterContext* context, uint32_t connection_id, std::string peer_host,
          sql::DataAccess* data = nullptr, absl::AnyInvocable<void()> answered = nullptr,
          absl::AnyInvocable<void()> kill = nullptr);
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
  void AppendIdleTimeoutError();

  // How the client reached us (before Start): a Unix socket is secure transport, TCP is not
  // unless TLS comes.
  void set_transport(Transport transport) { transport_ = transport; }
  // The TLS handshake the SSLRequest started is done.
  void TlsEstablished(access::ClientTransport tls);

  // Appends the server greeting to output().
  void Start();
  // Handles every whole packet at the front of `in`, appending replies to output();
  // `*consumed` is how many bytes of `in` were used (the rest waits for more input, or for
  // the answer kWait waits for).
  Step OnInput(absl::Span<const uint8_t> in, size_t* consumed);
  bool waiting() const { return awaiting_ != Awaiting::kNothing; }
  // What to send to the client. The owner sends it and erases what was sent.
  std::string& output() { return out_; }

 private:
  enum class State { kGreeting, kAuthSwitch, kFullAuth, kCommand, kClosing };
  // What the session waits for, if anything (entered by a handler, left in StatementDone or
  // AwaitDictionary's answer):
  //   kStatement  — a deferred statement's result, sent in `deferred_format_`, then the rest of
  //                 a multi-statement COM_QUERY;
  //   kLogin      — the USE of the database named at login or COM_CHANGE_USER: its error
  //                 closes the connection, as mysqld's does;
  //   kDictionary — the dictionary fetch COM_STMT_PREPARE or COM_FIELD_LIST stopped for
  //                 (table_access.h): the command in `retry_command_` is handled again;
  //   kLocalInfile — LOAD DATA LOCAL asked the client for its file (LocalInfileRequest): every
  //                 packet is the file's, handed to sql_.local_infile, until the empty one,
  //                 after which the statement's result is awaited as kStatement. Packets are
  //                 left unread while the statement holds enough (`infile_paused_`).
  //   kAccounts   — a login that failed is checked again on a fresh dictionary (the account
  //                 may have been made through another router a moment ago).
  enum class Awaiting : uint8_t {
    kNothing,
    kStatement,
    kLogin,
    kDictionary,
    kLocalInfile,
    kAccounts
  };

  // A COM_STMT_PREPAREd statement.
  struct Statement {
    std::shared_ptr<const sql::PreparedStatement> plan;
    std::vector<mysql::ParamType> types;  // bound by the last execute that sent them
    absl::flat_hash_map<uint16_t, std::string> long_data;  // COM_STMT_SEND_LONG_DATA
    bool long_data_too_long = false;                       // a parameter passed max_allowed_packet
  };

  Action OnPacket(absl::Span<const uint8_t> payload, std::string* out);
  // sql::ResultSink: a deferred statement finished (inside the client's Poll()): sends its
  // result and goes on (the rest of a multi-statement query; `answered` then feeds the
  // client's next commands).
  void StatementDone(sql::StatementResult result) override;
  // sql::ResultSink: a LOAD DATA LOCAL takes its file again.
  void ReadyForInput() override;
  // Sends a deferred statement's result (awaiting_ kStatement or kLogin) and goes on as
  // StatementDone does, without calling `answered`.
  void SendDeferredResult(sql::StatementResult result);
  // LOAD DATA LOCAL (commands.cc): asks the client for the file, then takes its packets.
  void RequestFile(std::string* out);
  void OnFilePacket(absl::Span<const uint8_t> payload, std::string* out);
  // Runs the statements of a COM_QUERY from `next_statement_` on until one is deferred or
  // all have answered.
  void RunQueryStatements(std::string* out);
  // After Execute returned Deferred: true when the session is to wait (awaiting `what`),
  // false when the result was delivered already and is now in `*result`.
  bool Await(sql::StatementResult* result, Awaiting what, mysql::RowFormat format);
  // Fetches what a command stopped for (sql_.wanted), then handles `payload` again.
  void AwaitDictionary(absl::Span<const uint8_t> payload);

  // Authentication (session.cc).
  Action OnHandshakeResponse(absl::Span<const uint8_t> payload, std::string* out);
  Action OnSslRequest(std::string* out);
  // The first authentication step, shared by the handshake and COM_CHANGE_USER: verify the
  // response to our scramble, or ask the client to switch to the plugin that can check it.
  Action Authenticate(absl::string_view plugin, absl::string_view response, std::string* out);
  Action OnAuthSwitchResponse(absl::Span<const uint8_t> payload, std::string* out);
  // The plugin the client must answer with before its response can be checked, if not the
  // one it used: an unknown one, libmysqlclient's empty caching_sha2_password probe, or an
  // account with the other plugin's hash alone.
  std::optional<std::string> PluginToSwitchTo(const wire::Account* account,
                                              absl::string_view plugin,
                                              absl::string_view response) const;
  // caching_sha2_password's full authentication (kFullAuth).
  Action RequestPassword(std::string* out);
  Action OnFullAuthPacket(absl::Span<const uint8_t> payload, std::string* out);
  // The account the client logs in as (access::MatchAccount), from the accounts the router
  // enforces now (kept in `login_access_` while the login lasts); null when none matches.
  const wire::Account* LoginAccount();
  // Checks the response, then the account's lock and connection limit, and logs in; a failed
  // check not yet `refreshed` is tried again on a fresh dictionary (kAccounts).
  Action CheckLogin(absl::string_view plugin, absl::string_view response, bool refreshed,
                    std::string* out);
  void RefreshThenCheckLogin(absl::string_view plugin, absl::string_view response);
  // Checks `response` made by `plugin` against the account; kFullAuth when only the password
  // itself can be checked (caching_sha2_password's stored form, not yet in the cache).
  enum class Verdict { kMatch, kMismatch, kFullAuth };
  Verdict Verify(const wire::Account* account, absl::string_view plugin,
                 absl::string_view response) const;
  // After the credentials matched: the account's REQUIRE clause, lock, expiry and connection
  // limit, then the login. `fast_path`: caching_sha2_password's fast path decided, which the
  // client is told (AuthMoreData 0x03) before the OK.
  Action AcceptLogin(const wire::Account& account, bool fast_path, std::string* out);
  // After they did not: FAILED_LOGIN_ATTEMPTS, then 1045 (or 3955).
  Action RefuseLogin(const wire::Account* account, absl::Time now, std::string* out);
  // This router's sessions logged in as `user` (MAX_USER_CONNECTIONS).
  size_t SessionsOf(absl::string_view user) const;
  Action LoginSucceeded(std::string* out);
  // The answer to login: OK, or the USE's error and kClose.
  Action FinishLogin(const sql::StatementResult& used, std::string* out);
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
  // The process list's row: a command begins (`info` its statement), or it has answered in
  // full and the session sleeps (nothing when it waits still).
  void NoteCommand(absl::string_view command, std::optional<absl::string_view> info);
  void NoteCommandEnd();

  const RouterContext* context_;
  uint32_t connection_id_;
  std::string peer_host_;
  State state_ = State::kGreeting;
  mysql::PacketDecoder decoder_;
  uint8_t seq_ = 0;    // the sequence id of the next packet we send
  uint32_t caps_ = 0;  // negotiated: what both sides support
  Transport transport_ = Transport::kUnixSocket;
  bool tls_requested_ = false;   // an SSLRequest came (a second one is a bad handshake)
  std::string switched_to_;      // the plugin of the AuthSwitchRequest sent, once per login
  access::ClientTransport tls_;  // what the login came over, for accounts' REQUIRE
  std::string scramble_;
  std::shared_ptr<const wire::AccessControl> login_access_;
  std::string user_;
  std::string requested_database_;
  uint8_t client_collation_ = 0;
  sql::SessionState sql_;
  absl::flat_hash_map<uint32_t, Statement> statements_;
  uint32_t next_statement_id_ = 1;
  std::string out_;
  absl::AnyInvocable<void()> answered_;
  // The deferred statement's reply: how rows are encoded, and what to run after it (the rest
  // of a multi-statement COM_QUERY).
  Awaiting awaiting_ = Awaiting::kNothing;
  mysql::RowFormat deferred_format_ = mysql::RowFormat::kText;
  std::string retry_command_;                  // kDictionary: the command's payload
  std::vector<std::string> query_statements_;  // a multi-statement COM_QUERY, split
  size_t next_statement_ = 0;
  std::optional<sql::StatementResult> early_result_;
  bool infile_paused_ = false;  // kLocalInfile: a packet is left unread until ReadyForInput
  // A dictionary fetch's answer holds it weakly: a session gone by then is not touched.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  Counter* commands_;
  Counter* logins_failed_;
  Counter* full_authentications_;
  sql::ProcessList::Entry process_;  // this session in SHOW PROCESSLIST
  bool process_busy_ = true;         // its row shows a command (Connect, until login)
};

}  // namespace shoal::router
