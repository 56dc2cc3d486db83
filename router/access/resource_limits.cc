#include "router/access/resource_limits.h"

#include "absl/strings/str_cat.h"
#include "protocol/access_errors.h"

namespace shoal::access {
namespace {

constexpr absl::Duration kHour = absl::Hours(1);

}  // namespace

ResourceCounts::Counts& ResourceCounts::CountsOf(const wire::Account& account, uint32_t epoch,
                                                 absl::Time now) {
  std::string key =
      absl::StrCat(account.user(), "@", account.host(), "/", account.max_questions(), "/",
                   account.max_updates(), "/", account.max_connections_per_hour(), "/", epoch);
  Counts& counts = counts_[key];
  if (now - counts.hour_started >= kHour) {
    counts = Counts();
    counts.hour_started = now;
  }
  return counts;
}

std::optional<mysql::SqlError> ResourceCounts::CountStatement(const wire::Account& account,
                                                              uint32_t epoch, bool update,
                                                              absl::Time now) {
  if (account.max_questions() == 0 && (!update || account.max_updates() == 0)) {
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  Counts& counts = CountsOf(account, epoch, now);
  if (account.max_questions() != 0 && counts.questions++ >= account.max_questions()) {
    return mysql::errors::UserLimitReached(account.user(), "max_questions",
                                           account.max_questions());
  }
  if (update && account.max_updates() != 0 && counts.updates++ >= account.max_updates()) {
    return mysql::errors::UserLimitReached(account.user(), "max_updates", account.max_updates());
  }
  return std::nullopt;
}

std::optional<mysql::SqlError> ResourceCounts::CountConnection(const wire::Account& account,
                                                               uint32_t epoch, absl::Time now) {
  if (account.max_connections_per_hour() == 0) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  Counts& counts = CountsOf(account, epoch, now);
  if (counts.connections >= account.max_connections_per_hour()) {
    return mysql::errors::UserLimitReached(account.user(), "max_connections_per_hour",
                                           account.max_connections_per_hour());
  }
  ++counts.connections;
  return std::nullopt;
}
}  // namespace shoal::access
