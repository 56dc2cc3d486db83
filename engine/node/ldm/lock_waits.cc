#include "engine/node/ldm/lock_waits.h"

#include <utility>

namespace shoal::node {
namespace {

// The lock clock's step: a gap of up to twice this between two looks counts in full (a busy
// turn of the loop), a longer one is a stall of this thread and counts as twice this.
constexpr absl::Duration kLockClockInterval = absl::Milliseconds(100);

}  // namespace

LockWaits::LockWaits(absl::Duration timeout, absl::Time now)
    : timeout_(timeout), clock_(kLockClockInterval, now) {}

absl::Time LockWaits::LockNow(absl::Time now) {
  liveness::RunningClock::Tick tick = clock_.Advance(now);
  for (Parked& parked : parked_) {
    if (parked.counting || parked.paused >= kMaxPause) continue;
    parked.deadline += tick.counted;
    parked.paused += tick.counted;
  }
  return absl::UnixEpoch() + clock_.running();
}

absl::Time LockWaits::DeadlineFor(absl::Time deadline) {
  return deadline == absl::InfiniteFuture() ? LockNow(absl::Now()) + timeout_ : deadline;
}

void LockWaits::Park(const wire::Op& op, uint32_t conn, storage::TxnId holder,
                     absl::Time deadline) {
  parked_.push_back(Parked{std::string(op.bytes), conn, op.header.txn, holder, deadline, true, {}});
}

std::vector<LockWaits::Parked> LockWaits::TakeOut(absl::FunctionRef<bool(const Parked&)> taken) {
  std::vector<Parked> out;
  for (auto it = parked_.begin(); it != parked_.end();) {
    if (taken(*it)) {
      out.push_back(std::move(*it));
      it = parked_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::vector<LockWaits::Parked> LockWaits::Ready(storage::TxnId txn) {
  return TakeOut([txn](const Parked& p) { return p.waiting_for == txn; });
}

std::vector<LockWaits::Parked> LockWaits::Expired(
    absl::Time now, absl::FunctionRef<bool(storage::TxnId holder)> holder_heard) {
  std::vector<Parked> expired;
  for (Parked& parked : parked_) {
    parked.counting = holder_heard(parked.waiting_for);
    // kMaxPause bounds one silence: a busy host's many stalls, each shorter, add up to more.
    if (parked.counting) parked.paused = absl::ZeroDuration();
  }
  absl::Time lock_now = LockNow(now);
  for (auto it = parked_.begin(); it != parked_.end();) {
    if (it->deadline > lock_now) {
      ++it;
    } else {
      expired.push_back(std::move(*it));
      it = parked_.erase(it);
    }
  }
  return expired;
}

void LockWaits::DropConnection(uint32_t conn) {
  std::erase_if(parked_, [conn](const Parked& p) { return p.conn == conn; });
}

std::vector<LockWaits::Parked> LockWaits::OfEnded(storage::TxnId txn) {
  if (txn == storage::kAutocommit) return {};
  return TakeOut([txn](const Parked& p) { return p.own == txn; });
}

}  // namespace shoal::node
