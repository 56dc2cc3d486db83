// See information_schema.h. One table of views: each names its columns (MySQL 8.0's, in
// order) and how its rows are built; a view Shoal has nothing for builds none.
#include "router/sql/exec/information_schema.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/access/privileges.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/catalog_accounts.h"
#include "router/sql/exec/column_facts.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/exec/view_expansion.h"
#include "router/sql/parse/charsets.h"
#include "router/sql/parse/lexer.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;
using Row = std::vector<Value>;
using schema::ColumnType;

constexpr absl::string_view kDefaultCollation = "utf8mb4_0900_ai_ci";

// How a view's column is typed: names (VARCHAR(64)), long texts, counts (BIGINT UNSIGNED)
// and times (DATETIME).
enum class Kind : uint8_t { kName, kText, kCount, kTime };

struct ViewColumn {
  absl::string_view name;
  Kind kind;
};

// Everything a view's rows are built from.
struct Catalog {
  const SessionState& state;
  std::vector<std::string> databases;
  std::vector<api::TablePtr> tables;  // by database, then name
  std::vector<wire::View> views;      // the same
  // TABLES.AUTO_INCREMENT: the next value of each table with an AUTO_INCREMENT column.
  absl::flat_hash_map<uint32_t, uint64_t> next_auto_increment;
};

using RowsFn = void (*)(const Catalog&, std::vector<Row>*);

struct View {
  absl::string_view name;
  std::vector<ViewColumn> columns;
  RowsFn rows;                   // null: always empty
  bool needs_dictionary = true;  // its rows come from the dictionary (not the router's own)
  // information_schema (names in any case), or mysql for mysql.user (names as written).
  absl::string_view schema = "information_schema";
};

constexpr Kind N = Kind::kName, T = Kind::kText, C = Kind::kCount, D = Kind::kTime;

std::string Str(absl::string_view s) { return std::string(s); }

bool IsText(ColumnType t) {
  return t == ColumnType::kChar || t == ColumnType::kVarChar || t == ColumnType::kText ||
         schema::IsEnumOrSet(t);
}

bool IsBytes(ColumnType t) {
  return t == ColumnType::kBinary || t == ColumnType::kVarBinary || t == ColumnType::kBlob;
}

// COLUMNS.NUMERIC_PRECISION: the digits MySQL reports for a numeric type, 0 for the others.
int NumericPrecision(const schema::ColumnDef& col) {
  switch (col.type) {
    case ColumnType::kTinyInt:
      return 3;
    case ColumnType::kSmallInt:
      return 5;
    case ColumnType::kMediumInt:
      return 7;
    case ColumnType::kInt:
      return 10;
    case ColumnType::kBigInt:
      return col.is_unsigned ? 20 : 19;
    case ColumnType::kFloat:
      return 12;
    case ColumnType::kDouble:
      return 22;
    case ColumnType::kDecimal:
      return col.precision;
    case ColumnType::kBit:
      return static_cast<int>(col.length);
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------
// Rows

void SchemataRows(const Catalog& c, std::vector<Row>* rows) {
  for (const std::string& db : c.databases) {
    bool system = IsInformationSchema(db);
    rows->push_back({Str("def"), db, Str(system ? "utf8mb3" : "utf8mb4"),
                     Str(system ? "utf8mb3_general_ci" : kDefaultCollation), Value{}, Str("NO")});
  }
}

void TablesRows(const Catalog& c, std::vector<Row>* rows);

void ColumnsRows(const Catalog& c, std::vector<Row>* rows) {
  std::vector<api::TablePtr> tables = c.tables;
  // A view's columns are typed from its SELECT now; one that no longer can be is left out
  // (MySQL warns about it).
  for (const wire::View& view : c.views) {
    auto table = ViewAsTable(view, c.state);
    if (auto* t = std::get_if<schema::TableDef>(&table)) {
      tables.push_back(std::make_shared<const schema::TableDef>(std::move(*t)));
    }
  }
  for (const api::TablePtr& table : tables) {
    uint64_t position = 0;
    for (size_t i = 0; i < table->columns.size(); ++i) {
      const schema::ColumnDef& col = table->columns[i];
      if (col.hidden) continue;
      mysql::ColumnDefinition rc = ResultColumn(*table, static_cast<int>(i),
                                                ResultCollationId(c.state), /*charset_maxlen=*/4);
      std::optional<std::string> dflt = DeclaredDefault(col, rc);
      Value max_chars, max_bytes, precision, scale, fsp, charset, collation;
      if (IsText(col.type) || IsBytes(col.type)) {
        uint64_t length = col.type == ColumnType::kText || col.type == ColumnType::kBlob
                              ? schema::DeclaredBlobBytes(col)
                              : uint64_t{col.length};
        // An ENUM's or SET's is its longest text (ResultColumn's length at 4 bytes a character).
        if (schema::IsEnumOrSet(col.type)) length = rc.length / 4;
        max_chars = length;
        max_bytes = IsText(col.type) && col.type != ColumnType::kText ? length * 4 : length;
      }
      if (IsText(col.type)) {
        charset = Str("utf8mb4");
        collation =
            Str(schema::IsEnumOrSet(col.type) ? kDefaultCollation : ColumnCollationName(col));
      }
      if (int digits = NumericPrecision(col); digits > 0) precision = uint64_t(digits);
      if (col.type == ColumnType::kTime || col.type == ColumnType::kDateTime ||
          col.type == ColumnType::kTimestamp) {
        fsp = uint64_t{col.precision};
      }
      if (schema::IsInteger(col.type)) scale = uint64_t{0};
      if (col.type == ColumnType::kDecimal) scale = uint64_t{col.scale};
      std::string type = ColumnTypeText(col);
      // The type without its parameters: "int", "varchar", "mediumtext", "enum".
      std::string data_type = type.substr(0, type.find_first_of("( "));
      rows->push_back({Str("def"),
                       table->database,
                       table->name,
                       col.name,
                       ++position,
                       dflt ? Value{std::move(*dflt)} : Value{},
                       Str(col.nullable ? "YES" : "NO"),
                       std::move(data_type),
                       max_chars,
                       max_bytes,
                       precision,
                       scale,
                       fsp,
                       charset,
                       collation,
                       std::move(type),
                       KeyText(rc.flags),
                       Str(ColumnExtra(col)),
                       Str("select,insert,update,references"),
                       col.comment,
                       Str(""),
                       Value{}});
    }
  }
}

bool HiddenKey(const schema::TableDef& table, const schema::IndexDef& index) {
  return index.columns.size() == 1 && table.columns[index.columns[0]].hidden;
}

void StatisticsRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    for (const schema::IndexDef& index : table->indexes) {
      if (HiddenKey(*table, index)) continue;
      for (size_t seq = 0; seq < index.columns.size(); ++seq) {
        const schema::ColumnDef& col = table->columns[index.columns[seq]];
        rows->push_back({Str("def"), table->database, table->name, int64_t{index.unique ? 0 : 1},
                         table->database, index.name, uint64_t{seq + 1}, col.name, Str("A"),
                         Value{}, Value{}, Value{}, Str(col.nullable ? "YES" : ""), Str("BTREE"),
                         Str(""), Str(""), Str("YES"), Value{}});
      }
    }
  }
}

void KeyColumnUsageRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    for (const schema::IndexDef& index : table->indexes) {
      if (!index.unique || HiddenKey(*table, index)) continue;
      for (size_t seq = 0; seq < index.columns.size(); ++seq) {
        rows->push_back({Str("def"), table->database, index.name, Str("def"), table->database,
                         table->name, table->columns[index.columns[seq]].name, uint64_t{seq + 1},
                         Value{}, Value{}, Value{}, Value{}});
      }
    }
    for (const schema::ForeignKeyDef& fk : table->foreign_keys) {
      for (size_t seq = 0; seq < fk.columns.size(); ++seq) {
        rows->push_back({Str("def"), table->database, fk.name, Str("def"), table->database,
                         table->name, table->columns[fk.columns[seq]].name, uint64_t{seq + 1},
                         uint64_t{seq + 1}, fk.parent_database, fk.parent_table,
                         fk.parent_columns[seq]});
      }
    }
  }
}

void TableConstraintsRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    for (const schema::IndexDef& index : table->indexes) {
      if (!index.unique || HiddenKey(*table, index)) continue;
      rows->push_back({Str("def"), table->database, index.name, table->database, table->name,
                       Str(index.primary ? "PRIMARY KEY" : "UNIQUE"), Str("YES")});
    }
    for (const schema::ForeignKeyDef& fk : table->foreign_keys) {
      rows->push_back({Str("def"), table->database, fk.name, table->database, table->name,
                       Str("FOREIGN KEY"), Str("YES")});
    }
  }
}

// The unique key of `parent` over exactly the columns a foreign key references, by name
// (MySQL's UNIQUE_CONSTRAINT_NAME); NULL when they are not a unique key's.
Value ReferencedKeyName(const Catalog& c, const schema::ForeignKeyDef& fk) {
  for (const api::TablePtr& parent : c.tables) {
    if (parent->database != fk.parent_database || parent->name != fk.parent_table) continue;
    for (const schema::IndexDef& index : parent->indexes) {
      if (!index.unique || index.columns.size() != fk.parent_columns.size()) continue;
      bool same = true;
      for (size_t i = 0; i < index.columns.size(); ++i) {
        same &=
            absl::EqualsIgnoreCase(parent->columns[index.columns[i]].name, fk.parent_columns[i]);
      }
      if (same) return index.name;
    }
  }
  return Value{};
}

void ReferentialConstraintsRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    for (const schema::ForeignKeyDef& fk : table->foreign_keys) {
      rows->push_back({Str("def"), table->database, fk.name, Str("def"), fk.parent_database,
                       ReferencedKeyName(c, fk), Str("NONE"), ReferenceRuleText(fk.on_update),
                       ReferenceRuleText(fk.on_delete), table->name, fk.parent_table});
    }
  }
}

// NDB tables are partitioned by key (PARTITION BY KEY() in SHOW CREATE TABLE's terms): one
// row per partition, as MySQL lists them for an NDB table.
void PartitionsRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    for (uint32_t p = 0; p < std::max<uint32_t>(table->partitions, 1); ++p) {
      Row row = {Str("def"), table->database, table->name, absl::StrCat("p", p),
                 Value{},    uint64_t{p + 1}, Value{},     Str("AUTO"),
                 Value{},    Str(""),         Value{},     Value{}};
      row.resize(25, Value{});
      row[22] = Str("");  // PARTITION_COMMENT
      row[23] = Str("default");
      rows->push_back(std::move(row));
    }
  }
}

// This router's sessions (an SQL node lists its own, as each mysqld of an NDB cluster does).
void ViewsRows(const Catalog& c, std::vector<Row>* rows) {
  for (const wire::View& view : c.views) {
    absl::string_view check = view.check_option() == wire::View::CASCADED ? "CASCADED"
                              : view.check_option() == wire::View::LOCAL  ? "LOCAL"
                                                                          : "NONE";
    std::string definer = view.definer();
    definer.erase(std::remove(definer.begin(), definer.end(), '`'), definer.end());
    rows->push_back({Str("def"), view.database(), view.name(), view.select(), Str(check),
                     Str(ViewIsUpdatable(view, c.state) ? "YES" : "NO"), std::move(definer),
                     Str(view.security_invoker() ? "INVOKER" : "DEFINER"),
                     view.character_set_client(), view.collation_connection()});
  }
}

void ProcessListRows(const Catalog& c, std::vector<Row>* rows) {
  const ServerInfo& server = *c.state.server;
  if (server.processes == nullptr) return;
  const absl::Time now = server.now ? server.now() : absl::Now();
  auto optional = [](const std::optional<std::string>& s) { return s ? Value(*s) : Value{}; };
  // Without PROCESS, an account sees its own sessions only, as in MySQL.
  const bool everyone = (SessionGlobalPrivileges(c.state) & access::kProcess) != 0;
  for (ProcessList::Row& p : server.processes->Snapshot()) {
    if (!everyone && p.user != c.state.user) continue;
    rows->push_back(
        {uint64_t{p.id}, std::move(p.user), std::move(p.host), optional(p.db), std::move(p.command),
         static_cast<uint64_t>(std::max<int64_t>(0, absl::ToInt64Seconds(now - p.since))),
         std::move(p.state), optional(p.info)});
  }
}

// The reserved words (what Connector/J asks for); the others are not listed yet.
void KeywordsRows(const Catalog&, std::vector<Row>* rows) {
  for (const char* word : ReservedWords()) rows->push_back({Str(word), uint64_t{1}});
}

void EnginesRows(const Catalog&, std::vector<Row>* rows) {
  rows->push_back({Str("ndbcluster"), Str("DEFAULT"), Str("Clustered, fault-tolerant tables"),
                   Str("YES"), Str("NO"), Str("NO")});
}

void CharacterSetsRows(const Catalog&, std::vector<Row>* rows) {
  for (const CharsetInfo& cs : AllCharsets()) {
    rows->push_back({Str(cs.name), Str(cs.default_collation), Str(cs.description),
                     static_cast<uint64_t>(cs.maxlen)});
  }
}

void CollationsRows(const Catalog&, std::vector<Row>* rows) {
  for (const CollationInfo& co : AllCollations()) {
    rows->push_back({Str(co.name), Str(co.charset), uint64_t{co.id},
                     Str(co.is_default ? "Yes" : ""), Str("Yes"), static_cast<uint64_t>(co.sortlen),
                     Str(co.pad_attribute)});
  }
}

// ---------------------------------------------------------------------------------------
// The views, by name

// mysql.user's columns: CatalogAccounts' privileges as Y/N, then the account's other facts.
std::vector<ViewColumn> MysqlUserColumns() {
  std::vector<ViewColumn> columns = {{"Host", N}, {"User", N}};
  for (const UserPrivilegeColumn& c : kUserPrivilegeColumns) columns.push_back({c.name, N});
  for (absl::string_view name : kMysqlUserFacts) {
    bool blob = name == "authentication_string" || name == "ssl_cipher" || name == "x509_issuer" ||
                name == "x509_subject";
    bool count = name == "max_questions" || name == "max_updates" || name == "max_connections" ||
                 name == "max_user_connections";
    columns.push_back({name, count ? C : blob ? T : N});
  }
  return columns;
}

const std::vector<View>& Views() {
  static const std::vector<View> views = {
      {"CHARACTER_SETS",
       {{"CHARACTER_SET_NAME", N}, {"DEFAULT_COLLATE_NAME", N}, {"DESCRIPTION", N}, {"MAXLEN", C}},
       CharacterSetsRows},
      // CHECK constraints are parsed and not kept (as before MySQL 8.0.16): none to list.
      {"CHECK_CONSTRAINTS",
       {{"CONSTRAINT_CATALOG", N},
        {"CONSTRAINT_SCHEMA", N},
        {"CONSTRAINT_NAME", N},
        {"CHECK_CLAUSE", T}},
       nullptr},
      {"COLLATIONS",
       {{"COLLATION_NAME", N},
        {"CHARACTER_SET_NAME", N},
        {"ID", C},
        {"IS_DEFAULT", N},
        {"IS_COMPILED", N},
        {"SORTLEN", C},
        {"PAD_ATTRIBUTE", N}},
       CollationsRows},
      {"COLUMNS",
       {{"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"COLUMN_NAME", N},
        {"ORDINAL_POSITION", C},
        {"COLUMN_DEFAULT", T},
        {"IS_NULLABLE", N},
        {"DATA_TYPE", T},
        {"CHARACTER_MAXIMUM_LENGTH", C},
        {"CHARACTER_OCTET_LENGTH", C},
        {"NUMERIC_PRECISION", C},
        {"NUMERIC_SCALE", C},
        {"DATETIME_PRECISION", C},
        {"CHARACTER_SET_NAME", N},
        {"COLLATION_NAME", N},
        {"COLUMN_TYPE", T},
        {"COLUMN_KEY", N},
        {"EXTRA", N},
        {"PRIVILEGES", N},
        {"COLUMN_COMMENT", T},
        {"GENERATION_EXPRESSION", T},
        {"SRS_ID", C}},
       ColumnsRows},
      {"ENGINES",
       {{"ENGINE", N},
        {"SUPPORT", N},
        {"COMMENT", N},
        {"TRANSACTIONS", N},
        {"XA", N},
        {"SAVEPOINTS", N}},
       EnginesRows},
      {"EVENTS",
       {{"EVENT_CATALOG", N},
        {"EVENT_SCHEMA", N},
        {"EVENT_NAME", N},
        {"DEFINER", N},
        {"TIME_ZONE", N},
        {"EVENT_BODY", N},
        {"EVENT_DEFINITION", T},
        {"EVENT_TYPE", N},
        {"EXECUTE_AT", D},
        {"INTERVAL_VALUE", N},
        {"INTERVAL_FIELD", N},
        {"SQL_MODE", N},
        {"STARTS", D},
        {"ENDS", D},
        {"STATUS", N},
        {"ON_COMPLETION", N},
        {"CREATED", D},
        {"LAST_ALTERED", D},
        {"LAST_EXECUTED", D},
        {"EVENT_COMMENT", N},
        {"ORIGINATOR", C},
        {"CHARACTER_SET_CLIENT", N},
        {"COLLATION_CONNECTION", N},
        {"DATABASE_COLLATION", N}},
       nullptr},
      {"FILES",
       {{"FILE_ID", C},
        {"FILE_NAME", T},
        {"FILE_TYPE", N},
        {"TABLESPACE_NAME", N},
        {"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"LOGFILE_GROUP_NAME", N},
        {"LOGFILE_GROUP_NUMBER", C},
        {"ENGINE", N},
        {"FULLTEXT_KEYS", N},
        {"DELETED_ROWS", N},
        {"UPDATE_COUNT", N},
        {"FREE_EXTENTS", C},
        {"TOTAL_EXTENTS", C},
        {"EXTENT_SIZE", C},
        {"INITIAL_SIZE", C},
        {"MAXIMUM_SIZE", C},
        {"AUTOEXTEND_SIZE", C},
        {"CREATION_TIME", N},
        {"LAST_UPDATE_TIME", N},
        {"LAST_ACCESS_TIME", N},
        {"RECOVER_TIME", N},
        {"TRANSACTION_COUNTER", N},
        {"VERSION", C},
        {"ROW_FORMAT", N},
        {"TABLE_ROWS", N},
        {"AVG_ROW_LENGTH", N},
        {"DATA_LENGTH", N},
        {"MAX_DATA_LENGTH", N},
        {"INDEX_LENGTH", N},
        {"DATA_FREE", C},
        {"CREATE_TIME", N},
        {"UPDATE_TIME", N},
        {"CHECK_TIME", N},
        {"CHECKSUM", N},
        {"STATUS", N},
        {"EXTRA", N}},
       nullptr},
      {"KEYWORDS", {{"WORD", N}, {"RESERVED", C}}, KeywordsRows},
      {"KEY_COLUMN_USAGE",
       {{"CONSTRAINT_CATALOG", N},
        {"CONSTRAINT_SCHEMA", N},
        {"CONSTRAINT_NAME", N},
        {"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"COLUMN_NAME", N},
        {"ORDINAL_POSITION", C},
        {"POSITION_IN_UNIQUE_CONSTRAINT", C},
        {"REFERENCED_TABLE_SCHEMA", N},
        {"REFERENCED_TABLE_NAME", N},
        {"REFERENCED_COLUMN_NAME", N}},
       KeyColumnUsageRows},
      {"PARTITIONS",
       {{"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"PARTITION_NAME", N},
        {"SUBPARTITION_NAME", N},
        {"PARTITION_ORDINAL_POSITION", C},
        {"SUBPARTITION_ORDINAL_POSITION", C},
        {"PARTITION_METHOD", N},
        {"SUBPARTITION_METHOD", N},
        {"PARTITION_EXPRESSION", N},
        {"SUBPARTITION_EXPRESSION", N},
        {"PARTITION_DESCRIPTION", T},
        {"TABLE_ROWS", C},
        {"AVG_ROW_LENGTH", C},
        {"DATA_LENGTH", C},
        {"MAX_DATA_LENGTH", C},
        {"INDEX_LENGTH", C},
        {"DATA_FREE", C},
        {"CREATE_TIME", D},
        {"UPDATE_TIME", D},
        {"CHECK_TIME", D},
        {"CHECKSUM", C},
        {"PARTITION_COMMENT", T},
        {"NODEGROUP", N},
        {"TABLESPACE_NAME", N}},
       PartitionsRows},
      {"PROCESSLIST",
       {{"ID", C},
        {"USER", N},
        {"HOST", N},
        {"DB", N},
        {"COMMAND", N},
        {"TIME", C},
        {"STATE", N},
        {"INFO", T}},
       ProcessListRows,
       /*needs_dictionary=*/false},
      {"REFERENTIAL_CONSTRAINTS",
       {{"CONSTRAINT_CATALOG", N},
        {"CONSTRAINT_SCHEMA", N},
        {"CONSTRAINT_NAME", N},
        {"UNIQUE_CONSTRAINT_CATALOG", N},
        {"UNIQUE_CONSTRAINT_SCHEMA", N},
        {"UNIQUE_CONSTRAINT_NAME", N},
        {"MATCH_OPTION", N},
        {"UPDATE_RULE", N},
        {"DELETE_RULE", N},
        {"TABLE_NAME", N},
        {"REFERENCED_TABLE_NAME", N}},
       ReferentialConstraintsRows},
      {"ROUTINES",
       {{"SPECIFIC_NAME", N},
        {"ROUTINE_CATALOG", N},
        {"ROUTINE_SCHEMA", N},
        {"ROUTINE_NAME", N},
        {"ROUTINE_TYPE", N},
        {"DATA_TYPE", T},
        {"CHARACTER_MAXIMUM_LENGTH", C},
        {"CHARACTER_OCTET_LENGTH", C},
        {"NUMERIC_PRECISION", C},
        {"NUMERIC_SCALE", C},
        {"DATETIME_PRECISION", C},
        {"CHARACTER_SET_NAME", N},
        {"COLLATION_NAME", N},
        {"DTD_IDENTIFIER", T},
        {"ROUTINE_BODY", N},
        {"ROUTINE_DEFINITION", T},
        {"EXTERNAL_NAME", N},
        {"EXTERNAL_LANGUAGE", N},
        {"PARAMETER_STYLE", N},
        {"IS_DETERMINISTIC", N},
        {"SQL_DATA_ACCESS", N},
        {"SQL_PATH", N},
        {"SECURITY_TYPE", N},
        {"CREATED", D},
        {"LAST_ALTERED", D},
        {"SQL_MODE", N},
        {"ROUTINE_COMMENT", T},
        {"DEFINER", N},
        {"CHARACTER_SET_CLIENT", N},
        {"COLLATION_CONNECTION", N},
        {"DATABASE_COLLATION", N}},
       nullptr},
      {"SCHEMATA",
       {{"CATALOG_NAME", N},
        {"SCHEMA_NAME", N},
        {"DEFAULT_CHARACTER_SET_NAME", N},
        {"DEFAULT_COLLATION_NAME", N},
        {"SQL_PATH", N},
        {"DEFAULT_ENCRYPTION", N}},
       SchemataRows},
      {"SCHEMA_PRIVILEGES",
       {{"GRANTEE", T},
        {"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"PRIVILEGE_TYPE", N},
        {"IS_GRANTABLE", N}},
       [](const Catalog& c, std::vector<Row>* rows) { SchemaPrivilegesRows(c.state, rows); }},
      {"STATISTICS",
       {{"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"NON_UNIQUE", C},
        {"INDEX_SCHEMA", N},
        {"INDEX_NAME", N},
        {"SEQ_IN_INDEX", C},
        {"COLUMN_NAME", N},
        {"COLLATION", N},
        {"CARDINALITY", C},
        {"SUB_PART", C},
        {"PACKED", N},
        {"NULLABLE", N},
        {"INDEX_TYPE", N},
        {"COMMENT", N},
        {"INDEX_COMMENT", N},
        {"IS_VISIBLE", N},
        {"EXPRESSION", T}},
       StatisticsRows},
      {"TABLE_CONSTRAINTS",
       {{"CONSTRAINT_CATALOG", N},
        {"CONSTRAINT_SCHEMA", N},
        {"CONSTRAINT_NAME", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"CONSTRAINT_TYPE", N},
        {"ENFORCED", N}},
       TableConstraintsRows},
      {"TABLE_PRIVILEGES",
       {{"GRANTEE", T},
        {"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"PRIVILEGE_TYPE", N},
        {"IS_GRANTABLE", N}},
       [](const Catalog& c, std::vector<Row>* rows) { TablePrivilegesRows(c.state, rows); }},
      {"TABLES",
       {{"TABLE_CATALOG", N}, {"TABLE_SCHEMA", N},    {"TABLE_NAME", N},
        {"TABLE_TYPE", N},    {"ENGINE", N},          {"VERSION", C},
        {"ROW_FORMAT", N},    {"TABLE_ROWS", C},      {"AVG_ROW_LENGTH", C},
        {"DATA_LENGTH", C},   {"MAX_DATA_LENGTH", C}, {"INDEX_LENGTH", C},
        {"DATA_FREE", C},     {"AUTO_INCREMENT", C},  {"CREATE_TIME", D},
        {"UPDATE_TIME", D},   {"CHECK_TIME", D},      {"TABLE_COLLATION", N},
        {"CHECKSUM", C},      {"CREATE_OPTIONS", N},  {"TABLE_COMMENT", T}},
       TablesRows},
      {"TRIGGERS",
       {{"TRIGGER_CATALOG", N},
        {"TRIGGER_SCHEMA", N},
        {"TRIGGER_NAME", N},
        {"EVENT_MANIPULATION", N},
        {"EVENT_OBJECT_CATALOG", N},
        {"EVENT_OBJECT_SCHEMA", N},
        {"EVENT_OBJECT_TABLE", N},
        {"ACTION_ORDER", C},
        {"ACTION_CONDITION", T},
        {"ACTION_STATEMENT", T},
        {"ACTION_ORIENTATION", N},
        {"ACTION_TIMING", N},
        {"ACTION_REFERENCE_OLD_TABLE", N},
        {"ACTION_REFERENCE_NEW_TABLE", N},
        {"ACTION_REFERENCE_OLD_ROW", N},
        {"ACTION_REFERENCE_NEW_ROW", N},
        {"CREATED", D},
        {"SQL_MODE", N},
        {"DEFINER", N},
        {"CHARACTER_SET_CLIENT", N},
        {"COLLATION_CONNECTION", N},
        {"DATABASE_COLLATION", N}},
       nullptr},
      {"USER_PRIVILEGES",
       {{"GRANTEE", T}, {"TABLE_CATALOG", N}, {"PRIVILEGE_TYPE", N}, {"IS_GRANTABLE", N}},
       [](const Catalog& c, std::vector<Row>* rows) { UserPrivilegesRows(c.state, rows); }},
      {"VIEWS",
       {{"TABLE_CATALOG", N},
        {"TABLE_SCHEMA", N},
        {"TABLE_NAME", N},
        {"VIEW_DEFINITION", T},
        {"CHECK_OPTION", N},
        {"IS_UPDATABLE", N},
        {"DEFINER", N},
        {"SECURITY_TYPE", N},
        {"CHARACTER_SET_CLIENT", N},
        {"COLLATION_CONNECTION", N}},
       ViewsRows},
      {"user", MysqlUserColumns(),
       [](const Catalog& c, std::vector<Row>* rows) { MysqlUserRows(c.state, rows); }, true,
       "mysql"},
  };
  return views;
}

// A view of information_schema (any case) or of mysql (exactly as written, as MySQL's tables).
const View* FindView(absl::string_view name, absl::string_view schema = "information_schema") {
  const bool mysql = schema == "mysql";
  for (const View& view : Views()) {
    if (mysql ? view.schema == schema && view.name == name
              : view.schema != "mysql" && absl::EqualsIgnoreCase(view.name, name)) {
      return &view;
    }
  }
  return nullptr;
}

// The user tables and views, then information_schema's own views as MySQL lists them.
void TablesRows(const Catalog& c, std::vector<Row>* rows) {
  for (const api::TablePtr& table : c.tables) {
    Row row = {Str("def"),        table->database, table->name,   Str("BASE TABLE"),
               Str("ndbcluster"), uint64_t{10},    Str("Dynamic")};
    row.resize(21, Value{});
    if (auto it = c.next_auto_increment.find(table->id); it != c.next_auto_increment.end()) {
      row[13] = it->second;
    }
    row[17] =
        Str(table->collation == schema::Collation::kBinary ? "utf8mb4_bin" : kDefaultCollation);
    row[19] = Str("");
    row[20] = table->comment;
    rows->push_back(std::move(row));
  }
  for (const wire::View& view : c.views) {
    Row row = {Str("def"), view.database(), view.name(), Str("VIEW")};
    row.resize(21, Value{});
    row[20] = Str("VIEW");
    rows->push_back(std::move(row));
  }
  std::sort(rows->begin(), rows->end(), [](const Row& a, const Row& b) {
    return std::tie(std::get<std::string>(a[1]), std::get<std::string>(a[2])) <
           std::tie(std::get<std::string>(b[1]), std::get<std::string>(b[2]));
  });
  for (const View& view : Views()) {
    if (view.schema != "information_schema") continue;
    Row row = {Str("def"), Str("information_schema"), Str(view.name), Str("SYSTEM VIEW")};
    row.resize(21, Value{});
    row[5] = uint64_t{10};
    row[19] = Str("");
    row[20] = Str("");
    rows->push_back(std::move(row));
  }
}

mysql::SqlError UnknownView(absl::string_view name) {
  return {1109, "42S02", absl::StrCat("Unknown table '", name, "' in information_schema")};
}

std::vector<mysql::ColumnDefinition> ViewColumns(const View& view, const SessionState& s) {
  std::vector<mysql::ColumnDefinition> columns;
  for (const ViewColumn& vc : view.columns) {
    mysql::ColumnDefinition col;
    switch (vc.kind) {
      case Kind::kName:
        col = StringColumn(64, s, Nullability::kNullable);
        break;
      case Kind::kText:
        col = StringColumn(65535, s, Nullability::kNullable);
        col.type = mysql::ColumnType::kBlob;
        col.flags |= mysql::column_flag::kBlob;
        break;
      case Kind::kCount:
        col = IntColumn(21, true, Nullability::kNullable);
        break;
      case Kind::kTime:
        col = TemporalColumn(mysql::ColumnType::kDateTime, 0, Nullability::kNullable);
        break;
    }
    col.schema = std::string(view.schema);
    col.table = col.org_table = std::string(view.name);
    columns.push_back(Named(std::move(col), vc.name));
  }
  return columns;
}

}  // namespace

bool IsInformationSchema(absl::string_view database) {
  return absl::EqualsIgnoreCase(database, "information_schema");
}

bool ReadsInformationSchema(const TableRef& from, const SessionState& state) {
  if (from.derived) return false;
  const std::string& db = from.table.database.empty() ? state.database : from.table.database;
  return IsInformationSchema(db) ||
         (db == "mysql" && FindView(from.table.name, "mysql") != nullptr);
}

absl::string_view SystemSchemaOf(const TableRef& from, const SessionState& state) {
  const std::string& db = from.table.database.empty() ? state.database : from.table.database;
  return db == "mysql" ? "mysql" : "information_schema";
}

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> InformationSchemaColumns(
    absl::string_view view_name, const SessionState& state, absl::string_view schema) {
  const View* view = FindView(view_name, schema);
  if (view == nullptr) return UnknownView(view_name);
  return ViewColumns(*view, state);
}

std::variant<FetchedRows, mysql::SqlError> InformationSchemaRows(absl::string_view view_name,
                                                                 const SessionState& state,
                                                                 absl::string_view schema) {
  const View* view = FindView(view_name, schema);
  if (view == nullptr) return UnknownView(view_name);
  FetchedRows out;
  out.columns = ViewColumns(*view, state);
  if (view->rows == nullptr) return out;
  if (!view->needs_dictionary) {
    view->rows(Catalog{state, {}, {}, {}, {}}, &out.rows);
    return out;
  }
  if (state.data != nullptr) {
    if (auto err = RequireCurrentDictionary(state)) return *err;
  }
  Catalog catalog{state, VisibleDatabases(state), {}, {}, {}};
  if (std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(state)) {
    for (const auto& [name, table] : dictionary->by_name) {
      if (SessionSeesTable(state, table->database, table->name)) catalog.tables.push_back(table);
    }
    for (const auto& [name, user_view] : dictionary->views) {
      if (SessionSeesTable(state, user_view.database(), user_view.name())) {
        catalog.views.push_back(user_view);
      }
    }
    std::sort(catalog.views.begin(), catalog.views.end(),
              [](const wire::View& a, const wire::View& b) {
                return std::tie(a.database(), a.name()) < std::tie(b.database(), b.name());
              });
    std::sort(catalog.tables.begin(), catalog.tables.end(),
              [](const api::TablePtr& a, const api::TablePtr& b) {
                return std::tie(a->database, a->name) < std::tie(b->database, b->name);
              });
  }
  if (view->rows == TablesRows && state.data != nullptr) {
    auto next = NextAutoIncrements(catalog.tables, state);
    if (auto* err = std::get_if<mysql::SqlError>(&next)) return *err;
    catalog.next_auto_increment = std::get<absl::flat_hash_map<uint32_t, uint64_t>>(next);
  }
  view->rows(catalog, &out.rows);
  return out;
}

}  // namespace shoal::sql::internal
