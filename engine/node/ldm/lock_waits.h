// Operations parked until a transaction ends: those that met a row lock it holds, and those
// on a partition whose handover has not arrived (Handover). A parked operation is
//   parked     with the id it waits for and its deadline in lock time;
//   retried    in arrival order when that id ends (Ready), through the LDM's routing, where it
//              may park again behind another holder with the deadline it had;
//   expired    when lock time passes its deadline (Expired): the LDM answers 1205 or, for a
//              handover wait, a temporary error;
//   dropped    with its connection.
//
// Lock time is the LDM's running time (liveness::RunningClock): seconds in which the LDM's
// thread was not scheduled do not count, or a stall of the host would end every wait with
// 1205 the moment the thread runs again, though the holders were stalled just as long.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

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
    storage::TxnId waiting_for;
    absl::Time deadline;  // in lock time
  };

  LockWaits(absl::Duration timeout, absl::Time now);

  // Advances lock time to `now` and says where it stands.
  absl::Time LockNow(absl::Time now);
  // The deadline of a wait that starts now, or `deadline` when the operation waited before.
  absl::Time DeadlineFor(absl::Time deadline);

  void Park(const wire::Op& op, uint32_t conn, storage::TxnId holder, absl::Time deadline);
  // Takes out the operations that waited for `txn`, in arrival order.
  std::vector<Parked> Ready(storage::TxnId txn);
  // Takes out the operations whose deadline lock time has passed at `now`.
  std::vector<Parked> Expired(absl::Time now);
  void DropConnection(uint32_t conn);
  bool empty() const { return parked_.empty(); }

 private:
  absl::Duration timeout_;
  liveness::RunningClock clock_;
  std::deque<Parked> parked_;
};

}  // namespace shoal::node
