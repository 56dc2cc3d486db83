// Parts of strings: LOCATE, INSTR, SUBSTRING (SUBSTR, MID), LEFT, RIGHT and REPLACE; and
// positions in lists: FIND_IN_SET, FIELD, ELT. Positions count UTF-8 characters (or list
// items) from 1. LOCATE, INSTR, FIND_IN_SET and FIELD match as the connection's collations
// compare (case and accents folded: engine/schema/text_fold.h; LOCATE and INSTR only between
// spellings of one length in bytes, as MySQL's); REPLACE matches bytes, as MySQL's does.
#include <algorithm>
#include <cmath>

#include "common/utf8.h"
#include "engine/schema/text_fold.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// The byte offset of character `chars` (0-based) of `s`; s.size() past its end.
size_t ByteOffset(absl::string_view s, uint64_t chars) { return Utf8FirstChars(s, chars).size(); }

ColumnDefinition PositionType(const TypingCall& call) {
  return IntColumn(11, false, NullableIfAny(call.args));
}

// The 1-based character position of `needle` in `haystack` from character `from`, 0 when it
// is not there. As MySQL's and MariaDB's (my_instr_mb), the needle is compared, under the
// collation, with the haystack's bytes of its own length from each character on: 'É' finds
// 'é' (two bytes each) but 'e' does not.
int64_t Position(absl::string_view needle, absl::string_view haystack, int64_t from) {
  if (from < 1) return 0;
  size_t byte = 0;
  for (int64_t c = 1;; ++c) {
    if (c >= from && haystack.size() - byte >= needle.size() &&
        schema::CompareFoldedText(haystack.substr(byte, needle.size()), needle) == 0) {
      return c;
    }
    if (byte >= haystack.size()) return 0;
    byte += Utf8StepLength(haystack.substr(byte));
  }
}

// LOCATE(needle, haystack[, from]).
Value LocateValue(EvalCall& call) {
  Value needle = call.Arg(0);
  Value haystack = call.Arg(1);
  Value from = call.arg_count() > 2 ? call.Arg(2) : Value{int64_t{1}};
  if (IsNull(needle) || IsNull(haystack) || IsNull(from)) return Value{};
  bool lossy = false;
  const int64_t start = static_cast<int64_t>(std::llround(ToDouble(from, &lossy)));
  return Position(ValueText(needle), ValueText(haystack), start);
}

// INSTR(haystack, needle): LOCATE with the arguments the other way round.
Value InstrValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  return Position(ValueText(args[1]), ValueText(args[0]), 1);
}

// FIND_IN_SET(needle, 'a,b,c'): the needle's place among the comma-separated items, 0 when it
// is not one of them (a needle with a comma never is), as a SET's members are found.
Value FindInSetValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string needle = ValueText(args[0]);
  if (needle.find(',') != std::string::npos) return int64_t{0};
  const std::string key = CollationKeyText(needle);
  const std::string list = ValueText(args[1]);
  if (list.empty()) return int64_t{0};
  int64_t place = 0;
  for (size_t start = 0;;) {
    ++place;
    const size_t comma = list.find(',', start);
    if (CollationKeyText(list.substr(start, comma - start)) == key) return place;
    if (comma == std::string::npos) return int64_t{0};
    start = comma + 1;
  }
}

ColumnDefinition ListPositionType(const TypingCall&) {
  return IntColumn(3, false, Nullability::kNotNull);
}

ColumnDefinition FindInSetType(const TypingCall& call) {
  return IntColumn(3, false, NullableIfAny(call.args));
}

// FIELD(x, a, b, …): the place of the first argument equal to x, 0 for none (or a NULL x).
Value FieldValue(EvalCall& call) {
  Value x = call.Arg(0);
  if (IsNull(x)) return int64_t{0};
  for (size_t i = 1; i < call.arg_count(); ++i) {
    if (Compare(x, call.Arg(i)) == 0) return static_cast<int64_t>(i);
  }
  return int64_t{0};
}

// ELT(n, a, b, …): the n-th of the others, NULL when there is none.
ColumnDefinition EltType(const TypingCall& call) {
  uint32_t chars = 0;
  for (size_t i = 1; i < call.args.size(); ++i) {
    chars = std::max(chars, DisplayChars(call.args[i], call.state()));
  }
  return StringColumn(chars, call.state(), Nullability::kNullable);
}

Value EltValue(EvalCall& call) {
  Value n = call.Arg(0);
  if (IsNull(n)) return Value{};
  bool lossy = false;
  const double place = std::round(ToDouble(n, &lossy));
  if (place < 1 || place >= static_cast<double>(call.arg_count())) return Value{};
  return call.Arg(static_cast<size_t>(place));
}

// A constant length bounds the result as the value would: MySQL's Item_func_substr.
ColumnDefinition SubstringType(const TypingCall& call) {
  uint64_t chars = DisplayChars(call.args[0], call.state());
  if (std::optional<int64_t> start = ConstantInteger(*call.expr.args[1])) {
    if (*start < 0) {
      chars = static_cast<uint64_t>(-*start) > chars ? 0 : static_cast<uint64_t>(-*start);
    } else {
      chars -= std::min<uint64_t>(static_cast<uint64_t>(*start - 1), chars);
    }
  }
  if (call.expr.args.size() == 3) {
    if (std::optional<int64_t> length = ConstantInteger(*call.expr.args[2])) {
      chars = *length <= 0 ? 0 : std::min<uint64_t>(chars, static_cast<uint64_t>(*length));
    }
  }
  return StringResult(chars, call.state(), NullableIfAny(call.args));
}
// SUBSTRING(s, pos[, len]): a negative pos counts from the end; pos 0, or one before the
// start or past the end, gives ''.
Value SubstringValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const int64_t start = IntegerArg(args[1], call.engine());
  const int64_t length = args.size() > 2 ? IntegerArg(args[2], call.engine()) : INT64_MAX;
  if (length <= 0 || start < INT32_MIN || start > INT32_MAX) return std::string();
  const int64_t chars = CharLength(text);
  const int64_t first = start < 0 ? chars + start : start - 1;
  if (first < 0 || first >= chars) return std::string();
  const size_t begin = ByteOffset(text, static_cast<uint64_t>(first));
  const absl::string_view rest = absl::string_view(text).substr(begin);
  return std::string(Utf8FirstChars(rest, static_cast<uint64_t>(length)));
}

// LEFT and RIGHT: at most a constant count of characters.
ColumnDefinition EndType(const TypingCall& call) {
  uint64_t chars = DisplayChars(call.args[0], call.state());
  if (std::optional<int64_t> count = ConstantInteger(*call.expr.args[1])) {
    chars = *count <= 0 ? 0 : std::min<uint64_t>(chars, static_cast<uint64_t>(*count));
  }
  return StringResult(chars, call.state(), NullableIfAny(call.args));
}
template <bool kLeft>
Value EndValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const int64_t count = IntegerArg(args[1], call.engine());
  if (count <= 0) return std::string();
  const uint64_t chars = CharLength(text);
  const uint64_t keep = std::min<uint64_t>(chars, static_cast<uint64_t>(count));
  if (kLeft) return std::string(Utf8FirstChars(text, keep));
  return text.substr(ByteOffset(text, chars - keep));
}

// Every occurrence of `from` may grow by the difference in length.
ColumnDefinition ReplaceType(const TypingCall& call) {
  const SessionState& state = call.state();
  uint64_t chars = DisplayChars(call.args[0], state);
  const uint64_t from = DisplayChars(call.args[1], state);
  const uint64_t to = DisplayChars(call.args[2], state);
  if (to > from && from > 0) chars += chars / from * (to - from);
  return StringResult(chars, state, NullableIfAny(call.args));
}
Value ReplaceValue(EvalCall& call) {
  std::vector<Value> args;
  if (!call.StrictArgs(&args)) return Value{};
  const std::string text = ValueText(args[0]);
  const std::string from = ValueText(args[1]);
  const std::string to = ValueText(args[2]);
  if (from.empty()) return text;
  std::string out;
  size_t done = 0;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, done)) {
    out.append(text, done, at - done);
    out += to;
    done = at + from.size();
  }
  out.append(text, done, std::string::npos);
  return out;
}

constexpr BuiltinFunction kSubstringFunctions[] = {
    {"ELT", 2, kAnyArgs, EltType, EltValue},
    {"FIELD", 2, kAnyArgs, ListPositionType, FieldValue},
    {"FIND_IN_SET", 2, 2, FindInSetType, FindInSetValue},
    {"INSTR", 2, 2, PositionType, InstrValue},
    {"LEFT", 2, 2, EndType, EndValue<true>},
    {"LOCATE", 2, 3, PositionType, LocateValue},
    {"MID", 2, 3, SubstringType, SubstringValue},
    {"REPLACE", 3, 3, ReplaceType, ReplaceValue},
    {"RIGHT", 2, 2, EndType, EndValue<false>},
    {"SUBSTR", 2, 3, SubstringType, SubstringValue},
    {"SUBSTRING", 2, 3, SubstringType, SubstringValue},
};

}  // namespace

absl::Span<const BuiltinFunction> SubstringFunctions() { return kSubstringFunctions; }

}  // namespace shoal::sql::internal
