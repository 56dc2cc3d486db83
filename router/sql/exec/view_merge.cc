#include "router/sql/exec/view_merge.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/semi_join.h"

namespace shoal::sql::internal {
namespace {

// A copy of `e` (RequalifiedCopy changing no qualifier). MergeableView refuses the subqueries
// and window functions it does not copy.
ExprPtr Clone(const Expr& e) { return RequalifiedCopy(e, "", {}, ""); }

ExprPtr Column(const std::string& name) {
  auto c = std::make_unique<Expr>();
  c->kind = ExprKind::kColumn;
  c->name = name;
  return c;
}

// No subquery, window function or aggregate anywhere in `e`.
bool Plain(const Expr* e) {
  if (e == nullptr) return true;
  if (e->subquery != nullptr || e->window != nullptr || IsAggregate(*e)) return false;
  for (const ExprPtr& a : e->args) {
    if (!Plain(a.get())) return false;
  }
  for (const ExprPtr& o : e->concat_order) {
    if (!Plain(o.get())) return false;
  }
  return true;
}

// A filter and projection of one table: what MySQL merges (no DISTINCT, grouping, ordering,
// LIMIT, UNION or subquery).
bool MergeableView(const SelectStmt& view) {
  if (!view.from || view.from->derived || !view.joins.empty() || !view.unions.empty() ||
      view.union_tail || view.distinct || !view.group_by.empty() || view.having ||
      !view.order_by.empty() || view.limit || view.lock != LockMode::kNone) {
    return false;
  }
  for (const SelectItem& item : view.items) {
    if (!Plain(item.expr.get())) return false;
  }
  return Plain(view.where.get());
}

class Merger {
 public:
  Merger(SelectStmt* outer, std::vector<ViewColumn> columns)
      : outer_(outer),
        view_(outer->from->alias,
              outer->from->derived->from->alias.empty() ? outer->from->derived->from->table.name
                                                        : outer->from->derived->from->alias,
              std::move(columns)) {}

  // Whether every column the outer SELECT names is the view's, and nothing in it refers to
  // anything a merge would change: a subquery's outer references, or a select alias that
  // ORDER BY, GROUP BY or HAVING may mean instead of the view's column of that name.
  bool Allowed() const {
    if (outer_->lock != LockMode::kNone) return false;
    const bool reorders =
        !outer_->order_by.empty() || !outer_->group_by.empty() || outer_->having != nullptr;
    for (const SelectItem& item : outer_->items) {
      if (item.expr == nullptr) {
        if (!item.star_qualifier.empty() &&
            !absl::EqualsIgnoreCase(item.star_qualifier, outer_->from->alias)) {
          return false;
        }
        continue;
      }
      if (view_.Unknown(item.expr.get()) != nullptr) return false;
      if (reorders && item.has_alias && view_.Named(item.name) != nullptr) return false;
    }
    for (const ExprPtr& g : outer_->group_by) {
      if (view_.Unknown(g.get()) != nullptr) return false;
    }
    for (const OrderItem& o : outer_->order_by) {
      if (view_.Unknown(o.expr.get()) != nullptr) return false;
    }
    return view_.Unknown(outer_->where.get()) == nullptr &&
           view_.Unknown(outer_->having.get()) == nullptr;
  }

  void Merge() {
    SelectStmt& view = *outer_->from->derived;
    std::vector<SelectItem> items;
    for (SelectItem& item : outer_->items) {
      if (item.expr != nullptr) {
        // Its name stays what it was, whatever the view computes it with: a column's is the
        // column's (`v.a` is named `a`), an expression's as written.
        if (!item.has_alias && item.expr->kind == ExprKind::kColumn) item.name = item.expr->name;
        view_.Rewrite(&item.expr);
        item.has_alias = true;
        items.push_back(std::move(item));
        continue;
      }
      for (const ViewColumn& column : view_.columns()) {
        SelectItem& star = items.emplace_back();
        star.expr = view_.Expression(column);
        star.name = column.name;
        star.has_alias = column.item != nullptr && column.item->has_alias;
      }
    }
    outer_->items = std::move(items);
    for (ExprPtr& g : outer_->group_by) view_.Rewrite(&g);
    if (outer_->having) view_.Rewrite(&outer_->having);
    for (OrderItem& o : outer_->order_by) view_.Rewrite(&o.expr);
    if (outer_->where) view_.Rewrite(&outer_->where);
    outer_->where = BothConditions(std::move(view.where), std::move(outer_->where));
    TableRef base = std::move(*view.from);  // `view` goes with the derived table it is
    outer_->from = std::move(base);
  }

 private:
  SelectStmt* outer_;
  ViewColumns view_;
};

}  // namespace

std::optional<std::vector<ViewColumn>> MergeableColumns(const SelectStmt& view,
                                                        const api::Dictionary& dictionary) {
  if (!MergeableView(view)) return std::nullopt;
  std::vector<ViewColumn> columns;
  for (const SelectItem& item : view.items) {
    if (item.expr != nullptr) {
      columns.push_back({item.name, &item});
      continue;
    }
    api::TablePtr table = dictionary.Find(view.from->table.database, view.from->table.name);
    if (table == nullptr) return std::nullopt;  // information_schema, or gone
    for (const schema::ColumnDef& c : table->columns) {
      if (!c.hidden) columns.push_back({c.name, nullptr});
    }
  }
  return columns;
}

const ViewColumn* ViewColumns::Named(const std::string& name) const {
  for (const ViewColumn& c : columns_) {
    if (absl::EqualsIgnoreCase(c.name, name)) return &c;
  }
  return nullptr;
}

bool ViewColumns::Outer(const Expr& column) const {
  return !column.qualifier.empty() && !absl::EqualsIgnoreCase(column.qualifier, alias_) &&
         !absl::EqualsIgnoreCase(column.qualifier, base_);
}

const ViewColumn* ViewColumns::Find(const Expr& column) const {
  if (!column.qualifier.empty() && !absl::EqualsIgnoreCase(column.qualifier, alias_)) {
    return nullptr;
  }
  return Named(column.name);
}

const Expr* ViewColumns::Unknown(const Expr* e) const {
  if (e == nullptr) return nullptr;
  if (e->subquery != nullptr) return e;
  if (e->kind == ExprKind::kColumn) return Outer(*e) || Find(*e) != nullptr ? nullptr : e;
  for (const ExprPtr& a : e->args) {
    if (const Expr* unknown = Unknown(a.get())) return unknown;
  }
  for (const ExprPtr& o : e->concat_order) {
    if (const Expr* unknown = Unknown(o.get())) return unknown;
  }
  if (e->window != nullptr) {
    for (const ExprPtr& p : e->window->partition_by) {
      if (const Expr* unknown = Unknown(p.get())) return unknown;
    }
    for (const OrderItem& o : e->window->order_by) {
      if (const Expr* unknown = Unknown(o.expr.get())) return unknown;
    }
  }
  return nullptr;
}

ExprPtr ViewColumns::Expression(const ViewColumn& column) const {
  return column.item != nullptr ? Clone(*column.item->expr) : Column(column.name);
}

void ViewColumns::Rewrite(ExprPtr* e) const {
  Expr& node = **e;
  if (node.kind == ExprKind::kColumn) {
    if (!Outer(node)) *e = Expression(*Find(node));
    return;
  }
  for (ExprPtr& a : node.args) Rewrite(&a);
  for (ExprPtr& o : node.concat_order) Rewrite(&o);
  if (node.window != nullptr) {
    for (ExprPtr& p : node.window->partition_by) Rewrite(&p);
    for (OrderItem& o : node.window->order_by) Rewrite(&o.expr);
  }
}

ExprPtr BothConditions(ExprPtr first, ExprPtr second) {
  if (first == nullptr) return second;
  if (second == nullptr) return first;
  auto both = std::make_unique<Expr>();
  both->kind = ExprKind::kBinary;
  both->binary_op = BinaryOp::kAnd;
  both->args.push_back(std::move(first));
  both->args.push_back(std::move(second));
  return both;
}

bool MergeView(SelectStmt* select, const api::Dictionary& dictionary) {
  if (!select->from || !select->from->view || !select->joins.empty() ||
      !select->from->index_hint.empty()) {
    return false;
  }
  auto columns = MergeableColumns(*select->from->derived, dictionary);
  if (!columns) return false;
  Merger merger(select, *std::move(columns));
  if (!merger.Allowed()) return false;
  merger.Merge();
  return true;
}

namespace {

void MergeViewsIn(SelectStmt* select, const api::Dictionary& dictionary);

void MergeViewsUnder(Expr* e, const api::Dictionary& dictionary) {
  if (e == nullptr) return;
  for (ExprPtr& a : e->args) MergeViewsUnder(a.get(), dictionary);
  if (e->subquery) MergeViewsIn(e->subquery.get(), dictionary);
}

void MergeViewsIn(SelectStmt* select, const api::Dictionary& dictionary) {
  for (SelectItem& item : select->items) MergeViewsUnder(item.expr.get(), dictionary);
  if (select->from && select->from->derived) MergeViewsIn(select->from->derived.get(), dictionary);
  for (JoinClause& join : select->joins) {
    if (join.table.derived) MergeViewsIn(join.table.derived.get(), dictionary);
    MergeViewsUnder(join.on.get(), dictionary);
  }
  MergeViewsUnder(select->where.get(), dictionary);
  MergeViewsUnder(select->having.get(), dictionary);
  for (SelectStmt::UnionPart& part : select->unions) MergeViewsIn(part.select.get(), dictionary);
  if (select->union_tail) MergeViewsIn(select->union_tail.get(), dictionary);
  MergeView(select, dictionary);
}

}  // namespace

void MergeViews(Statement* stmt, const api::Dictionary& dictionary) {
  std::visit(
      [&](auto& node) {
        using Node = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<Node, SelectStmt>) {
          MergeViewsIn(&node, dictionary);
        } else if constexpr (std::is_same_v<Node, InsertStmt>) {
          if (node.select) MergeViewsIn(node.select.get(), dictionary);
        } else if constexpr (std::is_same_v<Node, UpdateStmt> || std::is_same_v<Node, DeleteStmt>) {
          MergeViewsUnder(node.where.get(), dictionary);
          for (JoinClause& join : node.joins) {
            if (join.table.derived) MergeViewsIn(join.table.derived.get(), dictionary);
          }
        } else if constexpr (std::is_same_v<Node, ExplainStmt>) {
          if (node.statement) MergeViews(node.statement.get(), dictionary);
        }
      },
      stmt->node);
}

}  // namespace shoal::sql::internal
