// Type facts, date packing, table-definition checks (with MySQL's error codes and texts) and
// the binary form of a TableDef that DDL frames and dictionary snapshots carry.
#include "engine/schema/schema.h"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "engine/schema/bytes.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"

namespace shoal::schema {
namespace {

using internal::AppendLe;
using internal::LoadLe;

constexpr size_t kMaxNameChars = 64;
constexpr size_t kMaxColumns = 4096;
constexpr size_t kMaxIndexes = 64;
constexpr size_t kMaxKeyParts = 16;
constexpr size_t kMaxKeyBytes = 3072;
constexpr size_t kMaxCommentChars = 2048;
constexpr size_t kMaxEnumElements = 65535;
constexpr size_t kMaxSetElements = 64;

absl::Status Error(int code, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(code, ": ", message));
}

bool BadIdentifier(absl::string_view name) { return name.empty() || name.back() == ' '; }

bool IsNumeric(ColumnType type) {
  return IsInteger(type) || type == ColumnType::kFloat || type == ColumnType::kDouble ||
         type == ColumnType::kDecimal;
}

absl::Status CheckLength(const ColumnDef& column, uint32_t max) {
  if (column.length <= max) return absl::OkStatus();
  return Error(1074, absl::StrCat("Column length too big for column '", column.name,
                                  "' (max = ", max, "); use BLOB or TEXT instead"));
}

absl::Status CheckPrecision(const ColumnDef& column, int max) {
  if (column.precision <= max) return absl::OkStatus();
  return Error(1426, absl::StrCat("Too big precision ", column.precision, " specified for '",
                                  column.name, "'. Maximum is ", max, "."));
}

// Type-specific limits; fills in MySQL's implicit DECIMAL precision.
absl::Status CheckType(ColumnDef* column) {
  switch (column->type) {
    case ColumnType::kChar:
    case ColumnType::kBinary:
      return CheckLength(*column, 255);
    case ColumnType::kVarChar:
      return CheckLength(*column, 16383);
    case ColumnType::kVarBinary:
      return CheckLength(*column, 65535);
    case ColumnType::kDecimal:
      if (column->precision == 0) column->precision = 10;
      if (absl::Status s = CheckPrecision(*column, 65); !s.ok()) return s;
      if (column->scale > 30) {
        return Error(1425, absl::StrCat("Too big scale ", column->scale, " specified for '",
                                        column->name, "'. Maximum is 30."));
      }
      if (column->scale > column->precision) {
        return Error(1427, absl::StrCat("For float(M,D), double(M,D) or decimal(M,D), M must be "
                                        ">= D (column '",
                                        column->name, "')."));
      }
      return absl::OkStatus();
    case ColumnType::kTime:
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      return CheckPrecision(*column, 6);
    case ColumnType::kBit:
      if (column->length == 0) column->length = 1;
      if (column->length > 64) {
        return Error(1439, absl::StrCat("Display width out of range for column '", column->name,
                                        "' (max = 64)"));
      }
      return absl::OkStatus();
    case ColumnType::kEnum:
    case ColumnType::kSet: {
      const size_t max = column->type == ColumnType::kEnum ? kMaxEnumElements : kMaxSetElements;
      if (column->elements.empty() || column->elements.size() > max) {
        return Error(1097, absl::StrCat("Too many strings for column ", column->name, " and ",
                                        ColumnTypeName(column->type)));
      }
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

absl::Status CheckDefault(const ColumnDef& column) {
  const bool temporal =
      column.type == ColumnType::kDateTime || column.type == ColumnType::kTimestamp;
  if (column.on_update_now && !temporal) {
    return Error(1294, absl::StrCat("Invalid ON UPDATE clause for '", column.name, "' column"));
  }
  if (column.default_now &&
      (!temporal || column.auto_increment || column.default_value.has_value())) {
    return Error(1067, absl::StrCat("Invalid default value for '", column.name, "'"));
  }
  if (!column.default_value.has_value()) return absl::OkStatus();
  if (column.type == ColumnType::kText || column.type == ColumnType::kBlob ||
      column.type == ColumnType::kJson) {
    return Error(1101, absl::StrCat("BLOB, TEXT, GEOMETRY or JSON column '", column.name,
                                    "' can't have a default value"));
  }
  Field field;
  size_t consumed = 0;
  if (column.auto_increment || !ReadField(column, *column.default_value, &field, &consumed) ||
      consumed != column.default_value->size()) {
    return Error(1067, absl::StrCat("Invalid default value for '", column.name, "'"));
  }
  return absl::OkStatus();
}

bool IsCompletedHiddenKey(const TableDef& table, size_t i) {
  const ColumnDef& c = table.columns[i];
  return i + 1 == table.columns.size() && c.name == kHiddenKeyColumn &&
         c.type == ColumnType::kBigInt && c.is_unsigned && !c.nullable && !c.auto_increment;
}

absl::Status CheckColumn(const TableDef& table, size_t i, ColumnDef* column) {
  if (column->hidden && !IsCompletedHiddenKey(table, i)) {
    return Error(1166, absl::StrCat("Incorrect column name '", column->name, "'"));
  }
  if (BadIdentifier(column->name) ||
      (!column->hidden && absl::EqualsIgnoreCase(column->name, kHiddenKeyColumn))) {
    return Error(1166, absl::StrCat("Incorrect column name '", column->name, "'"));
  }
  if (Utf8CharCount(column->name) > kMaxNameChars) {
    return Error(1059, absl::StrCat("Identifier name '", column->name, "' is too long"));
  }
  for (size_t j = 0; j < i; ++j) {
    if (absl::EqualsIgnoreCase(table.columns[j].name, column->name)) {
      return Error(1060, absl::StrCat("Duplicate column name '", column->name, "'"));
    }
  }
  if (column->type < ColumnType::kTinyInt || column->type > kMaxColumnType) {
    return Error(1064, absl::StrCat("Unknown type ", static_cast<int>(column->type),
                                    " for column '", column->name, "'"));
  }
  if (!IsNumeric(column->type)) column->is_unsigned = false;
  if (!IsEnumOrSet(column->type)) column->elements.clear();
  if (column->auto_increment && !IsInteger(column->type)) {
    return Error(1063, absl::StrCat("Incorrect column specifier for column '", column->name, "'"));
  }
  if (absl::Status s = CheckType(column); !s.ok()) return s;
  return CheckDefault(*column);
}

absl::Status CheckTableNames(const TableDef& table) {
  if (BadIdentifier(table.database) || Utf8CharCount(table.database) > kMaxNameChars) {
    return Error(1102, absl::StrCat("Incorrect database name '", table.database, "'"));
  }
  if (BadIdentifier(table.name) || Utf8CharCount(table.name) > kMaxNameChars) {
    return Error(1103, absl::StrCat("Incorrect table name '", table.name, "'"));
  }
  if (Utf8CharCount(table.comment) > kMaxCommentChars) {
    return Error(1628, absl::StrCat("Comment for table '", table.name,
                                    "' is too long (max = ", kMaxCommentChars, ")"));
  }
  return absl::OkStatus();
}

// The most bytes a key part can take in a packed key.
size_t KeyPartBytes(const ColumnDef& column) {
  int fixed = FixedSize(column.type);
  return fixed > 0 ? fixed : MaxValueBytes(column);
}

absl::Status CheckIndexColumns(TableDef* table, IndexDef* index) {
  if (index->columns.empty()) {
    return Error(1064, absl::StrCat("Index '", index->name, "' needs at least one column"));
  }
  if (index->columns.size() > kMaxKeyParts) {
    return Error(1070, "Too many key parts specified; max 16 parts allowed");
  }
  size_t key_bytes = 0;
  for (size_t k = 0; k < index->columns.size(); ++k) {
    int pos = index->columns[k];
    if (pos < 0 || static_cast<size_t>(pos) >= table->columns.size()) {
      return Error(1072, absl::StrCat("Key column '", pos, "' doesn't exist in table"));
    }
    ColumnDef& column = table->columns[pos];
    if (column.hidden && !(index->primary && index->columns.size() == 1)) {
      return Error(1072, absl::StrCat("Key column '", column.name, "' doesn't exist in table"));
    }
    for (size_t j = 0; j < k; ++j) {
      if (index->columns[j] == pos) {
        return Error(1060, absl::StrCat("Duplicate column name '", column.name, "'"));
      }
    }
    if (column.type == ColumnType::kJson) {
      return Error(3152, absl::StrCat("JSON column '", column.name,
                                      "' supports indexing only via generated columns on a "
                                      "specified JSON path."));
    }
    if (column.type == ColumnType::kText || column.type == ColumnType::kBlob) {
      return Error(1170, absl::StrCat("BLOB/TEXT column '", column.name,
                                      "' used in key specification without a key length"));
    }
    key_bytes += KeyPartBytes(column);
    // MySQL makes primary-key columns NOT NULL implicitly.
    if (index->primary) column.nullable = false;
  }
  if (key_bytes > kMaxKeyBytes) {
    return Error(1071, "Specified key was too long; max key length is 3072 bytes");
  }
  return absl::OkStatus();
}

bool IndexNameTaken(const TableDef& table, absl::string_view name) {
  return table.FindIndex(name) >= 0;
}

// MySQL names an unnamed index after its first column: `c`, then `c_2`, `c_3`, ...
void NameIndex(TableDef* table, IndexDef* index) {
  std::string base = table->columns[index->columns[0]].name;
  std::string name = base;
  for (int n = 2; IndexNameTaken(*table, name); ++n) name = absl::StrCat(base, "_", n);
  index->name = std::move(name);
}

absl::Status CheckIndexNames(TableDef* table) {
  for (size_t i = 0; i < table->indexes.size(); ++i) {
    IndexDef& index = table->indexes[i];
    if (index.primary) {
      index.name = "PRIMARY";
      index.unique = true;
    } else if (absl::EqualsIgnoreCase(index.name, "PRIMARY")) {
      return Error(1280, absl::StrCat("Incorrect index name '", index.name, "'"));
    }
    if (Utf8CharCount(index.name) > kMaxNameChars) {
      return Error(1059, absl::StrCat("Identifier name '", index.name, "' is too long"));
    }
    for (size_t j = 0; j < i && !index.name.empty(); ++j) {
      if (absl::EqualsIgnoreCase(table->indexes[j].name, index.name)) {
        return Error(1061, absl::StrCat("Duplicate key name '", index.name, "'"));
      }
    }
  }
  for (IndexDef& index : table->indexes) {
    if (index.name.empty()) NameIndex(table, &index);
  }
  return absl::OkStatus();
}

absl::Status CheckIndexes(TableDef* table) {
  if (table->indexes.size() > kMaxIndexes) {
    return Error(1069, "Too many keys specified; max 64 keys allowed");
  }
  int primaries = 0;
  for (IndexDef& index : table->indexes) {
    if (index.primary && ++primaries > 1) return Error(1068, "Multiple primary key defined");
    if (absl::Status s = CheckIndexColumns(table, &index); !s.ok()) return s;
  }
  if (absl::Status s = CheckIndexNames(table); !s.ok()) return s;
  auto primary = std::find_if(table->indexes.begin(), table->indexes.end(),
                              [](const IndexDef& index) { return index.primary; });
  if (primary != table->indexes.end()) {
    std::rotate(table->indexes.begin(), primary, primary + 1);
  }
  return absl::OkStatus();
}

// The shape of each foreign key; what it references is the SQL layer's to check (the parent
// may not exist yet when foreign_key_checks is off).
absl::Status CheckForeignKeys(const TableDef& table) {
  if (table.foreign_keys.size() > kMaxIndexes) {
    return Error(1069, "Too many keys specified; max 64 keys allowed");
  }
  for (const ForeignKeyDef& fk : table.foreign_keys) {
    if (fk.name.empty() || fk.parent_table.empty() || fk.columns.empty() ||
        fk.columns.size() > kMaxKeyParts || fk.columns.size() != fk.parent_columns.size()) {
      return Error(1239, absl::StrCat("Incorrect foreign key definition for '", fk.name,
                                      "': Key reference and table reference don't match"));
    }
    for (int c : fk.columns) {
      if (c < 0 || static_cast<size_t>(c) >= table.columns.size() || table.columns[c].hidden) {
        return Error(1239, absl::StrCat("Incorrect foreign key definition for '", fk.name,
                                        "': Key reference and table reference don't match"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAutoIncrement(const TableDef& table) {
  int count = 0;
  int column = -1;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (!table.columns[i].auto_increment) continue;
    if (count++ == 0) column = static_cast<int>(i);
  }
  if (count == 0) return absl::OkStatus();
  if (count == 1) {
    for (const IndexDef& index : table.indexes) {
      if (index.columns[0] == column) return absl::OkStatus();
    }
  }
  return Error(1075,
               "Incorrect table definition; there can be only one auto column and it must be "
               "defined as a key");
}

void AddHiddenKey(TableDef* table) {
  ColumnDef key;
  key.name = kHiddenKeyColumn;
  key.type = ColumnType::kBigInt;
  key.is_unsigned = true;
  key.nullable = false;
  key.hidden = true;
  table->columns.push_back(std::move(key));
  IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {static_cast<int>(table->columns.size()) - 1};
  primary.unique = true;
  primary.primary = true;
  table->indexes.insert(table->indexes.begin(), std::move(primary));
}

}  // namespace

absl::string_view ColumnTypeName(ColumnType type) {
  static constexpr std::array<absl::string_view, 23> kNames = {
      "?",       "TINYINT",  "SMALLINT",  "MEDIUMINT", "INT",       "BIGINT", "FLOAT", "DOUBLE",
      "DECIMAL", "CHAR",     "VARCHAR",   "BINARY",    "VARBINARY", "TEXT",   "BLOB",  "DATE",
      "TIME",    "DATETIME", "TIMESTAMP", "ENUM",      "SET",       "JSON",   "BIT"};
  size_t i = static_cast<size_t>(type);
  return i < kNames.size() ? kNames[i] : kNames[0];
}

std::string BitLiteralText(uint64_t value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + (value & 1)));
    value >>= 1;
  } while (value != 0);
  return absl::StrCat("b'", digits, "'");
}

std::string MemberText(const ColumnDef& column, uint64_t stored) {
  if (column.type == ColumnType::kEnum) {
    return stored >= 1 && stored <= column.elements.size() ? column.elements[stored - 1] : "";
  }
  std::string text;
  for (size_t i = 0; i < column.elements.size() && i < 64; ++i) {
    if ((stored >> i & 1) == 0) continue;
    if (!text.empty()) text.push_back(',');
    text += column.elements[i];
  }
  return text;
}

int FixedSize(ColumnType type) { return internal::FixedSizeOf(static_cast<uint8_t>(type)); }

bool IsInteger(ColumnType type) {
  return type >= ColumnType::kTinyInt && type <= ColumnType::kBigInt;
}

int IntegerBits(ColumnType type) {
  switch (type) {
    case ColumnType::kTinyInt:
      return 8;
    case ColumnType::kSmallInt:
      return 16;
    case ColumnType::kMediumInt:
      return 24;
    case ColumnType::kInt:
      return 32;
    default:
      return 64;
  }
}

bool IsString(ColumnType type) { return type >= ColumnType::kDecimal && type <= ColumnType::kBlob; }

int64_t PackDateTime(int year, int month, int day, int hour, int minute, int second,
                     int microsecond) {
  int64_t v = (int64_t{year} * 13 + month) * 32 + day;
  v = ((v * 24 + hour) * 60 + minute) * 60 + second;
  return v * 1000000 + microsecond;
}

DateTimeParts UnpackDateTime(int64_t packed) {
  DateTimeParts p;
  p.microsecond = static_cast<int>(packed % 1000000);
  int64_t v = packed / 1000000;
  p.second = static_cast<int>(v % 60);
  v /= 60;
  p.minute = static_cast<int>(v % 60);
  v /= 60;
  p.hour = static_cast<int>(v % 24);
  v /= 24;
  p.day = static_cast<int>(v % 32);
  v /= 32;
  p.month = static_cast<int>(v % 13);
  p.year = static_cast<int>(v / 13);
  return p;
}

int TableDef::auto_increment_column() const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].auto_increment) return static_cast<int>(i);
  }
  return -1;
}

int TableDef::FindColumn(absl::string_view column_name) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (absl::EqualsIgnoreCase(columns[i].name, column_name)) return static_cast<int>(i);
  }
  return -1;
}

int TableDef::FindIndex(absl::string_view index_name) const {
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (absl::EqualsIgnoreCase(indexes[i].name, index_name)) return static_cast<int>(i);
  }
  return -1;
}

absl::Status ValidateAndComplete(TableDef* table) {
  if (absl::Status s = CheckTableNames(*table); !s.ok()) return s;
  size_t user_columns = table->columns.size() - (table->has_hidden_key() ? 1 : 0);
  if (user_columns == 0) return Error(1113, "A table must have at least 1 column");
  if (table->columns.size() > kMaxColumns) return Error(1117, "Too many columns");
  for (size_t i = 0; i < table->columns.size(); ++i) {
    if (absl::Status s = CheckColumn(*table, i, &table->columns[i]); !s.ok()) return s;
  }
  if (absl::Status s = CheckIndexes(table); !s.ok()) return s;
  if (absl::Status s = CheckAutoIncrement(*table); !s.ok()) return s;
  if (absl::Status s = CheckForeignKeys(*table); !s.ok()) return s;
  if (table->has_hidden_key() &&
      (table->indexes.empty() || !table->indexes[0].primary ||
       table->indexes[0].columns[0] != static_cast<int>(table->columns.size()) - 1)) {
    return Error(1166, absl::StrCat("Incorrect column name '", kHiddenKeyColumn, "'"));
  }
  if (table->indexes.empty() || !table->indexes[0].primary) {
    if (table->columns.size() >= kMaxColumns) return Error(1117, "Too many columns");
    if (table->indexes.size() >= kMaxIndexes) {
      return Error(1069, "Too many keys specified; max 64 keys allowed");
    }
    AddHiddenKey(table);
  }
  return absl::OkStatus();
}

bool StoredAlike(const TableDef& before, const TableDef& after) {
  if (before.columns.size() != after.columns.size() || before.indexes.empty() ||
      after.indexes.empty() || before.indexes[0].columns != after.indexes[0].columns) {
    return false;
  }
  for (size_t i = 0; i < before.columns.size(); ++i) {
    const ColumnDef& a = before.columns[i];
    const ColumnDef& b = after.columns[i];
    if (a.type != b.type || a.is_unsigned != b.is_unsigned || a.nullable != b.nullable ||
        a.precision != b.precision || a.scale != b.scale || a.hidden != b.hidden ||
        a.auto_increment != b.auto_increment || FoldsCase(a) != FoldsCase(b)) {
      return false;
    }
    // Only these types keep values of any length as they are (BINARY pads to its length).
    bool may_grow = a.type == ColumnType::kChar || a.type == ColumnType::kVarChar ||
                    a.type == ColumnType::kVarBinary || a.type == ColumnType::kText ||
                    a.type == ColumnType::kBlob;
    if (a.length != b.length && !(may_grow && b.length > a.length)) return false;
    // Stored positions keep their meaning while members are only added at the end.
    if (b.elements.size() < a.elements.size() ||
        !std::equal(a.elements.begin(), a.elements.end(), b.elements.begin())) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Serialization:
//
//   int<1> format (kFormat)
//   int<4> id | int<4> version | int<4> partitions | str database | str name | str comment
//   int<2> column count, then per column:
//     str name | int<1> type | int<1> flags (ColumnFlag) | int<4> length | int<1> precision |
//     int<1> scale | [str default, when flags has kHasDefault] |
//     [str comment, when flags has kHasComment] |
//     [int<2> member count | count × str member, ENUM and SET only (format 3 on)]
//     [int<1> collation (Collation), CHAR, VARCHAR and TEXT only (format 4 on; before, binary)]
//   int<1> index count, then per index:
//     str name | int<1> flags (IndexFlag) | int<1> part count | part count × int<2> position
//   int<1> foreign key count, then per foreign key (format 2 on; format 1 has none):
//     str name | int<1> part count | part count × int<2> position | str parent database |
//     str parent table | part count × str parent column | int<1> on delete | int<1> on update
//   int<1> the table's collation (Collation; format 5 on; before, case-insensitive)
//
// where str is int<4> length | bytes.

namespace {

constexpr uint8_t kFormat = 5;
constexpr uint8_t kFormatWithoutTableCollation = 4;
constexpr uint8_t kFormatWithoutCollations = 3;
constexpr uint8_t kFormatWithoutMembers = 2;
constexpr uint8_t kFormatWithoutForeignKeys = 1;
constexpr uint32_t kMaxNameBytes = 1024;
constexpr uint32_t kMaxCommentBytes = 65535;
constexpr uint32_t kMaxDefaultBytes = 2 + 65535;
constexpr size_t kMinColumnBytes = 12;  // an empty name and no default

enum ColumnFlag : uint8_t {
  kUnsigned = 1,
  kNullable = 2,
  kAutoIncrement = 4,
  kHidden = 8,
  kHasDefault = 16,
  kDefaultNow = 32,
  kOnUpdateNow = 64,
  kHasComment = 128,
  kAllColumnFlags = 255,
};
enum IndexFlag : uint8_t { kUnique = 1, kPrimary = 2, kForForeignKey = 4, kAllIndexFlags = 7 };

// The types whose definitions carry a collation (the character types).
bool HasCollation(ColumnType type) {
  return type == ColumnType::kChar || type == ColumnType::kVarChar || type == ColumnType::kText;
}

void AppendString(absl::string_view s, std::string* out) {
  AppendLe(s.size(), 4, out);
  out->append(s.data(), s.size());
}

// Bounds-checked reads over the input; each failed read leaves `in_` as it was.
class DefReader {
 public:
  explicit DefReader(absl::string_view in) : in_(in) {}
  absl::string_view rest() const { return in_; }

  template <typename T>
  bool Int(T* out) {
    if (in_.size() < sizeof(T)) return false;
    *out = LoadLe<T>(in_.data());
    in_.remove_prefix(sizeof(T));
    return true;
  }
  bool String(uint32_t max, std::string* out) {
    uint32_t n;
    if (!Int(&n) || n > max || in_.size() < n) return false;
    out->assign(in_.data(), n);
    in_.remove_prefix(n);
    return true;
  }

 private:
  absl::string_view in_;
};

bool ParseColumn(DefReader* r, uint8_t format, ColumnDef* c) {
  uint8_t type, flags;
  if (!r->String(kMaxNameBytes, &c->name) || !r->Int(&type) || !r->Int(&flags) ||
      !r->Int(&c->length) || !r->Int(&c->precision) || !r->Int(&c->scale)) {
    return false;
  }
  if (type < 1 || type > static_cast<uint8_t>(kMaxColumnType) || (flags & ~kAllColumnFlags)) {
    return false;
  }
  c->type = static_cast<ColumnType>(type);
  c->is_unsigned = flags & kUnsigned;
  c->nullable = flags & kNullable;
  c->auto_increment = flags & kAutoIncrement;
  c->hidden = flags & kHidden;
  c->default_now = flags & kDefaultNow;
  c->on_update_now = flags & kOnUpdateNow;
  if (flags & kHasDefault) {
    if (!r->String(kMaxDefaultBytes, &c->default_value.emplace())) return false;
  }
  // A comment is written only when there is one: an empty one would not come back the same.
  if ((flags & kHasComment) && (!r->String(kMaxCommentBytes, &c->comment) || c->comment.empty())) {
    return false;
  }
  if (format > kFormatWithoutMembers && IsEnumOrSet(c->type)) {
    uint16_t members;
    // Each member takes at least its 4-byte length: bound the allocation by what is there.
    if (!r->Int(&members) || r->rest().size() < size_t{members} * 4) return false;
    c->elements.resize(members);
    for (std::string& member : c->elements) {
      if (!r->String(kMaxNameBytes, &member)) return false;
    }
  }
  if (format > kFormatWithoutCollations && HasCollation(c->type)) {
    uint8_t collation;
    if (!r->Int(&collation) || collation > static_cast<uint8_t>(Collation::kCaseInsensitive)) {
      return false;
    }
    c->collation = static_cast<Collation>(collation);
  }
  return true;
}

bool ParseIndex(DefReader* r, size_t columns, IndexDef* index) {
  uint8_t flags, parts;
  if (!r->String(kMaxNameBytes, &index->name) || !r->Int(&flags) || !r->Int(&parts) ||
      (flags & ~kAllIndexFlags) || parts == 0) {
    return false;
  }
  index->unique = flags & kUnique;
  index->primary = flags & kPrimary;
  index->for_foreign_key = flags & kForForeignKey;
  index->columns.resize(parts);
  for (int& column : index->columns) {
    uint16_t pos;
    if (!r->Int(&pos) || pos >= columns) return false;
    column = pos;
  }
  return true;
}

bool ParseForeignKey(DefReader* r, size_t columns, ForeignKeyDef* fk) {
  uint8_t parts, on_delete, on_update;
  if (!r->String(kMaxNameBytes, &fk->name) || !r->Int(&parts) || parts == 0 ||
      parts > kMaxKeyParts) {
    return false;
  }
  fk->columns.resize(parts);
  for (int& column : fk->columns) {
    uint16_t pos;
    if (!r->Int(&pos) || pos >= columns) return false;
    column = pos;
  }
  if (!r->String(kMaxNameBytes, &fk->parent_database) ||
      !r->String(kMaxNameBytes, &fk->parent_table)) {
    return false;
  }
  fk->parent_columns.resize(parts);
  for (std::string& name : fk->parent_columns) {
    if (!r->String(kMaxNameBytes, &name)) return false;
  }
  constexpr uint8_t kLast = static_cast<uint8_t>(ReferenceAction::kNoAction);
  if (!r->Int(&on_delete) || !r->Int(&on_update) || on_delete > kLast || on_update > kLast) {
    return false;
  }
  fk->on_delete = static_cast<ReferenceAction>(on_delete);
  fk->on_update = static_cast<ReferenceAction>(on_update);
  return true;
}

}  // namespace

void AppendTableDef(const TableDef& table, std::string* out) {
  out->push_back(static_cast<char>(kFormat));
  AppendLe(table.id, 4, out);
  AppendLe(table.version, 4, out);
  AppendLe(table.partitions, 4, out);
  AppendString(table.database, out);
  AppendString(table.name, out);
  AppendString(table.comment, out);
  AppendLe(table.columns.size(), 2, out);
  for (const ColumnDef& c : table.columns) {
    AppendString(c.name, out);
    out->push_back(static_cast<char>(c.type));
    uint8_t flags = (c.is_unsigned ? kUnsigned : 0) | (c.nullable ? kNullable : 0) |
                    (c.auto_increment ? kAutoIncrement : 0) | (c.hidden ? kHidden : 0) |
                    (c.default_value.has_value() ? kHasDefault : 0) |
                    (c.default_now ? kDefaultNow : 0) | (c.on_update_now ? kOnUpdateNow : 0) |
                    (c.comment.empty() ? 0 : kHasComment);
    out->push_back(static_cast<char>(flags));
    AppendLe(c.length, 4, out);
    out->push_back(static_cast<char>(c.precision));
    out->push_back(static_cast<char>(c.scale));
    if (c.default_value.has_value()) AppendString(*c.default_value, out);
    if (!c.comment.empty()) AppendString(c.comment, out);
    if (IsEnumOrSet(c.type)) {
      AppendLe(c.elements.size(), 2, out);
      for (const std::string& member : c.elements) AppendString(member, out);
    }
    if (HasCollation(c.type)) out->push_back(static_cast<char>(c.collation));
  }
  out->push_back(static_cast<char>(table.indexes.size()));
  for (const IndexDef& index : table.indexes) {
    AppendString(index.name, out);
    out->push_back(static_cast<char>((index.unique ? kUnique : 0) | (index.primary ? kPrimary : 0) |
                                     (index.for_foreign_key ? kForForeignKey : 0)));
    out->push_back(static_cast<char>(index.columns.size()));
    for (int column : index.columns) AppendLe(static_cast<uint16_t>(column), 2, out);
  }
  out->push_back(static_cast<char>(table.foreign_keys.size()));
  for (const ForeignKeyDef& fk : table.foreign_keys) {
    AppendString(fk.name, out);
    out->push_back(static_cast<char>(fk.columns.size()));
    for (int column : fk.columns) AppendLe(static_cast<uint16_t>(column), 2, out);
    AppendString(fk.parent_database, out);
    AppendString(fk.parent_table, out);
    for (const std::string& column : fk.parent_columns) AppendString(column, out);
    out->push_back(static_cast<char>(fk.on_delete));
    out->push_back(static_cast<char>(fk.on_update));
  }
  out->push_back(static_cast<char>(table.collation));
}

bool ReadBackup(const TableDef& table) {
  return !table.comment.empty() &&
         absl::StrContains(absl::AsciiStrToUpper(table.comment), "READ_BACKUP=1");
}

bool Logged(const TableDef& table) {
  return table.comment.empty() ||
         !absl::StrContains(absl::AsciiStrToUpper(table.comment), "NOLOGGING=1");
}

absl::StatusOr<TableDef> ParseTableDef(absl::string_view* in) {
  DefReader r(*in);
  TableDef table;
  uint8_t format;
  uint16_t columns;
  uint8_t indexes;
  if (!r.Int(&format) || format < kFormatWithoutForeignKeys || format > kFormat) {
    return absl::InvalidArgumentError("table definition: unknown format");
  }
  if (!r.Int(&table.id) || !r.Int(&table.version) || !r.Int(&table.partitions) ||
      !r.String(kMaxNameBytes, &table.database) || !r.String(kMaxNameBytes, &table.name) ||
      !r.String(kMaxCommentBytes, &table.comment) || !r.Int(&columns) || columns > kMaxColumns ||
      r.rest().size() < size_t{columns} * kMinColumnBytes) {
    return absl::InvalidArgumentError("table definition: malformed header");
  }
  table.columns.resize(columns);
  for (ColumnDef& column : table.columns) {
    if (!ParseColumn(&r, format, &column)) {
      return absl::InvalidArgumentError("table definition: malformed column");
    }
  }
  if (!r.Int(&indexes) || indexes > kMaxIndexes) {
    return absl::InvalidArgumentError("table definition: malformed index count");
  }
  table.indexes.resize(indexes);
  for (IndexDef& index : table.indexes) {
    if (!ParseIndex(&r, table.columns.size(), &index)) {
      return absl::InvalidArgumentError("table definition: malformed index");
    }
  }
  uint8_t foreign_keys = 0;
  if (format != kFormatWithoutForeignKeys &&
      (!r.Int(&foreign_keys) || foreign_keys > kMaxIndexes)) {
    return absl::InvalidArgumentError("table definition: malformed foreign key count");
  }
  table.foreign_keys.resize(foreign_keys);
  for (ForeignKeyDef& fk : table.foreign_keys) {
    if (!ParseForeignKey(&r, table.columns.size(), &fk)) {
      return absl::InvalidArgumentError("table definition: malformed foreign key");
    }
  }
  if (format > kFormatWithoutTableCollation) {
    uint8_t collation = 0;
    if (!r.Int(&collation) || collation > static_cast<uint8_t>(Collation::kCaseInsensitive)) {
      return absl::InvalidArgumentError("table definition: malformed collation");
    }
    table.collation = static_cast<Collation>(collation);
  }
  *in = r.rest();
  return table;
}

uint32_t KeyHash(const TableDef& table, absl::string_view packed_key) {
  std::string scratch;  // only a key that folds case is copied
  return KeyHash(KeyForm(table, 0, packed_key, &scratch));
}

// xxHash32 (seed 0), spelled out so that every process and platform agrees.
uint32_t KeyHash(absl::string_view packed_key) {
  constexpr uint32_t kP1 = 0x9E3779B1u, kP2 = 0x85EBCA77u, kP3 = 0xC2B2AE3Du;
  constexpr uint32_t kP4 = 0x27D4EB2Fu, kP5 = 0x165667B1u;
  auto round = [](uint32_t acc, uint32_t lane) { return std::rotl(acc + lane * kP2, 13) * kP1; };
  const char* p = packed_key.data();
  const char* end = p + packed_key.size();
  uint32_t h;
  if (packed_key.size() >= 16) {
    uint32_t v1 = kP1 + kP2, v2 = kP2, v3 = 0, v4 = 0u - kP1;
    for (; end - p >= 16; p += 16) {
      v1 = round(v1, LoadLe<uint32_t>(p));
      v2 = round(v2, LoadLe<uint32_t>(p + 4));
      v3 = round(v3, LoadLe<uint32_t>(p + 8));
      v4 = round(v4, LoadLe<uint32_t>(p + 12));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
  } else {
    h = kP5;
  }
  h += static_cast<uint32_t>(packed_key.size());
  for (; end - p >= 4; p += 4) h = std::rotl(h + LoadLe<uint32_t>(p) * kP3, 17) * kP4;
  for (; p < end; ++p) h = std::rotl(h + static_cast<uint8_t>(*p) * kP5, 11) * kP1;
  h ^= h >> 15;
  h *= kP2;
  h ^= h >> 13;
  h *= kP3;
  h ^= h >> 16;
  return h;
}

}  // namespace shoal::schema
