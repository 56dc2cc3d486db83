// MAX_QUERIES_PER_HOUR, MAX_UPDATES_PER_HOUR and MAX_CONNECTIONS_PER_HOUR, as mysqld counts
// them: for each account with a limit, the statements it ran (questions), those of them that
// change data or the schema (updates), and its logins, in an hour that starts with the first
// one counted; past a limit, 1226 until the hour is over. Each router counts its own, as each
// mysqld does. An account's counts start again when its limits change, and every account's
// when the accounts' resource_epoch grows (FLUSH USER_RESOURCES, on any router): both are part
// of the key. Shared by the router's workers; thread-safe.
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

class ResourceCounts {
 public:
  // Whether `account` has any hourly limit (else nothing needs counting).
  static bool HasHourlyLimits(const wire::Account& account) {
    return account.max_questions() != 0 || account.max_updates() != 0 ||
           account.max_connections_per_hour() != 0;
  }

  // A statement run as `account` (`update`: one that changes data or the schema): 1226 once
  // it is past the account's max_questions or max_updates. `epoch`: the accounts'
  // resource_epoch.
  std::optional<mysql::SqlError> CountStatement(const wire::Account& account, uint32_t epoch,
                                                bool update, absl::Time now);
  // A login as `account`: 1226 once it is past max_connections_per_hour.
  std::optional<mysql::SqlError> CountConnection(const wire::Account& account, uint32_t epoch,
                                                 absl::Time now);

 private:
  struct Counts {
    absl::Time hour_started;
    uint32_t questions = 0;
    uint32_t updates = 0;
    uint32_t connections = 0;
  };
  // The account's counts, started again when their hour is over. Called with mutex_ held.
  Counts& CountsOf(const wire::Account& account, uint32_t epoch, absl::Time now);

  // std::mutex, not absl::Mutex: ThreadSanitizer sees it (Debian's abseil is not built for it).
  std::mutex mutex_;
  absl::flat_hash_map<std::string, Counts> counts_;
};

}  // namespace shoal::access
