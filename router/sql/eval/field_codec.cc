// Values to packed fields and back with MySQL 8.0's strict-mode conversions (field_codec.h).
//
// Numbers written as text are read digit by digit (NumberText), never through a double, so a
// DECIMAL keeps every digit it is given and integers round as MySQL's my_strntoull10rnd does.
// Dates and times follow MySQL's str_to_datetime / str_to_time / number_to_datetime for the
// forms clients send. The router's session time zone is UTC for now, so a TIMESTAMP is stored
// as given, and its range is 1970-01-01 00:00:01 … 2038-01-19 03:14:07.999999 in UTC.
//
// Integers and strings, the insert and point-select hot path, convert without allocating:
// strings borrow the Value, and the text a conversion makes lives in a Scratch on the stack.
#include "router/sql/eval/field_codec.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <variant>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "common/utf8.h"
#include "engine/schema/collation.h"
#include "router/sql/eval/member_codec.h"
#include "router/sql/eval/temporal_text.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/json/json_parse.h"
#include "router/sql/json/json_print.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {
namespace {

using mysql::SqlError;
using schema::ColumnDef;
using Error = std::optional<SqlError>;
using Wide = __int128;  // any value of any integer column, with room to tell out-of-range apart

namespace errors = mysql::errors;

// MySQL's error messages quote a value as '%-.128s'.
constexpr size_t kMaxQuotedBytes = 128;

// ---------------------------------------------------------------------------------------------
// A converted value as its column stores it, and room for the text a conversion makes.

struct Stored {
  enum class Kind : uint8_t { kInt, kFloat, kDouble, kBytes };
  Kind kind = Kind::kInt;
  int64_t i = 0;
  double d = 0;
  absl::string_view bytes;  // borrows the Value or the Scratch
};

// DECIMAL text (at most 65 digits, a sign, a point and a carry) fits `fixed`; `text` holds
// what needs the heap (numbers printed for string columns, BINARY padding).
struct Scratch {
  char fixed[128];
  std::string text;
  absl::string_view table;  // the column's table, for JSON's messages
  int utc_offset = 0;       // the session's time zone, for TIMESTAMP values
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsBlank(absl::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return absl::ascii_isspace(c); });
}

// `s` cut to what an error message quotes, on a UTF-8 character boundary.
absl::string_view Quoted(absl::string_view s) { return Utf8Prefix(s, kMaxQuotedBytes); }

// ---------------------------------------------------------------------------------------------
// Numbers as written: "[spaces][sign]digits[.digits][e[sign]digits]" and what follows.

struct NumberText {
  bool found = false;  // at least one digit
  bool negative = false;
  absl::string_view integer;   // digits before the point
  absl::string_view fraction;  // digits after it
  int64_t exponent = 0;
  absl::string_view body;  // the number without its sign (for from_chars)
  absl::string_view rest;  // what follows the number

  // The digit standing for 10^power.
  int DigitAt(int64_t power) const {
    int64_t index = Units() - power;
    if (index < 0) return 0;
    if (index < static_cast<int64_t>(integer.size())) return integer[index] - '0';
    index -= static_cast<int64_t>(integer.size());
    return index < static_cast<int64_t>(fraction.size()) ? fraction[index] - '0' : 0;
  }
  // The power of the first nonzero digit; false for zero.
  bool Top(int64_t* power) const {
    for (size_t i = 0; i < integer.size() + fraction.size(); ++i) {
      char c = i < integer.size() ? integer[i] : fraction[i - integer.size()];
      if (c != '0') {
        *power = Units() - static_cast<int64_t>(i);
        return true;
      }
    }
    return false;
  }

 private:
  int64_t Units() const { return static_cast<int64_t>(integer.size()) - 1 + exponent; }
};

size_t SkipDigits(absl::string_view s, size_t i) {
  while (i < s.size() && IsDigit(s[i])) ++i;
  return i;
}

NumberText ScanNumber(absl::string_view s) {
  NumberText n;
  size_t i = 0;
  while (i < s.size() && absl::ascii_isspace(s[i])) ++i;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) n.negative = s[i++] == '-';
  const size_t start = i;
  i = SkipDigits(s, i);
  n.integer = s.substr(start, i - start);
  if (i < s.size() && s[i] == '.') {
    const size_t from = ++i;
    i = SkipDigits(s, i);
    n.fraction = s.substr(from, i - from);
  }
  n.found = !n.integer.empty() || !n.fraction.empty();
  if (!n.found) {
    n.rest = s;
    return n;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    bool negative_exponent = false;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) negative_exponent = s[j++] == '-';
    if (j < s.size() && IsDigit(s[j])) {
      int64_t e = 0;
      for (; j < s.size() && IsDigit(s[j]); ++j) {
        e = std::min<int64_t>(e * 10 + (s[j] - '0'), 1 << 20);  // beyond any column's range
      }
      n.exponent = negative_exponent ? -e : e;
      i = j;
    }
  }
  n.body = s.substr(start, i - start);
  n.rest = s.substr(i);
  return n;
}

// |n| rounded half away from zero to an integer, as MySQL rounds decimals and numeric text.
// False when it is beyond 10^30 (out of every column's range).
bool RoundedMagnitude(const NumberText& n, Wide* out) {
  int64_t top;
  Wide v = 0;
  if (n.Top(&top)) {
    if (top > 30) return false;
    for (int64_t p = top; p >= 0; --p) v = v * 10 + n.DigitAt(p);
    if (n.DigitAt(-1) >= 5) ++v;
  }
  *out = v;
  return true;
}

bool RoundToInteger(const NumberText& n, Wide* out) {
  if (!RoundedMagnitude(n, out)) return false;
  if (n.negative) *out = -*out;
  return true;
}

// The canonical DECIMAL(precision, scale) text of `n` ("-0.50"; zero unsigned), rounded half
// away from zero to `scale` digits, into `buf`. False when the integer part needs more than
// precision - scale digits.
bool FormatDecimal(const NumberText& n, int precision, int scale, char* buf, size_t* size) {
  const int max_integer_digits = precision - scale;
  if (max_integer_digits < 0 || precision > 65) return false;
  int64_t top = -1;
  bool nonzero = n.Top(&top);
  if (nonzero && top >= max_integer_digits) return false;
  const int integer_digits = static_cast<int>(std::max<int64_t>(top, 0)) + 1;
  char digits[100];
  int count = 0;
  for (int p = integer_digits - 1; p >= -scale; --p) digits[count++] = '0' + n.DigitAt(p);
  bool carry = n.DigitAt(-scale - 1) >= 5;
  for (int i = count - 1; carry && i >= 0; --i) {
    carry = digits[i] == '9';
    digits[i] = carry ? '0' : digits[i] + 1;
  }
  // The integer digits start at the first nonzero one (or are the single 0 of a value below
  // one); a carry out of the front adds a leading 1.
  const int kept_integer = integer_digits + (carry ? 1 : 0);
  const bool zero_integer = !carry && integer_digits == 1 && digits[0] == '0';
  if (!zero_integer && kept_integer > max_integer_digits) return false;
  const bool all_zero =
      !carry && std::all_of(digits, digits + count, [](char c) { return c == '0'; });
  char* out = buf;
  if (n.negative && !all_zero) *out++ = '-';
  if (carry) *out++ = '1';
  for (int i = 0; i < integer_digits; ++i) *out++ = digits[i];
  if (scale > 0) {
    *out++ = '.';
    for (int i = integer_digits; i < count; ++i) *out++ = digits[i];
  }
  *size = static_cast<size_t>(out - buf);
  return true;
}

// A number's integer part and first nine fractional digits (for dates and times from numbers).
struct NumberParts {
  bool negative = false;
  uint64_t integer = 0;
  bool huge = false;  // the integer part passes 10^19
  int micro = 0;
  int nanos = 0;
};

bool SplitNumber(absl::string_view text, NumberParts* parts) {
  NumberText n = ScanNumber(text);
  if (!n.found || !IsBlank(n.rest)) return false;
  parts->negative = n.negative;
  int64_t top = -1;
  if (n.Top(&top) && top >= 19) parts->huge = true;
  for (int64_t p = std::min<int64_t>(top, 18); p >= 0; --p) {
    parts->integer = parts->integer * 10 + n.DigitAt(p);
  }
  for (int p = -1; p >= -6; --p) parts->micro = parts->micro * 10 + n.DigitAt(p);
  for (int p = -7; p >= -9; --p) parts->nanos = parts->nanos * 10 + n.DigitAt(p);
  return true;
}

// The shortest text that reads back as `d` (std::to_chars), for DECIMAL and temporal columns.
absl::string_view DoubleText(double d, char* buf, size_t size, std::chars_format format) {
  auto [end, ec] = std::to_chars(buf, buf + size, d, format);
  return ec == std::errc() ? absl::string_view(buf, end - buf) : absl::string_view();
}

// ---------------------------------------------------------------------------------------------
// Per-type conversions. Each returns the error MySQL gives in strict mode, or fills `out`.

bool InRange(const ColumnDef& column, Wide v) {
  const int bits = schema::IntegerBits(column.type);
  if (column.is_unsigned) return v >= 0 && v < (Wide{1} << bits);
  return v >= -(Wide{1} << (bits - 1)) && v < (Wide{1} << (bits - 1));
}

bool IsDateOnly(const mysql::DateTime& t) {
  return t.hour == 0 && t.minute == 0 && t.second == 0 && t.microsecond == 0;
}

// A DATETIME or TIME as MySQL reads it as a number: YYYYMMDDHHMMSS (YYYYMMDD when there is
// no time of day: a DATE) or HHMMSS, with its sign, whole part and microseconds.
struct TemporalDigits {
  bool negative = false;
  Wide whole = 0;
  uint32_t micro = 0;

  Wide Rounded() const {
    Wide n = whole + (micro >= 500000 ? 1 : 0);
    return negative ? -n : n;
  }
};

TemporalDigits TemporalNumber(const mysql::Value& v) {
  TemporalDigits n;
  if (const auto* t = std::get_if<mysql::DateTime>(&v)) {
    n.whole = (Wide{t->year} * 100 + t->month) * 100 + t->day;
    if (!IsDateOnly(*t)) n.whole = ((n.whole * 100 + t->hour) * 100 + t->minute) * 100 + t->second;
    n.micro = t->microsecond;
    return n;
  }
  const auto& t = std::get<mysql::Time>(v);
  n.negative = t.negative;
  n.whole = (Wide{t.days} * 24 + t.hours) * 10000 + t.minutes * 100 + t.seconds;
  n.micro = t.microsecond;
  return n;
}

// The text of a non-text Value: a DateTime without a time of day is a DATE ("2024-01-31").
std::string TextOf(const mysql::Value& v) {
  const auto* t = std::get_if<mysql::DateTime>(&v);
  return t != nullptr && IsDateOnly(*t) ? ValueText(v).substr(0, 10) : ValueText(v);
}

Error ToInteger(const ColumnDef& column, const mysql::Value& v, int row, int64_t* out) {
  Wide w = 0;
  bool truncated = false;
  if (const auto* i = std::get_if<int64_t>(&v)) {
    w = *i;
  } else if (const auto* u = std::get_if<uint64_t>(&v)) {
    w = *u;
  } else if (const auto* d = std::get_if<double>(&v)) {
    // Field_integer::store(double) rounds with rint: halves go to even (2.5 -> 2), unlike
    // decimals and text, which round half away from zero.
    double r = std::rint(*d);
    if (!std::isfinite(r) || std::fabs(r) > 1e30) return errors::OutOfRangeValue(column.name, row);
    w = static_cast<Wide>(r);
  } else if (std::holds_alternative<std::string>(v) || std::holds_alternative<mysql::Decimal>(v)) {
    const std::string& text = std::holds_alternative<std::string>(v)
                                  ? std::get<std::string>(v)
                                  : std::get<mysql::Decimal>(v).text;
    NumberText n = ScanNumber(text);
    if (!n.found) {
      return errors::IncorrectValueForColumn("integer", Quoted(text), column.name, row);
    }
    if (!RoundToInteger(n, &w)) return errors::OutOfRangeValue(column.name, row);
    truncated = !IsBlank(n.rest);
  } else {
    w = TemporalNumber(v).Rounded();
  }
  if (!InRange(column, w)) return errors::OutOfRangeValue(column.name, row);
  if (truncated) return errors::DataTruncated(column.name, row);
  *out = static_cast<int64_t>(static_cast<uint64_t>(w));
  return std::nullopt;
}

// Text as a double: MySQL's Field_real reports text with no number, or with more than spaces
// after it, as 1265 (not 1366 as integers and decimals do).
Error TextToDouble(const ColumnDef& column, absl::string_view text, int row, double* out) {
  NumberText n = ScanNumber(text);
  if (!n.found || !IsBlank(n.rest)) return errors::DataTruncated(column.name, row);
  double d = 0;
  auto [end, ec] = std::from_chars(n.body.data(), n.body.data() + n.body.size(), d);
  int64_t top = 0;
  if (ec == std::errc::result_out_of_range) {
    if (n.Top(&top) && top > 0) return errors::OutOfRangeValue(column.name, row);
    d = 0;  // underflow reads as zero
  } else if (ec != std::errc() || end != n.body.data() + n.body.size()) {
    return errors::DataTruncated(column.name, row);
  }
  *out = n.negative ? -d : d;
  return std::nullopt;
}

Error ToReal(const ColumnDef& column, const mysql::Value& v, int row, double* out) {
  double d = 0;
  if (const auto* i = std::get_if<int64_t>(&v)) {
    d = static_cast<double>(*i);
  } else if (const auto* u = std::get_if<uint64_t>(&v)) {
    d = static_cast<double>(*u);
  } else if (const auto* f = std::get_if<double>(&v)) {
    d = *f;
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    if (Error e = TextToDouble(column, *s, row, &d)) return e;
  } else if (const auto* dec = std::get_if<mysql::Decimal>(&v)) {
    if (Error e = TextToDouble(column, dec->text, row, &d)) return e;
  } else {
    TemporalDigits n = TemporalNumber(v);
    d = static_cast<double>(n.whole) + n.micro / 1e6;
    if (n.negative) d = -d;
  }
  if (!std::isfinite(d) || (column.is_unsigned && d < 0) ||
      (column.type == schema::ColumnType::kFloat && std::fabs(d) > FLT_MAX)) {
    return errors::OutOfRangeValue(column.name, row);
  }
  *out = d;
  return std::nullopt;
}

// The decimal text of a non-text Value, in `buf`.
absl::string_view NumberTextOf(const mysql::Value& v, char* buf, size_t size) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    return absl::string_view(buf, std::to_chars(buf, buf + size, *i).ptr - buf);
  }
  if (const auto* u = std::get_if<uint64_t>(&v)) {
    return absl::string_view(buf, std::to_chars(buf, buf + size, *u).ptr - buf);
  }
  if (const auto* d = std::get_if<double>(&v)) {
    return DoubleText(*d, buf, size, std::chars_format::general);
  }
  TemporalDigits n = TemporalNumber(v);
  int len = absl::SNPrintF(buf, size, "%s%d.%06d", n.negative ? "-" : "",
                           static_cast<int64_t>(n.whole), n.micro);
  return absl::string_view(buf, static_cast<size_t>(std::max(len, 0)));
}

Error ToDecimal(const ColumnDef& column, const mysql::Value& v, int row, Scratch* scratch,
                absl::string_view* out) {
  char number[64];
  absl::string_view text;
  if (const auto* s = std::get_if<std::string>(&v)) {
    text = *s;
  } else if (const auto* d = std::get_if<mysql::Decimal>(&v)) {
    text = d->text;
  } else {
    const auto* f = std::get_if<double>(&v);
    if (f != nullptr && !std::isfinite(*f)) return errors::OutOfRangeValue(column.name, row);
    text = NumberTextOf(v, number, sizeof(number));
  }
  NumberText n = ScanNumber(text);
  // Field_new_decimal::store in strict mode: anything str2my_decimal complains about,
  // trailing garbage included, is 1366.
  if (!n.found || !IsBlank(n.rest)) {
    return errors::IncorrectValueForColumn("decimal", Quoted(text), column.name, row);
  }
  int64_t top;
  if (column.is_unsigned && n.negative && n.Top(&top)) {
    return errors::OutOfRangeValue(column.name, row);
  }
  size_t size = 0;
  if (!FormatDecimal(n, column.precision, column.scale, scratch->fixed, &size)) {
    return errors::OutOfRangeValue(column.name, row);
  }
  *out = absl::string_view(scratch->fixed, size);
  return std::nullopt;
}

// The bytes of a bad sequence as MySQL quotes them: up to six, "\xF0" for non-ASCII, "...".
std::string PrintableBytes(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 6; ++i) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    if (c >= 0x20 && c <= 0x7F) {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppendFormat(&out, "\\x%02X", c);
    }
  }
  if (s.size() > 6) out += "...";
  return out;
}

// `s` cut to `max_chars` UTF-8 characters (or `max_bytes` bytes). MySQL drops excess spaces
// silently (a note); anything else is 1406. Bad UTF-8 (as MariaDB's utf8mb4 checks it) is 1366.
Error FitText(const ColumnDef& column, absl::string_view* s, size_t max_chars, size_t max_bytes,
              int row) {
  size_t pos = 0;
  size_t chars = 0;
  size_t cut = absl::string_view::npos;
  while (pos < s->size()) {
    size_t len = DecodeUtf8(s->substr(pos), Utf8Check::kUtf8mb4).length;
    if (len == 0) {
      return errors::IncorrectStringValue(PrintableBytes(s->substr(pos)), column.name, row);
    }
    if (cut == absl::string_view::npos && (chars == max_chars || pos + len > max_bytes)) cut = pos;
    pos += len;
    ++chars;
  }
  if (cut != absl::string_view::npos) {
    absl::string_view excess = s->substr(cut);
    if (excess.find_first_not_of(' ') != absl::string_view::npos) {
      return errors::DataTooLong(column.name, row);
    }
    *s = s->substr(0, cut);
  }
  return std::nullopt;
}

Error ToBytes(const ColumnDef& column, const mysql::Value& v, int row, Scratch* scratch,
              absl::string_view* out) {
  absl::string_view s;
  if (const auto* str = std::get_if<std::string>(&v)) {
    s = *str;
  } else {
    scratch->text = TextOf(v);
    s = scratch->text;
  }
  const size_t max_bytes = schema::MaxValueBytes(column);
  switch (column.type) {
    case schema::ColumnType::kChar:
    case schema::ColumnType::kVarChar:
    case schema::ColumnType::kText: {
      const size_t max_chars = column.type == schema::ColumnType::kText ? max_bytes : column.length;
      if (Error e = FitText(column, &s, max_chars, max_bytes, row)) return e;
      // CHAR drops trailing spaces on the way in, as MySQL does (PAD_CHAR_TO_FULL_LENGTH off).
      if (column.type == schema::ColumnType::kChar) s = s.substr(0, s.find_last_not_of(' ') + 1);
      break;
    }
    default:
      if (s.size() > max_bytes) return errors::DataTooLong(column.name, row);
      if (column.type == schema::ColumnType::kBinary && s.size() < column.length) {
        if (s.data() != scratch->text.data()) scratch->text.assign(s.data(), s.size());
        scratch->text.resize(column.length, '\0');
        s = scratch->text;
      }
      break;
  }
  *out = s;
  return std::nullopt;
}

// A BIT(M) value (Field_bit::store): a number, or a string's bytes read as one, most
// significant first; more than M bits is 1406.
Error ToBit(const ColumnDef& column, const mysql::Value& v, int row, int64_t* out) {
  uint64_t bits = 0;
  bool fits = true;
  if (const auto* s = std::get_if<std::string>(&v)) {
    for (unsigned char c : *s) {
      if (bits >> 56 != 0) fits = false;
      bits = bits << 8 | c;
    }
  } else if (const auto* i = std::get_if<int64_t>(&v)) {
    bits = static_cast<uint64_t>(*i);
  } else if (const auto* u = std::get_if<uint64_t>(&v)) {
    bits = *u;
  } else {
    bool truncated = false;
    double d = ToDouble(v, &truncated);
    if (!(d >= 0 && d < 18446744073709551616.0)) return errors::DataTooLong(column.name, row);
    bits = static_cast<uint64_t>(std::llround(d));
  }
  if (column.length < 64 && bits >> column.length != 0) fits = false;
  if (!fits) return errors::DataTooLong(column.name, row);
  *out = static_cast<int64_t>(bits);
  return std::nullopt;
}

// JSON text in MySQL's canonical form (Field_json::store): a string that parses, printed
// again; anything else is 3140 (3157 too deep).
Error ToJson(const ColumnDef& column, const mysql::Value& v, int row, Scratch* scratch,
             absl::string_view* out) {
  auto invalid = [&](absl::string_view reason, size_t position) {
    const std::string name =
        scratch->table.empty() ? column.name : absl::StrCat(scratch->table, ".", column.name);
    return SqlError{3140, "22032",
                    absl::StrCat("Invalid JSON text: \"", reason, "\" at position ", position,
                                 " in value for column '", name, "'.")};
  };
  const auto* text = std::get_if<std::string>(&v);
  if (text == nullptr) return invalid("not a JSON text, may need CAST", 0);
  JsonParseResult parsed = ParseJson(*text);
  if (!parsed.ok()) {
    if (parsed.error->code == JsonParseErrorCode::kTooDeep) {
      return SqlError{3157, "22032", "The JSON document exceeds the maximum depth."};
    }
    return invalid(parsed.error->reason(), parsed.error->offset);
  }
  scratch->text = PrintJson(parsed.value);
  if (scratch->text.size() > schema::MaxValueBytes(column)) {
    return errors::DataTooLong(column.name, row);
  }
  *out = scratch->text;
  return std::nullopt;
}

// A non-text numeric Value's integer part and fraction (for dates and times from numbers).
bool NumberPartsOf(const mysql::Value& v, NumberParts* p) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    p->negative = *i < 0;
    p->integer = p->negative ? 0 - static_cast<uint64_t>(*i) : static_cast<uint64_t>(*i);
    return true;
  }
  if (const auto* u = std::get_if<uint64_t>(&v)) {
    p->integer = *u;
    return true;
  }
  char buf[400];
  if (const auto* d = std::get_if<double>(&v)) {
    return std::isfinite(*d) &&
           SplitNumber(DoubleText(*d, buf, sizeof(buf), std::chars_format::fixed), p);
  }
  return SplitNumber(std::get<mysql::Decimal>(v).text, p);
}

// A microsecond past 999999 stays invalid for ValidMoment.
Moment MomentOf(const mysql::DateTime& t) {
  return Moment{t.year,
                t.month,
                t.day,
                t.hour,
                t.minute,
                t.second,
                static_cast<int>(std::min<uint32_t>(t.microsecond, kMicrosPerSecond)),
                0};
}

// The Moment a Value names, or false. A TIME has no date to go with it here (MySQL would take
// CURRENT_DATE), so it is refused.
bool MomentOf(const mysql::Value& v, Moment* m) {
  if (const auto* s = std::get_if<std::string>(&v)) return ParseDateTimeText(*s, m);
  if (const auto* t = std::get_if<mysql::DateTime>(&v)) {
    *m = MomentOf(*t);
    return true;
  }
  if (std::holds_alternative<mysql::Time>(v)) return false;
  NumberParts p;
  if (!NumberPartsOf(v, &p) || p.negative || p.huge || !NumberToMoment(p.integer, m)) {
    return false;
  }
  m->micro = p.micro;
  m->nanos = p.nanos;
  return true;
}

// A packed date and time `seconds` later (earlier when negative); the zero date stays zero.
int64_t ShiftPackedDateTime(int64_t packed, int seconds) {
  if (packed == 0 || seconds == 0) return packed;
  const schema::DateTimeParts p = schema::UnpackDateTime(packed);
  const absl::CivilSecond t =
      absl::CivilSecond(p.year, p.month, p.day, p.hour, p.minute, p.second) + seconds;
  return schema::PackDateTime(static_cast<int>(t.year()), t.month(), t.day(), t.hour(), t.minute(),
                              t.second(), p.microsecond);
}

// A TIMESTAMP is given in the session's time zone (`utc_offset` seconds east of UTC) and
// stored in UTC, where its range is checked, as MySQL does.
Error ToDateLike(const ColumnDef& column, const mysql::Value& v, int row, int utc_offset,
                 int64_t* out) {
  const bool date = column.type == schema::ColumnType::kDate;
  Moment m;
  bool ok = MomentOf(v, &m) && ValidMoment(m);
  if (ok && date) {
    // A DATE keeps the day, whatever the time (MySQL notes the truncation, no rounding).
    *out = int64_t{m.year} * 512 + m.month * 32 + m.day;
    return std::nullopt;
  }
  ok = ok && RoundMoment(&m, column.precision);
  int64_t packed = 0;
  if (ok) {
    packed = schema::PackDateTime(m.year, m.month, m.day, m.hour, m.minute, m.second, m.micro);
    if (column.type == schema::ColumnType::kTimestamp)
      packed = ShiftPackedDateTime(packed, -utc_offset);
    ok = column.type != schema::ColumnType::kTimestamp ||
         (packed >= schema::PackDateTime(1970, 1, 1, 0, 0, 1, 0) &&
          packed <= schema::PackDateTime(2038, 1, 19, 3, 14, 7, 999999));
  }
  if (!ok) {
    const auto* s = std::get_if<std::string>(&v);
    return errors::IncorrectTemporalValue(date ? "date" : "datetime",
                                          s != nullptr ? std::string(Quoted(*s)) : TextOf(v),
                                          column.name, row);
  }
  *out = packed;
  return std::nullopt;
}

bool SpanOf(const mysql::Value& v, Span* t) {
  if (const auto* s = std::get_if<std::string>(&v)) return ParseSpanText(*s, t);
  if (const auto* x = std::get_if<mysql::Time>(&v)) {
    *t = Span{x->negative,
              uint64_t{x->days} * 24 + x->hours,
              x->minutes,
              x->seconds,
              static_cast<int>(std::min<uint32_t>(x->microsecond, kMicrosPerSecond)),
              0};
    return true;
  }
  if (const auto* x = std::get_if<mysql::DateTime>(&v)) {
    const Moment m = MomentOf(*x);
    *t = Span{false, static_cast<uint64_t>(m.hour), m.minute, m.second, m.micro, 0};
    return ValidMoment(m);
  }
  NumberParts p;
  if (!NumberPartsOf(v, &p) || p.huge || !NumberToSpan(p.integer, t)) return false;
  t->negative = p.negative;
  t->micro = p.micro;
  t->nanos = p.nanos;
  return true;
}

Error ToTime(const ColumnDef& column, const mysql::Value& v, int row, int64_t* out) {
  Span t;
  if (SpanOf(v, &t) && SpanMicros(t, column.precision, out)) return std::nullopt;
  const auto* s = std::get_if<std::string>(&v);
  return errors::IncorrectTemporalValue("time", s != nullptr ? std::string(Quoted(*s)) : TextOf(v),
                                        column.name, row);
}

Error Convert(const ColumnDef& column, const mysql::Value& v, int row, Scratch* scratch,
              Stored* out) {
  switch (column.type) {
    case schema::ColumnType::kTinyInt:
    case schema::ColumnType::kSmallInt:
    case schema::ColumnType::kMediumInt:
    case schema::ColumnType::kInt:
    case schema::ColumnType::kBigInt:
      out->kind = Stored::Kind::kInt;
      return ToInteger(column, v, row, &out->i);
    case schema::ColumnType::kFloat:
    case schema::ColumnType::kDouble:
      out->kind =
          column.type == schema::ColumnType::kFloat ? Stored::Kind::kFloat : Stored::Kind::kDouble;
      return ToReal(column, v, row, &out->d);
    case schema::ColumnType::kDecimal:
      out->kind = Stored::Kind::kBytes;
      return ToDecimal(column, v, row, scratch, &out->bytes);
    case schema::ColumnType::kDate:
    case schema::ColumnType::kDateTime:
    case schema::ColumnType::kTimestamp:
      out->kind = Stored::Kind::kInt;
      return ToDateLike(column, v, row, scratch->utc_offset, &out->i);
    case schema::ColumnType::kTime:
      out->kind = Stored::Kind::kInt;
      return ToTime(column, v, row, &out->i);
    case schema::ColumnType::kEnum:
    case schema::ColumnType::kSet:
      out->kind = Stored::Kind::kInt;
      return internal::MemberPosition(column, v, row, &out->i);
    case schema::ColumnType::kJson:
      out->kind = Stored::Kind::kBytes;
      return ToJson(column, v, row, scratch, &out->bytes);
    case schema::ColumnType::kBit:
      out->kind = Stored::Kind::kInt;
      return ToBit(column, v, row, &out->i);
    default:
      out->kind = Stored::Kind::kBytes;
      return ToBytes(column, v, row, scratch, &out->bytes);
  }
}

void Write(const ColumnDef& column, const Stored& stored, schema::RowWriter* out) {
  switch (stored.kind) {
    case Stored::Kind::kInt:
      out->Int(column, stored.i);
      break;
    case Stored::Kind::kFloat:
      out->Float(static_cast<float>(stored.d));
      break;
    case Stored::Kind::kDouble:
      out->Double(stored.d);
      break;
    case Stored::Kind::kBytes:
      out->Bytes(stored.bytes);
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding.

// A FLOAT as its exact double value, as MySQL evaluates it (1.1f + 0 is 1.100000023841858);
// a FLOAT result column still prints and travels as a float (six digits: 1.1).
double FloatValue(float f) { return f; }

mysql::Value DecodeTime(int64_t micros) {
  mysql::Time t;
  t.negative = micros < 0;
  uint64_t m = t.negative ? 0 - static_cast<uint64_t>(micros) : static_cast<uint64_t>(micros);
  t.microsecond = static_cast<uint32_t>(m % kMicrosPerSecond);
  uint64_t s = m / kMicrosPerSecond;
  t.seconds = static_cast<uint8_t>(s % 60);
  t.minutes = static_cast<uint8_t>(s / 60 % 60);
  uint64_t hours = s / 3600;
  t.days = static_cast<uint32_t>(hours / 24);
  t.hours = static_cast<uint8_t>(hours % 24);
  return t;
}

mysql::Value DecodeDateTime(int64_t packed) {
  schema::DateTimeParts p = schema::UnpackDateTime(packed);
  return mysql::DateTime{static_cast<uint16_t>(p.year),       static_cast<uint8_t>(p.month),
                         static_cast<uint8_t>(p.day),         static_cast<uint8_t>(p.hour),
                         static_cast<uint8_t>(p.minute),      static_cast<uint8_t>(p.second),
                         static_cast<uint32_t>(p.microsecond)};
}

// ---------------------------------------------------------------------------------------------
// Result metadata.

namespace flag = mysql::column_flag;
// PART_KEY_FLAG (mysql_com.h): the column is in some index. MySQL sends it with the others.
constexpr uint16_t kPartKeyFlag = 0x4000;

// Display widths of integers (Field_*::max_display_length): [signed, unsigned].
uint32_t IntegerWidth(schema::ColumnType type, bool is_unsigned) {
  switch (type) {
    case schema::ColumnType::kTinyInt:
      return is_unsigned ? 3 : 4;
    case schema::ColumnType::kSmallInt:
      return is_unsigned ? 5 : 6;
    case schema::ColumnType::kMediumInt:
      return is_unsigned ? 8 : 9;
    case schema::ColumnType::kInt:
      return is_unsigned ? 10 : 11;
    default:
      return 20;
  }
}

// The longest text an ENUM or SET shows, in characters: its longest member, or all of a SET's
// members and the commas between them.
uint32_t MemberTextChars(const ColumnDef& c) {
  uint32_t longest = 0, all = 0;
  for (const std::string& member : c.elements) {
    const uint32_t chars = CharLength(member);
    longest = std::max(longest, chars);
    all += chars;
  }
  if (c.type == schema::ColumnType::kEnum) return longest;
  return c.elements.empty() ? 0 : all + static_cast<uint32_t>(c.elements.size()) - 1;
}

bool IsNumeric(schema::ColumnType type) {
  return schema::IsInteger(type) || type == schema::ColumnType::kFloat ||
         type == schema::ColumnType::kDouble || type == schema::ColumnType::kDecimal;
}

// The protocol type of each schema::ColumnType, indexed by its number.
constexpr mysql::ColumnType kWireTypes[] = {
    mysql::ColumnType::kNull,  // no type 0
    mysql::ColumnType::kTiny,      mysql::ColumnType::kShort,      mysql::ColumnType::kInt24,
    mysql::ColumnType::kLong,      mysql::ColumnType::kLongLong,   mysql::ColumnType::kFloat,
    mysql::ColumnType::kDouble,    mysql::ColumnType::kNewDecimal, mysql::ColumnType::kString,
    mysql::ColumnType::kVarString, mysql::ColumnType::kString,     mysql::ColumnType::kVarString,
    mysql::ColumnType::kBlob,      mysql::ColumnType::kBlob,       mysql::ColumnType::kDate,
    mysql::ColumnType::kTime,      mysql::ColumnType::kDateTime,   mysql::ColumnType::kTimestamp,
    mysql::ColumnType::kString,    mysql::ColumnType::kString,     mysql::ColumnType::kJson,
    mysql::ColumnType::kBit,
};
static_assert(std::size(kWireTypes) == static_cast<size_t>(schema::kMaxColumnType) + 1);

// The index MySQL reports as PRIMARY: the primary key, or — when the table has only Shoal's
// hidden one — the first unique key over NOT NULL columns, which MySQL promotes.
int ReportedPrimary(const schema::TableDef& table) {
  if (!table.has_hidden_key()) return 0;
  for (size_t i = 1; i < table.indexes.size(); ++i) {
    const schema::IndexDef& index = table.indexes[i];
    if (index.unique && std::none_of(index.columns.begin(), index.columns.end(),
                                     [&](int c) { return table.columns[c].nullable; })) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// PRI_KEY on every part of the primary key; on the first part of another key UNIQUE_KEY (a
// one-column unique key) or MULTIPLE_KEY; PART_KEY on any part (table.cc does the same).
uint16_t KeyFlags(const schema::TableDef& table, int column) {
  const int primary = ReportedPrimary(table);
  uint16_t flags = 0;
  for (size_t i = 0; i < table.indexes.size(); ++i) {
    const schema::IndexDef& index = table.indexes[i];
    auto at = std::find(index.columns.begin(), index.columns.end(), column);
    if (at == index.columns.end()) continue;
    flags |= kPartKeyFlag;
    if (static_cast<int>(i) == primary) {
      flags |= flag::kPrimaryKey;
    } else if (at == index.columns.begin()) {
      flags |= index.unique && index.columns.size() == 1 ? flag::kUniqueKey : flag::kMultipleKey;
    }
  }
  return flags;
}

}  // namespace

std::optional<mysql::DateTime> DateTimeFromText(absl::string_view text) {
  Moment m;
  if (!ParseDateTimeText(text, &m) || !ValidMoment(m)) return std::nullopt;
  mysql::DateTime t;
  t.year = static_cast<uint16_t>(m.year);
  t.month = static_cast<uint8_t>(m.month);
  t.day = static_cast<uint8_t>(m.day);
  t.hour = static_cast<uint8_t>(m.hour);
  t.minute = static_cast<uint8_t>(m.minute);
  t.second = static_cast<uint8_t>(m.second);
  t.microsecond = static_cast<uint32_t>(m.micro);
  return t;
}

std::optional<int64_t> TimeMicrosFromText(absl::string_view text) {
  Span t;
  if (!ParseSpanText(text, &t) || t.minute >= 60 || t.second >= 60) return std::nullopt;
  int64_t micros = 0;
  if (!SpanMicros(t, 6, &micros)) return std::nullopt;
  return micros;
}

std::optional<SqlError> AppendField(const ColumnDef& column, const mysql::Value& value, int row,
                                    schema::RowWriter* out, absl::string_view table,
                                    int utc_offset) {
  if (mysql::IsNull(value)) {
    if (!column.nullable) return errors::ColumnCannotBeNull(column.name);
    out->Null();
    return std::nullopt;
  }
  Scratch scratch;
  scratch.table = table;
  scratch.utc_offset = utc_offset;
  Stored stored;
  if (Error e = Convert(column, value, row, &scratch, &stored)) return e;
  Write(column, stored, out);
  return std::nullopt;
}

std::variant<std::string, SqlError> EncodeField(const ColumnDef& column, const mysql::Value& value,
                                                int row, int utc_offset) {
  if (mysql::IsNull(value)) return errors::ColumnCannotBeNull(column.name);
  Scratch scratch;
  scratch.utc_offset = utc_offset;
  Stored stored;
  if (Error e = Convert(column, value, row, &scratch, &stored)) return *std::move(e);
  // A key holds fields exactly as EncodeValue packs them.
  schema::RowWriter writer;
  writer.BeginKey();
  Write(column, stored, &writer);
  return std::move(writer.buffer());
}

mysql::Value ZeroValue(const ColumnDef& column) {
  switch (column.type) {
    case schema::ColumnType::kFloat:
    case schema::ColumnType::kDouble:
      return 0.0;
    case schema::ColumnType::kDecimal:
      return mysql::Decimal{column.scale > 0 ? "0." + std::string(column.scale, '0') : "0"};
    case schema::ColumnType::kDate:
    case schema::ColumnType::kDateTime:
    case schema::ColumnType::kTimestamp:
      return mysql::DateTime{};
    case schema::ColumnType::kTime:
      return mysql::Time{};
    case schema::ColumnType::kEnum:
    case schema::ColumnType::kSet:
      return std::string("0");  // position 0 (MySQL's ''), as text the column reads it from
    case schema::ColumnType::kBit:
      return uint64_t{0};
    default:
      break;
  }
  return schema::IsInteger(column.type) ? mysql::Value{int64_t{0}} : mysql::Value{std::string()};
}

namespace {

// A TIME, DATETIME or TIMESTAMP read from `column` shows its fraction digits as text.
mysql::Value WithColumnDecimals(mysql::Value v, const ColumnDef& column) {
  const auto decimals = static_cast<int8_t>(std::min<uint8_t>(column.precision, 6));
  if (auto* t = std::get_if<mysql::DateTime>(&v)) t->decimals = decimals;
  if (auto* t = std::get_if<mysql::Time>(&v)) t->decimals = decimals;
  return v;
}

}  // namespace

mysql::Value DecodeField(const ColumnDef& column, const schema::Field& field, int utc_offset) {
  if (field.null) return mysql::Null{};
  const int fixed = schema::FixedSize(column.type);
  if (fixed > 0 && field.bytes.size() != static_cast<size_t>(fixed)) return mysql::Null{};
  switch (column.type) {
    case schema::ColumnType::kTinyInt:
    case schema::ColumnType::kSmallInt:
    case schema::ColumnType::kMediumInt:
    case schema::ColumnType::kInt:
    case schema::ColumnType::kBigInt:
      if (column.is_unsigned) return schema::FieldUint(column, field.bytes);
      return schema::FieldInt(column, field.bytes);
    case schema::ColumnType::kFloat:
      return FloatValue(static_cast<float>(schema::FieldDouble(column, field.bytes)));
    case schema::ColumnType::kDouble:
      return schema::FieldDouble(column, field.bytes);
    case schema::ColumnType::kDecimal:
      return mysql::Decimal{std::string(field.bytes)};
    case schema::ColumnType::kDate: {
      const int64_t v = schema::FieldInt(column, field.bytes);
      mysql::DateTime d;
      d.year = static_cast<uint16_t>(v / 512);
      d.month = static_cast<uint8_t>(v / 32 % 16);
      d.day = static_cast<uint8_t>(v % 32);
      d.date_only = true;
      return d;
    }
    case schema::ColumnType::kTime:
      return WithColumnDecimals(DecodeTime(schema::FieldInt(column, field.bytes)), column);
    case schema::ColumnType::kDateTime:
      return WithColumnDecimals(DecodeDateTime(schema::FieldInt(column, field.bytes)), column);
    case schema::ColumnType::kTimestamp:
      return WithColumnDecimals(
          DecodeDateTime(ShiftPackedDateTime(schema::FieldInt(column, field.bytes), utc_offset)),
          column);
    case schema::ColumnType::kEnum:
    case schema::ColumnType::kSet:
      return schema::MemberText(column, schema::FieldUint(column, field.bytes));
    case schema::ColumnType::kBit:
      return schema::FieldUint(column, field.bytes);
    default:
      return std::string(field.bytes);
  }
}

bool DecodeRow(const schema::TableDef& table, const std::vector<uint16_t>& columns,
               absl::string_view packed, std::vector<schema::Field>* scratch,
               std::vector<mysql::Value>* out, int utc_offset) {
  scratch->resize(columns.size());
  size_t used = 0;
  if (!schema::SplitRow(table, columns, packed, scratch->data(), &used)) return false;
  out->reserve(out->size() + columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    const schema::Field& f = (*scratch)[i];
    out->push_back(f.null ? mysql::Value{} : DecodeField(table.columns[columns[i]], f, utc_offset));
  }
  return true;
}

namespace {

// A text column's collation in the result charset (`collation_id`'s): the result's own for a
// case-insensitive column, its charset's _bin collation for a _bin one (utf8mb4_bin, 46), as
// MySQL names it — and what tells the expressions over it to compare bytes (expr_eval.cc).
uint16_t TextCollationId(const ColumnDef& c, uint16_t collation_id) {
  return schema::FoldsCase(c) ? collation_id : BinCollationIdOf(collation_id);
}

}  // namespace

mysql::ColumnDefinition ResultColumn(const schema::TableDef& table, int column,
                                     uint16_t collation_id, int charset_max_len) {
  const ColumnDef& c = table.columns[column];
  const bool converted = charset_max_len > 0;
  // Unconverted, a string column's length is its own bytes: 4 per utf8mb4 character.
  const uint32_t max_len = converted ? static_cast<uint32_t>(charset_max_len) : 4;
  mysql::ColumnDefinition d;
  d.schema = table.database;
  d.table = d.org_table = table.name;
  d.name = d.org_name = c.name;
  const auto type = static_cast<size_t>(c.type);
  d.type = type < std::size(kWireTypes) ? kWireTypes[type] : mysql::ColumnType::kVarString;
  d.charset = mysql::charset::kBinary;
  d.flags = KeyFlags(table, column);
  if (!c.nullable) d.flags |= flag::kNotNull;
  if (c.auto_increment) d.flags |= flag::kAutoIncrement;
  // explicit_defaults_for_timestamp is ON in 8.0, so TIMESTAMP is no exception.
  if (!c.nullable && !c.auto_increment && !c.default_value.has_value() && !c.default_now) {
    d.flags |= flag::kNoDefaultValue;
  }
  const uint8_t fsp = std::min<uint8_t>(c.precision, 6);
  switch (c.type) {
    case schema::ColumnType::kTinyInt:
    case schema::ColumnType::kSmallInt:
    case schema::ColumnType::kMediumInt:
    case schema::ColumnType::kInt:
    case schema::ColumnType::kBigInt:
      // A declared display width (TINYINT(1)) is what MySQL reports; numbers carry no BINARY.
      d.length = c.length > 0 ? c.length : IntegerWidth(c.type, c.is_unsigned);
      break;
    case schema::ColumnType::kFloat:
    case schema::ColumnType::kDouble:
      d.length = c.type == schema::ColumnType::kFloat ? 12 : 22;
      d.decimals = kNotFixedDec;
      break;
    case schema::ColumnType::kDecimal:
      // my_decimal_precision_to_length: digits, the point, the sign.
      d.length = c.precision + (c.scale > 0 ? 1 : 0) + (c.is_unsigned ? 0 : 1);
      d.decimals = c.scale;
      break;
    case schema::ColumnType::kChar:
    case schema::ColumnType::kVarChar:
      d.charset = TextCollationId(c, collation_id);
      d.length = c.length * max_len;
      break;
    case schema::ColumnType::kText:
      // The declared type's bytes, each possibly a character in the result charset.
      d.charset = TextCollationId(c, collation_id);
      d.length = static_cast<uint32_t>(std::min<uint64_t>(
          uint64_t{schema::DeclaredBlobBytes(c)} * (converted ? max_len : 1), 0xFFFFFFFF));
      d.flags |= flag::kBlob;
      break;
    case schema::ColumnType::kBinary:
    case schema::ColumnType::kVarBinary:
      d.length = c.length;
      d.flags |= flag::kBinary;
      break;
    case schema::ColumnType::kBlob:
      d.length = schema::DeclaredBlobBytes(c);
      d.flags |= flag::kBlob | flag::kBinary;
      break;
    case schema::ColumnType::kDate:
      d.length = 10;
      d.flags |= flag::kBinary;
      break;
    case schema::ColumnType::kTime:
    case schema::ColumnType::kDateTime:
    case schema::ColumnType::kTimestamp:
      d.length = (c.type == schema::ColumnType::kTime ? 10 : 19) + (fsp > 0 ? fsp + 1 : 0);
      d.decimals = fsp;
      d.flags |= flag::kBinary;
      break;
    case schema::ColumnType::kEnum:
    case schema::ColumnType::kSet:
      d.charset = collation_id;
      d.length = MemberTextChars(c) * max_len;
      d.flags |= c.type == schema::ColumnType::kEnum ? flag::kEnum : flag::kSet;
      break;
    case schema::ColumnType::kJson:
      // MySQL 8.0 sends a JSON column as binary text of up to 4 GiB.
      d.length = 0xFFFFFFFF;
      d.flags |= flag::kBlob | flag::kBinary;
      break;
    case schema::ColumnType::kBit:
      // A number inside, its (length + 7) / 8 bytes on the wire (mysql::BitBytes).
      d.length = c.length;
      d.flags |= flag::kUnsigned;
      break;
  }
  if (c.is_unsigned && IsNumeric(c.type)) d.flags |= flag::kUnsigned;
  return d;
}

}  // namespace shoal::sql
