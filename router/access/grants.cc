#include "router/access/grants.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "router/access/accounts.h"

namespace shoal::access {
namespace {

std::string Backtick(absl::string_view name) {
  return absl::StrCat("`", absl::StrReplaceAll(name, {{"`", "``"}}), "`");
}

wire::Grant* FindGrant(wire::Account* account, absl::string_view database,
                       absl::string_view table) {
  for (wire::Grant& grant : *account->mutable_grants()) {
    if (grant.database() == database && grant.table() == table) return &grant;
  }
  return nullptr;
}

}  // namespace

Privileges DatabasePrivileges(const wire::Account& account, absl::string_view database) {
  Privileges privileges = account.global_privileges();
  for (const wire::Grant& grant : account.grants()) {
    if (grant.table().empty() && grant.database() == database) privileges |= grant.privileges();
  }
  return privileges;
}

Privileges TablePrivileges(const wire::Account& account, absl::string_view database,
                           absl::string_view table) {
  Privileges privileges = account.global_privileges();
  for (const wire::Grant& grant : account.grants()) {
    if (grant.database() == database && (grant.table().empty() || grant.table() == table)) {
      privileges |= grant.privileges();
    }
  }
  return privileges;
}

bool SeesDatabase(const wire::Account& account, absl::string_view database) {
  if ((account.global_privileges() & ~Privileges{kGrantOption}) != 0) return true;
  return std::any_of(account.grants().begin(), account.grants().end(),
                     [&](const wire::Grant& grant) {
                       return grant.database() == database && grant.privileges() != 0;
                     });
}

bool SeesTable(const wire::Account& account, absl::string_view database, absl::string_view table) {
  return (TablePrivileges(account, database, table) & ~Privileges{kGrantOption}) != 0;
}

std::vector<std::string> ShowGrants(const wire::Account& account) {
  const std::string to = BacktickAccount(account.user(), account.host());
  auto line = [&](Privileges privileges, Level level, absl::string_view on) {
    return absl::StrCat("GRANT ", FormatPrivileges(privileges, level), " ON ", on, " TO ", to,
                        (privileges & kGrantOption) != 0 ? " WITH GRANT OPTION" : "");
  };
  std::vector<std::string> lines = {line(account.global_privileges(), Level::kGlobal, "*.*")};
  std::vector<const wire::Grant*> grants;
  for (const wire::Grant& grant : account.grants()) grants.push_back(&grant);
  // Databases before tables, each by name: the same lines on every router.
  std::sort(grants.begin(), grants.end(), [](const wire::Grant* a, const wire::Grant* b) {
    return std::make_tuple(!a->table().empty(), a->database(), a->table()) <
           std::make_tuple(!b->table().empty(), b->database(), b->table());
  });
  for (const wire::Grant* grant : grants) {
    if (grant->table().empty()) {
      lines.push_back(line(grant->privileges(), Level::kDatabase,
                           absl::StrCat(Backtick(grant->database()), ".*")));
    } else {
      lines.push_back(
          line(grant->privileges(), Level::kTable,
               absl::StrCat(Backtick(grant->database()), ".", Backtick(grant->table()))));
    }
  }
  return lines;
}

void Grant(wire::Account* account, Level level, absl::string_view database, absl::string_view table,
           Privileges privileges) {
  if (level == Level::kGlobal) {
    account->set_global_privileges(account->global_privileges() | privileges);
    return;
  }
  wire::Grant* grant = FindGrant(account, database, level == Level::kTable ? table : "");
  if (grant == nullptr) {
    grant = account->add_grants();
    grant->set_database(std::string(database));
    if (level == Level::kTable) grant->set_table(std::string(table));
  }
  grant->set_privileges(grant->privileges() | privileges);
}

bool Revoke(wire::Account* account, Level level, absl::string_view database,
            absl::string_view table, Privileges privileges) {
  if (level == Level::kGlobal) {
    account->set_global_privileges(account->global_privileges() & ~privileges);
    return true;
  }
  absl::string_view on_table = level == Level::kTable ? table : "";
  auto* grants = account->mutable_grants();
  for (int i = 0; i < grants->size(); ++i) {
    wire::Grant& grant = grants->at(i);
    if (grant.database() != database || grant.table() != on_table) continue;
    grant.set_privileges(grant.privileges() & ~privileges);
    if (grant.privileges() == 0) grants->DeleteSubrange(i, 1);
    return true;
  }
  return false;
}

void RevokeAll(wire::Account* account) {
  account->set_global_privileges(0);
  account->clear_grants();
}

}  // namespace shoal::access
