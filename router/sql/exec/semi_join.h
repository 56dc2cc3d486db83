// Correlated subqueries as semi-joins (docs/architecture.md, "Joins"): a WHERE conjunct
//   [NOT] EXISTS (SELECT … FROM t WHERE …)      x [NOT] IN (SELECT y FROM t WHERE …)
// whose SELECT names a table of the outer FROM is not computed before the statement (it has
// no value without an outer row) but becomes one more step of the join: t is read in one batch
// for all the outer rows (by key or index when the correlation allows), and each outer row is
// kept once when some t row matches (semi-join), or when none does (anti-join; NOT IN also
// drops a row when x or a matching y is NULL, as SQL's three-valued IN says).
//
// Only a subquery over one base table without GROUP BY, HAVING, aggregates, LIMIT or a
// UNION is run so; any other correlated subquery answers 1235 where it is computed first.
#pragma once

#include <string>
#include <vector>

#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

struct SemiJoin {
  // kScalar: a correlated scalar subquery of the select list or ORDER BY (ScalarJoins).
  enum class Kind : uint8_t { kExists, kNotExists, kIn, kNotIn, kScalar };
  Kind kind = Kind::kExists;
  const Expr* conjunct = nullptr;      // the WHERE conjunct it replaces
  const SelectStmt* select = nullptr;  // the subquery
  const Expr* outer = nullptr;         // IN: the value looked for (x)
};

// The conjuncts of `select`'s WHERE that run as semi-joins, in the order written.
std::vector<SemiJoin> SemiJoins(const SelectStmt& select);

// The correlated scalar subqueries of `select`'s list and ORDER BY — `(SELECT COUNT(*) FROM t WHERE
// t.a = outer.b)`, `(SELECT t.x FROM t WHERE …)` — that run as a join step of their own: each outer
// row gets the aggregate over its matching rows, or the one value (none: NULL; several:
// 1242). `conjunct` is the subquery node.
std::vector<SemiJoin> ScalarJoins(const SelectStmt& select);

// Whether the derived table `derived` of `outer`'s FROM is computed before `outer` runs, its
// rows then read by the join engine: DerivedRunsFirst's cases, and an `outer` whose correlated
// subqueries run as join steps over the derived table's rows.
bool DerivedComputedFirst(const SelectStmt& outer, const SelectStmt& derived);

// A copy of `e` in which every column the subquery's own table `inner` (named `qualifier` in
// the subquery) has — unqualified, as the inner scope comes first, or qualified by that
// name — is qualified by `internal_name` instead, so that the joined row tells it from the
// outer tables' columns. Null when `e` holds a subquery of its own.
ExprPtr RequalifiedCopy(const Expr& e, const std::string& qualifier,
                        const std::vector<std::string>& inner_columns,
                        const std::string& internal_name);

}  // namespace shoal::sql::internal
