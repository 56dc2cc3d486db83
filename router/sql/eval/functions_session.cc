// The session's facts drivers and consoles ask for on connect: DATABASE(), USER(),
// CURRENT_USER(), CONNECTION_ID(), LAST_INSERT_ID(), ROW_COUNT(), FOUND_ROWS(), VERSION(); and
// SLEEP(n), which makes the session's statement wait.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/result_columns.h"

namespace shoal::sql::internal {
namespace {

using mysql::ColumnDefinition;
using mysql::Value;

ColumnDefinition DatabaseType(const TypingCall& call) {
  return StringColumn(34, call.state(), Nullability::kNullable);
}
Value DatabaseValue(EvalCall& call) {
  const std::string& database = call.state().database;
  return database.empty() ? Value{} : Value{database};
}

ColumnDefinition UserType(const TypingCall& call) {
  return StringColumn(288, call.state(), Nullability::kNotNull);
}
// USER() is the client's host; CURRENT_USER() the account it matched.
Value UserValue(EvalCall& call) { return absl::StrCat(call.state().user, "@", call.state().host); }
// CURRENT_ROLE(): the active roles, `r`@`h` joined by commas in name order, or NONE.
Value CurrentRoleValue(EvalCall& call) {
  std::vector<std::string> roles;
  for (const auto& [user, host] : call.state().active_roles) {
    roles.push_back(absl::StrCat("`", user, "`@`", host, "`"));
  }
  if (roles.empty()) return std::string("NONE");
  std::sort(roles.begin(), roles.end());
  return absl::StrJoin(roles, ",");
}

Value CurrentUserValue(EvalCall& call) {
  const std::string& host = call.state().account_host;
  return absl::StrCat(call.state().user, "@", host.empty() ? "%" : host);
}

ColumnDefinition ConnectionIdType(const TypingCall&) {
  return IntColumn(10, true, Nullability::kNotNull);
}
Value ConnectionIdValue(EvalCall& call) { return uint64_t{call.state().connection_id}; }

ColumnDefinition LastInsertIdType(const TypingCall&) {
  return IntColumn(21, true, Nullability::kNotNull);
}
// LAST_INSERT_ID(x) returns x and makes it the session's value.
Value LastInsertIdValue(EvalCall& call) {
  if (call.arg_count() == 0) return call.state().last_insert_id;
  Value v = ConvertToColumn(call.Arg(0), IntColumn(21, true, Nullability::kNullable));
  const uint64_t id = IsNull(v) ? 0 : std::get<uint64_t>(v);
  ExprEngine& engine = call.engine();
  if (engine.ctx().mutable_state != nullptr && !engine.failed()) {
    engine.ctx().mutable_state->last_insert_id = id;
  }
  return id;
}

ColumnDefinition RowCountType(const TypingCall&) {
  return IntColumn(21, false, Nullability::kNotNull);
}
Value RowCountValue(EvalCall& call) { return call.state().row_count; }

// MySQL 8.0 deprecates FOUND_ROWS() (and SQL_CALC_FOUND_ROWS) but answers it, warning.
ColumnDefinition FoundRowsType(const TypingCall&) {
  return IntColumn(21, false, Nullability::kNotNull);
}
Value FoundRowsValue(EvalCall& call) {
  call.engine().Warn(1287,
                     "'FOUND_ROWS()' is deprecated and will be removed in a future release. "
                     "Consider using COUNT(*) instead.");
  return static_cast<int64_t>(call.state().found_rows);
}

ColumnDefinition VersionType(const TypingCall& call) {
  return StringColumn(60, call.state(), Nullability::kNotNull);
}
Value VersionValue(EvalCall& call) {
  const ServerInfo* server = call.state().server;
  return server != nullptr ? server->version : std::string("8.0.36-shoal");
}

// SLEEP(n) answers 0 at once and adds n seconds to what the statement waits for once it has
// its result, on the worker's event loop (EvalContext::sleep, exec/exec_sleep.cc), which goes
// on serving every other session meanwhile. Where nothing can wait so, 1235. NULL and negative
// durations are strict mode's 1210, as in MySQL 8.0; MySQL does not wait below 10 µs.
ColumnDefinition SleepType(const TypingCall&) {
  return IntColumn(21, false, Nullability::kNotNull);
}
Value SleepValue(EvalCall& call) {
  ExprEngine& engine = call.engine();
  absl::Duration* wait = engine.ctx().sleep;
  if (wait == nullptr) {
    engine.SetError(mysql::errors::NotSupportedYet("SLEEP in a statement over rows"));
    return Value{};
  }
  const Value v = call.Arg(0);
  if (engine.failed()) return Value{};
  const double seconds = mysql::IsNull(v) ? -1 : DoubleArg(v, engine);
  if (!(seconds >= 0)) {
    engine.SetError(mysql::errors::WrongArguments("sleep."));
    return Value{};
  }
  // A year is longer than anyone waits: it keeps absl's arithmetic finite.
  constexpr double kLongest = 365.0 * 24 * 3600;
  if (seconds >= 0.00001) *wait += absl::Seconds(std::min(seconds, kLongest));
  return int64_t{0};
}

constexpr BuiltinFunction kSessionFunctions[] = {
    {"CONNECTION_ID", 0, 0, ConnectionIdType, ConnectionIdValue},
    {"CURRENT_USER", 0, 0, UserType, CurrentUserValue},
    {"CURRENT_ROLE", 0, 0, UserType, CurrentRoleValue},
    {"DATABASE", 0, 0, DatabaseType, DatabaseValue},
    {"FOUND_ROWS", 0, 0, FoundRowsType, FoundRowsValue},
    {"LAST_INSERT_ID", 0, 1, LastInsertIdType, LastInsertIdValue},
    {"ROW_COUNT", 0, 0, RowCountType, RowCountValue},
    {"SCHEMA", 0, 0, DatabaseType, DatabaseValue},
    {"SESSION_USER", 0, 0, UserType, UserValue},
    {"SLEEP", 1, 1, SleepType, SleepValue},
    {"SYSTEM_USER", 0, 0, UserType, UserValue},
    {"USER", 0, 0, UserType, UserValue},
    {"VERSION", 0, 0, VersionType, VersionValue},
};

}  // namespace

absl::Span<const BuiltinFunction> SessionFunctions() { return kSessionFunctions; }

}  // namespace shoal::sql::internal
