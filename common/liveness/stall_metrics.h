// StallMetrics: one thread's scheduling lateness, as its RunningClock measures it, for
// /metrics — how late its periodic work ran at worst, and how often it was stalled outright
// (late past the clock's allowance). Every failure detector feeds one, so each process shows
// whether the host lets it run on time.
//
// Owned by the detector; Record is for its thread, the metrics are read by the scraper.
#pragma once

#include <string>

#include "common/liveness/running_clock.h"
#include "common/metrics.h"

namespace shoal::liveness {

class StallMetrics {
 public:
  // `thread` labels the series ("mgmd", "control", "data-plane", "router-w0"...). A null
  // registry records nothing.
  StallMetrics(MetricsRegistry* registry, const std::string& thread);

  void Record(const RunningClock::Tick& tick);

 private:
  Gauge* worst_us_ = nullptr;
  Counter* stalls_ = nullptr;
  Counter* checks_ = nullptr;
};

}  // namespace shoal::liveness
