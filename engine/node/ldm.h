// The LDM role (NDB's local data manager): owns a share of the partitions on this data node
// and runs the operations addressed to them (PartitionPlacement says which).
//
// Owned by one thread (docs/architecture.md I4); everything reaches it through Execute() and the
// dictionary calls on that thread. Results go to a ReplySink, possibly later than Execute()
// returns: an operation that waits for a row lock is parked and answered when the lock is
// released or its wait times out (ER_LOCK_WAIT_TIMEOUT, 1205).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "common/liveness/running_clock.h"
#include "engine/node/dictionary.h"
#include "engine/schema/row.h"
#include "engine/storage/memory_budget.h"
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

// True for the id an operation waits on while its partition's handover is due (not a
// transaction's: ldm_handover.cc).
bool IsHandoverWait(storage::TxnId txn);

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
  uint64_t lock_waits = 0;
  uint64_t lock_timeouts = 0;
  uint64_t errors = 0;
  uint64_t replicated = 0;       // writes and commits sent to backups (as primary)
  uint64_t replica_applied = 0;  // replication messages applied (as backup or copy target)
  uint64_t copied_rows = 0;      // row versions sent to a node being restarted
};

// Replication (docs/architecture.md I7, ldm_replication.cc): a write the primary has applied goes
// to every other started replica of its node group, as its after-image, before the client
// hears of it; an autocommit write runs under an internal transaction that commits once the
// backups have it. A commit goes to the backups first and is answered once all have committed.
// Backups hold the written rows locked under the same transaction id until then. A node that
// restarts gets every partition copied (with the versions open transactions hold), and every
// write made meanwhile to a partition already copied. When it serves again it takes its
// primary roles back by handover (ldm_handover.cc): never do two nodes act as primary of one
// partition.
class Ldm {
 public:
  Ldm(PartitionPlacement placement, storage::MemoryBudget* budget,
      absl::Duration lock_wait_timeout);
  ~Ldm();

  // Follows the dictionary: creates, re-versions, truncates and drops partitions.
  void Apply(const DictionaryDelta& delta);
  // Follows the cluster view. Writes stop waiting for a replica that left the group, and the
  // open transactions it replicated here are rolled back.
  void SetGroup(const GroupView& group, ReplySink* sink);

  // Runs one operation from connection `conn`. Transaction ids are the client's (unique in
  // the cluster: api::Client::Begin), or this node's own for replicated autocommit writes.
  void Execute(const wire::Op& op, uint32_t conn, ReplySink* sink);
  // Answers parked operations whose lock wait has run out. Call every few milliseconds. Lock
  // waits are timed in this LDM's running time (LockNow).
  void ExpireLockWaits(absl::Time now, ReplySink* sink);
  // Logs replication waits older than `age` (a backup that owes an answer for that long).
  void ReportStuckWaits(absl::Time now, absl::Duration age) const;
  bool has_parked() const { return !parked_.empty(); }
  // Aborts every transaction of a connection that went away.
  void ConnectionClosed(uint32_t conn, ReplySink* sink);

  // Node restart: copies every partition of this LDM to data node `node`, whose request came
  // on connection `conn`, whole partitions per CopyStep() until one has taken the step past
  // `rows_per_step` rows; `ldm_count` LDMs of this node copy.
  void StartCopy(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step = 4096);
  // Copies the next partition; false when there is nothing (more) to copy.
  bool CopyStep(ReplySink* sink);
  bool copying() const { return copy_.has_value() && !copy_->complete; }

  const LdmStats& stats() const { return stats_; }
  uint64_t row_count() const;

 private:
  struct TableState {
    TablePtr def;
    std::vector<std::unique_ptr<storage::Partition>> partitions;  // null where not owned
    // Definitions a partition still uses because it could not switch to a newer one (a new
    // unique index its rows break); kept alive as long as the table.
    std::vector<TablePtr> kept;
  };
  struct Parked {
    std::string op;  // the operation's bytes
    uint32_t conn;
    storage::TxnId waiting_for;
    absl::Time deadline;
  };
  // A partition an open transaction has touched.
  struct Touched {
    storage::Partition* partition;
    uint32_t table_id;
    uint32_t index;
    bool operator==(const Touched&) const = default;
  };
  struct OpenTxn {
    uint32_t conn = 0;  // where its operations came from
    int source = 0;     // replicated here by this data node (0: a client's, run as primary)
    std::vector<Touched> touched;
    // Prepared by a TC (two-phase commit): only the TC, or the node taking over from it,
    // ends it now; neither its client's nor its primary's loss rolls it back.
    bool prepared = false;
    int tc = 0;
  };
  // A prepared transaction committed here, remembered for a node taking over from its TC.
  struct Decided {
    int tc = 0;
    std::vector<std::pair<uint32_t, uint32_t>> partitions;  // (table, partition)
  };
  struct TakeoverQuery {
    uint32_t conn = 0;
    uint64_t tag = 0;
    int tc = 0;
    uint32_t table_id = 0;
    uint32_t partition = 0;
  };
  // A client's write or commit waiting for the backups' answers.
  struct ReplicaWait {
    enum class Kind : uint8_t { kWrite, kCommit, kPrepare };
    Kind kind = Kind::kWrite;
    int tc = 0;         // kCommit of a prepared transaction: its TC
    uint32_t conn = 0;  // the client to answer
    uint64_t tag = 0;
    storage::TxnId txn = 0;
    bool internal = false;         // an autocommit write under this node's own transaction id
    std::vector<Touched> touched;  // the partition written, or those the commit ends
    std::vector<int> pending;      // data nodes whose answer is due (one entry per answer)
    uint16_t error = 0;
    std::string message;
    absl::Time since = absl::Now();
  };
  struct CopyState {
    int node = 0;
    uint32_t conn = 0;
    int ldm_count = 1;
    uint64_t rows_per_step = 0;
    std::deque<std::pair<uint32_t, uint32_t>> todo;  // (table, partition) not copied yet
    absl::flat_hash_set<std::pair<uint32_t, uint32_t>> done;
    uint32_t total = 0;
    bool complete = false;
  };

  // Returns false when the operation hit a lock and was parked (no reply yet).
  bool Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);
  void RunScan(const wire::Op& op, const TableState& table, storage::Partition* partition,
               storage::TxnId txn, wire::FrameBuilder* out);
  // Notes a partition a client's transaction has written or locked.
  void Touch(storage::TxnId txn, uint32_t conn, const Touched& touched);
  void ForgetPartitions(uint32_t table_id);
  void Park(const wire::Op& op, uint32_t conn, storage::TxnId holder, absl::Time deadline);
  // Retries operations that waited for `txn`, in arrival order.
  void Unpark(storage::TxnId txn, ReplySink* sink);
  void Error(wire::FrameBuilder* out, uint64_t tag, uint16_t code, absl::string_view message);
  void Reply(wire::FrameBuilder* out, const storage::OpResult& result, const wire::Op& op,
             const schema::TableDef& table);
  storage::Partition* Find(uint32_t table_id, uint32_t partition) const;

  // Replication, primary side (ldm_replication.cc).
  // Data nodes besides this one that get `partition`'s writes: started replicas (they answer)
  // and a node being copied to that has this partition already (it does not).
  void Targets(uint32_t table_id, uint32_t partition);
  bool HasTargets(uint32_t table_id, uint32_t partition) {
    Targets(table_id, partition);
    return !acked_targets_.empty() || copy_target_;
  }
  storage::TxnId NewInternalTxn();
  // Sends the after-image of a write that succeeded under `txn` to the targets; false when
  // there were none that answer (the caller replies now).
  bool Replicate(const wire::Op& op, const TableState& table, storage::Partition* partition,
                 storage::TxnId txn, bool internal, uint32_t conn, ReplySink* sink);
  void SendReplica(uint32_t destination, const wire::OpHeader& header, absl::string_view section,
                   ReplySink* sink);
  // Sends kReplicaCommit or kReplicaAbort of `txn` in `touched` to its copy target, if any.
  void EndOnCopyTarget(storage::TxnId txn, const Touched& touched, bool commit, ReplySink* sink);
  void SendCopyProgress(ReplySink* sink);
  // Sends partition `p` of table `table_id` to the copy target: its rows, the versions open
  // transactions hold, and which of those are prepared.
  void CopyPartition(uint32_t table_id, uint32_t p, ReplySink* sink);
  void Commit(const wire::Op& op, uint32_t conn, ReplySink* sink);
  void Abort(storage::TxnId txn, ReplySink* sink);
  void OnAck(const wire::Op& op, ReplySink* sink);
  void Finish(uint64_t wait_id, ReplySink* sink);
  void NodeLost(int node, ReplySink* sink);
  // A transaction replicated here from the partition's former primary, when this node has
  // become its primary (a restarted node took its roles back): it is ours to end now.
  void AdoptIfPrimary(storage::TxnId txn, uint32_t partition);
  // Handing primary roles over (ldm_handover.cc).
  // Follows the primaries' moves from `old` to group_: hands over those this node lost, and
  // awaits the handover of those it gained from a node that still serves.
  void FollowPrimaries(const GroupView& old, ReplySink* sink);
  // Rolls back the open transactions that hold anything in `partition` (its new primary knows
  // nothing of their read locks), then tells data node `to` it is its primary now.
  void HandOver(uint32_t partition, int to, ReplySink* sink);
  void TakeHandover(const wire::Op& op, ReplySink* sink);
  // Parks an operation on a partition whose handover has not arrived yet: true when parked.
  bool ParkUntilHandedOver(const wire::Op& op, uint32_t conn, absl::Time deadline);
  // Stops waiting for handovers from `node`, which no longer serves.
  void ForgetHandovers(int node, ReplySink* sink);
  // Two-phase commit, participant side (ldm_prepare.cc).
  void Prepare(const wire::Op& op, uint32_t conn, ReplySink* sink);
  void NoteDecided(storage::TxnId txn, int tc, const Touched& touched);
  void AnswerTakeover(const TakeoverQuery& query, ReplySink* sink);
  void AnswerTakeovers(ReplySink* sink);
  // Backup side.
  bool RunReplica(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);
  void Ack(const wire::Op& op, uint32_t conn, ReplySink* sink, uint16_t code,
           absl::string_view message);
  void EndReplicaTxn(storage::TxnId txn, const Touched* only, bool commit, ReplySink* sink);

  PartitionPlacement placement_;
  storage::MemoryBudget* budget_;
  absl::Duration lock_wait_timeout_;
  // Lock waits are timed on this clock (liveness::RunningClock): seconds in which the LDM's
  // thread was not scheduled do not count, or a stall of the host would end every wait with
  // 1205 the moment the thread runs again, though the holders were stalled just as long.
  // LockNow(now) advances it and says where it stands, as a time of its own.
  absl::Time LockNow(absl::Time now);
  liveness::RunningClock lock_clock_;
  GroupView group_;
  absl::flat_hash_map<uint32_t, TableState> tables_;
  // Open transactions: the partitions each has touched, so commit, abort and a closed
  // connection reach all of them. Those this node runs as primary, and those replicated here.
  absl::flat_hash_map<storage::TxnId, OpenTxn> open_;
  absl::flat_hash_map<storage::TxnId, OpenTxn> replicas_;
  // Transactions rolled back behind their client's back (a backup failed to follow, their
  // partition's primary moved), with why: their commit fails.
  absl::flat_hash_map<storage::TxnId, std::string> doomed_;
  // Partitions this node is primary of, in the view, that their former primary has not handed
  // over yet: partition → that data node. Handovers that arrived before the view did.
  absl::flat_hash_map<uint32_t, int> awaiting_handover_;
  absl::flat_hash_set<std::pair<uint32_t, int>> handed_over_;
  absl::flat_hash_map<uint64_t, ReplicaWait> waits_;
  absl::flat_hash_map<storage::TxnId, Decided> decided_;
  std::deque<std::pair<absl::Time, storage::TxnId>> decided_order_;  // oldest first
  std::vector<TakeoverQuery> takeover_queries_;  // waiting until their TC is known down
  uint64_t next_wait_ = 1;
  uint64_t next_internal_txn_ = 1;
  std::optional<CopyState> copy_;
  std::deque<Parked> parked_;
  LdmStats stats_;
  schema::RowWriter row_;
  schema::RowWriter copy_row_;
  std::vector<uint16_t> columns_;
  std::vector<uint16_t> all_columns_;
  std::string section_;
  // Targets(): scratch.
  std::vector<int> acked_targets_;
  bool copy_target_ = false;
};

}  // namespace shoal::node
