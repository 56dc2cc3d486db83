#include "common/liveness/running_clock.h"

#include <algorithm>

#include "common/logging.h"

namespace shoal::liveness {

RunningClock::RunningClock(absl::Duration interval, absl::Time now)
    : interval_(interval), last_(now) {
  SHOAL_CHECK(interval > absl::ZeroDuration()) << "a RunningClock needs a positive interval";
}

RunningClock::Tick RunningClock::Advance(absl::Time now) {
  Tick tick;
  // A clock that steps back (absl::Now is the wall clock) counts as no time at all.
  tick.gap = std::max(now - last_, absl::ZeroDuration());
  last_ = std::max(last_, now);
  tick.lateness = std::max(tick.gap - interval_, absl::ZeroDuration());
  tick.stalled = tick.gap > allowance();
  tick.counted = std::min(tick.gap, allowance());
  running_ += tick.counted;
  return tick;
}

}  // namespace shoal::liveness
