// How a SELECT over several tables reaches its rows (docs/architecture.md, "Joins"). The
// tables are joined left-deep, one step per table; each step reads its table in one native
// batch for all the rows joined so far:
//   key lookup    its primary key's columns all equal expressions over the tables before it:
//                 one key read per distinct key of the rows so far (eq_ref);
//   index lookup  the first column of an ordered index equals such an expression: one range
//                 scan per distinct value (ref);
//   own access    anything else: the table's own conditions choose a key lookup, an index
//                 range or a scan with a pushed filter, as for a single table; the rows are
//                 then matched by hashing the equalities, or pair by pair without any.
// Inner joins (commas, JOIN, CROSS JOIN) pool their ON and WHERE conditions and are reordered
// so that each step reaches its table by key when it can; outer joins keep the written order.
// The router checks every condition on every joined row, so the plan decides speed only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/api/client.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// One table of the join, in FROM order.
struct JoinSource {
  std::string name;                  // what qualifies its columns: the alias, else the table's name
  JoinKind kind = JoinKind::kInner;  // how it joins the tables before it (the first: inner)
  api::TablePtr table;  // a base table; null for an information_schema view or a derived table
  std::vector<uint16_t> columns;                     // a base table's columns read, in table order
  std::vector<std::vector<mysql::Value>> view_rows;  // the rows of a view or derived table
  size_t offset = 0;                                 // its first column in the joined row
  size_t width = 0;
  bool nullable = false;  // an outer join may give it NULLs
  // The table of a correlated subquery, joined as a semi- or anti-join (semi_join.h): after
  // every table of FROM, its columns never shown.
  std::optional<SemiJoin::Kind> semi;
};

// An equality a step's rows are matched on by hashing: the step's column `column` (in the
// joined row) equals `outer`, an expression over the tables joined before it; `bytes`: they
// compare as strings byte for byte (a `_bin` collation), so their strings hash unfolded.
struct JoinKeyPart {
  int column = 0;
  const Expr* outer = nullptr;
  bool bytes = false;
};

struct JoinStep {
  enum class Access : uint8_t { kOwn, kKeyLookup, kIndexLookup, kViewRows };
  size_t source = 0;
  JoinKind kind = JoinKind::kInner;  // kLeft: NULLs for unmatched rows so far;
                                     // kRight: this table's unmatched rows with NULLs before
  Access access = Access::kOwn;
  // The access its own conditions choose: kOwn's, and what a lookup step falls back to when
  // the rows so far give too many values, or values no key holds as they are.
  AccessPlan plan;
  std::string filter;  // what the data nodes check on the rows a scan reads (schema/program.h)
  // kKeyLookup: the value of each primary-key column, in key order; kIndexLookup: of the first
  // column of `index`. Over the tables before it, or constant.
  std::vector<const Expr*> key;
  int index = -1;
  std::vector<JoinKeyPart> match;  // empty: every pair is tried
  // Checked on every pair of a row so far and a row of this table (for the first step, on
  // each of its rows): ON, or the pooled conditions that the step completes.
  std::vector<const Expr*> conditions;
  // WHERE conjuncts checked on the step's output, NULL-extended rows included.
  std::vector<const Expr*> filters;
  // A semi-join's step: the rows so far are kept once when some row of its table holds the
  // conditions (EXISTS, IN), or when none does (NOT EXISTS, NOT IN).
  std::optional<SemiJoin::Kind> semi;
  // NOT IN's `x = y` (`not_in_value` is x): checked apart, as NULLs make the row not kept.
  const Expr* not_in_match = nullptr;
  const Expr* not_in_value = nullptr;
  // A scalar subquery's step: its select item (an aggregate over the matching rows, or one
  // value), and where in the joined row its value goes.
  const Expr* scalar_value = nullptr;
  size_t scalar_column = 0;
};

struct JoinPlan {
  std::vector<JoinSource> sources;
  std::vector<mysql::ColumnDefinition> columns;  // the joined row: each source's, in FROM order
  std::vector<int> star;                         // what `*` shows (USING shows its column once)
  std::vector<JoinStep> steps;                   // in the order they run
  bool where_done = false;                       // the steps checked all of WHERE
  api::Lock lock = api::Lock::kNone;
  std::vector<ExprPtr> owned;  // USING's equalities, which the steps point at
  // Correlated scalar subqueries of the select list, computed by their steps: the joined
  // row's column that holds each one's value, by its node (EvalContext::row_subqueries);
  // and the unqualified references to a column a RIGHT JOIN … USING joined: the right
  // table's column.
  absl::flat_hash_map<const Expr*, size_t> row_subqueries;

  // EXPLAIN's Extra for a step ("batched key lookups on PRIMARY, …; hash join") and its ref
  // (the values a lookup is by: "c.id", "func").
  std::string Describe(const JoinStep& step) const;
  std::string KeyText(const JoinStep& step) const;
};

// Resolves the tables `select` joins and, unless `typing_only` (COM_STMT_PREPARE wants the
// columns alone), chooses the steps. 1066 for a repeated alias, 1054 for an ON naming a table
// to its right, 1052 for an ambiguous column, 1116 past 61 tables.
std::variant<JoinPlan, mysql::SqlError> PlanJoin(const SelectStmt& select, const ExecContext& ctx,
                                                 bool typing_only);

}  // namespace shoal::sql::internal
