#include "router/sql/exec/semi_join.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/fetched_columns.h"

namespace shoal::sql::internal {
namespace {

// Whether the subquery can run as a semi-join step: one base table, and nothing that needs
// its rows gathered first (a scalar one may aggregate them all).
bool Joinable(const SelectStmt& s, bool aggregates_allowed = false) {
  if (!s.from || s.from->derived || !s.joins.empty() || !s.unions.empty() || !s.group_by.empty() ||
      s.having || s.limit || s.lock != LockMode::kNone || s.distinct) {
    return false;
  }
  if (aggregates_allowed) return true;
  for (const SelectItem& item : s.items) {
    if (item.expr == nullptr) continue;
    std::vector<const Expr*> aggregates;
    CollectAggregates(*item.expr, &aggregates);
    if (!aggregates.empty()) return false;
  }
  return true;
}

bool HoldsSubquery(const Expr& e) {
  if (e.subquery) return true;
  return std::any_of(e.args.begin(), e.args.end(),
                     [](const ExprPtr& a) { return HoldsSubquery(*a); });
}

// Whether `e` names, by its qualifier, one of `outer` and not the subquery's own `inner`.
bool NamesOuter(const Expr& e, const std::vector<std::string>& outer, const std::string& inner) {
  if (e.kind == ExprKind::kColumn && !e.qualifier.empty() &&
      !absl::EqualsIgnoreCase(e.qualifier, inner)) {
    for (const std::string& name : outer) {
      if (absl::EqualsIgnoreCase(e.qualifier, name)) return true;
    }
  }
  return std::any_of(e.args.begin(), e.args.end(),
                     [&](const ExprPtr& a) { return NamesOuter(*a, outer, inner); });
}

bool Correlated(const SelectStmt& s, const std::vector<std::string>& outer) {
  const std::string& inner = QualifierOf(*s.from);
  if (s.where && NamesOuter(*s.where, outer, inner)) return true;
  return std::any_of(s.items.begin(), s.items.end(), [&](const SelectItem& item) {
    return item.expr != nullptr && NamesOuter(*item.expr, outer, inner);
  });
}

}  // namespace

std::vector<SemiJoin> SemiJoins(const SelectStmt& select) {
  std::vector<SemiJoin> out;
  if (!select.from || !select.where) return out;
  std::vector<std::string> outer = {QualifierOf(*select.from)};
  for (const JoinClause& join : select.joins) outer.push_back(QualifierOf(join.table));
  std::vector<const Expr*> conjuncts;
  Conjuncts(select.where.get(), &conjuncts);
  for (const Expr* c : conjuncts) {
    const Expr* e = c;
    bool negated = false;
    if (e->kind == ExprKind::kUnary && e->unary_op == UnaryOp::kNot) {
      e = e->args[0].get();
      negated = true;
    }
    SemiJoin semi;
    semi.conjunct = c;
    if (e->kind == ExprKind::kExists) {
      semi.kind = negated ? SemiJoin::Kind::kNotExists : SemiJoin::Kind::kExists;
    } else if (e->kind == ExprKind::kInSubquery && e->args[0]->kind != ExprKind::kRow &&
               !HoldsSubquery(*e->args[0])) {
      semi.kind = negated != e->negated ? SemiJoin::Kind::kNotIn : SemiJoin::Kind::kIn;
      semi.outer = e->args[0].get();
    } else {
      continue;
    }
    semi.select = e->subquery.get();
    const SelectStmt& s = *semi.select;
    bool one_value = semi.outer == nullptr || (s.items.size() == 1 && s.items[0].expr);
    if (!Joinable(s) || !one_value || !Correlated(s, outer)) continue;
    if ((s.where && HoldsSubquery(*s.where)) ||
        (semi.outer != nullptr && HoldsSubquery(*s.items[0].expr))) {
      continue;
    }
    out.push_back(semi);
  }
  return out;
}

namespace {

void CollectScalar(const Expr& e, const std::vector<std::string>& outer,
                   std::vector<SemiJoin>* out) {
  if (e.kind == ExprKind::kSubquery) {
    const SelectStmt& s = *e.subquery;
    bool one = s.items.size() == 1 && s.items[0].expr && !HoldsSubquery(*s.items[0].expr);
    if (one && Joinable(s, /*aggregates_allowed=*/true) && (!s.where || !HoldsSubquery(*s.where)) &&
        Correlated(s, outer)) {
      SemiJoin scalar;
      scalar.kind = SemiJoin::Kind::kScalar;
      scalar.conjunct = &e;
      scalar.select = &s;
      out->push_back(scalar);
    }
    return;
  }
  for (const ExprPtr& a : e.args) CollectScalar(*a, outer, out);
}

}  // namespace

bool DerivedComputedFirst(const SelectStmt& outer, const SelectStmt& derived) {
  return DerivedRunsFirst(outer, derived) || !SemiJoins(outer).empty() ||
         !ScalarJoins(outer).empty();
}

std::vector<SemiJoin> ScalarJoins(const SelectStmt& select) {
  std::vector<SemiJoin> out;
  if (!select.from) return out;
  std::vector<std::string> outer = {QualifierOf(*select.from)};
  for (const JoinClause& join : select.joins) outer.push_back(QualifierOf(join.table));
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectScalar(*item.expr, outer, &out);
  }
  // ORDER BY is evaluated over the joined rows, which carry the steps' values by then.
  for (const OrderItem& o : select.order_by) CollectScalar(*o.expr, outer, &out);
  // A WHERE conjunct comparing with one is checked right after its step (JoinStep::filters).
  std::vector<SemiJoin> semis = SemiJoins(select);
  std::vector<const Expr*> where;
  Conjuncts(select.where.get(), &where);
  for (const Expr* c : where) {
    if (std::none_of(semis.begin(), semis.end(),
                     [&](const SemiJoin& s) { return s.conjunct == c; })) {
      CollectScalar(*c, outer, &out);
    }
  }
  return out;
}

ExprPtr RequalifiedCopy(const Expr& e, const std::string& qualifier,
                        const std::vector<std::string>& inner_columns,
                        const std::string& internal_name) {
  if (e.subquery) return nullptr;
  auto copy = std::make_unique<Expr>();
  copy->kind = e.kind;
  copy->literal = e.literal;
  copy->unary_op = e.unary_op;
  copy->binary_op = e.binary_op;
  copy->scope = e.scope;
  copy->negated = e.negated;
  copy->truth = e.truth;
  copy->has_parens = e.has_parens;
  copy->distinct = e.distinct;
  copy->has_operand = e.has_operand;
  copy->has_else = e.has_else;
  copy->cast = e.cast;
  copy->param_index = e.param_index;
  copy->text = e.text;
  copy->charset = e.charset;
  copy->name = e.name;
  copy->qualifier = e.qualifier;
  copy->separator = e.separator;
  copy->unit = e.unit;
  copy->concat_descending = e.concat_descending;
  if (e.kind == ExprKind::kColumn) {
    bool inner_name = e.qualifier.empty() || absl::EqualsIgnoreCase(e.qualifier, qualifier);
    bool inner_column =
        std::any_of(inner_columns.begin(), inner_columns.end(),
                    [&](const std::string& c) { return absl::EqualsIgnoreCase(c, e.name); });
    if (inner_name && inner_column) copy->qualifier = internal_name;
  }
  for (const ExprPtr& a : e.args) {
    ExprPtr arg = RequalifiedCopy(*a, qualifier, inner_columns, internal_name);
    if (!arg) return nullptr;
    copy->args.push_back(std::move(arg));
  }
  for (const ExprPtr& k : e.concat_order) {
    ExprPtr key = RequalifiedCopy(*k, qualifier, inner_columns, internal_name);
    if (!key) return nullptr;
    copy->concat_order.push_back(std::move(key));
  }
  return copy;
}

}  // namespace shoal::sql::internal
