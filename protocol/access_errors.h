// The errors of MySQL's privilege system, with MySQL 8.0's numbers, SQLSTATEs and texts.
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"
#include "protocol/sql_error.h"

namespace shoal::mysql::errors {

// 1044 42000 Access denied for user '%s'@'%s' to database '%s'
SqlError DatabaseAccessDenied(absl::string_view user, absl::string_view host,
                              absl::string_view database);
// 1142 42000 %s command denied to user '%s'@'%s' for table '%s'
SqlError TableAccessDenied(absl::string_view command, absl::string_view user,
                           absl::string_view host, absl::string_view table);
// 1143 42000 %s command denied to user '%s'@'%s' for column '%s' in table '%s'
SqlError ColumnAccessDenied(absl::string_view command, absl::string_view user,
                            absl::string_view host, absl::string_view column,
                            absl::string_view table);
// 1227 42000 Access denied; you need (at least one of) the %s privilege(s) for this operation
SqlError SpecificAccessDenied(absl::string_view privileges);
// 1396 HY000 Operation %s failed for %s  (`accounts`: 'u'@'h','v'@'h')
SqlError AccountOperationFailed(absl::string_view operation, absl::string_view accounts);
// 1410 42000 You are not allowed to create a user with GRANT
SqlError CantCreateUserWithGrant();
// 1141 42000 There is no such grant defined for user '%s' on host '%s'
SqlError NonexistingGrant(absl::string_view user, absl::string_view host);
// 1147 42000 There is no such grant defined for user '%s' on host '%s' on table '%s'
SqlError NonexistingTableGrant(absl::string_view user, absl::string_view host,
                               absl::string_view table);
// 1133 42000 Can't find any matching row in the user table
SqlError PasswordNoMatch();
// 1221 HY000 Incorrect usage of DB GRANT and GLOBAL PRIVILEGES
SqlError DatabaseGrantOfGlobalPrivileges();
// 1144 42000 Illegal GRANT/REVOKE command; please consult the manual …
SqlError IllegalGrantForTable();
// 3118 HY000 Access denied for user '%s'@'%s'. Account is locked.
SqlError AccountLocked(absl::string_view user, absl::string_view host);
// 3159 HY000 Connections using insecure transport are prohibited while
// --require_secure_transport=ON.
SqlError SecureTransportRequired();
// 1820 HY000 You must reset your password using ALTER USER statement before executing this
// statement.
SqlError MustChangePassword();
// 1524 HY000 Plugin '%s' is not loaded
SqlError PluginNotLoaded(absl::string_view plugin);
// 1827 HY000 The password hash doesn't have the expected format.
SqlError PasswordFormat();
// 3523 HY000 Unknown authorization ID `%s`@`%s`
SqlError UnknownAuthorizationId(absl::string_view user, absl::string_view host);
// 3530 HY000 `%s`@`%s` is not granted to `%s`@`%s`
SqlError RoleNotGranted(absl::string_view role_user, absl::string_view role_host,
                        absl::string_view user, absl::string_view host);
// 3549 HY000 User account `%s`@`%s` is directly or indirectly granted to the role `%s`@`%s`.
// The GRANT would create a loop
SqlError RoleGrantLoop(absl::string_view user, absl::string_view host, absl::string_view role_user,
                       absl::string_view role_host);
// 3955 HY000 Access denied for user '%s'@'%s'. Account is blocked for %s day(s) (%s day(s)
// remaining) due to %u consecutive failed logins.
SqlError AccountBlocked(absl::string_view user, absl::string_view host, absl::string_view days,
                        absl::string_view remaining, uint32_t failures);
// 1095 HY000 You are not owner of thread %lu
SqlError KillDenied(uint64_t thread);
// 1226 42000 User '%s' has exceeded the 'max_user_connections' resource (current value: %u)
SqlError UserConnectionLimitReached(absl::string_view user, uint32_t limit);
// 1226 42000 User '%s' has exceeded the '%s' resource (current value: %ld), for a resource
// ("max_questions", "max_updates", "max_connections_per_hour") and its limit.
SqlError UserLimitReached(absl::string_view user, absl::string_view resource, uint32_t limit);
// 1862 HY000 Your password has expired. To log in you must change it using a client that
// supports expired passwords.
SqlError MustChangePasswordToLogIn();

}  // namespace shoal::mysql::errors
