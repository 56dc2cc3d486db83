// Floating-point mathematics: POW (POWER), SQRT, EXP, LN, LOG, LOG2, LOG10, PI, the
// trigonometric functions, DEGREES, RADIANS and RAND. Arguments are read as DOUBLEs (strings
// by their numeric prefix, with 1292). As MySQL's Item_dec_func: a result outside a function's
// domain is NULL (LN and LOG with warning 3020), one that is not finite is error 1690.
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "absl/strings/str_cat.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// ER_DATA_OUT_OF_RANGE for a DOUBLE, naming the call as MySQL prints it.
mysql::SqlError DoubleOutOfRange(absl::string_view function, const std::vector<Value>& args) {
  std::string call = absl::StrCat(function, "(");
  for (size_t i = 0; i < args.size(); ++i) {
    absl::StrAppend(&call, i > 0 ? "," : "", ValueText(args[i]));
  }
  return {1690, "22003", absl::StrCat("DOUBLE value is out of range in '", call, ")'")};
}

// The arguments as DOUBLEs; false when one is NULL.
bool DoubleArgs(EvalCall& call, std::vector<Value>* values, std::vector<double>* out) {
  if (!call.StrictArgs(values)) return false;
  out->clear();
  for (const Value& v : *values) out->push_back(DoubleArg(v, call.engine()));
  return true;
}

// MySQL's Item_dec_func: a DOUBLE, nullable whatever the arguments (a result outside the
// domain is NULL).
ColumnDefinition DecType(const TypingCall&) { return DoubleColumn(Nullability::kNullable); }

// `r`, or error 1690 when it is not finite (MySQL's check_float_overflow).
Value Finite(EvalCall& call, absl::string_view function, const std::vector<Value>& args, double r) {
  if (std::isfinite(r)) return r;
  call.engine().SetError(DoubleOutOfRange(function, args));
  return Value{};
}

// A function of one DOUBLE, NULL outside [kMin, kMax] (SQRT, ASIN, ACOS), 1690 when the
// result is not finite (EXP, TAN, COT).
struct Unary {
  const char* name;
  double (*f)(double);
  double min, max;
};
constexpr double kInf = std::numeric_limits<double>::infinity();
double Cot(double x) { return 1.0 / std::tan(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Exp(double x) { return std::exp(x); }
double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
constexpr Unary kSqrt{"sqrt", Sqrt, 0, kInf};
constexpr Unary kExp{"exp", Exp, -kInf, kInf};
constexpr Unary kSin{"sin", Sin, -kInf, kInf};
constexpr Unary kCos{"cos", Cos, -kInf, kInf};
constexpr Unary kTan{"tan", Tan, -kInf, kInf};
constexpr Unary kCot{"cot", Cot, -kInf, kInf};
constexpr Unary kAsin{"asin", Asin, -1, 1};
constexpr Unary kAcos{"acos", Acos, -1, 1};

template <const Unary& kF>
Value UnaryValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x)) return Value{};
  if (x[0] < kF.min || x[0] > kF.max) return Value{};
  return Finite(call, kF.name, values, kF.f(x[0]));
}

// ATAN(x), ATAN(y, x) and ATAN2(y, x).
Value AtanValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x)) return Value{};
  return x.size() == 1 ? std::atan(x[0]) : std::atan2(x[0], x[1]);
}

Value PowValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x)) return Value{};
  return Finite(call, "pow", values, std::pow(x[0], x[1]));
}

// NULL and warning 3020 for an argument <= 0, as MySQL's Item_func_ln and its kin.
bool LogDomain(EvalCall& call, double x) {
  if (x > 0) return true;
  call.engine().Warn(3020, "Invalid argument for logarithm");
  return false;
}
template <double (*kLog)(double)>
Value LogOfValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x) || !LogDomain(call, x[0])) return Value{};
  return kLog(x[0]);
}
double Ln(double x) { return std::log(x); }
double Log2(double x) { return std::log2(x); }
double Log10(double x) { return std::log10(x); }

// LOG(x) is LN(x); LOG(b, x) the logarithm of x to base b, NULL (and 3020) for base 1.
Value LogValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x) || !LogDomain(call, x[0])) return Value{};
  if (x.size() == 1) return std::log(x[0]);
  if (!LogDomain(call, x[0] == 1.0 ? 0.0 : x[1])) return Value{};
  return std::log(x[1]) / std::log(x[0]);
}

// PI() shows six decimals, as MySQL's.
ColumnDefinition PiType(const TypingCall&) {
  ColumnDefinition c = DoubleColumn(Nullability::kNotNull);
  c.length = 8;
  c.decimals = 6;
  return c;
}
Value PiValue(EvalCall&) { return std::numbers::pi; }

// DEGREES and RADIANS: MySQL's Item_func_units, nullable only with their argument.
ColumnDefinition UnitsType(const TypingCall& call) {
  return DoubleColumn(NullableIfAny(call.args));
}
template <bool kToDegrees>
Value UnitsValue(EvalCall& call) {
  std::vector<Value> values;
  std::vector<double> x;
  if (!DoubleArgs(call, &values, &x)) return Value{};
  const double r = kToDegrees ? x[0] * (180.0 / std::numbers::pi) : x[0] * (std::numbers::pi / 180);
  return Finite(call, kToDegrees ? "degrees" : "radians", values, r);
}

// ---------------------------------------------------------------------------------------
// RAND: MySQL's own generator (mysys my_rnd), so that RAND(n) gives MySQL's sequence.

constexpr uint64_t kRandMax = 0x3FFFFFFF;

SessionState::RandomSeeds RandInit(uint64_t seed1, uint64_t seed2) {
  return {seed1 % kRandMax, seed2 % kRandMax};
}
double NextRandom(SessionState::RandomSeeds* s) {
  s->seed1 = (s->seed1 * 3 + s->seed2) % kRandMax;
  s->seed2 = (s->seed1 + s->seed2 + 33) % kRandMax;
  return static_cast<double>(s->seed1) / static_cast<double>(kRandMax);
}
// Item_func_rand::seed_random: the seed's low 32 bits, spread over both seeds.
SessionState::RandomSeeds SeedOf(uint32_t n) {
  return RandInit(static_cast<uint32_t>(n * uint64_t{0x10001} + 55555555),
                  static_cast<uint32_t>(n * uint64_t{0x10000001}));
}

// A seed MySQL computes once per statement: a literal, a parameter, or one negated.
bool ConstantSeed(const Expr& e) {
  if (e.kind == ExprKind::kUnary) return ConstantSeed(*e.args[0]);
  return e.kind == ExprKind::kLiteral || e.kind == ExprKind::kParam;
}

ColumnDefinition RandType(const TypingCall&) { return DoubleColumn(Nullability::kNotNull); }

// RAND(): the session's generator. RAND(n): a constant n seeds the call's own generator once
// per statement, so that it gives one sequence over the rows; any other n seeds it again at
// every value (so RAND(id) is one number per id). A NULL seed is 0.
Value RandValue(EvalCall& call) {
  SessionState* state = call.engine().ctx().mutable_state;
  if (call.arg_count() == 0) {
    thread_local std::mt19937_64 entropy{std::random_device{}()};
    if (state == nullptr) return static_cast<double>(entropy() % kRandMax) / kRandMax;
    if (!state->random.has_value()) state->random = RandInit(entropy(), entropy());
    return NextRandom(&*state->random);
  }
  const Value seed = call.Arg(0);
  const uint32_t n = IsNull(seed) ? 0 : static_cast<uint32_t>(IntegerArg(seed, call.engine()));
  if (state == nullptr || !ConstantSeed(*call.expr().args[0])) {
    SessionState::RandomSeeds s = SeedOf(n);
    return NextRandom(&s);
  }
  std::vector<SessionState::SeededRandom>& seeded = state->seeded_random;
  if (!seeded.empty() && seeded.front().statement != state->questions) seeded.clear();
  for (SessionState::SeededRandom& r : seeded) {
    if (r.call == &call.expr()) return NextRandom(&r.seeds);
  }
  seeded.push_back({&call.expr(), state->questions, SeedOf(n)});
  return NextRandom(&seeded.back().seeds);
}

constexpr BuiltinFunction kMathFunctions[] = {
    {"ACOS", 1, 1, DecType, UnaryValue<kAcos>},
    {"ASIN", 1, 1, DecType, UnaryValue<kAsin>},
    {"ATAN", 1, 2, DecType, AtanValue},
    {"ATAN2", 2, 2, DecType, AtanValue},
    {"COS", 1, 1, DecType, UnaryValue<kCos>},
    {"COT", 1, 1, DecType, UnaryValue<kCot>},
    {"DEGREES", 1, 1, UnitsType, UnitsValue<true>},
    {"EXP", 1, 1, DecType, UnaryValue<kExp>},
    {"LN", 1, 1, DecType, LogOfValue<Ln>},
    {"LOG", 1, 2, DecType, LogValue},
    {"LOG10", 1, 1, DecType, LogOfValue<Log10>},
    {"LOG2", 1, 1, DecType, LogOfValue<Log2>},
    {"PI", 0, 0, PiType, PiValue},
    {"POW", 2, 2, DecType, PowValue},
    {"POWER", 2, 2, DecType, PowValue},
    {"RADIANS", 1, 1, UnitsType, UnitsValue<false>},
    {"RAND", 0, 1, RandType, RandValue},
    {"SIN", 1, 1, DecType, UnaryValue<kSin>},
    {"SQRT", 1, 1, DecType, UnaryValue<kSqrt>},
    {"TAN", 1, 1, DecType, UnaryValue<kTan>},
};

}  // namespace

absl::Span<const BuiltinFunction> MathFunctions() { return kMathFunctions; }

}  // namespace shoal::sql::internal
