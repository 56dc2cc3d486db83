// The LDM (NDB's local data manager): owns a share of the partitions on this data node
// (PartitionPlacement says which) and runs the operations addressed to them.
//
// Owned by one thread (docs/architecture.md, I4); everything reaches it through Execute() and
// the calls below on that thread. Results go to a ReplySink, possibly later than Execute()
// returns: an operation that waits for a row lock is parked and answered when the lock is
// released or its wait times out (ER_LOCK_WAIT_TIMEOUT, 1205).
//
// The Ldm routes; its roles do the work, each in its own file:
//
//   Execute(op) ──▶ Handover       parks ops on a partition not handed over yet
//        │
//        ├── key ops, scans ─────▶ KeyOps          ─┐ writes to backups
//        ├── kCommit, kAbort ────▶ Replicator  ◀───┘ (primary side of replication)
//        ├── kReplica* ──────────▶ ReplicaApply     (backup side)
//        ├── kReplicaAck ────────▶ Replicator
//        ├── kPrepare, kTakeoverReq ▶ Participant   (two-phase commit)
//        └── kHandover ──────────▶ Handover
//   StartCopy / CopyStep ───────▶ PartitionCopier  (node restart, copying side)
//   kCopyKeep, kCopyEdge ───────▶ CopySweep        (node restart from disk, restarting side)
//   StartCheckpoint / CheckpointStep ▶ Checkpointer  (local checkpoints)
//
// They share the LdmContext (placement, view, counters), LdmTables (the partitions),
// TxnTable (the transactions held here), DecidedTxns and LockWaits (parked operations, which
// the Ldm runs again when what they waited for ends).
//
// Replication (docs/architecture.md, I7): a write the primary has applied goes to every other
// started replica of its node group before the client hears of it; a commit goes to the
// backups first. A node that restarts gets every partition copied, and every write made
// meanwhile to a partition already copied. When it serves again it takes its primary roles
// back by handover: never do two nodes act as primary of one partition.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/checkpointer.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/copy_sweep.h"
#include "engine/node/ldm/decided_txns.h"
#include "engine/node/ldm/handover.h"
#include "engine/node/ldm/holders_heard.h"
#include "engine/node/ldm/key_ops.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/ldm/participant.h"
#include "engine/node/ldm/partition_copier.h"
#include "engine/node/ldm/replica_apply.h"
#include "engine/node/ldm/replicator.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/storage/memory_budget.h"
#include "engine/wire/messages.h"

namespace shoal::node {

// What makes an LDM's commits durable (LdmContext): all null for an LDM that logs nothing.
struct LdmDurability {
  EpochClock::Decider* decider = nullptr;
  redo::RedoLog* log = nullptr;
  // The node's redo writer's health, and why it is bad (LdmContext::redo_healthy).
  const std::atomic<bool>* redo_healthy = nullptr;
  std::function<std::string()> redo_error;
};

class Ldm : private Unparker {
 public:
  Ldm(PartitionPlacement placement, storage::MemoryBudget* budget, absl::Duration lock_wait_timeout,
      LdmDurability durability = {});
  ~Ldm() override;

  // Follows the dictionary: creates, re-versions, truncates and drops partitions.
  void Apply(const DictionaryDelta& delta);
  // Follows the cluster view. Writes stop waiting for a replica that left the group, and the
  // open transactions it replicated here are rolled back.
  void SetGroup(const GroupView& group, ReplySink* sink);

  // Runs one operation from connection `conn`. Transaction ids are the client's (unique in
  // the cluster: api::Client::Begin), or this node's own for replicated autocommit writes.
  void Execute(const wire::Op& op, uint32_t conn, ReplySink* sink);
  // Answers parked operations whose lock wait has run out. Call every few milliseconds. Lock
  // waits are timed in this LDM's running time (LockWaits), and a wait counts no time while
  // its holder could not move, as `heard` (when given) says: a replica of the node group or
  // the holder's client silent, or the data-plane thread itself not publishing.
  void ExpireLockWaits(absl::Time now, ReplySink* sink);
  void WatchHolders(const HoldersHeard* heard) { holders_heard_ = heard; }
  // Logs replication waits older than `age` (a backup that owes an answer for that long).
  void ReportStuckWaits(absl::Time now, absl::Duration age) const {
    replicator_.ReportStuckWaits(now, age);
  }
  bool has_parked() const { return !lock_waits_.empty(); }
  // Aborts every transaction of a connection that went away.
  void ConnectionClosed(uint32_t conn, ReplySink* sink);

  // Node restart: copies every partition of this LDM to data node `node`, whose request came
  // on connection `conn`, whole partitions per CopyStep() until one has taken the step past
  // `rows_per_step` rows; `ldm_count` LDMs of this node copy.
  void StartCopy(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step = 4096,
                 uint64_t since_epoch = 0) {
    copier_.Start(node, conn, ldm_count, rows_per_step, since_epoch);
  }
  // Copies the next partition; false when there is nothing (more) to copy.
  bool CopyStep(ReplySink* sink) { return copier_.Step(sink); }
  bool copying() const { return copier_.copying(); }

  // Local checkpoint: this LDM's rows of logged tables go to `part`, a chunk per
  // CheckpointStep() as the part's pace allows (checkpointer.h).
  void StartCheckpoint(std::shared_ptr<CheckpointPart> part, absl::Time now) {
    checkpointer_.Start(std::move(part), now);
  }
  // Scans the next chunk when it is due; false when it did nothing.
  bool CheckpointStep(absl::Time now) { return checkpointer_.Step(now); }
  bool checkpointing() const { return checkpointer_.active(); }

  // A system restart, before this LDM serves: a row of a checkpoint or a redo record, applied
  // as committed and logged again under its epoch, so that the new run's redo alone holds the
  // restored state (docs/architecture.md, "Durability"). False when the partition is not here
  // (its table was dropped since) or the row does not fit it.
  // A row whose key now hashes to another partition is restored all the same (nothing is
  // dropped) and counted in stats().misplaced_restored_rows, with an error logged once per
  // table: written before text folding covered accents and case beyond ASCII, it is found by
  // scans but not by its key until the table is dumped and restored.
  bool RestoreWrite(uint32_t table_id, uint32_t partition, absl::string_view row, uint64_t epoch);
  bool RestoreDelete(uint32_t table_id, uint32_t partition, absl::string_view key, uint64_t epoch);
  bool RestoreTruncate(uint32_t table_id, uint32_t partition, uint64_t epoch);
  // The largest AUTO_INCREMENT value of `table_id` in this LDM's partitions (0: none).
  uint64_t max_auto_increment(uint32_t table_id) const;

  const LdmStats& stats() const { return context_.stats; }
  uint64_t row_count() const { return tables_.row_count(); }

 private:
  // Routes `op` to its role. False when it was parked (no reply yet).
  bool Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);
  // kAbort from a client or a TC.
  void ClientAbort(const wire::Abort& abort, uint32_t conn, ReplySink* sink);
  void Unpark(storage::TxnId txn, ReplySink* sink) override;
  void NodeLost(int node, ReplySink* sink);

  LdmContext context_;
  LdmTables tables_;
  TxnTable txns_;
  DecidedTxns decided_;
  LockWaits lock_waits_;
  const HoldersHeard* holders_heard_ = nullptr;  // the data plane's; null: every wait counts
  HoldersHeard::View heard_;                     // ExpireLockWaits: scratch
  PartitionCopier copier_;
  CopySweep sweep_;
  Checkpointer checkpointer_;
  Replicator replicator_;
  ReplicaApply replica_apply_;
  Participant participant_;
  Handover handover_;
  KeyOps key_ops_;
  absl::flat_hash_set<uint32_t> misplaced_tables_;  // RestoreWrite: tables already reported
};

}  // namespace shoal::node
