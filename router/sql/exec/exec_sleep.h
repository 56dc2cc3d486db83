// SLEEP(n) without blocking the worker's event loop (exec_sleep.cc).
#pragma once

#include <vector>

#include "absl/time/time.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// Whether `select`'s select list or WHERE calls SLEEP (its subqueries aside).
bool CallsSleep(const SelectStmt& select);
// Whether the statement whose expressions are `exprs` is one SLEEP call and nothing else: MySQL
// answers 1 for it when KILL QUERY interrupts it, where it fails anything more with 1317.
bool IsOnlySleep(const std::vector<const Expr*>& exprs);
// `result`, once the statement waited `wait` (what its SLEEPs added up to) on the worker's
// event loop: Deferred, then delivered as any deferred statement's, unless there is nothing to
// wait for (or no loop: tests), an error, or KILL QUERY ends the wait first.
StatementResult WaitBeforeDelivering(StatementResult result, absl::Duration wait, bool only_sleep,
                                     const ExecContext& ctx);

}  // namespace shoal::sql::internal
