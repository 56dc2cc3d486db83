#include "router/sql/exec/rollup.h"

#include "absl/strings/str_cat.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/parse/expr_equal.h"

namespace shoal::sql::internal {
namespace {

bool IsGroupingCall(const Expr& e) {
  return e.kind == ExprKind::kFunction && e.name == "GROUPING" && e.window == nullptr;
}

}  // namespace

std::variant<Rollup, mysql::SqlError> Rollup::Plan(const SelectStmt& select,
                                                   std::vector<const Expr*> group_items,
                                                   std::vector<int> group_columns) {
  Rollup plan;
  plan.group_items_ = std::move(group_items);
  plan.group_columns_ = std::move(group_columns);
  plan.rolled_up_.resize(plan.items() + 1);
  std::optional<mysql::SqlError> error;
  // The item `e` is written as, or nullopt.
  auto item_of = [&](const Expr& e) -> std::optional<size_t> {
    for (size_t i = 0; i < plan.items(); ++i) {
      if (SameExpr(e, *plan.group_items_[i])) return i;
    }
    return std::nullopt;
  };
  auto visit = [&](auto& self, const Expr& e) -> void {
    if (error || IsAggregate(e) || e.window != nullptr || e.subquery != nullptr) return;
    if (IsGroupingCall(e)) {
      // Its value has a bit per argument.
      if (e.args.size() > 64) {
        error = mysql::SqlError{3601, "HY000",
                                absl::StrCat("Too many arguments for function GROUPING: ",
                                             e.args.size(), "; maximum allowed is 64.")};
        return;
      }
      std::vector<size_t>& args = plan.grouping_args_.emplace_back();
      plan.grouping_calls_.push_back(&e);
      for (size_t a = 0; a < e.args.size(); ++a) {
        std::optional<size_t> item = item_of(*e.args[a]);
        if (!item) {
          error = mysql::SqlError{
              3602, "HY000",
              absl::StrCat("Argument #", a + 1, " of GROUPING function is not in GROUP BY")};
          return;
        }
        args.push_back(*item);
      }
      return;
    }
    if (e.kind != ExprKind::kColumn) {
      if (std::optional<size_t> item = item_of(e); item && plan.group_columns_[*item] < 0) {
        for (size_t level = 0; level <= *item; ++level) plan.rolled_up_[level].insert(&e);
        return;
      }
    }
    for (const ExprPtr& a : e.args) self(self, *a);
  };
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) visit(visit, *item.expr);
  }
  if (select.having != nullptr) visit(visit, *select.having);
  for (const OrderItem& o : select.order_by) visit(visit, *o.expr);
  if (error) return *error;
  return plan;
}

std::vector<mysql::Value> Rollup::RowAt(std::vector<mysql::Value> row, size_t level) const {
  for (size_t i = level; i < items(); ++i) {
    const int column = group_columns_[i];
    if (column >= 0 && static_cast<size_t>(column) < row.size()) row[column] = mysql::Value{};
  }
  return row;
}

int64_t Rollup::GroupingAt(size_t call, size_t level) const {
  uint64_t bits = 0;
  for (size_t item : grouping_args_[call]) bits = (bits << 1) | (item >= level ? 1 : 0);
  return static_cast<int64_t>(bits);
}

bool Rollup::ShowsItem(const SelectStmt& select, size_t item) const {
  const Expr* e = select.items[item].expr.get();
  if (e == nullptr) return false;
  for (const Expr* g : group_items_) {
    if (g == e || SameExpr(*g, *e)) return true;
  }
  return false;
}

bool Rollup::Before(const std::vector<mysql::Value>& a_keys, size_t a_level,
                    const std::vector<mysql::Value>& b_keys, size_t b_level,
                    const std::vector<uint16_t>& collations) {
  const size_t common = std::min(a_level, b_level);
  for (size_t i = 0; i < common; ++i) {
    const int c = CompareValues(a_keys[i], b_keys[i], i < collations.size() ? collations[i] : 0);
    if (c != 0) return c < 0;
  }
  return a_level > b_level;
}

}  // namespace shoal::sql::internal
