// Whether two expressions are written alike, as MySQL's Item::eq sees them: the same
// operators, functions, literals and column names (names ignoring case; a column written with
// a qualifier and one without are alike). WITH ROLLUP needs it to find, in the select list,
// HAVING and ORDER BY, the expressions it rolls up (`GROUP BY YEAR(d) WITH ROLLUP` makes the
// select list's YEAR(d) NULL in the super-aggregate rows).
#pragma once

#include "router/sql/parse/ast.h"

namespace shoal::sql {

// Subqueries, parameters and window calls are never alike: each is its own value.
bool SameExpr(const Expr& a, const Expr& b);

}  // namespace shoal::sql
