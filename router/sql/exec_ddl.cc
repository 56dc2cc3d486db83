// DDL: databases, tables and indexes, through the dictionary master (engine/wire
// dictionary.proto). A DDL statement blocks its worker thread until the master confirms —
// DDL is rare, and the master serializes it anyway — while results of other sessions'
// operations that arrive meanwhile are still delivered.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "engine/api/client.h"
#include "router/sql/exec_internal.h"
#include "router/sql/result_columns.h"
#include "router/sql/table_access.h"
#include "router/sql/table_spec.h"

namespace shoal::sql::internal {
namespace {

// DDL ends an open transaction first (MySQL's implicit commit). Blocking, like the DDL.
std::optional<mysql::SqlError> ImplicitCommit(SessionState* state) {
  state->in_transaction = false;
  state->read_only_transaction = false;
  if (state->txn == nullptr) return std::nullopt;
  // Heap-held: if the answer is late, it frees itself when it comes.
  struct Wait : api::Completion {
    void Done(const api::Outcome& outcome) override {
      if (abandoned) return delete this;
      done = true;
      code = outcome.code;
      message = std::string(outcome.message);
    }
    bool done = false;
    bool abandoned = false;
    uint16_t code = 0;
    std::string message;
  };
  auto* wait = new Wait;
  std::shared_ptr<api::Transaction> txn = std::move(state->txn);
  state->txn = nullptr;
  api::Client& client = state->data->client();
  client.Commit(txn.get(), wait);
  client.Send();
  absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (!wait->done && absl::Now() < deadline) client.Poll(absl::Milliseconds(100));
  if (!wait->done) {
    wait->abandoned = true;
    return EngineError(wire::kErTemporary,
                       wire::TemporaryError(wire::kNdbTimedOut, "commit timed out"));
  }
  std::unique_ptr<Wait> answered(wait);
  if (wait->code != 0) return EngineError(wait->code, wait->message);
  return std::nullopt;
}

// Runs one dictionary request: its error as the statement's, its note as a warning.
std::variant<wire::DictConf, mysql::SqlError> RunDictionary(wire::DictReq request,
                                                            SessionState* state) {
  if (auto err = RequireDataNodes(*state)) return *err;
  if (auto err = ImplicitCommit(state)) return *err;
  absl::StatusOr<wire::DictConf> conf = state->data->client().Dictionary(std::move(request));
  if (!conf.ok()) {
    return EngineError(
        wire::kErTemporary,
        absl::StrCat(wire::TemporaryError(wire::kNdbClusterFailure, "Cluster Failure"), " (",
                     conf.status().message(), ")"));
  }
  if (conf->error_code() != 0) return EngineError(conf->error_code(), conf->error_message());
  if (conf->note_code() != 0) {
    AddWarning(state, Diagnostic::Level::kNote, static_cast<uint16_t>(conf->note_code()),
               conf->note_message());
  }
  return *std::move(conf);
}

StatementResult OkOrError(std::variant<wire::DictConf, mysql::SqlError> result,
                          uint64_t affected = 0, std::string info = "") {
  if (auto* err = std::get_if<mysql::SqlError>(&result)) return *err;
  OkResult ok;
  ok.affected_rows = affected;
  ok.info = std::move(info);
  return ok;
}

// A table that names its database or uses the session's.
std::variant<std::pair<std::string, std::string>, mysql::SqlError> Qualified(
    const TableName& name, const SessionState& state) {
  auto db = DatabaseOf(name, state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  return std::make_pair(std::get<std::string>(std::move(db)), name.name);
}

constexpr char kNoRecords[] = "Records: 0  Duplicates: 0  Warnings: 0";

}  // namespace

StatementResult ExecuteCreateDatabase(const CreateDatabaseStmt& stmt, const ExecContext& ctx) {
  wire::DictReq request;
  request.mutable_create_database()->set_name(stmt.name);
  request.mutable_create_database()->set_if_not_exists(stmt.if_not_exists);
  auto result = RunDictionary(std::move(request), ctx.state);
  bool created = std::holds_alternative<wire::DictConf>(result) &&
                 std::get<wire::DictConf>(result).note_code() == 0;
  return OkOrError(std::move(result), created ? 1 : 0);
}

StatementResult ExecuteDropDatabase(const DropDatabaseStmt& stmt, const ExecContext& ctx) {
  uint64_t tables = 0;
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state)) {
    for (const auto& [name, table] : dictionary->by_name) tables += table->database == stmt.name;
  }
  wire::DictReq request;
  request.mutable_drop_database()->set_name(stmt.name);
  request.mutable_drop_database()->set_if_exists(stmt.if_exists);
  auto result = RunDictionary(std::move(request), ctx.state);
  if (std::holds_alternative<mysql::SqlError>(result)) return OkOrError(std::move(result));
  if (ctx.state->database == stmt.name) ctx.state->database.clear();  // as mysqld
  return OkOrError(std::move(result), tables);
}

StatementResult ExecuteCreateTable(const CreateTableStmt& stmt, const ExecContext& ctx) {
  auto db = DatabaseOf(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  auto def = TableDefFromSpec(stmt, std::get<std::string>(db));
  if (auto* err = std::get_if<mysql::SqlError>(&def)) return *err;
  wire::DictReq request;
  std::string bytes;
  schema::AppendTableDef(std::get<schema::TableDef>(def), &bytes);
  request.mutable_create_table()->set_table(std::move(bytes));
  request.mutable_create_table()->set_if_not_exists(stmt.if_not_exists);
  return OkOrError(RunDictionary(std::move(request), ctx.state));
}

StatementResult ExecuteDropTable(const DropTableStmt& stmt, const ExecContext& ctx) {
  std::vector<std::pair<std::string, std::string>> tables;
  for (const TableName& name : stmt.tables) {
    auto q = Qualified(name, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&q)) return *err;
    tables.push_back(std::get<std::pair<std::string, std::string>>(std::move(q)));
  }
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  if (!stmt.if_exists) {
    // Like MySQL's atomic DROP TABLE: nothing is dropped when any table is missing.
    (void)ctx.state->data->client().RefreshDictionary();
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state);
    std::vector<std::string> missing;
    for (const auto& [db, name] : tables) {
      if (dictionary == nullptr || dictionary->Find(db, name) == nullptr) {
        missing.push_back(absl::StrCat(db, ".", name));
      }
    }
    if (!missing.empty()) {
      return mysql::SqlError{1051, "42S02",
                             absl::StrCat("Unknown table '", absl::StrJoin(missing, ","), "'")};
    }
  }
  for (const auto& [db, name] : tables) {
    wire::DictReq request;
    request.mutable_drop_table()->set_database(db);
    request.mutable_drop_table()->set_name(name);
    request.mutable_drop_table()->set_if_exists(stmt.if_exists);
    auto result = RunDictionary(std::move(request), ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&result)) return *err;
  }
  return OkResult{};
}

StatementResult ExecuteCreateIndex(const CreateIndexStmt& stmt, const ExecContext& ctx) {
  auto q = Qualified(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&q)) return *err;
  const auto& [db, name] = std::get<std::pair<std::string, std::string>>(q);
  wire::DictReq request;
  wire::CreateIndex* create = request.mutable_create_index();
  create->set_database(db);
  create->set_table(name);
  create->set_name(stmt.index.name);
  for (const std::string& column : stmt.index.columns) create->add_columns(column);
  create->set_unique(stmt.index.kind == IndexSpec::Kind::kUnique);
  return OkOrError(RunDictionary(std::move(request), ctx.state), 0, kNoRecords);
}

StatementResult ExecuteDropIndex(const DropIndexStmt& stmt, const ExecContext& ctx) {
  auto q = Qualified(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&q)) return *err;
  const auto& [db, name] = std::get<std::pair<std::string, std::string>>(q);
  wire::DictReq request;
  request.mutable_drop_index()->set_database(db);
  request.mutable_drop_index()->set_table(name);
  request.mutable_drop_index()->set_name(stmt.name);
  return OkOrError(RunDictionary(std::move(request), ctx.state), 0, kNoRecords);
}

StatementResult ExecuteTruncate(const TruncateStmt& stmt, const ExecContext& ctx) {
  auto table = ResolveTable(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&table)) return *err;
  const api::TablePtr& def = std::get<api::TablePtr>(table);
  wire::DictReq request;
  request.mutable_truncate_table()->set_database(def->database);
  request.mutable_truncate_table()->set_name(def->name);
  return OkOrError(RunDictionary(std::move(request), ctx.state));
}

// ANALYZE TABLE: nothing to analyze (no cost-based planner), but a status row per table as
// mysqld gives.
StatementResult ExecuteAnalyze(const AnalyzeStmt& stmt, const ExecContext& ctx) {
  const SessionState& s = *ctx.state;
  mysql::ResultSet rs;
  rs.columns = {Named(StringColumn(513, s, Nullability::kNullable), "Table"),
                Named(StringColumn(10, s, Nullability::kNullable), "Op"),
                Named(StringColumn(9, s, Nullability::kNullable), "Msg_type"),
                Named(StringColumn(1024, s, Nullability::kNullable), "Msg_text")};
  for (const TableName& name : stmt.tables) {
    auto table = ResolveTable(name, *ctx.state);
    std::string db = name.database.empty() ? ctx.state->database : name.database;
    std::string full = absl::StrCat(db, ".", name.name);
    if (auto* err = std::get_if<mysql::SqlError>(&table)) {
      rs.rows.push_back({full, std::string("analyze"), std::string("Error"), err->message});
      rs.rows.push_back(
          {full, std::string("analyze"), std::string("error"), std::string("Corrupt")});
      continue;
    }
    rs.rows.push_back({full, std::string("analyze"), std::string("status"), std::string("OK")});
  }
  return rs;
}

}  // namespace shoal::sql::internal
