// GET_LOCK, RELEASE_LOCK, RELEASE_ALL_LOCKS, IS_FREE_LOCK and IS_USED_LOCK. Their answers are
// the dictionary master's (user_lock_calls.h): a call answers what the master said when the
// statement runs again, or stops it to ask. Where a statement cannot stop so (over a table's
// rows, in a subquery or SELECT … INTO), 1235.
#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/session.h"
#include "router/sql/eval/value_util.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

// MySQL's limit on a lock name (NAME_LEN), in characters.
constexpr size_t kMaxNameChars = 64;

ColumnDefinition FlagType(const TypingCall&) { return IntColumn(1, false, Nullability::kNullable); }
ColumnDefinition HolderType(const TypingCall&) {
  return IntColumn(10, true, Nullability::kNullable);
}
ColumnDefinition CountType(const TypingCall&) { return IntColumn(10, true, Nullability::kNotNull); }

size_t Utf8Chars(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

// The lock name argument, lower-cased; nullopt after 3057 for NULL, '' or a name too long.
std::optional<std::string> LockName(EvalCall& call) {
  ExprEngine& engine = call.engine();
  const Value v = call.Arg(0);
  if (engine.failed()) return std::nullopt;
  if (mysql::IsNull(v)) {
    engine.SetError(mysql::errors::UserLockWrongName("NULL"));
    return std::nullopt;
  }
  std::string name = ValueText(v);
  if (name.empty() || Utf8Chars(name) > kMaxNameChars) {
    engine.SetError(mysql::errors::UserLockWrongName(name));
    return std::nullopt;
  }
  absl::AsciiStrToLower(&name);
  return name;
}

// The master's answer to this call, when the statement asked already; else stops the
// statement to ask (`request`) and returns nullopt.
std::optional<Value> Answer(EvalCall& call, UserLockRequest request) {
  ExprEngine& engine = call.engine();
  SessionState* state = engine.ctx().mutable_state;
  if (state == nullptr || !state->user_lock_calls.allowed) {
    engine.SetError(mysql::errors::NotSupportedYet(
        absl::StrCat(call.expr().name, " outside a SELECT without tables or DO")));
    return std::nullopt;
  }
  UserLockCalls& calls = state->user_lock_calls;
  if (calls.next < calls.answers.size()) return calls.answers[calls.next++];
  calls.wanted = std::move(request);
  // Stops the evaluation; the executor sees `wanted` and asks the master instead.
  engine.SetError(mysql::errors::NotSupportedYet("a user-level lock without its answer"));
  return std::nullopt;
}

Value GetLockValue(EvalCall& call) {
  std::optional<std::string> name = LockName(call);
  if (!name) return Value{};
  const Value t = call.Arg(1);
  ExprEngine& engine = call.engine();
  if (engine.failed()) return Value{};
  const double seconds = mysql::IsNull(t) ? 0 : DoubleArg(t, engine);
  UserLockRequest request{UserLockOp::kGet, std::move(*name), absl::ZeroDuration()};
  if (seconds < 0) {
    request.timeout = absl::InfiniteDuration();
  } else if (std::isfinite(seconds)) {
    request.timeout = absl::Seconds(std::min(seconds, 365.0 * 24 * 3600));
  } else {
    request.timeout = absl::InfiniteDuration();
  }
  return Answer(call, std::move(request)).value_or(Value{});
}

Value ReleaseLockValue(EvalCall& call) {
  std::optional<std::string> name = LockName(call);
  if (!name) return Value{};
  return Answer(call, UserLockRequest{UserLockOp::kRelease, std::move(*name), absl::ZeroDuration()})
      .value_or(Value{});
}

Value ReleaseAllLocksValue(EvalCall& call) {
  return Answer(call, UserLockRequest{UserLockOp::kReleaseAll, "", absl::ZeroDuration()})
      .value_or(Value{});
}

Value IsFreeLockValue(EvalCall& call) {
  std::optional<std::string> name = LockName(call);
  if (!name) return Value{};
  return Answer(call, UserLockRequest{UserLockOp::kIsFree, std::move(*name), absl::ZeroDuration()})
      .value_or(Value{});
}

Value IsUsedLockValue(EvalCall& call) {
  std::optional<std::string> name = LockName(call);
  if (!name) return Value{};
  return Answer(call, UserLockRequest{UserLockOp::kIsUsed, std::move(*name), absl::ZeroDuration()})
      .value_or(Value{});
}

constexpr BuiltinFunction kUserLockFunctions[] = {
    {"GET_LOCK", 2, 2, FlagType, GetLockValue},
    {"IS_FREE_LOCK", 1, 1, FlagType, IsFreeLockValue},
    {"IS_USED_LOCK", 1, 1, HolderType, IsUsedLockValue},
    {"RELEASE_ALL_LOCKS", 0, 0, CountType, ReleaseAllLocksValue},
    {"RELEASE_LOCK", 1, 1, FlagType, ReleaseLockValue},
};

}  // namespace

absl::Span<const BuiltinFunction> UserLockFunctions() { return kUserLockFunctions; }

}  // namespace shoal::sql::internal
