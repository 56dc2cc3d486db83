// Date arithmetic: DATE_ADD and DATE_SUB (which `d + INTERVAL n unit` and `d - INTERVAL n unit`
// parse to), ADDDATE, SUBDATE and TIMESTAMPADD, all MySQL's Item_date_add_interval over a
// kInterval argument; and TIMESTAMPDIFF and EXTRACT, whose unit the call itself holds.
//
// The result type follows the first argument, as MySQL's: a DATETIME or TIMESTAMP gives a
// DATETIME; a DATE stays a DATE for the units of whole days, else a DATETIME; a TIME stays a
// TIME for the units of a day or less; anything else (a string, a number) gives a VARCHAR,
// since its text may be a date or a date and time. A result outside years 1..9999 is NULL with
// the 1441 warning.
#include <algorithm>
#include <array>

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
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

// MySQL's interval_type, in its order (the type rules compare ranges of it).
enum class Unit : uint8_t {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMicrosecond,
  kYearMonth,
  kDayHour,
  kDayMinute,
  kDaySecond,
  kHourMinute,
  kHourSecond,
  kMinuteSecond,
  kDayMicrosecond,
  kHourMicrosecond,
  kMinuteMicrosecond,
  kSecondMicrosecond,
};

constexpr absl::string_view kUnitNames[] = {"YEAR",
                                            "QUARTER",
                                            "MONTH",
                                            "WEEK",
                                            "DAY",
                                            "HOUR",
                                            "MINUTE",
                                            "SECOND",
                                            "MICROSECOND",
                                            "YEAR_MONTH",
                                            "DAY_HOUR",
                                            "DAY_MINUTE",
                                            "DAY_SECOND",
                                            "HOUR_MINUTE",
                                            "HOUR_SECOND",
                                            "MINUTE_SECOND",
                                            "DAY_MICROSECOND",
                                            "HOUR_MICROSECOND",
                                            "MINUTE_MICROSECOND",
                                            "SECOND_MICROSECOND"};

// The parser only makes the names above.
Unit UnitOf(absl::string_view name) {
  for (size_t i = 0; i < std::size(kUnitNames); ++i) {
    if (kUnitNames[i] == name) return static_cast<Unit>(i);
  }
  return Unit::kDay;
}

bool WholeDays(Unit u) { return u <= Unit::kDay || u == Unit::kYearMonth; }
bool WithinADay(Unit u) {
  return (u >= Unit::kHour && u <= Unit::kMicrosecond) ||
         (u >= Unit::kHourMinute && u <= Unit::kSecondMicrosecond);
}
bool HasMicroseconds(Unit u) { return u == Unit::kMicrosecond || u >= Unit::kDayMicrosecond; }

// An interval as MySQL's Interval: magnitudes, indexed by Field, and a sign.
enum Field { kYears, kMonths, kDays, kHours, kMinutes, kSeconds, kMicros, kFields };
struct Interval {
  std::array<__int128, kFields> v{};
  bool negative = false;
};

// The fields a compound unit's string fills, from the first for `count` of them.
struct Layout {
  Field first;
  int count;
};
Layout LayoutOf(Unit u) {
  switch (u) {
    case Unit::kYearMonth:
      return {kYears, 2};
    case Unit::kDayHour:
      return {kDays, 2};
    case Unit::kDayMinute:
      return {kDays, 3};
    case Unit::kDaySecond:
      return {kDays, 4};
    case Unit::kHourMinute:
      return {kHours, 2};
    case Unit::kHourSecond:
      return {kHours, 3};
    case Unit::kMinuteSecond:
      return {kMinutes, 2};
    case Unit::kDayMicrosecond:
      return {kDays, 5};
    case Unit::kHourMicrosecond:
      return {kHours, 4};
    case Unit::kMinuteMicrosecond:
      return {kMinutes, 3};
    default:
      return {kSeconds, 2};
  }
}

// MySQL's get_interval_info: '[-]n<sep>n…', the numbers right-aligned when fewer are written
// ('1:30' HOUR_SECOND is a minute and a half); a microsecond field is scaled by its digits
// ('1.5' SECOND_MICROSECOND is 500000 of them). False for anything after the last number.
bool ReadCompound(absl::string_view text, Unit unit, Interval* out) {
  const Layout layout = LayoutOf(unit);
  size_t i = 0;
  while (i < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && text[i] == '-') {
    out->negative = true;
    ++i;
  }
  auto is_digit = [&](size_t at) {
    return at < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[at]));
  };
  while (i < text.size() && !is_digit(i)) ++i;
  std::array<__int128, 5> values{};
  int read = 0, last_digits = 0;
  while (read < layout.count) {
    __int128 n = 0;
    const size_t start = i;
    for (; is_digit(i); ++i) {
      if (n > INT64_MAX / 10) return false;
      n = n * 10 + (text[i] - '0');
    }
    last_digits = static_cast<int>(i - start);
    values[read++] = n;
    while (i < text.size() && !is_digit(i)) ++i;
    if (i == text.size()) break;
  }
  // Fewer numbers than fields fill the last ones.
  const int shift = layout.count - read;
  for (int k = read - 1; k >= 0; --k) values[k + shift] = values[k];
  for (int k = 0; k < shift; ++k) values[k] = 0;
  if (HasMicroseconds(unit) && last_digits < 6) {
    for (int k = last_digits; k < 6; ++k) values[layout.count - 1] *= 10;
  }
  for (int k = 0; k < layout.count; ++k) out->v[layout.first + k] = values[k];
  return i == text.size();
}

// A fractional SECOND interval, as MySQL reads it (val_decimal): whole seconds and the
// first six digits of the fraction.
void ReadSeconds(const Value& value, ExprEngine& engine, Interval* out) {
  const std::string text = ValueText(value);
  absl::string_view s = absl::StripAsciiWhitespace(text);
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) out->negative = s[i++] == '-';
  for (; i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[i])); ++i) {
    out->v[kSeconds] = std::min<__int128>(out->v[kSeconds] * 10 + (s[i] - '0'), INT64_MAX);
  }
  if (i < s.size() && s[i] == '.') {
    int digits = 0;
    for (++i; i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[i])); ++i) {
      if (digits++ < 6) out->v[kMicros] = out->v[kMicros] * 10 + (s[i] - '0');
    }
    for (; digits < 6; ++digits) out->v[kMicros] *= 10;
  }
  if (i != s.size() && std::holds_alternative<std::string>(value)) {
    engine.Warn(1292, absl::StrCat("Truncated incorrect DECIMAL value: '", text, "'"));
  }
}

// The interval `value unit` (MySQL's get_interval_value); false when it is not one (NULL).
bool ReadInterval(const Value& value, Unit unit, ExprEngine& engine, Interval* out) {
  if (unit >= Unit::kYearMonth) return ReadCompound(ValueText(value), unit, out);
  const bool integer =
      std::holds_alternative<int64_t>(value) || std::holds_alternative<uint64_t>(value);
  if (unit == Unit::kSecond && !integer) {
    ReadSeconds(value, engine, out);
    return true;
  }
  __int128 n = IntegerArg(value, engine);
  if (n < 0) {
    out->negative = true;
    n = -n;
  }
  static constexpr std::pair<Field, int> kSimple[] = {{kYears, 1},   {kMonths, 3},  {kMonths, 1},
                                                      {kDays, 7},    {kDays, 1},    {kHours, 1},
                                                      {kMinutes, 1}, {kSeconds, 1}, {kMicros, 1}};
  const auto [field, times] = kSimple[static_cast<int>(unit)];
  out->v[field] = n * times;
  return true;
}

// The interval's length in microseconds, for the units of days and less; nullopt past any
// date's reach (MySQL's MAX_DAY_NUMBER checks).
std::optional<__int128> IntervalMicros(const Interval& iv) {
  const __int128 days = kMaxDayNumber;
  if (iv.v[kDays] > days || iv.v[kHours] > days * 24 || iv.v[kMinutes] > days * 1440 ||
      iv.v[kSeconds] > days * 86400 || iv.v[kMicros] > days * kMicrosPerDay) {
    return std::nullopt;
  }
  const __int128 seconds =
      ((iv.v[kDays] * 24 + iv.v[kHours]) * 60 + iv.v[kMinutes]) * 60 + iv.v[kSeconds];
  const __int128 micros = seconds * kMicrosPerSecond + iv.v[kMicros];
  return iv.negative ? -micros : micros;
}

// `d` moved by `iv` (MySQL's date_add_interval); false when it leaves years 1..9999.
bool AddInterval(Unit unit, const Interval& iv, mysql::DateTime* d) {
  const int sign = iv.negative ? -1 : 1;
  if (unit <= Unit::kMonth || unit == Unit::kYearMonth) {
    // Months: the day is clamped to the new month's last (Jan 31 + 1 MONTH is Feb 29).
    const __int128 period =
        __int128{d->year} * 12 + d->month - 1 + sign * (iv.v[kYears] * 12 + iv.v[kMonths]);
    if (period < 12 || period >= 120000) return false;
    d->year = static_cast<uint16_t>(period / 12);
    d->month = static_cast<uint8_t>(period % 12 + 1);
    d->day = static_cast<uint8_t>(std::min<int>(d->day, DaysIn(d->year, d->month)));
    return true;
  }
  std::optional<__int128> delta = IntervalMicros(iv);
  if (!delta) return false;
  const int64_t time = ((d->hour * 60 + d->minute) * 60 + d->second) * kMicrosPerSecond;
  const __int128 at = (__int128{DayNumber(*d)} * kMicrosPerDay) + time + d->microsecond + *delta;
  __int128 day = at / kMicrosPerDay, rest = at % kMicrosPerDay;
  if (rest < 0) rest += kMicrosPerDay, --day;
  const uint32_t micro = static_cast<uint32_t>(rest % kMicrosPerSecond);
  const int64_t seconds = static_cast<int64_t>(rest / kMicrosPerSecond);
  if (day < 0 || day > kMaxDayNumber || !DateOfDayNumber(static_cast<int64_t>(day), d)) {
    return false;
  }
  d->hour = static_cast<uint8_t>(seconds / 3600);
  d->minute = static_cast<uint8_t>(seconds / 60 % 60);
  d->second = static_cast<uint8_t>(seconds % 60);
  d->microsecond = micro;
  return true;
}

// The fraction digits the interval brings (MySQL's interval_dec).
uint8_t IntervalDecimals(Unit unit, const ColumnDefinition& value) {
  if (HasMicroseconds(unit)) return 6;
  if (unit != Unit::kSecond || ClassOf(value) == Cls::kInt) return 0;
  return static_cast<uint8_t>(std::min<int>(value.decimals, 6));
}

ColumnDefinition DateAddType(const TypingCall& call) {
  const Unit unit = UnitOf(call.expr.args[1]->unit);
  const ColumnDefinition& date = call.args[0];
  const uint8_t fsp =
      std::max<uint8_t>(std::min<uint8_t>(date.decimals, 6), IntervalDecimals(unit, call.args[1]));
  switch (date.type) {
    case ColumnType::kDateTime:
    case ColumnType::kTimestamp:
      return TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNullable);
    case ColumnType::kDate:
      return WholeDays(unit) ? TemporalColumn(ColumnType::kDate, 0, Nullability::kNullable)
                             : TemporalColumn(ColumnType::kDateTime, fsp, Nullability::kNullable);
    case ColumnType::kTime:
      return TemporalColumn(WithinADay(unit) ? ColumnType::kTime : ColumnType::kDateTime, fsp,
                            Nullability::kNullable);
    default:
      return StringResult(29, call.state(), Nullability::kNullable);  // MAX_DATETIME_FULL_WIDTH
  }
}

void Overflow(ExprEngine& engine) {
  engine.Warn(1441, "Datetime function: datetime field overflow");
}

// Whether a date argument's text has only a date ('2024-01-31', 20240131): MySQL then answers
// a date, not a date and time, for the units of whole days.
bool DateOnlyText(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  int groups = 0, digits = 0;
  bool in_digits = false;
  for (char c : text) {
    const bool digit = absl::ascii_isdigit(static_cast<unsigned char>(c));
    if (digit && !in_digits) ++groups;
    digits += digit ? 1 : 0;
    in_digits = digit;
  }
  return groups == 1 ? digits <= 8 : groups <= 3;
}

// A TIME plus an interval of a day or less: a TIME, NULL past ±838:59:59.
Value AddToTime(const Value& time, const Interval& iv, ExprEngine& engine) {
  int64_t micros = 0;
  if (!TimeArg(time, engine, &micros)) return Value{};
  std::optional<__int128> delta = IntervalMicros(iv);
  const __int128 r = delta ? micros + *delta : kMaxTimeMicros + 1;
  if (r > kMaxTimeMicros || r < -kMaxTimeMicros) return Overflow(engine), Value{};
  return TimeOfMicros(static_cast<int64_t>(r));
}

template <bool kSubtract>
Value DateAddValue(EvalCall& call) {
  const Value date = call.Arg(0);
  if (IsNull(date)) return Value{};
  const ColumnDefinition type = call.ResultType();
  const Unit unit = UnitOf(call.expr().args[1]->unit);
  mysql::DateTime d;
  if (type.type != ColumnType::kTime && !DateArg(date, call.engine(), &d)) return Value{};
  const Value amount = call.Arg(1);
  Interval iv;
  if (IsNull(amount) || !ReadInterval(amount, unit, call.engine(), &iv)) return Value{};
  if (kSubtract) iv.negative = !iv.negative;
  if (type.type == ColumnType::kTime) return AddToTime(date, iv, call.engine());
  if (!AddInterval(unit, iv, &d)) return Overflow(call.engine()), Value{};
  if (type.type == ColumnType::kDate || type.type == ColumnType::kDateTime) return d;
  // A string result: the text MySQL gives the value it computed.
  if (WholeDays(unit) && DateOnlyText(ValueText(date))) {
    return absl::StrFormat("%04d-%02d-%02d", d.year, d.month, d.day);
  }
  return ValueText(Value{d});
}

// ---------------------------------------------------------------------------------------
// TIMESTAMPDIFF

int64_t SecondOfDay(const mysql::DateTime& d) { return (d.hour * 60 + d.minute) * 60 + d.second; }

// Whole months from `beg` to `end` (beg <= end), as MySQL counts them: a month is complete
// when the day and time of day reach the starting ones.
int64_t WholeMonths(const mysql::DateTime& beg, const mysql::DateTime& end) {
  const bool before = end.month < beg.month || (end.month == beg.month && end.day < beg.day);
  int64_t months = 12 * (int64_t{end.year} - beg.year - (before ? 1 : 0));
  months += before ? 12 - (beg.month - end.month) : end.month - beg.month;
  if (end.day < beg.day) {
    --months;
  } else if (end.day == beg.day &&
             (SecondOfDay(end) < SecondOfDay(beg) ||
              (SecondOfDay(end) == SecondOfDay(beg) && end.microsecond < beg.microsecond))) {
    --months;
  }
  return months;
}

ColumnDefinition TimestampDiffType(const TypingCall&) {
  return IntColumn(21, false, Nullability::kNullable);
}

// `b` - `a` in whole units, truncated toward zero.
Value TimestampDiffValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  mysql::DateTime a, b;
  if (!DateArg(args[0], call.engine(), &a) || !DateArg(args[1], call.engine(), &b)) {
    return Value{};
  }
  auto micros = [](const mysql::DateTime& d) {
    return (__int128{DayNumber(d)} * 86400 + SecondOfDay(d)) * kMicrosPerSecond + d.microsecond;
  };
  const __int128 diff = micros(b) - micros(a);
  const int64_t sign = diff < 0 ? -1 : 1;
  const int64_t magnitude = static_cast<int64_t>(diff < 0 ? -diff : diff);
  const int64_t seconds = magnitude / kMicrosPerSecond;
  const Unit unit = UnitOf(call.expr().unit);
  const int64_t months =
      unit <= Unit::kMonth ? (sign < 0 ? WholeMonths(b, a) : WholeMonths(a, b)) : 0;
  switch (unit) {
    case Unit::kYear:
      return sign * (months / 12);
    case Unit::kQuarter:
      return sign * (months / 3);
    case Unit::kMonth:
      return sign * months;
    case Unit::kWeek:
      return sign * (seconds / 86400 / 7);
    case Unit::kDay:
      return sign * (seconds / 86400);
    case Unit::kHour:
      return sign * (seconds / 3600);
    case Unit::kMinute:
      return sign * (seconds / 60);
    case Unit::kSecond:
      return sign * seconds;
    default:
      return sign * magnitude;
  }
}

// ---------------------------------------------------------------------------------------
// EXTRACT

// MySQL's calc_week (`mode` already through week_mode): the week of `d`'s year, or of the
// year before or after when the mode counts weeks that straddle a new year there.
int64_t WeekOfYear(const mysql::DateTime& d, unsigned mode) {
  constexpr unsigned kMondayFirst = 1, kWeekYear = 2, kFirstWeekday = 4;
  const bool monday_first = (mode & kMondayFirst) != 0;
  bool week_year = (mode & kWeekYear) != 0;
  const bool first_weekday = (mode & kFirstWeekday) != 0;
  auto days_in_year = [](int year) { return IsLeap(year) ? 366 : 365; };
  const int64_t daynr = DayNumber(d);
  int64_t first_daynr = DayNumber(mysql::DateTime{d.year, 1, 1});
  int64_t weekday = (first_daynr + 5 + (monday_first ? 0 : 1)) % 7;
  int year = d.year;
  if (d.month == 1 && d.day <= 7 - weekday) {
    if (!week_year && ((first_weekday && weekday != 0) || (!first_weekday && weekday >= 4))) {
      return 0;
    }
    week_year = true;
    --year;
    const int days = days_in_year(year);
    first_daynr -= days;
    weekday = (weekday + 53 * 7 - days) % 7;
  }
  int64_t days = (first_weekday && weekday != 0) || (!first_weekday && weekday >= 4)
                     ? daynr - (first_daynr + (7 - weekday))
                     : daynr - (first_daynr - weekday);
  if (week_year && days >= 52 * 7) {
    weekday = (weekday + days_in_year(year)) % 7;
    if ((!first_weekday && weekday < 4) || (first_weekday && weekday == 0)) return 1;
  }
  return days / 7 + 1;
}

// The session's default_week_format as calc_week takes it (MySQL's week_mode).
unsigned SessionWeekMode(const SessionState& state) {
  unsigned format = 0;
  if (const SysVarDef* def = FindSysVar("default_week_format")) {
    const Value v = SessionValue(*def, state);
    if (const auto* u = std::get_if<uint64_t>(&v)) format = static_cast<unsigned>(*u & 7);
    if (const auto* i = std::get_if<int64_t>(&v)) format = static_cast<unsigned>(*i & 7);
  }
  if ((format & 1) == 0) format ^= 4;
  return format;
}

// The units MySQL reads from a date (get_date); the others from a time (get_time).
bool DateUnit(Unit u) { return u <= Unit::kDay || u == Unit::kYearMonth; }

// A value as MySQL's get_time gives EXTRACT its parts: a DATETIME (or text or a number that
// has a date) keeps its day of the month; a TIME is all hours, with its sign.
struct TimeParts {
  int64_t day = 0, hour = 0, minute = 0, second = 0, micro = 0;
  bool negative = false;
};
bool ReadTimeParts(const Value& v, ExprEngine& engine, TimeParts* out) {
  std::optional<mysql::DateTime> date;
  if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    date = *d;
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    // Text with a date part ('2024-03-15 10:20:30') reads as a date and time.
    const absl::string_view text = absl::StripAsciiWhitespace(*s);
    const size_t dash = text.find('-', 1), colon = text.find(':');
    if (dash != absl::string_view::npos && (colon == absl::string_view::npos || dash < colon)) {
      date = DateTimeFromText(text);
    }
  } else if (ClassOf(v) == Cls::kInt && Int128(v) >= 10000000000LL) {
    date = DateTimeFromText(ValueText(v));  // YYYYMMDDhhmmss
  }
  if (date) {
    *out = {date->day, date->hour, date->minute, date->second, date->microsecond, false};
    return true;
  }
  int64_t micros = 0;
  if (!TimeArg(v, engine, &micros)) return false;
  out->negative = micros < 0;
  const int64_t m = out->negative ? -micros : micros;
  const int64_t seconds = m / kMicrosPerSecond;
  *out = {0, seconds / 3600, seconds / 60 % 60, seconds % 60, m % kMicrosPerSecond, micros < 0};
  return true;
}

// The digits MySQL's Item_extract::resolve_type gives each unit.
ColumnDefinition ExtractPartType(const TypingCall& call) {
  static constexpr uint32_t kDigits[] = {4, 2,  2,  2, 2, 2, 2,  2,  2,  6,
                                         9, 11, 13, 4, 6, 4, 20, 13, 11, 9};
  return IntColumn(kDigits[static_cast<int>(UnitOf(call.expr.unit))], false,
                   Nullability::kNullable);
}

Value ExtractPartValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return Value{};
  const Unit unit = UnitOf(call.expr().unit);
  if (DateUnit(unit)) {
    mysql::DateTime d;
    if (!DateArg(v, call.engine(), &d)) return Value{};
    switch (unit) {
      case Unit::kYear:
        return int64_t{d.year};
      case Unit::kYearMonth:
        return int64_t{d.year} * 100 + d.month;
      case Unit::kQuarter:
        return int64_t{(d.month + 2) / 3};
      case Unit::kMonth:
        return int64_t{d.month};
      case Unit::kWeek:
        return WeekOfYear(d, SessionWeekMode(call.state()));
      default:
        return int64_t{d.day};
    }
  }
  TimeParts t;
  if (!ReadTimeParts(v, call.engine(), &t)) return Value{};
  const int64_t sign = t.negative ? -1 : 1;
  const int64_t hms = (t.hour * 100 + t.minute) * 100 + t.second;
  switch (unit) {
    case Unit::kDayHour:
      return sign * (t.day * 100 + t.hour);
    case Unit::kDayMinute:
      return sign * (t.day * 10000 + t.hour * 100 + t.minute);
    case Unit::kDaySecond:
      return sign * (t.day * 1000000 + hms);
    case Unit::kHour:
      return sign * t.hour;
    case Unit::kHourMinute:
      return sign * (t.hour * 100 + t.minute);
    case Unit::kHourSecond:
      return sign * hms;
    case Unit::kMinute:
      return sign * t.minute;
    case Unit::kMinuteSecond:
      return sign * (t.minute * 100 + t.second);
    case Unit::kSecond:
      return sign * t.second;
    case Unit::kMicrosecond:
      return sign * t.micro;
    case Unit::kDayMicrosecond:
      return sign * ((t.day * 1000000 + hms) * 1000000 + t.micro);
    case Unit::kHourMicrosecond:
      return sign * (hms * 1000000 + t.micro);
    case Unit::kMinuteMicrosecond:
      return sign * ((t.minute * 100 + t.second) * 1000000 + t.micro);
    default:  // kSecondMicrosecond
      return sign * (t.second * 1000000 + t.micro);
  }
}

constexpr BuiltinFunction kDateArithFunctions[] = {
    {"ADDDATE", 2, 2, DateAddType, DateAddValue<false>},
    {"DATE_ADD", 2, 2, DateAddType, DateAddValue<false>},
    {"DATE_SUB", 2, 2, DateAddType, DateAddValue<true>},
    {"EXTRACT", 1, 1, ExtractPartType, ExtractPartValue},
    {"SUBDATE", 2, 2, DateAddType, DateAddValue<true>},
    {"TIMESTAMPADD", 2, 2, DateAddType, DateAddValue<false>},
    {"TIMESTAMPDIFF", 2, 2, TimestampDiffType, TimestampDiffValue},
};

}  // namespace

absl::Span<const BuiltinFunction> DateArithFunctions() { return kDateArithFunctions; }

}  // namespace shoal::sql::internal
