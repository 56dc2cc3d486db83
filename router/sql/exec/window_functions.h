// Window functions — `f(…) OVER ([PARTITION BY …] [ORDER BY …])` — over a statement's rows
// after WHERE and GROUP BY, before DISTINCT, ORDER BY and LIMIT, as MySQL 8.0 computes them:
// ROW_NUMBER, RANK, DENSE_RANK, NTILE, PERCENT_RANK, CUME_DIST, LAG, LEAD, FIRST_VALUE,
// LAST_VALUE, NTH_VALUE, and COUNT, SUM, AVG, MIN, MAX OVER a window. The frame of the
// aggregates and the value functions (FIRST_VALUE, LAST_VALUE, NTH_VALUE) is
// MySQL's default — with ORDER BY, the partition's rows up to the current one and its peers;
// without, the whole partition — or the one written: ROWS with UNBOUNDED, n PRECEDING,
// CURRENT ROW, n FOLLOWING bounds, RANGE with UNBOUNDED, CURRENT ROW (the current row's
// peers) and n or INTERVAL n unit PRECEDING/FOLLOWING (the rows whose one ORDER BY value is
// within that of the current row's: a number, or a date or time for an INTERVAL); an empty
// frame gives NULL (COUNT 0). Named windows answer 1235 (the parser's).
#pragma once

#include <variant>
#include <vector>

#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

inline bool IsWindowCall(const Expr& e) {
  return e.kind == ExprKind::kFunction && e.window != nullptr;
}

// Every window call in `e`.
void CollectWindowCalls(const Expr& e, std::vector<const Expr*>* out);

// MySQL's result type of window call `call`, its first argument typed `arg` (unused by the
// functions that take none); 1235 for a function with OVER that is not done.
std::variant<mysql::ColumnDefinition, mysql::SqlError> WindowCallType(
    const Expr& call, const mysql::ColumnDefinition& arg, const SessionState& state);

// One row as a window function sees it: its PARTITION BY and ORDER BY values and the call's
// arguments' values (COUNT(*): none); for a RANGE frame's n PRECEDING/FOLLOWING bounds, the
// ORDER BY value each bound reaches from this row (FrameBound::value; NULL from a NULL).
struct WindowRow {
  std::vector<mysql::Value> partition;
  std::vector<mysql::Value> order;
  std::vector<mysql::Value> args;
  mysql::Value range_start;
  mysql::Value range_end;
};

// The collations of a call's PARTITION BY and ORDER BY items and of its arguments, as their
// result types name them (0 where not known): under a binary or _bin one, strings partition,
// order and take MIN/MAX by their bytes ('a' and 'A' apart), as MySQL's do.
struct WindowCollations {
  std::vector<uint16_t> partition;
  std::vector<uint16_t> order;
  std::vector<uint16_t> args;
};

// The value of `call` (typed `type`) for each of `rows`, in their order.
std::variant<std::vector<mysql::Value>, mysql::SqlError> ComputeWindowCall(
    const Expr& call, const mysql::ColumnDefinition& type, const std::vector<WindowRow>& rows,
    const WindowCollations& collations, SessionState* state);

}  // namespace shoal::sql::internal
