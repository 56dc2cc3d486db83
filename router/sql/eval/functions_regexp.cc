// Regular expressions: `x [NOT] REGEXP p` (RLIKE), REGEXP_LIKE, REGEXP_INSTR, REGEXP_SUBSTR and
// REGEXP_REPLACE, as MySQL 8.0 has them, matched with RE2. Case-insensitive unless a string is
// binary or of a _bin collation, or match_type says otherwise ('c' case-sensitive, 'i'
// insensitive, the last one wins; 'm' multi-line, 'n' `.` matches line ends; 'u' changes
// nothing here). Positions and occurrences count UTF-8 characters from 1, as MySQL's do;
// REGEXP_REPLACE's replacement names groups as `$1`, with `\` taking the next character as it
// is. What RE2 does not have (back-references, look-around) is refused with MySQL's error for
// a malformed pattern. Compiled patterns are kept per thread, so a pattern over many rows is
// compiled once.
#include <re2/re2.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

mysql::SqlError RegexpError(const re2::RE2& re) {
  switch (re.error_code()) {
    case re2::RE2::ErrorMissingParen:
    case re2::RE2::ErrorUnexpectedParen:
      return {3691, "HY000", "Mismatched parenthesis in regular expression."};
    case re2::RE2::ErrorMissingBracket:
      return {3696, "HY000", "The regular expression contains an unclosed bracket expression."};
    case re2::RE2::ErrorBadEscape:
      return {3689, "HY000", "Unrecognized escape sequence in regular expression."};
    case re2::RE2::ErrorBadCharRange:
      return {3697, "HY000",
              "The regular expression contains a feature that is not implemented "
              "in this library version."};
    case re2::RE2::ErrorPatternTooLarge:
      return {3700, "HY000",
              "The regular expression pattern exceeds limits on size or "
              "complexity."};
    default:
      return {
          3688, "HY000",
          absl::StrCat("Syntax error in regular expression on line 1, character ",
                       re.error_arg().empty() ? 1 : re.pattern().find(re.error_arg()) + 1, ".")};
  }
}

// Patterns a thread keeps compiled: enough for the statements of a busy session, few enough
// that their memory stays small.
constexpr size_t kCachedPatterns = 32;

// The pattern compiled with the call's flags, from this thread's cache; null with the error
// set when it does not compile.
const re2::RE2* Compile(const std::string& pattern, bool case_sensitive, bool multi_line,
                        bool dot_all, ExprEngine& engine) {
  thread_local absl::flat_hash_map<std::string, std::unique_ptr<re2::RE2>> cache;
  std::string key = absl::StrCat(case_sensitive ? "c" : "i", multi_line ? "m" : "-",
                                 dot_all ? "n" : "-", pattern);
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() >= kCachedPatterns) cache.clear();
    re2::RE2::Options options;
    options.set_case_sensitive(case_sensitive);
    options.set_dot_nl(dot_all);
    options.set_never_nl(false);
    options.set_log_errors(false);
    options.set_max_mem(1 << 20);  // with kCachedPatterns, at most 32 MiB a thread
    const std::string text = multi_line ? "(?m)" + pattern : pattern;
    it = cache.emplace(std::move(key), std::make_unique<re2::RE2>(text, options)).first;
  }
  if (!it->second->ok()) {
    engine.SetError(RegexpError(*it->second));
    return nullptr;
  }
  return it->second.get();
}

// A call's subject and its compiled pattern.
struct Regexp {
  std::string subject;
  const re2::RE2* re = nullptr;
};

// Reads the subject, the pattern and, from argument `match_type` when the call has it, the
// match type. False when one is NULL (the result is then NULL) or an error was set.
bool Prepare(EvalCall& call, int match_type, Regexp* out) {
  Value subject = call.Arg(0);
  Value pattern = call.Arg(1);
  if (IsNull(subject) || IsNull(pattern)) return false;
  bool case_sensitive =
      call.engine().BinaryStrings(subject, pattern, *call.expr().args[0], *call.expr().args[1]);
  bool multi_line = false, dot_all = false;
  if (match_type >= 0 && static_cast<size_t>(match_type) < call.arg_count()) {
    Value type = call.Arg(match_type);
    if (IsNull(type)) return false;
    for (char c : ValueText(type)) {
      switch (c) {
        case 'c':
          case_sensitive = true;
          break;
        case 'i':
          case_sensitive = false;
          break;
        case 'm':
          multi_line = true;
          break;
        case 'n':
          dot_all = true;
          break;
        case 'u':
          break;
        default:
          call.engine().SetError(mysql::errors::WrongArguments(call.expr().name));
          return false;
      }
    }
  }
  out->subject = ValueText(subject);
  out->re = Compile(ValueText(pattern), case_sensitive, multi_line, dot_all, call.engine());
  return out->re != nullptr;
}

// An integer argument `i` if the call has it, else `fallback`; nullopt when it is NULL.
std::optional<int64_t> IntArgOr(EvalCall& call, size_t i, int64_t fallback) {
  if (i >= call.arg_count()) return fallback;
  Value v = call.Arg(i);
  if (IsNull(v)) return std::nullopt;
  return IntegerArg(v, call.engine());
}

// The byte offset where character `position` (1-based) starts; false with MySQL's 3686 when it
// is before the first or past the end.
bool StartByte(EvalCall& call, const std::string& subject, int64_t position, size_t* out) {
  const uint64_t chars = CharLength(subject);
  if (position < 1 || static_cast<uint64_t>(position) > chars + 1) {
    if (position == 1) {
      *out = 0;
      return true;
    }
    call.engine().SetError({3686, "HY000", "Index out of bounds in regular expression search."});
    return false;
  }
  *out = Utf8FirstChars(subject, static_cast<uint64_t>(position - 1)).size();
  return true;
}

// Finds matches one after another from byte `from`; an empty match moves on a character.
class Matches {
 public:
  Matches(const re2::RE2& re, absl::string_view subject, size_t from)
      : re_(re), subject_(subject), at_(from), groups_(1 + re.NumberOfCapturingGroups()) {}

  // The next match (its groups in groups()); false when there is none.
  bool Next() {
    if (at_ > subject_.size()) return false;
    if (!re_.Match(re2::StringPiece(subject_.data(), subject_.size()), at_, subject_.size(),
                   re2::RE2::UNANCHORED, groups_.data(), static_cast<int>(groups_.size()))) {
      return false;
    }
    const re2::StringPiece& whole = groups_[0];
    const size_t start = whole.data() - subject_.data();
    at_ = start + whole.size();
    if (whole.empty()) at_ += at_ < subject_.size() ? Utf8StepLength(subject_.substr(at_)) : 1;
    return true;
  }
  size_t start() const { return groups_[0].data() - subject_.data(); }
  size_t end() const { return start() + groups_[0].size(); }
  const std::vector<re2::StringPiece>& groups() const { return groups_; }

 private:
  const re2::RE2& re_;
  absl::string_view subject_;
  size_t at_;
  std::vector<re2::StringPiece> groups_;
};

// The `occurrence`-th match from character `position` (arguments 2 and 3, 1 and 1 unless
// given; an occurrence below 1 is the first) into *found, or nullopt when there is none.
// False when an argument is NULL or an error was set.
bool FindOccurrence(EvalCall& call, const Regexp& r, std::optional<Matches>* found) {
  const auto position = IntArgOr(call, 2, 1);
  const auto occurrence = IntArgOr(call, 3, 1);
  if (!position || !occurrence) return false;
  size_t from;
  if (!StartByte(call, r.subject, *position, &from)) return false;
  found->emplace(*r.re, r.subject, from);
  for (int64_t n = 0; n < std::max<int64_t>(*occurrence, 1); ++n) {
    if (!(*found)->Next()) {
      found->reset();
      break;
    }
  }
  return true;
}

ColumnDefinition LikeType(const TypingCall& call) {
  return IntColumn(1, false, NullableIfAny(call.args));
}
ColumnDefinition PositionType(const TypingCall& call) {
  return IntColumn(21, false, NullableIfAny(call.args));
}
ColumnDefinition SubstrType(const TypingCall& call) {
  return StringResult(DisplayChars(call.args[0], call.state()), call.state(),
                      Nullability::kNullable);
}
ColumnDefinition ReplaceType(const TypingCall& call) {
  return StringResult(std::max<uint64_t>(DisplayChars(call.args[0], call.state()), 1) *
                          std::max<uint64_t>(DisplayChars(call.args[2], call.state()), 1),
                      call.state(), NullableIfAny(call.args));
}

// REGEXP_LIKE(subject, pattern[, match_type]); `x REGEXP p` is REGEXP_LIKE(x, p).
Value LikeValue(EvalCall& call) {
  Regexp r;
  if (!Prepare(call, 2, &r)) return Value{};
  return int64_t{re2::RE2::PartialMatch(r.subject, *r.re)};
}

// REGEXP_INSTR(subject, pattern[, position[, occurrence[, return_option[, match_type]]]]):
// where the occurrence starts (return_option 0) or the character after it ends (1); 0 if none.
Value InstrValue(EvalCall& call) {
  Regexp r;
  if (!Prepare(call, 5, &r)) return Value{};
  const auto option = IntArgOr(call, 4, 0);
  if (!option) return Value{};
  if (*option != 0 && *option != 1) {
    call.engine().SetError(mysql::errors::WrongArguments("regexp_instr"));
    return Value{};
  }
  std::optional<Matches> found;
  if (!FindOccurrence(call, r, &found)) return Value{};
  if (!found) return int64_t{0};
  const size_t byte = *option == 0 ? found->start() : found->end();
  return static_cast<int64_t>(CharLength(absl::string_view(r.subject).substr(0, byte))) + 1;
}

// REGEXP_SUBSTR(subject, pattern[, position[, occurrence[, match_type]]]): the occurrence's
// text; NULL if none.
Value SubstrValue(EvalCall& call) {
  Regexp r;
  if (!Prepare(call, 4, &r)) return Value{};
  std::optional<Matches> found;
  if (!FindOccurrence(call, r, &found) || !found) return Value{};
  return r.subject.substr(found->start(), found->end() - found->start());
}

// `replacement` for one match: `$n` is group n, `\c` is c.
void AppendReplacement(absl::string_view replacement, const std::vector<re2::StringPiece>& groups,
                       std::string* out) {
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c == '\\' && i + 1 < replacement.size()) {
      out->push_back(replacement[++i]);
    } else if (c == '$' && i + 1 < replacement.size() && replacement[i + 1] >= '0' &&
               replacement[i + 1] <= '9') {
      const size_t group = replacement[++i] - '0';
      if (group < groups.size()) out->append(groups[group].data(), groups[group].size());
    } else {
      out->push_back(c);
    }
  }
}

// REGEXP_REPLACE(subject, pattern, replacement[, position[, occurrence[, match_type]]]):
// occurrence 0 (the default) replaces every match from position on.
Value ReplaceValue(EvalCall& call) {
  Regexp r;
  if (!Prepare(call, 5, &r)) return Value{};
  Value replacement = call.Arg(2);
  if (IsNull(replacement)) return Value{};
  const std::string with = ValueText(replacement);
  const auto position = IntArgOr(call, 3, 1);
  const auto occurrence = IntArgOr(call, 4, 0);
  if (!position || !occurrence) return Value{};
  size_t from;
  if (!StartByte(call, r.subject, *position, &from)) return Value{};
  std::string out = r.subject.substr(0, from);
  size_t copied = from;
  Matches matches(*r.re, r.subject, from);
  for (int64_t n = 1; matches.Next(); ++n) {
    if (*occurrence > 0 && n < *occurrence) continue;
    out.append(r.subject, copied, matches.start() - copied);
    AppendReplacement(with, matches.groups(), &out);
    copied = matches.end();
    if (*occurrence > 0) break;
  }
  out.append(r.subject, copied);
  return out;
}

constexpr BuiltinFunction kFunctions[] = {
    {"REGEXP_LIKE", 2, 3, LikeType, LikeValue},
    {"REGEXP_INSTR", 2, 6, PositionType, InstrValue},
    {"REGEXP_SUBSTR", 2, 5, SubstrType, SubstrValue},
    {"REGEXP_REPLACE", 3, 6, ReplaceType, ReplaceValue},
};

}  // namespace

absl::Span<const BuiltinFunction> RegexpFunctions() { return kFunctions; }

}  // namespace shoal::sql::internal
