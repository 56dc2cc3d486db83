#include "router/sql/exec/column_facts.h"

#include "engine/schema/row.h"
#include "protocol/text_format.h"
#include "router/sql/eval/field_codec.h"

namespace shoal::sql {

std::string ColumnValueText(const mysql::Value& v, const mysql::ColumnDefinition& result_column) {
  std::string text;
  mysql::AppendTextValue(v, result_column.type, result_column.decimals, &text);
  return text;
}

std::optional<std::string> DeclaredDefault(const schema::ColumnDef& c,
                                           const mysql::ColumnDefinition& result_column) {
  if (!c.default_value) return std::nullopt;
  schema::Field field;
  size_t used = 0;
  if (!schema::ReadField(c, *c.default_value, &field, &used)) return std::nullopt;
  return ColumnValueText(DecodeField(c, field), result_column);
}

std::string KeyText(uint16_t flags) {
  if (flags & mysql::column_flag::kPrimaryKey) return "PRI";
  if (flags & mysql::column_flag::kUniqueKey) return "UNI";
  if (flags & mysql::column_flag::kMultipleKey) return "MUL";
  return "";
}

}  // namespace shoal::sql
