#include "router/access/login_failures.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "protocol/access_errors.h"

namespace shoal::access {
namespace {

bool Tracked(const wire::Account& account) {
  return account.failed_login_attempts() > 0 && account.password_lock_days() != 0;
}

}  // namespace

LoginFailures::Entry& LoginFailures::EntryOf(const wire::Account& account) {
  Entry& entry = entries_[absl::StrCat(account.user(), "@", account.host())];
  if (entry.serial != account.login_tracking_serial()) {
    entry = Entry{};
    entry.serial = account.login_tracking_serial();
  }
  return entry;
}

mysql::SqlError LoginFailures::BlockedError(const wire::Account& account, absl::string_view host,
                                            const Entry& entry, absl::Time now) {
  std::string days = "unlimited", remaining = "unlimited";
  if (account.password_lock_days() > 0) {
    days = absl::StrCat(account.password_lock_days());
    remaining = absl::StrCat(
        static_cast<int64_t>(std::ceil(absl::ToDoubleHours(entry.blocked_until - now) / 24)));
  }
  return mysql::errors::AccountBlocked(account.user(), host, days, remaining, entry.failures);
}

std::optional<mysql::SqlError> LoginFailures::Blocked(const wire::Account& account,
                                                      absl::string_view host, absl::Time now) {
  if (!Tracked(account)) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = EntryOf(account);
  if (entry.blocked_until <= now) return std::nullopt;
  return BlockedError(account, host, entry, now);
}

std::optional<mysql::SqlError> LoginFailures::Failed(const wire::Account& account,
                                                     absl::string_view host, absl::Time now) {
  if (!Tracked(account)) return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = EntryOf(account);
  if (entry.blocked_until > now) return BlockedError(account, host, entry, now);
  if (++entry.failures < account.failed_login_attempts()) return std::nullopt;
  entry.blocked_until = account.password_lock_days() < 0
                            ? absl::InfiniteFuture()
                            : now + absl::Hours(24) * account.password_lock_days();
  return BlockedError(account, host, entry, now);
}

void LoginFailures::Succeeded(const wire::Account& account) {
  if (!Tracked(account)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  EntryOf(account) = Entry{account.login_tracking_serial(), 0, absl::InfinitePast()};
}

}  // namespace shoal::access
