// What a write stores in a column it gives no value of its own, and MySQL's ON UPDATE rule:
// declared defaults, DEFAULT CURRENT_TIMESTAMP (the statement's time) and ON UPDATE
// CURRENT_TIMESTAMP. Every write path (INSERT, REPLACE, INSERT … SELECT, ON DUPLICATE KEY
// UPDATE, LOAD DATA, single- and multi-table UPDATE) asks here, so that they agree. Run on the
// session's worker thread.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "engine/schema/schema.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// The statement's time for `column` (DATETIME or TIMESTAMP), at the column's fractional digits
// (cut, as NOW(fsp)), one instant per statement (ctx.now), in the session's time zone as
// NOW(fsp) gives it; a TIMESTAMP is stored in UTC once encoded with the session's offset
// (field_codec.h).
mysql::Value CurrentTimeOf(const schema::ColumnDef& column, const ExecContext& ctx);

// What `DEFAULT` as a column's value stores: its declared default, the statement's time
// (DEFAULT CURRENT_TIMESTAMP), NULL when the column is nullable, else MySQL's 1364.
std::variant<mysql::Value, mysql::SqlError> DefaultValueOf(const schema::ColumnDef& column,
                                                           const ExecContext& ctx);

// `DEFAULT(col)` written as a whole value: the default of the column of `table` it names (1054
// for none); nullopt when `e` is anything else. `*column` is set to the column.
std::optional<std::variant<mysql::Value, mysql::SqlError>> DefaultCallValue(
    const Expr& e, const schema::TableDef& table, const ExecContext& ctx, int* column);

// Whether some column of `table` is ON UPDATE CURRENT_TIMESTAMP.
bool HasOnUpdateNow(const schema::TableDef& table);

// MySQL's ON UPDATE rule for a row an UPDATE (or ON DUPLICATE KEY UPDATE) changes: each ON
// UPDATE CURRENT_TIMESTAMP column the statement does not assign (`assigned[c]` false) takes
// the statement's time in `row` (one value per table column). The caller calls it only for a
// row whose values the assignments changed: a row left as it was keeps its time.
void TouchOnUpdateColumns(const schema::TableDef& table, const std::vector<bool>& assigned,
                          const ExecContext& ctx, std::vector<mysql::Value>* row);

}  // namespace shoal::sql::internal
