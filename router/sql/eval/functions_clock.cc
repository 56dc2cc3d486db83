// The clock: NOW() and its synonyms, CURDATE(), CURTIME(), the UTC_ forms and
// UNIX_TIMESTAMP(). One statement sees one instant (EvalContext::now), in the session's time
// zone or in UTC. And the conversions between dates and Unix time, in the session's time zone:
// UNIX_TIMESTAMP(date) and FROM_UNIXTIME(seconds[, format]).
#include <algorithm>
#include <cmath>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

// The fractional-seconds precision argument of NOW(n) and friends: a literal 0..6.
bool Precision(const Expr& e, ExprEngine& engine, uint8_t* fsp) {
  *fsp = 0;
  if (e.args.empty()) return true;
  const Expr& a = *e.args[0];
  int64_t v = 0;
  if (a.kind != ExprKind::kLiteral || a.literal != LiteralKind::kInteger ||
      !absl::SimpleAtoi(a.text, &v)) {
    engine.SetError(mysql::errors::WrongArguments(absl::AsciiStrToLower(e.name)));
    return false;
  }
  if (v > 6) {
    engine.SetError({1426, "42000",
                     absl::StrCat("Too-big precision ", v, " specified for '",
                                  absl::AsciiStrToLower(e.name), "'. Maximum is 6.")});
    return false;
  }
  *fsp = static_cast<uint8_t>(v);
  return true;
}

// The session's time zone: SYSTEM (= system_time_zone, UTC) or a fixed offset.
absl::TimeZone SessionTimeZone(const SessionState& state) {
  const int offset = SessionUtcOffset(state);
  return offset == 0 ? absl::UTCTimeZone() : absl::FixedTimeZone(offset);
}

mysql::DateTime ToDateTime(absl::Time t, absl::TimeZone tz, uint8_t fsp) {
  absl::TimeZone::CivilInfo ci = tz.At(t);
  absl::CivilSecond cs = ci.cs;
  int64_t micros = absl::ToInt64Microseconds(ci.subsecond);
  int64_t unit = 1;
  for (int i = fsp; i < 6; ++i) unit *= 10;
  micros -= micros % unit;
  mysql::DateTime d;
  d.year = static_cast<uint16_t>(cs.year());
  d.month = static_cast<uint8_t>(cs.month());
  d.day = static_cast<uint8_t>(cs.day());
  d.hour = static_cast<uint8_t>(cs.hour());
  d.minute = static_cast<uint8_t>(cs.minute());
  d.second = static_cast<uint8_t>(cs.second());
  d.microsecond = static_cast<uint32_t>(micros);
  return d;
}

// The statement's instant in the session's time zone (`utc` false) or in UTC; false (with
// the error set) for a bad precision argument.
bool Clock(EvalCall& call, bool utc, mysql::DateTime* out) {
  uint8_t fsp = 0;
  if (!Precision(call.expr(), call.engine(), &fsp)) return false;
  const absl::TimeZone tz = utc ? absl::UTCTimeZone() : SessionTimeZone(call.state());
  *out = ToDateTime(call.engine().ctx().now, tz, fsp);
  return true;
}

mysql::Time TimeOfDay(const mysql::DateTime& d) {
  mysql::Time t;
  t.hours = d.hour;
  t.minutes = d.minute;
  t.seconds = d.second;
  t.microsecond = d.microsecond;
  return t;
}

ColumnDefinition DateTimeType(const TypingCall& call) {
  uint8_t fsp = 0;
  if (!Precision(call.expr, call.engine, &fsp)) return NullColumn();
  return TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNotNull);
}
ColumnDefinition CurrentDateType(const TypingCall&) {
  return TemporalColumn(ColumnType::kDate, 0, Nullability::kNotNull);
}
ColumnDefinition TimeType(const TypingCall& call) {
  uint8_t fsp = 0;
  if (!Precision(call.expr, call.engine, &fsp)) return NullColumn();
  return TemporalColumn(ColumnType::kTime, fsp, Nullability::kNotNull);
}

template <bool kUtc>
Value NowValue(EvalCall& call) {
  mysql::DateTime d;
  if (!Clock(call, kUtc, &d)) return Value{};
  return d;
}

template <bool kUtc>
Value CurDateValue(EvalCall& call) {
  mysql::DateTime d;
  if (!Clock(call, kUtc, &d)) return Value{};
  d.hour = d.minute = d.second = 0;
  d.microsecond = 0;
  return d;
}

template <bool kUtc>
Value CurTimeValue(EvalCall& call) {
  mysql::DateTime d;
  if (!Clock(call, kUtc, &d)) return Value{};
  return TimeOfDay(d);
}

// The largest Unix time MySQL 8.0 converts (3001-01-19 03:14:07.999999 UTC).
constexpr int64_t kMaxUnixSeconds = 32536771199;

// MySQL's datetime_precision of an argument: a constant string's written fraction digits, a
// temporal or decimal column's own, 6 for other strings and doubles, 0 for integers.
uint8_t DateTimePrecision(const Expr& e, const ColumnDefinition& c) {
  if (e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kString) {
    const size_t dot = e.text.find('.');
    if (dot == std::string::npos) return 0;
    size_t digits = 0;
    while (dot + 1 + digits < e.text.size() && absl::ascii_isdigit(e.text[dot + 1 + digits])) {
      ++digits;
    }
    return static_cast<uint8_t>(std::min<size_t>(digits, 6));
  }
  return ClassOf(c) == Cls::kInt ? 0 : static_cast<uint8_t>(std::min<int>(c.decimals, 6));
}

// UNIX_TIMESTAMP(date) is a DECIMAL when the date has a fraction, else an integer.
ColumnDefinition UnixTimestampType(const TypingCall& call) {
  if (call.args.empty()) return IntColumn(11, false, Nullability::kNotNull);
  const uint8_t fsp = DateTimePrecision(*call.expr.args[0], call.args[0]);
  const Nullability n = NullableIfAny(call.args);
  return fsp == 0 ? IntColumn(11, false, n) : DecimalColumn(11 + fsp, fsp, n);
}

// Seconds since 1970 of `date` in the session's time zone; 0 for what is not a date or lies
// outside the TIMESTAMP range, as MySQL answers.
Value UnixTimestampValue(EvalCall& call) {
  if (call.arg_count() == 0) return absl::ToUnixSeconds(call.engine().ctx().now);
  const Value v = call.Arg(0);
  if (IsNull(v)) return Value{};
  const uint8_t fsp = call.ResultType().decimals;
  mysql::DateTime d;
  int64_t seconds = 0;
  uint32_t micros = 0;
  if (DateArg(v, call.engine(), &d)) {
    const absl::CivilSecond cs(d.year, d.month, d.day, d.hour, d.minute, d.second);
    seconds = absl::ToUnixSeconds(absl::FromCivil(cs, SessionTimeZone(call.state())));
    micros = d.microsecond;
    if (seconds < 1 || seconds > kMaxUnixSeconds) seconds = micros = 0;
  }
  if (fsp == 0) return seconds;
  std::string fraction = absl::StrFormat("%06u", micros);
  return mysql::Decimal{absl::StrCat(seconds, ".", fraction.substr(0, fsp))};
}

// FROM_UNIXTIME(n) keeps n's fraction digits; with a format it is DATE_FORMAT's string.
ColumnDefinition FromUnixTimeType(const TypingCall& call) {
  if (call.args.size() == 2) return DateFormatType(call);
  const uint8_t fsp =
      ClassOf(call.args[0]) == Cls::kInt ? 0 : std::min<uint8_t>(call.args[0].decimals, 6);
  return TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNullable);
}

// NULL for a negative time or one past MySQL's range.
Value FromUnixTimeValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const bool integer =
      std::holds_alternative<int64_t>(args[0]) || std::holds_alternative<uint64_t>(args[0]);
  const long double t = integer ? static_cast<long double>(IntegerArg(args[0], call.engine()))
                                : DoubleArg(args[0], call.engine());
  if (t < 0 || t >= kMaxUnixSeconds + 1) return Value{};
  const int64_t seconds = static_cast<int64_t>(t);
  const int64_t micros = static_cast<int64_t>(std::llround((t - seconds) * 1000000));
  const absl::Time at = absl::FromUnixSeconds(seconds) + absl::Microseconds(micros);
  const uint8_t fsp = args.size() == 2 ? 6 : call.ResultType().decimals;
  mysql::DateTime d = ToDateTime(at, SessionTimeZone(call.state()), fsp);
  if (args.size() == 1) return d;
  std::string out;
  FormatDate(d, ValueText(args[1]), &out);
  return out;
}

// CONVERT_TZ(dt, from, to): a DATETIME with dt's fraction digits.
ColumnDefinition ConvertTzType(const TypingCall& call) {
  return TemporalColumn(ColumnType::kDateTime, DateTimePrecision(*call.expr.args[0], call.args[0]),
                        Nullability::kNullable);
}

// A time zone CONVERT_TZ knows: '+hh:mm' offsets and SYSTEM (the server's, UTC). Named zones
// need MySQL's time zone tables, which Shoal (like a server where mysql_tzinfo_to_sql never
// ran) does not have: they make the result NULL, as there.
std::optional<absl::TimeZone> KnownTimeZone(const Value& v) {
  const std::string name = ValueText(v);
  int offset = 0;
  if (ParseTimeZoneOffset(name, &offset)) return absl::FixedTimeZone(offset);
  if (absl::EqualsIgnoreCase(name, "SYSTEM")) return absl::UTCTimeZone();
  return std::nullopt;
}

// As MySQL: a value whose time in `from` lies outside the TIMESTAMP range comes back as it is.
Value ConvertTzValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  mysql::DateTime d;
  std::optional<absl::TimeZone> from = KnownTimeZone(args[1]), to = KnownTimeZone(args[2]);
  if (!DateArg(args[0], call.engine(), &d) || !from || !to) return Value{};
  const absl::CivilSecond cs(d.year, d.month, d.day, d.hour, d.minute, d.second);
  const absl::Time at = absl::FromCivil(cs, *from);
  const int64_t seconds = absl::ToUnixSeconds(at);
  if (seconds < 1 || seconds > kMaxUnixSeconds) return d;
  const uint32_t micros = d.microsecond;
  mysql::DateTime out = ToDateTime(at, *to, 0);
  out.microsecond = micros;
  return out;
}

constexpr BuiltinFunction kClockFunctions[] = {
    {"CONVERT_TZ", 3, 3, ConvertTzType, ConvertTzValue},
    {"CURDATE", 0, 0, CurrentDateType, CurDateValue<false>},
    {"CURRENT_DATE", 0, 0, CurrentDateType, CurDateValue<false>},
    {"CURRENT_TIME", 0, 1, TimeType, CurTimeValue<false>},
    {"CURRENT_TIMESTAMP", 0, 1, DateTimeType, NowValue<false>},
    {"CURTIME", 0, 1, TimeType, CurTimeValue<false>},
    {"LOCALTIME", 0, 1, DateTimeType, NowValue<false>},
    {"LOCALTIMESTAMP", 0, 1, DateTimeType, NowValue<false>},
    {"NOW", 0, 1, DateTimeType, NowValue<false>},
    {"SYSDATE", 0, 1, DateTimeType, NowValue<false>},
    {"FROM_UNIXTIME", 1, 2, FromUnixTimeType, FromUnixTimeValue},
    {"UNIX_TIMESTAMP", 0, 1, UnixTimestampType, UnixTimestampValue},
    {"UTC_DATE", 0, 0, CurrentDateType, CurDateValue<true>},
    {"UTC_TIME", 0, 1, TimeType, CurTimeValue<true>},
    {"UTC_TIMESTAMP", 0, 1, DateTimeType, NowValue<true>},
};

}  // namespace

absl::Span<const BuiltinFunction> ClockFunctions() { return kClockFunctions; }

mysql::DateTime SessionNow(const ExprEngine& engine, uint8_t fsp) {
  return ToDateTime(engine.ctx().now, SessionTimeZone(*engine.ctx().state), fsp);
}

}  // namespace shoal::sql::internal

namespace shoal::sql {

mysql::DateTime StatementNow(const SessionState& state, absl::Time now, uint8_t fsp) {
  return internal::ToDateTime(now, internal::SessionTimeZone(state), fsp);
}

}  // namespace shoal::sql
