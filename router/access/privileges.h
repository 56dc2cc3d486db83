// MySQL's static privileges as bits (stored in wire::Account and wire::Grant), their names,
// and which of them each level of GRANT takes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace shoal::access {

using Privileges = uint64_t;

// The order is MySQL's: SHOW GRANTS lists privileges in it.
enum Privilege : Privileges {
  kSelect = 1ull << 0,
  kInsert = 1ull << 1,
  kUpdate = 1ull << 2,
  kDelete = 1ull << 3,
  kCreate = 1ull << 4,
  kDrop = 1ull << 5,
  kReload = 1ull << 6,
  kShutdown = 1ull << 7,
  kProcess = 1ull << 8,
  kFile = 1ull << 9,
  kReferences = 1ull << 10,
  kIndex = 1ull << 11,
  kAlter = 1ull << 12,
  kShowDatabases = 1ull << 13,
  kSuper = 1ull << 14,
  kCreateTemporaryTables = 1ull << 15,
  kLockTables = 1ull << 16,
  kExecute = 1ull << 17,
  kReplicationSlave = 1ull << 18,
  kReplicationClient = 1ull << 19,
  kCreateView = 1ull << 20,
  kShowView = 1ull << 21,
  kCreateRoutine = 1ull << 22,
  kAlterRoutine = 1ull << 23,
  kCreateUser = 1ull << 24,
  kEvent = 1ull << 25,
  kTrigger = 1ull << 26,
  kCreateTablespace = 1ull << 27,
  kCreateRole = 1ull << 28,
  kDropRole = 1ull << 29,
  kGrantOption = 1ull << 40,  // shown as WITH GRANT OPTION, never in the list
};

enum class Level : uint8_t { kGlobal, kDatabase, kTable };

// What ALL [PRIVILEGES] means at `level` (GRANT OPTION excluded, as MySQL's ALL).
Privileges AllAt(Level level);
// Every privilege `level` may hold, GRANT OPTION included.
inline Privileges GrantableAt(Level level) { return AllAt(level) | kGrantOption; }

// The privilege a name means ("SELECT", "SHOW VIEW", "GRANT OPTION"), case-insensitive;
// nullopt for a name MySQL does not have.
std::optional<Privilege> PrivilegeNamed(absl::string_view name);
// One privilege's name as SHOW GRANTS and error messages spell it.
absl::string_view PrivilegeName(Privilege privilege);
// The names of `privileges` in MySQL's order, GRANT OPTION left out.
std::vector<absl::string_view> PrivilegeNames(Privileges privileges);
// "SELECT, INSERT" (in MySQL's order), "ALL PRIVILEGES" when `privileges` hold all of
// `level`'s, "USAGE" when none; GRANT OPTION is not listed.
std::string FormatPrivileges(Privileges privileges, Level level);

}  // namespace shoal::access
