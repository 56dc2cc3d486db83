// CREATE ROLE, DROP ROLE, GRANT role TO, REVOKE role FROM, SET ROLE and SET DEFAULT ROLE, as
// MySQL 8.0: a role is an account (locked, without a password) that other accounts are
// granted; a session's active roles add their privileges to its own (router/access/roles.h).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "protocol/access_errors.h"
#include "protocol/messages.h"
#include "router/access/accounts.h"
#include "router/access/roles.h"
#include "router/sql/exec/account_change.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using access::RoleName;

StatementResult CreateRoles(const RoleStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  SkippedAccounts skipped("CREATE ROLE", stmt.if_flag, ctx.state);
  for (const AccountName& written : stmt.roles) {
    AccountName name = ResolvedAccount(written, *ctx.state);
    if (access::FindAccount(now.access, name.user, name.host) != nullptr) {
      skipped.Skip(name, true);
      continue;
    }
    wire::Account& role = *now.access.add_accounts();
    role.set_user(name.user);
    role.set_host(name.host);
    role.set_plugin(std::string(mysql::kCachingSha2PasswordPlugin));
    role.set_locked(true);  // nobody logs in as a role
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

StatementResult DropRoles(const RoleStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  SkippedAccounts skipped("DROP ROLE", stmt.if_flag, ctx.state);
  for (const AccountName& written : stmt.roles) {
    AccountName name = ResolvedAccount(written, *ctx.state);
    if (!access::DropAccount(&now.access, name.user, name.host)) skipped.Skip(name, false);
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

// GRANT role TO / REVOKE role FROM: SUPER (MySQL's ROLE_ADMIN), or every role held WITH ADMIN
// OPTION by the session.
StatementResult GrantRoles(const RoleStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  const SessionState& s = *ctx.state;
  const wire::Account* granter = SessionAccount(now.access, s);
  const bool super = (SessionGlobalPrivileges(s) & access::kSuper) != 0;
  std::vector<AccountName> roles;
  for (const AccountName& written : stmt.roles) {
    AccountName role = ResolvedAccount(written, s);
    if (access::FindAccount(now.access, role.user, role.host) == nullptr) {
      return mysql::errors::UnknownAuthorizationId(role.user, role.host);
    }
    const wire::AccountRef* held =
        granter == nullptr ? nullptr : access::GrantedRole(*granter, role.user, role.host);
    if (!super && (held == nullptr || !held->admin_option())) {
      return mysql::errors::SpecificAccessDenied("WITH ADMIN, ROLE_ADMIN, SUPER");
    }
    roles.push_back(std::move(role));
  }
  for (const AccountName& written : stmt.accounts) {
    AccountName name = ResolvedAccount(written, s);
    wire::Account* account = access::FindAccount(&now.access, name.user, name.host);
    if (account == nullptr) return mysql::errors::UnknownAuthorizationId(name.user, name.host);
    for (const AccountName& role : roles) {
      if (stmt.kind == RoleStmt::Kind::kRevoke) {
        access::RevokeRole(account, role.user, role.host);
        continue;
      }
      if (access::ReachesRole(now.access, {role.user, role.host}, {name.user, name.host})) {
        return mysql::errors::RoleGrantLoop(name.user, name.host, role.user, role.host);
      }
      access::GrantRole(account, role.user, role.host, stmt.with_admin_option);
    }
  }
  return StoreAccounts(std::move(now), ctx);
}

// The roles SET ROLE or SET DEFAULT ROLE chooses among those granted to `account`; 3530 for
// one listed that is not.
std::variant<std::vector<RoleName>, mysql::SqlError> ChosenRoles(const RoleStmt& stmt,
                                                                 const wire::Account& account,
                                                                 const SessionState& state) {
  std::vector<RoleName> chosen;
  std::vector<RoleName> listed;
  for (const AccountName& written : stmt.roles) {
    AccountName role = ResolvedAccount(written, state);
    if (access::GrantedRole(account, role.user, role.host) == nullptr) {
      return mysql::errors::RoleNotGranted(role.user, role.host, account.user(), account.host());
    }
    listed.emplace_back(role.user, role.host);
  }
  switch (stmt.which) {
    case RoleStmt::Which::kListed:
      return listed;
    case RoleStmt::Which::kNone:
      return chosen;
    case RoleStmt::Which::kAll:
    case RoleStmt::Which::kAllExcept:
      for (const wire::AccountRef& role : account.roles()) {
        RoleName name{role.user(), role.host()};
        if (std::find(listed.begin(), listed.end(), name) == listed.end()) chosen.push_back(name);
      }
      return chosen;
    case RoleStmt::Which::kDefault:
      for (const wire::AccountRef& role : account.default_roles()) {
        if (access::GrantedRole(account, role.user(), role.host()) != nullptr) {
          chosen.emplace_back(role.user(), role.host());
        }
      }
      return chosen;
  }
  return chosen;
}

StatementResult SetRole(const RoleStmt& stmt, const ExecContext& ctx) {
  SessionState& s = *ctx.state;
  if (auto err = RequireCurrentDictionary(s)) return *err;
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(s);
  const wire::Account* account = access == nullptr ? nullptr : SessionAccount(*access, s);
  // A grant made through another router a moment ago may not be announced here yet.
  if (account == nullptr) {
    if (auto err = WantRefresh(s)) return *err;
    return mysql::errors::UnknownAuthorizationId(s.user, s.account_host);
  }
  auto chosen = ChosenRoles(stmt, *account, s);
  if (auto* err = std::get_if<mysql::SqlError>(&chosen)) {
    if (auto want = WantRefresh(s)) return *want;
    return *err;
  }
  s.active_roles = std::get<std::vector<RoleName>>(std::move(chosen));
  return OkResult{};
}

StatementResult SetDefaultRoles(const RoleStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  for (const AccountName& written : stmt.accounts) {
    AccountName name = ResolvedAccount(written, *ctx.state);
    wire::Account* account = access::FindAccount(&now.access, name.user, name.host);
    if (account == nullptr) return mysql::errors::UnknownAuthorizationId(name.user, name.host);
    auto chosen = ChosenRoles(stmt, *account, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&chosen)) return *err;
    account->clear_default_roles();
    for (const RoleName& role : std::get<std::vector<RoleName>>(chosen)) {
      wire::AccountRef& ref = *account->add_default_roles();
      ref.set_user(role.first);
      ref.set_host(role.second);
    }
  }
  return StoreAccounts(std::move(now), ctx);
}

}  // namespace

StatementResult ExecuteRole(const RoleStmt& stmt, const ExecContext& ctx) {
  if (stmt.kind == RoleStmt::Kind::kSet) return SetRole(stmt, ctx);
  auto now = CurrentAccounts(ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&now)) return *err;
  AccountsNow& current = std::get<AccountsNow>(now);
  switch (stmt.kind) {
    case RoleStmt::Kind::kCreate:
      return CreateRoles(stmt, ctx, std::move(current));
    case RoleStmt::Kind::kDrop:
      return DropRoles(stmt, ctx, std::move(current));
    case RoleStmt::Kind::kGrant:
    case RoleStmt::Kind::kRevoke:
      return GrantRoles(stmt, ctx, std::move(current));
    case RoleStmt::Kind::kSetDefault:
      return SetDefaultRoles(stmt, ctx, std::move(current));
    case RoleStmt::Kind::kSet:
      break;
  }
  return OkResult{};
}

}  // namespace shoal::sql::internal
