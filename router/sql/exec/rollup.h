// GROUP BY … WITH ROLLUP as MySQL 8.0 computes it: besides each group of all the GROUP BY
// items, a super-aggregate row for every shorter prefix of them — the items past the prefix
// read as NULL, the aggregates cover the prefix's rows — down to the grand total. A row's
// level is how many items it keeps (the groups themselves: all of them). Rows come sorted by
// the items, each super-aggregate after the groups it sums; GROUPING(item, …) tells a rolled-up
// item's NULL from a NULL in the data. The row pipeline (row_pipeline.h) groups; this says what
// each level reads as NULL and what GROUPING answers.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

class Rollup {
 public:
  // `group_items`: each GROUP BY item as the pipeline resolved it (a position or an alias
  // names a select-list item's expression); `group_columns`: the fetched column each one is
  // plainly, or -1. 3602 for a GROUPING argument that is no GROUP BY item.
  static std::variant<Rollup, mysql::SqlError> Plan(const SelectStmt& select,
                                                    std::vector<const Expr*> group_items,
                                                    std::vector<int> group_columns);

  size_t items() const { return group_items_.size(); }

  // `row` as a row of `level` reads: the fetched columns of the items from `level` on NULL.
  std::vector<mysql::Value> RowAt(std::vector<mysql::Value> row, size_t level) const;
  // The expressions of the select list, HAVING and ORDER BY (outside aggregates) that are
  // written as an item from `level` on and are no plain column: NULL at that level
  // (EvalContext::rolled_up).
  const absl::flat_hash_set<const Expr*>& RolledUpAt(size_t level) const {
    return rolled_up_[level];
  }
  // The GROUPING calls in the select list, HAVING and ORDER BY, and each one's value at
  // `level`: a bit per argument, first argument highest, set when its item is rolled up.
  const std::vector<const Expr*>& grouping_calls() const { return grouping_calls_; }
  int64_t GroupingAt(size_t call, size_t level) const;

  // Whether select-list item `item` shows a GROUP BY item: its column may be NULL.
  bool ShowsItem(const SelectStmt& select, size_t item) const;

  // The order of two rows by their kept items' values (`keys`, under `collations`): by the
  // values, and a super-aggregate after the rows it sums.
  static bool Before(const std::vector<mysql::Value>& a_keys, size_t a_level,
                     const std::vector<mysql::Value>& b_keys, size_t b_level,
                     const std::vector<uint16_t>& collations);

 private:
  std::vector<const Expr*> group_items_;
  std::vector<int> group_columns_;
  std::vector<absl::flat_hash_set<const Expr*>> rolled_up_;  // by level, 0 … items()
  std::vector<const Expr*> grouping_calls_;
  std::vector<std::vector<size_t>> grouping_args_;  // per call: each argument's item
};

}  // namespace shoal::sql::internal
