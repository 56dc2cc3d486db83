// CREATE TABLE's syntax tree to a schema::TableDef, and back to MySQL's SHOW CREATE TABLE text.
//
// Types, lengths, character sets and defaults are judged here, with MySQL's error codes and
// texts. The checks the dictionary needs anyway (names, duplicate columns and keys, key
// limits, AUTO_INCREMENT placement, implicit index names) are left to
// schema::ValidateAndComplete, whose "<code>: <message>" errors become SqlErrors.
//
// Shoal stores strings as the bytes the client sent and compares them as bytes: every
// collation behaves as a binary one, whatever the name. TEXT and BLOB of every size hold at
// most 65535 bytes (the engine's limit), so TINYTEXT…LONGTEXT all become TEXT.
#include "router/sql/exec/table_spec.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/utf8.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"
#include "protocol/text_format.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/column_facts.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {
namespace {

using mysql::SqlError;
using schema::ColumnDef;
using schema::ColumnType;
using schema::IndexDef;
using schema::TableDef;
using MaybeError = std::optional<SqlError>;

// ---------------------------------------------------------------------------------------
// Errors

// The SQLSTATE MySQL gives each error this file (or ValidateAndComplete) raises.
const char* SqlStateOf(int code) {
  switch (code) {
    case 1046:
      return "3D000";
    case 1060:
      return "42S21";
    case 1097:
    case 1117:
    case 1273:
    case 1291:
    case 1294:
    case 1628:
    case 1629:
    case 3504:
      return "HY000";
    case 1367:
      return "22007";
    default:
      return "42000";
  }
}

SqlError Error(int code, std::string message) {
  return SqlError{static_cast<uint16_t>(code), SqlStateOf(code), std::move(message)};
}

// ValidateAndComplete's "<code>: <message>".
SqlError FromStatus(const absl::Status& status) {
  absl::string_view text = status.message();
  size_t colon = text.find(": ");
  int code = 0;
  if (colon == absl::string_view::npos || !absl::SimpleAtoi(text.substr(0, colon), &code) ||
      code <= 0 || code > 0xFFFF) {
    return mysql::errors::Internal(text);
  }
  return Error(code, std::string(text.substr(colon + 2)));
}

SqlError InvalidDefault(absl::string_view column) {
  return Error(1067, absl::StrCat("Invalid default value for '", column, "'"));
}

SqlError PrimaryKeyNull() {
  return Error(1171,
               "All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use "
               "UNIQUE instead");
}

SqlError LengthTooBig(absl::string_view column, uint32_t max) {
  return Error(1074, absl::StrCat("Column length too big for column '", column, "' (max = ", max,
                                  "); use BLOB or TEXT instead"));
}

SqlError PrecisionTooBig(uint32_t precision, absl::string_view column, int max) {
  return Error(1426, absl::StrCat("Too-big precision ", precision, " specified for '", column,
                                  "'. Maximum is ", max, "."));
}

// ---------------------------------------------------------------------------------------
// Types

struct TypeMapping {
  absl::string_view name;  // TypeSpec::name
  ColumnType type;
};

constexpr TypeMapping kTypes[] = {
    {"TINYINT", ColumnType::kTinyInt},     {"SMALLINT", ColumnType::kSmallInt},
    {"MEDIUMINT", ColumnType::kMediumInt}, {"INT", ColumnType::kInt},
    {"BIGINT", ColumnType::kBigInt},       {"FLOAT", ColumnType::kFloat},
    {"DOUBLE", ColumnType::kDouble},       {"DECIMAL", ColumnType::kDecimal},
    {"CHAR", ColumnType::kChar},           {"VARCHAR", ColumnType::kVarChar},
    {"BINARY", ColumnType::kBinary},       {"VARBINARY", ColumnType::kVarBinary},
    {"TINYTEXT", ColumnType::kText},       {"TEXT", ColumnType::kText},
    {"MEDIUMTEXT", ColumnType::kText},     {"LONGTEXT", ColumnType::kText},
    {"TINYBLOB", ColumnType::kBlob},       {"BLOB", ColumnType::kBlob},
    {"MEDIUMBLOB", ColumnType::kBlob},     {"LONGBLOB", ColumnType::kBlob},
    {"DATE", ColumnType::kDate},           {"TIME", ColumnType::kTime},
    {"DATETIME", ColumnType::kDateTime},   {"TIMESTAMP", ColumnType::kTimestamp},
    {"ENUM", ColumnType::kEnum},           {"SET", ColumnType::kSet},
    {"JSON", ColumnType::kJson},           {"BIT", ColumnType::kBit},
};

// The character sets whose text Shoal can keep as sent. Others (ucs2, utf16, …) would need
// converting to be compared or shown right.
bool IsStorableCharset(absl::string_view name) {
  for (absl::string_view cs : {"utf8mb4", "utf8mb3", "utf8", "latin1", "ascii", "binary"}) {
    if (name == cs) return true;
  }
  return false;
}

// CHARACTER SET and COLLATE of a column. CHARACTER SET binary makes the character types
// their binary twins, as in MySQL (CHAR → BINARY, VARCHAR → VARBINARY, TEXT → BLOB).
MaybeError ApplyCharset(const TypeSpec& type, ColumnDef* column) {
  std::string charset = type.charset;
  if (!charset.empty()) {
    if (!IsKnownCharset(charset)) return mysql::errors::UnknownCharacterSet(charset);
    if (!IsStorableCharset(charset)) {
      return mysql::errors::NotSupportedYet(absl::StrCat("CHARACTER SET ", charset));
    }
  }
  if (!type.collation.empty()) {
    const CollationInfo* collation = FindCollation(type.collation);
    if (collation == nullptr) return mysql::errors::UnknownCollation(type.collation);
    const CharsetInfo* named = charset.empty() ? nullptr : FindCharset(charset);
    if (named != nullptr && named->name != collation->charset) {
      return Error(1253, absl::StrCat("COLLATION '", type.collation,
                                      "' is not valid for CHARACTER SET '", charset, "'"));
    }
    if (charset.empty()) charset = std::string(collation->charset);
    if (!IsStorableCharset(charset)) {
      return mysql::errors::NotSupportedYet(absl::StrCat("COLLATE ", type.collation));
    }
  }
  if (charset == "binary") {
    if (column->type == ColumnType::kChar) column->type = ColumnType::kBinary;
    if (column->type == ColumnType::kVarChar) column->type = ColumnType::kVarBinary;
    if (column->type == ColumnType::kText) column->type = ColumnType::kBlob;
  }
  // Text compares as the _ci collations do unless a _bin collation is named: in its keys too
  // (engine/schema/collation.h).
  if (column->type == ColumnType::kChar || column->type == ColumnType::kVarChar ||
      column->type == ColumnType::kText) {
    column->collation = absl::EndsWith(type.collation, "_bin")
                            ? schema::Collation::kBinary
                            : schema::Collation::kCaseInsensitive;
  }
  return std::nullopt;
}

MaybeError ApplyDecimal(const TypeSpec& type, ColumnDef* column) {
  uint32_t precision = type.length.value_or(10);
  uint32_t scale = type.scale.value_or(0);
  if (scale > 30) {
    return Error(1425, absl::StrCat("Too big scale ", scale, " specified for column '",
                                    column->name, "'. Maximum is 30."));
  }
  if (precision > 65) return PrecisionTooBig(precision, column->name, 65);
  if (scale > precision) {
    return Error(1427, absl::StrCat("For float(M,D), double(M,D) or decimal(M,D), M must be >= D "
                                    "(column '",
                                    column->name, "')."));
  }
  column->precision = static_cast<uint8_t>(precision);
  column->scale = static_cast<uint8_t>(scale);
  return std::nullopt;
}

// The capacity of the TEXT or BLOB type `type` names: TINY…, MEDIUM…, LONG…, or for TEXT(M)
// and BLOB(M) the smallest that holds M characters (4 bytes each) or bytes, as MySQL picks.
uint32_t BlobClassBytes(const TypeSpec& type) {
  constexpr uint32_t kClasses[] = {255, 65535, 16777215, 4294967295u};
  if (absl::StartsWith(type.name, "TINY")) return kClasses[0];
  if (absl::StartsWith(type.name, "MEDIUM")) return kClasses[2];
  if (absl::StartsWith(type.name, "LONG")) return kClasses[3];
  if (!type.length.has_value()) return kClasses[1];
  const uint64_t bytes = uint64_t{*type.length} * (type.name == "TEXT" ? 4 : 1);
  for (uint32_t c : kClasses) {
    if (bytes <= c) return c;
  }
  return kClasses[3];
}

// Lengths, precisions and display widths, with MySQL's limits (VARCHAR's is utf8mb4's 16383
// characters whatever the character set, as the engine stores up to 4 bytes a character).
MaybeError ApplyLength(const TypeSpec& type, ColumnDef* column) {
  switch (column->type) {
    case ColumnType::kTinyInt:
    case ColumnType::kSmallInt:
    case ColumnType::kMediumInt:
    case ColumnType::kInt:
    case ColumnType::kBigInt:
      if (type.length.value_or(0) > 255) {
        return Error(1439, absl::StrCat("Display width out of range for column '", column->name,
                                        "' (max = 255)"));
      }
      // MySQL 8.0 keeps only TINYINT(1)'s width: drivers read it as a boolean.
      if (column->type == ColumnType::kTinyInt && type.length == 1u) column->length = 1;
      return std::nullopt;
    case ColumnType::kFloat:
      if (type.scale.has_value()) return mysql::errors::NotSupportedYet("FLOAT(M,D)");
      if (type.length.value_or(0) > 53) {
        return Error(1063,
                     absl::StrCat("Incorrect column specifier for column '", column->name, "'"));
      }
      if (type.length.value_or(0) > 24) column->type = ColumnType::kDouble;
      return std::nullopt;
    case ColumnType::kDouble:
      if (type.length.has_value()) return mysql::errors::NotSupportedYet("DOUBLE(M,D)");
      return std::nullopt;
    case ColumnType::kDecimal:
      return ApplyDecimal(type, column);
    case ColumnType::kChar:
    case ColumnType::kBinary:
      column->length = type.length.value_or(1);
      if (column->length > 255) return LengthTooBig(column->name, 255);
      return std::nullopt;
    case ColumnType::kVarChar:
    case ColumnType::kVarBinary: {
      uint32_t max = column->type == ColumnType::kVarChar ? 16383 : 65535;
      column->length = type.length.value_or(0);
      if (column->length > max) return LengthTooBig(column->name, max);
      return std::nullopt;
    }
    case ColumnType::kText:
    case ColumnType::kBlob:
      column->length = BlobClassBytes(type);
      return std::nullopt;
    case ColumnType::kBit:
      column->length = type.length.value_or(1);
      if (column->length > 64) {
        return Error(1439, absl::StrCat("Display width out of range for column '", column->name,
                                        "' (max = 64)"));
      }
      if (column->length == 0) column->length = 1;
      return std::nullopt;
    case ColumnType::kTime:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      if (type.length.value_or(0) > 6) return PrecisionTooBig(*type.length, column->name, 6);
      column->precision = static_cast<uint8_t>(type.length.value_or(0));
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// ENUM and SET members as MySQL keeps them: without trailing spaces, at most 255 characters,
// no two alike in the column's collation, no comma in a SET's.
MaybeError ApplyMembers(const TypeSpec& type, ColumnDef* column) {
  const bool is_set = column->type == ColumnType::kSet;
  if (is_set && type.members.size() > 64) {
    return Error(1097, absl::StrCat("Too many strings for column ", column->name, " and SET"));
  }
  for (const std::string& written : type.members) {
    std::string member = written.substr(0, written.find_last_not_of(' ') + 1);
    if (member.find_first_not_of(' ') == std::string::npos) member.clear();
    if (CharLength(member) > 255) {
      return Error(3504,
                   absl::StrCat("Too long enumeration/set value for column ", column->name, "."));
    }
    if (is_set && member.find(',') != std::string::npos) {
      return Error(1367, absl::StrCat("Illegal set '", member, "' value found during parsing"));
    }
    column->elements.push_back(std::move(member));
  }
  // MySQL names the first member that has a twin after it.
  std::vector<std::string> keys;
  for (const std::string& member : column->elements) keys.push_back(CollationKeyText(member));
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::find(keys.begin() + i + 1, keys.end(), keys[i]) != keys.end()) {
      return Error(1291, absl::StrCat("Column '", column->name, "' has duplicated value '",
                                      column->elements[i], "' in ", is_set ? "SET" : "ENUM"));
    }
  }
  return std::nullopt;
}

MaybeError ApplyType(const TypeSpec& type, ColumnDef* column) {
  auto mapping = std::find_if(std::begin(kTypes), std::end(kTypes),
                              [&](const TypeMapping& m) { return m.name == type.name; });
  if (mapping == std::end(kTypes)) return mysql::errors::NotSupportedYet(type.name);
  if (type.zerofill) return mysql::errors::NotSupportedYet("ZEROFILL");
  column->type = mapping->type;
  column->is_unsigned = type.is_unsigned;
  if (MaybeError e = ApplyCharset(type, column)) return e;
  if (schema::IsEnumOrSet(column->type)) return ApplyMembers(type, column);
  return ApplyLength(type, column);
}

// ---------------------------------------------------------------------------------------
// Defaults

bool IsCurrentTimestamp(absl::string_view function) {
  return function == "CURRENT_TIMESTAMP" || function == "NOW" || function == "LOCALTIME" ||
         function == "LOCALTIMESTAMP";
}

// An integer literal's value: int64_t when it fits, else uint64_t, else an exact decimal.
mysql::Value IntegerValue(const std::string& digits, bool negative) {
  uint64_t u = 0;
  if (!absl::SimpleAtoi(digits, &u)) {
    return mysql::Decimal{negative ? absl::StrCat("-", digits) : digits};
  }
  constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;
  if (!negative) {
    if (u < kMinMagnitude) return static_cast<int64_t>(u);
    return u;
  }
  if (u < kMinMagnitude) return -static_cast<int64_t>(u);
  if (u == kMinMagnitude) return std::numeric_limits<int64_t>::min();
  return mysql::Decimal{absl::StrCat("-", digits)};
}

bool IsNumeric(ColumnType type) {
  return schema::IsInteger(type) || type == ColumnType::kFloat || type == ColumnType::kDouble ||
         type == ColumnType::kDecimal;
}

mysql::Value LiteralValue(const Expr& e, bool negative, const ColumnDef& column) {
  switch (e.literal) {
    case LiteralKind::kNull:
      return mysql::Null{};
    case LiteralKind::kInteger:
      return IntegerValue(e.text, negative);
    case LiteralKind::kDecimal:
      return mysql::Decimal{negative ? absl::StrCat("-", e.text) : e.text};
    case LiteralKind::kFloat: {
      double d = 0;
      if (!absl::SimpleAtod(e.text, &d)) d = 0;
      return negative ? -d : d;
    }
    case LiteralKind::kBool:
      return int64_t{e.text == "1"};
    case LiteralKind::kHex:
    case LiteralKind::kBit:
      // In a number's context X'..' and b'..' are unsigned integers, as in MySQL.
      if (IsNumeric(column.type) && e.text.size() <= 8) {
        uint64_t v = 0;
        for (unsigned char c : e.text) v = v << 8 | c;
        return v;
      }
      return e.text;
    case LiteralKind::kString:
      break;
  }
  return e.text;
}

// The constant DEFAULT names, as a client would send it.
std::variant<mysql::Value, SqlError> DefaultValue(const Expr& e, const ColumnDef& column) {
  bool negative = e.kind == ExprKind::kUnary && e.unary_op == UnaryOp::kNeg && e.args.size() == 1 &&
                  e.args[0]->kind == ExprKind::kLiteral;
  if (negative) return LiteralValue(*e.args[0], true, column);
  if (e.kind == ExprKind::kLiteral) return LiteralValue(e, false, column);
  return mysql::errors::NotSupportedYet("expression defaults");
}

// CURRENT_TIMESTAMP[(n)] as DEFAULT (`error` 1067) or ON UPDATE (1294) of `column`: MySQL 8.0
// takes it only for DATETIME and TIMESTAMP, with n the column's own fractional digits
// (MariaDB truncates a larger n instead).
MaybeError CheckCurrentTimestamp(const Expr& e, const ColumnDef& column, int error) {
  SqlError refused =
      error == 1294
          ? Error(1294, absl::StrCat("Invalid ON UPDATE clause for '", column.name, "' column"))
          : InvalidDefault(column.name);
  uint32_t fsp = 0;
  if (e.args.size() > 1) return refused;
  if (e.args.size() == 1) {
    const Expr& a = *e.args[0];
    if (a.kind != ExprKind::kLiteral || a.literal != LiteralKind::kInteger ||
        !absl::SimpleAtoi(a.text, &fsp)) {
      return refused;
    }
    if (fsp > 6) return PrecisionTooBig(fsp, absl::AsciiStrToLower(e.name), 6);
  }
  if (column.type != ColumnType::kDateTime && column.type != ColumnType::kTimestamp) {
    return refused;
  }
  if (fsp != column.precision) return refused;
  return std::nullopt;
}

// REQUIRES: column's type and nullability are set.
MaybeError ApplyDefault(const Expr& expr, bool in_primary_key, ColumnDef* column) {
  if (expr.kind == ExprKind::kFunction && IsCurrentTimestamp(expr.name)) {
    if (MaybeError e = CheckCurrentTimestamp(expr, *column, 1067)) return e;
    column->default_now = true;
    return std::nullopt;
  }
  auto value = DefaultValue(expr, *column);
  if (auto* e = std::get_if<SqlError>(&value)) return *e;
  const mysql::Value& v = std::get<mysql::Value>(value);
  if (mysql::IsNull(v)) {
    if (in_primary_key) return PrimaryKeyNull();
    if (!column->nullable) return InvalidDefault(column->name);
    return std::nullopt;  // no default: NULL
  }
  if (column->type == ColumnType::kText || column->type == ColumnType::kBlob ||
      column->type == ColumnType::kJson) {
    return Error(1101, absl::StrCat("BLOB, TEXT, GEOMETRY or JSON column '", column->name,
                                    "' can't have a default value"));
  }
  if (column->auto_increment) return InvalidDefault(column->name);
  auto encoded = EncodeField(*column, v, 1);
  if (std::holds_alternative<SqlError>(encoded)) return InvalidDefault(column->name);
  column->default_value = std::get<std::string>(std::move(encoded));
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// Columns and keys

bool InPrimaryKey(const CreateTableStmt& stmt, const ColumnSpec& column) {
  if (column.primary_key) return true;
  for (const IndexSpec& index : stmt.indexes) {
    if (index.kind != IndexSpec::Kind::kPrimary) continue;
    for (const std::string& name : index.columns) {
      if (absl::EqualsIgnoreCase(name, column.name)) return true;
    }
  }
  return false;
}

std::variant<ColumnDef, SqlError> ColumnFromSpec(const ColumnSpec& spec, bool in_primary_key) {
  ColumnDef column;
  column.name = spec.name;
  if (MaybeError e = ApplyType(spec.type, &column)) return *e;
  if (in_primary_key && spec.nullable == true) return PrimaryKeyNull();
  column.auto_increment = spec.auto_increment;
  if (Utf8CharCount(spec.comment) > 1024) {
    return Error(1629,
                 absl::StrCat("Comment for field '", spec.name, "' is too long (max = 1024)"));
  }
  column.comment = spec.comment;
  // MySQL makes key and AUTO_INCREMENT columns NOT NULL without being asked.
  column.nullable = spec.nullable.value_or(true) && !in_primary_key && !spec.auto_increment;
  if (spec.default_value != nullptr) {
    if (MaybeError e = ApplyDefault(*spec.default_value, in_primary_key, &column)) return *e;
  }
  if (spec.on_update != nullptr) {
    if (MaybeError e = CheckCurrentTimestamp(*spec.on_update, column, 1294)) return *e;
    column.on_update_now = true;
  }
  return column;
}

IndexDef SingleColumnIndex(int column, bool primary) {
  IndexDef index;
  index.columns = {column};
  index.unique = true;
  index.primary = primary;
  return index;
}

// Keys in the order MySQL meets them: the columns' own PRIMARY KEY and UNIQUE, then the
// table's clauses. Unnamed keys are named by ValidateAndComplete.
MaybeError AddIndexes(const CreateTableStmt& stmt, TableDef* table) {
  for (size_t i = 0; i < stmt.columns.size(); ++i) {
    const ColumnSpec& spec = stmt.columns[i];
    if (spec.primary_key) table->indexes.push_back(SingleColumnIndex(static_cast<int>(i), true));
    if (spec.unique) table->indexes.push_back(SingleColumnIndex(static_cast<int>(i), false));
  }
  for (const IndexSpec& spec : stmt.indexes) {
    IndexDef index;
    index.name = spec.name;
    index.primary = spec.kind == IndexSpec::Kind::kPrimary;
    index.unique = spec.kind != IndexSpec::Kind::kIndex;
    for (const std::string& name : spec.columns) {
      int pos = table->FindColumn(name);
      if (pos < 0) {
        return Error(1072, absl::StrCat("Key column '", name, "' doesn't exist in table"));
      }
      index.columns.push_back(pos);
    }
    table->indexes.push_back(std::move(index));
  }
  return std::nullopt;
}

// The FOREIGN KEY clauses, after the keys: the child columns by position (1072), and an index
// over them where no index begins with them (MySQL's rule: foreign keys need one).
MaybeError AddForeignKeys(const CreateTableStmt& stmt, const std::string& database,
                          TableDef* table) {
  int last_number = 0;
  for (const ForeignKeySpec& spec : stmt.foreign_keys) {
    auto fk = ForeignKeyFromSpec(spec, table->name, database, &last_number);
    if (auto* e = std::get_if<SqlError>(&fk)) return *e;
    schema::ForeignKeyDef& def =
        table->foreign_keys.emplace_back(std::get<schema::ForeignKeyDef>(std::move(fk)));
    for (const std::string& name : spec.columns) {
      int pos = table->FindColumn(name);
      if (pos < 0) {
        return Error(1072, absl::StrCat("Key column '", name, "' doesn't exist in table"));
      }
      def.columns.push_back(pos);
    }
    if (!IndexBeginsWith(*table, def.columns)) {
      IndexDef& index = table->indexes.emplace_back();
      index.name = ForeignKeyIndexName(spec);
      index.columns = def.columns;
      index.for_foreign_key = true;
    }
  }
  return std::nullopt;
}

// MySQL's key order (what SHOW CREATE TABLE and SHOW INDEX list): the primary key, unique
// keys over NOT NULL columns, other unique keys, then the rest, each group as written.
void SortIndexes(TableDef* table) {
  auto rank = [&](const IndexDef& index) {
    if (index.primary) return 0;
    if (!index.unique) return 3;
    bool nullable = std::any_of(index.columns.begin(), index.columns.end(),
                                [&](int c) { return table->columns[c].nullable; });
    return nullable ? 2 : 1;
  };
  std::stable_sort(table->indexes.begin(), table->indexes.end(),
                   [&](const IndexDef& a, const IndexDef& b) { return rank(a) < rank(b); });
}

bool IsShoalEngine(absl::string_view engine) {
  for (absl::string_view e : {"ndbcluster", "ndb", "innodb", "memory", "shoal", "myisam"}) {
    if (absl::EqualsIgnoreCase(engine, e)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// SHOW CREATE TABLE

}  // namespace

std::string QuoteIdentifier(absl::string_view name) {
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
  return out;
}

absl::string_view ColumnCollationName(const ColumnDef& c) {
  if (c.type != ColumnType::kChar && c.type != ColumnType::kVarChar &&
      c.type != ColumnType::kText) {
    return "";
  }
  return schema::FoldsCase(c) ? "utf8mb4_0900_ai_ci" : "utf8mb4_bin";
}

std::string ColumnTypeText(const ColumnDef& c) {
  std::string name = absl::AsciiStrToLower(schema::ColumnTypeName(c.type));
  switch (c.type) {
    case ColumnType::kTinyInt:
      if (c.length == 1) name += "(1)";
      break;
    case ColumnType::kDecimal:
      absl::StrAppend(&name, "(", c.precision, ",", c.scale, ")");
      break;
    case ColumnType::kChar:
    case ColumnType::kVarChar:
    case ColumnType::kBinary:
    case ColumnType::kVarBinary:
      absl::StrAppend(&name, "(", c.length, ")");
      break;
    case ColumnType::kTime:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      if (c.precision > 0) absl::StrAppend(&name, "(", c.precision, ")");
      break;
    case ColumnType::kBit:
      absl::StrAppend(&name, "(", c.length, ")");
      break;
    case ColumnType::kText:
    case ColumnType::kBlob: {
      const uint32_t bytes = schema::DeclaredBlobBytes(c);
      const char* size = bytes <= 255        ? "tiny"
                         : bytes <= 65535    ? ""
                         : bytes <= 16777215 ? "medium"
                                             : "long";
      name = absl::StrCat(size, name);
      break;
    }
    case ColumnType::kEnum:
    case ColumnType::kSet:
      absl::StrAppend(&name, "(",
                      absl::StrJoin(c.elements, ",",
                                    [](std::string* out, const std::string& member) {
                                      out->append(mysql::QuoteSqlString(member));
                                    }),
                      ")");
      break;
    default:
      break;
  }
  if (c.is_unsigned && IsNumeric(c.type)) name += " unsigned";
  return name;
}

namespace {

// Temporal values with exactly the column's fractional digits, as MySQL shows them.
std::string TemporalText(const ColumnDef& c, const mysql::Value& v) {
  const int digits = static_cast<int>(c.precision);
  std::string out;
  if (const auto* t = std::get_if<mysql::Time>(&v)) {
    mysql::AppendTimeText(*t, digits, &out);
  } else if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    if (c.type == ColumnType::kDate) {
      mysql::AppendDateText(*d, &out);
    } else {
      mysql::AppendDateTimeText(*d, digits, &out);
    }
  } else {
    out = ValueText(v);
  }
  return out;
}

std::string DefaultText(const ColumnDef& c) {
  bool blob = c.type == ColumnType::kText || c.type == ColumnType::kBlob;
  if (c.auto_increment) return "";
  if (c.default_now) return " DEFAULT " + CurrentTimestampText(c);
  if (!c.default_value.has_value()) return c.nullable && !blob ? " DEFAULT NULL" : "";
  schema::Field field;
  size_t consumed = 0;
  if (!schema::ReadField(c, *c.default_value, &field, &consumed)) return "";
  mysql::Value value = DecodeField(c, field);
  if (c.type == ColumnType::kBit) {
    return " DEFAULT " + schema::BitLiteralText(schema::FieldUint(c, field.bytes));
  }
  std::string text =
      std::holds_alternative<mysql::DateTime>(value) || std::holds_alternative<mysql::Time>(value)
          ? TemporalText(c, value)
          : ValueText(value);
  // A default that is not text a client can read (a BINARY one) is shown in hex.
  if (IsValidUtf8(text, Utf8Check::kUtf8mb4)) return " DEFAULT " + mysql::QuoteSqlString(text);
  std::string hex;
  for (unsigned char b : text) absl::StrAppendFormat(&hex, "%02X", b);
  return " DEFAULT 0x" + hex;
}

// `table`: the table's collation, which its columns' go unsaid when they are it, as in MySQL.
std::string ColumnLine(const ColumnDef& c, schema::Collation table) {
  std::string line = absl::StrCat("  ", QuoteIdentifier(c.name), " ", ColumnTypeText(c));
  if (!ColumnCollationName(c).empty() && c.collation != table) {
    // A case-insensitive column of a _bin table is named by the collation MySQL 8.0 and
    // MariaDB both know, so that a dump loads into either (see the table's line below).
    line += c.collation == schema::Collation::kBinary ? " COLLATE utf8mb4_bin"
                                                      : " COLLATE utf8mb4_general_ci";
  }
  if (!c.nullable) {
    line += " NOT NULL";
  } else if (c.type == ColumnType::kTimestamp) {
    line += " NULL";  // MySQL spells it out: TIMESTAMP columns once defaulted to NOT NULL
  }
  line += DefaultText(c);
  if (c.on_update_now) line += " ON UPDATE " + CurrentTimestampText(c);
  if (c.auto_increment) line += " AUTO_INCREMENT";
  if (!c.comment.empty()) line += " COMMENT " + mysql::QuoteSqlString(c.comment);
  return line;
}

std::string IndexLine(const TableDef& table, const IndexDef& index) {
  std::string line = index.primary ? "  PRIMARY KEY ("
                     : index.unique
                         ? absl::StrCat("  UNIQUE KEY ", QuoteIdentifier(index.name), " (")
                         : absl::StrCat("  KEY ", QuoteIdentifier(index.name), " (");
  absl::StrAppend(&line,
                  absl::StrJoin(index.columns, ",",
                                [&](std::string* out, int c) {
                                  out->append(QuoteIdentifier(table.columns[c].name));
                                }),
                  ")");
  return line;
}

std::string ActionText(schema::ReferenceAction action) {
  switch (action) {
    case schema::ReferenceAction::kRestrict:
      return "RESTRICT";
    case schema::ReferenceAction::kCascade:
      return "CASCADE";
    case schema::ReferenceAction::kSetNull:
      return "SET NULL";
    case schema::ReferenceAction::kNoAction:
    case schema::ReferenceAction::kDefault:
      break;
  }
  return "NO ACTION";
}

}  // namespace

std::variant<schema::ForeignKeyDef, SqlError> ForeignKeyFromSpec(const ForeignKeySpec& spec,
                                                                 const std::string& table_name,
                                                                 const std::string& database,
                                                                 int* last_number) {
  using Action = ForeignKeySpec::Action;
  schema::ForeignKeyDef fk;
  fk.name = spec.name;
  if (fk.name.empty()) fk.name = absl::StrCat(table_name, "_ibfk_", ++*last_number);
  fk.parent_database = spec.parent.database.empty() ? database : spec.parent.database;
  fk.parent_table = spec.parent.name;
  fk.parent_columns = spec.parent_columns;
  if (spec.columns.size() != spec.parent_columns.size()) {
    return Error(1239, absl::StrCat("Incorrect foreign key definition for '", fk.name,
                                    "': Key reference and table reference don't match"));
  }
  auto action = [](Action a) -> std::optional<schema::ReferenceAction> {
    switch (a) {
      case Action::kDefault:
        return schema::ReferenceAction::kDefault;
      case Action::kRestrict:
        return schema::ReferenceAction::kRestrict;
      case Action::kCascade:
        return schema::ReferenceAction::kCascade;
      case Action::kSetNull:
        return schema::ReferenceAction::kSetNull;
      case Action::kNoAction:
        return schema::ReferenceAction::kNoAction;
      case Action::kSetDefault:
        break;
    }
    return std::nullopt;
  };
  auto on_delete = action(spec.on_delete), on_update = action(spec.on_update);
  if (!on_delete || !on_update) {  // InnoDB and NDB refuse it too
    return Error(1235, "This version of MySQL doesn't yet support 'SET DEFAULT'");
  }
  fk.on_delete = *on_delete;
  fk.on_update = *on_update;
  return fk;
}

bool IndexBeginsWith(const TableDef& table, const std::vector<int>& columns) {
  return std::any_of(table.indexes.begin(), table.indexes.end(), [&](const IndexDef& index) {
    return index.columns.size() >= columns.size() &&
           std::equal(columns.begin(), columns.end(), index.columns.begin());
  });
}

std::string ForeignKeyIndexName(const ForeignKeySpec& spec) {
  return !spec.name.empty() ? spec.name : spec.index_name;  // empty: named after its column
}

std::string ForeignKeyClause(const TableDef& child, const schema::ForeignKeyDef& fk) {
  auto quoted = [](std::string* out, const std::string& name) {
    out->append(QuoteIdentifier(name));
  };
  std::vector<std::string> columns;
  for (int c : fk.columns) columns.push_back(child.columns[c].name);
  std::string parent = QuoteIdentifier(fk.parent_table);
  if (fk.parent_database != child.database) {
    parent = absl::StrCat(QuoteIdentifier(fk.parent_database), ".", parent);
  }
  std::string out = absl::StrCat("CONSTRAINT ", QuoteIdentifier(fk.name), " FOREIGN KEY (",
                                 absl::StrJoin(columns, ", ", quoted), ") REFERENCES ", parent,
                                 " (", absl::StrJoin(fk.parent_columns, ", ", quoted), ")");
  if (fk.on_delete != schema::ReferenceAction::kDefault) {
    absl::StrAppend(&out, " ON DELETE ", ActionText(fk.on_delete));
  }
  if (fk.on_update != schema::ReferenceAction::kDefault) {
    absl::StrAppend(&out, " ON UPDATE ", ActionText(fk.on_update));
  }
  return out;
}

std::string ReferenceRuleText(schema::ReferenceAction action) { return ActionText(action); }

std::variant<TableDef, SqlError> TableDefFromSpec(const CreateTableStmt& stmt,
                                                  const std::string& database) {
  if (!stmt.engine.empty() && !IsShoalEngine(stmt.engine)) {
    return Error(1286, absl::StrCat("Unknown storage engine '", stmt.engine, "'"));
  }
  TableDef table;
  table.database = stmt.table.database.empty() ? database : stmt.table.database;
  if (table.database.empty()) return mysql::errors::NoDatabaseSelected();
  table.name = stmt.table.name;
  table.comment = stmt.comment;
  table.partitions = stmt.partitions.value_or(0);
  // The table's COLLATE is its text columns' unless they name their own: a table made
  // COLLATE=utf8mb4_bin (a dump's, an application's) keeps case-sensitive keys.
  table.collation = TableCollation(stmt.collation);
  for (const ColumnSpec& spec : stmt.columns) {
    auto column = ColumnFromSpec(spec, InPrimaryKey(stmt, spec));
    if (auto* e = std::get_if<SqlError>(&column)) return *e;
    table.columns.push_back(std::get<ColumnDef>(std::move(column)));
    TakeTableCollation(spec, table.collation, &table.columns.back());
  }
  if (MaybeError e = AddIndexes(stmt, &table)) return *e;
  if (MaybeError e = AddForeignKeys(stmt, table.database, &table)) return *e;
  if (absl::Status s = schema::ValidateAndComplete(&table); !s.ok()) return FromStatus(s);
  SortIndexes(&table);
  return table;
}

std::variant<ColumnDef, SqlError> ColumnDefFromSpec(const ColumnSpec& spec, bool in_primary_key) {
  return ColumnFromSpec(spec, in_primary_key);
}

schema::Collation TableCollation(absl::string_view name) {
  return absl::EndsWith(name, "_bin") ? schema::Collation::kBinary
                                      : schema::Collation::kCaseInsensitive;
}

void TakeTableCollation(const ColumnSpec& spec, schema::Collation table, ColumnDef* column) {
  const bool text = column->type == ColumnType::kChar || column->type == ColumnType::kVarChar ||
                    column->type == ColumnType::kText;
  if (text && spec.type.collation.empty() && spec.type.charset.empty()) column->collation = table;
}

std::optional<SqlError> SetColumnDefault(const Expr& expr, bool in_primary_key, ColumnDef* column) {
  return ApplyDefault(expr, in_primary_key, column);
}

void SortIndexesAsMysql(TableDef* table) { SortIndexes(table); }

SqlError SqlErrorFromSchemaStatus(const absl::Status& status) { return FromStatus(status); }

bool IsShoalEngineName(absl::string_view engine) { return IsShoalEngine(engine); }

std::string ShowCreateTableText(const TableDef& table) { return ShowCreateTableText(table, 0); }

std::string ShowCreateTableText(const TableDef& table, uint64_t next_auto_increment) {
  std::vector<std::string> lines;
  for (const ColumnDef& c : table.columns) {
    if (!c.hidden) lines.push_back(ColumnLine(c, table.collation));
  }
  for (const IndexDef& index : table.indexes) {
    bool hidden = index.columns.size() == 1 && table.columns[index.columns[0]].hidden;
    if (!hidden) lines.push_back(IndexLine(table, index));
  }
  for (const schema::ForeignKeyDef& fk : table.foreign_keys) {
    lines.push_back("  " + ForeignKeyClause(table, fk));
  }
  std::string out = absl::StrCat("CREATE TABLE ", QuoteIdentifier(table.name), " (\n",
                                 absl::StrJoin(lines, ",\n"), "\n) ENGINE=ndbcluster");
  if (next_auto_increment > 1) absl::StrAppend(&out, " AUTO_INCREMENT=", next_auto_increment);
  // A case-insensitive table's collation is the charset's default, so it is left out, as
  // MySQL 5.7 did: a dump then loads unchanged into MySQL 8.0 (utf8mb4_0900_ai_ci) and into
  // MariaDB, which has no utf8mb4_0900_ai_ci and takes its own utf8mb4 default
  // (docs/architecture.md, "Dumps"); a _bin table's is named, as both name it.
  out += " DEFAULT CHARSET=utf8mb4";
  if (table.collation == schema::Collation::kBinary) out += " COLLATE=utf8mb4_bin";
  if (!table.comment.empty())
    absl::StrAppend(&out, " COMMENT=", mysql::QuoteSqlString(table.comment));
  return out;
}

}  // namespace shoal::sql
