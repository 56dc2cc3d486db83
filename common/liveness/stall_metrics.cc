#include "common/liveness/stall_metrics.h"

namespace shoal::liveness {

StallMetrics::StallMetrics(MetricsRegistry* registry, const std::string& thread) {
  if (registry == nullptr) return;
  MetricLabels labels = {{"thread", thread}};
  worst_us_ = registry->GetGauge(
      "shoal_scheduling_lateness_max_microseconds",
      "The longest a thread's periodic work (heartbeats, failure checks) ran late since start.",
      labels);
  stalls_ = registry->GetCounter(
      "shoal_scheduling_stalls_total",
      "Times a thread's periodic work ran so late that the thread counts as stalled; failure "
      "detectors leave such time out.",
      labels);
  checks_ =
      registry->GetCounter("shoal_scheduling_checks_total",
                           "Runs of a thread's periodic work whose lateness was measured.", labels);
}

void StallMetrics::Record(const RunningClock::Tick& tick) {
  if (checks_ == nullptr) return;
  checks_->Increment();
  if (tick.stalled) stalls_->Increment();
  int64_t late_us = absl::ToInt64Microseconds(tick.lateness);
  if (late_us > worst_us_->value()) worst_us_->Set(late_us);
}

}  // namespace shoal::liveness
