// Roles (MySQL 8.0's): accounts granted to accounts. An account's roles are listed in it
// (wire::Account.roles), the ones active at login in default_roles; a session's privileges are
// its account's and those of its active roles, with the roles granted to them in turn.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::access {

using RoleName = std::pair<std::string, std::string>;  // user, host

// The role `user`@`host` as `account` has it granted, or null.
const wire::AccountRef* GrantedRole(const wire::Account& account, absl::string_view user,
                                    absl::string_view host);
// Grants a role (again: WITH ADMIN OPTION may be added, never taken away).
void GrantRole(wire::Account* account, absl::string_view user, absl::string_view host,
               bool admin_option);
// False when it was not granted.
bool RevokeRole(wire::Account* account, absl::string_view user, absl::string_view host);

// Whether `to` is `from` or reached from it through granted roles: granting `from` to `to`
// would then make a loop.
bool ReachesRole(const wire::AccessControl& access, const RoleName& from, const RoleName& to);

// `account` with the privileges of `roles` and of the roles granted to them, added. Roles
// that no longer exist add nothing.
wire::Account WithRoles(const wire::AccessControl& access, const wire::Account& account,
                        const std::vector<RoleName>& roles);

// Every mention of `user`@`host` in other accounts (granted, default) goes: it was dropped.
void ForgetAccount(wire::AccessControl* access, absl::string_view user, absl::string_view host);
// DROP USER and DROP ROLE: the account and every mention of it go. False when there is none.
bool DropAccount(wire::AccessControl* access, absl::string_view user, absl::string_view host);
// … or follows it to its new name.
void RenameMentions(wire::AccessControl* access, const RoleName& from, const RoleName& to);

// SHOW GRANTS' role lines: `GRANT `r`@`%`,`s`@`%` TO `u`@`%``, those WITH ADMIN OPTION apart.
std::vector<std::string> ShowRoleGrants(const wire::Account& account);

}  // namespace shoal::access
