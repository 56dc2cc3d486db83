#include "router/sql/exec/view_writes.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "router/sql/exec/view_merge.h"

namespace shoal::sql::internal {
namespace {

mysql::SqlError NotUpdatable(const wire::View& view, absl::string_view statement) {
  return {
      1288, "HY000",
      absl::StrCat("The target table ", view.name(), " of the ", statement, " is not updatable")};
}

mysql::SqlError NotInsertable(const wire::View& view) {
  return {1471, "HY000",
          absl::StrCat("The target table ", view.name(), " of the INSERT is not insertable-into")};
}

mysql::SqlError UnknownColumn(const std::string& name, absl::string_view clause) {
  return {1054, "42S22", absl::StrCat("Unknown column '", name, "' in '", clause, "'")};
}

// The table column a view column writes to: the view's column must be one, not an expression.
std::variant<std::string, mysql::SqlError> BaseColumn(const ViewColumns& view,
                                                      const std::string& name,
                                                      absl::string_view clause) {
  const ViewColumn* column = view.Named(name);
  if (column == nullptr) return UnknownColumn(name, clause);
  if (column->item == nullptr) return column->name;
  const Expr& e = *column->item->expr;
  if (e.kind != ExprKind::kColumn) {
    return mysql::SqlError{1348, "HY000", absl::StrCat("Column '", name, "' is not updatable")};
  }
  return e.name;
}

// Rewrites `*e` onto the view's table, or names the column it does not know.
std::optional<mysql::SqlError> Rewrite(const ViewColumns& view, ExprPtr* e,
                                       absl::string_view clause) {
  if (*e == nullptr) return std::nullopt;
  if (const Expr* unknown = view.Unknown(e->get())) {
    if (unknown->kind != ExprKind::kColumn) {
      return mysql::errors::NotSupportedYet("subqueries in a write through a view");
    }
    return UnknownColumn(unknown->name, clause);
  }
  view.Rewrite(e);
  return std::nullopt;
}

// SET col = value, …: onto the table's columns, the values rewritten.
std::optional<mysql::SqlError> RewriteAssignments(const ViewColumns& view,
                                                  std::vector<Assignment>* assignments) {
  for (Assignment& a : *assignments) {
    auto column = BaseColumn(view, a.column, "field list");
    if (auto* err = std::get_if<mysql::SqlError>(&column)) return *err;
    a.column = std::get<std::string>(std::move(column));
    a.qualifier.clear();
    if (auto err = Rewrite(view, &a.value, "field list")) return err;
  }
  return std::nullopt;
}

// The columns under `e` without their qualifier: a check over one table's row.
void Unqualify(Expr* e) {
  if (e->kind == ExprKind::kColumn) e->qualifier.clear();
  for (ExprPtr& a : e->args) Unqualify(a.get());
}

std::optional<mysql::SqlError> RewriteOrder(const ViewColumns& view,
                                            std::vector<OrderItem>* order_by) {
  for (OrderItem& o : *order_by) {
    if (auto err = Rewrite(view, &o.expr, "order clause")) return err;
  }
  return std::nullopt;
}

}  // namespace

std::optional<mysql::SqlError> WriteThroughView(const wire::View& view, SelectStmt select,
                                                bool local_is_cascaded,
                                                const api::Dictionary& dictionary,
                                                Statement* stmt) {
  const bool insert = std::holds_alternative<InsertStmt>(stmt->node);
  const absl::string_view statement = insert                                           ? "INSERT"
                                      : std::holds_alternative<UpdateStmt>(stmt->node) ? "UPDATE"
                                                                                       : "DELETE";
  auto columns = MergeableColumns(select, dictionary);
  if (!columns) return insert ? NotInsertable(view) : NotUpdatable(view, statement);
  const bool checked = view.check_option() != wire::View::NONE;
  if (checked && statement == "UPDATE") {
    return mysql::errors::NotSupportedYet("UPDATE through a view WITH CHECK OPTION");
  }
  const TableRef& base = *select.from;
  const std::string& alias_in_view = base.alias;
  auto for_alias = [&](const std::string& alias) {
    return ViewColumns(alias.empty() ? view.name() : alias,
                       alias_in_view.empty() ? base.table.name : alias_in_view, *columns);
  };

  if (auto* insert_stmt = std::get_if<InsertStmt>(&stmt->node)) {
    ViewColumns v = for_alias("");
    for (const ViewColumn& c : v.columns()) {
      if (c.item != nullptr && c.item->expr->kind != ExprKind::kColumn) return NotInsertable(view);
    }
    if (insert_stmt->columns.empty()) {
      for (const ViewColumn& c : v.columns()) insert_stmt->columns.push_back(c.name);
    }
    for (std::string& name : insert_stmt->columns) {
      auto column = BaseColumn(v, name, "field list");
      if (auto* err = std::get_if<mysql::SqlError>(&column)) return *err;
      name = std::get<std::string>(std::move(column));
    }
    if (auto err = RewriteAssignments(v, &insert_stmt->on_duplicate)) return err;
    if (checked && select.where != nullptr) {
      if (!insert_stmt->on_duplicate.empty()) {
        return mysql::errors::NotSupportedYet(
            "ON DUPLICATE KEY UPDATE through a view WITH CHECK OPTION");
      }
      // The view's condition and those of the views under it: CASCADED's. LOCAL checks the
      // view's own alone, which is the same when it reads a table (`local_is_cascaded`).
      if (view.check_option() == wire::View::LOCAL && !local_is_cascaded) {
        return mysql::errors::NotSupportedYet("WITH LOCAL CHECK OPTION on a view of a view");
      }
      insert_stmt->check = std::move(select.where);
      Unqualify(insert_stmt->check.get());
      insert_stmt->check_view = absl::StrCat(view.database(), ".", view.name());
    }
    insert_stmt->table = base.table;
    return std::nullopt;
  }
  if (auto* update = std::get_if<UpdateStmt>(&stmt->node)) {
    if (!update->joins.empty()) return mysql::errors::NotSupportedYet("a view in a joined UPDATE");
    ViewColumns v = for_alias(update->alias);
    if (auto err = RewriteAssignments(v, &update->set)) return err;
    if (auto err = Rewrite(v, &update->where, "where clause")) return err;
    if (auto err = RewriteOrder(v, &update->order_by)) return err;
    update->where = BothConditions(std::move(select.where), std::move(update->where));
    update->table = base.table;
    update->alias = alias_in_view;
    return std::nullopt;
  }
  auto& del = std::get<DeleteStmt>(stmt->node);
  if (!del.joins.empty() || !del.targets.empty()) {
    return mysql::errors::NotSupportedYet("a view in a multi-table DELETE");
  }
  ViewColumns v = for_alias(del.alias);
  if (auto err = Rewrite(v, &del.where, "where clause")) return err;
  if (auto err = RewriteOrder(v, &del.order_by)) return err;
  del.where = BothConditions(std::move(select.where), std::move(del.where));
  del.table = base.table;
  del.alias = alias_in_view;
  return std::nullopt;
}

}  // namespace shoal::sql::internal
