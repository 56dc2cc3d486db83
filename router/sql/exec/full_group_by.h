// ONLY_FULL_GROUP_BY, as MySQL 8.0's Group_check: in a grouped SELECT (GROUP BY, or an
// aggregate without it), every column the select list, HAVING or ORDER BY reads outside an
// aggregate (and outside ANY_VALUE and GROUPING) must have one value per group — be grouped on,
// or be functionally dependent on what is.
#pragma once

#include <optional>
#include <vector>

#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// What a grouped SELECT reads, as the row pipeline resolved it.
struct GroupedSelect {
  const SelectStmt* select = nullptr;
  // The columns of the rows it groups (table columns qualified by their table's alias) and
  // those `*` stands for (empty: all).
  const std::vector<mysql::ColumnDefinition>* columns = nullptr;
  const std::vector<int>* star = nullptr;
  // What each GROUP BY item groups on (an alias or a position resolved to its select item).
  std::vector<const Expr*> group_by;
};

// 1055 (explicitly grouped) or 1140 (an aggregate without GROUP BY) for the first select list
// item, then ORDER BY item (explicit GROUP BY only), then HAVING, that reads a column not
// determined by the groups. A column is determined when it is grouped on, equal in WHERE (or an
// inner join's ON) to an expression of determined columns or of none (a constant, a variable,
// a parameter), joined by an inner JOIN … USING or NATURAL JOIN to a determined column, or of
// a table one of whose unique NOT NULL keys (the primary key included) is determined whole. WITH
// ROLLUP determines the grouped columns only, as MySQL. Subqueries are not looked into (MySQL
// checks the outer references in them).
std::optional<mysql::SqlError> CheckFullGroupBy(const GroupedSelect& grouped,
                                                const SessionState& state);

}  // namespace shoal::sql::internal
