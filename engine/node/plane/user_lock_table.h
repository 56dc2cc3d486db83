// UserLockTable: MySQL's user-level locks (GET_LOCK, RELEASE_LOCK, …) as the dictionary master
// holds them for the whole cluster (docs/architecture.md, "User-level locks"). Pure state, no
// I/O: DictionaryRole feeds it the routers' requests and answers them.
//
// A holder is a session (its CONNECTION_ID, unique across routers) behind one client
// connection to this node; when that connection closes, its sessions' locks and waits go.
// A lock is held by one session at a time, as often as it acquired it (each acquisition needs
// its release). A session that finds it busy and means to wait queues behind the others and
// asks again (routers poll: no request of theirs is held here); once the lock is free it goes
// to the first waiter that still asks, so waiters are served in their order. A waiter that
// stops asking for kWaiterTtl has given up. A session that would wait for a lock whose holder
// waits, directly or not, for one of its own is refused (ER_USER_LOCK_DEADLOCK).
//
// Used on the data-plane thread only.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace shoal::node {

class UserLockTable {
 public:
  // How long a waiter keeps its place without asking again.
  static constexpr absl::Duration kWaiterTtl = absl::Milliseconds(500);

  struct Holder {
    uint32_t conn = 0;     // the client connection on this node
    uint64_t session = 0;  // the router session's CONNECTION_ID
    bool operator==(const Holder&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const Holder& holder) {
      return H::combine(std::move(h), holder.conn, holder.session);
    }
  };
  enum class Acquired { kGranted, kBusy, kDeadlock };

  // GET_LOCK's one attempt: granted (again, for its holder), or busy — then, with `wait`, the
  // session keeps a place in the queue until it asks again within kWaiterTtl or Cancel()s.
  Acquired Acquire(absl::string_view name, Holder who, bool wait, absl::Time now);
  // RELEASE_LOCK: true when released (once), false when another session holds it, nullopt
  // when nobody does.
  std::optional<bool> Release(absl::string_view name, Holder who);
  // RELEASE_ALL_LOCKS: how many acquisitions it released.
  uint64_t ReleaseAll(Holder who);
  // IS_USED_LOCK: the holder's session.
  std::optional<uint64_t> HolderOf(absl::string_view name) const;
  // The session no longer waits for `name`.
  void Cancel(absl::string_view name, Holder who);
  // A lock `who` held on a former master: it holds it here too, at least `count` times,
  // unless another session holds it (false).
  bool Reassert(absl::string_view name, Holder who, uint64_t count);
  // The client connection closed: every lock and wait of its sessions goes.
  void ConnectionGone(uint32_t conn);

  size_t held() const;

 private:
  struct Waiter {
    Holder who;
    absl::Time seen;
  };
  struct Lock {
    std::optional<Holder> holder;
    uint64_t count = 0;
    std::deque<Waiter> waiters;
  };
  struct Waiting {
    std::string name;
    absl::Time seen;
  };

  // Whether `holder`, waiting (not past its time), leads through the locks it waits for back
  // to `who`.
  bool WaitsFor(Holder holder, Holder who, absl::Time now) const;
  void StopWaiting(Lock* lock, Holder who);
  // Drops `name` when nobody holds or waits for it.
  void Tidy(absl::string_view name);

  absl::flat_hash_map<std::string, Lock> locks_;
  absl::flat_hash_map<Holder, Waiting> waiting_;
};

}  // namespace shoal::node
