// SHOW: each form builds its full row list, then LIKE (on the first column) or WHERE (over
// the row's columns by name) filters it, as MySQL's SHOW over information_schema does.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/charsets.h"
#include "router/sql/exec_internal.h"
#include "router/sql/table_access.h"
#include "router/sql/like.h"
#include "router/sql/result_columns.h"
#include "router/sql/system_variables.h"
#include "router/sql/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;
using Row = std::vector<Value>;

constexpr Nullability kNN = Nullability::kNotNull;
constexpr Nullability kN = Nullability::kNullable;

std::vector<ColumnDefinition> NameValueColumns(absl::string_view name_col, const SessionState& s) {
  return {Named(StringColumn(64, s, kNN), name_col), Named(StringColumn(1024, s, kN), "Value")};
}

// The name of SHOW DATABASES/TABLES' column, which names the LIKE pattern when there is one.
std::string WithPattern(std::string name, const ShowStmt& stmt) {
  if (stmt.like) absl::StrAppend(&name, " (", *stmt.like, ")");
  return name;
}

std::variant<std::string, mysql::SqlError> TablesDatabase(const ShowStmt& stmt,
                                                          const SessionState& s) {
  std::string db = stmt.from_database.empty() ? s.database : stmt.from_database;
  if (db.empty()) return mysql::errors::NoDatabaseSelected();
  return db;
}

std::vector<Row> VariableRows(const ShowStmt& stmt, const SessionState& s) {
  std::vector<Row> rows;
  for (const SysVarDef& def : AllSysVars()) {
    if (stmt.scope == VarScope::kGlobal && def.scope == VarScopeKind::kSessionOnly) continue;
    if (!def.alias_of.empty()) continue;  // removed names are not listed by MySQL 8.0
    Value v = stmt.scope == VarScope::kGlobal ? GlobalValue(def, s) : SessionValue(def, s);
    rows.push_back({std::string(def.name), DisplayValue(def, v)});
  }
  return rows;
}

std::vector<Row> StatusRows(const SessionState& s, absl::Time now) {
  const ServerInfo* server = s.server;
  int64_t uptime = server == nullptr ? 0 : absl::ToInt64Seconds(now - server->started);
  int64_t connected =
      server != nullptr && server->threads_connected ? server->threads_connected() : 1;
  std::vector<std::pair<std::string, std::string>> status = {
      {"Aborted_clients", "0"},
      {"Aborted_connects", "0"},
      {"Compression", "OFF"},
      {"Connections", absl::StrCat(s.connection_id)},
      {"Queries", absl::StrCat(s.questions)},
      {"Questions", absl::StrCat(s.questions)},
      {"Ssl_cipher", ""},
      {"Ssl_version", ""},
      {"Threads_connected", absl::StrCat(connected)},
      {"Threads_running", "1"},
      {"Uptime", absl::StrCat(std::max<int64_t>(uptime, 0))},
      {"Uptime_since_flush_status", absl::StrCat(std::max<int64_t>(uptime, 0))},
  };
  std::vector<Row> rows;
  for (auto& [name, value] : status) rows.push_back({name, value});
  return rows;
}

std::vector<Row> WarningRows(const ShowStmt& stmt, const SessionState& s) {
  std::vector<Row> rows;
  for (const Diagnostic& d : s.warnings) {
    if (stmt.kind == ShowKind::kErrors && d.level != Diagnostic::Level::kError) continue;
    const char* level = d.level == Diagnostic::Level::kNote      ? "Note"
                        : d.level == Diagnostic::Level::kWarning ? "Warning"
                                                                 : "Error";
    rows.push_back({std::string(level), uint64_t{d.code}, d.message});
  }
  return rows;
}

std::vector<Row> CollationRows() {
  std::vector<Row> rows;
  for (const CollationInfo& c : AllCollations()) {
    rows.push_back({std::string(c.name), std::string(c.charset), uint64_t{c.id},
                    std::string(c.is_default ? "Yes" : ""), std::string("Yes"),
                    static_cast<uint64_t>(c.sortlen), std::string(c.pad_attribute)});
  }
  return rows;
}

std::vector<Row> CharsetRows() {
  std::vector<Row> rows;
  for (const CharsetInfo& c : AllCharsets()) {
    rows.push_back({std::string(c.name), std::string(c.description),
                    std::string(c.default_collation), static_cast<uint64_t>(c.maxlen)});
  }
  return rows;
}

// Keeps the rows LIKE or WHERE select.
std::optional<mysql::SqlError> Filter(const ShowStmt& stmt, const ExecContext& ctx,
                                      mysql::ResultSet* rs) {
  if (stmt.like) {
    LikeMatcher m(*stmt.like, '\\', LikeMatcher::Case::kInsensitive);
    std::erase_if(rs->rows, [&](const Row& r) { return !m.Matches(ValueText(r[0])); });
  } else if (stmt.where != nullptr) {
    std::vector<Row> kept;
    for (Row& r : rs->rows) {
      EvalContext eval = ctx.Eval();
      eval.row_columns = &rs->columns;
      eval.row = &r;
      eval.clause = "where clause";
      auto v = Evaluate(*stmt.where, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      if (Truth(std::get<Value>(v)) == 1) kept.push_back(std::move(r));
    }
    rs->rows = std::move(kept);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> ListDatabases(const SessionState& state) {
  std::vector<std::string> dbs = {"information_schema", "mysql", "performance_schema", "sys"};
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state)) {
    dbs.insert(dbs.end(), dictionary->databases.begin(), dictionary->databases.end());
  } else if (!state.database.empty() &&
             std::find(dbs.begin(), dbs.end(), state.database) == dbs.end()) {
    dbs.push_back(state.database);  // no cluster: what the session chose
  }
  std::sort(dbs.begin(), dbs.end());
  return dbs;
}

std::vector<std::string> ListTables(const SessionState& state, absl::string_view database) {
  std::vector<std::string> tables;
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state)) {
    for (const auto& [name, table] : dictionary->by_name) {
      if (table->database == database) tables.push_back(table->name);
    }
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

std::variant<std::vector<ColumnDefinition>, mysql::SqlError> ShowColumns(const ShowStmt& stmt,
                                                                         const SessionState& s) {
  switch (stmt.kind) {
    case ShowKind::kVariables:
    case ShowKind::kStatus:
      return NameValueColumns("Variable_name", s);
    case ShowKind::kWarnings:
    case ShowKind::kErrors:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(7, s, kNN), "Level"),
          Named(IntColumn(4, true, kNN, mysql::ColumnType::kLong), "Code"),
          Named(StringColumn(512, s, kNN), "Message")};
    case ShowKind::kCountWarnings:
    case ShowKind::kCountErrors: {
      ColumnDefinition c = IntColumn(21, true, kNN);
      c.name = stmt.kind == ShowKind::kCountWarnings ? "@@session.warning_count"
                                                     : "@@session.error_count";
      return std::vector<ColumnDefinition>{c};
    }
    case ShowKind::kEngines:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(64, s, kNN), "Engine"),  Named(StringColumn(8, s, kNN), "Support"),
          Named(StringColumn(80, s, kNN), "Comment"), Named(StringColumn(3, s, kN), "Transactions"),
          Named(StringColumn(3, s, kN), "XA"),        Named(StringColumn(3, s, kN), "Savepoints")};
    case ShowKind::kCollation:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(64, s, kNN), "Collation"),
          Named(StringColumn(64, s, kNN), "Charset"),
          Named(IntColumn(20, true, kNN), "Id"),
          Named(StringColumn(3, s, kNN), "Default"),
          Named(StringColumn(3, s, kNN), "Compiled"),
          Named(IntColumn(10, true, kNN, mysql::ColumnType::kLong), "Sortlen"),
          Named(StringColumn(9, s, kNN), "Pad_attribute")};
    case ShowKind::kCharset:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(64, s, kNN), "Charset"),
          Named(StringColumn(2048, s, kNN), "Description"),
          Named(StringColumn(64, s, kNN), "Default collation"),
          Named(IntColumn(10, true, kNN, mysql::ColumnType::kLong), "Maxlen")};
    case ShowKind::kDatabases:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(64, s, kNN), WithPattern("Database", stmt))};
    case ShowKind::kTables: {
      auto db = TablesDatabase(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
      std::vector<ColumnDefinition> cols = {Named(
          StringColumn(64, s, kNN), WithPattern("Tables_in_" + std::get<std::string>(db), stmt))};
      if (stmt.full) cols.push_back(Named(StringColumn(64, s, kNN), "Table_type"));
      return cols;
    }
    case ShowKind::kColumns:
    case ShowKind::kIndex:
    case ShowKind::kCreateTable:
    case ShowKind::kCreateDatabase:
      return mysql::errors::NotSupportedYet("SHOW of table definitions");
  }
  return std::vector<ColumnDefinition>{};
}

StatementResult ExecuteShow(const ShowStmt& stmt, const ExecContext& ctx) {
  const SessionState& s = *ctx.state;
  auto cols = ShowColumns(stmt, s);
  if (auto* err = std::get_if<mysql::SqlError>(&cols)) return *err;
  mysql::ResultSet rs;
  rs.columns = std::get<std::vector<ColumnDefinition>>(std::move(cols));
  switch (stmt.kind) {
    case ShowKind::kVariables:
      rs.rows = VariableRows(stmt, s);
      break;
    case ShowKind::kStatus:
      rs.rows = StatusRows(s, ctx.now);
      break;
    case ShowKind::kWarnings:
    case ShowKind::kErrors: {
      rs.rows = WarningRows(stmt, s);
      if (stmt.limit) {
        uint64_t offset = 0, count = 0;
        if (auto err = EvalLimit(*stmt.limit, ctx, &offset, &count)) return *err;
        size_t from = std::min<uint64_t>(offset, rs.rows.size());
        size_t to =
            std::min<uint64_t>(from + std::min<uint64_t>(count, rs.rows.size()), rs.rows.size());
        rs.rows = std::vector<Row>(rs.rows.begin() + from, rs.rows.begin() + to);
      }
      break;
    }
    case ShowKind::kCountWarnings:
    case ShowKind::kCountErrors: {
      uint64_t n = 0;
      for (const Diagnostic& d : s.warnings) {
        n += stmt.kind == ShowKind::kCountWarnings || d.level == Diagnostic::Level::kError;
      }
      rs.rows.push_back({n});
      break;
    }
    case ShowKind::kEngines:
      rs.rows.push_back({std::string("ndbcluster"), std::string("DEFAULT"),
                         std::string("Clustered, fault-tolerant tables"), std::string("YES"),
                         std::string("NO"), std::string("NO")});
      break;
    case ShowKind::kCollation:
      rs.rows = CollationRows();
      break;
    case ShowKind::kCharset:
      rs.rows = CharsetRows();
      break;
    case ShowKind::kDatabases:
      for (std::string& db : ListDatabases(s)) rs.rows.push_back({std::move(db)});
      break;
    case ShowKind::kTables: {
      std::string db = stmt.from_database.empty() ? s.database : stmt.from_database;
      for (std::string& t : ListTables(s, db)) {
        Row row = {std::move(t)};
        if (stmt.full) row.push_back(std::string("BASE TABLE"));
        rs.rows.push_back(std::move(row));
      }
      break;
    }
    case ShowKind::kColumns:
    case ShowKind::kIndex:
    case ShowKind::kCreateTable:
    case ShowKind::kCreateDatabase:
      break;  // ShowColumns refused them
  }
  if (auto err = Filter(stmt, ctx, &rs)) return *err;
  for (Row& r : rs.rows) {
    for (size_t i = 0; i < r.size(); ++i) r[i] = ConvertToColumn(r[i], rs.columns[i]);
  }
  return rs;
}

}  // namespace shoal::sql::internal
