// An LDM's counters on /metrics, labelled by LDM. The thread that owns the LDM publishes the
// increments since its last turn every ~100 ms, so the data path itself writes no shared
// cache line (docs/architecture.md I4).
#pragma once

#include <cstdint>

#include "common/metrics.h"
#include "engine/node/ldm/ldm.h"

namespace shoal::node {

class LdmMetrics {
 public:
  LdmMetrics(MetricsRegistry* registry, int ldm_index);
  // Owner thread of `ldm`.
  void Publish(const Ldm& ldm);

 private:
  LdmStats published_;
  Counter* reads_;
  Counter* writes_;
  Counter* scans_;
  Counter* scan_ranges_;
  Counter* errors_;
  Counter* lock_waits_;
  Counter* lock_timeouts_;
  Counter* replicated_;
  Counter* replica_applied_;
  Counter* copied_rows_;
  Counter* copy_kept_rows_;
  Counter* copy_dropped_rows_;
  Counter* misplaced_restored_rows_;
  Gauge* rows_;
};

}  // namespace shoal::node
