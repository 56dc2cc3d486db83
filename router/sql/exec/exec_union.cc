// SELECT … {UNION | INTERSECT | EXCEPT} [ALL | DISTINCT] SELECT …: each SELECT runs as it would
// alone (a child statement when it reads tables: async_statement.h), then the router puts the
// rows together — typed per column as MySQL aggregates a UNION's types, rows compared under each
// column's collation (bytes for a binary or _bin one) — and the ORDER BY and LIMIT written after
// the last SELECT finish the whole in the row pipeline. INTERSECT binds tighter than UNION and
// EXCEPT, which go left to right: a DISTINCT one removes the duplicates of all before it.
#include <algorithm>
#include <iterator>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/subqueries.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using Values = std::vector<mysql::Value>;

// The SELECTs of the union, in order: the first is `select` itself, without its UNION.
std::vector<const SelectStmt*> Operands(const SelectStmt& select) {
  std::vector<const SelectStmt*> out = {&select};
  for (const SelectStmt::UnionPart& part : select.unions) out.push_back(part.select.get());
  return out;
}

// An operand's rows, converted to the result's columns, with each row's key (its values as
// the columns' collations compare them) when some operation compares rows.
struct Operand {
  std::vector<Values> rows;
  std::vector<std::string> keys;
};

// Moves row `from` to place `to` (at or before it), as filters keep rows in place.
void Keep(Operand* rows, size_t from, size_t to) {
  if (from == to) return;  // a vector moved onto itself would be left empty
  rows->rows[to] = std::move(rows->rows[from]);
  rows->keys[to] = std::move(rows->keys[from]);
}

void Deduplicate(Operand* rows) {
  absl::flat_hash_set<std::string> seen;
  size_t kept = 0;
  for (size_t r = 0; r < rows->rows.size(); ++r) {
    if (!seen.insert(rows->keys[r]).second) continue;
    Keep(rows, r, kept++);
  }
  rows->rows.resize(kept);
  rows->keys.resize(kept);
}

// `left` OP `right`, into `left`. INTERSECT ALL keeps a row as often as both have it, EXCEPT
// ALL as often as `left` has it more than `right`; DISTINCT makes each row once.
void Apply(SelectStmt::SetOp op, bool distinct, Operand* left, Operand right) {
  using SetOp = SelectStmt::SetOp;
  if (op == SetOp::kUnion) {
    std::move(right.rows.begin(), right.rows.end(), std::back_inserter(left->rows));
    std::move(right.keys.begin(), right.keys.end(), std::back_inserter(left->keys));
  } else {
    absl::flat_hash_map<std::string, size_t> counts;
    for (std::string& key : right.keys) ++counts[std::move(key)];
    size_t kept = 0;
    for (size_t r = 0; r < left->rows.size(); ++r) {
      auto it = counts.find(left->keys[r]);
      const bool in_right = it != counts.end() && it->second > 0;
      if (in_right && !distinct) --it->second;
      if (in_right != (op == SetOp::kIntersect)) continue;
      Keep(left, r, kept++);
    }
    left->rows.resize(kept);
    left->keys.resize(kept);
  }
  if (distinct) Deduplicate(left);
}

// The result of `results` (one per SELECT): converted to the result's columns and combined,
// then its tail.
StatementResult Unite(const SelectStmt& select, std::vector<mysql::ResultSet> results,
                      const ExecContext& ctx) {
  std::vector<std::vector<mysql::ColumnDefinition>> parts;
  for (const mysql::ResultSet& r : results) parts.push_back(r.columns);
  auto combined = UnitedColumns(parts, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&combined)) return *err;
  FetchedRows rows;
  rows.columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(combined));
  const bool keyed = std::any_of(select.unions.begin(), select.unions.end(),
                                 [](const SelectStmt::UnionPart& part) {
                                   return !part.all || part.op != SelectStmt::SetOp::kUnion;
                                 });
  std::vector<Operand> operands(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    for (Values& row : results[i].rows) {
      for (size_t c = 0; c < row.size(); ++c) {
        row[c] = ConvertToColumn(std::move(row[c]), rows.columns[c]);
      }
      if (keyed) operands[i].keys.push_back(UnionRowKey(row, rows.columns));
      operands[i].rows.push_back(std::move(row));
    }
  }
  // Each run of INTERSECTs first, into the operand it starts from; then the rest in order.
  std::vector<Operand> terms;
  std::vector<const SelectStmt::UnionPart*> joins;  // joins[k]: terms[k] and terms[k + 1]
  terms.push_back(std::move(operands[0]));
  for (size_t i = 0; i < select.unions.size(); ++i) {
    const SelectStmt::UnionPart& part = select.unions[i];
    if (part.op == SelectStmt::SetOp::kIntersect) {
      Apply(part.op, !part.all, &terms.back(), std::move(operands[i + 1]));
    } else {
      joins.push_back(&part);
      terms.push_back(std::move(operands[i + 1]));
    }
  }
  Operand& result = terms[0];
  for (size_t k = 0; k < joins.size(); ++k) {
    Apply(joins[k]->op, !joins[k]->all, &result, std::move(terms[k + 1]));
  }
  rows.rows = std::move(result.rows);
  if (select.union_tail == nullptr) {
    // SQL_CALC_FOUND_ROWS of a union without ORDER BY or LIMIT after it counts all of it (its
    // first SELECT, which holds the flag, counted its own rows).
    if (select.calc_found_rows) ctx.state->calc_found_rows = rows.rows.size();
    if (std::optional<uint64_t> limit = SelectLimitOf(select, ctx);
        limit && *limit < rows.rows.size()) {
      rows.rows.resize(*limit);
    }
    return mysql::ResultSet{std::move(rows.columns), std::move(rows.rows)};
  }
  return FinishSelect(*select.union_tail, std::move(rows), ctx);
}

// A union some of whose SELECTs read tables: they run one after another as child statements.
class UnionRun : public ParentStatement {
 public:
  UnionRun(const ExecContext& ctx, const SelectStmt& select)
      : ParentStatement(ctx), select_(select), operands_(Operands(select)) {}

  // Runs the next SELECT, or puts them together once they are all done.
  void Next() {
    if (results_.size() < operands_.size()) {
      return RunChild(*operands_[results_.size()], context(), /*without_union=*/true);
    }
    Deliver(Unite(select_, std::move(results_), context()));
  }

 private:
  void ChildDone(StatementResult result) override {
    auto* rows = std::get_if<mysql::ResultSet>(&result);
    if (rows == nullptr) return Deliver(std::move(result));  // its error
    results_.push_back(std::move(*rows));
    Next();
  }

  const SelectStmt& select_;
  std::vector<const SelectStmt*> operands_;
  std::vector<mysql::ResultSet> results_;
};

}  // namespace

StatementResult ExecuteUnion(const SelectStmt& select, const ExecContext& ctx) {
  std::vector<const SelectStmt*> operands = Operands(select);
  bool here = std::all_of(operands.begin(), operands.end(),
                          [&](const SelectStmt* s) { return ReadsOnlyRouter(*s, *ctx.state); });
  if (!here) {
    if (auto err = RequireDataNodes(*ctx.state)) return *err;
    auto* run = new UnionRun(ctx, select);
    run->Next();
    return Deferred{};
  }
  std::vector<mysql::ResultSet> results;
  for (const SelectStmt* s : operands) {
    StatementResult result = ExecuteSingleSelect(*s, ctx);
    if (auto* rows = std::get_if<mysql::ResultSet>(&result)) {
      results.push_back(std::move(*rows));
    } else {
      return result;  // an error
    }
  }
  return Unite(select, std::move(results), ctx);
}

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> UnitedColumns(
    const std::vector<std::vector<mysql::ColumnDefinition>>& parts, const SessionState& state) {
  std::vector<mysql::ColumnDefinition> out;
  for (const auto& part : parts) {
    if (part.size() != parts[0].size()) return mysql::errors::DifferentColumnCounts();
  }
  for (size_t c = 0; c < parts[0].size(); ++c) {
    std::vector<mysql::ColumnDefinition> types;
    bool not_null = true;
    for (const auto& part : parts) {
      types.push_back(part[c]);
      not_null = not_null && NotNull(part[c]);
    }
    mysql::ColumnDefinition column = AggregateResultTypes(
        types, state, not_null ? Nullability::kNotNull : Nullability::kNullable);
    column.name = parts[0][c].name;
    out.push_back(std::move(column));
  }
  return out;
}

std::string UnionRowKey(const std::vector<mysql::Value>& row,
                        const std::vector<mysql::ColumnDefinition>& columns) {
  std::string key;
  for (size_t c = 0; c < row.size(); ++c) {
    std::string text = CollationKeyText(row[c], columns[c].charset);
    absl::StrAppend(&key, row[c].index(), ":", text.size(), ":", text, ";");
  }
  return key;
}

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> UnionColumns(
    const SelectStmt& select, const SessionState& state) {
  std::vector<const SelectStmt*> operands = Operands(select);
  // A recursive common table is typed by its non-recursive SELECTs, as MySQL types it.
  if (select.recursive) operands.resize(select.recursive->first_step);
  std::vector<std::vector<mysql::ColumnDefinition>> parts;
  for (const SelectStmt* s : operands) {
    auto columns = SingleSelectColumns(*s, state);
    if (auto* err = std::get_if<mysql::SqlError>(&columns)) return *err;
    parts.push_back(std::get<std::vector<mysql::ColumnDefinition>>(std::move(columns)));
  }
  if (select.recursive) return RecursiveTableColumns(parts, state);
  return UnitedColumns(parts, state);
}

}  // namespace shoal::sql::internal
