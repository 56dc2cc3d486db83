// KILL [CONNECTION | QUERY] id, over this router's sessions (ProcessList): a router is one SQL
// node of many, and as with the mysqlds of an NDB cluster, it kills only its own sessions. An
// id no session here has answers 1094, as MySQL does for an unknown thread.
//
// KILL QUERY stops the statement at its next batch boundary (LOAD DATA between batches): it
// ends with 1317 "Query execution was interrupted", what it committed stays committed. KILL
// CONNECTION also closes the connection, once what was sent to it is flushed; killing one's
// own connection answers 1317 first, as MySQL 8.0 does. Another user's session takes SUPER
// (1095 without it).
#include "protocol/access_errors.h"
#include "router/access/privileges.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/privilege_check.h"

namespace shoal::sql::internal {

StatementResult ExecuteKill(const KillStmt& stmt, const ExecContext& ctx) {
  EvalContext eval = ctx.Eval();
  auto v = Evaluate(*stmt.id, &eval);
  if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
  const mysql::Value& value = std::get<mysql::Value>(v);
  uint64_t id = 0;
  if (const auto* u = std::get_if<uint64_t>(&value)) {
    id = *u;
  } else if (const auto* i = std::get_if<int64_t>(&value); i != nullptr && *i >= 0) {
    id = static_cast<uint64_t>(*i);
  } else {
    return mysql::errors::WrongArguments("KILL");
  }
  const SessionState& s = *ctx.state;
  if (s.server != nullptr && s.server->processes != nullptr &&
      (SessionGlobalPrivileges(s) & access::kSuper) == 0) {
    for (const ProcessList::Row& row : s.server->processes->Snapshot()) {
      if (row.id == id && row.user != s.user) return mysql::errors::KillDenied(id);
    }
  }
  if (s.server == nullptr || s.server->processes == nullptr || id > UINT32_MAX ||
      !s.server->processes->Kill(static_cast<uint32_t>(id), !stmt.query)) {
    return mysql::errors::UnknownThreadId(id);
  }
  if (id == s.connection_id) return mysql::errors::QueryInterrupted();
  return OkResult{};
}

}  // namespace shoal::sql::internal
