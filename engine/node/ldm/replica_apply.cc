#include "engine/node/ldm/replica_apply.h"

#include "absl/strings/str_cat.h"
#include "engine/wire/errors.h"

namespace shoal::node {

using storage::OpCode;
using wire::OpType;

bool ReplicaApply::Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  if (h.type == OpType::kReplicaCommit || h.type == OpType::kReplicaAbort) {
    ++context_->stats.replica_applied;
    Touched touched{tables_->Find(h.table_id, h.partition), h.table_id, h.partition};
    bool commit = h.type == OpType::kReplicaCommit;
    EndTxn(h.txn, &touched, commit, sink);
    if (commit) Ack(op, conn, sink, 0, {});
    return true;
  }
  if (h.type == OpType::kReplicaPrepare) {
    ++context_->stats.replica_applied;
    TxnRecord& record = txns_->AddReplica(h.txn);
    record.conn = conn;
    record.source = h.index;
    record.Prepare(
        op.sections[0].size() == 4 ? static_cast<int>(wire::GetU32(op.sections[0].data())) : 0);
    // The partition, even if nothing was written here: should this node become its primary,
    // the transaction's outcome must reach the former primary through it.
    record.Add(Touched{tables_->Find(h.table_id, h.partition), h.table_id, h.partition});
    // Its former primary role here (primaries moved since it wrote) is prepared too.
    if (TxnRecord* own = txns_->Primary(h.txn); own != nullptr) own->Prepare(record.tc);
    Ack(op, conn, sink, 0, {});
    return true;
  }
  storage::Partition* partition = tables_->Find(h.table_id, h.partition);
  if (partition == nullptr) {
    Ack(op, conn, sink, wire::kErInternal,
        absl::StrCat("Internal error: partition ", h.partition, " of table ", h.table_id,
                     " is not on data node ", context_->group.self));
    return true;
  }
  storage::TxnId txn = (h.flags & wire::kReplicaCommitNow) ? storage::kAutocommit : h.txn;
  storage::OpResult result = h.type == OpType::kReplicaWrite
                                 ? partition->Write(txn, op.sections[0])
                                 : partition->Delete(txn, op.sections[0]);
  if (result.code == OpCode::kLocked) {
    // Only while two nodes both act as primary for a moment (their views differ).
    ++context_->stats.lock_waits;
    lock_waits_->Park(op, conn, result.holder, lock_waits_->DeadlineFor(deadline));
    return false;
  }
  ++context_->stats.replica_applied;
  if (result.code == OpCode::kOk || result.code == OpCode::kNotFound) {
    if (txn != storage::kAutocommit) {
      TxnRecord& record = txns_->AddReplica(txn);
      record.conn = conn;
      record.source = h.index;
      record.Add(Touched{partition, h.table_id, h.partition});
    }
    Ack(op, conn, sink, 0, {});
  } else if (result.code == OpCode::kTableFull) {
    Ack(op, conn, sink, wire::kErRecordFileFull,
        absl::StrCat("The table '", tables_->Table(h.table_id)->def->name, "' is full"));
  } else {
    Ack(op, conn, sink, wire::kErInternal, absl::StrCat("Internal error: ", result.message));
  }
  return true;
}

void ReplicaApply::Ack(const wire::Op& op, uint32_t conn, ReplySink* sink, uint16_t code,
                       absl::string_view message) {
  const wire::OpHeader& h = op.header;
  if (h.tag == 0) return;  // the sender wants no answer (a copy)
  wire::OpHeader ack;
  ack.type = OpType::kReplicaAck;
  ack.index = static_cast<uint16_t>(context_->group.self);
  ack.table_id = h.table_id;
  ack.table_version = h.table_version;
  ack.partition = h.partition;
  ack.txn = h.txn;
  ack.tag = h.tag;
  section_.clear();
  if (code != 0) {
    wire::PutU16(&section_, code);
    section_.append(message.data(), message.size());
  }
  SendOp(sink, kOpsOn | conn, ack, section_);
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
