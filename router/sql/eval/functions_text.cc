// More of MySQL's string functions: SUBSTRING_INDEX, INSERT, SPACE, ASCII, ORD, STRCMP,
// CHAR, QUOTE, SOUNDEX, MAKE_SET, EXPORT_SET and BIT_LENGTH; and ISNULL and ANY_VALUE.
// Positions and lengths count UTF-8 characters; SUBSTRING_INDEX matches bytes, as MySQL's.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

uint64_t Chars(const TypingCall& call, size_t i) {
  return DisplayChars(call.args[i], call.state());
}

// SUBSTRING_INDEX(s, delim, count): what comes before the count-th delimiter from the left
// (count > 0) or after the count-th from the right (count < 0); all of s when it has fewer.
ColumnDefinition SubstringIndexType(const TypingCall& call) {
  return StringResult(Chars(call, 0), call.state(), NullableIfAny(call.args));
}
Value SubstringIndexValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const std::string delim = ValueText(args[1]);
  const int64_t count = IntegerArg(args[2], call.engine());
  if (delim.empty() || count == 0) return std::string();
  if (count > 0) {
    size_t at = 0;
    for (int64_t n = 0;; ++n) {
      at = text.find(delim, n == 0 ? 0 : at + delim.size());
      if (at == std::string::npos) return text;
      if (n + 1 == count) return text.substr(0, at);
    }
  }
  size_t end = text.size();
  for (int64_t n = 0; end >= delim.size(); ++n) {
    const size_t at = text.rfind(delim, end - delim.size());
    if (at == std::string::npos) break;
    // (Negated as unsigned: -INT64_MIN has no int64_t.)
    if (static_cast<uint64_t>(n) + 1 == 0 - static_cast<uint64_t>(count)) {
      return text.substr(at + delim.size());
    }
    end = at;
  }
  return text;
}

// INSERT(s, pos, len, new): s with len characters from pos replaced by new; s itself for a
// pos outside it; a negative or too long len reaches the end.
ColumnDefinition InsertType(const TypingCall& call) {
  return StringResult(Chars(call, 0) + Chars(call, 3), call.state(), NullableIfAny(call.args));
}
Value InsertValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  int64_t start = IntegerArg(args[1], call.engine());
  int64_t length = IntegerArg(args[2], call.engine());
  const int64_t chars = CharLength(text);
  if (start < 1 || start > chars) return text;
  --start;
  if (length < 0 || length > chars - start) length = chars - start;
  const size_t begin = Utf8FirstChars(text, static_cast<size_t>(start)).size();
  const size_t end =
      begin +
      Utf8FirstChars(absl::string_view(text).substr(begin), static_cast<size_t>(length)).size();
  return absl::StrCat(text.substr(0, begin), ValueText(args[3]), text.substr(end));
}

// SPACE(n): a constant n bounds the length, else as long as a string can be.
ColumnDefinition SpaceType(const TypingCall& call) {
  std::optional<int64_t> count = ConstantInteger(*call.expr.args[0]);
  if (!count.has_value()) return StringResult(16777216, call.state(), Nullability::kNullable);
  return StringResult(static_cast<uint64_t>(std::clamp<int64_t>(*count, 0, INT32_MAX)),
                      call.state(), NullableIfAny(call.args));
}
Value SpaceValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const int64_t count = IntegerArg(v, call.engine());
  if (count <= 0) return std::string();
  const uint64_t max =
      call.state().server != nullptr ? call.state().server->max_allowed_packet : uint64_t{64} << 20;
  if (static_cast<uint64_t>(count) > max) {
    call.engine().Warn(1301, absl::StrCat("Result of space() was larger than max_allowed_packet (",
                                          max, ") - truncated"));
    return Value{};
  }
  return std::string(static_cast<size_t>(count), ' ');
}

// ASCII: the first byte; ORD: the first character's bytes as a big-endian number.
template <uint32_t kDigits>
ColumnDefinition CodeType(const TypingCall& call) {
  return IntColumn(kDigits, false, NullableIfAny(call.args));
}
Value AsciiValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  return int64_t{text.empty() ? 0 : static_cast<unsigned char>(text[0])};
}
Value OrdValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  int64_t code = 0;
  for (unsigned char b : absl::string_view(text).substr(0, Utf8StepLength(text))) {
    code = code << 8 | b;
  }
  return code;
}

// STRCMP: -1, 0 or 1, the two compared as strings under their collation.
Value StrcmpValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const Value a = ValueText(args[0]);
  const Value b = ValueText(args[1]);
  std::optional<int> order =
      call.engine().CompareBinary(a, b, *call.expr().args[0], *call.expr().args[1]);
  if (!order.has_value()) order = Compare(a, b);
  return int64_t{order.value_or(0) < 0 ? -1 : order.value_or(0) > 0 ? 1 : 0};
}

// CHAR(n, …): a binary string of each n's bytes (1 to 4, big-endian, leading zeros dropped);
// NULL arguments are skipped.
ColumnDefinition CharType(const TypingCall& call) {
  return BinaryStringResult(call.args.size() * 4, call.state(), NullableIfAny(call.args));
}
Value CharValue(EvalCall& call) {
  std::string out;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    const Value v = call.Arg(i);
    if (IsNull(v)) continue;
    const uint32_t n = static_cast<uint32_t>(IntegerArg(v, call.engine()));
    for (int shift = n >> 24 ? 24 : n >> 16 ? 16 : n >> 8 ? 8 : 0; shift >= 0; shift -= 8) {
      out.push_back(static_cast<char>(n >> shift & 0xFF));
    }
  }
  return out;
}

// QUOTE: an SQL string literal of the argument ('\', ''', NUL and ^Z escaped); NULL is the
// word NULL.
ColumnDefinition SqlQuoteType(const TypingCall& call) {
  return StringResult(Chars(call, 0) * 2 + 2, call.state(), NullableIfAny(call.args));
}
Value SqlQuoteValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return std::string("NULL");
  std::string out = "'";
  for (char c : ValueText(v)) {
    switch (c) {
      case '\\':
      case '\'':
        out.push_back('\\');
        out.push_back(c);
        break;
      case '\0':
        out += "\\0";
        break;
      case '\032':
        out += "\\Z";
        break;
      default:
        out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

// SOUNDEX as MySQL's: the first letter, then the codes of the letters after it, each code
// once where it repeats the last one written (vowels, code 0, are dropped and do not separate:
// 'Tymczak' is T520); at least four characters, not cut at four. Letters outside ASCII count
// as vowels.
ColumnDefinition SoundexType(const TypingCall& call) {
  return StringResult(std::max<uint64_t>(Chars(call, 0), 4), call.state(),
                      NullableIfAny(call.args));
}
char SoundexCode(unsigned char c) {
  constexpr char kCodes[] = "01230120022455012623010202";
  c = static_cast<unsigned char>(absl::ascii_toupper(c));
  return c >= 'A' && c <= 'Z' ? kCodes[c - 'A'] : '0';
}
Value SoundexValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  std::string out;
  char last = 0;
  for (absl::string_view rest = text; !rest.empty();) {
    const size_t step = Utf8StepLength(rest);
    const absl::string_view c = rest.substr(0, step);
    rest.remove_prefix(step);
    const unsigned char first = static_cast<unsigned char>(c[0]);
    if (first < 0x80 && !absl::ascii_isalpha(first)) continue;
    const char code = first < 0x80 ? SoundexCode(first) : '0';
    if (out.empty()) {
      if (first < 0x80) {
        out.push_back(absl::ascii_toupper(first));
      } else {
        out.append(c.data(), c.size());
      }
      last = code;
    } else if (code != '0' && code != last) {
      out.push_back(code);
      last = code;
    }
  }
  if (out.empty()) return out;
  for (size_t n = CharLength(out); n < 4; ++n) out.push_back('0');
  return out;
}

// MAKE_SET(bits, s1, s2, …): the strings whose bits are set, comma-separated; NULLs skipped.
ColumnDefinition MakeSetType(const TypingCall& call) {
  uint64_t chars = call.args.size() - 2;  // the commas
  for (size_t i = 1; i < call.args.size(); ++i) chars += Chars(call, i);
  return StringResult(chars, call.state(), NullableIfAny(call.args));
}
Value MakeSetValue(EvalCall& call) {
  const Value b = call.Arg(0);
  if (IsNull(b)) return b;
  uint64_t bits = static_cast<uint64_t>(IntegerArg(b, call.engine()));
  std::string out;
  bool first = true;
  for (size_t i = 1; i < call.arg_count() && bits != 0; ++i, bits >>= 1) {
    if ((bits & 1) == 0) continue;
    const Value s = call.Arg(i);
    if (IsNull(s)) continue;
    absl::StrAppend(&out, first ? "" : ",", ValueText(s));
    first = false;
  }
  return out;
}

// EXPORT_SET(bits, on, off[, separator[, count]]): on or off for each of the first count
// (64 at most, and by default) bits, lowest first.
ColumnDefinition ExportSetType(const TypingCall& call) {
  const uint64_t sep = call.args.size() > 3 ? Chars(call, 3) : 1;
  return StringResult(std::max(Chars(call, 1), Chars(call, 2)) * 64 + sep * 63, call.state(),
                      NullableIfAny(call.args));
}
Value ExportSetValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const uint64_t bits = static_cast<uint64_t>(IntegerArg(args[0], call.engine()));
  const std::string on = ValueText(args[1]);
  const std::string off = ValueText(args[2]);
  const std::string sep = args.size() > 3 ? ValueText(args[3]) : ",";
  uint64_t count = 64;
  if (args.size() > 4) count = std::min<uint64_t>(IntegerArg(args[4], call.engine()), 64);
  std::string out;
  for (uint64_t i = 0; i < count; ++i) {
    absl::StrAppend(&out, i > 0 ? sep : "", (bits >> i & 1) != 0 ? on : off);
  }
  return out;
}

Value BitLengthValue(EvalCall& call) {
  const Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return static_cast<int64_t>(ValueText(v).size() * 8);
}

// ISNULL(x): 1 when x is NULL, else 0; never NULL.
ColumnDefinition IsNullType(const TypingCall&) {
  return IntColumn(1, false, Nullability::kNotNull);
}
Value IsNullValue(EvalCall& call) { return int64_t{IsNull(call.Arg(0)) ? 1 : 0}; }

// ANY_VALUE(x): x, of x's type (it only quiets ONLY_FULL_GROUP_BY in MySQL).
ColumnDefinition AnyValueType(const TypingCall& call) { return call.args[0]; }
Value AnyValueValue(EvalCall& call) { return call.Arg(0); }

constexpr BuiltinFunction kTextFunctions[] = {
    {"ANY_VALUE", 1, 1, AnyValueType, AnyValueValue},
    {"ASCII", 1, 1, CodeType<3>, AsciiValue},
    {"BIT_LENGTH", 1, 1, CodeType<10>, BitLengthValue},
    {"CHAR", 1, kAnyArgs, CharType, CharValue},
    {"EXPORT_SET", 3, 5, ExportSetType, ExportSetValue},
    {"INSERT", 4, 4, InsertType, InsertValue},
    {"ISNULL", 1, 1, IsNullType, IsNullValue},
    {"MAKE_SET", 2, kAnyArgs, MakeSetType, MakeSetValue},
    {"ORD", 1, 1, CodeType<21>, OrdValue},
    {"QUOTE", 1, 1, SqlQuoteType, SqlQuoteValue},
    {"SOUNDEX", 1, 1, SoundexType, SoundexValue},
    {"SPACE", 1, 1, SpaceType, SpaceValue},
    {"STRCMP", 2, 2, CodeType<2>, StrcmpValue},
    {"SUBSTRING_INDEX", 3, 3, SubstringIndexType, SubstringIndexValue},
};

}  // namespace

absl::Span<const BuiltinFunction> TextFunctions() { return kTextFunctions; }

}  // namespace shoal::sql::internal
