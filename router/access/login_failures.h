// FAILED_LOGIN_ATTEMPTS and PASSWORD_LOCK_TIME (MySQL 8.0's): a router counts each account's
// consecutive failed logins and, once they reach the account's limit, blocks it for its lock
// time (3955), as each mysqld does for its own logins. The count starts again after a login
// that succeeds, and when the account's settings change or ACCOUNT UNLOCK is run (its
// login_tracking_serial grows). Shared by the router's workers; thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "engine/wire/dictionary.pb.h"
#include "protocol/sql_error.h"

namespace shoal::access {

class LoginFailures {
 public:
  // 3955 when `account` is blocked at `now`; nullopt otherwise.
  std::optional<mysql::SqlError> Blocked(const wire::Account& account, absl::string_view host,
                                         absl::Time now);
  // A wrong password for `account`: 3955 when this failure blocks it.
  std::optional<mysql::SqlError> Failed(const wire::Account& account, absl::string_view host,
                                        absl::Time now);
  void Succeeded(const wire::Account& account);

 private:
  struct Entry {
    uint32_t serial = 0;
    uint32_t failures = 0;
    absl::Time blocked_until = absl::InfinitePast();
  };
  // The account's entry, started again if its settings changed since.
  Entry& EntryOf(const wire::Account& account);
  static mysql::SqlError BlockedError(const wire::Account& account, absl::string_view host,
                                      const Entry& entry, absl::Time now);

  std::mutex mutex_;
  absl::flat_hash_map<std::string, Entry> entries_;  // by user@host
};

}  // namespace shoal::access
