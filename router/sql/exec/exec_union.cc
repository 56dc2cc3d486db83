// SELECT … UNION [ALL | DISTINCT] SELECT …: each SELECT runs as it would alone (a child
// statement when it reads tables: async_statement.h), then the router puts the rows together —
// typed per column as MySQL aggregates a UNION's types, duplicates removed up to the last
// UNION DISTINCT under each column's collation (bytes for a binary or _bin one) — and the ORDER BY
// and LIMIT written after the last SELECT finish the whole in the row pipeline.
#include <algorithm>

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

mysql::SqlError DifferentColumnCounts() {
  return {1222, "21000", "The used SELECT statements have a different number of columns"};
}

// The union's columns over its SELECTs' own: the first one's names, each position's types
// aggregated as MySQL does (as CASE's results are), nullable when any is.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> Combine(
    const std::vector<std::vector<mysql::ColumnDefinition>>& parts, const SessionState& state) {
  std::vector<mysql::ColumnDefinition> out;
  for (const auto& part : parts) {
    if (part.size() != parts[0].size()) return DifferentColumnCounts();
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

// The union of `results` (one per SELECT): converted to the union's columns, duplicates
// removed from every SELECT up to the last UNION DISTINCT, then its tail.
StatementResult Unite(const SelectStmt& select, std::vector<mysql::ResultSet> results,
                      const ExecContext& ctx) {
  std::vector<std::vector<mysql::ColumnDefinition>> parts;
  for (const mysql::ResultSet& r : results) parts.push_back(r.columns);
  auto combined = Combine(parts, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&combined)) return *err;
  FetchedRows rows;
  rows.columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(combined));
  size_t distinct_upto = 0;  // the SELECTs before it are deduplicated together
  for (size_t i = 0; i < select.unions.size(); ++i) {
    if (!select.unions[i].all) distinct_upto = i + 2;
  }
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < results.size(); ++i) {
    for (Values& row : results[i].rows) {
      std::string key;
      for (size_t c = 0; c < row.size(); ++c) {
        row[c] = ConvertToColumn(std::move(row[c]), rows.columns[c]);
        if (i < distinct_upto) {
          std::string text = CollationKeyText(row[c], rows.columns[c].charset);
          absl::StrAppend(&key, row[c].index(), ":", text.size(), ":", text, ";");
        }
      }
      if (i < distinct_upto && !seen.insert(std::move(key)).second) continue;
      rows.rows.push_back(std::move(row));
    }
  }
  if (select.union_tail == nullptr) {
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

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> UnionColumns(
    const SelectStmt& select, const SessionState& state) {
  std::vector<std::vector<mysql::ColumnDefinition>> parts;
  for (const SelectStmt* s : Operands(select)) {
    auto columns = SingleSelectColumns(*s, state);
    if (auto* err = std::get_if<mysql::SqlError>(&columns)) return *err;
    parts.push_back(std::get<std::vector<mysql::ColumnDefinition>>(std::move(columns)));
  }
  return Combine(parts, state);
}

}  // namespace shoal::sql::internal
