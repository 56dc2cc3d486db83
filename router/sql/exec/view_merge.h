// MySQL's MERGE algorithm for views: `SELECT … FROM v WHERE …` over a view that is a plain
// filter and projection of one table becomes a SELECT of that table, the view's condition
// ANDed to the statement's and its columns replaced by the view's expressions. The statement
// then plans as any other: a key lookup through a view stays a key lookup, where the derived
// table it replaces would read the whole view first.
#pragma once

#include "engine/api/cluster.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// Merges the view in `select`'s FROM (a derived table marked as a view) into `select` when
// both allow it; otherwise leaves `select` as it is. Returns whether it merged.
bool MergeView(SelectStmt* select, const api::Dictionary& dictionary);

// MergeView for every SELECT of `stmt`, the innermost first: derived tables, subqueries, UNION
// parts, INSERT … SELECT, and the statement EXPLAIN explains.
void MergeViews(Statement* stmt, const api::Dictionary& dictionary);

}  // namespace shoal::sql::internal
