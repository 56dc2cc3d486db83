// Row constructors as comparison operands: `(a, b) = (1, 2)`, `<=>`, `<>`, the orderings and
// `(a, b) [NOT] IN ((…), …)`, with MySQL's semantics. Equality is the AND of the elements'
// equalities (so `(1, NULL) = (1, 2)` is NULL but `(1, NULL) = (2, 2)` is 0), the orderings
// are lexicographic and NULL as soon as they reach a NULL pair before a difference, and IN
// is the OR of row equalities. A row anywhere else, or compared with an operand of another
// shape, is MySQL's 1241.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql {
namespace internal {

bool IsComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
    case BinaryOp::kNullSafeEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return true;
    default:
      return false;
  }
}

mysql::SqlError OperandColumns(size_t columns) {
  return {1241, "21000", absl::StrCat("Operand should contain ", columns, " column(s)")};
}

size_t ColumnsOf(const Expr& e) { return e.kind == ExprKind::kRow ? e.args.size() : 1; }

bool HasRowOperand(const Expr& e) {
  if (e.kind == ExprKind::kBinary && !IsComparison(e.binary_op)) return false;
  if (e.kind != ExprKind::kBinary && e.kind != ExprKind::kIn) return false;
  return std::any_of(e.args.begin(), e.args.end(),
                     [](const ExprPtr& a) { return a->kind == ExprKind::kRow; });
}

bool ExprEngine::SameShape(const Expr& a, const Expr& b) {
  // MySQL names the columns the left operand has.
  if (ColumnsOf(a) == ColumnsOf(b)) return true;
  SetError(OperandColumns(ColumnsOf(a)));
  return false;
}

bool ExprEngine::TypeCompared(const Expr& a, const Expr& b) {
  if (!SameShape(a, b)) return false;
  if (a.kind != ExprKind::kRow) {
    bool x = (Type(a).flags & mysql::column_flag::kNotNull) != 0;
    bool y = (Type(b).flags & mysql::column_flag::kNotNull) != 0;
    return x && y;
  }
  bool not_null = true;
  for (size_t i = 0; i < a.args.size(); ++i) {
    not_null = TypeCompared(*a.args[i], *b.args[i]) && not_null;
  }
  return not_null;
}

ExprEngine::RowOrder ExprEngine::CompareRows(const Expr& a, const Expr& b, bool stop_at_null) {
  RowOrder out;
  for (size_t i = 0; i < a.args.size(); ++i) {
    const Expr& x = *a.args[i];
    const Expr& y = *b.args[i];
    if (!SameShape(x, y)) return {};
    RowOrder part;
    if (x.kind == ExprKind::kRow) {
      part = CompareRows(x, y, stop_at_null);
    } else {
      std::optional<int> c = Compare(Eval(x), Eval(y));
      part = c ? RowOrder{*c, false} : RowOrder{0, true};
    }
    if (failed()) return {};
    if (part.diff != 0) return part;
    if (part.null) {
      if (stop_at_null) return part;
      out.null = true;
    }
  }
  return out;
}

bool ExprEngine::RowsNullSafeEqual(const Expr& a, const Expr& b) {
  for (size_t i = 0; i < a.args.size(); ++i) {
    const Expr& x = *a.args[i];
    const Expr& y = *b.args[i];
    if (!SameShape(x, y)) return false;
    if (x.kind == ExprKind::kRow) {
      if (!RowsNullSafeEqual(x, y)) return false;
      continue;
    }
    mysql::Value vx = Eval(x);
    mysql::Value vy = Eval(y);
    if (IsNull(vx) || IsNull(vy)) {
      if (IsNull(vx) && IsNull(vy)) continue;
      return false;
    }
    if (*Compare(vx, vy) != 0) return false;
  }
  return true;
}

mysql::Value ExprEngine::RowComparisonValue(const Expr& e) {
  const Expr& a = *e.args[0];
  const Expr& b = *e.args[1];
  if (!SameShape(a, b)) return mysql::Value{};
  BinaryOp op = e.binary_op;
  if (op == BinaryOp::kNullSafeEq) {
    bool equal = RowsNullSafeEqual(a, b);
    return failed() ? mysql::Value{} : mysql::Value{int64_t{equal}};
  }
  bool ordering = op != BinaryOp::kEq && op != BinaryOp::kNe;
  RowOrder r = CompareRows(a, b, ordering);
  if (failed() || (r.diff == 0 && r.null)) return mysql::Value{};
  int c = r.diff;
  bool result = op == BinaryOp::kEq   ? c == 0
                : op == BinaryOp::kNe ? c != 0
                : op == BinaryOp::kLt ? c < 0
                : op == BinaryOp::kLe ? c <= 0
                : op == BinaryOp::kGt ? c > 0
                                      : c >= 0;
  return int64_t{result};
}

mysql::Value ExprEngine::RowInValue(const Expr& e) {
  const Expr& left = *e.args[0];
  bool saw_null = false;
  for (size_t i = 1; i < e.args.size(); ++i) {
    if (!SameShape(left, *e.args[i])) return mysql::Value{};
    RowOrder r = CompareRows(left, *e.args[i], /*stop_at_null=*/false);
    if (failed()) return mysql::Value{};
    if (r.diff == 0 && !r.null) return int64_t{!e.negated};
    if (r.diff == 0) saw_null = true;
  }
  if (saw_null) return mysql::Value{};
  return int64_t{e.negated};
}

namespace {

std::optional<mysql::SqlError> CheckScalar(const Expr& e);

// `a` compared with `b`: the same shape at every depth, single values checked as such.
std::optional<mysql::SqlError> CheckPair(const Expr& a, const Expr& b) {
  if (ColumnsOf(a) != ColumnsOf(b)) return OperandColumns(ColumnsOf(a));
  if (a.kind != ExprKind::kRow) {
    if (auto err = CheckScalar(a)) return err;
    return CheckScalar(b);
  }
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (auto err = CheckPair(*a.args[i], *b.args[i])) return err;
  }
  return std::nullopt;
}

// `e` where one value belongs.
std::optional<mysql::SqlError> CheckScalar(const Expr& e) {
  if (e.kind == ExprKind::kRow) return OperandColumns(1);
  if (HasRowOperand(e)) {
    for (size_t i = 1; i < e.args.size(); ++i) {
      if (auto err = CheckPair(*e.args[0], *e.args[i])) return err;
    }
    return std::nullopt;
  }
  for (const ExprPtr& a : e.args) {
    if (auto err = CheckScalar(*a)) return err;
  }
  return std::nullopt;
}

}  // namespace
}  // namespace internal

std::optional<mysql::SqlError> CheckRowOperands(const Expr& e) { return internal::CheckScalar(e); }

}  // namespace shoal::sql
