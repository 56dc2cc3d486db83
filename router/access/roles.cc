#include "router/access/roles.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "router/access/accounts.h"

namespace shoal::access {
namespace {

bool Names(const wire::AccountRef& ref, absl::string_view user, absl::string_view host) {
  return ref.user() == user && ref.host() == host;
}

void EraseMentions(google::protobuf::RepeatedPtrField<wire::AccountRef>* refs,
                   absl::string_view user, absl::string_view host) {
  for (int i = refs->size() - 1; i >= 0; --i) {
    if (Names(refs->at(i), user, host)) refs->DeleteSubrange(i, 1);
  }
}

}  // namespace

const wire::AccountRef* GrantedRole(const wire::Account& account, absl::string_view user,
                                    absl::string_view host) {
  for (const wire::AccountRef& role : account.roles()) {
    if (Names(role, user, host)) return &role;
  }
  return nullptr;
}

void GrantRole(wire::Account* account, absl::string_view user, absl::string_view host,
               bool admin_option) {
  for (wire::AccountRef& role : *account->mutable_roles()) {
    if (Names(role, user, host)) {
      role.set_admin_option(role.admin_option() || admin_option);
      return;
    }
  }
  wire::AccountRef& role = *account->add_roles();
  role.set_user(std::string(user));
  role.set_host(std::string(host));
  role.set_admin_option(admin_option);
}

bool RevokeRole(wire::Account* account, absl::string_view user, absl::string_view host) {
  if (GrantedRole(*account, user, host) == nullptr) return false;
  EraseMentions(account->mutable_roles(), user, host);
  return true;
}

bool ReachesRole(const wire::AccessControl& access, const RoleName& from, const RoleName& to) {
  std::vector<RoleName> pending = {from};
  absl::flat_hash_set<RoleName> seen;
  while (!pending.empty()) {
    RoleName at = std::move(pending.back());
    pending.pop_back();
    if (at == to) return true;
    if (!seen.insert(at).second) continue;
    const wire::Account* account = FindAccount(access, at.first, at.second);
    if (account == nullptr) continue;
    for (const wire::AccountRef& role : account->roles()) {
      pending.emplace_back(role.user(), role.host());
    }
  }
  return false;
}

wire::Account WithRoles(const wire::AccessControl& access, const wire::Account& account,
                        const std::vector<RoleName>& roles) {
  wire::Account merged = account;
  std::vector<RoleName> pending = roles;
  absl::flat_hash_set<RoleName> seen;
  while (!pending.empty()) {
    RoleName at = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(at).second) continue;
    const wire::Account* role = FindAccount(access, at.first, at.second);
    if (role == nullptr) continue;
    merged.set_global_privileges(merged.global_privileges() | role->global_privileges());
    for (const wire::Grant& grant : role->grants()) *merged.add_grants() = grant;
    for (const wire::AccountRef& next : role->roles()) {
      pending.emplace_back(next.user(), next.host());
    }
  }
  return merged;
}

void ForgetAccount(wire::AccessControl* access, absl::string_view user, absl::string_view host) {
  for (wire::Account& account : *access->mutable_accounts()) {
    EraseMentions(account.mutable_roles(), user, host);
    EraseMentions(account.mutable_default_roles(), user, host);
  }
}

bool DropAccount(wire::AccessControl* access, absl::string_view user, absl::string_view host) {
  auto* accounts = access->mutable_accounts();
  auto it = std::find_if(accounts->begin(), accounts->end(), [&](const wire::Account& account) {
    return account.user() == user && absl::EqualsIgnoreCase(account.host(), host);
  });
  if (it == accounts->end()) return false;
  accounts->erase(it);
  ForgetAccount(access, user, host);
  return true;
}

void RenameMentions(wire::AccessControl* access, const RoleName& from, const RoleName& to) {
  for (wire::Account& account : *access->mutable_accounts()) {
    for (auto* refs : {account.mutable_roles(), account.mutable_default_roles()}) {
      for (wire::AccountRef& ref : *refs) {
        if (!Names(ref, from.first, from.second)) continue;
        ref.set_user(to.first);
        ref.set_host(to.second);
      }
    }
  }
}

std::vector<std::string> ShowRoleGrants(const wire::Account& account) {
  std::vector<std::string> lines;
  const std::string to = BacktickAccount(account.user(), account.host());
  for (bool admin : {false, true}) {
    std::vector<std::string> names;
    for (const wire::AccountRef& role : account.roles()) {
      if (role.admin_option() == admin) names.push_back(BacktickAccount(role.user(), role.host()));
    }
    if (names.empty()) continue;
    std::sort(names.begin(), names.end());
    lines.push_back(absl::StrCat("GRANT ", absl::StrJoin(names, ","), " TO ", to,
                                 admin ? " WITH ADMIN OPTION" : ""));
  }
  return lines;
}

}  // namespace shoal::access
