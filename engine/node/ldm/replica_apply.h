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
#include "engine/node/ldm/decided_txns.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"

namespace shoal::node {

class ReplicaApply {
 public:
  ReplicaApply(LdmContext* context, const LdmTables* tables, TxnTable* txns, DecidedTxns* decided,
               LockWaits* lock_waits)
      : context_(context),
        tables_(tables),
        txns_(txns),
        decided_(decided),
        lock_waits_(lock_waits) {}

  // Applies kReplicaWrite, kReplicaDelete, kReplicaCommit, kReplicaAbort or kReplicaPrepare
  // from connection `conn`. False when a write met a lock and was parked (no answer yet).
  bool Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);
  // Answers the replication message `op` (code 0: applied), unless it asked for no answer.
  void Ack(const wire::Op& op, uint32_t conn, ReplySink* sink, uint16_t code,
           absl::string_view message);
  // Commits or rolls back the replica record of `txn`: in partition `only`, or in all.
  void EndTxn(storage::TxnId txn, const Touched* only, bool commit, ReplySink* sink);
  // The primary `node` was lost: what it replicated here uncommitted dies with it (its client
  // hears of the failure and rolls back); what it prepared is adopted.
  void SourceLost(int node, ReplySink* sink);

 private:
  LdmContext* context_;
  const LdmTables* tables_;
  TxnTable* txns_;
  DecidedTxns* decided_;
  LockWaits* lock_waits_;
  std::string section_;  // Ack(): scratch
};

}  // namespace shoal::node
