// Uncorrelated subqueries — `x IN (SELECT …)`, `EXISTS (SELECT …)`, `(SELECT …)` — computed
// before the statement that holds them runs: each becomes its rows' first column, which
// evaluation then reads (EvalContext::subqueries), innermost first.
//
// They run here, at once, when what they read is in the router: no table, information_schema,
// or a derived table of those — what catalog queries and dump tools send. A subquery that
// reads the data nodes answers 1235 until subqueries run as native semi-joins (batched key
// lookups per partition); one that refers to the outer statement's columns answers 1235 too.
#pragma once

#include <optional>

#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// Computes every subquery of `stmt` into ctx->subqueries. An error fails the statement.
std::optional<mysql::SqlError> ComputeSubqueries(const Statement& stmt, ExecContext* ctx);

}  // namespace shoal::sql::internal
