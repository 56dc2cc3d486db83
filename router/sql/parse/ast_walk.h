// Visits the tables and expressions of a syntax tree: every FROM and JOIN table, and every
// expression, of a statement's SELECTs and those nested in it (UNION parts, derived tables,
// subqueries anywhere). `S` is Statement or const Statement, so one walk serves readers and
// the rewrites that replace tables (exec/view_expansion.h).
#pragma once

#include <type_traits>

#include "router/sql/parse/ast.h"

namespace shoal::sql {

template <typename T, typename Like>
using ConstLike = std::conditional_t<std::is_const_v<Like>, const T, T>;

// Calls `on_table(TableRef&)` for each table a SELECT reads — before descending into it, so a
// table the callback turns into a derived one is walked as such — and `on_expr(Expr&)` for
// each expression node, parents before their arguments.
template <typename S, typename OnTable, typename OnExpr>
class AstWalk {
 public:
  AstWalk(OnTable on_table, OnExpr on_expr) : on_table_(on_table), on_expr_(on_expr) {}

  void Walk(S& stmt) {
    using Select = ConstLike<SelectStmt, S>;
    std::visit(
        [&](auto& node) {
          using Node = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<Node, SelectStmt>) {
            WalkSelect(node);
          } else if constexpr (std::is_same_v<Node, InsertStmt>) {
            for (auto& row : node.rows) {
              for (auto& v : row) WalkExpr(v.get());
            }
            if (node.select) WalkSelect(static_cast<Select&>(*node.select));
            for (auto& a : node.on_duplicate) WalkExpr(a.value.get());
          } else if constexpr (std::is_same_v<Node, UpdateStmt>) {
            for (auto& join : node.joins) WalkJoin(join);
            for (auto& a : node.set) WalkExpr(a.value.get());
            WalkExpr(node.where.get());
          } else if constexpr (std::is_same_v<Node, DeleteStmt>) {
            for (auto& join : node.joins) WalkJoin(join);
            WalkExpr(node.where.get());
          } else if constexpr (std::is_same_v<Node, CreateTableStmt>) {
            if (node.insert_select) WalkSelect(static_cast<Select&>(*node.insert_select->select));
          } else if constexpr (std::is_same_v<Node, ExplainStmt>) {
            if (node.statement) Walk(*node.statement);
          } else if constexpr (std::is_same_v<Node, SetStmt>) {
            for (auto& a : node.assignments) WalkExpr(a.value.get());
          } else if constexpr (std::is_same_v<Node, DoStmt>) {
            for (auto& e : node.exprs) WalkExpr(e.get());
          }
        },
        stmt.node);
  }

  void WalkSelect(ConstLike<SelectStmt, S>& select) {
    for (auto& item : select.items) WalkExpr(item.expr.get());
    if (select.from) WalkTable(*select.from);
    for (auto& join : select.joins) WalkJoin(join);
    WalkExpr(select.where.get());
    for (auto& g : select.group_by) WalkExpr(g.get());
    WalkExpr(select.having.get());
    for (auto& o : select.order_by) WalkExpr(o.expr.get());
    for (auto& part : select.unions) WalkSelect(*part.select);
    if (select.union_tail) WalkSelect(*select.union_tail);
  }

 private:
  void WalkJoin(ConstLike<JoinClause, S>& join) {
    WalkTable(join.table);
    WalkExpr(join.on.get());
  }

  void WalkTable(ConstLike<TableRef, S>& table) {
    on_table_(table);
    if (table.derived) WalkSelect(*table.derived);
  }

  void WalkExpr(ConstLike<Expr, S>* e) {
    if (e == nullptr) return;
    on_expr_(*e);
    for (auto& a : e->args) WalkExpr(a.get());
    for (auto& o : e->concat_order) WalkExpr(o.get());
    if (e->window) {
      for (auto& p : e->window->partition_by) WalkExpr(p.get());
      for (auto& o : e->window->order_by) WalkExpr(o.expr.get());
    }
    if (e->subquery) WalkSelect(*e->subquery);
  }

  OnTable on_table_;
  OnExpr on_expr_;
};

template <typename S, typename OnTable, typename OnExpr>
void WalkStatement(S& stmt, OnTable on_table, OnExpr on_expr) {
  AstWalk<S, OnTable, OnExpr>(on_table, on_expr).Walk(stmt);
}

template <typename Select, typename OnTable, typename OnExpr>
void WalkSelect(Select& select, OnTable on_table, OnExpr on_expr) {
  using S = ConstLike<Statement, Select>;
  AstWalk<S, OnTable, OnExpr>(on_table, on_expr).WalkSelect(select);
}

}  // namespace shoal::sql
