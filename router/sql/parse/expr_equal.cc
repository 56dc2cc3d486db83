#include "router/sql/parse/expr_equal.h"

#include "absl/strings/match.h"

namespace shoal::sql {
namespace {

bool SameCast(const CastTarget& a, const CastTarget& b) {
  return a.name == b.name && a.length == b.length && a.scale == b.scale &&
         absl::EqualsIgnoreCase(a.charset, b.charset) && a.literal == b.literal;
}

bool SameList(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameExpr(*a[i], *b[i])) return false;
  }
  return true;
}

}  // namespace

bool SameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || a.subquery != nullptr || b.subquery != nullptr || a.window != nullptr ||
      b.window != nullptr || a.kind == ExprKind::kParam) {
    return false;
  }
  switch (a.kind) {
    case ExprKind::kLiteral:
      return a.literal == b.literal && a.text == b.text &&
             absl::EqualsIgnoreCase(a.charset, b.charset);
    case ExprKind::kColumn:
      return absl::EqualsIgnoreCase(a.name, b.name) &&
             (a.qualifier.empty() || b.qualifier.empty() || a.qualifier == b.qualifier);
    case ExprKind::kSysVar:
      return a.scope == b.scope && absl::EqualsIgnoreCase(a.name, b.name);
    case ExprKind::kUserVar:
    case ExprKind::kAssignUser:
      return absl::EqualsIgnoreCase(a.name, b.name) && SameList(a.args, b.args);
    default:
      break;
  }
  return a.name == b.name && a.unary_op == b.unary_op && a.binary_op == b.binary_op &&
         a.negated == b.negated && a.truth == b.truth && a.distinct == b.distinct &&
         a.has_operand == b.has_operand && a.has_else == b.has_else && a.all == b.all &&
         a.unit == b.unit && a.separator == b.separator &&
         a.concat_descending == b.concat_descending && SameCast(a.cast, b.cast) &&
         SameList(a.args, b.args) && SameList(a.concat_order, b.concat_order);
}

}  // namespace shoal::sql
