// MySQL's privilege checks: whether the session's account may run a statement, checked each
// time it runs (a prepared one too), so a GRANT or REVOKE counts from the next statement on.
// Accounts and grants are the dictionary's (router/access/), or the configuration's until
// they were first changed.
//
// A view is checked as an object (SELECT on the view); the tables it reads are its definer's
// to read, as with MySQL's default SQL SECURITY DEFINER. information_schema needs nothing: it
// shows only what the account may see (SeesDatabase, SeesTable).
#pragma once

#include <memory>
#include <optional>

#include "engine/wire/dictionary.pb.h"
#include "protocol/sql_error.h"
#include "router/access/privileges.h"
#include "router/sql/eval/session.h"
#include "router/sql/parse/ast.h"

namespace shoal::sql {

// The accounts the router enforces now: the dictionary's once they were changed, else the
// configuration's (ServerInfo::seed_access). Null with neither (a router with no accounts:
// nothing is checked).
std::shared_ptr<const wire::AccessControl> EffectiveAccess(const SessionState& state);
// The session's account in `access`; null once it was dropped (it then may do nothing).
const wire::Account* SessionAccount(const wire::AccessControl& access, const SessionState& state);
// What the session may do: its account, or, with roles active, the account with their
// privileges added, made in `*merged`. Null as SessionAccount.
const wire::Account* SessionPrivileges(const wire::AccessControl& access, const SessionState& state,
                                       wire::Account* merged);

// What the session's account may not do of `stmt`: 1142, 1143, 1044 or 1227 as MySQL gives
// them; nullopt when it may run.
std::optional<mysql::SqlError> CheckPrivileges(const Statement& stmt, const SessionState& state);
// The same for `stmt` about to run, which first counts against the account's hourly limits
// (access/resource_limits.h): 1226 past one.
std::optional<mysql::SqlError> CheckToRun(const Statement& stmt, const SessionState& state);

// Whether `stmt` writes rows, the schema or the accounts (MySQL's CF_CHANGES_DATA): what
// MAX_UPDATES_PER_HOUR counts and what a READ ONLY transaction refuses.
bool ChangesData(const Statement& stmt);

// Makes the session's account's default roles (those still granted) its active ones, as at
// login.
void ActivateDefaultRoles(SessionState* state);

// Whether the session's account sees `database` / `database`.`table` (catalog statements).
// True without accounts to check.
bool SessionSeesDatabase(const SessionState& state, absl::string_view database);
bool SessionSeesTable(const SessionState& state, absl::string_view database,
                      absl::string_view table);
// The session account's privileges at the global level (every one without accounts).
access::Privileges SessionGlobalPrivileges(const SessionState& state);

}  // namespace shoal::sql
