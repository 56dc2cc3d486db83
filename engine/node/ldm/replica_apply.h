// Replication inside a node group, the backup's side (docs/architecture.md, I7): applies what
// a primary replicated here (after-images, deletes, commits, rollbacks, prepares) under the
// same transaction id, holding the written rows locked until the primary's commit or
// rollback, and answers each message the primary tagged (kReplicaAck). A node being copied to
// applies the copy's messages the same way, unanswered.
//
// Replicated transactions live in the TxnTable as replica records: added by their first write
// or prepare, ended by the primary's commit or rollback, rolled back when their primary is
// lost unless prepared (a prepared one is adopted: its TC decides, through this node).
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/copy_sweep.h"
#include "engine/node/ldm/decided_txns.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/replica_ops.h"
#include "engine/wire/txn_ops.h"

namespace shoal::node {

class ReplicaApply {
 public:
  // `sweep` hears of every row a copy since an epoch names (CopySweep).
  ReplicaApply(LdmContext* context, const LdmTables* tables, TxnTable* txns, DecidedTxns* decided,
               LockWaits* lock_waits, CopySweep* sweep)
      : context_(context),
        tables_(tables),
        txns_(txns),
        decided_(decided),
        lock_waits_(lock_waits),
        sweep_(sweep) {}

  // Applies a row (ReplicaWrite, or ReplicaDelete's key) from connection `conn`; `op` is the
  // message as it came, parked when the row is locked (false: no answer yet).
  template <typename RowMessage>
  bool Apply(const RowMessage& message, absl::string_view key_or_row, const wire::Op& op,
             uint32_t conn, ReplySink* sink, absl::Time deadline);
  void End(const wire::ReplicaCommit& commit, uint32_t conn, ReplySink* sink);
  void End(const wire::ReplicaAbort& abort, ReplySink* sink);
  void Prepare(const wire::ReplicaPrepare& prepare, uint32_t conn, ReplySink* sink);
  // The same, from the TC itself (kOnReplica, coordinator.h), answered with a result to it;
  // refused (the primary then prepares this replica) when this replica holds nothing of it.
  void PrepareForTc(const wire::Prepare& prepare, uint32_t conn, ReplySink* sink);
  void CommitForTc(const wire::Commit& commit, uint32_t conn, ReplySink* sink);
  // Answers the replication message that targeted `answered` (code 0: applied), unless it
  // asked for no answer (tag 0).
  void Ack(const wire::OpTarget& answered, uint32_t conn, ReplySink* sink, uint16_t code,
           absl::string_view message);
  // Commits or rolls back the replica record of `txn`: in partition `only`, or in all.
  void EndTxn(storage::TxnId txn, const Touched* only, bool commit, ReplySink* sink);
  // The primary `node` was lost: what it replicated here uncommitted dies with it (its client
  // hears of the failure and rolls back); what it prepared is adopted.
  void SourceLost(int node, ReplySink* sink);

 private:
  // Commits the replica record of `txn` in one partition, logged in `epoch`.
  void CommitIn(uint32_t table_id, uint32_t partition, storage::TxnId txn, uint64_t epoch,
                ReplySink* sink);

  LdmContext* context_;
  const LdmTables* tables_;
  TxnTable* txns_;
  DecidedTxns* decided_;
  LockWaits* lock_waits_;
  CopySweep* sweep_;
};

}  // namespace shoal::node
