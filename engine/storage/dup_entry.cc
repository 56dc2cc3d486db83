// ER_DUP_ENTRY text: how MySQL prints key values in error messages.
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/storage/partition.h"

namespace shoal::storage {
namespace {

std::string FormatDouble(double v) {
  for (int precision = 1; precision <= 17; ++precision) {
    std::string s = absl::StrFormat("%.*g", precision, v);
    if (std::strtod(s.c_str(), nullptr) == v) return s;
  }
  return absl::StrFormat("%.17g", v);
}

std::string Fraction(int64_t micros, int precision) {
  if (precision <= 0) return "";
  std::string digits = absl::StrFormat("%06d", static_cast<int>(micros));
  return absl::StrCat(".", digits.substr(0, std::min(precision, 6)));
}

// The value as MySQL shows it in text.
std::string FormatValue(const schema::ColumnDef& column, absl::string_view bytes) {
  using schema::ColumnType;
  switch (column.type) {
    case ColumnType::kTinyInt:
    case ColumnType::kSmallInt:
    case ColumnType::kMediumInt:
    case ColumnType::kInt:
    case ColumnType::kBigInt:
      return column.is_unsigned ? absl::StrCat(schema::FieldUint(column, bytes))
                                : absl::StrCat(schema::FieldInt(column, bytes));
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return FormatDouble(schema::FieldDouble(column, bytes));
    case ColumnType::kDate: {
      int64_t v = schema::FieldInt(column, bytes);
      return absl::StrFormat("%04d-%02d-%02d", v / 512, (v / 32) % 16, v % 32);
    }
    case ColumnType::kTime: {
      int64_t v = schema::FieldInt(column, bytes);
      const char* sign = v < 0 ? "-" : "";
      int64_t a = std::llabs(v);
      int64_t seconds = a / 1000000;
      return absl::StrCat(absl::StrFormat("%s%02d:%02d:%02d", sign, seconds / 3600,
                                          (seconds / 60) % 60, seconds % 60),
                          Fraction(a % 1000000, column.precision));
    }
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp: {
      schema::DateTimeParts p = schema::UnpackDateTime(schema::FieldInt(column, bytes));
      return absl::StrCat(absl::StrFormat("%04d-%02d-%02d %02d:%02d:%02d", p.year, p.month, p.day,
                                          p.hour, p.minute, p.second),
                          Fraction(p.microsecond, column.precision));
    }
    case ColumnType::kEnum:
    case ColumnType::kSet:
      return schema::MemberText(column, schema::FieldUint(column, bytes));
    case ColumnType::kBit:
      return absl::StrCat(schema::FieldUint(column, bytes));
    default:
      return std::string(bytes);  // DECIMAL's canonical text and the string types
  }
}

}  // namespace

std::string DuplicateEntryMessage(const schema::TableDef& table, int index,
                                  absl::string_view packed_key) {
  if (index < 0 || index >= static_cast<int>(table.indexes.size())) index = 0;
  const schema::IndexDef& def = table.indexes[index];
  std::vector<uint16_t> columns(def.columns.begin(), def.columns.end());
  std::vector<schema::Field> fields(columns.size());
  size_t consumed = 0;
  std::vector<std::string> values;
  if (schema::SplitKey(table, columns, packed_key, fields.data(), &consumed)) {
    for (size_t i = 0; i < columns.size(); ++i) {
      values.push_back(FormatValue(table.columns[columns[i]], fields[i].bytes));
    }
  }
  return absl::StrCat("Duplicate entry '", absl::StrJoin(values, "-"), "' for key '", table.name,
                      ".", def.name, "'");
}

}  // namespace shoal::storage
