#include "router/sql/exec/aggregates.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/decimal_arith.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// group_concat_max_len for the session (1024 by default).
uint64_t ConcatMaxLen(const SessionState& state) {
  Value v = SessionValue(*FindSysVar("group_concat_max_len"), state);
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i > 0 ? static_cast<uint64_t>(*i) : 4;
  return 1024;
}

bool IsBitAggregate(absl::string_view name) {
  return name == "BIT_AND" || name == "BIT_OR" || name == "BIT_XOR";
}

// The variances and standard deviations: population unless SAMP, a root unless VAR.
bool IsDeviation(absl::string_view name) {
  return name == "VAR_POP" || name == "VARIANCE" || name == "VAR_SAMP" || name == "STD" ||
         name == "STDDEV" || name == "STDDEV_POP" || name == "STDDEV_SAMP";
}

// A value as the 64 bits the BIT_ aggregates combine: integers as they are (a negative one
// in two's complement), anything else as the nearest integer of its number, clamped.
uint64_t BitsOf(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<uint64_t>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return *u;
  bool truncated = false;
  const double d = std::nearbyint(ToDouble(v, &truncated));
  if (d >= 18446744073709551615.0) return ~uint64_t{0};
  if (d >= 0) return static_cast<uint64_t>(d);
  if (d <= -9223372036854775808.0) return uint64_t{1} << 63;
  return static_cast<uint64_t>(static_cast<int64_t>(d));
}

}  // namespace

bool IsAggregateName(absl::string_view name) {
  return name == "COUNT" || name == "SUM" || name == "AVG" || name == "MIN" || name == "MAX" ||
         name == "GROUP_CONCAT" || name == "JSON_ARRAYAGG" || IsBitAggregate(name) ||
         IsDeviation(name);
}

bool IsAggregate(const Expr& e) {
  if (e.kind != ExprKind::kFunction || e.window != nullptr) return false;  // OVER: a window
  return IsAggregateName(e.name);
}

void CollectAggregates(const Expr& e, std::vector<const Expr*>* out) {
  if (IsAggregate(e)) {
    out->push_back(&e);
    return;
  }
  for (const ExprPtr& a : e.args) CollectAggregates(*a, out);
  if (e.window != nullptr) {  // RANK() OVER (ORDER BY COUNT(*)) ranks groups by an aggregate
    for (const ExprPtr& p : e.window->partition_by) CollectAggregates(*p, out);
    for (const OrderItem& o : e.window->order_by) CollectAggregates(*o.expr, out);
  }
}

ColumnDefinition AggregateType(const Expr& e, const ColumnDefinition& arg,
                               const SessionState& state) {
  if (e.name == "COUNT") return IntColumn(21, false, Nullability::kNotNull);
  if (e.name == "JSON_ARRAYAGG") return JsonColumn(state);
  if (e.name == "GROUP_CONCAT") {
    // VARCHAR up to 512 characters, TEXT past that, as MySQL types it.
    uint64_t max_len = ConcatMaxLen(state);
    ColumnDefinition c = StringColumn(static_cast<uint32_t>(std::min<uint64_t>(max_len, 1 << 24)),
                                      state, Nullability::kNullable);
    if (max_len > 512) {
      c.type = mysql::ColumnType::kBlob;
      c.flags |= mysql::column_flag::kBlob;
    }
    return c;
  }
  if (e.name == "MIN" || e.name == "MAX") {
    ColumnDefinition c = arg;
    c.flags &= ~mysql::column_flag::kNotNull;
    return c;
  }
  if (IsBitAggregate(e.name)) return IntColumn(21, true, Nullability::kNotNull);
  if (IsDeviation(e.name)) return DoubleColumn(Nullability::kNullable);
  bool avg = e.name == "AVG";
  // MySQL's: the argument's digits (its display length less the sign and point), plus 22 for a
  // SUM (the digits of a row count) or div_precision_increment (4) for an AVG.
  const bool is_int = ClassOf(arg) == Cls::kInt;
  if (is_int || arg.type == mysql::ColumnType::kNewDecimal) {
    const bool is_unsigned = (arg.flags & mysql::column_flag::kUnsigned) != 0;
    const int digits = static_cast<int>(arg.length) - (is_unsigned ? 0 : 1) -
                       (!is_int && arg.decimals > 0 ? 1 : 0);
    const uint8_t scale =
        static_cast<uint8_t>(std::min<int>(30, (is_int ? 0 : arg.decimals) + (avg ? 4 : 0)));
    return DecimalColumn(static_cast<uint32_t>(std::clamp(digits + (avg ? 4 : 22), 1, 65)), scale,
                         Nullability::kNullable);
  }
  return DoubleColumn(Nullability::kNullable);
}

void Accumulator::Add(const Expr& call, const std::vector<Value>& args, std::vector<Value> keys,
                      const std::vector<uint16_t>& collations) {
  for (const Value& v : args) {
    if (mysql::IsNull(v)) return;
  }
  auto collation = [&](size_t i) -> uint16_t { return i < collations.size() ? collations[i] : 0; };
  if (call.distinct) {
    std::string key;
    for (size_t i = 0; i < args.size(); ++i) {
      absl::StrAppend(&key, args[i].index(), ":", CollationKeyText(args[i], collation(i)), ";");
    }
    if (!seen_.insert(std::move(key)).second) return;
  }
  ++count_;
  const Value& v = args[0];
  if (call.name == "JSON_ARRAYAGG") {
    // The row's value as a one-member JSON array (the parser's JSON_ARRAY): its member.
    const std::string* one = std::get_if<std::string>(&v);
    if (one != nullptr && one->size() >= 2)
      pieces_.push_back({{}, one->substr(1, one->size() - 2)});
  } else if (call.name == "GROUP_CONCAT") {
    std::string text;
    for (const Value& a : args) text += ValueText(a);
    pieces_.push_back({std::move(keys), std::move(text)});
  } else if (call.name == "MIN" || call.name == "MAX") {
    const bool bytes = IsBinaryCollationId(collation(0)) &&
                       std::holds_alternative<std::string>(v) &&
                       std::holds_alternative<std::string>(best_);
    int c = mysql::IsNull(best_) ? 0
            : bytes ? CompareBinaryText(std::get<std::string>(v), std::get<std::string>(best_))
                    : CompareValues(v, best_);
    if (mysql::IsNull(best_) || (call.name == "MIN" ? c < 0 : c > 0)) best_ = v;
  } else if (IsBitAggregate(call.name)) {
    const uint64_t bits = BitsOf(v);
    bits_and_ &= bits;
    bits_or_ |= bits;
    bits_xor_ ^= bits;
  } else if (IsDeviation(call.name)) {
    bool truncated = false;
    const double x = ToDouble(v, &truncated);
    const double delta = x - mean_;
    mean_ += delta / static_cast<double>(count_);
    squares_ += delta * (x - mean_);
  } else if (const auto* i = std::get_if<int64_t>(&v)) {
    int_sum_ += *i;
  } else if (const auto* u = std::get_if<uint64_t>(&v)) {
    int_sum_ += *u;
  } else if (std::holds_alternative<mysql::Decimal>(v) && exact_) {
    bool by_zero = false;
    std::optional<Value> sum = ExactDecimalArithmetic(BinaryOp::kAdd, decimal_sum_, v, &by_zero);
    if (sum) {
      decimal_sum_ = *std::move(sum);
    } else {  // past 38 digits: as doubles from here on
      exact_ = false;
      bool truncated = false;
      double_sum_ += ToDouble(decimal_sum_, &truncated) + ToDouble(v, &truncated);
      decimal_sum_ = int64_t{0};
    }
  } else {
    exact_ = false;
    bool truncated = false;
    double_sum_ += ToDouble(v, &truncated);
  }
}

Value Accumulator::Result(const Expr& call, const ColumnDefinition& type, size_t group,
                          SessionState* state) const {
  if (call.name == "COUNT") return static_cast<int64_t>(count_);
  if (call.name == "MIN" || call.name == "MAX") return best_;
  if (call.name == "BIT_AND") return bits_and_;
  if (call.name == "BIT_OR") return bits_or_;
  if (call.name == "BIT_XOR") return bits_xor_;
  if (count_ == 0) return Value{};
  if (IsDeviation(call.name)) {
    const bool sample = absl::EndsWith(call.name, "_SAMP");
    if (sample && count_ < 2) return Value{};
    const double variance = squares_ / static_cast<double>(sample ? count_ - 1 : count_);
    return absl::StartsWith(call.name, "VAR") ? variance : std::sqrt(variance);
  }
  if (call.name == "JSON_ARRAYAGG") {
    std::string out = "[";
    for (size_t i = 0; i < pieces_.size(); ++i) {
      if (i > 0) out += ", ";
      out += pieces_[i].text;
    }
    return out + "]";
  }
  if (call.name == "GROUP_CONCAT") {
    std::vector<const Piece*> order;
    for (const Piece& p : pieces_) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(), [&](const Piece* a, const Piece* b) {
      for (size_t k = 0; k < a->keys.size(); ++k) {
        int c = CompareValues(a->keys[k], b->keys[k]);
        if (c != 0) return call.concat_descending[k] ? c > 0 : c < 0;
      }
      return false;
    });
    std::string out;
    for (size_t i = 0; i < order.size(); ++i) {
      if (i > 0) out += call.separator;
      out += order[i]->text;
    }
    uint64_t max_len = ConcatMaxLen(*state);
    if (out.size() > max_len) {
      out.resize(max_len);
      AddWarning(state, Diagnostic::Level::kWarning, 1260,
                 absl::StrCat("Row ", group, " was cut by GROUP_CONCAT()"));
    }
    return out;
  }
  if (exact_ && type.type == mysql::ColumnType::kNewDecimal) {
    // Integers and decimals sum exactly; AVG divides as MySQL's DECIMAL division does.
    bool by_zero = false;
    std::optional<Value> sum = ExactDecimalArithmetic(
        BinaryOp::kAdd, mysql::Decimal{Int128Text(int_sum_)}, decimal_sum_, &by_zero);
    if (sum && call.name == "SUM") return *std::move(sum);
    if (sum) {
      sum = ExactDecimalArithmetic(BinaryOp::kDiv, *sum, static_cast<int64_t>(count_), &by_zero);
    }
    if (sum) return *std::move(sum);
  }
  bool truncated = false;
  double total = static_cast<double>(int_sum_) + double_sum_ + ToDouble(decimal_sum_, &truncated);
  double v = call.name == "AVG" ? total / static_cast<double>(count_) : total;
  if (type.type == mysql::ColumnType::kNewDecimal)
    return mysql::Decimal{FormatFixed(v, type.decimals)};
  return v;
}

}  // namespace shoal::sql::internal
