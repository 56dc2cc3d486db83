// Expression typing and evaluation. Typing gives the column metadata MySQL 8.0 would send for
// an expression (at prepare time, before any row); evaluation gives its value. The two agree
// because every result is passed through ConvertToColumn with the typed column.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql {

// What an expression may look at. Borrowed pointers; the caller keeps them alive for the call.
// An uncorrelated subquery's result, computed before its statement runs
// (exec/subqueries.h): its first column's definition and values, and its shape.
struct SubqueryResult {
  mysql::ColumnDefinition column;
  std::vector<mysql::Value> values;  // the first column, one per row
  size_t column_count = 0;
};
using SubqueryResults = absl::flat_hash_map<const Expr*, SubqueryResult>;

struct EvalContext {
  const SessionState* state = nullptr;
  SessionState* mutable_state = nullptr;  // null when only typing (@a := x needs it)
  absl::Span<const mysql::Value> params;  // values of `?`
  bool params_bound = false;              // false at prepare time: `?` types unknown
  // The current row, for statements over rows (SHOW … WHERE). Names match case-insensitively.
  const std::vector<mysql::ColumnDefinition>* row_columns = nullptr;
  const std::vector<mysql::Value>* row = nullptr;
  // Aggregate calls (COUNT, SUM, …) the statement computed itself over a group of rows: their
  // types and, when evaluating a group's result, their values. Keyed by the call's node.
  const absl::flat_hash_map<const Expr*, mysql::ColumnDefinition>* aggregate_types = nullptr;
  const absl::flat_hash_map<const Expr*, mysql::Value>* aggregate_values = nullptr;
  // WITH ROLLUP's super-aggregate rows: the expressions that read as NULL in this one (the
  // GROUP BY items it rolls up, as written in the select list, HAVING and ORDER BY).
  const absl::flat_hash_set<const Expr*>* rolled_up = nullptr;
  absl::string_view clause = "field list";      // names the clause in 1054 messages
  absl::Time now;                               // one statement sees one NOW()
  std::vector<Diagnostic>* warnings = nullptr;  // may be null when only typing
  // SLEEP(n) adds n here and answers 0: the statement waits after it has its result
  // (exec/exec_sleep.cc). Null where a statement cannot wait so — over a table's rows, which
  // are evaluated as they come — and SLEEP answers 1235 there.
  absl::Duration* sleep = nullptr;
  // The statement's subqueries, computed; null before that (typing at prepare time).
  const SubqueryResults* subqueries = nullptr;
  // Correlated scalar subqueries whose value each row carries: the position in `row` (and
  // `row_columns`) of each one's value, by its node (a join's scalar steps compute them).
  // Also unqualified column nodes naming a RIGHT JOIN's USING column: where its value is.
  const absl::flat_hash_map<const Expr*, size_t>* row_subqueries = nullptr;
  // The number an ENUM or SET column's value `text` is stored as (its position or its member
  // bits), for comparisons with numbers, as MySQL's numeric context reads them; nullopt when
  // the column is no such column. Null when nothing can tell (no tables).
  std::optional<uint64_t> (*stored_number)(const mysql::ColumnDefinition& column,
                                           const SessionState& state,
                                           absl::string_view text) = nullptr;
};

// Whether the column reference `e` ([qualifier.]name) names `column`: the names equal
// ignoring case, and a qualifier equals the column's table (its alias in the statement).
bool NamesColumn(const Expr& e, const mysql::ColumnDefinition& column);

std::variant<mysql::ColumnDefinition, mysql::SqlError> TypeOf(const Expr& e,
                                                              const EvalContext& ctx);
std::variant<mysql::Value, mysql::SqlError> Evaluate(const Expr& e, EvalContext* ctx);

// 1241 as MySQL's resolver gives it, before any row is read: a row constructor where one
// value belongs, or compared with an operand of another shape. nullopt when `e` has none.
std::optional<mysql::SqlError> CheckRowOperands(const Expr& e);

// `v` in the representation `col` promises: LONGLONG -> int64/uint64 (by UNSIGNED),
// DOUBLE -> double, NEWDECIMAL -> Decimal with col.decimals digits, strings -> std::string,
// NULL type -> Null. NULL values stay NULL.
mysql::Value ConvertToColumn(const mysql::Value& v, const mysql::ColumnDefinition& col);
// The same, moving a value that needs no conversion (a string to a string column).
mysql::Value ConvertToColumn(mysql::Value&& v, const mysql::ColumnDefinition& col);

// SQL truth: nonzero numbers are true; NULL is neither (returns -1); 0 false, 1 true.
int Truth(const mysql::Value& v);

// What NOW(fsp) gives in a statement that reads the clock as `now`: the session's time zone,
// cut (not rounded) to `fsp` fractional digits.
mysql::DateTime StatementNow(const SessionState& state, absl::Time now, uint8_t fsp);

}  // namespace shoal::sql
