#include "router/sql/exec/column_defaults.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/row.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/field_codec.h"

namespace shoal::sql::internal {

mysql::Value CurrentTimeOf(const schema::ColumnDef& column, const ExecContext& ctx) {
  // In the session's time zone, as every value the router holds: a TIMESTAMP goes to UTC on
  // its way to the data nodes (field_codec.h).
  return StatementNow(*ctx.state, ctx.now, std::min<uint8_t>(column.precision, 6));
}

std::variant<mysql::Value, mysql::SqlError> DefaultValueOf(const schema::ColumnDef& column,
                                                           const ExecContext& ctx) {
  if (column.default_now) return CurrentTimeOf(column, ctx);
  if (column.default_value) {
    schema::Field field;
    size_t used = 0;
    if (schema::ReadField(column, *column.default_value, &field, &used)) {
      return DecodeField(column, field, SessionUtcOffset(*ctx.state));
    }
  }
  if (column.nullable) return mysql::Value{};
  return mysql::SqlError{1364, "HY000",
                         absl::StrCat("Field '", column.name, "' doesn't have a default value")};
}

std::optional<std::variant<mysql::Value, mysql::SqlError>> DefaultCallValue(
    const Expr& e, const schema::TableDef& table, const ExecContext& ctx, int* column) {
  if (e.kind != ExprKind::kFunction || !absl::EqualsIgnoreCase(e.name, "DEFAULT") ||
      e.args.size() != 1 || e.args[0]->kind != ExprKind::kColumn) {
    return std::nullopt;
  }
  const Expr& named = *e.args[0];
  *column = table.FindColumn(named.name);
  if (*column < 0 || table.columns[*column].hidden) {
    return mysql::errors::UnknownColumn(
        named.qualifier.empty() ? named.name : absl::StrCat(named.qualifier, ".", named.name),
        "field list");
  }
  return DefaultValueOf(table.columns[*column], ctx);
}

bool HasOnUpdateNow(const schema::TableDef& table) {
  for (const schema::ColumnDef& c : table.columns) {
    if (c.on_update_now) return true;
  }
  return false;
}

void TouchOnUpdateColumns(const schema::TableDef& table, const std::vector<bool>& assigned,
                          const ExecContext& ctx, std::vector<mysql::Value>* row) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c].on_update_now && !assigned[c]) {
      (*row)[c] = CurrentTimeOf(table.columns[c], ctx);
    }
  }
}

}  // namespace shoal::sql::internal
