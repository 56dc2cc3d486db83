#include "router/sql/eval/temporal_text.h"

#include <array>

#include "absl/strings/ascii.h"

namespace shoal::sql {

static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

static size_t SkipDigits(absl::string_view s, size_t i) {
  while (i < s.size() && IsDigit(s[i])) ++i;
  return i;
}

bool IsLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysIn(int year, int month) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

bool ValidMoment(const Moment& m) {
  return m.year >= 0 && m.year <= 9999 && m.month >= 1 && m.month <= 12 && m.day >= 1 &&
         m.day <= DaysIn(m.year, m.month) && m.hour >= 0 && m.hour < 24 && m.minute >= 0 &&
         m.minute < 60 && m.second >= 0 && m.second < 60 && m.micro >= 0 &&
         m.micro < kMicrosPerSecond;
}

bool AddSecond(Moment* m) {
  if (++m->second < 60) return true;
  m->second = 0;
  if (++m->minute < 60) return true;
  m->minute = 0;
  if (++m->hour < 24) return true;
  m->hour = 0;
  if (++m->day <= DaysIn(m->year, m->month)) return true;
  m->day = 1;
  if (++m->month <= 12) return true;
  m->month = 1;
  return ++m->year <= 9999;
}

static int64_t Pow10(int n) {
  int64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// Microseconds plus rounding nanoseconds, rounded half up to `fsp` digits (MySQL rounds
// fractional seconds by default, nanoseconds to microseconds first).
int64_t RoundMicros(int64_t micros, int nanos, int fsp) {
  micros += nanos >= 500 ? 1 : 0;
  const int64_t unit = Pow10(6 - std::clamp(fsp, 0, 6));
  const int64_t below = micros % unit;
  return micros - below + (below * 2 >= unit ? unit : 0);
}

bool RoundMoment(Moment* m, int fsp) {
  int64_t micros = RoundMicros(m->micro, m->nanos, fsp);
  m->nanos = 0;
  if (micros >= kMicrosPerSecond) {
    micros -= kMicrosPerSecond;
    if (!AddSecond(m)) return false;
  }
  m->micro = static_cast<int>(micros);
  return true;
}

// Up to `max` digits from the front of *s; false when there are none.
static bool TakeNumber(absl::string_view* s, size_t max, int* value, size_t* count = nullptr) {
  size_t n = 0;
  int v = 0;
  while (n < s->size() && n < max && IsDigit((*s)[n])) v = v * 10 + ((*s)[n++] - '0');
  if (count != nullptr) *count = n;
  s->remove_prefix(n);
  *value = v;
  return n > 0;
}

// Fraction digits after a '.', into micro and nanos (digits past the ninth are ignored).
static bool TakeFraction(absl::string_view* s, int* micro, int* nanos) {
  if (s->empty() || s->front() != '.') return true;
  s->remove_prefix(1);
  int digits[9] = {};
  size_t n = 0;
  for (; n < s->size() && IsDigit((*s)[n]); ++n) {
    if (n < 9) digits[n] = (*s)[n] - '0';
  }
  s->remove_prefix(n);
  *micro = 0;
  *nanos = 0;
  for (int i = 0; i < 6; ++i) *micro = *micro * 10 + digits[i];
  for (int i = 6; i < 9; ++i) *nanos = *nanos * 10 + digits[i];
  return true;
}

static bool SkipDelimiters(absl::string_view* s) {
  size_t n = 0;
  while (n < s->size() && absl::ascii_ispunct((*s)[n])) ++n;
  s->remove_prefix(n);
  return n > 0;
}

// Two-digit years: 70-99 are 1970-1999, 00-69 are 2000-2069.
static int ExpandYear(int year, size_t digits) {
  if (digits > 2) return year;
  return year + (year < 70 ? 2000 : 1900);
}

// YYYYMMDD, YYMMDD, YYYYMMDDHHMMSS, YYMMDDHHMMSS.
static bool ParseCompactDateTime(absl::string_view digits, Moment* m) {
  const size_t year_digits = digits.size() == 8 || digits.size() == 14 ? 4 : 2;
  if (digits.size() != 6 && digits.size() != 8 && digits.size() != 12 && digits.size() != 14) {
    return false;
  }
  TakeNumber(&digits, year_digits, &m->year);
  m->year = ExpandYear(m->year, year_digits);
  TakeNumber(&digits, 2, &m->month);
  TakeNumber(&digits, 2, &m->day);
  if (digits.empty()) return true;
  TakeNumber(&digits, 2, &m->hour);
  TakeNumber(&digits, 2, &m->minute);
  TakeNumber(&digits, 2, &m->second);
  return true;
}

// Y-M-D[( |T)h[:m[:s[.f]]]] with any punctuation between the parts.
static bool ParseDelimitedDateTime(absl::string_view s, Moment* m) {
  size_t year_digits = 0;
  if (!TakeNumber(&s, 4, &m->year, &year_digits) || !SkipDelimiters(&s) ||
      !TakeNumber(&s, 2, &m->month) || !SkipDelimiters(&s) || !TakeNumber(&s, 2, &m->day)) {
    return false;
  }
  m->year = ExpandYear(m->year, year_digits);
  if (s.empty()) return true;
  if (s.front() == 'T') {
    s.remove_prefix(1);
  } else {
    absl::string_view before = s;
    s = absl::StripLeadingAsciiWhitespace(s);
    if (s.size() == before.size()) return false;
  }
  if (!TakeNumber(&s, 2, &m->hour)) return false;
  int* const later[] = {&m->minute, &m->second};
  for (int* part : later) {
    if (s.empty() || s.front() == '.') break;
    if (!SkipDelimiters(&s) || !TakeNumber(&s, 2, part)) return false;
  }
  return TakeFraction(&s, &m->micro, &m->nanos) && s.empty();
}

bool ParseDateTimeText(absl::string_view s, Moment* m) {
  s = absl::StripAsciiWhitespace(s);
  // As MySQL tells them apart: a first field of more than four digits is the compact form.
  const size_t digits = SkipDigits(s, 0);
  if (digits <= 4) return ParseDelimitedDateTime(s, m);
  if (!ParseCompactDateTime(s.substr(0, digits), m)) return false;
  s.remove_prefix(digits);
  if (!s.empty() && digits < 12) return false;  // a fraction needs a time
  return TakeFraction(&s, &m->micro, &m->nanos) && s.empty();
}

bool NumberToMoment(uint64_t nr, Moment* m) {
  if (nr != 0 && nr < 10000101000000ULL) {
    if (nr < 101) return false;
    if (nr <= 691231) {
      nr = (nr + 20000000) * 1000000;
    } else if (nr < 700101) {
      return false;
    } else if (nr <= 991231) {
      nr = (nr + 19000000) * 1000000;
    } else if (nr < 10000101) {
      return false;
    } else if (nr <= 99991231) {
      nr *= 1000000;
    } else if (nr < 101000000) {
      return false;
    } else if (nr <= 691231235959ULL) {
      nr += 20000000000000ULL;
    } else if (nr < 700101000000ULL) {
      return false;
    } else if (nr <= 991231235959ULL) {
      nr += 19000000000000ULL;
    }
  }
  if (nr > 99991231235959ULL) return false;
  m->second = static_cast<int>(nr % 100);
  m->minute = static_cast<int>(nr / 100 % 100);
  m->hour = static_cast<int>(nr / 10000 % 100);
  m->day = static_cast<int>(nr / 1000000 % 100);
  m->month = static_cast<int>(nr / 100000000 % 100);
  m->year = static_cast<int>(nr / 10000000000ULL);
  return true;
}

bool NumberToSpan(uint64_t nr, Span* t) {
  if (nr > 8385959) {
    Moment m;
    if (nr < 10000000000ULL || !NumberToMoment(nr, &m)) return false;
    nr = static_cast<uint64_t>(m.hour) * 10000 + m.minute * 100 + m.second;
  }
  t->hours = nr / 10000;
  t->minute = static_cast<int>(nr / 100 % 100);
  t->second = static_cast<int>(nr % 100);
  return true;
}

// [-][D ]H:M[:S[.f]], [-]D H, [-]HHMMSS[.f], or a DATETIME's time part.
bool ParseSpanText(absl::string_view s, Span* t) {
  s = absl::StripAsciiWhitespace(s);
  if (!s.empty() && s.front() == '-') {
    t->negative = true;
    s.remove_prefix(1);
  }
  const size_t digits = SkipDigits(s, 0);
  const bool date_like = digits < s.size() && (s[digits] == '-' || s[digits] == '/');
  if (date_like || (digits >= 12 && (digits == s.size() || s[digits] == '.'))) {
    Moment m;
    if (t->negative || !ParseDateTimeText(s, &m) || !ValidMoment(m)) return false;
    *t = Span{false, static_cast<uint64_t>(m.hour), m.minute, m.second, m.micro, m.nanos};
    return true;
  }
  if (digits == 0 || digits > 10) return false;
  uint64_t first = 0;
  for (size_t i = 0; i < digits; ++i) first = first * 10 + (s[i] - '0');
  s.remove_prefix(digits);
  if (s.empty() || s.front() == '.') {
    if (!NumberToSpan(first, t)) return false;
  } else {
    uint64_t days = 0;
    if (s.front() == ' ') {
      days = first;
      s = absl::StripLeadingAsciiWhitespace(s);
      int hour;
      if (!TakeNumber(&s, 3, &hour)) return false;
      first = static_cast<uint64_t>(hour);
    }
    if (days > 34) return false;
    t->hours = days * 24 + first;
    int* const later[] = {&t->minute, &t->second};
    for (int* part : later) {
      if (s.empty() || s.front() != ':') break;
      s.remove_prefix(1);
      if (!TakeNumber(&s, 2, part)) return false;
    }
  }
  return TakeFraction(&s, &t->micro, &t->nanos) && s.empty();
}

// The stored TIME (signed microseconds) of `t` rounded to `fsp` digits; false when not a time
// or beyond ±838:59:59.
bool SpanMicros(const Span& t, int fsp, int64_t* out) {
  if (t.minute >= 60 || t.second >= 60 || t.micro >= kMicrosPerSecond || t.hours > 838) {
    return false;
  }
  int64_t seconds = (static_cast<int64_t>(t.hours) * 60 + t.minute) * 60 + t.second;
  int64_t micros = seconds * kMicrosPerSecond + RoundMicros(t.micro, t.nanos, fsp);
  if (micros > kMaxTimeMicros) return false;
  *out = t.negative ? -micros : micros;
  return true;
}

}  // namespace shoal::sql
