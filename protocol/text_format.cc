// MySQL text formatting of values (see text_format.h). The floating-point layout follows
// my_gcvt in MySQL's strings/dtoa.cc: digits from a shortest round-trip conversion, then a
// choice between 'f' and 'e' notation by the width of the field.
#include "protocol/text_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace shoal::mysql {
namespace {

// MySQL: MAX_DECPT_FOR_F_FORMAT = DBL_DIG.
constexpr int kMaxDecptForF = 15;

// Significant digits (no trailing zeros) and decimal point position of |x|, which is finite:
// x = 0.DIGITS * 10^decpt. At most `max_digits` digits, rounded to nearest.
void Digits(double x, int max_digits, std::string* digits, int* decpt) {
  x = std::fabs(x);
  if (x == 0) {
    digits->assign(1, '0');
    *decpt = 1;
    return;
  }
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), x, std::chars_format::scientific);
  std::string text(buf, result.ptr);
  auto parse = [&](const std::string& s) {
    const size_t e = s.find('e');
    digits->clear();
    for (size_t i = 0; i < e; ++i) {
      if (s[i] != '.') digits->push_back(s[i]);
    }
    *decpt = std::atoi(s.c_str() + e + 1) + 1;
    while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
  };
  parse(text);
  if (static_cast<int>(digits->size()) > max_digits) {
    const int n = std::snprintf(buf, sizeof(buf), "%.*e", std::max(max_digits, 1) - 1, x);
    parse(std::string(buf, static_cast<size_t>(n)));
  }
}

// `exact`: never drop digits to fit the width (doubles: a client must read back the same
// value; MySQL's own buffer for them is large enough that it never cuts either).
void AppendGcvt(double x, int width, int max_digits, bool exact, std::string* out) {
  if (!std::isfinite(x)) {
    out->push_back('0');  // what MySQL's dtoa reports on overflow
    return;
  }
  if (x < 0) --width;
  std::string digits;
  int decpt;
  Digits(x, max_digits, &digits, &decpt);
  int len = static_cast<int>(digits.size());
  const int exp_len = 1 + (decpt >= 101 || decpt <= -99) + (decpt >= 11 || decpt <= -9);
  const bool have_space = (decpt <= 0 ? len - decpt + 2 : decpt < len ? len + 1 : decpt) <= width;
  const bool force_e = decpt <= 0 && width <= 2 - decpt && width >= 3 + exp_len;
  const bool use_f =
      (have_space ||
       (decpt <= width && (decpt >= -1 || (decpt == -2 && (len > 1 || !force_e))) && !force_e)) &&
      (!have_space || (decpt >= -kMaxDecptForF + 1 && (decpt <= kMaxDecptForF || len > decpt)));
  if (std::signbit(x)) out->push_back('-');
  if (use_f) {
    const int room = width - ((decpt < len) + (decpt <= 0 ? 1 - decpt : 0));
    if (room < len) {  // unreachable for widths 12 and 22; kept for parity with my_gcvt
      Digits(x, std::max(room, 1), &digits, &decpt);
      len = static_cast<int>(digits.size());
    }
    if (decpt <= 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-decpt), '0');
      out->append(digits);
    } else if (decpt < len) {
      out->append(digits, 0, static_cast<size_t>(decpt));
      out->push_back('.');
      out->append(digits, static_cast<size_t>(decpt));
    } else {
      out->append(digits);
      out->append(static_cast<size_t>(decpt - len), '0');
    }
    return;
  }
  int exponent = decpt - 1;
  int room = width - (exponent < 0) - 1 - exp_len - (len > 1);
  if (room < len && !exact) {
    Digits(x, std::max(room, 1), &digits, &decpt);
    len = static_cast<int>(digits.size());
    exponent = decpt - 1;
  }
  out->push_back(digits[0]);
  if (len > 1) {
    out->push_back('.');
    out->append(digits, 1);
  }
  out->push_back('e');
  if (exponent < 0) out->push_back('-');
  absl::StrAppend(out, std::abs(exponent));
}

void AppendFraction(uint32_t microsecond, int digits, std::string* out) {
  if (digits <= 0) return;
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%06u", microsecond % 1000000);
  out->push_back('.');
  out->append(buf, static_cast<size_t>(std::min(digits, 6)));
}

int FractionDigits(ColumnType type, ColumnType expect, uint8_t decimals, uint32_t microsecond) {
  if (type == expect) return decimals >= kNotFixedDecimals ? 6 : std::min<int>(decimals, 6);
  return microsecond != 0 ? 6 : 0;
}

bool IsFloatType(ColumnType type) {
  return type == ColumnType::kFloat || type == ColumnType::kDouble;
}

bool IsDecimalType(ColumnType type) {
  return type == ColumnType::kDecimal || type == ColumnType::kNewDecimal;
}

}  // namespace

void AppendDateText(const DateTime& t, std::string* out) {
  absl::StrAppend(out, absl::StrFormat("%04u-%02u-%02u", t.year, t.month, t.day));
}

void AppendDateTimeText(const DateTime& t, int fraction_digits, std::string* out) {
  AppendDateText(t, out);
  absl::StrAppend(out, absl::StrFormat(" %02u:%02u:%02u", t.hour, t.minute, t.second));
  AppendFraction(t.microsecond, fraction_digits, out);
}

void AppendTimeText(const Time& t, int fraction_digits, std::string* out) {
  const uint64_t hours = static_cast<uint64_t>(t.days) * 24 + t.hours;
  absl::StrAppend(
      out, absl::StrFormat("%s%02u:%02u:%02u", t.negative ? "-" : "", hours, t.minutes, t.seconds));
  AppendFraction(t.microsecond, fraction_digits, out);
}

void AppendDouble(double v, std::string* out) { AppendGcvt(v, 22, 22, true, out); }

void AppendFloat(float v, std::string* out) { AppendGcvt(v, 12, 6, false, out); }

void AppendTextValue(const Value& v, ColumnType type, uint8_t decimals, std::string* out) {
  if (const auto* i = std::get_if<int64_t>(&v)) {
    absl::StrAppend(out, *i);
  } else if (const auto* u = std::get_if<uint64_t>(&v)) {
    absl::StrAppend(out, *u);
  } else if (const auto* d = std::get_if<double>(&v)) {
    if ((IsFloatType(type) || IsDecimalType(type)) && decimals < kNotFixedDecimals &&
        std::isfinite(*d)) {
      absl::StrAppend(out, absl::StrFormat("%.*f", static_cast<int>(decimals), *d));
    } else if (type == ColumnType::kFloat) {
      AppendFloat(static_cast<float>(*d), out);
    } else {
      AppendDouble(*d, out);
    }
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    out->append(*s);
  } else if (const auto* dec = std::get_if<Decimal>(&v)) {
    out->append(dec->text);
  } else if (const auto* dt = std::get_if<DateTime>(&v)) {
    if (type == ColumnType::kDate) {
      AppendDateText(*dt, out);
      return;
    }
    const ColumnType expect =
        type == ColumnType::kTimestamp ? ColumnType::kTimestamp : ColumnType::kDateTime;
    AppendDateTimeText(*dt, FractionDigits(type, expect, decimals, dt->microsecond), out);
  } else if (const auto* t = std::get_if<Time>(&v)) {
    AppendTimeText(*t, FractionDigits(type, ColumnType::kTime, decimals, t->microsecond), out);
  }
}

std::string QuoteSqlString(absl::string_view s) {
  std::string out = "'";
  for (char c : s) {
    switch (c) {
      case '\0':
        out += "\\0";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "''";
        break;
      default:
        out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

}  // namespace shoal::mysql
