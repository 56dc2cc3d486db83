// Session, command phase: one handler per command (COM_QUERY, the prepared-statement family,
// COM_PING, COM_INIT_DB, ...) and the encoding of statement results.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/logging.h"
#include "protocol/codec.h"
#include "protocol/packet.h"
#include "protocol/resultset.h"
#include "protocol/wire.h"
#include "router/session/session.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"

namespace shoal::router {
namespace {

using mysql::Command;
using mysql::DecodeStatus;

// 1421 HY000, COM_STMT_FETCH without a cursor: Shoal opens no cursors (results are sent whole).
mysql::SqlError NoOpenCursor(uint32_t id) {
  return {1421, "HY000", absl::StrCat("The statement (", id, ") has no open cursor.")};
}

}  // namespace

uint16_t Session::StatusFlags() const { return sql::StatusFlags(sql_); }

absl::Duration Session::IdleTimeout() const {
  constexpr absl::Duration kConnectTimeout = absl::Seconds(10);
  constexpr int64_t kDefaultWaitTimeout = 28800;
  if (state_ != State::kCommand) return kConnectTimeout;
  auto it = sql_.session_vars.find("wait_timeout");
  if (it == sql_.session_vars.end()) return absl::Seconds(kDefaultWaitTimeout);
  if (const auto* u = std::get_if<uint64_t>(&it->second)) {
    return absl::Seconds(static_cast<int64_t>(*u));
  }
  if (const auto* i = std::get_if<int64_t>(&it->second)) return absl::Seconds(*i);
  return absl::Seconds(kDefaultWaitTimeout);
}

void Session::AppendIdleTimeoutError() {
  seq_ = 0;  // unsolicited: not an answer to any command
  SendError({4031, "HY000",
             "The client was disconnected by the server because of inactivity. See wait_timeout "
             "and interactive_timeout for configuring this behavior."},
            &out_);
  state_ = State::kClosing;
}

Session::Action Session::OnCommand(absl::Span<const uint8_t> payload, std::string* out) {
  Command command;
  if (!mysql::PeekCommand(payload, &command)) {
    SendError(mysql::errors::MalformedPacket(), out);
    return Action::kContinue;
  }
  switch (command) {
    case Command::kQuit:
      return Action::kClose;
    case Command::kPing:
      SendOk({}, 0, out);
      return Action::kContinue;
    case Command::kQuery: {
      mysql::client::Query query;
      if (mysql::Decode(payload, caps_, &query) != DecodeStatus::kOk) break;
      NoteCommand("Query", query.query);
      OnQuery(query.query, out);
      return Action::kContinue;
    }
    case Command::kInitDb: {
      mysql::client::InitDb init;
      if (mysql::Decode(payload, caps_, &init) != DecodeStatus::kOk) break;
      sql::StatementResult used = UseDatabase(init.schema);
      if (!Await(&used, Awaiting::kStatement, mysql::RowFormat::kText)) {
        SendResult(used, mysql::RowFormat::kText, false, out);
      }
      return Action::kContinue;
    }
    case Command::kStmtPrepare: {
      mysql::client::StmtPrepare prepare;
      if (mysql::Decode(payload, caps_, &prepare) != DecodeStatus::kOk) break;
      OnStmtPrepare(prepare.query, out);
      return Action::kContinue;
    }
    case Command::kStmtExecute:
      NoteCommand("Execute", std::nullopt);
      OnStmtExecute(payload, out);
      return Action::kContinue;
    case Command::kStmtSendLongData: {
      // No reply, even on error (the client does not read one); errors surface at execute.
      mysql::client::StmtSendLongData data;
      if (mysql::Decode(payload, caps_, &data) != DecodeStatus::kOk) return Action::kContinue;
      auto it = statements_.find(data.statement_id);
      if (it == statements_.end() || data.param_id >= it->second.plan->param_count()) {
        return Action::kContinue;
      }
      // Bounded like any packet: past max_allowed_packet the data is dropped and the execute
      // fails, as mysqld does, rather than growing without limit.
      Statement& statement = it->second;
      std::string& value = statement.long_data[data.param_id];
      if (value.size() + data.data.size() > context_->max_allowed_packet) {
        statement.long_data_too_long = true;
        value.clear();
      } else if (!statement.long_data_too_long) {
        value.append(data.data.data(), data.data.size());
      }
      return Action::kContinue;
    }
    case Command::kStmtClose: {
      mysql::client::StmtClose close;
      if (mysql::Decode(payload, caps_, &close) == DecodeStatus::kOk) {
        statements_.erase(close.statement_id);
      }
      return Action::kContinue;  // COM_STMT_CLOSE has no reply
    }
    case Command::kStmtReset: {
      mysql::client::StmtReset reset;
      if (mysql::Decode(payload, caps_, &reset) != DecodeStatus::kOk) break;
      auto it = statements_.find(reset.statement_id);
      if (it == statements_.end()) {
        SendError(mysql::errors::UnknownStatementHandler(absl::StrCat(reset.statement_id),
                                                         "mysqld_stmt_reset"),
                  out);
      } else {
        it->second.long_data.clear();
        it->second.long_data_too_long = false;
        SendOk({}, 0, out);
      }
      return Action::kContinue;
    }
    case Command::kStmtFetch: {
      mysql::client::StmtFetch fetch;
      if (mysql::Decode(payload, caps_, &fetch) != DecodeStatus::kOk) break;
      SendError(NoOpenCursor(fetch.statement_id), out);
      return Action::kContinue;
    }
    case Command::kSetOption: {
      mysql::client::SetOption option;
      if (mysql::Decode(payload, caps_, &option) != DecodeStatus::kOk) break;
      if (option.option == mysql::client::SetOption::kMultiStatementsOn) {
        caps_ |= mysql::capability::kMultiStatements;
      } else if (option.option == mysql::client::SetOption::kMultiStatementsOff) {
        caps_ &= ~mysql::capability::kMultiStatements;
      } else {
        SendError(mysql::errors::UnknownCommand(), out);
        return Action::kContinue;
      }
      SendEof(out);  // as mysqld answers COM_SET_OPTION
      return Action::kContinue;
    }
    case Command::kFieldList: {
      mysql::client::FieldList list;
      if (mysql::Decode(payload, caps_, &list) != DecodeStatus::kOk) break;
      // mysqld's answer: no column count, a column definition per column each followed by
      // the default a new row gets (string<lenenc>, 0xFB for NULL), then EOF.
      auto fields = sql::internal::ListFields(list.table, list.wildcard, sql_);
      if (const auto* error = std::get_if<mysql::SqlError>(&fields)) {
        if (sql_.wanted == nullptr) SendError(*error, out);  // else: asked again once fetched
        return Action::kContinue;
      }
      for (const auto& field : std::get<std::vector<sql::internal::FieldListColumn>>(fields)) {
        const size_t start = mysql::StartPacket(out);
        mysql::Writer writer(out);
        mysql::EncodeColumnDefinition(field.definition, &writer);
        if (field.default_text) {
          writer.WriteLenencString(*field.default_text);
        } else {
          writer.WriteInt1(0xFB);
        }
        mysql::FinishPacket(start, &seq_, out);
      }
      mysql::AppendResultSetEnd(StatusFlags(), 0, caps_, &seq_, out);
      return Action::kContinue;
    }
    case Command::kResetConnection:
      ResetSessionState();
      SendOk({}, 0, out);
      return Action::kContinue;
    case Command::kChangeUser:
      return OnChangeUser(payload, out);
    case Command::kStatistics: {
      // A bare string packet, not an OK: what `mysqladmin status` prints.
      int64_t uptime = absl::ToInt64Seconds(absl::Now() - context_->server.started);
      int64_t threads =
          context_->server.threads_connected ? context_->server.threads_connected() : 1;
      std::string text = absl::StrCat(
          "Uptime: ", uptime, "  Threads: ", threads, "  Questions: ", sql_.questions,
          "  Slow queries: 0  Opens: 0  Flush tables: 0  Open tables: 0  Queries per second avg: ",
          uptime > 0 ? absl::StrCat(static_cast<double>(sql_.questions) / uptime) : "0.000");
      mysql::AppendPacket(text, &seq_, out);
      return Action::kContinue;
    }
    default:
      SendError(mysql::errors::UnknownCommand(), out);
      return Action::kContinue;
  }
  SendError(mysql::errors::MalformedPacket(), out);
  return Action::kContinue;
}

void Session::OnQuery(absl::string_view text, std::string* out) {
  query_statements_.clear();
  next_statement_ = 0;
  if ((caps_ & mysql::capability::kMultiStatements) == 0) {
    query_statements_.emplace_back(text);
  } else {
    for (absl::string_view statement : sql::SplitStatements(text)) {
      query_statements_.emplace_back(statement);
    }
    if (query_statements_.empty()) {
      SendError(mysql::errors::EmptyQuery(), out);
      return;
    }
  }
  RunQueryStatements(out);
}

void Session::RunQueryStatements(std::string* out) {
  while (next_statement_ < query_statements_.size()) {
    sql::StatementResult result = sql::ExecuteText(query_statements_[next_statement_++], &sql_);
    if (Await(&result, Awaiting::kStatement, mysql::RowFormat::kText)) {
      if (sql_.local_infile != nullptr) RequestFile(out);
      return;
    }
    bool last = next_statement_ == query_statements_.size();
    bool failed = std::holds_alternative<mysql::SqlError>(result);
    SendResult(result, mysql::RowFormat::kText, !last && !failed, out);
    if (failed) break;  // as mysqld: the statements after an error are not run
  }
  query_statements_.clear();
  next_statement_ = 0;
}

bool Session::Await(sql::StatementResult* result, Awaiting what, mysql::RowFormat format) {
  if (!std::holds_alternative<sql::Deferred>(*result)) return false;
  if (early_result_) {  // completed before Execute even returned (e.g. no data node to ask)
    *result = std::move(*early_result_);
    early_result_.reset();
    return false;
  }
  awaiting_ = what;
  deferred_format_ = format;
  return true;
}

void Session::StatementDone(sql::StatementResult result) {
  if (!waiting() || awaiting_ == Awaiting::kLocalInfile) {  // inside our call: taken there
    early_result_ = std::move(result);
    return;
  }
  SendDeferredResult(std::move(result));
  NoteCommandEnd();
  if (answered_) answered_();
}

void Session::SendDeferredResult(sql::StatementResult result) {
  Awaiting awaited = awaiting_;
  awaiting_ = Awaiting::kNothing;
  if (awaited == Awaiting::kLogin) {
    if (FinishLogin(result, &out_) == Action::kClose) state_ = State::kClosing;
    return;
  }
  bool more = false;
  if (deferred_format_ == mysql::RowFormat::kText && !query_statements_.empty()) {
    more = next_statement_ < query_statements_.size() &&
           !std::holds_alternative<mysql::SqlError>(result);
    if (!more) query_statements_.clear();
  }
  SendResult(result, deferred_format_, more, &out_);
  if (more) RunQueryStatements(&out_);  // may wait again: what was answered goes now anyway
}

void Session::ReadyForInput() {
  if (awaiting_ == Awaiting::kStatement && sql_.local_infile != nullptr) {
    // A LOAD DATA run again after a dictionary fetch (inside the data pump): its file is
    // asked for only now.
    RequestFile(&out_);
    if (answered_) answered_();
    return;
  }
  if (!infile_paused_) return;
  infile_paused_ = false;
  if (answered_) answered_();
}

void Session::RequestFile(std::string* out) {
  // int<1> 0xFB | string<EOF> file name; the client's packets that follow are the file.
  mysql::server::LocalInfileRequest request{sql_.local_infile->file_name()};
  mysql::EncodePacket(request, caps_, &seq_, out);
  awaiting_ = Awaiting::kLocalInfile;
}

void Session::OnFilePacket(absl::Span<const uint8_t> payload, std::string* /*out*/) {
  sql::LocalInfile* infile = sql_.local_infile;
  if (!payload.empty()) {
    infile->Data(absl::string_view(reinterpret_cast<const char*>(payload.data()), payload.size()));
    return;
  }
  // The empty packet ends the file. The statement may answer at once (nothing in flight):
  // StatementDone then leaves the result in early_result_.
  sql_.local_infile = nullptr;
  infile->End();
  awaiting_ = Awaiting::kStatement;
  if (early_result_) {
    sql::StatementResult result = std::move(*early_result_);
    early_result_.reset();
    SendDeferredResult(std::move(result));
  }
}

void Session::AwaitDictionary(absl::Span<const uint8_t> payload) {
  retry_command_.assign(reinterpret_cast<const char*>(payload.data()), payload.size());
  awaiting_ = Awaiting::kDictionary;
  std::shared_ptr<sql::DictionaryFetch> fetch = std::move(sql_.wanted);
  sql_.wanted = nullptr;
  sql::DictionaryFetch* raw = fetch.get();
  sql::FetchDictionary(
      sql_.data, std::move(fetch),
      [this, raw, alive = std::weak_ptr<bool>(alive_)](std::optional<mysql::SqlError> error) {
        if (alive.lock() == nullptr) return;
        awaiting_ = Awaiting::kNothing;
        if (error.has_value()) {
          SendError(*error, &out_);
        } else {
          sql::NoteFetched(*raw, &sql_);
          std::string command = std::move(retry_command_);
          absl::Span<const uint8_t> again(reinterpret_cast<const uint8_t*>(command.data()),
                                          command.size());
          if (OnCommand(again, &out_) == Action::kClose) state_ = State::kClosing;
          NoteCommandEnd();
          if (sql_.wanted != nullptr) return AwaitDictionary(again);
        }
        if (answered_) answered_();
      });
}

void Session::OnStmtPrepare(absl::string_view text, std::string* out) {
  auto prepared = sql::Prepare(text, sql_);
  if (auto* error = std::get_if<mysql::SqlError>(&prepared)) {
    if (sql_.wanted == nullptr) SendError(*error, out);  // else: prepared again once fetched
    return;
  }
  uint32_t id = next_statement_id_++;
  Statement& statement = statements_[id];
  statement.plan = std::move(std::get<std::unique_ptr<sql::PreparedStatement>>(prepared));
  mysql::AppendPrepareOk(id, static_cast<uint16_t>(statement.plan->param_count()),
                         statement.plan->columns(), 0, caps_, StatusFlags(), &seq_, out);
}

void Session::OnStmtExecute(absl::Span<const uint8_t> payload, std::string* out) {
  uint32_t id = 0;
  if (!mysql::PeekStatementId(payload, &id)) {
    SendError(mysql::errors::MalformedPacket(), out);
    return;
  }
  auto it = statements_.find(id);
  if (it == statements_.end()) {
    SendError(mysql::errors::UnknownStatementHandler(absl::StrCat(id), "mysqld_stmt_execute"), out);
    return;
  }
  Statement& statement = it->second;
  mysql::client::StmtExecute execute;
  if (mysql::Decode(payload, caps_, static_cast<uint16_t>(statement.plan->param_count()),
                    statement.types, &execute) != DecodeStatus::kOk) {
    SendError(mysql::errors::WrongArguments("mysqld_stmt_execute"), out);
    return;
  }
  if (execute.new_params_bound) statement.types = execute.param_types;
  if (statement.long_data_too_long) {
    statement.long_data.clear();
    statement.long_data_too_long = false;
    // ER_NET_PACKET_TOO_LARGE's long-data variant, as mysqld reports it at execute.
    SendError({1153, "08S01",
               "Parameter of prepared statement which is set through mysql_send_long_data() is "
               "longer than 'max_allowed_packet' bytes"},
              out);
    return;
  }
  for (auto& [param, data] : statement.long_data) {
    if (param < execute.params.size()) execute.params[param] = std::move(data);
  }
  statement.long_data.clear();
  sql::StatementResult result = sql::Execute(statement.plan, execute.params, &sql_);
  if (Await(&result, Awaiting::kStatement, mysql::RowFormat::kBinary)) return;
  SendResult(result, mysql::RowFormat::kBinary, false, out);
}

Session::Action Session::OnChangeUser(absl::Span<const uint8_t> payload, std::string* out) {
  mysql::client::ChangeUser change;
  if (mysql::Decode(payload, caps_, &change) != DecodeStatus::kOk) {
    SendError(mysql::errors::MalformedPacket(), out);
    return Action::kClose;
  }
  ResetSessionState();
  user_ = std::string(change.username);
  requested_database_ = std::string(change.database);
  absl::string_view plugin =
      change.auth_plugin_name.empty() ? mysql::kNativePasswordPlugin : change.auth_plugin_name;
  return Authenticate(plugin, change.auth_response, out);
}

sql::StatementResult Session::UseDatabase(absl::string_view name) {
  return sql::ExecuteText("USE " + sql::QuoteIdentifier(name), &sql_);
}

void Session::ResetSessionState() {
  statements_.clear();
  sql::RollbackInBackground(sql_.data, std::move(sql_.txn));  // as mysqld: an open one ends
  sql::SessionState fresh;
  fresh.data = sql_.data;
  fresh.sink = sql_.sink;
  fresh.server = sql_.server;
  fresh.connection_id = sql_.connection_id;
  fresh.host = sql_.host;
  fresh.user = sql_.user;
  fresh.account_host = sql_.account_host;
  fresh.ssl_version = sql_.ssl_version;  // the connection's, not the session's
  fresh.ssl_cipher = sql_.ssl_cipher;
  fresh.client_local_files = sql_.client_local_files;
  fresh.client_found_rows = sql_.client_found_rows;
  fresh.database = sql_.database;
  sql_ = std::move(fresh);
  sql::ApplyHandshakeCollation(client_collation_, &sql_);
  sql::ActivateDefaultRoles(&sql_);  // as mysqld's COM_RESET_CONNECTION
}

void Session::SendResult(const sql::StatementResult& result, mysql::RowFormat format, bool more,
                         std::string* out) {
  uint16_t more_flag = more ? mysql::status::kMoreResultsExist : 0;
  if (const auto* ok = std::get_if<sql::OkResult>(&result)) {
    SendOk(*ok, more_flag, out);
  } else if (const auto* rows = std::get_if<mysql::ResultSet>(&result)) {
    mysql::AppendResultSet(*rows, format, caps_, StatusFlags() | more_flag, sql::WarningCount(sql_),
                           &seq_, out);
  } else if (const auto* error = std::get_if<mysql::SqlError>(&result)) {
    SendError(*error, out);
  } else {
    SHOAL_LOG(kError) << "connection " << connection_id_ << ": a deferred result sent as final";
    SendError(mysql::errors::NotSupportedYet("this statement here"), out);
  }
}

void Session::SendOk(const sql::OkResult& ok, uint16_t extra_status, std::string* out) {
  mysql::server::Ok packet;
  packet.affected_rows = ok.affected_rows;
  packet.last_insert_id = ok.last_insert_id;
  packet.warnings = ok.warnings;
  packet.info = ok.info;
  packet.status_flags = StatusFlags() | extra_status;
  mysql::EncodePacket(packet, caps_, &seq_, out);
}

void Session::SendError(const mysql::SqlError& error, std::string* out) {
  mysql::server::Err packet{error.code, error.sqlstate, error.message};
  mysql::EncodePacket(packet, caps_ | mysql::capability::kProtocol41, &seq_, out);
}

void Session::SendEof(std::string* out) {
  if (caps_ & mysql::capability::kDeprecateEof) {
    SendOk({}, 0, out);
    return;
  }
  mysql::server::Eof eof{0, StatusFlags()};
  mysql::EncodePacket(eof, caps_, &seq_, out);
}

}  // namespace shoal::router
