// INSERT, UPDATE and DELETE through a view, as MySQL's updatable views: a view that is a filter
// and projection of one table (view_merge.h) stands for that table. The statement becomes the
// same statement on the table — its columns the view's table's, its conditions the view's
// condition ANDed to its own — so it plans, locks and checks foreign keys as any other.
#pragma once

#include <optional>

#include "engine/api/cluster.h"
#include "engine/wire/dictionary.pb.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// Rewrites `stmt`, whose table is the view `view`, onto the view's table. `select` is the
// view's SELECT as view_expansion.h makes it (qualified, its views merged); it is consumed.
// `local_is_cascaded`: the view reads a table, not another view, so its own condition is all
// of `select`'s. An INSERT through a view WITH CHECK OPTION carries the condition each row must
// meet (InsertStmt::check). Errors as MySQL's: 1288 (UPDATE, DELETE) and 1471 (INSERT) for a
// view that is not one table's filter and projection, 1348 for a column that is an expression,
// 1054 for a column the view lacks; 1235 for what Shoal does not do yet (UPDATE and ON
// DUPLICATE KEY UPDATE through a view WITH CHECK OPTION, LOCAL over a view, a write joining
// tables).
std::optional<mysql::SqlError> WriteThroughView(const wire::View& view, SelectStmt select,
                                                bool local_is_cascaded,
                                                const api::Dictionary& dictionary, Statement* stmt);

}  // namespace shoal::sql::internal
