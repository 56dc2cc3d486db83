// The part of a SELECT the router finishes itself over the rows the data nodes returned: the
// WHERE clause (checked again: a key lookup or a range may return more than it asks),
// GROUP BY with COUNT/SUM/AVG/MIN/MAX, HAVING, the select list, DISTINCT, ORDER BY, LIMIT.
// Pure functions over values; no I/O.
#pragma once

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "protocol/column.h"
#include "protocol/value.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// Rows as fetched: `columns` names and types what each row holds (table columns by name,
// qualified by `table`, the alias of the table they came from).
struct FetchedRows {
  std::vector<mysql::ColumnDefinition> columns;
  std::vector<std::vector<mysql::Value>> rows;
  // The columns `*` stands for, in order; empty: all of them. A join USING (c) shows c once.
  std::vector<int> star;
  // Correlated scalar subqueries whose value each row carries (EvalContext::row_subqueries).
  absl::flat_hash_map<const Expr*, size_t> row_subqueries;
};

// The result columns of `select`'s list over rows shaped like `columns` (`*` expands to
// `star`, or every one of them when it is empty; `t.*` to t's), typed as MySQL would; for
// COM_STMT_PREPARE and for the result.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> SelectListColumns(
    const SelectStmt& select, const std::vector<mysql::ColumnDefinition>& columns,
    const ExecContext& ctx, const std::vector<int>& star = {},
    const absl::flat_hash_map<const Expr*, size_t>* row_subqueries = nullptr);

// The columns of `columns` that `item`, a `*` or `t.*`, stands for (1051 for an unknown t).
std::variant<std::vector<int>, mysql::SqlError> StarColumns(
    const SelectItem& item, const std::vector<mysql::ColumnDefinition>& columns,
    const std::vector<int>& star);

// Whether the rows still need the WHERE clause checked: kDone when the data nodes checked all
// of it (PushedFilter's `whole`).
enum class WhereCheck { kNeeded, kDone };

// Applies WHERE, grouping, the select list, DISTINCT, ORDER BY and LIMIT to `fetched`.
StatementResult FinishSelect(const SelectStmt& select, FetchedRows fetched, const ExecContext& ctx,
                             WhereCheck where = WhereCheck::kNeeded);

// How many rows the data nodes need to return at most for `select` (LIMIT's offset + count)
// when nothing in the router filters, groups, orders or deduplicates them; 0 = all. With
// `scan_ordered`, the scan itself returns rows in ORDER BY's order.
uint64_t RowsNeeded(const SelectStmt& select, const ExecContext& ctx, bool scan_ordered = false);

// MySQL's ordering of two values of one column: NULL first, numbers by value, strings as the
// case-insensitive, PAD SPACE connection collations order them (case and accents folded), temporal
// values chronologically.
int CompareValues(const mysql::Value& a, const mysql::Value& b);
// The same under collation `collation_id` (0 where not known): two strings of a binary or
// _bin collation (IsBinaryCollationId) by their bytes.
int CompareValues(const mysql::Value& a, const mysql::Value& b, uint16_t collation_id);

}  // namespace shoal::sql::internal
