// Building and measuring strings: CONCAT, CONCAT_WS, UPPER, LOWER, LPAD, RPAD, REPEAT,
// REVERSE, TRIM, LTRIM, RTRIM, CHAR_LENGTH and LENGTH. Lengths and padding count UTF-8
// characters; case changes follow Unicode.
#include <locale.h>
#include <wctype.h>

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/utf8.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// MAX_BLOB_WIDTH: the length MySQL gives a string whose length it cannot know while typing.
constexpr uint64_t kMaxBlobChars = 16777216;

uint64_t MaxAllowedPacket(const SessionState& state) {
  return state.server != nullptr ? state.server->max_allowed_packet : uint64_t{64} << 20;
}

// MySQL's ER_WARN_ALLOWED_PACKET_OVERFLOWED: the result would not fit in a packet, so it is
// NULL.
Value TooLong(EvalCall& call, absl::string_view function) {
  call.engine().Warn(1301,
                     absl::StrCat("Result of ", function, "() was larger than max_allowed_packet (",
                                  MaxAllowedPacket(call.state()), ") - truncated"));
  return Value{};
}

ColumnDefinition ConcatType(const TypingCall& call) {
  uint32_t chars = 0;
  for (const ColumnDefinition& a : call.args) chars += DisplayChars(a, call.state());
  return StringColumn(chars, call.state(), NullableIfAny(call.args));
}
Value ConcatValue(EvalCall& call) {
  std::string out;
  for (size_t i = 0; i < call.arg_count(); ++i) {
    Value v = call.Arg(i);
    if (IsNull(v)) return Value{};
    out += ValueText(v);
  }
  return out;
}

// The separator goes between every two of the other arguments.
ColumnDefinition ConcatWsType(const TypingCall& call) {
  const SessionState& state = call.state();
  uint64_t chars = uint64_t{DisplayChars(call.args[0], state)} * (call.args.size() - 2);
  for (size_t i = 1; i < call.args.size(); ++i) chars += DisplayChars(call.args[i], state);
  return StringResult(chars, state, NullableIfAny(call.args));
}
// NULL only for a NULL separator: NULL arguments are skipped.
Value ConcatWsValue(EvalCall& call) {
  Value separator = call.Arg(0);
  if (IsNull(separator)) return Value{};
  const std::string sep = ValueText(separator);
  std::string out;
  bool first = true;
  for (size_t i = 1; i < call.arg_count(); ++i) {
    Value v = call.Arg(i);
    if (IsNull(v)) continue;
    if (!first) out += sep;
    out += ValueText(v);
    first = false;
  }
  return out;
}

ColumnDefinition CaseType(const TypingCall& call) {
  return StringColumn(std::max<uint32_t>(call.args[0].length, 1) /
                          static_cast<uint32_t>(std::max(ResultCharsetMaxLen(call.state()), 1)),
                      call.state(), NullableIfAny(call.args));
}
// Unicode's simple case mapping, as utf8mb4's collations map case: glibc's C.UTF-8 tables
// (built into glibc, so present on every machine); ASCII only if that locale is missing.
locale_t CaseLocale() {
  static const locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return locale;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

template <bool kUpper>
Value CaseValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  std::string text = ValueText(v);
  const locale_t locale = CaseLocale();
  if (locale == static_cast<locale_t>(0)) {
    return kUpper ? absl::AsciiStrToUpper(text) : absl::AsciiStrToLower(text);
  }
  std::string out;
  out.reserve(text.size());
  absl::string_view rest = text;
  while (!rest.empty()) {
    Utf8Char c = DecodeUtf8(rest, Utf8Check::kUtf8mb4);
    if (c.length == 0) {  // not UTF-8: the byte as it is
      out.push_back(rest[0]);
      rest.remove_prefix(1);
      continue;
    }
    const wint_t mapped = kUpper ? towupper_l(static_cast<wint_t>(c.code_point), locale)
                                 : towlower_l(static_cast<wint_t>(c.code_point), locale);
    AppendUtf8(static_cast<char32_t>(mapped), &out);
    rest.remove_prefix(c.length);
  }
  return out;
}

// The same number of characters as the argument: REVERSE, TRIM.
ColumnDefinition SameLengthType(const TypingCall& call) {
  return StringResult(DisplayChars(call.args[0], call.state()), call.state(),
                      NullableIfAny(call.args));
}

Value ReverseValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  const std::string text = ValueText(v);
  std::vector<absl::string_view> chars;
  for (absl::string_view rest = text; !rest.empty(); rest.remove_prefix(chars.back().size())) {
    chars.push_back(rest.substr(0, Utf8StepLength(rest)));
  }
  std::string out;
  out.reserve(text.size());
  for (auto it = chars.rbegin(); it != chars.rend(); ++it) out.append(it->data(), it->size());
  return out;
}

// LTRIM and RTRIM remove spaces only, not other white space; TRIM removes its remstr (a
// space unless given), as many times as it repeats, from the side its syntax names
// (`unit`: LEADING, TRAILING, or both).
Value Trimmed(const Value& v, absl::string_view remove, bool leading, bool trailing) {
  std::string text = ValueText(v);
  if (remove.empty()) return text;
  absl::string_view rest = text;
  if (leading) {
    while (absl::ConsumePrefix(&rest, remove)) {
    }
  }
  if (trailing) {
    while (absl::ConsumeSuffix(&rest, remove)) {
    }
  }
  return std::string(rest);
}

template <bool kLeading, bool kTrailing>
Value TrimValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return Trimmed(v, " ", kLeading, kTrailing);
}

Value TrimSyntaxValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  std::string remove = " ";
  if (call.arg_count() > 1) {
    Value r = call.Arg(1);
    if (IsNull(r)) return r;
    remove = ValueText(r);
  }
  const absl::string_view side = call.expr().unit;
  return Trimmed(v, remove, side != "TRAILING", side != "LEADING");
}

ColumnDefinition LengthType(const TypingCall& call) {
  return IntColumn(10, false, NullableIfAny(call.args));
}
Value CharLengthValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return int64_t{CharLength(ValueText(v))};
}
Value ByteLengthValue(EvalCall& call) {
  Value v = call.Arg(0);
  if (IsNull(v)) return v;
  return static_cast<int64_t>(ValueText(v).size());
}

// REPEAT(s, n): s's length times a constant n, else as long as a string can be.
ColumnDefinition RepeatType(const TypingCall& call) {
  std::optional<int64_t> count = ConstantInteger(*call.expr.args[1]);
  if (!count.has_value()) return StringResult(kMaxBlobChars, call.state(), Nullability::kNullable);
  const uint64_t times = static_cast<uint64_t>(std::clamp<int64_t>(*count, 0, INT32_MAX));
  return StringResult(DisplayChars(call.args[0], call.state()) * times, call.state(),
                      NullableIfAny(call.args));
}
Value RepeatValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const int64_t count = IntegerArg(args[1], call.engine());
  if (count <= 0 || text.empty()) return std::string();
  if (static_cast<uint64_t>(count) > MaxAllowedPacket(call.state()) / text.size()) {
    return TooLong(call, "repeat");
  }
  std::string out;
  out.reserve(text.size() * static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out += text;
  return out;
}

// LPAD and RPAD: as many characters as a constant length says, else as long as a string can
// be. A negative constant is read as MySQL reads it, unsigned: past any length.
ColumnDefinition PadType(const TypingCall& call) {
  std::optional<int64_t> length = ConstantInteger(*call.expr.args[1]);
  if (!length.has_value()) return StringResult(kMaxBlobChars, call.state(), Nullability::kNullable);
  const uint64_t chars = *length < 0 ? INT32_MAX : std::min<int64_t>(*length, INT32_MAX);
  return StringResult(chars, call.state(), NullableIfAny(call.args));
}
// `s` cut or padded to `length` characters; padding goes on the left for LPAD. NULL for a
// negative length, or when padding is needed and `pad` is empty.
template <bool kLeft>
Value PadValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const int64_t length = IntegerArg(args[1], call.engine());
  const std::string pad = ValueText(args[2]);
  if (length < 0) return Value{};
  const uint64_t have = CharLength(text);
  const uint64_t want = static_cast<uint64_t>(length);
  if (want <= have) return std::string(Utf8FirstChars(text, want));
  if (pad.empty()) return Value{};
  const uint64_t pad_chars = CharLength(pad);
  const uint64_t missing = want - have;
  if (missing / pad_chars * pad.size() + text.size() > MaxAllowedPacket(call.state())) {
    return TooLong(call, kLeft ? "lpad" : "rpad");
  }
  std::string padding;
  for (uint64_t i = 0; i < missing / pad_chars; ++i) padding += pad;
  absl::StrAppend(&padding, Utf8FirstChars(pad, missing % pad_chars));
  return kLeft ? padding + text : text + padding;
}

constexpr BuiltinFunction kStringFunctions[] = {
    {"CHAR_LENGTH", 1, 1, LengthType, CharLengthValue},
    {"CHARACTER_LENGTH", 1, 1, LengthType, CharLengthValue},
    {"CONCAT", 1, kAnyArgs, ConcatType, ConcatValue},
    {"CONCAT_WS", 2, kAnyArgs, ConcatWsType, ConcatWsValue},
    {"LCASE", 1, 1, CaseType, CaseValue<false>},
    {"LENGTH", 1, 1, LengthType, ByteLengthValue},
    {"LOWER", 1, 1, CaseType, CaseValue<false>},
    {"LPAD", 3, 3, PadType, PadValue<true>},
    {"LTRIM", 1, 1, SameLengthType, TrimValue<true, false>},
    {"OCTET_LENGTH", 1, 1, LengthType, ByteLengthValue},
    {"REPEAT", 2, 2, RepeatType, RepeatValue},
    {"REVERSE", 1, 1, SameLengthType, ReverseValue},
    {"RPAD", 3, 3, PadType, PadValue<false>},
    {"RTRIM", 1, 1, SameLengthType, TrimValue<false, true>},
    {"TRIM", 1, 2, SameLengthType, TrimSyntaxValue},
    {"UCASE", 1, 1, CaseType, CaseValue<true>},
    {"UPPER", 1, 1, CaseType, CaseValue<true>},
};

}  // namespace

absl::Span<const BuiltinFunction> StringFunctions() { return kStringFunctions; }

}  // namespace shoal::sql::internal
