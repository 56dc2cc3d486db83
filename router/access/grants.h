// What an account may do: its privileges on a database or a table (global ones included), what
// it may see, SHOW GRANTS' lines, and GRANT and REVOKE applied to it.
#pragma once

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/wire/dictionary.pb.h"
#include "router/access/privileges.h"

namespace shoal::access {

// Global privileges and those granted on `database`.
Privileges DatabasePrivileges(const wire::Account& account, absl::string_view database);
// Global privileges and those granted on `database` and on `database`.`table`.
Privileges TablePrivileges(const wire::Account& account, absl::string_view database,
                           absl::string_view table);

// Whether `database` exists for the account (SHOW DATABASES, USE, information_schema): some
// privilege, global or on it or on one of its tables; or SHOW DATABASES.
bool SeesDatabase(const wire::Account& account, absl::string_view database);
// Whether the table exists for the account: some privilege that reaches it.
bool SeesTable(const wire::Account& account, absl::string_view database, absl::string_view table);

// SHOW GRANTS: the global line, then one per database and per table grant.
std::vector<std::string> ShowGrants(const wire::Account& account);

// Adds `privileges` at a level (`database` and `table` empty as the level has none).
void Grant(wire::Account* account, Level level, absl::string_view database, absl::string_view table,
           Privileges privileges);
// Takes `privileges` away at a level. False when the account has no grant at that database or
// table level to take them from (MySQL's 1141 and 1147); the global level always has one.
bool Revoke(wire::Account* account, Level level, absl::string_view database,
            absl::string_view table, Privileges privileges);
// REVOKE ALL PRIVILEGES, GRANT OPTION: nothing at any level.
void RevokeAll(wire::Account* account);

}  // namespace shoal::access
