// MySQL's MERGE algorithm for views: `SELECT … FROM v WHERE …` over a view that is a plain
// filter and projection of one table becomes a SELECT of that table, the view's condition
// ANDed to the statement's and its columns replaced by the view's expressions. The statement
// then plans as any other: a key lookup through a view stays a key lookup, where the derived
// table it replaces would read the whole view first.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/api/cluster.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql::internal {

// A column of a view: the expression its SELECT computes it with, or (for a column `*`
// brings) the base table's column of that name.
struct ViewColumn {
  std::string name;
  const SelectItem* item = nullptr;  // null: the base column `name`
};

// The columns of `view` when it is a filter and projection of one table (what MySQL merges,
// and lets INSERT, UPDATE and DELETE write through); nullopt otherwise.
std::optional<std::vector<ViewColumn>> MergeableColumns(const SelectStmt& view,
                                                        const api::Dictionary& dictionary);

// Columns of a mergeable view, as a statement names them (unqualified, or qualified by the
// view's name there, `alias`), replaced by what the view computes them with; the view's SELECT
// calls its table `base`. `columns` point into the view's SELECT, which must outlive this.
class ViewColumns {
 public:
  ViewColumns(std::string alias, std::string base, std::vector<ViewColumn> columns)
      : alias_(std::move(alias)), base_(std::move(base)), columns_(std::move(columns)) {}

  const std::vector<ViewColumn>& columns() const { return columns_; }
  // The view's column `name` (without case), or null.
  const ViewColumn* Named(const std::string& name) const;
  // The first column under `e` that is neither the view's nor an enclosing statement's
  // (Outer), or null; a subquery counts as such a column (`e` itself).
  const Expr* Unknown(const Expr* e) const;
  // Replaces each of the view's columns under `*e` by its expression. Unknown(*e) is null.
  void Rewrite(ExprPtr* e) const;
  // The view's expression for `column` (a copy).
  ExprPtr Expression(const ViewColumn& column) const;

 private:
  // A column of another table of an enclosing statement (a correlated subquery's): it stays
  // as it is, unless the view's table would take it for its own once merged.
  bool Outer(const Expr& column) const;
  const ViewColumn* Find(const Expr& column) const;

  std::string alias_;
  std::string base_;
  std::vector<ViewColumn> columns_;
};

// `first AND second`; either alone when the other is null.
ExprPtr BothConditions(ExprPtr first, ExprPtr second);

// Merges the view in `select`'s FROM (a derived table marked as a view) into `select` when
// both allow it; otherwise leaves `select` as it is. Returns whether it merged.
bool MergeView(SelectStmt* select, const api::Dictionary& dictionary);

// MergeView for every SELECT of `stmt`, the innermost first: derived tables, subqueries, UNION
// parts, INSERT … SELECT, and the statement EXPLAIN explains.
void MergeViews(Statement* stmt, const api::Dictionary& dictionary);

}  // namespace shoal::sql::internal
