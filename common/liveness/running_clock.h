// RunningClock: the time a periodic task has itself been running — wall time with the task's
// own stalls left out.
//
// A failure detector measures a peer's silence with it, so that seconds in which the detector
// was not scheduled (a busy neighbour starving its process group, a VM pause, SIGSTOP, swap)
// are never held against the peers it watches: after such a stall, what waits on its sockets
// was sent while it slept, and the peers had no chance to be heard. See docs/architecture.md,
// "Failure detection".
//
// The owner calls Advance(now) every `interval`. A gap of up to `2 × interval` since the
// previous call counts in full; a longer gap means the owner was stalled, and counts as
// `2 × interval` only. Owned by one detector; used on its thread only.
#pragma once

#include "absl/time/time.h"

namespace shoal::liveness {

class RunningClock {
 public:
  struct Tick {
    absl::Duration counted;   // running time added by this tick
    absl::Duration gap;       // wall time since the previous tick
    absl::Duration lateness;  // gap beyond `interval` (zero when on time)
    bool stalled = false;     // the gap was past the allowance: the owner itself was stalled
  };

  // REQUIRES: interval > 0.
  RunningClock(absl::Duration interval, absl::Time now);

  Tick Advance(absl::Time now);

  absl::Duration interval() const { return interval_; }
  absl::Duration allowance() const { return 2 * interval_; }
  // Running time from construction to the last Advance.
  absl::Duration running() const { return running_; }

 private:
  absl::Duration interval_;
  absl::Time last_;
  absl::Duration running_;
};

}  // namespace shoal::liveness
