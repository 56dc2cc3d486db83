// Uncorrelated subqueries — `x IN (SELECT …)`, `EXISTS (SELECT …)`, `(SELECT …)` — computed
// before the statement that holds them runs: each becomes its rows' first column, which
// evaluation then reads (EvalContext::subqueries), innermost first.
//
// When all of them read only what the router has (no table, information_schema, a derived
// table of those: what catalog queries and dump tools send) they run at once. Otherwise they
// run one after another as child statements on the data nodes (async_statement.h's
// ParentStatement), and the statement after them. A subquery that refers to the outer
// statement's columns (correlated) answers 1235.
#pragma once

#include <optional>

#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// Computes every subquery of `stmt`, then runs it with them (RunStatementNode). An error of
// a subquery fails the statement.
StatementResult RunWithSubqueries(const Statement& stmt, const ExecContext& ctx);

// Whether `select` reads only what the router holds (no table, information_schema, derived
// tables and UNIONs of those), so that it runs at once, without the data nodes.
bool ReadsOnlyRouter(const SelectStmt& select, const SessionState& state);

}  // namespace shoal::sql::internal
