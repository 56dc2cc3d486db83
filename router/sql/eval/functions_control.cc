// Choosing among values: COALESCE, IFNULL, IF, NULLIF, GREATEST and LEAST; and GROUPING.
#include <algorithm>

#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;
namespace flag = mysql::column_flag;

// The type the arguments share, as CASE and IF would give them (IFNULL(int_column, 0) is an
// integer); NOT NULL if any argument is (one of them will be chosen).
ColumnDefinition CoalesceType(const TypingCall& call) {
  const bool not_null = std::any_of(call.args.begin(), call.args.end(),
                                    [](const ColumnDefinition& a) { return NotNull(a); });
  return AggregateResultTypes(call.args, call.state(),
                              not_null ? Nullability::kNotNull : Nullability::kNullable);
}
Value CoalesceValue(EvalCall& call) {
  for (size_t i = 0; i < call.arg_count(); ++i) {
    Value v = call.Arg(i);
    if (!IsNull(v)) return v;
  }
  return Value{};
}

ColumnDefinition IfType(const TypingCall& call) {
  return AggregateResultTypes({call.args[1], call.args[2]}, call.state(),
                              NullableIfAny({call.args[1], call.args[2]}));
}
// Only the branch taken is evaluated, converted to the type both branches share.
Value IfValue(EvalCall& call) {
  const ColumnDefinition type = call.ResultType();
  const bool yes = Truth(call.Arg(0)) == 1;
  return ConvertToColumn(call.Arg(yes ? 1 : 2), type);
}

ColumnDefinition NullIfType(const TypingCall& call) {
  ColumnDefinition out = call.args[0];
  out.flags = static_cast<uint16_t>(out.flags & ~flag::kNotNull);
  return out;
}
Value NullIfValue(EvalCall& call) {
  Value a = call.Arg(0);
  std::optional<int> order = Compare(a, call.Arg(1));
  return order.has_value() && *order == 0 ? Value{} : a;
}

// GREATEST and LEAST: the type CASE would give the arguments; NULL when any is NULL.
ColumnDefinition ExtremeType(const TypingCall& call) {
  return AggregateResultTypes(call.args, call.state(), NullableIfAny(call.args));
}
template <int kSign>
Value ExtremeValue(EvalCall& call) {
  const ColumnDefinition type = call.ResultType();
  std::vector<Value> values;
  if (!call.StrictArgs(&values)) return Value{};
  size_t best = 0;
  for (size_t i = 1; i < values.size(); ++i) {
    std::optional<int> order = Compare(values[i], values[best]);
    if (order.has_value() && *order * kSign > 0) best = i;
  }
  return ConvertToColumn(std::move(values[best]), type);
}

// GROUPING(item, …) has a value only in the super-aggregate rows of WITH ROLLUP, which compute
// it (exec/rollup.h); anywhere else it is MySQL's 1111.
ColumnDefinition GroupingType(const TypingCall&) {
  return IntColumn(1, false, Nullability::kNotNull);
}
Value GroupingValue(EvalCall& call) {
  call.engine().SetError({1111, "HY000", "Invalid use of group function"});
  return Value{};
}

constexpr BuiltinFunction kControlFunctions[] = {
    {"COALESCE", 1, kAnyArgs, CoalesceType, CoalesceValue},
    {"GREATEST", 2, kAnyArgs, ExtremeType, ExtremeValue<1>},
    {"GROUPING", 1, kAnyArgs, GroupingType, GroupingValue},
    {"IF", 3, 3, IfType, IfValue},
    {"IFNULL", 2, 2, CoalesceType, CoalesceValue},
    {"LEAST", 2, kAnyArgs, ExtremeType, ExtremeValue<-1>},
    {"NULLIF", 2, 2, NullIfType, NullIfValue},
};

}  // namespace

absl::Span<const BuiltinFunction> ControlFunctions() { return kControlFunctions; }

}  // namespace shoal::sql::internal
