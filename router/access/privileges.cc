#include "router/access/privileges.h"

#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"

namespace shoal::access {
namespace {

struct Named {
  Privilege privilege;
  absl::string_view name;
};

constexpr Named kNames[] = {
    {kSelect, "SELECT"},
    {kInsert, "INSERT"},
    {kUpdate, "UPDATE"},
    {kDelete, "DELETE"},
    {kCreate, "CREATE"},
    {kDrop, "DROP"},
    {kReload, "RELOAD"},
    {kShutdown, "SHUTDOWN"},
    {kProcess, "PROCESS"},
    {kFile, "FILE"},
    {kReferences, "REFERENCES"},
    {kIndex, "INDEX"},
    {kAlter, "ALTER"},
    {kShowDatabases, "SHOW DATABASES"},
    {kSuper, "SUPER"},
    {kCreateTemporaryTables, "CREATE TEMPORARY TABLES"},
    {kLockTables, "LOCK TABLES"},
    {kExecute, "EXECUTE"},
    {kReplicationSlave, "REPLICATION SLAVE"},
    {kReplicationClient, "REPLICATION CLIENT"},
    {kCreateView, "CREATE VIEW"},
    {kShowView, "SHOW VIEW"},
    {kCreateRoutine, "CREATE ROUTINE"},
    {kAlterRoutine, "ALTER ROUTINE"},
    {kCreateUser, "CREATE USER"},
    {kEvent, "EVENT"},
    {kTrigger, "TRIGGER"},
    {kCreateTablespace, "CREATE TABLESPACE"},
    {kCreateRole, "CREATE ROLE"},
    {kDropRole, "DROP ROLE"},
    {kGrantOption, "GRANT OPTION"},
};

constexpr Privileges kDatabaseLevel = kSelect | kInsert | kUpdate | kDelete | kCreate | kDrop |
                                      kReferences | kIndex | kAlter | kCreateTemporaryTables |
                                      kLockTables | kExecute | kCreateView | kShowView |
                                      kCreateRoutine | kAlterRoutine | kEvent | kTrigger;
constexpr Privileges kTableLevel = kSelect | kInsert | kUpdate | kDelete | kCreate | kDrop |
                                   kReferences | kIndex | kAlter | kCreateView | kShowView |
                                   kTrigger;

}  // namespace

Privileges AllAt(Level level) {
  switch (level) {
    case Level::kGlobal: {
      Privileges all = 0;
      for (const Named& n : kNames) all |= n.privilege;
      return all & ~Privileges{kGrantOption};
    }
    case Level::kDatabase:
      return kDatabaseLevel;
    case Level::kTable:
      return kTableLevel;
  }
  return 0;
}

std::optional<Privilege> PrivilegeNamed(absl::string_view name) {
  for (const Named& n : kNames) {
    if (absl::EqualsIgnoreCase(n.name, name)) return n.privilege;
  }
  return std::nullopt;
}

absl::string_view PrivilegeName(Privilege privilege) {
  for (const Named& n : kNames) {
    if (n.privilege == privilege) return n.name;
  }
  return "USAGE";
}

std::vector<absl::string_view> PrivilegeNames(Privileges privileges) {
  std::vector<absl::string_view> names;
  for (const Named& n : kNames) {
    if ((privileges & n.privilege) != 0 && n.privilege != kGrantOption) names.push_back(n.name);
  }
  return names;
}

std::string FormatPrivileges(Privileges privileges, Level level) {
  privileges &= ~Privileges{kGrantOption};
  if (privileges == 0) return "USAGE";
  if ((privileges & AllAt(level)) == AllAt(level)) return "ALL PRIVILEGES";
  return absl::StrJoin(PrivilegeNames(privileges), ", ");
}

}  // namespace shoal::access
