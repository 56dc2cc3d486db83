// Weeks, durations and periods: WEEK, YEARWEEK, WEEKOFYEAR, MAKETIME, TIME_FORMAT, TIMEDIFF,
// ADDTIME, SUBTIME, PERIOD_ADD, PERIOD_DIFF, TO_SECONDS, TIME(x) and TIMESTAMP(x[, t]).
// Durations past ±838:59:59 are cut to it with MySQL's 1292 "Truncated incorrect time value".
#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/temporal_text.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {

// MySQL's calc_week (sql_time.cc), over its week_behaviour bits.
int CalcWeek(const mysql::DateTime& d, unsigned behaviour, int* year) {
  const int64_t daynr = DayNumber(d);
  int64_t first_daynr = DayNumber(mysql::DateTime{d.year, 1, 1});
  const bool monday_first = (behaviour & kWeekMondayFirst) != 0;
  bool week_year = (behaviour & kWeekYear) != 0;
  const bool first_weekday = (behaviour & kWeekFirstWeekday) != 0;
  // MySQL's calc_weekday: Monday 0 (or, Sunday first, Sunday 0); day 1 is a Sunday... of
  // its calendar, whose 0000-01-01 our DayNumber shares from year 1 on.
  int weekday = static_cast<int>((first_daynr + 5 + (monday_first ? 0 : 1)) % 7);
  *year = d.year;
  const auto days_in = [](int y) { return IsLeap(y) ? 366 : 365; };
  if (d.month == 1 && d.day <= 7 - weekday) {
    if (!week_year && ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4))) {
      return 0;
    }
    week_year = true;
    --*year;
    const int days = days_in(*year);
    first_daynr -= days;
    weekday = (weekday + 53 * 7 - days) % 7;
  }
  int64_t days;
  if ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4)) {
    days = daynr - (first_daynr + (7 - weekday));
  } else {
    days = daynr - (first_daynr - weekday);
  }
  if (week_year && days >= 52 * 7) {
    weekday = (weekday + days_in(*year)) % 7;
    if ((!first_weekday && weekday < 4) || (first_weekday && weekday == 0)) {
      ++*year;
      return 1;
    }
  }
  return static_cast<int>(days / 7 + 1);
}

namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

constexpr int64_t kMicrosPerDay = int64_t{86400} * kMicrosPerSecond;

// MySQL's week_mode: WEEK's mode 0..7 as calc_week's bits.
unsigned WeekMode(int64_t mode) {
  unsigned format = static_cast<unsigned>(mode) & 7;
  if ((format & kWeekMondayFirst) == 0) format ^= kWeekFirstWeekday;
  return format;
}

int64_t DefaultWeekFormat(const SessionState& state) {
  const SysVarDef* def = FindSysVar("default_week_format");
  if (def == nullptr) return 0;
  const Value v = SessionValue(*def, state);
  if (const auto* u = std::get_if<uint64_t>(&v)) return static_cast<int64_t>(*u);
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  return 0;
}

template <uint32_t kDigits>
ColumnDefinition WeekType(const TypingCall&) {
  return IntColumn(kDigits, false, Nullability::kNullable);
}
// WEEK(d[, mode]): the mode defaults to @@default_week_format; a NULL mode is 0.
Value WeekValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  int64_t mode = DefaultWeekFormat(call.state());
  if (call.arg_count() > 1) {
    const Value m = call.Arg(1);
    mode = IsNull(m) ? 0 : IntegerArg(m, call.engine());
  }
  int year = 0;
  return int64_t{CalcWeek(d, WeekMode(mode), &year)};
}
Value YearWeekValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  int64_t mode = 0;
  if (call.arg_count() > 1) {
    const Value m = call.Arg(1);
    mode = IsNull(m) ? 0 : IntegerArg(m, call.engine());
  }
  int year = 0;
  const int week = CalcWeek(d, WeekMode(mode) | kWeekYear, &year);
  return int64_t{year} * 100 + week;
}
Value WeekOfYearValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  int year = 0;
  return int64_t{CalcWeek(d, WeekMode(3), &year)};
}

// ---------------------------------------------------------------------------------------
// Durations

// The fractional digits of argument `i` as a time or datetime (MySQL's time_precision): a
// temporal type's own, a string literal's as written, 6 for other strings and DOUBLEs, a
// DECIMAL's scale, none for an integer.
uint8_t ArgPrecision(const TypingCall& call, size_t i) {
  const ColumnDefinition& c = call.args[i];
  const Expr& e = *call.expr.args[i];
  switch (ClassOf(c)) {
    case Cls::kInt:
    case Cls::kNull:
      return 0;
    case Cls::kTemporal:
    case Cls::kDecimal:
      return std::min<uint8_t>(c.decimals, 6);
    case Cls::kString:
      if (e.kind == ExprKind::kLiteral && e.literal == LiteralKind::kString) {
        const size_t point = e.text.find('.');
        if (point == std::string::npos) return 0;
        size_t digits = 0;
        while (point + 1 + digits < e.text.size() &&
               absl::ascii_isdigit(static_cast<unsigned char>(e.text[point + 1 + digits]))) {
          ++digits;
        }
        return static_cast<uint8_t>(std::min<size_t>(digits, 6));
      }
      return 6;
    default:
      return 6;
  }
}

// A duration's text as MySQL's warnings show it: [-]HH:MM:SS[.ffffff].
std::string SpanText(int64_t micros) {
  const int64_t m = micros < 0 ? -micros : micros;
  const int64_t s = m / kMicrosPerSecond;
  std::string out =
      absl::StrFormat("%s%02d:%02d:%02d", micros < 0 ? "-" : "", s / 3600, s / 60 % 60, s % 60);
  if (m % kMicrosPerSecond != 0) absl::StrAppendFormat(&out, ".%06d", m % kMicrosPerSecond);
  return out;
}

// `micros` within TIME's range: cut to ±838:59:59 with MySQL's warning when past it.
int64_t TimeInRange(int64_t micros, ExprEngine& engine) {
  if (micros >= -kMaxTimeMicros && micros <= kMaxTimeMicros) return micros;
  engine.Warn(1292, absl::StrCat("Truncated incorrect time value: '", SpanText(micros), "'"));
  return micros < 0 ? -kMaxTimeMicros : kMaxTimeMicros;
}

// A value read as MySQL's get_time reads it: a date and time, or a duration.
struct TimeOrDate {
  bool has_date = false;
  int64_t micros = 0;  // a duration; or, with a date, microseconds from day 0 on
};

int64_t MicrosOfDateTime(const mysql::DateTime& d) {
  return DayNumber(d) * kMicrosPerDay +
         ((d.hour * 60 + d.minute) * 60 + d.second) * kMicrosPerSecond + d.microsecond;
}

// Whether `text` is written as a date ('2024-01-02 10:00', '2024/1/2', 20240102100000), not
// a duration ('10:00:00', '1 10:00', '100000').
bool WrittenAsDate(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  if (digits == text.size() || text[digits] == '.') return digits >= 12;
  return digits > 0 && text[digits] != ':' && text[digits] != ' ';
}

bool ReadTimeOrDate(const Value& v, ExprEngine& engine, TimeOrDate* out) {
  mysql::DateTime d;
  bool as_date = std::holds_alternative<mysql::DateTime>(v);
  if (const auto* i = std::get_if<int64_t>(&v)) as_date = *i >= 10000000000 || *i <= -10000000000;
  if (const auto* u = std::get_if<uint64_t>(&v)) as_date = *u >= 10000000000;
  if (std::holds_alternative<std::string>(v)) as_date = WrittenAsDate(std::get<std::string>(v));
  if (as_date) {
    if (!DateArg(v, engine, &d)) return false;
    *out = {true, MicrosOfDateTime(d)};
    return true;
  }
  out->has_date = false;
  return TimeArg(v, engine, &out->micros);
}

// The date and time `micros` (from day 0) stands for; false outside years 1..9999.
bool DateTimeOfMicros(int64_t micros, mysql::DateTime* out) {
  if (micros < 0 || !DateOfDayNumber(micros / kMicrosPerDay, out)) return false;
  const int64_t rest = micros % kMicrosPerDay;
  const int64_t s = rest / kMicrosPerSecond;
  out->hour = static_cast<uint8_t>(s / 3600);
  out->minute = static_cast<uint8_t>(s / 60 % 60);
  out->second = static_cast<uint8_t>(s % 60);
  out->microsecond = static_cast<uint32_t>(rest % kMicrosPerSecond);
  return true;
}

// TIMEDIFF(a, b): a - b, both durations or both dates and times (NULL when they differ).
ColumnDefinition TimeDiffType(const TypingCall& call) {
  return TemporalColumn(ColumnType::kTime, std::max(ArgPrecision(call, 0), ArgPrecision(call, 1)),
                        Nullability::kNullable);
}
Value TimeDiffValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  if ((std::holds_alternative<mysql::DateTime>(args[0]) &&
       std::holds_alternative<mysql::Time>(args[1])) ||
      (std::holds_alternative<mysql::Time>(args[0]) &&
       std::holds_alternative<mysql::DateTime>(args[1]))) {
    return Value{};
  }
  TimeOrDate a, b;
  if (!ReadTimeOrDate(args[0], call.engine(), &a) || !ReadTimeOrDate(args[1], call.engine(), &b) ||
      a.has_date != b.has_date) {
    return Value{};
  }
  return TimeOfMicros(TimeInRange(a.micros - b.micros, call.engine()));
}

// ADDTIME and SUBTIME: a TIME for a TIME, a DATETIME for a DATETIME or TIMESTAMP, else a
// string, of a date and time or of a duration as the first argument reads.
ColumnDefinition AddTimeType(const TypingCall& call) {
  const uint8_t fsp = std::max(ArgPrecision(call, 0), ArgPrecision(call, 1));
  switch (call.args[0].type) {
    case ColumnType::kTime:
      return TemporalColumn(ColumnType::kTime, fsp, Nullability::kNullable);
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      return TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNullable);
    default:
      return StringResult(26, call.state(), Nullability::kNullable);
  }
}
template <int kSign>
Value AddTimeValue(EvalCall& call) {
  const ColumnDefinition type = call.ResultType();
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  TimeOrDate a, b;
  if (!ReadTimeOrDate(args[0], call.engine(), &a) || !ReadTimeOrDate(args[1], call.engine(), &b) ||
      b.has_date) {
    return Value{};
  }
  // A string result shows six fraction digits when either argument has a fraction.
  const int8_t digits = (a.micros % kMicrosPerSecond != 0 || b.micros % kMicrosPerSecond != 0)
                            ? int8_t{6}
                            : int8_t{0};
  const int64_t sum = a.micros + kSign * b.micros;
  if (a.has_date) {
    mysql::DateTime d;
    if (!DateTimeOfMicros(sum, &d)) return Value{};
    if (type.type == ColumnType::kDateTime) return d;
    d.decimals = digits;
    return ValueText(d);
  }
  mysql::Time t = TimeOfMicros(TimeInRange(sum, call.engine()));
  if (type.type == ColumnType::kTime) return t;
  t.decimals = digits;
  return ValueText(t);
}

// MAKETIME(h, m, s): NULL for minutes or seconds outside 0..59; hours past 838 are cut.
ColumnDefinition MakeTimeType(const TypingCall& call) {
  return TemporalColumn(ColumnType::kTime, ArgPrecision(call, 2), Nullability::kNullable);
}
Value MakeTimeValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const int64_t hour = IntegerArg(args[0], call.engine());
  const int64_t minute = IntegerArg(args[1], call.engine());
  const double seconds = DoubleArg(args[2], call.engine());
  if (minute < 0 || minute > 59 || seconds < 0 || seconds >= 60) return Value{};
  const int fsp = call.ResultType().decimals;
  const double unit = std::pow(10.0, 6 - fsp);
  const int64_t fraction = static_cast<int64_t>(
      std::round((seconds - std::floor(seconds)) * kMicrosPerSecond / unit) * unit);
  const int64_t whole = static_cast<int64_t>(std::floor(seconds));
  if (hour > 838 || hour < -838) {
    call.engine().Warn(1292, absl::StrFormat("Truncated incorrect time value: '%d:%02d:%02d'", hour,
                                             minute, whole));
    return TimeOfMicros(hour < 0 ? -kMaxTimeMicros : kMaxTimeMicros);
  }
  const int64_t magnitude =
      ((std::abs(hour) * 60 + minute) * 60 + whole) * kMicrosPerSecond + fraction;
  return TimeOfMicros(TimeInRange(hour < 0 ? -magnitude : magnitude, call.engine()));
}

// TIME_FORMAT(t, format): DATE_FORMAT's hour, minute, second and fraction specifiers over a
// duration (%H and %k show all its hours); NULL for a date specifier.
bool AppendTimeSpecifier(char c, int64_t micros, std::string* out) {
  const int64_t m = micros < 0 ? -micros : micros;
  const int64_t s = m / kMicrosPerSecond;
  const int64_t hour = s / 3600, minute = s / 60 % 60, second = s % 60;
  const int64_t hour12 = (hour % 24 + 11) % 12 + 1;
  const char* am_pm = hour % 24 < 12 ? "AM" : "PM";
  switch (c) {
    case 'H':
      absl::StrAppendFormat(out, "%02d", hour);
      return true;
    case 'k':
      absl::StrAppend(out, hour);
      return true;
    case 'h':
    case 'I':
      absl::StrAppendFormat(out, "%02d", hour12);
      return true;
    case 'l':
      absl::StrAppend(out, hour12);
      return true;
    case 'i':
      absl::StrAppendFormat(out, "%02d", minute);
      return true;
    case 's':
    case 'S':
      absl::StrAppendFormat(out, "%02d", second);
      return true;
    case 'f':
      absl::StrAppendFormat(out, "%06d", m % kMicrosPerSecond);
      return true;
    case 'p':
      absl::StrAppend(out, am_pm);
      return true;
    case 'T':
      absl::StrAppendFormat(out, "%02d:%02d:%02d", hour, minute, second);
      return true;
    case 'r':
      absl::StrAppendFormat(out, "%02d:%02d:%02d %s", hour12, minute, second, am_pm);
      return true;
    case 'Y':
    case 'y':
    case 'M':
    case 'b':
    case 'm':
    case 'c':
    case 'D':
    case 'd':
    case 'e':
    case 'j':
    case 'W':
    case 'a':
    case 'w':
    case 'U':
    case 'u':
    case 'V':
    case 'v':
    case 'X':
    case 'x':
      return false;
    default:
      out->push_back(c);
      return true;
  }
}
Value TimeFormatValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  int64_t micros = 0;
  if (!TimeArg(args[0], call.engine(), &micros)) return Value{};
  const std::string format = ValueText(args[1]);
  std::string out = micros < 0 ? "-" : "";
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      out.push_back(format[i]);
    } else if (!AppendTimeSpecifier(format[++i], micros, &out)) {
      return Value{};
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Periods (YYMM or YYYYMM) and seconds

ColumnDefinition PeriodType(const TypingCall& call) {
  return IntColumn(6, false, NullableIfAny(call.args));
}
// MySQL 8.0 refuses a period whose month is not 1..12 (1210).
bool ValidPeriod(EvalCall& call, int64_t period, absl::string_view function) {
  if (period > 0 && period % 100 >= 1 && period % 100 <= 12) return true;
  call.engine().SetError({1210, "HY000", absl::StrCat("Incorrect arguments to ", function)});
  return false;
}
int64_t PeriodToMonth(int64_t period) {
  int64_t year = period / 100;
  if (year < 70) {
    year += 2000;
  } else if (year < 100) {
    year += 1900;
  }
  return year * 12 + period % 100 - 1;
}
int64_t MonthToPeriod(int64_t month) {
  if (month <= 0) return 0;
  int64_t year = month / 12;
  if (year < 100) year += year < 70 ? 2000 : 1900;
  // Wrapped as unsigned, as MySQL's own arithmetic wraps, where a huge month overflows.
  return static_cast<int64_t>(static_cast<uint64_t>(year) * 100 + month % 12 + 1);
}
Value PeriodAddValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const int64_t period = IntegerArg(args[0], call.engine());
  const int64_t months = IntegerArg(args[1], call.engine());
  if (!ValidPeriod(call, period, "period_add")) return Value{};
  return MonthToPeriod(static_cast<int64_t>(static_cast<uint64_t>(PeriodToMonth(period)) +
                                            static_cast<uint64_t>(months)));
}
Value PeriodDiffValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const int64_t a = IntegerArg(args[0], call.engine());
  const int64_t b = IntegerArg(args[1], call.engine());
  if (!ValidPeriod(call, a, "period_diff") || !ValidPeriod(call, b, "period_diff")) return Value{};
  return PeriodToMonth(a) - PeriodToMonth(b);
}

ColumnDefinition ToSecondsType(const TypingCall&) {
  return IntColumn(20, false, Nullability::kNullable);
}
Value ToSecondsValue(EvalCall& call) {
  const Value v = call.Arg(0);
  mysql::DateTime d;
  if (IsNull(v) || !DateArg(v, call.engine(), &d)) return Value{};
  return MicrosOfDateTime(d) / kMicrosPerSecond;
}

// TIME(x): the time part of x (a duration stays itself).
ColumnDefinition TimeOfType(const TypingCall& call) {
  return TemporalColumn(ColumnType::kTime, ArgPrecision(call, 0), Nullability::kNullable);
}
Value TimeOfValue(EvalCall& call) {
  const Value v = call.Arg(0);
  int64_t micros = 0;
  if (IsNull(v) || !TimeArg(v, call.engine(), &micros)) return Value{};
  return TimeOfMicros(micros);
}

// TIMESTAMP(x): x as a DATETIME; TIMESTAMP(x, t): with the duration t added.
ColumnDefinition TimestampType(const TypingCall& call) {
  uint8_t fsp = ArgPrecision(call, 0);
  if (call.args.size() > 1) fsp = std::max(fsp, ArgPrecision(call, 1));
  return TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNullable);
}
Value TimestampValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  mysql::DateTime d;
  if (!DateArg(args[0], call.engine(), &d)) return Value{};
  d.date_only = false;
  if (args.size() == 1) return d;
  TimeOrDate t;
  if (!ReadTimeOrDate(args[1], call.engine(), &t) || t.has_date) return Value{};
  mysql::DateTime sum;
  if (!DateTimeOfMicros(MicrosOfDateTime(d) + t.micros, &sum)) return Value{};
  return sum;
}

constexpr BuiltinFunction kTimeFunctions[] = {
    {"ADDTIME", 2, 2, AddTimeType, AddTimeValue<1>},
    {"MAKETIME", 3, 3, MakeTimeType, MakeTimeValue},
    {"PERIOD_ADD", 2, 2, PeriodType, PeriodAddValue},
    {"PERIOD_DIFF", 2, 2, PeriodType, PeriodDiffValue},
    {"SUBTIME", 2, 2, AddTimeType, AddTimeValue<-1>},
    {"TIME", 1, 1, TimeOfType, TimeOfValue},
    {"TIME_FORMAT", 2, 2, DateFormatType, TimeFormatValue},
    {"TIMEDIFF", 2, 2, TimeDiffType, TimeDiffValue},
    {"TIMESTAMP", 1, 2, TimestampType, TimestampValue},
    {"TO_SECONDS", 1, 1, ToSecondsType, ToSecondsValue},
    {"WEEK", 1, 2, WeekType<2>, WeekValue},
    {"WEEKOFYEAR", 1, 1, WeekType<2>, WeekOfYearValue},
    {"YEARWEEK", 1, 2, WeekType<6>, YearWeekValue},
};

}  // namespace

absl::Span<const BuiltinFunction> TimeFunctions() { return kTimeFunctions; }

}  // namespace shoal::sql::internal
