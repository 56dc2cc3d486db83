// The calendar: LAST_DAY, DAYOFWEEK, WEEKDAY, DAYOFYEAR, QUARTER, DAYNAME, MONTHNAME, TO_DAYS,
// FROM_DAYS, MAKEDATE; and durations: TIME_TO_SEC, SEC_TO_TIME. Dates are read as the other
// temporal functions read them (DateArg): what is not one is NULL with MySQL's warning.
#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/temporal_text.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

int WeekdayOf(const mysql::DateTime& d) {  // Monday = 0
  return static_cast<int>(absl::GetWeekday(absl::CivilDay(d.year, d.month, d.day)));
}

// An integer computed from a date: `kChars` digits at most.
template <uint32_t kChars>
ColumnDefinition IntType(const TypingCall&) {
  return IntColumn(kChars, false, Nullability::kNullable);
}
template <int64_t (*kOf)(const mysql::DateTime&)>
Value FromDateValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  return kOf(d);
}
int64_t DayOfWeek(const mysql::DateTime& d) { return (WeekdayOf(d) + 1) % 7 + 1; }  // Sunday 1
int64_t Weekday(const mysql::DateTime& d) { return WeekdayOf(d); }
int64_t DayOfYear(const mysql::DateTime& d) {
  return absl::GetYearDay(absl::CivilDay(d.year, d.month, d.day));
}
int64_t Quarter(const mysql::DateTime& d) { return (d.month + 2) / 3; }
int64_t ToDays(const mysql::DateTime& d) { return DayNumber(d); }

// DAYNAME and MONTHNAME: the longest English names have nine letters.
ColumnDefinition NameType(const TypingCall& call) {
  return StringResult(9, call.state(), Nullability::kNullable);
}
template <bool kMonth>
Value NameValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  return std::string(kMonth ? MonthName(d.month) : DayName(WeekdayOf(d)));
}

ColumnDefinition CalendarDateType(const TypingCall&) {
  return TemporalColumn(ColumnType::kDate, 0, Nullability::kNullable);
}

Value LastDayValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  return mysql::DateTime{d.year, d.month, static_cast<uint8_t>(DaysIn(d.year, d.month))};
}

// Before year 1 (and past 9999) MySQL's get_date_from_daynr answers the zero date.
Value FromDaysValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return Value{};
  mysql::DateTime d;
  if (!DateOfDayNumber(IntegerArg(v, call.engine()), &d)) return mysql::DateTime{};
  return d;
}

// MAKEDATE(year, day of year): years 0..99 are 2000..2069 and 1970..1999, as two-digit years
// read; NULL for a day of year below 1 or a date past 9999.
Value MakeDateValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  int64_t year = IntegerArg(args[0], call.engine());
  const int64_t day = IntegerArg(args[1], call.engine());
  if (year < 0 || year > 9999 || day <= 0) return Value{};
  if (year < 100) year += year < 70 ? 2000 : 1900;
  const int64_t n = DayNumber(mysql::DateTime{static_cast<uint16_t>(year), 1, 1}) + day - 1;
  mysql::DateTime d;
  if (day > kMaxDayNumber || !DateOfDayNumber(n, &d)) return Value{};
  return d;
}

ColumnDefinition TimeToSecType(const TypingCall&) {
  return IntColumn(10, false, Nullability::kNullable);
}
Value TimeToSecValue(EvalCall& call) {
  const Value v = call.Arg(0);
  int64_t micros = 0;
  if (IsNull(v) || !TimeArg(v, call.engine(), &micros)) return Value{};
  return micros / kMicrosPerSecond;  // truncated toward zero, as the fraction is dropped
}

// SEC_TO_TIME keeps the argument's fraction digits (6 for a string or a double).
ColumnDefinition SecToTimeType(const TypingCall& call) {
  const uint8_t fsp =
      ClassOf(call.args[0]) == Cls::kInt ? 0 : std::min<uint8_t>(call.args[0].decimals, 6);
  return TemporalColumn(ColumnType::kTime, fsp, Nullability::kNullable);
}
Value SecToTimeValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return Value{};
  long double micros = 0;
  if (std::holds_alternative<int64_t>(v) || std::holds_alternative<uint64_t>(v)) {
    micros = static_cast<long double>(IntegerArg(v, call.engine())) * kMicrosPerSecond;
  } else {
    const int fsp = call.ResultType().decimals;
    const long double unit = std::pow(10.0L, 6 - fsp);
    micros = std::round(DoubleArg(v, call.engine()) * kMicrosPerSecond / unit) * unit;
  }
  if (std::fabs(micros) > kMaxTimeMicros) {
    call.engine().Warn(1292, absl::StrCat("Truncated incorrect time value: '", ValueText(v), "'"));
    micros = micros < 0 ? -kMaxTimeMicros : kMaxTimeMicros;
  }
  return TimeOfMicros(static_cast<int64_t>(micros));
}

constexpr BuiltinFunction kCalendarFunctions[] = {
    {"DAYNAME", 1, 1, NameType, NameValue<false>},
    {"DAYOFWEEK", 1, 1, IntType<1>, FromDateValue<DayOfWeek>},
    {"DAYOFYEAR", 1, 1, IntType<3>, FromDateValue<DayOfYear>},
    {"FROM_DAYS", 1, 1, CalendarDateType, FromDaysValue},
    {"LAST_DAY", 1, 1, CalendarDateType, LastDayValue},
    {"MAKEDATE", 2, 2, CalendarDateType, MakeDateValue},
    {"MONTHNAME", 1, 1, NameType, NameValue<true>},
    {"QUARTER", 1, 1, IntType<1>, FromDateValue<Quarter>},
    {"SEC_TO_TIME", 1, 1, SecToTimeType, SecToTimeValue},
    {"TIME_TO_SEC", 1, 1, TimeToSecType, TimeToSecValue},
    {"TO_DAYS", 1, 1, IntType<6>, FromDateValue<ToDays>},
    {"WEEKDAY", 1, 1, IntType<1>, FromDateValue<Weekday>},
};

}  // namespace

absl::Span<const BuiltinFunction> CalendarFunctions() { return kCalendarFunctions; }

}  // namespace shoal::sql::internal
