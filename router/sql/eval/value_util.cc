// See value_util.h.
#include "router/sql/eval/value_util.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/utf8.h"
#include "engine/schema/text_fold.h"
#include "protocol/text_format.h"
#include "router/sql/eval/decimal_arith.h"
#include "router/sql/parse/charsets.h"

namespace shoal::sql {

std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return "0";
  char buf[64];
  double mag = std::fabs(d);
  auto fmt = mag >= 1e-5 && mag < 1e15 ? std::chars_format::fixed : std::chars_format::scientific;
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d, fmt);
  if (ec != std::errc()) return absl::StrCat(d);
  std::string out(buf, end);
  size_t e = out.find('e');
  if (e != std::string::npos) {  // "1e+20" -> "1e20", "1e-07" -> "1e-7"
    std::string mant = out.substr(0, e);
    std::string exp = out.substr(e + 1);
    bool neg = !exp.empty() && exp[0] == '-';
    size_t digits = exp.find_first_not_of("+-0");
    out = absl::StrCat(mant, "e", neg ? "-" : "",
                       digits == std::string::npos ? "0" : exp.substr(digits));
  }
  return out;
}

std::string FormatFixed(double d, int scale) {
  if (!std::isfinite(d)) return FormatDouble(d);
  return absl::StrFormat("%.*f", scale, d);
}

namespace {

// Six fraction digits when there is a fraction, as MySQL prints a temporal value as text.
int FractionDigits(uint32_t microsecond) { return microsecond != 0 ? 6 : 0; }

}  // namespace

std::string CollationKeyText(const mysql::Value& v) {
  const auto* text = std::get_if<std::string>(&v);
  if (text == nullptr) return ValueText(v);
  absl::string_view unpadded = *text;
  while (!unpadded.empty() && unpadded.back() == ' ') unpadded.remove_suffix(1);
  std::string key;
  schema::AppendFoldedText(unpadded, &key);
  return key;
}

std::string CollationKeyText(const mysql::Value& v, uint16_t collation_id) {
  if (!std::holds_alternative<std::string>(v) || !IsBinaryCollationId(collation_id)) {
    return CollationKeyText(v);
  }
  return std::get<std::string>(v);
}

int CompareBinaryText(absl::string_view x, absl::string_view y) {
  const int c = x.compare(y);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

std::string ValueText(const mysql::Value& v) {
  struct Visitor {
    std::string operator()(const mysql::Null&) const { return "NULL"; }
    std::string operator()(int64_t i) const { return absl::StrCat(i); }
    std::string operator()(uint64_t u) const { return absl::StrCat(u); }
    std::string operator()(double d) const { return FormatDouble(d); }
    std::string operator()(const std::string& s) const { return s; }
    std::string operator()(const mysql::Decimal& d) const {
      return internal::ShownDecimalText(d);  // 1/3 reads as 0.3333
    }
    std::string operator()(const mysql::DateTime& t) const {
      std::string s;
      if (t.date_only) {
        mysql::AppendDateText(t, &s);
      } else {
        mysql::AppendDateTimeText(t, Digits(t.decimals, t.microsecond), &s);
      }
      return s;
    }
    std::string operator()(const mysql::Time& t) const {
      std::string s;
      mysql::AppendTimeText(t, Digits(t.decimals, t.microsecond), &s);
      return s;
    }
    static int Digits(int8_t decimals, uint32_t microsecond) {
      return decimals == mysql::kFractionAsNeeded ? FractionDigits(microsecond) : decimals;
    }
  };
  return std::visit(Visitor{}, v);
}

mysql::Value TemporalNumber(const mysql::Value& v) {
  int64_t whole = 0;
  uint32_t microsecond = 0;
  int8_t decimals = mysql::kFractionAsNeeded;
  bool negative = false;
  if (const auto* d = std::get_if<mysql::DateTime>(&v)) {
    whole = int64_t{d->year} * 10000 + d->month * 100 + d->day;
    if (d->date_only) return whole;
    whole = whole * 1000000 + d->hour * 10000 + d->minute * 100 + d->second;
    microsecond = d->microsecond;
    decimals = d->decimals;
  } else if (const auto* t = std::get_if<mysql::Time>(&v)) {
    whole = (int64_t{t->days} * 24 + t->hours) * 10000 + t->minutes * 100 + t->seconds;
    microsecond = t->microsecond;
    decimals = t->decimals;
    negative = t->negative;
  } else {
    return v;
  }
  const int digits = decimals == mysql::kFractionAsNeeded ? FractionDigits(microsecond) : decimals;
  if (digits <= 0) return negative ? -whole : whole;
  std::string fraction = absl::StrFormat("%06u", microsecond).substr(0, digits);
  return mysql::Decimal{absl::StrCat(negative ? "-" : "", whole, ".", fraction)};
}

double ToDouble(const mysql::Value& v, bool* truncated) {
  *truncated = false;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v)) return static_cast<double>(*u);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (IsNull(v)) return 0;
  if (std::holds_alternative<mysql::DateTime>(v) || std::holds_alternative<mysql::Time>(v)) {
    return ToDouble(TemporalNumber(v), truncated);
  }
  std::string text = ValueText(v);
  absl::string_view s = absl::StripLeadingAsciiWhitespace(text);
  // The longest prefix strtod accepts; strtod needs a terminated copy.
  std::string copy(s);
  char* end = nullptr;
  double d = std::strtod(copy.c_str(), &end);
  size_t used = end - copy.c_str();
  if (used == 0 || absl::StripAsciiWhitespace(absl::string_view(copy).substr(used)).size() != 0) {
    *truncated = true;
  }
  if (!std::isfinite(d)) d = 0;  // strtod's "inf"/"nan" are not MySQL numbers
  return used == 0 ? 0 : d;
}

uint32_t CharLength(absl::string_view s) { return static_cast<uint32_t>(Utf8CharCount(s)); }

bool ParseTimeZoneOffset(absl::string_view tz, int* seconds) {
  if (tz.size() < 4 || (tz[0] != '+' && tz[0] != '-')) return false;
  size_t colon = tz.find(':');
  if (colon == absl::string_view::npos) return false;
  int h = 0, m = 0;
  if (!absl::SimpleAtoi(tz.substr(1, colon - 1), &h) ||
      !absl::SimpleAtoi(tz.substr(colon + 1), &m)) {
    return false;
  }
  if (colon - 1 > 2 || tz.size() - colon - 1 != 2 || m > 59 || h > 14 || (h == 14 && m > 0) ||
      (tz[0] == '-' && (h > 13 || (h == 13 && m > 59)))) {
    return false;
  }
  *seconds = (tz[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
  return true;
}

}  // namespace shoal::sql
