// The clock: NOW() and its synonyms, CURDATE(), CURTIME(), the UTC_ forms and
// UNIX_TIMESTAMP(). One statement sees one instant (EvalContext::now), in the session's time
// zone or in UTC.
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
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

constexpr Nullability kNotNull = Nullability::kNotNull;

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
  const SysVarDef* def = FindSysVar("time_zone");
  Value v = SessionValue(*def, state);
  int offset = 0;
  if (const auto* s = std::get_if<std::string>(&v);
      s != nullptr && ParseTimeZoneOffset(*s, &offset)) {
    return absl::FixedTimeZone(offset);
  }
  return absl::UTCTimeZone();
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
  return TemporalColumn(ColumnType::kDateTime, fsp, kNotNull);
}
ColumnDefinition DateType(const TypingCall&) {
  return TemporalColumn(ColumnType::kDate, 0, kNotNull);
}
ColumnDefinition TimeType(const TypingCall& call) {
  uint8_t fsp = 0;
  if (!Precision(call.expr, call.engine, &fsp)) return NullColumn();
  return TemporalColumn(ColumnType::kTime, fsp, kNotNull);
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

ColumnDefinition UnixTimestampType(const TypingCall&) { return IntColumn(11, false, kNotNull); }
Value UnixTimestampValue(EvalCall& call) { return absl::ToUnixSeconds(call.engine().ctx().now); }

constexpr BuiltinFunction kClockFunctions[] = {
    {"CURDATE", 0, 0, DateType, CurDateValue<false>},
    {"CURRENT_DATE", 0, 0, DateType, CurDateValue<false>},
    {"CURRENT_TIME", 0, 1, TimeType, CurTimeValue<false>},
    {"CURRENT_TIMESTAMP", 0, 1, DateTimeType, NowValue<false>},
    {"CURTIME", 0, 1, TimeType, CurTimeValue<false>},
    {"LOCALTIME", 0, 1, DateTimeType, NowValue<false>},
    {"LOCALTIMESTAMP", 0, 1, DateTimeType, NowValue<false>},
    {"NOW", 0, 1, DateTimeType, NowValue<false>},
    {"SYSDATE", 0, 1, DateTimeType, NowValue<false>},
    {"UNIX_TIMESTAMP", 0, 0, UnixTimestampType, UnixTimestampValue},
    {"UTC_DATE", 0, 0, DateType, CurDateValue<true>},
    {"UTC_TIME", 0, 1, TimeType, CurTimeValue<true>},
    {"UTC_TIMESTAMP", 0, 1, DateTimeType, NowValue<true>},
};

}  // namespace

absl::Span<const BuiltinFunction> ClockFunctions() { return kClockFunctions; }

mysql::DateTime SessionNow(const ExprEngine& engine, uint8_t fsp) {
  return ToDateTime(engine.ctx().now, SessionTimeZone(*engine.ctx().state), fsp);
}

}  // namespace shoal::sql::internal
