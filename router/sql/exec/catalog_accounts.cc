#include "router/sql/exec/catalog_accounts.h"

#include <memory>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "protocol/messages.h"
#include "router/access/accounts.h"
#include "router/access/grants.h"
#include "router/sql/exec/privilege_check.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;
using Row = std::vector<Value>;

template <typename Each>
void ForEachVisibleAccount(const SessionState& state, Each each) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr) return;
  const wire::Account* self = SessionAccount(*access, state);
  wire::Account merged;
  const wire::Account* may = SessionPrivileges(*access, state, &merged);
  bool all = may != nullptr && (access::DatabasePrivileges(*may, "mysql") & access::kSelect) != 0;
  for (const wire::Account& account : access->accounts()) {
    if (all || &account == self)
      each(account, access::QuoteAccount(account.user(), account.host()));
  }
}

// One row per privilege in `privileges` (USAGE when none), after the `key` columns.
void PrivilegeRows(const Row& key, access::Privileges privileges, std::vector<Row>* rows) {
  std::string grantable = (privileges & access::kGrantOption) != 0 ? "YES" : "NO";
  std::vector<absl::string_view> names = access::PrivilegeNames(privileges);
  if (names.empty()) names.push_back("USAGE");
  for (absl::string_view name : names) {
    Row row = key;
    row.push_back(std::string(name));
    row.push_back(grantable);
    rows->push_back(std::move(row));
  }
}

Value YesNo(bool yes) { return std::string(yes ? "Y" : "N"); }

}  // namespace

void UserPrivilegesRows(const SessionState& state, std::vector<Row>* rows) {
  ForEachVisibleAccount(state, [&](const wire::Account& account, std::string grantee) {
    PrivilegeRows({std::move(grantee), std::string("def")}, account.global_privileges(), rows);
  });
}

void SchemaPrivilegesRows(const SessionState& state, std::vector<Row>* rows) {
  ForEachVisibleAccount(state, [&](const wire::Account& account, const std::string& grantee) {
    for (const wire::Grant& grant : account.grants()) {
      if (!grant.table().empty() || (grant.privileges() & ~access::kGrantOption) == 0) continue;
      PrivilegeRows({grantee, std::string("def"), grant.database()}, grant.privileges(), rows);
    }
  });
}

void TablePrivilegesRows(const SessionState& state, std::vector<Row>* rows) {
  ForEachVisibleAccount(state, [&](const wire::Account& account, const std::string& grantee) {
    for (const wire::Grant& grant : account.grants()) {
      if (grant.table().empty() || (grant.privileges() & ~access::kGrantOption) == 0) continue;
      PrivilegeRows({grantee, std::string("def"), grant.database(), grant.table()},
                    grant.privileges(), rows);
    }
  });
}

void MysqlUserRows(const SessionState& state, std::vector<Row>* rows) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  if (access == nullptr) return;
  for (const wire::Account& account : access->accounts()) {
    const access::Privileges held = account.global_privileges();
    Row row = {account.host(), account.user()};
    for (const UserPrivilegeColumn& c : kUserPrivilegeColumns) {
      row.push_back(YesNo((held & c.privilege) != 0));
    }
    row.push_back(account.ssl_type());
    row.push_back(account.ssl_cipher());
    row.push_back(account.x509_issuer());
    row.push_back(account.x509_subject());
    row.push_back(uint64_t{account.max_questions()});
    row.push_back(uint64_t{account.max_updates()});
    row.push_back(uint64_t{account.max_connections_per_hour()});
    row.push_back(uint64_t{account.max_user_connections()});
    row.push_back(account.plugin());
    row.push_back(access::StoredHash(account));
    row.push_back(YesNo(account.password_expired()));
    row.push_back(YesNo(account.locked()));
    row.push_back(YesNo((held & access::kCreateRole) != 0));
    row.push_back(YesNo((held & access::kDropRole) != 0));
    rows->push_back(std::move(row));
  }
}

}  // namespace shoal::sql::internal
