// LdmHost: the data plane's ldm role (docs/architecture.md I3, I4). Owns the node's LDMs and
// their data memory: on the data-plane thread (the layout for 1–2 CPUs), or each on a thread
// of its own (LdmWorker, ldm_worker.h). Routes operations to the LDM that owns their
// partition, hands each LDM what it must see in order with them (closed connections,
// dictionary changes, the node group, copy and checkpoint requests), takes the LDM threads' results
// back, and publishes the LDMs' metrics.
//
// Results, on either layout, go to the ReplySink given at construction. A frame's operations
// for LDM threads are batched, one record per LDM (Route, then PushBatches); when an LDM's
// queue is full the data-plane thread drains results while it waits.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <sched.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/holders_heard.h"
#include "engine/node/ldm/ldm.h"
#include "engine/node/ldm_metrics.h"
#include "engine/node/ldm_worker.h"
#include "engine/node/plane/options.h"
#include "engine/storage/memory_budget.h"
#include "engine/wire/op.h"

namespace shoal::node {

class LdmHost {
 public:
  // `options` and `sink` outlive this.
  LdmHost(const DataPlaneOptions* options, ReplySink* sink);
  LdmHost(const LdmHost&) = delete;
  LdmHost& operator=(const LdmHost&) = delete;

  // Makes options' ldm_count LDMs, the i-th logging as durability[i] says (none beyond its
  // size), all on this thread for now: a restore fills their partitions (LdmForRestore)
  // before Launch puts them on threads of their own, when options say so.
  void Start(const std::vector<LdmDurability>& durability);
  absl::Status Launch();
  // Before Launch: the LDM that owns `partition`.
  Ldm* LdmForRestore(uint32_t partition);
  // Before Launch: the largest AUTO_INCREMENT value of the table here (0: none).
  uint64_t MaxAutoIncrement(uint32_t table_id) const;
  // Thread-safe: the data memory the partitions have reserved, and the limit.
  const storage::MemoryBudget& budget() const { return budget_; }
  // Stops and joins the LDM threads.
  void StopWorkers() { workers_.clear(); }
  // The LDM threads' result doorbells, for the data-plane thread's epoll set.
  std::vector<int> doorbells() const;

  // The hot path: runs `op` (its encoded bytes `bytes`) from connection `conn` on its LDM of
  // this thread, or adds it to that LDM's batch; PushBatches() then hands the batches over
  // (none when `conn_dead`: a connection closed by a malformed operation has had its closing
  // queued already, and operations after it would open transactions nobody ends).
  void Route(const wire::Op& op, absl::string_view bytes, uint32_t conn);
  void PushBatches(uint32_t conn, bool conn_dead);
  // One operation of this node's own (the TC's, under connection `conn`) for partition
  // `partition`: `body` is its encoded bytes.
  void RunOne(uint32_t partition, absl::string_view body, uint32_t conn);
  // Wakes the LDM threads given work this turn and hands their results to the sink.
  bool FlushAndDrain();
  bool DrainResults();

  void ConnectionClosed(uint32_t conn);
  void ApplyDelta(const DictionaryDelta& delta);
  void SetGroup(const GroupView& group);
  // Node restart, copying side: the LDMs copy to `node` on connection `conn`.
  void StartCopy(int node, uint32_t conn, uint64_t since_epoch);
  // The LDMs on this thread: a copy under way; one copy step each (true when any copied).
  bool copying() const;
  bool CopyStep();
  // Local checkpoint: LDM i writes its rows to parts[i] (checkpointer.h); those on this thread
  // take a chunk per CheckpointStep (true when any did), those on threads of their own step
  // themselves.
  void StartCheckpoint(const std::vector<std::shared_ptr<CheckpointPart>>& parts);
  bool CheckpointStep(absl::Time now);
  // The LDMs on this thread: answers lock waits that ran out; logs stuck replication waits.
  void ExpireLockWaits(absl::Time now);
  // Who lock holders wait on, as heard of by the data-plane thread: every LDM's lock waits
  // count no time while their holder cannot move (Ldm::ExpireLockWaits).
  void PublishHeard(absl::Time now, bool group_heard, std::vector<uint32_t> silent_clients) {
    holders_heard_.Publish(now, group_heard, std::move(silent_clients));
  }
  void ReportStuckWaits(absl::Time now, absl::Duration age);
  // The LDMs on this thread have work due on a clock: parked operations, a copy or a
  // checkpoint.
  bool has_timed_work() const;
  // The sleep's part for the LDM threads' doorbells (Connections::PrepareToSleep).
  bool PrepareToSleep();
  void WokeUp();
  // Rows, data memory, and the counters of the LDMs on this thread.
  void PublishStats();

 private:
  // Threaded LDMs: retries `push` on LDM `ldm` until its queue takes it, draining results
  // meanwhile.
  template <typename Push>
  void PushToLdm(int ldm, Push push);

  const DataPlaneOptions* options_;
  ReplySink* sink_;
  PartitionPlacement placement_;  // of the node group's partitions to LDMs
  storage::MemoryBudget budget_;
  std::vector<std::unique_ptr<Ldm>> ldms_;           // LDMs run on this thread,
  std::vector<LdmMetrics> ldm_metrics_;              // (theirs), or
  std::vector<std::unique_ptr<LdmWorker>> workers_;  // LDMs on threads of their own
  std::vector<std::string> batches_;                 // Route: one frame's ops per LDM
  std::vector<uint32_t> batch_counts_;
  Gauge* rows_metric_;
  Gauge* memory_metric_;
  HoldersHeard holders_heard_;  // read by every LDM, on LDM threads too
};

inline void LdmHost::Route(const wire::Op& op, absl::string_view bytes, uint32_t conn) {
  int ldm = placement_.LdmOf(op.header.partition);
  if (workers_.empty()) {
    ldms_[ldm]->Execute(op, conn, sink_);
  } else {
    batches_[ldm].append(bytes.data(), bytes.size());
    ++batch_counts_[ldm];
  }
}

template <typename Push>
void LdmHost::PushToLdm(int ldm, Push push) {
  LdmWorker* worker = workers_[ldm].get();
  while (!push(worker)) {
    // The LDM is behind; it may itself be waiting for room for its results.
    worker->Flush();
    DrainResults();
    sched_yield();
  }
}

}  // namespace shoal::node
