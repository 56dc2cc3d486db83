// SHOW: each form builds its full row list, then LIKE (on the first column) or WHERE (over
// the row's columns by name) filters it, as MySQL's SHOW over information_schema does. The
// forms about one table (COLUMNS, INDEX, CREATE TABLE) read its definition from the
// dictionary; COM_FIELD_LIST, the protocol's own SHOW COLUMNS, is answered here too.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "protocol/access_errors.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/like.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/column_facts.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/information_schema.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/exec/view_expansion.h"
#include "router/sql/parse/charsets.h"

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
      {"Ssl_cipher", s.ssl_cipher},
      {"Ssl_version", s.ssl_version},
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

// ---------------------------------------------------------------------------------------
// The forms about one table or database

using schema::ColumnType;

// information_schema's TEXT columns (a column's type and default) come out as BLOB, 2^24 - 1
// characters long for a MEDIUMTEXT.
ColumnDefinition TextColumn(uint32_t chars, const SessionState& s, Nullability n) {
  ColumnDefinition c = StringColumn(chars, s, n);
  c.type = mysql::ColumnType::kBlob;
  c.flags |= mysql::column_flag::kBlob;
  return c;
}

std::vector<ColumnDefinition> ColumnsColumns(bool full, const SessionState& s) {
  std::vector<ColumnDefinition> cols = {Named(StringColumn(64, s, kNN), "Field"),
                                        Named(TextColumn(16777215, s, kNN), "Type")};
  if (full) cols.push_back(Named(StringColumn(64, s, kN), "Collation"));
  cols.push_back(Named(StringColumn(3, s, kNN), "Null"));
  cols.push_back(Named(StringColumn(3, s, kNN), "Key"));
  cols.push_back(Named(TextColumn(65535, s, kN), "Default"));
  cols.push_back(Named(StringColumn(256, s, kNN), "Extra"));
  if (full) {
    cols.push_back(Named(StringColumn(154, s, kNN), "Privileges"));
    cols.push_back(Named(TextColumn(65535, s, kNN), "Comment"));
  }
  return cols;
}

std::vector<ColumnDefinition> IndexColumns(const SessionState& s) {
  using mysql::ColumnType::kLong;
  return {Named(StringColumn(64, s, kNN), "Table"),
          Named(IntColumn(1, false, kNN, kLong), "Non_unique"),
          Named(StringColumn(64, s, kNN), "Key_name"),
          Named(IntColumn(10, true, kNN, kLong), "Seq_in_index"),
          Named(StringColumn(64, s, kN), "Column_name"),
          Named(StringColumn(1, s, kN), "Collation"),
          Named(IntColumn(21, false, kN), "Cardinality"),
          Named(IntColumn(21, false, kN), "Sub_part"),
          Named(StringColumn(0, s, kN), "Packed"),
          Named(StringColumn(3, s, kNN), "Null"),
          Named(StringColumn(11, s, kNN), "Index_type"),
          Named(StringColumn(8, s, kNN), "Comment"),
          Named(StringColumn(2048, s, kNN), "Index_comment"),
          Named(StringColumn(3, s, kNN), "Visible"),
          Named(TextColumn(16777215, s, kN), "Expression")};
}

// SHOW EVENTS, TRIGGERS, PROCEDURE STATUS and FUNCTION STATUS: MySQL 8.0's columns, for
// listings that are always empty (Shoal has no stored programs).
std::vector<ColumnDefinition> StoredProgramColumns(ShowKind kind, const SessionState& s) {
  static constexpr absl::string_view kEvents[] = {"Db",
                                                  "Name",
                                                  "Definer",
                                                  "Time zone",
                                                  "Type",
                                                  "Execute at",
                                                  "Interval value",
                                                  "Interval field",
                                                  "Starts",
                                                  "Ends",
                                                  "Status",
                                                  "Originator",
                                                  "character_set_client",
                                                  "collation_connection",
                                                  "Database Collation"};
  static constexpr absl::string_view kTriggers[] = {"Trigger",
                                                    "Event",
                                                    "Table",
                                                    "Statement",
                                                    "Timing",
                                                    "Created",
                                                    "sql_mode",
                                                    "Definer",
                                                    "character_set_client",
                                                    "collation_connection",
                                                    "Database Collation"};
  static constexpr absl::string_view kRoutines[] = {"Db",
                                                    "Name",
                                                    "Type",
                                                    "Definer",
                                                    "Modified",
                                                    "Created",
                                                    "Security_type",
                                                    "Comment",
                                                    "character_set_client",
                                                    "collation_connection",
                                                    "Database Collation"};
  absl::Span<const absl::string_view> names = kRoutines;
  if (kind == ShowKind::kEvents) names = kEvents;
  if (kind == ShowKind::kTriggers) names = kTriggers;
  std::vector<ColumnDefinition> cols;
  for (absl::string_view name : names) cols.push_back(Named(StringColumn(64, s, kN), name));
  return cols;
}

// SHOW TABLE STATUS is information_schema.TABLES of one database, its columns renamed.
constexpr absl::string_view kTableStatusNames[] = {
    "Name",           "Engine",         "Version",         "Row_format",   "Rows",
    "Avg_row_length", "Data_length",    "Max_data_length", "Index_length", "Data_free",
    "Auto_increment", "Create_time",    "Update_time",     "Check_time",   "Collation",
    "Checksum",       "Create_options", "Comment"};
// TABLES' column for each of those: TABLE_NAME, then ENGINE through TABLE_COMMENT.
size_t TableStatusSource(size_t i) { return i == 0 ? 2 : i + 3; }

std::variant<std::vector<ColumnDefinition>, mysql::SqlError> TableStatusColumns(
    const ShowStmt& stmt, const SessionState& s) {
  auto db = TablesDatabase(stmt, s);
  if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
  auto tables = InformationSchemaColumns("TABLES", s);
  if (auto* err = std::get_if<mysql::SqlError>(&tables)) return *err;
  const auto& all = std::get<std::vector<ColumnDefinition>>(tables);
  std::vector<ColumnDefinition> columns;
  for (size_t i = 0; i < std::size(kTableStatusNames); ++i) {
    columns.push_back(Named(all[TableStatusSource(i)], kTableStatusNames[i]));
  }
  return columns;
}

// The rows, in the columns TableStatusColumns gave.
std::variant<std::vector<Row>, mysql::SqlError> TableStatusRows(const ShowStmt& stmt,
                                                                const SessionState& s) {
  std::string db = stmt.from_database.empty() ? s.database : stmt.from_database;
  auto tables = InformationSchemaRows("TABLES", s);
  if (auto* err = std::get_if<mysql::SqlError>(&tables)) return *err;
  std::vector<Row> rows;
  for (Row& row : std::get<FetchedRows>(tables).rows) {
    if (ValueText(row[1]) != db) continue;
    Row out;
    for (size_t i = 0; i < std::size(kTableStatusNames); ++i) {
      out.push_back(std::move(row[TableStatusSource(i)]));
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

// SHOW [FULL] PROCESSLIST is information_schema.PROCESSLIST, its columns renamed; without
// FULL, Info shows a statement's first 100 characters, as MySQL's does.
constexpr absl::string_view kProcessListNames[] = {"Id",      "User", "Host",  "db",
                                                   "Command", "Time", "State", "Info"};

std::variant<std::vector<ColumnDefinition>, mysql::SqlError> ProcessListColumns(
    const SessionState& s) {
  auto view = InformationSchemaColumns("PROCESSLIST", s);
  if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
  std::vector<ColumnDefinition> columns = std::get<std::vector<ColumnDefinition>>(view);
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = Named(columns[i], kProcessListNames[i]);
  return columns;
}

std::variant<std::vector<Row>, mysql::SqlError> ProcessListRows(const ShowStmt& stmt,
                                                                const SessionState& s) {
  auto view = InformationSchemaRows("PROCESSLIST", s);
  if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
  std::vector<Row> rows = std::move(std::get<FetchedRows>(view).rows);
  if (!stmt.full) {
    for (Row& row : rows) {
      if (auto* info = std::get_if<std::string>(&row.back())) {
        *info = std::string(Utf8FirstChars(*info, 100));
      }
    }
  }
  return rows;
}

std::vector<ColumnDefinition> CreateColumns(absl::string_view what, const SessionState& s) {
  return {Named(StringColumn(64, s, kNN), what),
          Named(StringColumn(1024, s, kNN), absl::StrCat("Create ", what))};
}

Row ColumnRow(const schema::TableDef& table, int i, bool full, const SessionState& s) {
  const schema::ColumnDef& c = table.columns[i];
  ColumnDefinition rc = ResultColumn(table, i, ResultCollationId(s), ResultCharsetMaxLen(s));
  Row row;
  row.emplace_back(c.name);
  row.emplace_back(ColumnTypeText(c));
  if (full) {
    absl::string_view collation = ColumnCollationName(c);
    row.push_back(collation.empty() ? Value{} : Value{std::string(collation)});
  }
  row.push_back(std::string(c.nullable ? "YES" : "NO"));
  row.push_back(KeyText(rc.flags));
  std::optional<std::string> dflt = DeclaredDefault(c, rc);
  row.push_back(dflt ? Value{std::move(*dflt)} : Value{});
  row.push_back(ColumnExtra(c));
  if (full) {
    row.push_back(std::string("select,insert,update,references"));
    row.push_back(c.comment);
  }
  return row;
}

std::vector<Row> ColumnRows(const schema::TableDef& table, bool full, const SessionState& s) {
  std::vector<Row> rows;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (!table.columns[i].hidden) rows.push_back(ColumnRow(table, static_cast<int>(i), full, s));
  }
  return rows;
}

std::vector<Row> IndexRows(const schema::TableDef& table) {
  std::vector<Row> rows;
  for (const schema::IndexDef& index : table.indexes) {
    if (index.columns.size() == 1 && table.columns[index.columns[0]].hidden) continue;
    for (size_t seq = 0; seq < index.columns.size(); ++seq) {
      const schema::ColumnDef& c = table.columns[index.columns[seq]];
      rows.push_back({table.name, int64_t{index.unique ? 0 : 1}, index.name, uint64_t{seq + 1},
                      c.name, std::string("A"), int64_t{0}, Value{}, Value{},
                      std::string(c.nullable ? "YES" : ""), std::string("BTREE"), std::string(),
                      std::string(), std::string("YES"), Value{}});
    }
  }
  return rows;
}

std::variant<std::vector<Row>, mysql::SqlError> CreateDatabaseRows(const ShowStmt& stmt,
                                                                   const SessionState& s) {
  const std::string& db = stmt.table.name;
  if (auto err = CheckDatabaseForUse(db, s)) return *err;
  // information_schema is the one system schema MySQL 8.0 keeps in utf8mb3.
  absl::string_view charset = absl::AsciiStrToLower(db) == "information_schema"
                                  ? "utf8mb3"
                                  : "utf8mb4";  // the default collation: see ShowCreateTableText
  return std::vector<Row>{
      {db, absl::StrCat("CREATE DATABASE ", stmt.if_not_exists ? "/*!32312 IF NOT EXISTS*/ " : "",
                        QuoteIdentifier(db), " /*!40100 DEFAULT CHARACTER SET ", charset,
                        " */ /*!80016 DEFAULT ENCRYPTION='N' */")}};
}

// SHOW COLUMNS, INDEX, CREATE TABLE and CREATE VIEW of a view: its columns as typed now, no
// index, its definition.
std::variant<std::vector<Row>, mysql::SqlError> ViewFormRows(const ShowStmt& stmt,
                                                             const wire::View& view,
                                                             const SessionState& s) {
  switch (stmt.kind) {
    case ShowKind::kColumns: {
      auto table = ViewAsTable(view, s);
      if (auto* err = std::get_if<mysql::SqlError>(&table)) return *err;
      return ColumnRows(std::get<schema::TableDef>(table), stmt.full, s);
    }
    case ShowKind::kIndex:
      return std::vector<Row>{};
    default:
      return std::vector<Row>{{view.name(), ShowCreateViewText(view), view.character_set_client(),
                               view.collation_connection()}};
  }
}

// The rows of SHOW COLUMNS, INDEX, CREATE TABLE/VIEW and CREATE DATABASE (1046, 1146, 1049).
std::variant<std::vector<Row>, mysql::SqlError> TableFormRows(const ShowStmt& stmt,
                                                              const SessionState& s) {
  if (stmt.kind == ShowKind::kCreateDatabase) return CreateDatabaseRows(stmt, s);
  if (s.data != nullptr && !stmt.table.name.empty() &&
      (!stmt.table.database.empty() || !s.database.empty())) {
    auto found = LookUpView(stmt.table, s);
    if (auto* err = std::get_if<mysql::SqlError>(&found)) return *err;
    if (const auto& view = std::get<std::optional<wire::View>>(found))
      return ViewFormRows(stmt, *view, s);
  }
  if (stmt.kind == ShowKind::kCreateView) {
    auto resolved = ResolveTable(stmt.table, s);
    if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
    return mysql::SqlError{1347, "HY000",
                           absl::StrCat("'", table.database, ".", table.name, "' is not VIEW")};
  }
  auto resolved = ResolveTable(stmt.table, s);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
  switch (stmt.kind) {
    case ShowKind::kColumns:
      return ColumnRows(table, stmt.full, s);
    case ShowKind::kIndex:
      return IndexRows(table);
    default: {
      // AUTO_INCREMENT=n as MySQL shows it: the table's next value, when above 1.
      auto next = NextAutoIncrements({std::get<api::TablePtr>(resolved)}, s);
      if (auto* err = std::get_if<mysql::SqlError>(&next)) return *err;
      const auto& counters = std::get<absl::flat_hash_map<uint32_t, uint64_t>>(next);
      auto it = counters.find(table.id);
      return std::vector<Row>{
          {table.name, ShowCreateTableText(table, it == counters.end() ? 0 : it->second)}};
    }
  }
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

std::vector<std::string> VisibleDatabases(const SessionState& state) {
  std::vector<std::string> dbs = ListDatabases(state);
  std::erase_if(dbs, [&](const std::string& db) {
    return db != "performance_schema" && !SessionSeesDatabase(state, db);
  });
  return dbs;
}

std::vector<std::string> ListTables(const SessionState& state, absl::string_view database) {
  std::vector<std::string> tables;
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state)) {
    for (const auto& [name, table] : dictionary->by_name) {
      if (table->database == database) tables.push_back(table->name);
    }
    for (const auto& [name, view] : dictionary->views) {
      if (view.database() == database) tables.push_back(view.name());
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
      return ColumnsColumns(stmt.full, s);
    case ShowKind::kIndex:
      return IndexColumns(s);
    case ShowKind::kCreateTable:
    case ShowKind::kCreateView: {
      bool view = stmt.kind == ShowKind::kCreateView;
      if (!view && s.data != nullptr) {
        auto found = LookUpView(stmt.table, s);
        if (auto* err = std::get_if<mysql::SqlError>(&found)) return *err;
        view = std::get<std::optional<wire::View>>(found).has_value();
      }
      if (!view) return CreateColumns("Table", s);
      std::vector<ColumnDefinition> cols = CreateColumns("View", s);
      cols.push_back(Named(StringColumn(32, s, kNN), "character_set_client"));
      cols.push_back(Named(StringColumn(32, s, kNN), "collation_connection"));
      return cols;
    }
    case ShowKind::kCreateDatabase:
      return CreateColumns("Database", s);
    case ShowKind::kEvents:
    case ShowKind::kTriggers: {
      auto db = TablesDatabase(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&db)) return *err;
      return StoredProgramColumns(stmt.kind, s);
    }
    case ShowKind::kProcedureStatus:
    case ShowKind::kFunctionStatus:
      return StoredProgramColumns(stmt.kind, s);
    case ShowKind::kTableStatus:
      return TableStatusColumns(stmt, s);
    case ShowKind::kProcessList:
      return ProcessListColumns(s);
    case ShowKind::kGrants:
    case ShowKind::kCreateUser:
      return std::vector<ColumnDefinition>{
          Named(StringColumn(1024, s, kNN), AccountColumnTitle(stmt, s))};
  }
  return std::vector<ColumnDefinition>{};
}

std::variant<std::vector<FieldListColumn>, mysql::SqlError> ListFields(absl::string_view table_name,
                                                                       absl::string_view wildcard,
                                                                       const SessionState& s) {
  if (s.database.empty()) return mysql::errors::NoDatabaseSelected();
  if (!SessionSeesTable(s, s.database, table_name)) {
    return mysql::errors::TableAccessDenied("SELECT", s.user, s.host, table_name);
  }
  if (s.data == nullptr) return mysql::errors::NoSuchTable(s.database, table_name);
  TableName name{"", std::string(table_name)};
  auto found = LookUpView(name, s);
  if (auto* err = std::get_if<mysql::SqlError>(&found)) return *err;
  api::TablePtr resolved_table;
  if (const auto& view = std::get<std::optional<wire::View>>(found)) {
    auto as_table = ViewAsTable(*view, s);
    if (auto* err = std::get_if<mysql::SqlError>(&as_table)) return *err;
    resolved_table =
        std::make_shared<const schema::TableDef>(std::get<schema::TableDef>(std::move(as_table)));
  } else {
    auto resolved = ResolveTable(name, s);
    if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    resolved_table = std::get<api::TablePtr>(std::move(resolved));
  }
  const schema::TableDef& table = *resolved_table;
  std::optional<LikeMatcher> match;
  if (!wildcard.empty()) match.emplace(wildcard, '\\', LikeMatcher::Case::kInsensitive);
  std::vector<FieldListColumn> fields;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const schema::ColumnDef& c = table.columns[i];
    if (c.hidden || (match && !match->Matches(c.name))) continue;
    FieldListColumn field;
    field.definition =
        ResultColumn(table, static_cast<int>(i), ResultCollationId(s), ResultCharsetMaxLen(s));
    field.default_text = DeclaredDefault(c, field.definition);
    if (!field.default_text && !c.nullable) {
      field.default_text = ColumnValueText(ZeroValue(c), field.definition);
    }
    fields.push_back(std::move(field));
  }
  return fields;
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
      if (auto err = RequireCurrentDictionary(s)) return *err;
      for (std::string& db : VisibleDatabases(s)) rs.rows.push_back({std::move(db)});
      break;
    case ShowKind::kTables: {
      if (auto err = RequireCurrentDictionary(s)) return *err;
      std::string db = stmt.from_database.empty() ? s.database : stmt.from_database;
      std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(s);
      for (std::string& t : ListTables(s, db)) {
        if (!SessionSeesTable(s, db, t)) continue;
        bool view = dictionary != nullptr && dictionary->FindView(db, t) != nullptr;
        Row row = {std::move(t)};
        if (stmt.full) row.push_back(std::string(view ? "VIEW" : "BASE TABLE"));
        rs.rows.push_back(std::move(row));
      }
      break;
    }
    case ShowKind::kColumns:
    case ShowKind::kIndex:
    case ShowKind::kCreateTable:
    case ShowKind::kCreateView:
    case ShowKind::kCreateDatabase: {
      auto rows = TableFormRows(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
      rs.rows = std::get<std::vector<Row>>(std::move(rows));
      break;
    }
    case ShowKind::kEvents:
    case ShowKind::kTriggers:
    case ShowKind::kProcedureStatus:
    case ShowKind::kFunctionStatus:
      break;  // no stored programs
    case ShowKind::kTableStatus: {
      auto rows = TableStatusRows(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
      rs.rows = std::get<std::vector<Row>>(std::move(rows));
      break;
    }
    case ShowKind::kGrants:
    case ShowKind::kCreateUser: {
      auto rows = AccountRows(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
      rs.rows = std::get<std::vector<Row>>(std::move(rows));
      break;
    }
    case ShowKind::kProcessList: {
      auto rows = ProcessListRows(stmt, s);
      if (auto* err = std::get_if<mysql::SqlError>(&rows)) return *err;
      rs.rows = std::get<std::vector<Row>>(std::move(rows));
      break;
    }
  }
  if (auto err = Filter(stmt, ctx, &rs)) return *err;
  for (Row& r : rs.rows) {
    for (size_t i = 0; i < r.size(); ++i) r[i] = ConvertToColumn(r[i], rs.columns[i]);
  }
  return rs;
}

}  // namespace shoal::sql::internal
