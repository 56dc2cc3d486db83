// Numbers and bytes in other notations: CONV, BIN, OCT, HEX, UNHEX, TO_BASE64, FROM_BASE64,
// BIT_COUNT, and IPv4 addresses (INET_ATON, INET_NTOA). Conversions read their text as MySQL's
// my_strntoull does (a numeric prefix; an overflow saturates) and write upper-case digits.
#include <bit>
#include <cmath>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// The value of digit `c` in `base`, -1 when it is none.
int DigitValue(char c, int base) {
  int d = -1;
  if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
    d = c - '0';
  } else if (absl::ascii_isalpha(static_cast<unsigned char>(c))) {
    d = absl::ascii_toupper(static_cast<unsigned char>(c)) - 'A' + 10;
  }
  return d < base ? d : -1;
}

// MySQL's my_strntoull (`is_signed`: my_strntoll) over `text` in `base`: leading spaces, a
// sign, then the digits there are; past 64 bits the largest value (of the sign, signed).
uint64_t ParseRadix(absl::string_view text, int base, bool is_signed) {
  text = absl::StripLeadingAsciiWhitespace(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  bool overflow = false;
  for (char c : text) {
    const int d = DigitValue(c, base);
    if (d < 0) break;
    const unsigned __int128 next = static_cast<unsigned __int128>(value) * base + d;
    if (next > UINT64_MAX) {
      overflow = true;
      break;
    }
    value = static_cast<uint64_t>(next);
  }
  if (is_signed) {
    constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;
    if (overflow || value > (negative ? kMinMagnitude : kMinMagnitude - 1)) {
      return negative ? kMinMagnitude : kMinMagnitude - 1;
    }
    return negative ? ~value + 1 : value;
  }
  if (overflow) return UINT64_MAX;
  return negative ? ~value + 1 : value;
}

// MySQL's longlong2str: `value` in `base` (2..36) unsigned, or, for a negative `base`, signed.
std::string RadixText(uint64_t value, int base) {
  std::string sign;
  if (base < 0) {
    base = -base;
    if (static_cast<int64_t>(value) < 0) {
      sign = "-";
      value = ~value + 1;
    }
  }
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value % static_cast<uint64_t>(base)]);
    value /= static_cast<uint64_t>(base);
  } while (value != 0);
  return sign + digits;
}

// CONV, BIN and OCT: up to 64 digits, NULL for a base outside 2..36 or an empty argument.
ColumnDefinition ConvType(const TypingCall& call) {
  return StringResult(64, call.state(), Nullability::kNullable);
}
Value Conv(const Value& n, int64_t from, int64_t to) {
  const std::string text = ValueText(n);
  const auto bad = [](int64_t base) { return base < -36 || base > 36 || (base > -2 && base < 2); };
  if (bad(from) || bad(to) || text.empty()) return Value{};
  const uint64_t value = ParseRadix(text, static_cast<int>(from < 0 ? -from : from), from < 0);
  return RadixText(value, static_cast<int>(to));
}
Value ConvValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  return Conv(args[0], IntegerArg(args[1], call.engine()), IntegerArg(args[2], call.engine()));
}
template <int kBase>
Value BaseValue(EvalCall& call) {
  const Value n = call.Arg(0);
  if (IsNull(n)) return Value{};
  return Conv(n, 10, kBase);
}

// HEX of a number: its value in hexadecimal (a DOUBLE or DECIMAL rounded, negative ones as
// 64-bit two's complement); of anything else: its bytes, two digits each.
ColumnDefinition HexType(const TypingCall& call) {
  return StringResult(uint64_t{call.args[0].length} * 2, call.state(), NullableIfAny(call.args));
}
Value HexValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  switch (ClassOf(v)) {
    case Cls::kInt:
      return RadixText(static_cast<uint64_t>(Int128(v)), 16);
    case Cls::kReal:
    case Cls::kDecimal: {
      const double d = DoubleArg(v, call.engine());
      uint64_t bits = UINT64_MAX;
      if (d > static_cast<double>(INT64_MIN) && d < 18446744073709551615.0) {
        const double r = d + (d > 0 ? 0.5 : -0.5);
        bits = r < 0 ? static_cast<uint64_t>(static_cast<int64_t>(r)) : static_cast<uint64_t>(r);
      }
      return RadixText(bits, 16);
    }
    default:
      break;
  }
  const std::string bytes = ValueText(v);
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

// UNHEX: a binary string; NULL when a character is not a hexadecimal digit. An odd count of
// digits reads as if a 0 led.
ColumnDefinition UnhexType(const TypingCall& call) {
  return BinaryStringResult((uint64_t{call.args[0].length} + 1) / 2, call.state(),
                            Nullability::kNullable);
}
Value UnhexValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  std::string out;
  out.reserve((text.size() + 1) / 2);
  size_t i = 0;
  if (text.size() % 2 == 1) {
    const int d = DigitValue(text[i++], 16);
    if (d < 0) return Value{};
    out.push_back(static_cast<char>(d));
  }
  for (; i < text.size(); i += 2) {
    const int hi = DigitValue(text[i], 16);
    const int lo = DigitValue(text[i + 1], 16);
    if (hi < 0 || lo < 0) return Value{};
    out.push_back(static_cast<char>(hi << 4 | lo));
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Base64 as MySQL's mysys base64: '+' and '/', '=' padding, a newline after every 76
// characters when encoding; white space skipped when decoding.

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

uint64_t Base64Length(uint64_t bytes) {
  if (bytes == 0) return 0;
  const uint64_t chars = (bytes + 2) / 3 * 4;
  return chars + (chars - 1) / 76;
}

ColumnDefinition ToBase64Type(const TypingCall& call) {
  return StringResult(Base64Length(call.args[0].length), call.state(), NullableIfAny(call.args));
}
Value ToBase64Value(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string in = ValueText(v);
  std::string out;
  out.reserve(Base64Length(in.size()));
  size_t line = 0;
  for (size_t i = 0; i < in.size(); i += 3) {
    if (line == 76) {
      out.push_back('\n');
      line = 0;
    }
    uint32_t group = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) group |= static_cast<unsigned char>(in[i + 1]) << 8;
    if (i + 2 < in.size()) group |= static_cast<unsigned char>(in[i + 2]);
    out.push_back(kBase64[group >> 18 & 63]);
    out.push_back(kBase64[group >> 12 & 63]);
    out.push_back(i + 1 < in.size() ? kBase64[group >> 6 & 63] : '=');
    out.push_back(i + 2 < in.size() ? kBase64[group & 63] : '=');
    line += 4;
  }
  return out;
}

int Base64Digit(char c) {
  const char* p = static_cast<const char*>(std::memchr(kBase64, c, 64));
  return c != '\0' && p != nullptr ? static_cast<int>(p - kBase64) : -1;
}

ColumnDefinition FromBase64Type(const TypingCall& call) {
  return BinaryStringResult(uint64_t{call.args[0].length} / 4 * 3 + 3, call.state(),
                            Nullability::kNullable);
}
// NULL for what is not base64: a character outside the alphabet, a last group of fewer than
// four characters, or padding before the end.
Value FromBase64Value(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  std::string digits;
  for (char c : ValueText(v)) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') digits.push_back(c);
  }
  if (digits.size() % 4 != 0) return Value{};
  std::string out;
  for (size_t i = 0; i < digits.size(); i += 4) {
    const bool last = i + 4 == digits.size();
    int pad = 0;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = digits[i + k];
      if (c == '=' && last && k >= 2 && (k == 3 || digits[i + 3] == '=')) {
        ++pad;
        group <<= 6;
        continue;
      }
      const int d = Base64Digit(c);
      if (d < 0 || pad > 0) return Value{};
      group = group << 6 | static_cast<uint32_t>(d);
    }
    out.push_back(static_cast<char>(group >> 16));
    if (pad < 2) out.push_back(static_cast<char>(group >> 8 & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(group & 0xFF));
  }
  return out;
}

// ---------------------------------------------------------------------------------------

// BIT_COUNT: the bits set in a 64-bit integer, or, of a binary string, in its bytes.
ColumnDefinition BitCountType(const TypingCall& call) {
  return IntColumn(2, false, NullableIfAny(call.args));
}
Value BitCountValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  if (std::holds_alternative<std::string>(v) &&
      call.engine().Type(*call.expr().args[0]).charset == mysql::charset::kBinary) {
    int64_t bits = 0;
    for (unsigned char b : std::get<std::string>(v)) bits += std::popcount(b);
    return bits;
  }
  return int64_t{std::popcount(static_cast<uint64_t>(IntegerArg(v, call.engine())))};
}

// INET_ATON('a.b.c.d'): the address as a number; 'a.b' and 'a.b.c' count the last part as
// the low bytes ('127.1' is 127.0.0.1). NULL for anything else.
ColumnDefinition InetAtonType(const TypingCall&) {
  return IntColumn(21, true, Nullability::kNullable);
}
Value InetAtonValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  uint64_t result = 0, part = 0;
  int dots = 0;
  char last = '.';
  for (char c : text) {
    last = c;
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      part = part * 10 + static_cast<uint64_t>(c - '0');
      if (part > 255) return Value{};
    } else if (c == '.') {
      ++dots;
      result = (result << 8) + part;
      part = 0;
    } else {
      return Value{};
    }
  }
  if (last == '.' || dots > 3) return Value{};
  if (dots == 1) result <<= 16;
  if (dots == 2) result <<= 8;
  return (result << 8) + part;
}

// INET_NTOA(n): the dotted address of 0 <= n < 2^32, else NULL.
ColumnDefinition InetNtoaType(const TypingCall& call) {
  return StringResult(31, call.state(), Nullability::kNullable);
}
Value InetNtoaValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const int64_t n = IntegerArg(v, call.engine());
  if (std::holds_alternative<uint64_t>(v) && std::get<uint64_t>(v) > INT64_MAX) return Value{};
  if (n < 0 || n > 0xFFFFFFFF) return Value{};
  return absl::StrCat(n >> 24, ".", n >> 16 & 0xFF, ".", n >> 8 & 0xFF, ".", n & 0xFF);
}

constexpr BuiltinFunction kRadixFunctions[] = {
    {"BIN", 1, 1, ConvType, BaseValue<2>},
    {"BIT_COUNT", 1, 1, BitCountType, BitCountValue},
    {"CONV", 3, 3, ConvType, ConvValue},
    {"FROM_BASE64", 1, 1, FromBase64Type, FromBase64Value},
    {"HEX", 1, 1, HexType, HexValue},
    {"INET_ATON", 1, 1, InetAtonType, InetAtonValue},
    {"INET_NTOA", 1, 1, InetNtoaType, InetNtoaValue},
    {"OCT", 1, 1, ConvType, BaseValue<8>},
    {"TO_BASE64", 1, 1, ToBase64Type, ToBase64Value},
    {"UNHEX", 1, 1, UnhexType, UnhexValue},
};

}  // namespace

absl::Span<const BuiltinFunction> RadixFunctions() { return kRadixFunctions; }

}  // namespace shoal::sql::internal
