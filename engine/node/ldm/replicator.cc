#include "engine/node/ldm/replicator.h"

#include <numeric>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/logging.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

using storage::OpCode;
using wire::OpType;

}  // namespace

void Replicator::Targets(uint32_t table_id, uint32_t partition) {
  const GroupView& group = context_->group;
  acked_targets_.clear();
  for (size_t i = 0; i < group.members.size(); ++i) {
    if (group.started[i] && group.members[i] != group.self) {
      acked_targets_.push_back(group.members[i]);
    }
  }
  copy_target_ = copier_->TargetFor(table_id, partition);
}

bool Replicator::HasTargets(uint32_t table_id, uint32_t partition) {
  Targets(table_id, partition);
  return !acked_targets_.empty() || copy_target_.has_value();
}

storage::TxnId Replicator::NewInternalTxn() {
  // Bit 63 (clients never set it), then this node and LDM: unique in the cluster.
  constexpr uint64_t kCounterMask = (uint64_t{1} << 40) - 1;
  return (uint64_t{1} << 63) | (uint64_t(context_->group.self & 0xff) << 48) |
         (uint64_t(context_->placement.ldm_index & 0xff) << 40) |
         (next_internal_txn_++ & kCounterMask);
}

uint64_t Replicator::OpenWait(ReplicaWait wait) {
  uint64_t id = next_wait_++;
  waits_.emplace(id, std::move(wait));
  return id;
}

void Replicator::FinishIfAnswered(uint64_t wait_id, ReplySink* sink) {
  if (waits_.at(wait_id).pending.empty()) Finish(wait_id, sink);
}

bool Replicator::Replicate(const AppliedWrite& write, const TableState& table,
                           storage::Partition* partition, storage::TxnId txn, bool internal,
                           uint64_t epoch, uint32_t conn, ReplySink* sink) {
  absl::string_view row = write.row;
  if (!write.is_delete && row.empty()) {
    // Backups get an update's after-image, not its program: they need not run it.
    all_columns_.resize(table.def->columns.size());
    std::iota(all_columns_.begin(), all_columns_.end(), uint16_t{0});
    row_.Clear();
    storage::OpResult read =
        partition->Read(txn, write.key, all_columns_, storage::LockMode::kNone, &row_);
    SHOAL_CHECK(read.code == OpCode::kOk) << "an updated row must read back";
    row = row_.view();
  }
  const Touched touched{partition, write.table_id, write.partition};
  Targets(write.table_id, write.partition);
  const bool answered = !acked_targets_.empty();
  uint64_t wait_id = kNoWait;
  if (answered) {
    ReplicaWait wait;
    wait.conn = conn;
    wait.tag = write.tag;
    wait.txn = txn;
    wait.internal = internal;
    wait.epoch = epoch;
    wait.decided_here = internal;
    wait.result_flags = wire::OkFlags(write.unchanged, write.replaced);
    wait.touched.push_back(touched);
    wait_id = OpenWait(std::move(wait));
    ++context_->stats.replicated;
  }
  auto send = [&](auto message) {
    message.table_version = table.def->version;
    message.txn = txn;
    message.commit_now = internal;
    if (internal) message.epoch = epoch;
    SendUnder(wait_id, message, touched, sink);
  };
  if (write.is_delete) {
    wire::ReplicaDelete message;
    message.key = write.key;
    send(message);
  } else {
    wire::ReplicaWrite message;
    message.row = row;
    send(message);
  }
  row_.Clear();
  return answered;
}

void Replicator::Commit(const wire::Commit& commit, uint32_t conn, ReplySink* sink) {
  if (context_->group.IsPrimary(commit.partition)) txns_->Adopt(commit.txn);
  if (const std::string* doomed = txns_->DoomedWhy(commit.txn); doomed != nullptr) {
    std::string why = *doomed;
    Abort(commit.txn, sink);
    ReplyError(
        context_, sink->ReplyTo(conn), commit.tag, wire::kErTemporary,
        wire::TemporaryError(wire::kNdbRolledBack, absl::StrCat(why, ": transaction rolled back")));
    return;
  }
  TxnRecord* record = txns_->Primary(commit.txn);
  // Nothing to end here: it read without locks, or committed here already (a TC's commit
  // sent again after a node failure).
  if (commit.txn == storage::kAutocommit || record == nullptr) {
    wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, commit.tag, {});
    return;
  }
  // A commit decided here that the redo cannot take (a full disk) does not happen: rolled back,
  // as NDB does with 410. A prepared transaction's commit was decided at its prepare, which
  // checked.
  if (commit.epoch == 0 && !record->prepared() && record->wrote_logged && context_->RedoRefuses()) {
    Abort(commit.txn, sink);
    ReplyError(context_, sink->ReplyTo(conn), commit.tag, wire::kErTemporary,
               context_->RedoRefusal());
    return;
  }
  ReplicaWait wait;
  wait.kind = ReplicaWait::Kind::kCommit;
  wait.tc = record->prepared() ? record->tc : 0;
  wait.conn = conn;
  wait.tag = commit.tag;
  wait.txn = commit.txn;
  wait.touched = std::move(record->touched);
  // A TC's commit belongs to the epoch it decided in, on every partition (I8); a client's
  // own is decided here.
  wait.decided_here = commit.epoch == 0;
  wait.epoch = wait.decided_here ? context_->BeginCommit() : commit.epoch;
  txns_->ErasePrimary(commit.txn);
  const uint64_t id = OpenWait(std::move(wait));
  // Backups commit first: once the client hears of the commit, every replica has it.
  wire::ReplicaCommit message;
  message.txn = commit.txn;
  message.epoch = waits_.at(id).epoch;
  const ReplicaWait& opened = waits_.at(id);  // SendUnder adds to its pending only
  for (const Touched& t : opened.touched) {
    if (t.partition != nullptr) SendUnder(id, message, t, sink, commit.replicas_done);
  }
  if (!opened.pending.empty()) ++context_->stats.replicated;
  FinishIfAnswered(id, sink);
}

void Replicator::Abort(storage::TxnId txn, ReplySink* sink) {
  txns_->Forgive(txn);
  if (TxnRecord* record = txns_->Primary(txn); record != nullptr) {
    wire::ReplicaAbort message;
    message.txn = txn;
    for (const Touched& t : record->touched) {
      if (t.partition == nullptr) continue;
      t.partition->Abort(txn);
      SendUnder(kNoWait, message, t, sink);
    }
    txns_->ErasePrimary(txn);
  }
  context_->unparker->Unpark(txn, sink);
}

void Replicator::EndOnCopyTarget(storage::TxnId txn, const Touched& touched, bool commit,
                                 uint64_t epoch, ReplySink* sink) {
  std::optional<uint32_t> target = copier_->TargetFor(touched.table_id, touched.index);
  if (!target.has_value()) return;
  auto send = [&](auto message) {
    message.from_node = static_cast<uint16_t>(context_->group.self);
    message.table_id = touched.table_id;
    message.partition = touched.index;
    message.txn = txn;
    message.Encode(sink->ReplyTo(kOpsOn | *target));
  };
  if (commit) {
    wire::ReplicaCommit message;
    message.epoch = epoch;
    send(message);
  } else {
    send(wire::ReplicaAbort{});
  }
}

void Replicator::OnAck(const wire::ReplicaAck& ack, ReplySink* sink) {
  auto it = waits_.find(ack.tag);
  if (it == waits_.end()) return;  // its node was dropped from the wait meanwhile
  ReplicaWait& wait = it->second;
  auto from = absl::c_find(wait.pending, static_cast<int>(ack.from_node));
  if (from == wait.pending.end()) return;
  wait.pending.erase(from);
  if (ack.error != 0 && wait.error == 0) {
    wait.error = ack.error;
    wait.message = std::string(ack.message);
  }
  if (wait.pending.empty()) Finish(it->first, sink);
}

void Replicator::Finish(uint64_t wait_id, ReplySink* sink) {
  auto it = waits_.find(wait_id);
  ReplicaWait wait = std::move(it->second);
  waits_.erase(it);
  // This LDM's part of the epoch ends with the wait, whatever its outcome.
  struct EndsEpoch {
    LdmContext* context;
    const ReplicaWait& wait;
    ~EndsEpoch() {
      if (wait.decided_here) context->EndCommit(wait.epoch);
    }
  } ends_epoch{context_, wait};
  RedoTap::EpochScope logged_in(&context_->redo, wait.epoch);
  if (wait.kind == ReplicaWait::Kind::kCommit) {
    for (const Touched& t : wait.touched) {
      if (t.partition != nullptr) t.partition->Commit(wait.txn);
      if (wait.tc != 0) decided_->Note(wait.txn, wait.tc, t);
      // A copy that ran while the backups committed sent this transaction's versions
      // uncommitted: its commit must follow them there.
      EndOnCopyTarget(wait.txn, t, /*commit=*/true, wait.epoch, sink);
    }
    wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, 0, wait.tag, {});
    context_->unparker->Unpark(wait.txn, sink);
    return;
  }
  if (wait.kind == ReplicaWait::Kind::kPrepare) {
    if (wait.error != 0) {
      ReplyError(context_, sink->ReplyTo(wait.conn), wait.tag, wait.error, wait.message);
    } else {
      wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, 0, wait.tag, {});
    }
    return;
  }
  const Touched& t = wait.touched.front();
  if (wait.error != 0) {
    // A temporary error (a backup whose redo cannot be written) is the client's to retry, and
    // comes with every write while it lasts: not worth a line each.
    if (wait.error != wire::kErTemporary) {
      SHOAL_LOG(kWarning) << "a backup could not apply a write to partition " << t.index
                          << " of table " << t.table_id << ": " << wait.error << " "
                          << wait.message;
    }
    if (wait.internal) {
      if (t.partition != nullptr) t.partition->Abort(wait.txn);
      EndOnCopyTarget(wait.txn, t, /*commit=*/false, 0, sink);
    } else {
      txns_->Doom(wait.txn, "a replica could not apply the transaction's writes");
    }
    // The backup's own error (a full table, a lock wait): the write did not happen.
    ReplyError(context_, sink->ReplyTo(wait.conn), wait.tag, wait.error, wait.message);
  } else {
    if (wait.internal) {
      if (t.partition != nullptr) t.partition->Commit(wait.txn);
      // The copy may have sent this write's version uncommitted meanwhile.
      EndOnCopyTarget(wait.txn, t, /*commit=*/true, wait.epoch, sink);
    }
    wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, wait.result_flags, wait.tag, {});
  }
  if (wait.internal) context_->unparker->Unpark(wait.txn, sink);
}

void Replicator::NodeLost(int node, ReplySink* sink) {
  std::vector<uint64_t> finished;
  for (auto& [id, wait] : waits_) {
    if (std::erase(wait.pending, node) > 0 && wait.pending.empty()) finished.push_back(id);
  }
  for (uint64_t id : finished) Finish(id, sink);
}

void Replicator::ForgetTable(uint32_t table_id) {
  for (auto& [id, wait] : waits_) {
    for (Touched& t : wait.touched) {
      if (t.table_id == table_id) t.partition = nullptr;
    }
  }
}

void Replicator::ReportStuckWaits(absl::Time now, absl::Duration age) const {
  for (const auto& [id, wait] : waits_) {
    if (now - wait.since < age) continue;
    SHOAL_LOG(kWarning) << "LDM " << context_->placement.ldm_index << ": "
                        << (wait.kind == ReplicaWait::Kind::kWrite    ? "write"
                            : wait.kind == ReplicaWait::Kind::kCommit ? "commit"
                                                                      : "prepare")
                        << " of transaction " << wait.txn << " waits "
                        << absl::FormatDuration(now - wait.since) << " for data node(s) "
                        << absl::StrJoin(wait.pending, ",");
  }
}

}  // namespace shoal::node
