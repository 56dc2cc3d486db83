#include "router/sql/exec/column_facts.h"

#include "absl/strings/str_cat.h"
#include "engine/schema/row.h"
#include "protocol/text_format.h"
#include "router/sql/eval/field_codec.h"

namespace shoal::sql {

std::string ColumnValueText(const mysql::Value& v, const mysql::ColumnDefinition& result_column) {
  std::string text;
  mysql::AppendTextValue(v, result_column.type, result_column.decimals, &text);
  return text;
}

std::string CurrentTimestampText(const schema::ColumnDef& c) {
  return c.precision > 0 ? absl::StrCat("CURRENT_TIMESTAMP(", c.precision, ")")
                         : "CURRENT_TIMESTAMP";
}

std::optional<std::string> DeclaredDefault(const schema::ColumnDef& c,
                                           const mysql::ColumnDefinition& result_column) {
  if (c.default_now) return CurrentTimestampText(c);
  if (!c.default_value) return std::nullopt;
  schema::Field field;
  size_t used = 0;
  if (!schema::ReadField(c, *c.default_value, &field, &used)) return std::nullopt;
  if (c.type == schema::ColumnType::kBit) {
    return schema::BitLiteralText(schema::FieldUint(c, field.bytes));
  }
  return ColumnValueText(DecodeField(c, field), result_column);
}

std::string ColumnExtra(const schema::ColumnDef& c) {
  if (c.auto_increment) return "auto_increment";
  std::string extra = c.default_now ? "DEFAULT_GENERATED" : "";
  if (c.on_update_now) {
    absl::StrAppend(&extra, extra.empty() ? "" : " ", "on update ", CurrentTimestampText(c));
  }
  return extra;
}

std::string KeyText(uint16_t flags) {
  if (flags & mysql::column_flag::kPrimaryKey) return "PRI";
  if (flags & mysql::column_flag::kUniqueKey) return "UNI";
  if (flags & mysql::column_flag::kMultipleKey) return "MUL";
  return "";
}

}  // namespace shoal::sql
