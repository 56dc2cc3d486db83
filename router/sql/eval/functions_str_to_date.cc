// STR_TO_DATE(str, format): DATE_FORMAT read backwards, as MySQL's extract_date_time. The
// result type comes from a constant format's specifiers (fix_from_format): date and time parts
// give a DATETIME, only time parts a TIME, else a DATE; %f brings six fraction digits. What
// does not match is NULL with the 1411 warning; text left over after the format, the 1292 one.
#include <algorithm>
#include <array>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/temporal_text.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::ColumnType;
using mysql::Value;

struct Shape {
  ColumnType type = ColumnType::kDateTime;
  uint8_t fsp = 6;
};

// MySQL's fix_from_format. Its lists leave out %d, %e and %D: a day alone is no date part.
Shape ShapeOf(absl::string_view format) {
  constexpr absl::string_view kTimeParts = "HISThiklrs";
  constexpr absl::string_view kDateParts = "MVUXYWabcjmvuxyw";
  bool date = false, time = false, fraction = false;
  for (size_t i = 0; i + 1 < format.size(); ++i) {
    if (format[i] != '%') continue;
    const char c = format[++i];
    if (c == 'f') {
      fraction = time = true;
    } else if (absl::StrContains(kTimeParts, c)) {
      time = true;
    } else if (absl::StrContains(kDateParts, c)) {
      date = true;
    }
  }
  if (date && fraction) return {ColumnType::kDateTime, 6};
  if (fraction) return {ColumnType::kTime, 6};
  if (time) return date ? Shape{ColumnType::kDateTime, 0} : Shape{ColumnType::kTime, 0};
  return {ColumnType::kDate, 0};
}

ColumnDefinition StrToDateType(const TypingCall& call) {
  const Expr& format = *call.expr.args[1];
  Shape shape;
  if (format.kind == ExprKind::kLiteral && format.literal == LiteralKind::kString) {
    shape = ShapeOf(format.text);
  }
  return TemporalColumn(shape.type, shape.fsp, Nullability::kNullable);
}

// What the value gave, MySQL's MYSQL_TIME fields as extract_date_time fills them.
struct Parts {
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micro = 0;
  int64_t yearday = 0;
  bool twelve_hour = false;  // %h %I %l: %p adds the half day
  int64_t half_day = 0;
};

class Reader {
 public:
  explicit Reader(absl::string_view value) : s_(value) {}

  void SkipSpaces() {
    while (!done() && absl::ascii_isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool done() const { return i_ >= s_.size(); }
  char peek() const { return s_[i_]; }
  void advance(size_t n = 1) { i_ = std::min(i_ + n, s_.size()); }
  absl::string_view rest() const { return s_.substr(i_); }

  // Up to `width` digits (a sign first, as my_strtoll10 takes it); false when there are none.
  bool Number(size_t width, int64_t* out, size_t* digits = nullptr) {
    size_t end = std::min(s_.size(), i_ + width), j = i_;
    bool negative = false;
    if (j < end && (s_[j] == '-' || s_[j] == '+')) negative = s_[j++] == '-';
    const size_t first = j;
    int64_t n = 0;
    for (; j < end && absl::ascii_isdigit(static_cast<unsigned char>(s_[j])); ++j) {
      n = n * 10 + (s_[j] - '0');
    }
    if (j == first) return false;
    if (digits != nullptr) *digits = j - first;
    *out = negative ? -n : n;
    i_ = j;
    return true;
  }

  // The letters at the current position, matched without case against `names` cut to `len`
  // (0: whole); the index of the match, or -1.
  int Word(const std::array<absl::string_view, 12>& names, size_t count, size_t len) {
    size_t j = i_;
    while (j < s_.size() && absl::ascii_isalpha(static_cast<unsigned char>(s_[j]))) ++j;
    const absl::string_view word = s_.substr(i_, j - i_);
    for (size_t k = 0; k < count; ++k) {
      const absl::string_view name = len == 0 ? names[k] : names[k].substr(0, len);
      if (absl::EqualsIgnoreCase(word, name)) {
        i_ = j;
        return static_cast<int>(k);
      }
    }
    return -1;
  }

 private:
  absl::string_view s_;
  size_t i_ = 0;
};

std::array<absl::string_view, 12> MonthNames() {
  std::array<absl::string_view, 12> names;
  for (int m = 0; m < 12; ++m) names[m] = MonthName(m + 1);
  return names;
}
std::array<absl::string_view, 12> DayNames() {
  std::array<absl::string_view, 12> names;
  for (int d = 0; d < 7; ++d) names[d] = DayName(d);
  return names;
}

int64_t TwoDigitYear(int64_t y) { return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y; }

enum class Step { kOk, kMismatch, kUnsupported };

// One specifier (after its %) read from `r` into `p`.
Step ReadSpecifier(char c, Reader& r, Parts* p) {
  int64_t n = 0;
  size_t digits = 0;
  switch (c) {
    case 'Y':
      if (!r.Number(4, &p->year, &digits)) return Step::kMismatch;
      if (digits <= 2) p->year = TwoDigitYear(p->year);
      return Step::kOk;
    case 'y':
      if (!r.Number(2, &n)) return Step::kMismatch;
      p->year = TwoDigitYear(n);
      return Step::kOk;
    case 'm':
    case 'c':
      return r.Number(2, &p->month) ? Step::kOk : Step::kMismatch;
    case 'M':
    case 'b': {
      const int m = r.Word(MonthNames(), 12, c == 'b' ? 3 : 0);
      p->month = m + 1;
      return m < 0 ? Step::kMismatch : Step::kOk;
    }
    case 'd':
    case 'e':
      return r.Number(2, &p->day) ? Step::kOk : Step::kMismatch;
    case 'D':
      if (!r.Number(2, &p->day)) return Step::kMismatch;
      r.advance(2);  // the suffix: st, nd, rd, th
      return Step::kOk;
    case 'h':
    case 'I':
    case 'l':
      p->twelve_hour = true;
      return r.Number(2, &p->hour) ? Step::kOk : Step::kMismatch;
    case 'H':
    case 'k':
      return r.Number(2, &p->hour) ? Step::kOk : Step::kMismatch;
    case 'i':
      return r.Number(2, &p->minute) ? Step::kOk : Step::kMismatch;
    case 's':
    case 'S':
      return r.Number(2, &p->second) ? Step::kOk : Step::kMismatch;
    case 'f':
      if (!r.Number(6, &p->micro, &digits)) return Step::kMismatch;
      for (; digits < 6; ++digits) p->micro *= 10;
      return Step::kOk;
    case 'p': {
      const absl::string_view rest = r.rest();
      if (rest.size() < 2 || !p->twelve_hour) return Step::kMismatch;
      if (absl::StartsWithIgnoreCase(rest, "PM")) {
        p->half_day = 12;
      } else if (!absl::StartsWithIgnoreCase(rest, "AM")) {
        return Step::kMismatch;
      }
      r.advance(2);
      return Step::kOk;
    }
    case 'W':
    case 'a':
      return r.Word(DayNames(), 7, c == 'a' ? 3 : 0) < 0 ? Step::kMismatch : Step::kOk;
    case 'w':
      return r.Number(1, &n) ? Step::kOk : Step::kMismatch;
    case 'j':
      return r.Number(3, &p->yearday) ? Step::kOk : Step::kMismatch;
    case 'U':
    case 'u':
    case 'V':
    case 'v':
    case 'X':
    case 'x':
      return Step::kUnsupported;
    case '.':  // classes of characters: punctuation, letters, digits
      while (!r.done() && absl::ascii_ispunct(static_cast<unsigned char>(r.peek()))) r.advance();
      return Step::kOk;
    case '@':
      while (!r.done() && absl::ascii_isalpha(static_cast<unsigned char>(r.peek()))) r.advance();
      return Step::kOk;
    case '#':
      while (!r.done() && absl::ascii_isdigit(static_cast<unsigned char>(r.peek()))) r.advance();
      return Step::kOk;
    default:
      return Step::kMismatch;
  }
}

// The whole value against the whole format; spaces before each part are skipped, and reading
// stops when either runs out.
Step Extract(Reader& r, absl::string_view format, Parts* p, char* unsupported) {
  for (size_t i = 0; i < format.size(); ++i) {
    r.SkipSpaces();
    if (r.done()) break;
    if (format[i] == '%' && i + 1 < format.size()) {
      const Step step = ReadSpecifier(format[++i], r, p);
      if (step == Step::kUnsupported) *unsupported = format[i];
      if (step != Step::kOk) return step;
    } else if (!absl::ascii_isspace(static_cast<unsigned char>(format[i]))) {
      if (r.peek() != format[i]) return Step::kMismatch;
      r.advance();
    }
  }
  return Step::kOk;
}

// The checks after reading: the half day, the day of the year, the ranges.
bool Complete(Parts* p) {
  if (p->twelve_hour) {
    if (p->hour > 12 || p->hour < 1) return false;
    p->hour = p->hour % 12 + p->half_day;
  }
  if (p->yearday > 0) {
    mysql::DateTime d;
    const int64_t n = DayNumber(mysql::DateTime{
                          static_cast<uint16_t>(std::clamp<int64_t>(p->year, 0, 9999)), 1, 1}) +
                      p->yearday - 1;
    if (!DateOfDayNumber(n, &d)) return false;
    p->year = d.year;
    p->month = d.month;
    p->day = d.day;
  }
  return p->year >= 0 && p->year <= 9999 && p->month >= 0 && p->month <= 12 && p->day >= 0 &&
         p->day <= 31 && p->hour >= 0 && p->hour <= 23 && p->minute >= 0 && p->minute <= 59 &&
         p->second >= 0 && p->second <= 59;
}

Value Incorrect(ExprEngine& engine, const std::string& text) {
  engine.Warn(1411,
              absl::StrCat("Incorrect datetime value: '", text, "' for function str_to_date"));
  return Value{};
}

Value StrToDateValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  // %T and %r are their parts, as MySQL reads them.
  const std::string format =
      absl::StrReplaceAll(ValueText(args[1]), {{"%T", "%H:%i:%S"}, {"%r", "%I:%i:%S %p"}});
  const ColumnType type = call.ResultType().type;
  Reader r(text);
  Parts p;
  char unsupported = 0;
  const Step step = Extract(r, format, &p, &unsupported);
  if (step == Step::kUnsupported) {
    call.engine().SetError(mysql::errors::NotSupportedYet(
        absl::StrCat("STR_TO_DATE specifier %", std::string(1, unsupported))));
    return Value{};
  }
  if (step != Step::kOk || !Complete(&p)) return Incorrect(call.engine(), text);
  r.SkipSpaces();
  if (!r.done()) {
    const char* kind = type == ColumnType::kDate   ? "date"
                       : type == ColumnType::kTime ? "time"
                                                   : "datetime";
    call.engine().Warn(1292, absl::StrCat("Truncated incorrect ", kind, " value: '", text, "'"));
  }
  if (type == ColumnType::kTime) {
    const int64_t seconds = ((p.day * 24 + p.hour) * 60 + p.minute) * 60 + p.second;
    return TimeOfMicros(std::min(seconds * kMicrosPerSecond + p.micro, kMaxTimeMicros));
  }
  // NO_ZERO_DATE and NO_ZERO_IN_DATE, and no February 30th.
  if (p.year == 0 || p.month == 0 || p.day == 0 ||
      p.day > DaysIn(static_cast<int>(p.year), static_cast<int>(p.month))) {
    return Incorrect(call.engine(), text);
  }
  mysql::DateTime d{static_cast<uint16_t>(p.year),  static_cast<uint8_t>(p.month),
                    static_cast<uint8_t>(p.day),    static_cast<uint8_t>(p.hour),
                    static_cast<uint8_t>(p.minute), static_cast<uint8_t>(p.second),
                    static_cast<uint32_t>(p.micro)};
  if (type == ColumnType::kDate) d.hour = d.minute = d.second = d.microsecond = 0;
  return d;
}

constexpr BuiltinFunction kStrToDateFunctions[] = {
    {"STR_TO_DATE", 2, 2, StrToDateType, StrToDateValue},
};

}  // namespace

absl::Span<const BuiltinFunction> StrToDateFunctions() { return kStrToDateFunctions; }

}  // namespace shoal::sql::internal
