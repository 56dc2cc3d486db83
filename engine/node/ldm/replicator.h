// Replication inside a node group, the primary's side (docs/architecture.md, I7): a write the
// primary has applied goes to every other started replica of its node group, as its
// after-image, before the client hears of it; an autocommit write runs under an internal
// transaction that commits once the backups have it. A commit goes to the backups first and
// is answered once all have committed; a rollback goes to them without a wait. A node being
// copied to (PartitionCopier) gets the same messages for the partitions it has, unanswered.
//
// A wait for the backups' answers (ReplicaWait) is
//   opened     by a write, a commit or a prepare (Participant) sent under it;
//   answered   node by node (OnAck, kReplicaAck with its id as tag), the first error kept;
//   released   by the loss of a node that owed an answer (NodeLost);
//   finished   when no answer is due: the partition commits (kCommit, internal writes) or the
//              transaction is doomed (a backup's error), and the client is answered.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/decided_txns.h"
#include "engine/node/ldm/partition_copier.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/schema/row.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

// A client's write, commit or prepare waiting for the backups' answers.
struct ReplicaWait {
  enum class Kind : uint8_t { kWrite, kCommit, kPrepare };
  Kind kind = Kind::kWrite;
  int tc = 0;         // kCommit of a prepared transaction: its TC
  uint32_t conn = 0;  // the client to answer
  uint64_t tag = 0;
  storage::TxnId txn = 0;
  bool internal = false;  // an autocommit write under this node's own transaction id
  // The epoch the commit (or internal write) belongs to; decided here: this LDM's decider
  // counts it in flight until the wait finishes (else the TC that sent it does).
  uint64_t epoch = 0;
  bool decided_here = false;
  std::vector<Touched> touched;  // the partition written, or those the commit ends
  std::vector<int> pending;      // data nodes whose answer is due (one entry per answer)
  uint16_t error = 0;
  std::string message;
  uint16_t result_flags = 0;  // kWrite: the flags of the client's answer (wire::kUnchanged)
  absl::Time since = absl::Now();
};

// A client's write that succeeded, as its backups get it.
struct AppliedWrite {
  uint32_t table_id = 0;
  uint32_t partition = 0;
  uint64_t tag = 0;        // the client's
  bool is_delete = false;  // kDelete, kDeleteIf: the backups delete `key`
  absl::string_view key;   // updates and deletes: the row's key
  absl::string_view row;   // inserts and writes: the whole row (the after-image)
  bool unchanged = false;  // an update that changed no value (wire::kUnchanged)
  bool replaced = false;   // a write that replaced a row (wire::kReplaced)
};

class Replicator {
 public:
  Replicator(LdmContext* context, TxnTable* txns, DecidedTxns* decided,
             const PartitionCopier* copier)
      : context_(context), txns_(txns), decided_(decided), copier_(copier) {}

  // Whether writes to `partition` go anywhere besides this node.
  bool HasTargets(uint32_t table_id, uint32_t partition);
  // A transaction id of this node's own, for a replicated autocommit write.
  storage::TxnId NewInternalTxn();
  // Sends the after-image of `write`, which succeeded under `txn`, to the targets (an update's
  // is read back: backups never run programs); false when there were none that answer (the
  // caller replies now). An internal write commits in `epoch`, which this LDM decided: the
  // wait, when there is one, ends it.
  bool Replicate(const AppliedWrite& write, const TableState& table, storage::Partition* partition,
                 storage::TxnId txn, bool internal, uint64_t epoch, uint32_t conn, ReplySink* sink);
  // A client's (or its TC's) commit: backups first (those the TC did not commit already).
  void Commit(const wire::Commit& commit, uint32_t conn, ReplySink* sink);
  // Rolls `txn` back here and on the backups, and runs what waited for it.
  void Abort(storage::TxnId txn, ReplySink* sink);

  // Opens a wait; messages sent under it with SendUnder are answered to it.
  uint64_t OpenWait(ReplicaWait wait);
  // Sends `message` (a ReplicaWrite, ReplicaDelete, ReplicaCommit, ReplicaAbort or
  // ReplicaPrepare) about partition `touched` to its targets: tagged with the wait `wait_id`
  // for the backups, which then owe an answer; untagged for a copy target. kNoWait: nobody
  // answers. Backups in `done` (wire::AddReplicaDone: a TC did this step there already) are
  // skipped.
  static constexpr uint64_t kNoWait = 0;
  template <typename Message>
  void SendUnder(uint64_t wait_id, Message message, const Touched& touched, ReplySink* sink,
                 absl::string_view done = {});
  // Finishes the wait if no answer is due.
  void FinishIfAnswered(uint64_t wait_id, ReplySink* sink);

  void OnAck(const wire::ReplicaAck& ack, ReplySink* sink);
  // Data node `node` left the group: what it owed it will never send.
  void NodeLost(int node, ReplySink* sink);
  void ForgetTable(uint32_t table_id);
  // Logs waits older than `age` (a backup that owes an answer for that long).
  void ReportStuckWaits(absl::Time now, absl::Duration age) const;

 private:
  // The data nodes besides this one that get `partition`'s writes, into acked_targets_ and
  // copy_target_: started replicas (they answer) and a node being copied to (it does not).
  void Targets(uint32_t table_id, uint32_t partition);
  // Sends a commit or rollback of `txn` in `touched` to its copy target, if any: a copy that
  // ran meanwhile sent the transaction's versions there uncommitted.
  void EndOnCopyTarget(storage::TxnId txn, const Touched& touched, bool commit, uint64_t epoch,
                       ReplySink* sink);
  void Finish(uint64_t wait_id, ReplySink* sink);

  LdmContext* context_;
  TxnTable* txns_;
  DecidedTxns* decided_;
  const PartitionCopier* copier_;
  absl::flat_hash_map<uint64_t, ReplicaWait> waits_;
  uint64_t next_wait_ = 1;
  uint64_t next_internal_txn_ = 1;
  // Targets(): scratch.
  std::vector<int> acked_targets_;
  std::optional<uint32_t> copy_target_;
  schema::RowWriter row_;
  std::vector<uint16_t> all_columns_;
};

template <typename Message>
void Replicator::SendUnder(uint64_t wait_id, Message message, const Touched& touched,
                           ReplySink* sink, absl::string_view done) {
  Targets(touched.table_id, touched.index);
  message.from_node = static_cast<uint16_t>(context_->group.self);
  message.table_id = touched.table_id;
  message.partition = touched.index;
  if (copy_target_.has_value()) {
    message.tag = 0;
    message.Encode(sink->ReplyTo(kOpsOn | *copy_target_));
  }
  message.tag = wait_id;
  ReplicaWait* wait = wait_id == kNoWait ? nullptr : &waits_.at(wait_id);
  for (int node : acked_targets_) {
    if (!done.empty() && wire::HasReplicaDone(done, node)) continue;
    // No connection: a backup stays owed its answer until the view drops it (NodeLost).
    message.Encode(sink->ReplyTo(kToNode | static_cast<uint32_t>(node)));
    if (wait != nullptr) wait->pending.push_back(node);
  }
}

}  // namespace shoal::node
