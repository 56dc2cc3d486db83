// Parts of dates and times: YEAR, MONTH, DAY (DAYOFMONTH), HOUR, MINUTE, SECOND, DATE,
// DATEDIFF and DATE_FORMAT. Arguments are read as MySQL reads them: a DATETIME as itself, a
// string or a number as a date ('2024-01-02 10:00:00', 20240102), a TIME on today's date.
// What does not read as one is NULL, with MySQL's warning.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/temporal_text.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

constexpr uint16_t kErTruncatedWrongValue = 1292;

absl::CivilSecond CivilOf(const mysql::DateTime& d) {
  return absl::CivilSecond(d.year, d.month, d.day, d.hour, d.minute, d.second);
}

}  // namespace

bool DateArg(const Value& v, ExprEngine& engine, mysql::DateTime* out) {
  if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    *out = *d;
    return true;
  }
  if (const auto* t = std::get_if<mysql::Time>(&v)) {
    const int64_t seconds =
        ((static_cast<int64_t>(t->days) * 24 + t->hours) * 60 + t->minutes) * 60 + t->seconds;
    mysql::DateTime today = SessionNow(engine, 0);
    today.hour = today.minute = today.second = 0;
    const absl::CivilSecond at = CivilOf(today) + (t->negative ? -seconds : seconds);
    *out = {static_cast<uint16_t>(at.year()),
            static_cast<uint8_t>(at.month()),
            static_cast<uint8_t>(at.day()),
            static_cast<uint8_t>(at.hour()),
            static_cast<uint8_t>(at.minute()),
            static_cast<uint8_t>(at.second()),
            t->microsecond};
    return true;
  }
  const std::string text = ValueText(v);
  if (std::optional<mysql::DateTime> d = DateTimeFromText(text)) {
    *out = *d;
    return true;
  }
  engine.Warn(kErTruncatedWrongValue, absl::StrCat("Incorrect datetime value: '", text, "'"));
  return false;
}

bool TimeArg(const Value& v, ExprEngine& engine, int64_t* micros) {
  if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    *micros = ((d->hour * 60 + d->minute) * 60 + d->second) * kMicrosPerSecond + d->microsecond;
    return true;
  }
  if (const auto* t = std::get_if<mysql::Time>(&v)) {
    const int64_t seconds =
        ((static_cast<int64_t>(t->days) * 24 + t->hours) * 60 + t->minutes) * 60 + t->seconds;
    const int64_t m = seconds * kMicrosPerSecond + t->microsecond;
    *micros = t->negative ? -m : m;
    return true;
  }
  const std::string text = ValueText(v);
  if (std::optional<int64_t> m = TimeMicrosFromText(text)) {
    *micros = *m;
    return true;
  }
  engine.Warn(kErTruncatedWrongValue, absl::StrCat("Truncated incorrect time value: '", text, "'"));
  return false;
}

mysql::Time TimeOfMicros(int64_t micros) {
  mysql::Time t;
  t.negative = micros < 0;
  const int64_t m = t.negative ? -micros : micros;
  const int64_t seconds = m / kMicrosPerSecond;
  t.days = static_cast<uint32_t>(seconds / 86400);
  t.hours = static_cast<uint8_t>(seconds / 3600 % 24);
  t.minutes = static_cast<uint8_t>(seconds / 60 % 60);
  t.seconds = static_cast<uint8_t>(seconds % 60);
  t.microsecond = static_cast<uint32_t>(m % kMicrosPerSecond);
  return t;
}

int64_t DayNumber(const mysql::DateTime& d) {
  // MySQL's calc_daynr gives year 0 only 365 days: from year 1 on, the days since 0000-01-01
  // of the proleptic calendar (which has year 0 leap) are its numbers.
  return absl::CivilDay(d.year, d.month, d.day) - absl::CivilDay(0, 1, 1);
}

bool DateOfDayNumber(int64_t n, mysql::DateTime* out) {
  // Days 1..365 are year 0, which MySQL's dates do not reach either.
  if (n <= 365 || n > kMaxDayNumber) return false;
  const absl::CivilDay day = absl::CivilDay(0, 1, 1) + n;
  *out = mysql::DateTime{static_cast<uint16_t>(day.year()), static_cast<uint8_t>(day.month()),
                         static_cast<uint8_t>(day.day())};
  return true;
}

namespace {

// A part of the date: YEAR, MONTH, DAY. NULL for what is not a date, whatever the argument.
template <uint32_t kDigits>
ColumnDefinition PartType(const TypingCall&) {
  return IntColumn(kDigits, false, Nullability::kNullable);
}
template <int (*kPart)(const mysql::DateTime&)>
Value DatePartValue(EvalCall& call) {
  Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  return int64_t{kPart(d)};
}
int YearOf(const mysql::DateTime& d) { return d.year; }
int MonthOf(const mysql::DateTime& d) { return d.month; }
int DayOf(const mysql::DateTime& d) { return d.day; }

// A part of the time: HOUR (of a duration: all of its hours), MINUTE, SECOND.
template <int64_t (*kPart)(int64_t seconds)>
Value TimePartValue(EvalCall& call) {
  Value v = call.Arg(0);
  int64_t micros = 0;
  if (IsNull(v) || !TimeArg(v, call.engine(), &micros)) return Value{};
  return kPart((micros < 0 ? -micros : micros) / kMicrosPerSecond);
}
int64_t HoursOf(int64_t seconds) { return seconds / 3600; }
int64_t MinutesOf(int64_t seconds) { return seconds / 60 % 60; }
int64_t SecondsOf(int64_t seconds) { return seconds % 60; }

// MICROSECOND: the fraction of the second, in microseconds.
Value MicrosecondValue(EvalCall& call) {
  Value v = call.Arg(0);
  int64_t micros = 0;
  if (IsNull(v) || !TimeArg(v, call.engine(), &micros)) return Value{};
  return (micros < 0 ? -micros : micros) % kMicrosPerSecond;
}

ColumnDefinition DateType(const TypingCall&) {
  return TemporalColumn(ColumnType::kDate, 0, Nullability::kNullable);
}
Value DateValue(EvalCall& call) {
  Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  d.hour = d.minute = d.second = 0;
  d.microsecond = 0;
  return d;
}

ColumnDefinition DateDiffType(const TypingCall&) {
  return IntColumn(11, false, Nullability::kNullable);
}
// Days from the second date to the first; the times of day do not count.
Value DateDiffValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  mysql::DateTime a, b;
  if (!DateArg(args[0], call.engine(), &a) || !DateArg(args[1], call.engine(), &b)) {
    return Value{};
  }
  return static_cast<int64_t>(absl::CivilDay(CivilOf(a)) - absl::CivilDay(CivilOf(b)));
}

// ---------------------------------------------------------------------------------------
// DATE_FORMAT

constexpr const char* kMonthNames[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
// Monday first, as absl::Weekday counts.
constexpr const char* kDayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                     "Friday", "Saturday", "Sunday"};

}  // namespace

absl::string_view MonthName(int month) {
  return month >= 1 && month <= 12 ? kMonthNames[month - 1] : "";
}
absl::string_view DayName(int weekday) { return kDayNames[weekday]; }

namespace {

// The characters a format can produce: MySQL's Item_func_date_format::format_length (room
// for long month and day names in any locale).
uint64_t FormatLength(absl::string_view format) {
  uint64_t size = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      ++size;
      continue;
    }
    switch (format[++i]) {
      case 'M':
      case 'W':
        size += 64;
        break;
      case 'a':
      case 'b':
        size += 32;
        break;
      case 'D':
      case 'Y':
      case 'x':
      case 'X':
        size += 4;
        break;
      case 'j':
        size += 3;
        break;
      case 'k':
      case 'H':
        size += 7;  // a TIME's hours go to 838
        break;
      case 'r':
        size += 11;
        break;
      case 'T':
        size += 8;
        break;
      case 'f':
        size += 6;
        break;
      case 'U':
      case 'u':
      case 'V':
      case 'v':
      case 'y':
      case 'm':
      case 'd':
      case 'h':
      case 'I':
      case 'i':
      case 'l':
      case 'p':
      case 'S':
      case 's':
      case 'c':
      case 'e':
        size += 2;
        break;
      default:
        ++size;
        break;
    }
  }
  return size;
}

}  // namespace

ColumnDefinition DateFormatType(const TypingCall& call) {
  const Expr& format = *call.expr.args[1];
  const uint64_t chars = format.kind == ExprKind::kLiteral && format.literal == LiteralKind::kString
                             ? FormatLength(format.text)
                             : uint64_t{DisplayChars(call.args[1], call.state())} * 10;
  return StringResult(chars, call.state(), Nullability::kNullable);
}

namespace {

int Hour12(int hour) { return hour % 12 == 0 ? 12 : hour % 12; }

absl::string_view DaySuffix(int day) {
  if (day >= 11 && day <= 13) return "th";
  switch (day % 10) {
    case 1:
      return "st";
    case 2:
      return "nd";
    case 3:
      return "rd";
    default:
      return "th";
  }
}

// Appends what specifier `c` makes of `d`.
void AppendSpecifier(char c, const mysql::DateTime& d, std::string* out) {
  const absl::CivilDay day(d.year, d.month, d.day);
  const int weekday = static_cast<int>(absl::GetWeekday(day));  // Monday = 0
  const absl::string_view month_name =
      d.month >= 1 && d.month <= 12 ? kMonthNames[d.month - 1] : "";
  switch (c) {
    case 'Y':
      absl::StrAppendFormat(out, "%04d", d.year);
      break;
    case 'y':
      absl::StrAppendFormat(out, "%02d", d.year % 100);
      break;
    case 'm':
      absl::StrAppendFormat(out, "%02d", d.month);
      break;
    case 'c':
      absl::StrAppend(out, d.month);
      break;
    case 'M':
      absl::StrAppend(out, month_name);
      break;
    case 'b':
      absl::StrAppend(out, month_name.substr(0, 3));
      break;
    case 'd':
      absl::StrAppendFormat(out, "%02d", d.day);
      break;
    case 'e':
      absl::StrAppend(out, d.day);
      break;
    case 'D':
      absl::StrAppend(out, d.day, DaySuffix(d.day));
      break;
    case 'j':
      absl::StrAppendFormat(out, "%03d", absl::GetYearDay(day));
      break;
    case 'W':
      absl::StrAppend(out, kDayNames[weekday]);
      break;
    case 'a':
      absl::StrAppend(out, absl::string_view(kDayNames[weekday]).substr(0, 3));
      break;
    case 'w':
      absl::StrAppend(out, (weekday + 1) % 7);  // Sunday = 0
      break;
    case 'H':
      absl::StrAppendFormat(out, "%02d", d.hour);
      break;
    case 'k':
      absl::StrAppend(out, d.hour);
      break;
    case 'h':
    case 'I':
      absl::StrAppendFormat(out, "%02d", Hour12(d.hour));
      break;
    case 'l':
      absl::StrAppend(out, Hour12(d.hour));
      break;
    case 'i':
      absl::StrAppendFormat(out, "%02d", d.minute);
      break;
    case 's':
    case 'S':
      absl::StrAppendFormat(out, "%02d", d.second);
      break;
    case 'f':
      absl::StrAppendFormat(out, "%06d", d.microsecond);
      break;
    case 'p':
      absl::StrAppend(out, d.hour < 12 ? "AM" : "PM");
      break;
    case 'T':
      absl::StrAppendFormat(out, "%02d:%02d:%02d", d.hour, d.minute, d.second);
      break;
    case 'r':
      absl::StrAppendFormat(out, "%02d:%02d:%02d %s", Hour12(d.hour), d.minute, d.second,
                            d.hour < 12 ? "AM" : "PM");
      break;
    case 'U':
    case 'u': {
      int year = 0;
      absl::StrAppendFormat(out, "%02d",
                            CalcWeek(d, c == 'U' ? kWeekFirstWeekday : kWeekMondayFirst, &year));
      break;
    }
    case 'V':
    case 'v':
    case 'X':
    case 'x': {
      int year = 0;
      const bool sunday = c == 'V' || c == 'X';
      const int week =
          CalcWeek(d, kWeekYear | (sunday ? kWeekFirstWeekday : kWeekMondayFirst), &year);
      if (c == 'V' || c == 'v') {
        absl::StrAppendFormat(out, "%02d", week);
      } else {
        absl::StrAppendFormat(out, "%04d", year);
      }
      break;
    }
    default:  // %% and unknown specifiers give the character itself
      out->push_back(c);
      break;
  }
}

}  // namespace

void FormatDate(const mysql::DateTime& d, absl::string_view format, std::string* out) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      out->push_back(format[i]);
      continue;
    }
    AppendSpecifier(format[++i], d, out);
  }
}

namespace {

Value DateFormatValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  mysql::DateTime d;
  if (!DateArg(args[0], call.engine(), &d)) return Value{};
  std::string out;
  FormatDate(d, ValueText(args[1]), &out);
  return out;
}

constexpr BuiltinFunction kTemporalFunctions[] = {
    {"DATE", 1, 1, DateType, DateValue},
    {"DATE_FORMAT", 2, 2, DateFormatType, DateFormatValue},
    {"DATEDIFF", 2, 2, DateDiffType, DateDiffValue},
    {"DAY", 1, 1, PartType<2>, DatePartValue<DayOf>},
    {"DAYOFMONTH", 1, 1, PartType<2>, DatePartValue<DayOf>},
    {"HOUR", 1, 1, PartType<3>, TimePartValue<HoursOf>},
    {"MINUTE", 1, 1, PartType<2>, TimePartValue<MinutesOf>},
    {"MONTH", 1, 1, PartType<2>, DatePartValue<MonthOf>},
    {"SECOND", 1, 1, PartType<2>, TimePartValue<SecondsOf>},
    {"MICROSECOND", 1, 1, PartType<7>, MicrosecondValue},
    {"YEAR", 1, 1, PartType<4>, DatePartValue<YearOf>},
};

}  // namespace

absl::Span<const BuiltinFunction> TemporalFunctions() { return kTemporalFunctions; }

}  // namespace shoal::sql::internal
