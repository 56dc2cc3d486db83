// See json_print.h.
#include "router/sql/json/json_print.h"

#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace shoal::sql {
namespace {

// MySQL's MAX_DECPT_FOR_F_FORMAT: my_gcvt prints plainly while the decimal point position
// (e + 1 for d.ddd x 10^e) is within [1 - 15, 15], or beyond 15 while digits remain after it.
constexpr int kMaxDecptForFixed = 15;

void AppendEscaped(char c, std::string* out) {
  out->push_back('\\');
  switch (c) {
    case '\b':
      out->push_back('b');
      return;
    case '\t':
      out->push_back('t');
      return;
    case '\n':
      out->push_back('n');
      return;
    case '\f':
      out->push_back('f');
      return;
    case '\r':
      out->push_back('r');
      return;
    case '"':
    case '\\':
      out->push_back(c);
      return;
    default:
      break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  auto u = static_cast<uint8_t>(c);
  out->append("u00");
  out->push_back(kHex[u >> 4]);
  out->push_back(kHex[u & 0xF]);
}

void AppendDouble(double d, std::string* out) {
  if (d == 0) {
    out->append(std::signbit(d) ? "-0.0" : "0.0");
    return;
  }
  // Shortest round-trip digits, as "[-]d[.ddd]e[+-]xx".
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
  absl::string_view sci(buf, ec == std::errc() ? end - buf : 0);
  bool negative = !sci.empty() && sci[0] == '-';
  if (negative) sci.remove_prefix(1);
  size_t e_at = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_at)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;
  if (e_at != absl::string_view::npos) {
    absl::string_view e = sci.substr(e_at + 1);  // "+20", "-07"
    bool minus = !e.empty() && e[0] == '-';
    if (!e.empty() && (e[0] == '-' || e[0] == '+')) e.remove_prefix(1);
    for (char c : e) exponent = exponent * 10 + (c - '0');
    if (minus) exponent = -exponent;
  }
  const int len = static_cast<int>(digits.size());
  const int decpt = exponent + 1;  // digits before the decimal point

  if (negative) out->push_back('-');
  if (decpt >= 1 - kMaxDecptForFixed && (decpt <= kMaxDecptForFixed || len > decpt)) {
    if (decpt <= 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-decpt), '0');
      out->append(digits);
    } else if (decpt < len) {
      out->append(digits, 0, decpt);
      out->push_back('.');
      out->append(digits, decpt);
    } else {
      out->append(digits);
      out->append(static_cast<size_t>(decpt - len), '0');
      out->append(".0");  // MySQL marks an integral double so it does not read as an integer
    }
    return;
  }
  out->push_back(digits[0]);
  if (len > 1) {
    out->push_back('.');
    out->append(digits, 1);
  }
  absl::StrAppend(out, "e", exponent);
}

}  // namespace

void AppendQuotedJsonString(absl::string_view s, std::string* out) {
  out->reserve(out->size() + s.size() + 2);
  out->push_back('"');
  size_t plain = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    auto u = static_cast<uint8_t>(s[i]);
    if (u > 0x1F && u != '"' && u != '\\') continue;
    out->append(s.data() + plain, i - plain);
    AppendEscaped(s[i], out);
    plain = i + 1;
  }
  out->append(s.data() + plain, s.size() - plain);
  out->push_back('"');
}

std::string QuoteJsonString(absl::string_view s) {
  std::string out;
  AppendQuotedJsonString(s, &out);
  return out;
}

void AppendJson(const JsonValue& v, std::string* out) {
  switch (v.type()) {
    case JsonType::kNull:
      out->append("null");
      return;
    case JsonType::kBoolean:
      out->append(v.boolean() ? "true" : "false");
      return;
    case JsonType::kInteger:
      absl::StrAppend(out, v.integer());
      return;
    case JsonType::kUnsigned:
      absl::StrAppend(out, v.unsigned_integer());
      return;
    case JsonType::kDouble:
      AppendDouble(v.dbl(), out);
      return;
    case JsonType::kString:
      AppendQuotedJsonString(v.string(), out);
      return;
    case JsonType::kArray: {
      out->push_back('[');
      bool first = true;
      for (const JsonValue& e : v.array()) {
        if (!first) out->append(", ");
        first = false;
        AppendJson(e, out);
      }
      out->push_back(']');
      return;
    }
    case JsonType::kObject: {
      out->push_back('{');
      bool first = true;
      for (const JsonMember& m : v.members()) {
        if (!first) out->append(", ");
        first = false;
        AppendQuotedJsonString(m.key, out);
        out->append(": ");
        AppendJson(m.value, out);
      }
      out->push_back('}');
      return;
    }
  }
}

std::string PrintJson(const JsonValue& v) {
  std::string out;
  AppendJson(v, &out);
  return out;
}

std::string JsonUnquotedText(const JsonValue& v) {
  return v.is_string() ? v.string() : PrintJson(v);
}

std::string FormatJsonDouble(double d) {
  std::string out;
  AppendDouble(d, &out);
  return out;
}

}  // namespace shoal::sql
