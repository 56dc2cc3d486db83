#include "engine/node/ldm_metrics.h"

#include <string>

namespace shoal::node {

LdmMetrics::LdmMetrics(MetricsRegistry* registry, int ldm_index) {
  MetricLabels ldm = {{"ldm", std::to_string(ldm_index)}};
  auto counter = [&](const char* name, const char* help) {
    return registry->GetCounter(name, help, ldm);
  };
  reads_ = counter("shoal_datanode_ldm_reads_total", "Key reads run (primary and unique key).");
  writes_ = counter("shoal_datanode_ldm_writes_total",
                    "Inserts, writes (upserts), updates and deletes run.");
  scans_ = counter("shoal_datanode_ldm_scan_batches_total", "Scan batches run.");
  scan_ranges_ = counter("shoal_datanode_ldm_scan_ranges_total",
                         "Ranges read by range-list scan batches (multi-range reads).");
  errors_ = counter("shoal_datanode_ldm_errors_total",
                    "Operations answered with a MySQL error (duplicate key, full, ...).");
  lock_waits_ =
      counter("shoal_datanode_ldm_lock_waits_total", "Operations that waited for a row lock.");
  lock_timeouts_ = counter("shoal_datanode_ldm_lock_wait_timeouts_total",
                           "Lock waits that ran out (error 1205).");
  replicated_ = counter("shoal_datanode_ldm_replicated_total",
                        "Writes and commits this node, as primary, sent to backups and awaited.");
  replica_applied_ = counter("shoal_datanode_ldm_replica_applied_total",
                             "Replicated writes, commits and rollbacks applied as a backup.");
  copied_rows_ = counter("shoal_datanode_ldm_copied_rows_total",
                         "Row versions copied to a restarting data node.");
  copy_kept_rows_ = counter("shoal_datanode_ldm_copy_kept_rows_total",
                            "Rows a restarting data node had on its own disk, named by key only.");
  copy_dropped_rows_ =
      counter("shoal_datanode_ldm_copy_dropped_rows_total",
              "Rows a restarting data node had on disk that were deleted while it was down.");
  misplaced_restored_rows_ =
      counter("shoal_datanode_ldm_misplaced_restored_rows_total",
              "Rows a restart restored into partitions their keys no longer hash to (written "
              "under an older folding of text): key lookups miss them until a dump and restore.");
  rows_ = registry->GetGauge("shoal_datanode_ldm_rows", "Rows in the LDM's partitions.", ldm);
}

void LdmMetrics::Publish(const Ldm& ldm) {
  const LdmStats& now = ldm.stats();
  auto publish = [](Counter* counter, uint64_t now_value, uint64_t* published) {
    counter->Increment(static_cast<int64_t>(now_value - *published));
    *published = now_value;
  };
  publish(reads_, now.reads, &published_.reads);
  publish(writes_, now.writes, &published_.writes);
  publish(scans_, now.scans, &published_.scans);
  publish(scan_ranges_, now.scan_ranges, &published_.scan_ranges);
  publish(errors_, now.errors, &published_.errors);
  publish(lock_waits_, now.lock_waits, &published_.lock_waits);
  publish(lock_timeouts_, now.lock_timeouts, &published_.lock_timeouts);
  publish(replicated_, now.replicated, &published_.replicated);
  publish(replica_applied_, now.replica_applied, &published_.replica_applied);
  publish(copied_rows_, now.copied_rows, &published_.copied_rows);
  publish(copy_kept_rows_, now.copy_kept_rows, &published_.copy_kept_rows);
  publish(copy_dropped_rows_, now.copy_dropped_rows, &published_.copy_dropped_rows);
  publish(misplaced_restored_rows_, now.misplaced_restored_rows,
          &published_.misplaced_restored_rows);
  rows_->Set(static_cast<int64_t>(ldm.row_count()));
}

}  // namespace shoal::node
