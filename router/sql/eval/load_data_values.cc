// See load_data_values.h. The strict conversion runs first: for the rows that are fine (nearly
// all of them) LOAD DATA costs no more than INSERT; only a refused value takes the slow path
// that finds what mysqld would have stored.
#include "router/sql/eval/load_data_values.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/member_codec.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql {
namespace {

int RowForMessage(uint64_t row) { return static_cast<int>(std::min<uint64_t>(row, INT_MAX)); }

bool IsNumeric(schema::ColumnType type) {
  return schema::IsInteger(type) || type == schema::ColumnType::kFloat ||
         type == schema::ColumnType::kDouble || type == schema::ColumnType::kDecimal;
}

// The number text starts with ("  -12.5e3xyz" → "-12.5e3"); "0" when there is none, as
// mysqld's string-to-number conversions read it.
std::string NumberPrefix(absl::string_view text) {
  size_t i = 0;
  while (i < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i]))) ++i;
  size_t begin = i;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  size_t digits = 0;
  auto scan_digits = [&] {
    size_t n = 0;
    while (i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) ++i, ++n;
    return n;
  };
  digits += scan_digits();
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += scan_digits();
  }
  if (digits == 0) return "0";
  size_t before_exponent = i;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (scan_digits() == 0) i = before_exponent;
  }
  return std::string(text.substr(begin, i - begin));
}

// The end of the column's range the value lies beyond.
mysql::Value RangeEnd(const schema::ColumnDef& column, bool negative) {
  if (column.type == schema::ColumnType::kFloat)
    return negative ? -double{FLT_MAX} : double{FLT_MAX};
  if (column.type == schema::ColumnType::kDouble) return negative ? -DBL_MAX : DBL_MAX;
  if (column.type == schema::ColumnType::kDecimal) {
    std::string nines(std::max(column.precision - column.scale, 0), '9');
    if (nines.empty()) nines = "0";
    if (column.scale > 0) absl::StrAppend(&nines, ".", std::string(column.scale, '9'));
    return mysql::Decimal{negative ? "-" + nines : nines};
  }
  const int bits = schema::IntegerBits(column.type);
  if (column.is_unsigned) {
    if (negative) return uint64_t{0};
    return bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  }
  if (bits == 64) return negative ? INT64_MIN : INT64_MAX;
  int64_t top = (int64_t{1} << (bits - 1)) - 1;
  return negative ? -top - 1 : top;
}

bool LooksNegative(const mysql::Value& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return *i < 0;
  if (const auto* d = std::get_if<double>(&value)) return *d < 0;
  std::string text = ValueText(value);
  size_t first = text.find_first_not_of(" \t\n\r");
  return first != std::string::npos && text[first] == '-';
}

// The longest start of `text` the column takes: characters for the text types, bytes for
// the binary ones.
std::string CutToFit(const schema::ColumnDef& column, absl::string_view text) {
  const size_t max_bytes = schema::MaxValueBytes(column);
  const bool characters = column.type == schema::ColumnType::kChar ||
                          column.type == schema::ColumnType::kVarChar ||
                          column.type == schema::ColumnType::kText;
  if (!characters) return std::string(text.substr(0, max_bytes));
  const size_t max_chars = column.type == schema::ColumnType::kText ? max_bytes : column.length;
  size_t pos = 0, chars = 0;
  while (pos < text.size() && chars < max_chars) {
    size_t len = std::max<size_t>(DecodeUtf8(text.substr(pos), Utf8Check::kUtf8mb4).length, 1);
    if (pos + len > max_bytes) break;
    pos += len;
    ++chars;
  }
  return std::string(text.substr(0, pos));
}

// The value mysqld stores in place of `value`, which the strict conversion refused with
// `refused`; nullopt when IGNORE does not cover that error.
std::optional<mysql::Value> Replacement(const schema::ColumnDef& column, const mysql::Value& value,
                                        const mysql::SqlError& refused) {
  switch (refused.code) {
    case 1048:
      return ZeroValue(column);
    case 1366:
    case 1265:
      if (IsNumeric(column.type)) return mysql::Value{NumberPrefix(ValueText(value))};
      if (column.type == schema::ColumnType::kSet) return internal::KnownMembers(column, value);
      return ZeroValue(column);
    case 1264:
      return RangeEnd(column, LooksNegative(value));
    case 1406:
      return mysql::Value{CutToFit(column, ValueText(value))};
    case 1292:
      return ZeroValue(column);
    default:
      return std::nullopt;
  }
}

bool IsZeroDate(const schema::ColumnDef& column, const mysql::Value& value) {
  const auto* d = std::get_if<mysql::DateTime>(&value);
  return d != nullptr && *d == mysql::DateTime{} &&
         (column.type == schema::ColumnType::kDate ||
          column.type == schema::ColumnType::kDateTime ||
          column.type == schema::ColumnType::kTimestamp);
}

}  // namespace

std::optional<mysql::SqlError> AppendLoadedValue(const schema::ColumnDef& column,
                                                 const mysql::Value& value, uint64_t row,
                                                 int utc_offset, schema::RowWriter* out,
                                                 std::vector<Diagnostic>* warnings,
                                                 IgnoredBy statement) {
  const int at = RowForMessage(row);
  std::optional<mysql::SqlError> refused = AppendField(column, value, at, out, {}, utc_offset);
  if (!refused) return std::nullopt;
  // A replacement may be refused too ('99999abc' into TINYINT: truncated, then out of range):
  // each step is warned about, as mysqld warns about the conversion it ended with.
  mysql::Value current = value;
  for (int step = 0; step < 3 && refused; ++step) {
    std::optional<mysql::Value> next = Replacement(column, current, *refused);
    if (!next) return refused;
    mysql::SqlError warning = *refused;
    if (warning.code == 1048 && statement == IgnoredBy::kLoadData) {
      warning = {1263, "22004",
                 absl::StrCat("Column set to default value; NULL supplied to NOT NULL column '",
                              column.name, "' at row ", at)};
    } else if (warning.code == 1406) {
      warning = mysql::errors::DataTruncated(column.name, at);
    }
    if (step == 0)
      warnings->push_back({Diagnostic::Level::kWarning, warning.code, warning.message});
    current = std::move(*next);
    // The zero date strict mode refuses as a value is what mysqld stores in place of a bad one.
    if (IsZeroDate(column, current)) {
      out->Int(column, 0);
      return std::nullopt;
    }
    refused = AppendField(column, current, at, out, {}, utc_offset);
  }
  return refused;
}

std::optional<mysql::SqlError> AppendMissingValue(const schema::ColumnDef& column, uint64_t row,
                                                  schema::RowWriter* out) {
  if (column.nullable && !column.default_value) {
    out->Null();
    return std::nullopt;
  }
  return AppendField(column, ZeroValue(column), RowForMessage(row), out);
}

}  // namespace shoal::sql
