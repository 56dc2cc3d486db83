// Numbers: ABS, SIGN, MOD, FLOOR, CEIL (CEILING), ROUND, TRUNCATE and FORMAT. Integers and DECIMALs
// stay exact (DECIMALs round half away from zero, on their digits); DOUBLEs round as MySQL's
// my_double_round does, with rint: half to even. Strings are read as DOUBLEs.
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;
namespace flag = mysql::column_flag;

bool IsUnsigned(const ColumnDefinition& c) { return (c.flags & flag::kUnsigned) != 0; }

// Digits before the point of a DECIMAL column (its length less point and sign).
uint32_t IntegerDigits(const ColumnDefinition& c) {
  const uint32_t digits = c.length - (c.decimals > 0 ? 1 : 0) - (IsUnsigned(c) ? 0 : 1);
  return digits > c.decimals ? digits - c.decimals : 1;
}

// A DECIMAL result of `int_digits` digits before the point and `scale` after.
ColumnDefinition DecimalResult(uint32_t int_digits, uint32_t scale, bool is_unsigned,
                               Nullability n) {
  ColumnDefinition c = DecimalColumn(std::min<uint32_t>(int_digits + scale, 65),
                                     static_cast<uint8_t>(std::min<uint32_t>(scale, 30)), n);
  if (is_unsigned) {
    c.length -= 1;
    c.flags |= flag::kUnsigned;
  }
  return c;
}

mysql::SqlError OutOfRange(absl::string_view function, const std::vector<Value>& args) {
  std::string call = absl::StrCat(function, "(", ValueText(args[0]));
  for (size_t i = 1; i < args.size(); ++i) absl::StrAppend(&call, ",", ValueText(args[i]));
  return {1690, "22003", absl::StrCat("BIGINT value is out of range in '", call, ")'")};
}

// Plain decimal text ("-12.50") as sign, digits before and after the point.
struct DecimalParts {
  bool negative = false;
  std::string whole, fraction;
};
DecimalParts SplitDecimal(absl::string_view text) {
  DecimalParts p;
  p.negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  const size_t point = text.find('.');
  p.whole = std::string(text.substr(0, point));
  if (point != absl::string_view::npos) p.fraction = std::string(text.substr(point + 1));
  return p;
}

// `digits` (a magnitude) plus one.
void Increment(std::string* digits) {
  int i = static_cast<int>(digits->size()) - 1;
  for (; i >= 0 && (*digits)[i] == '9'; --i) (*digits)[i] = '0';
  if (i < 0) {
    digits->insert(digits->begin(), '1');
  } else {
    ++(*digits)[i];
  }
}

// `text` rounded (half away from zero) or truncated to `places` digits after the point; a
// negative `places` zeroes digits before it. The result has max(places, 0) decimals.
std::string RoundDecimalText(absl::string_view text, int64_t places, bool truncate) {
  const DecimalParts p = SplitDecimal(text);
  const std::string digits = p.whole + p.fraction;
  const int64_t keep = static_cast<int64_t>(p.whole.size()) + places;  // digits kept
  std::string kept;  // the value times 10^places, as an integer
  if (keep >= 0) {
    kept = digits.substr(0, std::min<size_t>(static_cast<size_t>(keep), digits.size()));
    kept.resize(static_cast<size_t>(keep), '0');
    if (!truncate && static_cast<size_t>(keep) < digits.size() && digits[keep] >= '5') {
      Increment(&kept);
    }
  }
  std::string out;
  if (places >= 0) {
    const size_t scale = static_cast<size_t>(places);
    if (kept.size() < scale + 1) kept.insert(0, scale + 1 - kept.size(), '0');
    out = kept.substr(0, kept.size() - scale);
    if (scale > 0) absl::StrAppend(&out, ".", kept.substr(kept.size() - scale));
  } else {
    out = kept.empty() ? "0" : kept + std::string(static_cast<size_t>(-places), '0');
  }
  while (out.size() > 1 && out[0] == '0' && out[1] != '.') out.erase(0, 1);
  const bool zero = out.find_first_not_of("0.") == std::string::npos;
  return (p.negative && !zero ? "-" : "") + out;
}

// MySQL's my_double_round.
double RoundDouble(double value, int64_t places, bool truncate) {
  const double scale = std::pow(10.0, static_cast<double>(places < 0 ? -places : places));
  if (places < 0 && std::isinf(scale)) return 0.0;
  const double scaled = places < 0 ? value / scale : value * scale;
  if (places >= 0 && std::isinf(scaled)) return value;
  double r;
  if (truncate) {
    r = value >= 0 ? std::floor(scaled) : std::ceil(scaled);
  } else {
    r = std::rint(scaled);
  }
  return places < 0 ? r * scale : r / scale;
}

// ---------------------------------------------------------------------------------------

ColumnDefinition AbsType(const TypingCall& call) {
  const ColumnDefinition& a = call.args[0];
  const Nullability n = NullableIfAny(call.args);
  switch (ClassOf(a)) {
    case Cls::kInt:
      return IntColumn(a.length, IsUnsigned(a), n);
    case Cls::kDecimal:
      return DecimalResult(IntegerDigits(a), a.decimals, IsUnsigned(a), n);
    default:
      return DoubleColumn(n);
  }
}
Value AbsValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const Value& v = args[0];
  if (const auto* i = std::get_if<int64_t>(&v)) {
    if (*i == INT64_MIN) {
      call.engine().SetError(OutOfRange("abs", args));
      return Value{};
    }
    return *i < 0 ? -*i : *i;
  }
  if (std::holds_alternative<uint64_t>(v)) return v;
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    return mysql::Decimal{d->text[0] == '-' ? d->text.substr(1) : d->text};
  }
  return std::fabs(DoubleArg(v, call.engine()));
}

ColumnDefinition SignType(const TypingCall& call) {
  return IntColumn(2, false, NullableIfAny(call.args));
}
Value SignValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const Value& v = args[0];
  if (ClassOf(v) == Cls::kInt) {
    const __int128 i = Int128(v);
    return int64_t{(i > 0) - (i < 0)};
  }
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    if (d->text.find_first_of("123456789") == std::string::npos) return int64_t{0};
    return int64_t{d->text[0] == '-' ? -1 : 1};
  }
  const double d = DoubleArg(v, call.engine());
  return int64_t{(d > 0) - (d < 0)};
}

ColumnDefinition ModType(const TypingCall& call) {
  return ArithmeticType(BinaryOp::kMod, call.args[0], call.args[1]);
}
Value ModValue(EvalCall& call) {
  Value a = call.Arg(0);
  Value b = call.Arg(1);
  return call.engine().Arithmetic(BinaryOp::kMod, a, b);
}

// FLOOR and CEIL: integers stay themselves; a DECIMAL becomes a BIGINT when its integer part
// fits one (else a DECIMAL without decimals); anything else is a DOUBLE.
ColumnDefinition IntegralType(const TypingCall& call) {
  const ColumnDefinition& a = call.args[0];
  const Nullability n = NullableIfAny(call.args);
  switch (ClassOf(a)) {
    case Cls::kInt:
      return IntColumn(a.length, IsUnsigned(a), n);
    case Cls::kDecimal: {
      const uint32_t digits = IntegerDigits(a) + 1;  // one more for a carry
      if (digits > 18) return DecimalResult(digits, 0, IsUnsigned(a), n);
      return IntColumn(digits + (IsUnsigned(a) ? 0 : 1), IsUnsigned(a), n);
    }
    default: {
      ColumnDefinition c = DoubleColumn(n);
      c.decimals = 0;
      return c;
    }
  }
}
template <bool kCeil>
Value IntegralValue(EvalCall& call) {
  const ColumnDefinition type = call.ResultType();
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const Value& v = args[0];
  if (ClassOf(v) == Cls::kInt) return v;
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    DecimalParts p = SplitDecimal(RoundDecimalText(d->text, 0, /*truncate=*/true));
    const bool fraction =
        SplitDecimal(d->text).fraction.find_first_not_of('0') != std::string::npos;
    // Truncation went toward zero; FLOOR of a negative and CEIL of a positive go one further.
    const bool negative = !d->text.empty() && d->text[0] == '-';
    if (fraction && negative != kCeil) Increment(&p.whole);
    const bool zero = p.whole.find_first_not_of('0') == std::string::npos;
    return ConvertToColumn(mysql::Decimal{(negative && !zero ? "-" : "") + p.whole}, type);
  }
  const double x = DoubleArg(v, call.engine());
  return kCeil ? std::ceil(x) : std::floor(x);
}

// ROUND and TRUNCATE: an integer stays an integer (one digit longer when rounding to tens or
// more may carry), a DECIMAL takes as many decimals as a constant second argument asks for,
// anything else is a DOUBLE.
template <bool kTruncate>
ColumnDefinition RoundType(const TypingCall& call) {
  const ColumnDefinition& a = call.args[0];
  const Nullability n = NullableIfAny(call.args);
  std::optional<int64_t> places =
      call.expr.args.size() > 1 ? ConstantInteger(*call.expr.args[1]) : std::optional<int64_t>(0);
  switch (ClassOf(a)) {
    case Cls::kInt: {
      const bool may_carry = !kTruncate && places.has_value() && *places < 0;
      return IntColumn(a.length + (may_carry ? 1 : 0), IsUnsigned(a), n);
    }
    case Cls::kDecimal: {
      const uint32_t scale = places.has_value()
                                 ? static_cast<uint32_t>(std::clamp<int64_t>(*places, 0, 30))
                                 : a.decimals;
      const bool may_carry = !kTruncate && scale < a.decimals;
      return DecimalResult(IntegerDigits(a) + (may_carry ? 1 : 0), scale, IsUnsigned(a), n);
    }
    default: {
      ColumnDefinition c = DoubleColumn(n);
      if (places.has_value())
        c.decimals = static_cast<uint8_t>(std::clamp<int64_t>(*places, 0, 30));
      return c;
    }
  }
}
template <bool kTruncate>
Value RoundValue(EvalCall& call) {
  const ColumnDefinition type = call.ResultType();
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const int64_t places = args.size() > 1 ? IntegerArg(args[1], call.engine()) : 0;
  const Value& v = args[0];
  if (ClassOf(v) == Cls::kInt) {
    if (places >= 0) return v;
    // Past 10^20 every BIGINT rounds to 0.
    const std::string text =
        RoundDecimalText(ValueText(v), std::max<int64_t>(places, -21), kTruncate);
    int64_t i = 0;
    uint64_t u = 0;
    if (std::holds_alternative<uint64_t>(v) && absl::SimpleAtoi(text, &u)) return u;
    if (std::holds_alternative<int64_t>(v) && absl::SimpleAtoi(text, &i)) return i;
    call.engine().SetError(OutOfRange(kTruncate ? "truncate" : "round", args));
    return Value{};
  }
  if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    const int64_t bounded = std::clamp<int64_t>(places, -65, 30);
    return ConvertToColumn(mysql::Decimal{RoundDecimalText(d->text, bounded, kTruncate)}, type);
  }
  return RoundDouble(DoubleArg(v, call.engine()), places, kTruncate);
}

// FORMAT(x, d[, locale]): x rounded to d (0..30) decimals, with thousands separators, as
// MySQL's Item_func_format: integers and DECIMALs exactly (half away from zero), anything
// else as a DOUBLE (half to even). Only the en_US locale (the default) is known here.
ColumnDefinition FormatType(const TypingCall& call) {
  const uint64_t chars = DisplayChars(call.args[0], call.state());
  return StringResult(chars + chars / 3 + 2 + 30, call.state(), NullableIfAny(call.args));
}
Value FormatValue(EvalCall& call) {
  const Value places = call.Arg(1);
  if (IsNull(places)) return Value{};
  if (call.arg_count() > 2) {
    const Value locale = call.Arg(2);
    if (IsNull(locale)) {
      call.engine().Warn(1649, "Unknown locale: 'NULL'");
    } else if (!absl::EqualsIgnoreCase(ValueText(locale), "en_US")) {
      call.engine().SetError(mysql::errors::NotSupportedYet(
          absl::StrCat("FORMAT with locale '", ValueText(locale), "'")));
      return Value{};
    }
  }
  const Value x = call.Arg(0);
  if (IsNull(x)) return Value{};
  const int64_t dec = std::clamp<int64_t>(IntegerArg(places, call.engine()), 0, 30);
  std::string text;
  if (ClassOf(x) == Cls::kInt) {
    text = RoundDecimalText(ValueText(x), dec, /*truncate=*/false);
  } else if (const auto* d = std::get_if<mysql::Decimal>(&x)) {
    text = RoundDecimalText(d->text, dec, /*truncate=*/false);
  } else {
    const double r = RoundDouble(DoubleArg(x, call.engine()), dec, /*truncate=*/false);
    if (!std::isfinite(r)) return FormatDouble(r);
    text = absl::StrFormat("%.*f", static_cast<int>(dec), r);
  }
  const DecimalParts p = SplitDecimal(text);
  std::string out = p.negative ? "-" : "";
  for (size_t i = 0; i < p.whole.size(); ++i) {
    if (i > 0 && (p.whole.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(p.whole[i]);
  }
  if (dec > 0) absl::StrAppend(&out, ".", p.fraction);
  return out;
}

constexpr BuiltinFunction kNumericFunctions[] = {
    {"ABS", 1, 1, AbsType, AbsValue},
    {"CEIL", 1, 1, IntegralType, IntegralValue<true>},
    {"CEILING", 1, 1, IntegralType, IntegralValue<true>},
    {"FLOOR", 1, 1, IntegralType, IntegralValue<false>},
    {"FORMAT", 2, 3, FormatType, FormatValue},
    {"MOD", 2, 2, ModType, ModValue},
    {"ROUND", 1, 2, RoundType<false>, RoundValue<false>},
    {"SIGN", 1, 1, SignType, SignValue},
    {"TRUNCATE", 2, 2, RoundType<true>, RoundValue<true>},
};

}  // namespace

absl::Span<const BuiltinFunction> NumericFunctions() { return kNumericFunctions; }

}  // namespace shoal::sql::internal
