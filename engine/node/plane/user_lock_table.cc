// The dictionary master's table of user-level locks.
#include "engine/node/plane/user_lock_table.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"

namespace shoal::node {

UserLockTable::Acquired UserLockTable::Acquire(absl::string_view name, Holder who, bool wait,
                                               absl::Time now) {
  Lock& lock = locks_[std::string(name)];
  if (lock.holder.has_value() && *lock.holder == who) {
    ++lock.count;
    return Acquired::kGranted;
  }
  // Waiters that stopped asking have given up their place.
  std::erase_if(lock.waiters, [&](const Waiter& w) {
    if (w.who == who || now - w.seen < kWaiterTtl) return false;
    waiting_.erase(w.who);
    return true;
  });
  const bool first = lock.waiters.empty() || lock.waiters.front().who == who;
  if (!lock.holder.has_value() && first) {
    StopWaiting(&lock, who);
    lock.holder = who;
    lock.count = 1;
    return Acquired::kGranted;
  }
  if (!wait) {
    Tidy(name);
    return Acquired::kBusy;
  }
  // The lock's holder, or the waiter it is kept for, is who this session would wait for.
  const Holder blocker = lock.holder.has_value() ? *lock.holder : lock.waiters.front().who;
  if (WaitsFor(blocker, who, now)) {
    StopWaiting(&lock, who);
    Tidy(name);
    return Acquired::kDeadlock;
  }
  auto queued = std::find_if(lock.waiters.begin(), lock.waiters.end(),
                             [&](const Waiter& w) { return w.who == who; });
  if (queued == lock.waiters.end()) {
    lock.waiters.push_back(Waiter{who, now});
  } else {
    queued->seen = now;
  }
  waiting_[who] = Waiting{std::string(name), now};
  return Acquired::kBusy;
}

bool UserLockTable::WaitsFor(Holder holder, Holder who, absl::Time now) const {
  absl::flat_hash_set<uint64_t> visited;
  for (Holder at = holder;;) {
    if (at == who) return true;
    if (!visited.insert(at.session).second) return false;
    auto waits = waiting_.find(at);
    if (waits == waiting_.end() || now - waits->second.seen >= kWaiterTtl) return false;
    auto lock = locks_.find(waits->second.name);
    if (lock == locks_.end() || !lock->second.holder.has_value()) return false;
    at = *lock->second.holder;
  }
}

void UserLockTable::StopWaiting(Lock* lock, Holder who) {
  std::erase_if(lock->waiters, [&](const Waiter& w) { return w.who == who; });
  waiting_.erase(who);
}

void UserLockTable::Tidy(absl::string_view name) {
  auto it = locks_.find(name);
  if (it != locks_.end() && !it->second.holder.has_value() && it->second.waiters.empty()) {
    locks_.erase(it);
  }
}

std::optional<bool> UserLockTable::Release(absl::string_view name, Holder who) {
  auto it = locks_.find(name);
  if (it == locks_.end() || !it->second.holder.has_value()) return std::nullopt;
  Lock& lock = it->second;
  if (*lock.holder != who) return false;
  if (--lock.count == 0) {
    lock.holder.reset();
    Tidy(name);
  }
  return true;
}

uint64_t UserLockTable::ReleaseAll(Holder who) {
  uint64_t released = 0;
  std::vector<std::string> freed;
  for (auto& [name, lock] : locks_) {
    if (!lock.holder.has_value() || *lock.holder != who) continue;
    released += lock.count;
    lock.holder.reset();
    lock.count = 0;
    freed.push_back(name);
  }
  for (const std::string& name : freed) Tidy(name);
  return released;
}

std::optional<uint64_t> UserLockTable::HolderOf(absl::string_view name) const {
  auto it = locks_.find(name);
  if (it == locks_.end() || !it->second.holder.has_value()) return std::nullopt;
  return it->second.holder->session;
}

void UserLockTable::Cancel(absl::string_view name, Holder who) {
  auto it = locks_.find(name);
  if (it == locks_.end()) return;
  StopWaiting(&it->second, who);
  Tidy(name);
}

bool UserLockTable::Reassert(absl::string_view name, Holder who, uint64_t count) {
  if (count == 0) return true;
  Lock& lock = locks_[std::string(name)];
  if (lock.holder.has_value() && *lock.holder != who) return false;
  // Held before any waiter here asked: it comes first.
  StopWaiting(&lock, who);
  lock.holder = who;
  lock.count = std::max(lock.count, count);
  return true;
}

void UserLockTable::ConnectionGone(uint32_t conn) {
  std::vector<std::string> touched;
  for (auto& [name, lock] : locks_) {
    if (lock.holder.has_value() && lock.holder->conn == conn) {
      lock.holder.reset();
      lock.count = 0;
    }
    std::erase_if(lock.waiters, [&](const Waiter& w) { return w.who.conn == conn; });
    touched.push_back(name);
  }
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->first.conn == conn) {
      waiting_.erase(it++);
    } else {
      ++it;
    }
  }
  for (const std::string& name : touched) Tidy(name);
}

size_t UserLockTable::held() const {
  return static_cast<size_t>(std::count_if(locks_.begin(), locks_.end(), [](const auto& entry) {
    return entry.second.holder.has_value();
  }));
}

}  // namespace shoal::node
