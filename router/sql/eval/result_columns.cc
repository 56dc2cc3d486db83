// See result_columns.h.
#include "router/sql/eval/result_columns.h"

#include "router/sql/eval/value_util.h"

namespace shoal::sql {

using mysql::ColumnDefinition;
namespace flag = mysql::column_flag;

namespace {
uint16_t NullFlag(Nullability n) { return n == Nullability::kNotNull ? flag::kNotNull : 0; }
}  // namespace

ColumnDefinition IntColumn(uint32_t length, bool is_unsigned, Nullability n,
                           mysql::ColumnType type) {
  ColumnDefinition c;
  c.type = type;
  c.charset = mysql::charset::kBinary;
  c.length = length;
  c.flags = NullFlag(n) | flag::kBinary | (is_unsigned ? flag::kUnsigned : 0);
  return c;
}

ColumnDefinition StringColumn(uint32_t chars, const SessionState& state, Nullability n) {
  ColumnDefinition c;
  c.type = mysql::ColumnType::kVarString;
  c.charset = ResultCollationId(state);
  c.length = chars * ResultCharsetMaxLen(state);
  c.flags = NullFlag(n);
  c.decimals = kNotFixedDec;
  return c;
}

ColumnDefinition DoubleColumn(Nullability n) {
  ColumnDefinition c;
  c.type = mysql::ColumnType::kDouble;
  c.charset = mysql::charset::kBinary;
  c.length = 23;
  c.flags = NullFlag(n) | flag::kBinary;
  c.decimals = kNotFixedDec;
  return c;
}

ColumnDefinition DecimalColumn(uint32_t precision, uint8_t scale, Nullability n) {
  ColumnDefinition c;
  c.type = mysql::ColumnType::kNewDecimal;
  c.charset = mysql::charset::kBinary;
  c.length = precision + (scale > 0 ? 1 : 0) + 1;  // digits, point, sign
  c.flags = NullFlag(n) | flag::kBinary;
  c.decimals = scale;
  return c;
}

ColumnDefinition JsonColumn(const SessionState& state) {
  ColumnDefinition c = StringColumn(0, state, Nullability::kNullable);
  c.type = mysql::ColumnType::kJson;
  c.length = 4294967295u;
  c.flags |= flag::kBinary;  // utf8mb4_bin, as MySQL's JSON functions; a column says BLOB too
  return c;
}

ColumnDefinition NullColumn() {
  ColumnDefinition c;
  c.type = mysql::ColumnType::kNull;
  c.charset = mysql::charset::kBinary;
  c.length = 0;
  c.flags = flag::kBinary;
  return c;
}

ColumnDefinition TemporalColumn(mysql::ColumnType type, uint8_t fsp, Nullability n) {
  ColumnDefinition c;
  c.type = type;
  c.charset = mysql::charset::kBinary;
  uint32_t base = type == mysql::ColumnType::kDate   ? 10
                  : type == mysql::ColumnType::kTime ? 10
                                                     : 19;
  c.length = base + (fsp > 0 ? fsp + 1 : 0);
  c.flags = NullFlag(n) | flag::kBinary;
  c.decimals = fsp;
  return c;
}

ColumnDefinition Named(ColumnDefinition col, absl::string_view name) {
  col.name = std::string(name);
  col.org_name = std::string(name);
  return col;
}

}  // namespace shoal::sql
