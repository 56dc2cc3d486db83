// Operations parked until a transaction ends: those that met a row lock it holds, and those
// on a partition whose handover has not arrived (Handover). A parked operation is
//   parked     with the id it waits for and its deadline in lock time;
//   retried    in arrival order when that id ends (Ready), through the LDM's routing, where it
//              may park again behind another holder with the deadline it had;
//   expired    when lock time passes its deadline (Expired): the LDM answers 1205 or, for a
//              handover wait, a temporary error;
//   dropped    with its connection;
//   ended      when its own transaction ends (OfEnded; the LDM answers a temporary error): a
//              client that gave its transaction up while one of its scans waited here, run
//              later, would lock rows for a transaction that is over, until the link closed.
//
// Lock time is the LDM's running time (liveness::RunningClock): seconds in which the LDM's
// thread was not scheduled do not count, or a stall of the host would end every wait with
// 1205 the moment the thread runs again, though the holders were stalled just as long. Nor
// does a wait count time in which its holder could not move (Expired's `holder_heard` says
// so, docs/architecture.md "Lock waits"): its deadline moves out by that much, for at most
// kMaxPause in one unbroken silence. A holder whose client or replicas are starved by a busy
// neighbour is not deadlocked, and its waiters would otherwise get 1205 for another process's
// stalls, however many; one whose client stays silent for good (stopped, not gone) does not
// hold its waiters forever.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/time/time.h"
#include "common/liveness/running_clock.h"
#include "engine/storage/partition.h"
#include "engine/wire/op.h"

namespace shoal::node {

class LockWaits {
 public:
  struct Parked {
    std::string op;  // the operation's bytes
    uint32_t conn;
    storage::TxnId own;  // the operation's transaction
    storage::TxnId waiting_for;
    absl::Time deadline;    // in lock time
    bool counting = true;   // as Expired last found its holder: false moves the deadline out
    absl::Duration paused;  // how far the deadline has moved out in the holder's current silence
  };

  // Peers and keep-alive clients are heard from every 100 ms at least: one silent for longer
  // than this is stalled or gone.
  static constexpr absl::Duration kSilence = absl::Milliseconds(300);
  // The most a wait is paused for one unbroken silence of its holder: longer than any stall a
  // busy host imposes (seconds), short enough that a waiter is answered.
  static constexpr absl::Duration kMaxPause = absl::Seconds(30);

  LockWaits(absl::Duration timeout, absl::Time now);

  // Advances lock time to `now` and says where it stands.
  absl::Time LockNow(absl::Time now);
  // The deadline of a wait that starts now, or `deadline` when the operation waited before.
  absl::Time DeadlineFor(absl::Time deadline);

  void Park(const wire::Op& op, uint32_t conn, storage::TxnId holder, absl::Time deadline);
  // Takes out the operations that waited for `txn`, in arrival order.
  std::vector<Parked> Ready(storage::TxnId txn);
  // Takes out the operations whose deadline lock time has passed at `now`. From now on, a
  // wait whose holder `holder_heard` says could not move counts no time.
  std::vector<Parked> Expired(absl::Time now,
                              absl::FunctionRef<bool(storage::TxnId holder)> holder_heard);
  void DropConnection(uint32_t conn);
  // Takes out the operations of `txn`, which has ended.
  std::vector<Parked> OfEnded(storage::TxnId txn);
  bool empty() const { return parked_.empty(); }

 private:
  // Takes out the operations `taken` says, in arrival order.
  std::vector<Parked> TakeOut(absl::FunctionRef<bool(const Parked&)> taken);

  absl::Duration timeout_;
  liveness::RunningClock clock_;
  std::deque<Parked> parked_;
};

}  // namespace shoal::node
