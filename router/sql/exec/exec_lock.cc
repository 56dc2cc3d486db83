// LOCK TABLES and UNLOCK TABLES, as a router can honour them.
//
// A router is one of many stateless SQL nodes, and in MySQL NDB Cluster a table lock holds
// only inside the mysqld that took it: sessions of other SQL nodes never wait for it. A lock
// one router keeps would protect nothing from the others, so Shoal's routers keep none that
// other sessions wait for. What a session that locks gets is MySQL's discipline on itself:
// until UNLOCK TABLES it may touch only the tables it locked (1100), and change only those it
// locked WRITE (1099). Dumps and their restores, which wrap each table in LOCK … UNLOCK, run
// unchanged; a dump consistent across tables comes from --single-transaction or a backup, not
// from locks (docs/architecture.md, "Dumps").
#include "absl/strings/str_cat.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/view_expansion.h"

namespace shoal::sql::internal {
namespace {

std::string LockKey(absl::string_view database, absl::string_view table) {
  return absl::StrCat(database, ".", table);
}

// LOCK TABLES ends the open transaction, committing it, as in MySQL.
StatementResult CommitOpenTransaction(const ExecContext& ctx) {
  ctx.state->in_transaction = false;
  ctx.state->read_only_transaction = false;
  return EndNativeTransaction(ctx, true, OkResult{});
}

}  // namespace

StatementResult ExecuteLockTables(const LockTablesStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  absl::flat_hash_map<std::string, bool> locked;
  for (const TableLock& lock : stmt.tables) {
    // A view is locked by its name; the tables it reads are used through it (mariadb-dump
    // locks views with the tables).
    auto view = LookUpView(lock.table, *s);
    if (auto* err = std::get_if<mysql::SqlError>(&view)) return *err;
    if (const auto& found = std::get<std::optional<wire::View>>(view)) {
      locked[LockKey(found->database(), lock.alias.empty() ? found->name() : lock.alias)] |=
          lock.write;
      continue;
    }
    auto resolved = ResolveTable(lock.table, *s);
    if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    const schema::TableDef& table = *std::get<api::TablePtr>(resolved);
    // A table locked under an alias is reached by that name only, as in MySQL.
    locked[LockKey(table.database, lock.alias.empty() ? table.name : lock.alias)] |= lock.write;
  }
  s->locked_tables = std::move(locked);
  return CommitOpenTransaction(ctx);
}

StatementResult ExecuteUnlockTables(const UnlockTablesStmt&, const ExecContext& ctx) {
  // Only a session that held locks has its transaction committed by UNLOCK TABLES.
  if (ctx.state->locked_tables.empty()) return OkResult{};
  ctx.state->locked_tables.clear();
  return CommitOpenTransaction(ctx);
}

std::optional<mysql::SqlError> CheckTableLock(const TableName& name, absl::string_view alias,
                                              const SessionState& state, bool write) {
  if (state.locked_tables.empty()) return std::nullopt;
  const std::string& database = name.database.empty() ? state.database : name.database;
  absl::string_view as = alias.empty() ? absl::string_view(name.name) : alias;
  auto it = state.locked_tables.find(LockKey(database, as));
  if (it == state.locked_tables.end()) {
    return mysql::SqlError{1100, "HY000",
                           absl::StrCat("Table '", as, "' was not locked with LOCK TABLES")};
  }
  if (write && !it->second) {
    return mysql::SqlError{
        1099, "HY000",
        absl::StrCat("Table '", as, "' was locked with a READ lock and can't be updated")};
  }
  return std::nullopt;
}

std::optional<mysql::SqlError> CheckTableLock(const TableRef& ref, const SessionState& state) {
  if (ref.in_view) return std::nullopt;
  return CheckTableLock(ref.table, ref.alias, state, /*write=*/false);
}

std::variant<api::TablePtr, mysql::SqlError> ResolveTableToWrite(const TableName& name,
                                                                 absl::string_view alias,
                                                                 const SessionState& state) {
  auto resolved = ResolveTable(name, state);
  if (std::holds_alternative<mysql::SqlError>(resolved)) return resolved;
  if (auto err = CheckTableLock(name, alias, state, /*write=*/true)) return *err;
  if (auto err = AwaitAlter(*std::get<api::TablePtr>(resolved), state)) return *err;
  return resolved;
}

}  // namespace shoal::sql::internal
