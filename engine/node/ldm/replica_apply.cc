#include "engine/node/ldm/replica_apply.h"

#include <type_traits>

#include "absl/strings/str_cat.h"
#include "engine/wire/errors.h"

namespace shoal::node {

using storage::OpCode;

void ReplicaApply::CommitIn(uint32_t table_id, uint32_t partition, storage::TxnId txn,
                            uint64_t epoch, ReplySink* sink) {
  ++context_->stats.replica_applied;
  Touched touched{tables_->Find(table_id, partition), table_id, partition};
  context_->ObserveEpoch(epoch);
  RedoTap::EpochScope logged_in(&context_->redo, epoch);
  EndTxn(txn, &touched, /*commit=*/true, sink);
}

void ReplicaApply::End(const wire::ReplicaCommit& commit, uint32_t conn, ReplySink* sink) {
  CommitIn(commit.table_id, commit.partition, commit.txn, commit.epoch, sink);
  Ack(commit, conn, sink, 0, {});
}

void ReplicaApply::End(const wire::ReplicaAbort& abort, ReplySink* sink) {
  ++context_->stats.replica_applied;
  Touched touched{tables_->Find(abort.table_id, abort.partition), abort.table_id, abort.partition};
  EndTxn(abort.txn, &touched, /*commit=*/false, sink);
}

void ReplicaApply::Prepare(const wire::ReplicaPrepare& prepare, uint32_t conn, ReplySink* sink) {
  ++context_->stats.replica_applied;
  TxnRecord& record = txns_->AddReplica(prepare.txn);
  record.conn = conn;
  record.source = prepare.from_node;
  record.Prepare(static_cast<int>(prepare.tc));
  // The partition, even if nothing was written here: should this node become its primary,
  // the transaction's outcome must reach the former primary through it.
  record.Add(Touched{tables_->Find(prepare.table_id, prepare.partition), prepare.table_id,
                     prepare.partition});
  // Its former primary role here (primaries moved since it wrote) is prepared too.
  if (TxnRecord* own = txns_->Primary(prepare.txn); own != nullptr) own->Prepare(record.tc);
  Ack(prepare, conn, sink, 0, {});
}

void ReplicaApply::PrepareForTc(const wire::Prepare& prepare, uint32_t conn, ReplySink* sink) {
  ++context_->stats.replica_applied;
  TxnRecord* record = txns_->Replica(prepare.txn);
  if (record == nullptr || !record->HoldsPartition(prepare.table_id, prepare.partition)) {
    // Nothing of it here: its primary only locked rows, or rolled it back (and that
    // rollback reached us first, on another link). A record made now would outlive them
    // both; the primary prepares this replica itself, in order with what it sent.
    ReplyError(context_, sink->ReplyTo(conn), prepare.tag, wire::kErTemporary,
               wire::TemporaryError(wire::kNdbNotHeld,
                                    "nothing of the transaction on this "
                                    "replica: its primary prepares it"));
    return;
  }
  record->Prepare(static_cast<int>(prepare.tc));
  if (TxnRecord* own = txns_->Primary(prepare.txn); own != nullptr) own->Prepare(record->tc);
  wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, prepare.tag, {});
}

void ReplicaApply::CommitForTc(const wire::Commit& commit, uint32_t conn, ReplySink* sink) {
  CommitIn(commit.table_id, commit.partition, commit.txn, commit.epoch, sink);
  wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, commit.tag, {});
}

template <typename RowMessage>
bool ReplicaApply::Apply(const RowMessage& message, absl::string_view key_or_row,
                         const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  storage::Partition* partition = tables_->Find(message.table_id, message.partition);
  if (partition == nullptr) {
    Ack(message, conn, sink, wire::kErInternal,
        absl::StrCat("Internal error: partition ", message.partition, " of table ",
                     message.table_id, " is not on data node ", context_->group.self));
    return true;
  }
  const TableState* table = tables_->Table(message.table_id);
  const bool logged = table != nullptr && table->logged;
  // A backup whose redo cannot be written refuses too (as NDB's LQH does on every replica of
  // the chain): its primary's disk may be fine. A copy (tag 0) is not refused: it answers
  // nobody, and a node being copied to is not serving yet.
  if (logged && message.tag != 0 && context_->RedoRefuses()) {
    Ack(message, conn, sink, wire::kErTemporary, context_->RedoRefusal());
    return true;
  }
  storage::TxnId txn = message.commit_now ? storage::kAutocommit : message.txn;
  // Committed as applied: logged in the epoch the primary decided it in.
  context_->ObserveEpoch(message.epoch);
  RedoTap::EpochScope logged_in(&context_->redo, message.epoch);
  storage::OpResult result = std::is_same_v<RowMessage, wire::ReplicaWrite>
                                 ? partition->Write(txn, key_or_row)
                                 : partition->Delete(txn, key_or_row);
  if (result.code == OpCode::kLocked) {
    // Only while two nodes both act as primary for a moment (their views differ).
    ++context_->stats.lock_waits;
    lock_waits_->Park(op, conn, result.holder, lock_waits_->DeadlineFor(deadline));
    return false;
  }
  ++context_->stats.replica_applied;
  if (sweep_->open(message.table_id, message.partition)) {
    if constexpr (std::is_same_v<RowMessage, wire::ReplicaWrite>) {
      sweep_->NamedRow(*tables_->Table(message.table_id)->def, key_or_row);
    } else {
      sweep_->Named(key_or_row);
    }
  }
  if (result.code == OpCode::kOk || result.code == OpCode::kNotFound) {
    if (txn != storage::kAutocommit) {
      TxnRecord& record = txns_->AddReplica(txn);
      record.conn = conn;
      record.source = message.from_node;
      record.Add(Touched{partition, message.table_id, message.partition});
      record.wrote_logged |= logged;
    }
    Ack(message, conn, sink, 0, {});
  } else if (result.code == OpCode::kTableFull) {
    Ack(message, conn, sink, wire::kErRecordFileFull,
        absl::StrCat("The table '", table->def->name, "' is full"));
  } else {
    Ack(message, conn, sink, wire::kErInternal, absl::StrCat("Internal error: ", result.message));
  }
  return true;
}

template bool ReplicaApply::Apply(const wire::ReplicaWrite&, absl::string_view, const wire::Op&,
                                  uint32_t, ReplySink*, absl::Time);
template bool ReplicaApply::Apply(const wire::ReplicaDelete&, absl::string_view, const wire::Op&,
                                  uint32_t, ReplySink*, absl::Time);

void ReplicaApply::Ack(const wire::OpTarget& answered, uint32_t conn, ReplySink* sink,
                       uint16_t code, absl::string_view message) {
  if (answered.tag == 0) return;  // the sender wants no answer (a copy)
  wire::ReplicaAck ack;
  static_cast<wire::OpTarget&>(ack) = answered;
  ack.from_node = static_cast<uint16_t>(context_->group.self);
  ack.error = code;
  if (code != 0) ack.message = message;
  ack.Encode(sink->ReplyTo(kOpsOn | conn));
}

void ReplicaApply::EndTxn(storage::TxnId txn, const Touched* only, bool commit, ReplySink* sink) {
  auto end = [&](const Touched& t) {
    if (t.partition == nullptr) return;
    if (commit) {
      t.partition->Commit(txn);
    } else {
      t.partition->Abort(txn);
    }
  };
  TxnRecord* record = txns_->Replica(txn);
  if (commit && record != nullptr && record->prepared()) {
    if (only != nullptr) {
      decided_->Note(txn, record->tc, *only);
    } else {
      for (const Touched& t : record->touched) decided_->Note(txn, record->tc, t);
    }
  }
  if (only != nullptr) {
    end(*only);
    if (record != nullptr) {
      std::erase(record->touched, *only);
      if (record->touched.empty()) txns_->EraseReplica(txn);
    } else if (TxnRecord* own = txns_->Primary(txn); own != nullptr && own->Holds(*only)) {
      // Prepared here while this node was the partition's primary; the primary it handed
      // over to has ended it.
      if (commit && own->prepared()) decided_->Note(txn, own->tc, *only);
      std::erase(own->touched, *only);
      if (own->touched.empty()) txns_->ErasePrimary(txn);
    }
  } else if (record != nullptr) {
    for (const Touched& t : record->touched) end(t);
    txns_->EraseReplica(txn);
  }
  context_->unparker->Unpark(txn, sink);
}

void ReplicaApply::SourceLost(int node, ReplySink* sink) {
  std::vector<storage::TxnId> orphans;
  for (const auto& [txn, record] : txns_->replicas()) {
    if (record.source == node) orphans.push_back(txn);
  }
  for (storage::TxnId txn : orphans) {
    const TxnRecord* record = txns_->Replica(txn);
    if (record == nullptr) continue;  // ended by what an earlier one's end ran
    if (record->prepared()) {
      // Its outcome is its TC's (or the node that takes over from it), which will send it
      // here, the new primary.
      txns_->Adopt(txn);
    } else {
      EndTxn(txn, nullptr, /*commit=*/false, sink);
    }
  }
}

}  // namespace shoal::node
