// DDL: databases, tables and indexes, through the dictionary master (engine/wire
// dictionary.proto). A DDL statement is deferred like a table statement: it commits the
// session's open transaction (MySQL's implicit commit), then sends its requests to the master
// one after the other, each once the previous one is confirmed. DDL is rare and the master
// serializes it anyway, but its worker's other sessions go on meanwhile.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/api/client.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_key_definitions.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"

namespace shoal::sql::internal {
namespace {

// Runs a DDL statement's dictionary requests: the first error is the statement's (those
// before it stay done, as in MySQL's multi-table DROP TABLE), a note becomes a warning.
class DdlRun : public AsyncStatement {
 public:
  DdlRun(const ExecContext& ctx, std::vector<wire::DictReq> requests, DdlFinish finish)
      : AsyncStatement(ctx), requests_(std::move(requests)), finish_(std::move(finish)) {}

  // `this` may be gone when it returns.
  void Start() {
    CommitBeforeDdl([this] { Next(); });
  }

 private:
  void Next() {
    if (next_ == requests_.size()) return Deliver(finish_(state(), last_));
    data()->client().Dictionary(
        std::move(requests_[next_++]),
        [this](absl::StatusOr<wire::DictConf> conf) { Confirmed(std::move(conf)); });
    data()->Flush();
  }

  void Confirmed(absl::StatusOr<wire::DictConf> conf) {
    if (auto error = DictionaryAnswerError(conf)) return Deliver(*std::move(error));
    if (conf->note_code() != 0 && state() != nullptr) {
      AddWarning(state(), Diagnostic::Level::kNote, static_cast<uint16_t>(conf->note_code()),
                 conf->note_message());
    }
    last_ = *std::move(conf);
    Next();
  }

  std::vector<wire::DictReq> requests_;
  size_t next_ = 0;
  DdlFinish finish_;
  wire::DictConf last_;
};

// Whether every table whose foreign keys reference db.name is db.name itself or in `tables`.
bool ReferencedOnlyFrom(const api::Dictionary& dictionary, const std::string& db,
                        const std::string& name,
                        const std::vector<std::pair<std::string, std::string>>& tables) {
  api::TablePtr parent = dictionary.Find(db, name);
  const std::vector<api::Dictionary::Reference>* references =
      parent == nullptr ? nullptr : dictionary.ReferencesTo(*parent);
  if (references == nullptr) return false;
  return std::all_of(references->begin(), references->end(), [&](const auto& r) {
    return std::find(tables.begin(), tables.end(),
                     std::make_pair(r.child->database, r.child->name)) != tables.end();
  });
}

// A table that names its database or uses the session's.
std::variant<std::pair<std::string, std::string>, mysql::SqlError> Qualified(
    const TableName& name, const SessionState& state) {
  auto db = DatabaseOf(name, state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  return std::make_pair(std::get<std::string>(std::move(db)), name.name);
}

}  // namespace

// Runs `requests` (DdlRun); `finish` makes the OK.
StatementResult RunDictionary(std::vector<wire::DictReq> requests, const ExecContext& ctx,
                              DdlFinish finish) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new DdlRun(ctx, std::move(requests), std::move(finish));
  run->Start();
  return Deferred{};
}

StatementResult RunDictionary(wire::DictReq request, const ExecContext& ctx, OkResult ok) {
  std::vector<wire::DictReq> requests;
  requests.push_back(std::move(request));
  return RunDictionary(std::move(requests), ctx,
                       [ok = std::move(ok)](SessionState*, const wire::DictConf&) { return ok; });
}

StatementResult ExecuteCreateDatabase(const CreateDatabaseStmt& stmt, const ExecContext& ctx) {
  wire::DictReq request;
  request.mutable_create_database()->set_name(stmt.name);
  request.mutable_create_database()->set_if_not_exists(stmt.if_not_exists);
  std::vector<wire::DictReq> requests;
  requests.push_back(std::move(request));
  return RunDictionary(std::move(requests), ctx, [](SessionState*, const wire::DictConf& last) {
    OkResult ok;
    ok.affected_rows = last.note_code() == 0 ? 1 : 0;  // a note: it existed already
    return ok;
  });
}

StatementResult ExecuteDropDatabase(const DropDatabaseStmt& stmt, const ExecContext& ctx) {
  if (auto err = RequireCurrentDictionary(*ctx.state)) return *err;
  uint64_t tables = 0;
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state)) {
    for (const auto& [name, table] : dictionary->by_name) tables += table->database == stmt.name;
  }
  wire::DictReq request;
  request.mutable_drop_database()->set_name(stmt.name);
  request.mutable_drop_database()->set_if_exists(stmt.if_exists);
  std::vector<wire::DictReq> requests;
  requests.push_back(std::move(request));
  return RunDictionary(std::move(requests), ctx,
                       [tables, name = stmt.name](SessionState* state, const wire::DictConf&) {
                         if (state != nullptr && state->database == name) {
                           state->database.clear();  // as mysqld
                         }
                         OkResult ok;
                         ok.affected_rows = tables;
                         return ok;
                       });
}

// CREATE TABLE t LIKE source: the source's columns, indexes and options under the new name, as
// MySQL copies them — not its foreign keys, nor its AUTO_INCREMENT counter (the new table's
// starts at 1). 1146 for a source that does not exist, the master's 1050 for a name taken.
StatementResult CreateTableLike(const CreateTableStmt& stmt, const std::string& db,
                                const ExecContext& ctx) {
  auto source = ResolveTable(*stmt.like, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&source)) return *err;
  schema::TableDef def = *std::get<api::TablePtr>(source);
  def.id = 0;
  def.version = 0;
  def.database = db;
  def.name = stmt.table.name;
  def.foreign_keys.clear();
  for (schema::IndexDef& index : def.indexes) index.for_foreign_key = false;
  wire::DictReq request;
  std::string bytes;
  schema::AppendTableDef(def, &bytes);
  request.mutable_create_table()->set_table(std::move(bytes));
  request.mutable_create_table()->set_if_not_exists(stmt.if_not_exists);
  return RunDictionary(std::move(request), ctx, OkResult{});
}

StatementResult ExecuteCreateTable(const CreateTableStmt& stmt, const ExecContext& ctx) {
  auto db = DatabaseOf(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  if (stmt.like) return CreateTableLike(stmt, std::get<std::string>(db), ctx);
  if (stmt.insert_select) return ExecuteCreateTableSelect(stmt, std::get<std::string>(db), ctx);
  auto def = TableDefFromSpec(stmt, std::get<std::string>(db));
  if (auto* err = std::get_if<mysql::SqlError>(&def)) return *err;
  if (!std::get<schema::TableDef>(def).foreign_keys.empty()) {
    if (auto err = RequireCurrentDictionary(*ctx.state)) return *err;
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state);
    if (dictionary == nullptr) return ClusterFailure();
    if (auto err = CheckForeignKeyDefinitions(std::get<schema::TableDef>(def), *dictionary,
                                              ForeignKeyChecksOn(*ctx.state))) {
      return *err;
    }
  }
  wire::DictReq request;
  std::string bytes;
  schema::AppendTableDef(std::get<schema::TableDef>(def), &bytes);
  request.mutable_create_table()->set_table(std::move(bytes));
  request.mutable_create_table()->set_if_not_exists(stmt.if_not_exists);
  request.mutable_create_table()->set_auto_increment(stmt.auto_increment.value_or(0));
  return RunDictionary(std::move(request), ctx, OkResult{});
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
    // Like MySQL's atomic DROP TABLE: nothing is dropped when any table is missing. Checked on
    // a freshly fetched dictionary (or, when that fails, the cached one).
    if (auto err = WantRefresh(*ctx.state)) return *err;
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
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state);
  const bool checks = ForeignKeyChecksOn(*ctx.state);
  std::vector<wire::DictReq> requests;
  for (const auto& [db, name] : tables) {
    wire::DictReq& request = requests.emplace_back();
    request.mutable_drop_table()->set_database(db);
    request.mutable_drop_table()->set_name(name);
    request.mutable_drop_table()->set_if_exists(stmt.if_exists);
    // A parent may go with all the children that reference it (the master refuses it, 3730,
    // while any other remains).
    request.mutable_drop_table()->set_ignore_foreign_keys(
        !checks || (dictionary != nullptr && ReferencedOnlyFrom(*dictionary, db, name, tables)));
  }
  return RunDictionary(std::move(requests), ctx,
                       [](SessionState*, const wire::DictConf&) { return OkResult{}; });
}

// CREATE INDEX and DROP INDEX are ALTER TABLE … ADD/DROP INDEX, as in MySQL.
StatementResult ExecuteCreateIndex(const CreateIndexStmt& stmt, const ExecContext& ctx) {
  AlterTableStmt alter;
  alter.table = stmt.table;
  AlterAction& add = alter.actions.emplace_back();
  add.kind = AlterAction::Kind::kAddIndex;
  add.index = stmt.index;
  return ExecuteAlterTable(alter, ctx);
}

StatementResult ExecuteDropIndex(const DropIndexStmt& stmt, const ExecContext& ctx) {
  AlterTableStmt alter;
  alter.table = stmt.table;
  AlterAction& drop = alter.actions.emplace_back();
  drop.kind = AlterAction::Kind::kDropIndex;
  drop.name = stmt.name;
  return ExecuteAlterTable(alter, ctx);
}

StatementResult ExecuteTruncate(const TruncateStmt& stmt, const ExecContext& ctx) {
  auto table = ResolveTableToWrite(stmt.table, "", *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&table)) return *err;
  const api::TablePtr& def = std::get<api::TablePtr>(table);
  std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(*ctx.state);
  const std::vector<api::Dictionary::Reference>* references =
      dictionary == nullptr ? nullptr : dictionary->ReferencesTo(*def);
  if (references != nullptr && ForeignKeyChecksOn(*ctx.state)) {
    for (const api::Dictionary::Reference& r : *references) {
      if (r.child->id == def->id) continue;
      return mysql::SqlError{
          1701, "42000",
          absl::StrCat("Cannot truncate a table referenced in a foreign key constraint (",
                       QuoteIdentifier(r.child->database), ".", QuoteIdentifier(r.child->name),
                       ", CONSTRAINT ", QuoteIdentifier(r.child->foreign_keys[r.key].name), ")")};
    }
  }
  wire::DictReq request;
  request.mutable_truncate_table()->set_database(def->database);
  request.mutable_truncate_table()->set_name(def->name);
  return RunDictionary(std::move(request), ctx, OkResult{});
}

// ANALYZE, CHECK, OPTIMIZE and REPAIR TABLE: nothing to do for tables the data nodes keep in
// memory and check as they write (no cost-based planner to feed, no pages to defragment or
// mend), but a row per table as mysqld gives for NDB — REPAIR's note as for InnoDB — and, for a
// table that is not there, its error and "Operation failed".
StatementResult ExecuteTableMaintenance(const TableMaintenanceStmt& stmt, const ExecContext& ctx) {
  using Op = TableMaintenanceStmt::Op;
  const SessionState& s = *ctx.state;
  const std::string op = stmt.op == Op::kCheck      ? "check"
                         : stmt.op == Op::kOptimize ? "optimize"
                         : stmt.op == Op::kRepair   ? "repair"
                                                    : "analyze";
  mysql::ResultSet rs;
  rs.columns = {Named(StringColumn(513, s, Nullability::kNullable), "Table"),
                Named(StringColumn(10, s, Nullability::kNullable), "Op"),
                Named(StringColumn(9, s, Nullability::kNullable), "Msg_type"),
                Named(StringColumn(1024, s, Nullability::kNullable), "Msg_text")};
  for (const TableName& name : stmt.tables) {
    auto table = ResolveTable(name, *ctx.state);
    if (s.wanted != nullptr) return std::get<mysql::SqlError>(table);  // runs again
    std::string db = name.database.empty() ? ctx.state->database : name.database;
    std::string full = absl::StrCat(db, ".", name.name);
    if (auto* err = std::get_if<mysql::SqlError>(&table)) {
      rs.rows.push_back({full, op, std::string("Error"), err->message});
      rs.rows.push_back({full, op, std::string("status"), std::string("Operation failed")});
      continue;
    }
    if (stmt.op == Op::kRepair) {
      rs.rows.push_back({full, op, std::string("note"),
                         std::string("The storage engine for the table doesn't support repair")});
      continue;
    }
    rs.rows.push_back({full, op, std::string("status"), std::string("OK")});
  }
  return rs;
}

}  // namespace shoal::sql::internal
