#include "router/sql/exec/access_plan.h"

#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/collation.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/aggregates.h"

namespace shoal::sql::internal {
namespace {

bool IsConstant(const Expr& e) {
  if (e.window != nullptr) return false;
  // A value under an explicit COLLATE is no key bound: the key compares by the column's
  // collation, which may find fewer rows than the comparison matches.
  if (e.kind == ExprKind::kColumn || e.kind == ExprKind::kDefault || e.kind == ExprKind::kStar ||
      e.kind == ExprKind::kAssignUser || e.kind == ExprKind::kCollate) {
    return false;
  }
  if (e.kind == ExprKind::kFunction &&
      (IsAggregateName(e.name) || e.name == "RAND" || e.name == "UUID")) {
    return false;
  }
  for (const ExprPtr& a : e.args) {
    if (!IsConstant(*a)) return false;
  }
  return true;
}

// The table column a bare column reference names, or -1.
int ColumnOf(const schema::TableDef& table, const Expr& e) {
  if (e.kind != ExprKind::kColumn) return -1;
  int i = table.FindColumn(e.name);
  return i >= 0 && !table.columns[i].hidden ? i : -1;
}

// An ENUM compares with text as its member's text does: text naming a member finds exactly
// the rows holding it. Any other operand (a number compares with the position, a SET's text
// with all its members) is left to the router.
std::optional<std::string> EnumField(const schema::ColumnDef& column, const mysql::Value& value) {
  const auto* text = std::get_if<std::string>(&value);
  if (column.type != schema::ColumnType::kEnum || text == nullptr) return std::nullopt;
  auto field = EncodeField(column, value, 1);
  auto* packed = std::get_if<std::string>(&field);
  if (packed == nullptr) return std::nullopt;
  schema::Field stored{*packed, false};
  if (CollationKeyText(DecodeField(column, stored)) != CollationKeyText(value)) return std::nullopt;
  return std::move(*packed);
}

// `value` packed as a key field of `column`, when it converts without changing meaning:
// integers into integer columns, strings into string columns. Anything else is not used.
std::optional<std::string> ExactField(const schema::ColumnDef& column, const mysql::Value& value) {
  if (schema::IsEnumOrSet(column.type)) return EnumField(column, value);
  bool integer = std::holds_alternative<int64_t>(value) || std::holds_alternative<uint64_t>(value);
  bool text = std::holds_alternative<std::string>(value);
  if (schema::IsInteger(column.type) ? !integer : !(text && schema::IsString(column.type))) {
    return std::nullopt;
  }
  if (column.type == schema::ColumnType::kDecimal || column.type == schema::ColumnType::kBinary) {
    return std::nullopt;  // padding and scale make the stored form differ from the value
  }
  auto field = EncodeField(column, value, 1);
  if (auto* packed = std::get_if<std::string>(&field)) return std::move(*packed);
  return std::nullopt;
}

class Planner {
 public:
  Planner(const schema::TableDef& table, const ExecContext& ctx) : table_(table), ctx_(ctx) {}

  AccessPlan Plan(const std::vector<const Expr*>& conjuncts) {
    AccessPlan plan;
    if (PlanKeyLookup(conjuncts, &plan) || PlanBatchedLookup(conjuncts, &plan) ||
        PlanIndexRange(conjuncts, &plan)) {
      return plan;
    }
    return AccessPlan{};
  }

 private:
  bool IntegerColumns(const std::vector<int>& columns) const {
    return std::all_of(columns.begin(), columns.end(),
                       [&](int c) { return schema::IsInteger(table_.columns[c].type); });
  }

  // NULL or not evaluable: nullopt (the caller then does not use it).
  std::optional<mysql::Value> Constant(const Expr& e) {
    if (!IsConstant(e)) return std::nullopt;
    EvalContext eval = ctx_.Eval();
    eval.warnings = nullptr;
    auto v = Evaluate(e, &eval);
    if (auto* value = std::get_if<mysql::Value>(&v)) return std::move(*value);
    return std::nullopt;
  }

  // `column = constant` (either way round): the column and the constant's node.
  bool Equality(const Expr& e, int* column, const Expr** constant) {
    if (e.kind != ExprKind::kBinary || e.binary_op != BinaryOp::kEq) return false;
    for (int side = 0; side < 2; ++side) {
      int c = ColumnOf(table_, *e.args[side]);
      if (c >= 0 && IsConstant(*e.args[1 - side])) {
        *column = c;
        *constant = e.args[1 - side].get();
        return true;
      }
    }
    return false;
  }

  // Inline: every point select plans through it, and a key rarely has more than 4 columns.
  using ColumnEqualities = absl::InlinedVector<std::pair<int, const Expr*>, 4>;

  // The `column = constant` pairs that all hold when `e`, an equality, is true: `e` itself,
  // or the element pairs of a row equality `(a, b) = (1, 2)` (nested rows too) — a row
  // equality is the AND of its elements' equalities, NULLs included. False when `e` is no
  // equality; `*complete` false when a pair of it is not `column = constant`.
  bool Equalities(const Expr& e, ColumnEqualities* out, bool* complete) {
    if (e.kind != ExprKind::kBinary || e.binary_op != BinaryOp::kEq) return false;
    if (!HasRowOperand(e)) {
      int c = -1;
      const Expr* constant = nullptr;
      if (Equality(e, &c, &constant)) {
        out->emplace_back(c, constant);
      } else {
        *complete = false;
      }
      return true;
    }
    PairElements(*e.args[0], *e.args[1], out, complete);
    return true;
  }

  void PairElements(const Expr& a, const Expr& b, ColumnEqualities* out, bool* complete) {
    if (ColumnsOf(a) != ColumnsOf(b)) {
      *complete = false;  // 1241 when the WHERE is checked
      return;
    }
    if (a.kind == ExprKind::kRow) {
      for (size_t i = 0; i < a.args.size(); ++i) {
        PairElements(*a.args[i], *b.args[i], out, complete);
      }
      return;
    }
    for (const auto& [column, constant] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
      int c = ColumnOf(table_, *column);
      if (c >= 0 && IsConstant(*constant)) {
        out->emplace_back(c, constant);
        return;
      }
    }
    *complete = false;
  }

  bool PlanKeyLookup(const std::vector<const Expr*>& conjuncts, AccessPlan* plan) {
    const schema::IndexDef& pk = table_.primary_key();
    ColumnEqualities pairs;
    bool only_pairs = true;
    for (const Expr* e : conjuncts) {
      if (!Equalities(*e, &pairs, &only_pairs)) only_pairs = false;
    }
    std::string key;
    for (int column : pk.columns) {
      std::optional<std::string> field;
      for (const auto& [c, constant] : pairs) {
        if (c != column) continue;
        std::optional<mysql::Value> v = Constant(*constant);
        if (!v) continue;
        if (mysql::IsNull(*v)) {
          plan->kind = AccessPlan::Kind::kNothing;  // `pk = NULL` is never true
          return true;
        }
        field = ExactField(table_.columns[column], *v);
        if (field) break;
      }
      if (!field) return false;
      key += *field;
    }
    plan->kind = AccessPlan::Kind::kKeyLookup;
    plan->keys.push_back(std::move(key));
    // Each key column met exactly once, and nothing else in the WHERE.
    plan->exact = only_pairs && pairs.size() == pk.columns.size() && IntegerColumns(pk.columns);
    return true;
  }

  bool PlanBatchedLookup(const std::vector<const Expr*>& conjuncts, AccessPlan* plan) {
    const schema::IndexDef& pk = table_.primary_key();
    for (const Expr* e : conjuncts) {
      if (e->kind != ExprKind::kIn || e->negated) continue;
      if (e->args[0]->kind == ExprKind::kRow) {
        if (PlanRowInLookup(*e, conjuncts.size() == 1, plan)) return true;
        continue;
      }
      if (pk.columns.size() != 1 || ColumnOf(table_, *e->args[0]) != pk.columns[0]) continue;
      std::vector<std::string> keys;
      // `id IN (1, 1)` is one row, and so is `name IN ('a', 'A')` under a _ci collation: each
      // key read once, as its collation form tells.
      absl::flat_hash_set<std::string> seen;
      std::string form;
      for (size_t i = 1; i < e->args.size(); ++i) {
        std::optional<mysql::Value> v = Constant(*e->args[i]);
        if (!v) return false;
        if (mysql::IsNull(*v)) continue;  // matches nothing
        std::optional<std::string> field = ExactField(table_.columns[pk.columns[0]], *v);
        if (!field) return false;
        if (seen.emplace(schema::KeyForm(table_, 0, *field, &form)).second) {
          keys.push_back(std::move(*field));
        }
      }
      plan->kind = keys.empty() ? AccessPlan::Kind::kNothing : AccessPlan::Kind::kBatchedLookup;
      plan->keys = std::move(keys);
      plan->exact = conjuncts.size() == 1 && IntegerColumns(pk.columns);
      return true;
    }
    return false;
  }

  // `(…) IN ((…), …)` whose left row names every primary-key column (in any order, maybe
  // with other columns): one key per row of the list, each read once. A row with NULL for a
  // key column is never equal, so it reads nothing. `only` says the IN is the whole WHERE.
  bool PlanRowInLookup(const Expr& e, bool only, AccessPlan* plan) {
    const Expr& left = *e.args[0];
    const schema::IndexDef& pk = table_.primary_key();
    std::vector<size_t> at;  // the element of the row that holds each key column
    for (int column : pk.columns) {
      size_t i = 0;
      while (i < left.args.size() && ColumnOf(table_, *left.args[i]) != column) ++i;
      if (i == left.args.size()) return false;
      at.push_back(i);
    }
    std::vector<std::string> keys;
    absl::flat_hash_set<std::string> seen;  // collation forms, as above
    std::string form;
    for (size_t i = 1; i < e.args.size(); ++i) {
      const Expr& item = *e.args[i];
      if (item.kind != ExprKind::kRow || item.args.size() != left.args.size()) return false;
      std::string key;
      bool never = false;
      for (size_t k = 0; k < at.size() && !never; ++k) {
        std::optional<mysql::Value> v = Constant(*item.args[at[k]]);
        if (!v) return false;
        never = mysql::IsNull(*v);
        if (never) break;
        std::optional<std::string> field = ExactField(table_.columns[pk.columns[k]], *v);
        if (!field) return false;
        key += *field;
      }
      if (!never && seen.emplace(schema::KeyForm(table_, 0, key, &form)).second) {
        keys.push_back(std::move(key));
      }
    }
    plan->kind = keys.empty() ? AccessPlan::Kind::kNothing : AccessPlan::Kind::kBatchedLookup;
    plan->keys = std::move(keys);
    // The row is the key and nothing more: reading a key is the row's equality.
    plan->exact = only && left.args.size() == pk.columns.size() && IntegerColumns(pk.columns);
    return true;
  }

  // Ranges on the first column of an ordered index, the primary key's first: a conjunct that
  // is a disjunction of =, IN and BETWEEN on the column gives several ranges; otherwise
  // the conjuncts' bounds (=, BETWEEN, <, >) meet in one. Kept inclusive: the WHERE check
  // removes the edges.
  bool PlanIndexRange(const std::vector<const Expr*>& conjuncts, AccessPlan* plan) {
    for (size_t index = 0; index < table_.indexes.size(); ++index) {
      int column = table_.indexes[index].columns[0];
      const schema::ColumnDef& def = table_.columns[column];
      std::vector<AccessPlan::Range> ranges;
      bool lossy = false;
      for (const Expr* e : conjuncts) {
        lossy = false;
        if (Disjunction(*e, column, def, &ranges, &lossy)) break;
        ranges.clear();
      }
      // Closed ranges of an integer column are exactly its values that satisfy the
      // disjunction (strings compare by collation, their bounds by bytes) — unless a row
      // comparison gave them, which asks more of its other columns.
      plan->exact =
          !ranges.empty() && !lossy && conjuncts.size() == 1 && schema::IsInteger(def.type);
      if (ranges.empty()) {
        std::optional<std::string> lower, upper;
        for (const Expr* e : conjuncts) Bound(*e, column, def, &lower, &upper);
        if (!lower && !upper) continue;
        ranges.push_back({lower.value_or(""), upper.value_or("")});
      }
      plan->kind = AccessPlan::Kind::kIndexRange;
      plan->index = static_cast<int>(index);
      plan->ranges = Merge(def, std::move(ranges));
      return true;
    }
    return false;
  }

  // `e` as a union of closed ranges of `column`: `col = a`, `col IN (…)`, `col BETWEEN a AND
  // b`, and ORs of those. False if any part is something else. Row comparisons that name
  // `column` give the ranges of its element, and set `*lossy`: the rows in them still have
  // the row's other columns to match.
  bool Disjunction(const Expr& e, int column, const schema::ColumnDef& def,
                   std::vector<AccessPlan::Range>* out, bool* lossy) {
    auto field = [&](const Expr& constant) -> std::optional<std::string> {
      std::optional<mysql::Value> v = Constant(constant);
      if (!v || mysql::IsNull(*v)) return std::nullopt;
      return ExactField(def, *v);
    };
    if (e.kind == ExprKind::kBinary && e.binary_op == BinaryOp::kOr) {
      return Disjunction(*e.args[0], column, def, out, lossy) &&
             Disjunction(*e.args[1], column, def, out, lossy);
    }
    if (HasRowOperand(e)) {
      *lossy = true;
      return RowDisjunction(e, column, field, out);
    }
    if (e.kind == ExprKind::kBetween && !e.negated && ColumnOf(table_, *e.args[0]) == column &&
        !schema::IsEnumOrSet(def.type)) {  // text order is not position order
      std::optional<std::string> lo = field(*e.args[1]), hi = field(*e.args[2]);
      if (!lo || !hi) return false;
      out->push_back({std::move(*lo), std::move(*hi)});
      return true;
    }
    if (e.kind == ExprKind::kIn && !e.negated && ColumnOf(table_, *e.args[0]) == column) {
      for (size_t i = 1; i < e.args.size(); ++i) {
        std::optional<std::string> v = field(*e.args[i]);
        if (!v) return false;
        out->push_back({*v, *v});
      }
      return true;
    }
    int c = -1;
    const Expr* constant = nullptr;
    if (Equality(e, &c, &constant) && c == column) {
      std::optional<std::string> v = field(*constant);
      if (!v) return false;
      out->push_back({*v, *v});
      return true;
    }
    return false;
  }

  // A row equality or `row IN (…)` as ranges of `column`, one of the left row's elements.
  template <typename FieldOf>
  bool RowDisjunction(const Expr& e, int column, const FieldOf& field,
                      std::vector<AccessPlan::Range>* out) {
    if (e.kind == ExprKind::kBinary && e.binary_op == BinaryOp::kEq) {
      ColumnEqualities pairs;
      bool complete = true;
      Equalities(e, &pairs, &complete);
      for (const auto& [c, constant] : pairs) {
        if (c != column) continue;
        std::optional<std::string> v = field(*constant);
        if (!v) return false;
        out->push_back({*v, *v});
        return true;
      }
      return false;
    }
    if (e.kind != ExprKind::kIn || e.negated || e.args[0]->kind != ExprKind::kRow) return false;
    const Expr& left = *e.args[0];
    size_t at = 0;
    while (at < left.args.size() && ColumnOf(table_, *left.args[at]) != column) ++at;
    if (at == left.args.size()) return false;
    for (size_t i = 1; i < e.args.size(); ++i) {
      const Expr& item = *e.args[i];
      if (item.kind != ExprKind::kRow || item.args.size() != left.args.size()) return false;
      std::optional<std::string> v = field(*item.args[at]);
      if (!v) return false;
      out->push_back({*v, *v});
    }
    return true;
  }

  // Sorts `ranges` and merges the ones that overlap, so no row is scanned twice.
  static std::vector<AccessPlan::Range> Merge(const schema::ColumnDef& def,
                                              std::vector<AccessPlan::Range> ranges) {
    auto bytes = [&](const std::string& packed) {
      schema::Field f;
      size_t used = 0;
      return schema::ReadField(def, packed, &f, &used) ? f.bytes : absl::string_view(packed);
    };
    // An open bound is below (lower) or above (upper) everything.
    auto less_lower = [&](const AccessPlan::Range& a, const AccessPlan::Range& b) {
      if (a.lower.empty() || b.lower.empty()) return a.lower.empty() && !b.lower.empty();
      return schema::CompareField(def, bytes(a.lower), bytes(b.lower)) < 0;
    };
    std::sort(ranges.begin(), ranges.end(), less_lower);
    std::vector<AccessPlan::Range> merged;
    for (AccessPlan::Range& r : ranges) {
      if (!merged.empty()) {
        AccessPlan::Range& last = merged.back();
        bool overlaps = last.upper.empty() || r.lower.empty() ||
                        schema::CompareField(def, bytes(r.lower), bytes(last.upper)) <= 0;
        if (overlaps) {
          if (!last.upper.empty() &&
              (r.upper.empty() ||
               schema::CompareField(def, bytes(r.upper), bytes(last.upper)) > 0)) {
            last.upper = r.upper;
          }
          continue;
        }
      }
      merged.push_back(std::move(r));
    }
    return merged;
  }

  void Bound(const Expr& e, int column, const schema::ColumnDef& def,
             std::optional<std::string>* lower, std::optional<std::string>* upper) {
    if (schema::IsEnumOrSet(def.type)) return;  // text order is not position order
    auto field = [&](const Expr& constant) -> std::optional<std::string> {
      std::optional<mysql::Value> v = Constant(constant);
      if (!v || mysql::IsNull(*v)) return std::nullopt;
      return ExactField(def, *v);
    };
    if (e.kind == ExprKind::kBetween && !e.negated && ColumnOf(table_, *e.args[0]) == column) {
      if (auto lo = field(*e.args[1])) *lower = lo;
      if (auto hi = field(*e.args[2])) *upper = hi;
      return;
    }
    if (e.kind != ExprKind::kBinary) return;
    BinaryOp op = e.binary_op;
    const Expr* left = e.args[0].get();
    const Expr* right = e.args[1].get();
    if (HasRowOperand(e)) {
      if (op == BinaryOp::kEq) {
        ColumnEqualities pairs;
        bool complete = true;
        Equalities(e, &pairs, &complete);
        for (const auto& [c, constant] : pairs) {
          std::optional<std::string> f = c == column ? field(*constant) : std::nullopt;
          if (f) *lower = *upper = f;
        }
        return;
      }
      // Rows order by their first elements first: `(a, b) < (1, 2)` needs a <= 1.
      if (left->kind != ExprKind::kRow || right->kind != ExprKind::kRow ||
          left->args.size() != right->args.size()) {
        return;
      }
      left = left->args[0].get();
      right = right->args[0].get();
      if (op == BinaryOp::kLt) op = BinaryOp::kLe;
      if (op == BinaryOp::kGt) op = BinaryOp::kGe;
    }
    const Expr* constant = nullptr;
    if (ColumnOf(table_, *left) == column) {
      constant = right;
    } else if (ColumnOf(table_, *right) == column) {
      constant = left;
      op = Mirror(op);  // c < col is col > c
    } else {
      return;
    }
    bool is_lower = op == BinaryOp::kEq || op == BinaryOp::kGt || op == BinaryOp::kGe;
    bool is_upper = op == BinaryOp::kEq || op == BinaryOp::kLt || op == BinaryOp::kLe;
    if (!is_lower && !is_upper) return;
    std::optional<std::string> f = field(*constant);
    if (!f) return;
    if (is_lower) *lower = f;
    if (is_upper) *upper = f;
  }

  static BinaryOp Mirror(BinaryOp op) {
    switch (op) {
      case BinaryOp::kLt:
        return BinaryOp::kGt;
      case BinaryOp::kLe:
        return BinaryOp::kGe;
      case BinaryOp::kGt:
        return BinaryOp::kLt;
      case BinaryOp::kGe:
        return BinaryOp::kLe;
      default:
        return op;
    }
  }

  const schema::TableDef& table_;
  const ExecContext& ctx_;
};

}  // namespace

void Conjuncts(const Expr* e, std::vector<const Expr*>* out) {
  if (e == nullptr) return;
  if (e->kind == ExprKind::kBinary && e->binary_op == BinaryOp::kAnd) {
    Conjuncts(e->args[0].get(), out);
    Conjuncts(e->args[1].get(), out);
    return;
  }
  out->push_back(e);
}

void DefineScans(const AccessPlan& plan, const api::ScanRequest& base, api::Client* client,
                 api::ScanReceiver* receiver, int* outstanding) {
  if (plan.kind != AccessPlan::Kind::kIndexRange) {
    ++*outstanding;
    client->Scan(base, receiver);
    return;
  }
  // One range is a plain scan; more go as range lists, as few as the limits of one allow.
  if (plan.ranges.size() == 1) {
    api::ScanRequest request = base;
    request.index = plan.index;
    request.lower = plan.ranges[0].lower;
    request.upper = plan.ranges[0].upper;
    ++*outstanding;
    client->Scan(std::move(request), receiver);
    return;
  }
  for (size_t next = 0; next < plan.ranges.size();) {
    api::ScanRequest request = base;
    request.index = plan.index;
    size_t bytes = 0;
    for (; next < plan.ranges.size() && request.ranges.size() < api::kMaxScanRanges; ++next) {
      const AccessPlan::Range& range = plan.ranges[next];
      bytes += range.lower.size() + range.upper.size();
      if (bytes > api::kMaxScanRangeBytes && !request.ranges.empty()) break;
      request.ranges.push_back({range.lower, range.upper});
    }
    ++*outstanding;
    client->Scan(std::move(request), receiver);
  }
}

bool HasColumn(const Expr& e) {
  if (e.kind == ExprKind::kColumn) return true;
  return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return HasColumn(*a); });
}

static bool IsKeyColumn(const schema::TableDef& table, const Expr& e) {
  if (e.kind != ExprKind::kColumn) return false;
  const std::vector<int>& pk = table.primary_key().columns;
  return std::find(pk.begin(), pk.end(), table.FindColumn(e.name)) != pk.end();
}

// `row` as a flat row of key columns.
static bool IsKeyRow(const schema::TableDef& table, const Expr& row) {
  return row.kind == ExprKind::kRow &&
         std::all_of(row.args.begin(), row.args.end(),
                     [&](const ExprPtr& a) { return IsKeyColumn(table, *a); });
}

// How many key columns `e` compares with constants, when it is `key = constant`,
// `key IN (…)`, or a row of key columns equal to or IN rows of constants; 0 when it is not.
static size_t KeyColumnsCompared(const schema::TableDef& table, const Expr& e) {
  auto constant = [](const ExprPtr& a) { return !HasColumn(*a); };
  if (e.kind == ExprKind::kBinary && e.binary_op == BinaryOp::kEq) {
    for (int side = 0; side < 2; ++side) {
      const Expr& key = *e.args[side];
      const Expr& other = *e.args[1 - side];
      if (HasColumn(other) || ColumnsOf(key) != ColumnsOf(other)) continue;
      if (IsKeyColumn(table, key)) return 1;
      if (IsKeyRow(table, key)) return key.args.size();
    }
    return 0;
  }
  if (e.kind != ExprKind::kIn || e.negated) return 0;
  const Expr& key = *e.args[0];
  if (!std::all_of(e.args.begin() + 1, e.args.end(), constant)) return 0;
  if (IsKeyColumn(table, key)) return 1;
  if (!IsKeyRow(table, key)) return 0;
  bool rows = std::all_of(e.args.begin() + 1, e.args.end(),
                          [&](const ExprPtr& a) { return ColumnsOf(*a) == key.args.size(); });
  return rows ? key.args.size() : 0;
}

bool WhereIsKeyOnly(const schema::TableDef& table, const Expr* where, const AccessPlan& plan) {
  if (plan.kind != AccessPlan::Kind::kKeyLookup && plan.kind != AccessPlan::Kind::kBatchedLookup) {
    return false;
  }
  std::vector<const Expr*> conjuncts;
  Conjuncts(where, &conjuncts);
  // The plan found every key column among these; as many comparisons as key columns means
  // each was compared once, and nothing else asked.
  size_t compared = 0;
  for (const Expr* e : conjuncts) {
    size_t n = KeyColumnsCompared(table, *e);
    if (n == 0) return false;
    compared += n;
  }
  return compared == table.primary_key().columns.size();
}

bool SetFitsProgram(const schema::TableDef& table, const std::vector<Assignment>& set) {
  return std::all_of(set.begin(), set.end(), [&](const Assignment& a) {
    int c = table.FindColumn(a.column);
    if (c < 0 || table.columns[c].hidden) return false;
    const std::vector<int>& pk = table.primary_key().columns;
    if (std::find(pk.begin(), pk.end(), c) != pk.end()) return false;
    const Expr& e = *a.value;
    bool add = e.kind == ExprKind::kBinary &&
               (e.binary_op == BinaryOp::kAdd || e.binary_op == BinaryOp::kSub) &&
               e.args[0]->kind == ExprKind::kColumn && table.FindColumn(e.args[0]->name) == c &&
               !HasColumn(*e.args[1]) && schema::IsInteger(table.columns[c].type);
    return add || (!HasColumn(e) && e.kind != ExprKind::kDefault);
  });
}

namespace {

// `e` as the data node compares it: a column of an integer type against a constant it can
// hold exactly; nullopt when the data node cannot check `e` exactly as MySQL would.
struct PushedCompare {
  int column;
  schema::CompareOp op;
  std::string field;  // the packed operand; for kLike and kNotLike the pattern itself
};

std::optional<schema::CompareOp> CompareOpOf(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
      return schema::CompareOp::kEq;
    case BinaryOp::kNe:
      return schema::CompareOp::kNe;
    case BinaryOp::kLt:
      return schema::CompareOp::kLt;
    case BinaryOp::kLe:
      return schema::CompareOp::kLe;
    case BinaryOp::kGt:
      return schema::CompareOp::kGt;
    case BinaryOp::kGe:
      return schema::CompareOp::kGe;
    default:
      return std::nullopt;
  }
}

// `5 < k` is `k > 5`.
schema::CompareOp Mirrored(schema::CompareOp op) {
  switch (op) {
    case schema::CompareOp::kLt:
      return schema::CompareOp::kGt;
    case schema::CompareOp::kLe:
      return schema::CompareOp::kGe;
    case schema::CompareOp::kGt:
      return schema::CompareOp::kLt;
    case schema::CompareOp::kGe:
      return schema::CompareOp::kLe;
    default:
      return op;
  }
}

std::optional<PushedCompare> PushableCompare(const schema::TableDef& table, const Expr& column_side,
                                             schema::CompareOp op, const Expr& constant,
                                             const ExecContext& ctx) {
  int column = ColumnOf(table, column_side);
  if (column < 0 || !schema::IsInteger(table.columns[column].type) || !IsConstant(constant)) {
    return std::nullopt;
  }
  EvalContext eval = ctx.Eval();
  eval.warnings = nullptr;
  auto v = Evaluate(constant, &eval);
  const auto* value = std::get_if<mysql::Value>(&v);
  if (value == nullptr || mysql::IsNull(*value)) return std::nullopt;
  // Only a constant the column can hold compares the same on the data node.
  std::optional<std::string> field = ExactField(table.columns[column], *value);
  if (!field) return std::nullopt;
  return PushedCompare{column, op, std::move(*field)};
}

// `text_column [NOT] LIKE 'pattern'`, which the data node matches as the router would: a
// CHAR, VARCHAR or TEXT column, a string literal under the column's collation (not a binary
// one, which would make the match byte for byte), the default `\` escape.
std::optional<PushedCompare> PushableLike(const schema::TableDef& table, const Expr& e) {
  if (e.args.size() != 2) return std::nullopt;  // ESCAPE
  const int column = ColumnOf(table, *e.args[0]);
  if (column < 0) return std::nullopt;
  const schema::ColumnType type = table.columns[column].type;
  if (type != schema::ColumnType::kChar && type != schema::ColumnType::kVarChar &&
      type != schema::ColumnType::kText) {
    return std::nullopt;
  }
  const Expr& pattern = *e.args[1];
  if (pattern.kind != ExprKind::kLiteral || pattern.literal != LiteralKind::kString ||
      !pattern.charset.empty() || pattern.text.size() > 65535) {
    return std::nullopt;
  }
  return PushedCompare{column, e.negated ? schema::CompareOp::kNotLike : schema::CompareOp::kLike,
                       pattern.text};
}

// The comparisons `e` is made of, when the data node can check all of it; empty when not.
std::vector<PushedCompare> PushableConjunct(const schema::TableDef& table, const Expr& e,
                                            const ExecContext& ctx) {
  if (e.kind == ExprKind::kLike) {
    auto like = PushableLike(table, e);
    if (!like) return {};
    return {std::move(*like)};
  }
  if (e.kind == ExprKind::kBetween && !e.negated) {
    auto low = PushableCompare(table, *e.args[0], schema::CompareOp::kGe, *e.args[1], ctx);
    auto high = PushableCompare(table, *e.args[0], schema::CompareOp::kLe, *e.args[2], ctx);
    if (!low || !high) return {};
    return {std::move(*low), std::move(*high)};
  }
  if (e.kind != ExprKind::kBinary) return {};
  std::optional<schema::CompareOp> op = CompareOpOf(e.binary_op);
  if (!op) return {};
  auto compare = ColumnOf(table, *e.args[0]) >= 0
                     ? PushableCompare(table, *e.args[0], *op, *e.args[1], ctx)
                     : PushableCompare(table, *e.args[1], Mirrored(*op), *e.args[0], ctx);
  if (!compare) return {};
  return {std::move(*compare)};
}

}  // namespace

std::string PushedFilter(const schema::TableDef& table, const Expr* where, const ExecContext& ctx,
                         bool* whole) {
  std::vector<const Expr*> conjuncts;
  Conjuncts(where, &conjuncts);
  return PushedFilter(table, conjuncts, ctx, whole);
}

std::string PushedFilter(const schema::TableDef& table, const std::vector<const Expr*>& conjuncts,
                         const ExecContext& ctx, bool* whole) {
  schema::FilterBuilder parts;
  int count = 0;
  bool all = true;
  for (const Expr* e : conjuncts) {
    if (e->kind == ExprKind::kIsNull && ColumnOf(table, *e->args[0]) >= 0 && count < 255) {
      parts.IsNull(ColumnOf(table, *e->args[0]), !e->negated);
      ++count;
      continue;
    }
    std::vector<PushedCompare> compares = PushableConjunct(table, *e, ctx);
    // An AND node holds at most 255 parts; the router checks the rest.
    if (compares.empty() || count + static_cast<int>(compares.size()) > 255) {
      all = false;
      continue;
    }
    for (const PushedCompare& c : compares) {
      const schema::ColumnDef& column = table.columns[c.column];
      if (c.op == schema::CompareOp::kLike || c.op == schema::CompareOp::kNotLike) {
        parts.Like(column, c.column, c.op == schema::CompareOp::kNotLike, c.field);
      } else {
        parts.CompareBytes(column, c.column, c.op, c.field);
      }
      ++count;
    }
  }
  if (whole != nullptr) *whole = all;
  if (count == 0) return "";
  schema::FilterBuilder filter;
  filter.And(count);
  return filter.bytes() + parts.bytes();
}

AccessPlan PlanAccess(const schema::TableDef& table, const Expr* where, const ExecContext& ctx) {
  std::vector<const Expr*> conjuncts;
  Conjuncts(where, &conjuncts);
  return Planner(table, ctx).Plan(conjuncts);
}

AccessPlan PlanAccess(const schema::TableDef& table, const std::vector<const Expr*>& conjuncts,
                      const ExecContext& ctx) {
  return Planner(table, ctx).Plan(conjuncts);
}

std::optional<std::string> KeyField(const schema::ColumnDef& column, const mysql::Value& value) {
  return ExactField(column, value);
}

std::string AccessPlan::Describe(const schema::TableDef& table) const {
  switch (kind) {
    case Kind::kKeyLookup:
      return "key lookup on PRIMARY";
    case Kind::kBatchedLookup:
      return absl::StrCat("batched key lookups on PRIMARY (", keys.size(), " keys)");
    case Kind::kIndexRange:
      return absl::StrCat("index range scan on ", table.indexes[index].name, " (", ranges.size(),
                          ranges.size() == 1 ? " range)" : " ranges)");
    case Kind::kFullScan:
      return "full scan";
    case Kind::kNothing:
      return "no rows (impossible WHERE)";
  }
  return "";
}

}  // namespace shoal::sql::internal
