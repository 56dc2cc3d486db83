#include "protocol/access_errors.h"

#include "absl/strings/str_cat.h"

namespace shoal::mysql::errors {

SqlError DatabaseAccessDenied(absl::string_view user, absl::string_view host,
                              absl::string_view database) {
  return {1044, "42000",
          absl::StrCat("Access denied for user '", user, "'@'", host, "' to database '", database,
                       "'")};
}

SqlError TableAccessDenied(absl::string_view command, absl::string_view user,
                           absl::string_view host, absl::string_view table) {
  return {1142, "42000",
          absl::StrCat(command, " command denied to user '", user, "'@'", host, "' for table '",
                       table, "'")};
}

SqlError ColumnAccessDenied(absl::string_view command, absl::string_view user,
                            absl::string_view host, absl::string_view column,
                            absl::string_view table) {
  return {1143, "42000",
          absl::StrCat(command, " command denied to user '", user, "'@'", host, "' for column '",
                       column, "' in table '", table, "'")};
}

SqlError SpecificAccessDenied(absl::string_view privileges) {
  return {1227, "42000",
          absl::StrCat("Access denied; you need (at least one of) the ", privileges,
                       " privilege(s) for this operation")};
}

SqlError AccountOperationFailed(absl::string_view operation, absl::string_view accounts) {
  return {1396, "HY000", absl::StrCat("Operation ", operation, " failed for ", accounts)};
}

SqlError CantCreateUserWithGrant() {
  return {1410, "42000", "You are not allowed to create a user with GRANT"};
}

SqlError NonexistingGrant(absl::string_view user, absl::string_view host) {
  return {
      1141, "42000",
      absl::StrCat("There is no such grant defined for user '", user, "' on host '", host, "'")};
}

SqlError NonexistingTableGrant(absl::string_view user, absl::string_view host,
                               absl::string_view table) {
  return {1147, "42000",
          absl::StrCat("There is no such grant defined for user '", user, "' on host '", host,
                       "' on table '", table, "'")};
}

SqlError PasswordNoMatch() {
  return {1133, "42000", "Can't find any matching row in the user table"};
}

SqlError DatabaseGrantOfGlobalPrivileges() {
  return {1221, "HY000", "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES"};
}

SqlError IllegalGrantForTable() {
  return {1144, "42000",
          "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can "
          "be used"};
}

SqlError AccountLocked(absl::string_view user, absl::string_view host) {
  return {3118, "HY000",
          absl::StrCat("Access denied for user '", user, "'@'", host, "'. Account is locked.")};
}

SqlError SecureTransportRequired() {
  return {3159, "HY000",
          "Connections using insecure transport are prohibited while "
          "--require_secure_transport=ON."};
}

SqlError MustChangePassword() {
  return {1820, "HY000",
          "You must reset your password using ALTER USER statement before executing this "
          "statement."};
}

SqlError PluginNotLoaded(absl::string_view plugin) {
  return {1524, "HY000", absl::StrCat("Plugin '", plugin, "' is not loaded")};
}

SqlError PasswordFormat() {
  return {1827, "HY000", "The password hash doesn't have the expected format."};
}

SqlError UnknownAuthorizationId(absl::string_view user, absl::string_view host) {
  return {3523, "HY000", absl::StrCat("Unknown authorization ID `", user, "`@`", host, "`")};
}

SqlError RoleNotGranted(absl::string_view role_user, absl::string_view role_host,
                        absl::string_view user, absl::string_view host) {
  return {3530, "HY000",
          absl::StrCat("`", role_user, "`@`", role_host, "` is not granted to `", user, "`@`", host,
                       "`")};
}

SqlError RoleGrantLoop(absl::string_view user, absl::string_view host, absl::string_view role_user,
                       absl::string_view role_host) {
  return {3549, "HY000",
          absl::StrCat("User account `", user, "`@`", host,
                       "` is directly or indirectly granted to the role `", role_user, "`@`",
                       role_host, "`. The GRANT would create a loop")};
}

SqlError AccountBlocked(absl::string_view user, absl::string_view host, absl::string_view days,
                        absl::string_view remaining, uint32_t failures) {
  return {3955, "HY000",
          absl::StrCat("Access denied for user '", user, "'@'", host, "'. Account is blocked for ",
                       days, " day(s) (", remaining, " day(s) remaining) due to ", failures,
                       " consecutive failed logins.")};
}

SqlError KillDenied(uint64_t thread) {
  return {1095, "HY000", absl::StrCat("You are not owner of thread ", thread)};
}

SqlError UserConnectionLimitReached(absl::string_view user, uint32_t limit) {
  return UserLimitReached(user, "max_user_connections", limit);
}

SqlError UserLimitReached(absl::string_view user, absl::string_view resource, uint32_t limit) {
  return {1226, "42000",
          absl::StrCat("User '", user, "' has exceeded the '", resource,
                       "' resource (current value: ", limit, ")")};
}

SqlError MustChangePasswordToLogIn() {
  return {1862, "HY000",
          "Your password has expired. To log in you must change it using a client that supports "
          "expired passwords."};
}

}  // namespace shoal::mysql::errors
