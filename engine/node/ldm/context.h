// What the roles of an LDM share (ldm.h has the roles and how an operation reaches them): where
// their output goes, this node's place in its node group, and the counters they move.
//
// All of it belongs to the LDM's one thread (docs/architecture.md, I4): no locks.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/node/epoch_clock.h"
#include "engine/node/ldm/redo_tap.h"
#include "engine/storage/partition.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

namespace shoal::node {

// Where an LDM's output goes: results in the kOpConf frame under construction for a client
// connection, or replication messages in a kOpReq frame (destinations below).
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  // A builder inside a frame for `destination`, with room for another item; nullptr when the
  // destination is gone (the item is dropped). Plain connection ids get kOpConf frames.
  virtual wire::FrameBuilder* ReplyTo(uint32_t destination) = 0;
};

// ReplySink destinations beyond client connections (connection ids stay below 2^30):
inline constexpr uint32_t kToNode = 1u << 31;  // | data node id: kOpReq to that node
inline constexpr uint32_t kOpsOn = 1u << 30;   // | connection id: kOpReq back on it

// This data node's node group as of the latest cluster view.
struct GroupView {
  int self = 0;  // this data node's id
  int node_groups = 1;
  std::vector<int> members;   // the group's data node ids, in configuration (id) order
  std::vector<bool> started;  // parallel to members: serving, a complete replica
  std::vector<int> down;      // every data node of the cluster that does not serve
  // The data node that is the primary replica of `partition`, -1 when none serves; this node
  // without a group (tests).
  int PrimaryOf(uint32_t partition) const;
  bool IsPrimary(uint32_t partition) const { return PrimaryOf(partition) == self; }
  bool IsStarted(int node) const;
};

struct PartitionPlacement {
  int node_groups = 1;
  int replicas = 1;
  int node_group = 0;  // this node's
  int ldm_count = 1;
  int ldm_index = 0;  // this LDM's

  // Partitions of a node group take turns being primary on its replicas (api/cluster.h);
  // dealing them to LDMs in that same rhythm gives every LDM its share of the primaries.
  int LdmOf(uint32_t partition) const {
    return static_cast<int>((partition / node_groups / replicas) % ldm_count);
  }
  bool Owns(uint32_t partition) const {
    return static_cast<int>(partition % node_groups) == node_group && LdmOf(partition) == ldm_index;
  }
};

struct LdmStats {
  uint64_t ops = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t scans = 0;
  uint64_t scan_ranges = 0;  // ranges begun or resumed by range-list scan batches
  uint64_t lock_waits = 0;
  uint64_t lock_timeouts = 0;
  uint64_t errors = 0;
  uint64_t replicated = 0;         // writes and commits sent to backups (as primary)
  uint64_t replica_applied = 0;    // replication messages applied (as backup or copy target)
  uint64_t copied_rows = 0;        // row versions sent to a node being restarted
  uint64_t copy_kept_rows = 0;     // rows it had already (named by key only: a copy since)
  uint64_t copy_dropped_rows = 0;  // rows a copy since an epoch found deleted meanwhile
  // Rows a restart restored into a partition their key no longer hashes to: placed under an
  // older folding of text (docs/architecture.md, "Collations and keys"); key lookups miss them.
  uint64_t misplaced_restored_rows = 0;
};

// A partition a transaction has touched: the partition itself (null once its table is
// dropped) and which one it is.
struct Touched {
  storage::Partition* partition;
  uint32_t table_id;
  uint32_t index;
  bool operator==(const Touched&) const = default;
};

// Runs again, through the LDM's routing, the operations parked behind `txn` (a lock holder,
// or a handover wait) now that it has ended. The Ldm is the one implementation.
class Unparker {
 public:
  virtual ~Unparker() = default;
  virtual void Unpark(storage::TxnId txn, ReplySink* sink) = 0;
};

// The state every role of one LDM reads.
struct LdmContext {
  PartitionPlacement placement;
  GroupView group;
  LdmStats stats;
  Unparker* unparker = nullptr;
  // Durability (I8): the epoch of the commits this LDM decides, and its redo log. Without a
  // decider (tests, a node without a clock) commits belong to epoch 0 and nothing is logged.
  EpochClock::Decider* decider = nullptr;
  RedoTap redo;

  // The health of the node's redo writer (RedoWriter::healthy_flag): while it is false — a
  // write failed, a full disk — nothing that would commit a change to a logged table is taken
  // (NDB answers 410 when its redo cannot be written); reads go on. Loaded on every write, so
  // an atomic and nothing more (never the writer's mutex). Null: always healthy.
  const std::atomic<bool>* redo_healthy = nullptr;
  // Why the writer is unhealthy (RedoWriter::last_error); called only when refusing.
  std::function<std::string()> redo_error;

  bool RedoRefuses() const {
    return redo_healthy != nullptr && !redo_healthy->load(std::memory_order_relaxed);
  }
  // 1297's text for a refusal: "Got temporary error 410 'REDO log files overloaded (disk full:
  // <why>)' from NDBCLUSTER".
  std::string RedoRefusal() const;

  uint64_t BeginCommit() { return decider == nullptr ? 0 : decider->Begin(); }
  void EndCommit(uint64_t epoch) {
    if (decider != nullptr) decider->End(epoch);
  }
  // The epoch commits get now, for what is applied without being decided here (a copy).
  uint64_t CurrentEpoch() const { return decider == nullptr ? 0 : decider->current(); }
  // A commit another node decided in `epoch` is applied here.
  void ObserveEpoch(uint64_t epoch) {
    if (decider != nullptr && epoch != 0) decider->Observe(epoch);
  }
};

// Appends an error result for the operation tagged `tag` (nothing when `out` is null: its
// connection is gone) and counts it.
void ReplyError(LdmContext* context, wire::FrameBuilder* out, uint64_t tag, uint16_t code,
                absl::string_view message);

}  // namespace shoal::node
