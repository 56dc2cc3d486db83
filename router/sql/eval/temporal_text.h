// Dates and times as MySQL reads them from text and numbers (str_to_datetime, str_to_time,
// number_to_datetime, number_to_time) for the forms clients send, before the column's checks.
// Internal to router/sql: the field codec and comparisons use it.
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"

namespace shoal::sql {

inline constexpr int64_t kMicrosPerSecond = 1000000;
// TIME's range is ±838:59:59.000000.
inline constexpr int64_t kMaxTimeMicros = (838 * 3600 + 59 * 60 + 59) * kMicrosPerSecond;

// A date and time as read, before validation and rounding.
struct Moment {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  int micro = 0;  // the first six fractional digits
  int nanos = 0;  // the next three, which only round
};

// A TIME as read: sign, hours (days folded in) and the rest.
struct Span {
  bool negative = false;
  uint64_t hours = 0;
  int minute = 0, second = 0, micro = 0, nanos = 0;
};

bool IsLeap(int year);
int DaysIn(int year, int month);
// MySQL 8.0's default sql_mode has NO_ZERO_DATE and NO_ZERO_IN_DATE: a zero month or day is as
// wrong as February 30th. Years before 1000 are accepted, as MySQL does.
bool ValidMoment(const Moment& m);
// One second later (carrying into minutes, hours, days, months, years); false past 9999.
bool AddSecond(Moment* m);
// `micros` rounded half up to `fsp` fractional digits, `nanos` deciding the last one.
int64_t RoundMicros(int64_t micros, int nanos, int fsp);
// Rounds the fraction to `fsp` digits, carrying into the seconds; false past 9999.
bool RoundMoment(Moment* m, int fsp);

// 'YYYY-MM-DD[ HH:MM:SS[.f]]' with any delimiters, a 'T' separator, 2-digit years, and the
// compact YYYYMMDD[HHMMSS[.f]] / YYMMDD[HHMMSS] forms. Not validated (ValidMoment).
bool ParseDateTimeText(absl::string_view s, Moment* m);
// MySQL's number_to_datetime: YYMMDD, YYYYMMDD, YYMMDDHHMMSS or YYYYMMDDHHMMSS by magnitude.
bool NumberToMoment(uint64_t nr, Moment* m);

// [-]HHMMSS read from the right (1230 is 00:12:30); a DATETIME number gives its time part.
bool NumberToSpan(uint64_t nr, Span* t);
// '[-][D ]H:M[:S[.f]]', 'HHMMSS[.f]' read from the right, or a DATETIME's time part.
bool ParseSpanText(absl::string_view s, Span* t);
// The span in signed microseconds, the fraction rounded to `fsp` digits; false past
// ±838:59:59.
bool SpanMicros(const Span& t, int fsp, int64_t* out);

}  // namespace shoal::sql
