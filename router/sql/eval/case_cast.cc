// CASE and CAST / CONVERT: their result types and values, as MySQL 8.0 gives them
// (parse_case_cast.cc has their grammar). A CASE's result type aggregates its THEN and ELSE
// types (all integers stay integers, numbers widen to DECIMAL or DOUBLE, one temporal type
// stays itself, anything else is a string) and every branch's value is converted to it, so a
// column keeps one type whichever branch a row takes. CAST converts as MySQL does, with its
// warnings: 1292 for a truncated value, NULL and 1292 for a bad date or time.
#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/eval/expr_internal.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/json_args.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/json/json_print.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;
namespace flag = mysql::column_flag;

constexpr uint16_t kErTruncatedWrongValue = 1292;

// The THEN values and the ELSE value of a CASE, in order.
std::vector<const Expr*> ResultsOf(const Expr& e) {
  std::vector<const Expr*> results;
  const size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
  for (size_t i = (e.has_operand ? 1 : 0) + 1; i < pairs_end; i += 2) {
    results.push_back(e.args[i].get());
  }
  if (e.has_else) results.push_back(e.args.back().get());
  return results;
}

// Characters a value of column `c` shows as.
uint32_t CharsOf(const ColumnDefinition& c, const SessionState& state) {
  if (ClassOf(c) == Cls::kString && c.charset != mysql::charset::kBinary) {
    return c.length / static_cast<uint32_t>(std::max(ResultCharsetMaxLen(state), 1));
  }
  return c.length;
}

ColumnDefinition BinaryColumn(uint32_t bytes, const SessionState& state, Nullability n) {
  ColumnDefinition c = StringColumn(bytes, state, n);
  c.charset = mysql::charset::kBinary;
  c.length = bytes;
  c.flags |= flag::kBinary;
  return c;
}

uint32_t IntegerDigits(const ColumnDefinition& c) {
  if (ClassOf(c) == Cls::kDecimal) return (c.length > 2 ? c.length - 2 : 1) - c.decimals;
  return c.length;
}

}  // namespace

ColumnDefinition AggregateResultTypes(const std::vector<ColumnDefinition>& types,
                                      const SessionState& state, Nullability n) {
  std::vector<const ColumnDefinition*> typed;
  for (const ColumnDefinition& t : types) {
    if (ClassOf(t) != Cls::kNull) typed.push_back(&t);
  }
  if (typed.empty()) return NullColumn();
  bool all_int = true, all_numeric = true, any_real = false, all_unsigned = true;
  bool same_temporal = ClassOf(*typed[0]) == Cls::kTemporal;
  bool all_temporal = true;
  uint32_t length = 0, chars = 0, int_digits = 0;
  uint8_t scale = 0;
  for (const ColumnDefinition* t : typed) {
    const Cls cls = ClassOf(*t);
    all_int = all_int && cls == Cls::kInt;
    all_numeric = all_numeric && (cls == Cls::kInt || cls == Cls::kDecimal || cls == Cls::kReal);
    any_real = any_real || cls == Cls::kReal;
    all_unsigned = all_unsigned && (t->flags & flag::kUnsigned);
    same_temporal = same_temporal && t->type == typed[0]->type;
    all_temporal = all_temporal && cls == Cls::kTemporal;
    length = std::max(length, t->length);
    chars = std::max(chars, CharsOf(*t, state));
    int_digits = std::max(int_digits, IntegerDigits(*t));
    scale = std::max<uint8_t>(
        scale, cls == Cls::kDecimal || cls == Cls::kTemporal ? t->decimals : uint8_t{0});
  }
  if (all_int) return IntColumn(length, all_unsigned, n);
  if (all_numeric && any_real) return DoubleColumn(n);
  if (all_numeric) return DecimalColumn(std::min<uint32_t>(int_digits + scale, 65), scale, n);
  if (same_temporal) return TemporalColumn(typed[0]->type, scale, n);
  // Dates and times of different types meet as DATETIME (a DATE at midnight), as in MySQL.
  if (all_temporal) return TemporalColumn(ColumnType::kDateTime, scale, n);
  // As MySQL aggregates collations: a binary string makes the result one (VARBINARY); else a
  // _bin collation outweighs a _ci one of its charset, so the result compares bytes too.
  bool any_binary = false, any_bin = false;
  for (const ColumnDefinition* t : typed) {
    if (ClassOf(*t) != Cls::kString) continue;
    any_binary = any_binary || t->charset == mysql::charset::kBinary;
    any_bin = any_bin || IsBinaryCollationId(t->charset);
  }
  if (any_binary) return BinaryColumn(length, state, n);
  ColumnDefinition c = StringColumn(chars, state, n);
  if (any_bin) c.charset = BinCollationIdOf(c.charset);
  return c;
}

namespace {

// The integer MySQL reads from the start of `text` (spaces, a sign, digits), clamped to the
// 64-bit range; `whole` says whether that was all of it.
__int128 IntegerPrefix(absl::string_view text, bool* whole) {
  size_t i = 0;
  while (i < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  const size_t digits_from = i;
  __int128 value = 0;
  for (; i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (value < (static_cast<__int128>(1) << 70)) value = value * 10 + (text[i] - '0');
  }
  size_t end = i;
  while (end < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[end]))) ++end;
  *whole = i > digits_from && end == text.size();
  return negative ? -value : value;
}

// A temporal value as the integer MySQL reads from it: YYYYMMDD, YYYYMMDDhhmmss, hhmmss.
__int128 TemporalInteger(const Value& v) {
  if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    __int128 date = d->year * 10000 + d->month * 100 + d->day;
    if (d->date_only) return date;
    return date * 1000000 + d->hour * 10000 + d->minute * 100 + d->second;
  }
  const auto& t = std::get<mysql::Time>(v);
  __int128 hms = (t.days * 24 + t.hours) * 10000 + t.minutes * 100 + t.seconds;
  return t.negative ? -hms : hms;
}

// Whether `text` is a plain decimal number (digits, one point, a sign), as DECIMAL takes it.
bool IsDecimalText(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  bool digit = false, point = false;
  for (char c : text) {
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      return false;
    }
  }
  return digit;
}

}  // namespace

ColumnDefinition ExprEngine::CaseType(const Expr& e) {
  const SessionState& state = *ctx_.state;
  const size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
  // The operand and WHEN values are typed for their errors (an unknown column), not kept.
  if (e.has_operand) Type(*e.args[0]);
  for (size_t i = e.has_operand ? 1 : 0; i < pairs_end; i += 2) Type(*e.args[i]);
  std::vector<ColumnDefinition> types;
  bool not_null = e.has_else;
  for (const Expr* result : ResultsOf(e)) {
    types.push_back(Type(*result));
    not_null = not_null && NotNull(types.back());
  }
  return AggregateResultTypes(types, state,
                              not_null ? Nullability::kNotNull : Nullability::kNullable);
}

Value ExprEngine::CaseValue(const Expr& e) {
  const ColumnDefinition type = CaseType(e);
  const size_t pairs_end = e.args.size() - (e.has_else ? 1 : 0);
  Value operand = e.has_operand ? Eval(*e.args[0]) : Value{};
  for (size_t i = e.has_operand ? 1 : 0; i + 1 < pairs_end; i += 2) {
    Value when = Eval(*e.args[i]);
    bool match;
    if (e.has_operand) {
      std::optional<int> order = Compare(operand, when);
      match = order.has_value() && *order == 0;
    } else {
      match = Truth(when) == 1;
    }
    if (failed()) return Value{};
    if (match) return ConvertToColumn(Eval(*e.args[i + 1]), type);
  }
  if (e.has_else) return ConvertToColumn(Eval(*e.args.back()), type);
  return Value{};
}

ColumnDefinition ExprEngine::CastType(const Expr& e) {
  const SessionState& state = *ctx_.state;
  const CastTarget& cast = e.cast;
  ColumnDefinition arg = Type(*e.args[0]);
  const Nullability n = NotNull(arg) ? Nullability::kNotNull : Nullability::kNullable;
  if (!cast.charset.empty() && cast.charset != "binary" && FindCharset(cast.charset) == nullptr) {
    SetError(mysql::errors::UnknownCharacterSet(cast.charset));
    return NullColumn();
  }
  if (cast.name == "SIGNED") return IntColumn(std::max<uint32_t>(arg.length, 1), false, n);
  if (cast.name == "UNSIGNED") return IntColumn(std::max<uint32_t>(arg.length, 1), true, n);
  if (cast.name == "DECIMAL") {
    const int precision = cast.length >= 0 ? cast.length : 10;
    const int scale = cast.scale >= 0 ? cast.scale : 0;
    if (precision > 65 || precision < 1) {
      SetError(
          {1426, "42000",
           absl::StrCat("Too-big precision ", precision, " specified for 'CAST'. Maximum is 65.")});
      return NullColumn();
    }
    if (scale > 30 || scale > precision) {
      SetError({1425, "42000",
                absl::StrCat("Too big scale ", scale, " specified for 'CAST'. Maximum is 30.")});
      return NullColumn();
    }
    return DecimalColumn(static_cast<uint32_t>(precision), static_cast<uint8_t>(scale), n);
  }
  if (cast.name == "DOUBLE" || cast.name == "FLOAT") return DoubleColumn(n);
  if (cast.name == "JSON") {
    ColumnDefinition json = JsonColumn(state);
    if (n == Nullability::kNotNull) json.flags |= mysql::column_flag::kNotNull;
    return json;
  }
  // Dates and times: a value that is not one is NULL (an error for a literal).
  const Nullability temporal = cast.literal ? Nullability::kNotNull : Nullability::kNullable;
  if (cast.name == "DATE") return TemporalColumn(ColumnType::kDate, 0, temporal);
  if (cast.name == "DATETIME" || cast.name == "TIME") {
    const int fsp = std::max(cast.scale, 0);
    if (fsp > 6) {
      SetError({1426, "42000",
                absl::StrCat("Too-big precision ", fsp, " specified for 'CAST'. Maximum is 6.")});
      return NullColumn();
    }
    return TemporalColumn(cast.name == "TIME" ? ColumnType::kTime : ColumnType::kDateTime,
                          static_cast<uint8_t>(fsp), temporal);
  }
  const uint32_t chars = cast.length >= 0 ? static_cast<uint32_t>(cast.length)
                                          : std::max<uint32_t>(CharsOf(arg, state), 1);
  if (cast.name == "BINARY" || cast.charset == "binary") return BinaryColumn(chars, state, n);
  return StringColumn(chars, state, n);  // CHAR, CONVERT … USING
}

// CAST(x AS JSON): JSON stays as it is, a string is JSON text (3141), anything else becomes
// the JSON value it is (a number, true or false for a condition).
Value ExprEngine::CastToJson(const Expr& arg, Value v) {
  const ColumnDefinition type = Type(arg);
  if (type.type == ColumnType::kJson) return v;
  if (const auto* text = std::get_if<std::string>(&v)) {
    JsonParseResult parsed = ParseJson(*text);
    if (parsed.ok()) return PrintJson(parsed.value);
    if (parsed.error->code == JsonParseErrorCode::kTooDeep) {
      SetError({3157, "22032", "The JSON document exceeds the maximum depth."});
    } else {
      SetError(
          {3141, "22032",
           absl::StrCat("Invalid JSON text in argument 1 to function cast_as_json: \"",
                        parsed.error->reason(), "\" at position ", parsed.error->offset, ".")});
    }
    return Value{};
  }
  return PrintJson(JsonOfValue(v, type, IsBooleanExpr(arg)));
}

Value ExprEngine::IncorrectLiteral(const CastTarget& cast, const Value& v) {
  SetError({1525, "HY000", absl::StrCat("Incorrect ", cast.name, " value: '", ValueText(v), "'")});
  return Value{};
}

Value ExprEngine::CastValue(const Expr& e) {
  const ColumnDefinition type = CastType(e);
  Value v = Eval(*e.args[0]);
  if (failed() || IsNull(v)) return Value{};
  const CastTarget& cast = e.cast;
  if (cast.name == "SIGNED" || cast.name == "UNSIGNED" || cast.name == "DECIMAL" ||
      cast.name == "DOUBLE" || cast.name == "FLOAT") {
    v = HexNumber(*e.args[0], std::move(v));  // CAST(0x41 AS UNSIGNED) is 65
  }
  if (cast.name == "JSON") return CastToJson(*e.args[0], std::move(v));
  const Cls from = ClassOf(v);
  auto truncated = [this](absl::string_view what, const Value& value) {
    Warn(kErTruncatedWrongValue,
         absl::StrCat("Truncated incorrect ", what, " value: '", ValueText(value), "'"));
  };
  if (cast.name == "SIGNED" || cast.name == "UNSIGNED") {
    const bool is_unsigned = cast.name == "UNSIGNED";
    __int128 i = 0;
    if (from == Cls::kInt) {
      i = Int128(v);
    } else if (from == Cls::kTemporal) {
      i = TemporalInteger(v);
    } else if (from == Cls::kString) {
      bool whole = false;
      i = IntegerPrefix(std::get<std::string>(v), &whole);
      if (!whole) truncated("INTEGER", v);
    } else {
      bool lossy = false;
      long double d = std::roundl(ToLongDouble(v, &lossy));
      i = d >= 1.8446744073709551615e19L   ? static_cast<__int128>(UINT64_MAX)
          : d <= -9.223372036854775808e18L ? static_cast<__int128>(INT64_MIN)
                                           : static_cast<__int128>(d);
    }
    if (i > static_cast<__int128>(UINT64_MAX) || i < static_cast<__int128>(INT64_MIN)) {
      truncated("INTEGER", v);
      i = std::clamp<__int128>(i, INT64_MIN, UINT64_MAX);
    }
    // Two's complement either way, as MySQL's casts between signed and unsigned do.
    if (is_unsigned) {
      if (i < 0 && from == Cls::kString) {
        Note(1105, "Cast to unsigned converted negative integer to it's positive complement");
      }
      return i < 0 ? static_cast<uint64_t>(static_cast<int64_t>(i)) : static_cast<uint64_t>(i);
    }
    if (i > INT64_MAX) {
      if (from == Cls::kString) {
        Note(1105,
             "Cast to signed converted positive out-of-range integer to it's negative "
             "complement");
      }
      return static_cast<int64_t>(static_cast<uint64_t>(i));
    }
    return static_cast<int64_t>(i);
  }
  if (cast.name == "DECIMAL") {
    std::string text;
    if (from == Cls::kString && !IsDecimalText(std::get<std::string>(v))) {
      truncated("DECIMAL", v);
      bool lossy = false;
      text = FormatFixed(ToDouble(v, &lossy), type.decimals);
    } else if (from == Cls::kReal) {
      text = FormatFixed(std::get<double>(v), type.decimals);
    } else if (from == Cls::kTemporal) {
      text = ValueText(TemporalNumber(v));
    } else if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
      text = d->text;  // all its digits: CAST(1/3 AS DECIMAL(10,5)) is 0.33333
    } else {
      text = std::string(absl::StripAsciiWhitespace(ValueText(v)));
      if (!text.empty() && text[0] == '+') text.erase(0, 1);
    }
    text = RescaleDecimal(text, type.decimals);
    // Out of range: the largest value of the type, with MySQL's 1264.
    const uint32_t int_digits = IntegerDigits(type);
    const bool negative = !text.empty() && text[0] == '-';
    const size_t dot = text.find('.');
    const size_t digits = (dot == std::string::npos ? text.size() : dot) - (negative ? 1 : 0);
    if (digits > int_digits && !(digits == 1 && text[negative ? 1 : 0] == '0')) {
      Warn(1264, "Out of range value for column 'CAST' at row 1");
      text = std::string(negative ? "-" : "") + std::string(std::max<uint32_t>(int_digits, 1), '9');
      if (int_digits == 0) text = negative ? "-0" : "0";
      if (type.decimals > 0) absl::StrAppend(&text, ".", std::string(type.decimals, '9'));
    }
    return mysql::Decimal{text};
  }
  if (cast.name == "DOUBLE" || cast.name == "FLOAT") {
    if (from == Cls::kTemporal) return static_cast<double>(TemporalInteger(v));
    bool lossy = false;
    double d = ToDouble(v, &lossy);
    if (lossy) truncated("DOUBLE", v);
    return d;
  }
  if (cast.name == "DATE" || cast.name == "DATETIME") {
    std::optional<mysql::DateTime> dt;
    if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
      dt = *d;
    } else if (from != Cls::kTemporal) {
      dt = DateTimeFromText(ValueText(v));
    }
    if (!dt.has_value()) {
      if (cast.literal) return IncorrectLiteral(cast, v);
      Warn(kErTruncatedWrongValue, absl::StrCat("Incorrect datetime value: '", ValueText(v), "'"));
      return Value{};
    }
    if (cast.name == "DATE") {
      dt->hour = dt->minute = dt->second = 0;
      dt->microsecond = 0;
    } else {
      const uint32_t unit = static_cast<uint32_t>(std::pow(10, 6 - type.decimals));
      dt->microsecond = dt->microsecond / unit * unit;
    }
    return ConvertToColumn(Value{*dt}, type);  // reads as text as `type` says
  }
  if (cast.name == "TIME") {
    if (const auto* t = std::get_if<mysql::Time>(&v)) return ConvertToColumn(Value{*t}, type);
    if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
      mysql::Time t;
      t.hours = d->hour;
      t.minutes = d->minute;
      t.seconds = d->second;
      t.microsecond = d->microsecond;
      return ConvertToColumn(Value{t}, type);
    }
    std::optional<int64_t> micros = TimeMicrosFromText(ValueText(v));
    if (!micros.has_value()) {
      if (cast.literal) return IncorrectLiteral(cast, v);
      Warn(kErTruncatedWrongValue, absl::StrCat("Incorrect time value: '", ValueText(v), "'"));
      return Value{};
    }
    mysql::Time t;
    t.negative = *micros < 0;
    int64_t m = t.negative ? -*micros : *micros;
    const int64_t unit = static_cast<int64_t>(std::pow(10, 6 - type.decimals));
    t.microsecond = static_cast<uint32_t>(m % 1000000 / unit * unit);
    m /= 1000000;
    t.seconds = static_cast<uint8_t>(m % 60);
    t.minutes = static_cast<uint8_t>(m / 60 % 60);
    t.hours = static_cast<uint8_t>(m / 3600 % 24);
    t.days = static_cast<uint32_t>(m / 86400);
    return ConvertToColumn(Value{t}, type);
  }
  // CHAR, BINARY, CONVERT … USING: the value's text, cut to the length asked for (BINARY(n)
  // pads with zero bytes).
  std::string text = ValueText(v);
  if (cast.length >= 0) {
    const bool binary = cast.name == "BINARY";
    const size_t length = static_cast<size_t>(cast.length);
    const size_t size = binary ? text.size() : CharLength(text);
    if (size > length) {
      truncated(absl::StrCat(binary ? "BINARY(" : "CHAR(", length, ")"), v);
      text = binary ? text.substr(0, length) : std::string(Utf8FirstChars(text, length));
    } else if (binary) {
      text.resize(length, '\0');
    }
  }
  return text;
}

}  // namespace shoal::sql::internal
