// Replication inside a node group (ARCHITECTURE.md I7): the primary's side (after-images of
// writes and commits to the backups, answering the client once they have them), the backup's
// (applying them under the same transaction), node failure, and copying partitions to a node
// that restarts.
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/logging.h"
#include "engine/node/ldm.h"
#include "engine/wire/errors.h"
#include "engine/wire/placement.h"

namespace shoal::node {
namespace {

using storage::OpCode;
using storage::OpResult;
using wire::OpType;

}  // namespace

int GroupView::PrimaryOf(uint32_t partition) const {
  if (members.empty()) return self;
  int replica = wire::PrimaryReplica(partition, node_groups, static_cast<int>(members.size()),
                                     [this](int i) { return started[i]; });
  return replica < 0 ? -1 : members[replica];
}

bool GroupView::IsStarted(int node) const {
  for (size_t i = 0; i < members.size(); ++i) {
    if (members[i] == node) return started[i];
  }
  return false;
}

void Ldm::SetGroup(const GroupView& group, ReplySink* sink) {
  GroupView old = std::move(group_);
  group_ = group;
  for (size_t i = 0; i < old.members.size(); ++i) {
    if (old.started[i] && !group_.IsStarted(old.members[i])) NodeLost(old.members[i], sink);
  }
  FollowPrimaries(old, sink);
  // A node we copied to serves now: it gets writes as a started backup from here on.
  if (copy_.has_value() && copy_->complete && group_.IsStarted(copy_->node)) copy_.reset();
  AnswerTakeovers(sink);
}

void Ldm::Targets(uint32_t table_id, uint32_t partition) {
  acked_targets_.clear();
  for (size_t i = 0; i < group_.members.size(); ++i) {
    if (group_.started[i] && group_.members[i] != group_.self) {
      acked_targets_.push_back(group_.members[i]);
    }
  }
  copy_target_ = copy_.has_value() && !group_.IsStarted(copy_->node) &&
                 (copy_->complete || copy_->done.contains({table_id, partition}));
}

storage::TxnId Ldm::NewInternalTxn() {
  // Bit 63 (clients never set it), then this node and LDM: unique in the cluster.
  constexpr uint64_t kCounterMask = (uint64_t{1} << 40) - 1;
  return (uint64_t{1} << 63) | (uint64_t(group_.self & 0xff) << 48) |
         (uint64_t(placement_.ldm_index & 0xff) << 40) | (next_internal_txn_++ & kCounterMask);
}

void Ldm::SendReplica(uint32_t destination, const wire::OpHeader& header, absl::string_view section,
                      ReplySink* sink) {
  wire::FrameBuilder* out = sink->ReplyTo(destination);
  // No connection: a backup stays owed its answer until the view drops it (NodeLost).
  if (out == nullptr) return;
  if (wire::SectionCount(header.type) == 0) {
    wire::AppendOp(out, header, {});
  } else {
    wire::AppendOp(out, header, {section});
  }
}

bool Ldm::Replicate(const wire::Op& op, const TableState& table, storage::Partition* partition,
                    storage::TxnId txn, bool internal, uint32_t conn, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  const bool is_delete = h.type == OpType::kDelete || h.type == OpType::kDeleteIf;
  absl::string_view section = op.sections[0];  // the key, or the whole row
  if (h.type == OpType::kUpdate || h.type == OpType::kUpdateIf) {
    // Backups get the after-image, not the program: they need not run it.
    all_columns_.resize(table.def->columns.size());
    std::iota(all_columns_.begin(), all_columns_.end(), uint16_t{0});
    row_.Clear();
    OpResult read =
        partition->Read(txn, op.sections[0], all_columns_, storage::LockMode::kNone, &row_);
    SHOAL_CHECK(read.code == OpCode::kOk) << "an updated row must read back";
    section = row_.view();
  }
  wire::OpHeader rh;
  rh.type = is_delete ? OpType::kReplicaDelete : OpType::kReplicaWrite;
  rh.flags = internal ? wire::kReplicaCommitNow : 0;
  rh.index = static_cast<uint16_t>(group_.self);
  rh.table_id = h.table_id;
  rh.table_version = table.def->version;
  rh.partition = h.partition;
  rh.txn = txn;
  if (copy_target_) SendReplica(kOpsOn | copy_->conn, rh, section, sink);
  if (acked_targets_.empty()) {
    row_.Clear();
    return false;
  }
  uint64_t id = next_wait_++;
  ReplicaWait& wait = waits_[id];
  wait.conn = conn;
  wait.tag = h.tag;
  wait.txn = txn;
  wait.internal = internal;
  wait.touched.push_back(Touched{partition, h.table_id, h.partition});
  rh.tag = id;
  for (int node : acked_targets_) {
    SendReplica(kToNode | static_cast<uint32_t>(node), rh, section, sink);
    wait.pending.push_back(node);
  }
  ++stats_.replicated;
  row_.Clear();
  return true;
}

void Ldm::Commit(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  AdoptIfPrimary(h.txn, h.partition);
  if (auto doomed = doomed_.find(h.txn); doomed != doomed_.end()) {
    std::string why = std::move(doomed->second);
    Abort(h.txn, sink);
    Error(
        sink->ReplyTo(conn), h.tag, wire::kErTemporary,
        wire::TemporaryError(wire::kNdbRolledBack, absl::StrCat(why, ": transaction rolled back")));
    return;
  }
  auto it = open_.find(h.txn);
  // Nothing to end here: it read without locks, or committed here already (a TC's commit
  // sent again after a node failure).
  if (h.txn == storage::kAutocommit || it == open_.end()) {
    wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, h.tag, {});
    return;
  }
  uint64_t id = next_wait_++;
  ReplicaWait wait;
  wait.kind = ReplicaWait::Kind::kCommit;
  wait.tc = it->second.prepared ? it->second.tc : 0;
  wait.conn = conn;
  wait.tag = h.tag;
  wait.txn = h.txn;
  wait.touched = std::move(it->second.touched);
  open_.erase(it);
  // Backups commit first: once the client hears of the commit, every replica has it.
  wire::OpHeader rh;
  rh.type = OpType::kReplicaCommit;
  rh.index = static_cast<uint16_t>(group_.self);
  rh.txn = h.txn;
  for (const Touched& t : wait.touched) {
    if (t.partition == nullptr) continue;
    Targets(t.table_id, t.index);
    rh.table_id = t.table_id;
    rh.partition = t.index;
    if (copy_target_) {
      rh.tag = 0;
      SendReplica(kOpsOn | copy_->conn, rh, {}, sink);
    }
    rh.tag = id;
    for (int node : acked_targets_) {
      SendReplica(kToNode | static_cast<uint32_t>(node), rh, {}, sink);
      wait.pending.push_back(node);
    }
  }
  if (!wait.pending.empty()) ++stats_.replicated;
  waits_.emplace(id, std::move(wait));
  if (waits_[id].pending.empty()) Finish(id, sink);
}

void Ldm::Abort(storage::TxnId txn, ReplySink* sink) {
  doomed_.erase(txn);
  auto it = open_.find(txn);
  if (it != open_.end()) {
    wire::OpHeader rh;
    rh.type = OpType::kReplicaAbort;
    rh.index = static_cast<uint16_t>(group_.self);
    rh.txn = txn;
    for (const Touched& t : it->second.touched) {
      if (t.partition == nullptr) continue;
      t.partition->Abort(txn);
      Targets(t.table_id, t.index);
      rh.table_id = t.table_id;
      rh.partition = t.index;
      for (int node : acked_targets_) {
        SendReplica(kToNode | static_cast<uint32_t>(node), rh, {}, sink);
      }
      if (copy_target_) SendReplica(kOpsOn | copy_->conn, rh, {}, sink);
    }
    open_.erase(it);
  }
  Unpark(txn, sink);
}

void Ldm::EndOnCopyTarget(storage::TxnId txn, const Touched& touched, bool commit,
                          ReplySink* sink) {
  Targets(touched.table_id, touched.index);
  if (!copy_target_) return;
  wire::OpHeader rh;
  rh.type = commit ? OpType::kReplicaCommit : OpType::kReplicaAbort;
  rh.index = static_cast<uint16_t>(group_.self);
  rh.table_id = touched.table_id;
  rh.partition = touched.index;
  rh.txn = txn;
  SendReplica(kOpsOn | copy_->conn, rh, {}, sink);
}

void Ldm::OnAck(const wire::Op& op, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  auto it = waits_.find(h.tag);
  if (it == waits_.end()) return;  // its node was dropped from the wait meanwhile
  ReplicaWait& wait = it->second;
  auto from = absl::c_find(wait.pending, static_cast<int>(h.index));
  if (from == wait.pending.end()) return;
  wait.pending.erase(from);
  absl::string_view status = op.sections[0];
  if (status.size() >= 2 && wait.error == 0) {
    wait.error = wire::GetU16(status.data());
    wait.message = std::string(status.substr(2));
  }
  if (wait.pending.empty()) Finish(it->first, sink);
}

void Ldm::Finish(uint64_t wait_id, ReplySink* sink) {
  auto it = waits_.find(wait_id);
  ReplicaWait wait = std::move(it->second);
  waits_.erase(it);
  if (wait.kind == ReplicaWait::Kind::kCommit) {
    for (const Touched& t : wait.touched) {
      if (t.partition != nullptr) t.partition->Commit(wait.txn);
      if (wait.tc != 0) NoteDecided(wait.txn, wait.tc, t);
      // A copy that ran while the backups committed sent this transaction's versions
      // uncommitted: its commit must follow them there.
      EndOnCopyTarget(wait.txn, t, /*commit=*/true, sink);
    }
    wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, 0, wait.tag, {});
    Unpark(wait.txn, sink);
    return;
  }
  if (wait.kind == ReplicaWait::Kind::kPrepare) {
    if (wait.error != 0) {
      Error(sink->ReplyTo(wait.conn), wait.tag, wait.error, wait.message);
    } else {
      wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, 0, wait.tag, {});
    }
    return;
  }
  const Touched& t = wait.touched.front();
  if (wait.error != 0) {
    SHOAL_LOG(kWarning) << "a backup could not apply a write to partition " << t.index
                        << " of table " << t.table_id << ": " << wait.error << " " << wait.message;
    if (wait.internal) {
      if (t.partition != nullptr) t.partition->Abort(wait.txn);
      EndOnCopyTarget(wait.txn, t, /*commit=*/false, sink);
    } else {
      doomed_[wait.txn] = "a replica could not apply the transaction's writes";
    }
    // The backup's own error (a full table, a lock wait): the write did not happen.
    Error(sink->ReplyTo(wait.conn), wait.tag, wait.error, wait.message);
  } else {
    if (wait.internal) {
      if (t.partition != nullptr) t.partition->Commit(wait.txn);
      // The copy may have sent this write's version uncommitted meanwhile.
      EndOnCopyTarget(wait.txn, t, /*commit=*/true, sink);
    }
    wire::AppendResult(sink->ReplyTo(wait.conn), wire::kResultOk, 0, wait.tag, {});
  }
  if (wait.internal) Unpark(wait.txn, sink);
}

void Ldm::ReportStuckWaits(absl::Time now, absl::Duration age) const {
  for (const auto& [id, wait] : waits_) {
    if (now - wait.since < age) continue;
    SHOAL_LOG(kWarning) << "LDM " << placement_.ldm_index << ": "
                        << (wait.kind == ReplicaWait::Kind::kWrite    ? "write"
                            : wait.kind == ReplicaWait::Kind::kCommit ? "commit"
                                                                      : "prepare")
                        << " of transaction " << wait.txn << " waits "
                        << absl::FormatDuration(now - wait.since) << " for data node(s) "
                        << absl::StrJoin(wait.pending, ",");
  }
}

void Ldm::NodeLost(int node, ReplySink* sink) {
  // What that node still owed us it will never send; what it replicated here and had not
  // committed dies with it (its client hears of the failure and rolls back).
  std::vector<uint64_t> finished;
  for (auto& [id, wait] : waits_) {
    if (std::erase(wait.pending, node) > 0 && wait.pending.empty()) finished.push_back(id);
  }
  for (uint64_t id : finished) Finish(id, sink);
  std::vector<storage::TxnId> orphans;
  for (const auto& [txn, open] : replicas_) {
    if (open.source == node) orphans.push_back(txn);
  }
  for (storage::TxnId txn : orphans) {
    OpenTxn& open = replicas_[txn];
    if (!open.prepared) {
      EndReplicaTxn(txn, nullptr, /*commit=*/false, sink);
      continue;
    }
    // Prepared: its outcome is its TC's (or the node that takes over from it), which will
    // send it here, the new primary.
    OpenTxn& adopted = open_[txn];
    adopted.prepared = true;
    adopted.tc = open.tc;
    for (const Touched& t : open.touched) {
      if (!absl::c_linear_search(adopted.touched, t)) adopted.touched.push_back(t);
    }
    replicas_.erase(txn);
  }
  if (copy_.has_value() && copy_->node == node) copy_.reset();
  ForgetHandovers(node, sink);
}

bool Ldm::RunReplica(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  switch (h.type) {
    case OpType::kReplicaAck:
      OnAck(op, sink);
      return true;
    case OpType::kReplicaCommit:
    case OpType::kReplicaAbort: {
      ++stats_.replica_applied;
      Touched touched{Find(h.table_id, h.partition), h.table_id, h.partition};
      bool commit = h.type == OpType::kReplicaCommit;
      EndReplicaTxn(h.txn, &touched, commit, sink);
      if (commit) Ack(op, conn, sink, 0, {});
      return true;
    }
    case OpType::kPrepare:
      Prepare(op, conn, sink);
      return true;
    case OpType::kReplicaPrepare: {
      ++stats_.replica_applied;
      OpenTxn& open = replicas_[h.txn];
      open.conn = conn;
      open.source = h.index;
      open.prepared = true;
      // The partition, even if nothing was written here: should this node become its primary,
      // the transaction's outcome must reach the former primary through it.
      Touched touched{Find(h.table_id, h.partition), h.table_id, h.partition};
      if (!absl::c_linear_search(open.touched, touched)) open.touched.push_back(touched);
      open.tc =
          op.sections[0].size() == 4 ? static_cast<int>(wire::GetU32(op.sections[0].data())) : 0;
      // Its former primary role here (primaries moved since it wrote) is prepared too.
      if (auto own = open_.find(h.txn); own != open_.end()) {
        own->second.prepared = true;
        own->second.tc = open.tc;
      }
      Ack(op, conn, sink, 0, {});
      return true;
    }
    case OpType::kTakeoverReq: {
      TakeoverQuery query{conn, h.tag, h.index, h.table_id, h.partition};
      if (absl::c_linear_search(group_.down, query.tc)) {
        AnswerTakeover(query, sink);
      } else {
        // Until we know its TC is down, a commit from it may still be on its way here.
        takeover_queries_.push_back(query);
      }
      return true;
    }
    case OpType::kHandover:
      TakeHandover(op, sink);
      return true;
    case OpType::kReplicaWrite:
    case OpType::kReplicaDelete:
      break;
    default:
      return true;  // kCopyReq, kCopyDone, kCommitTxn: the data plane's
  }
  storage::Partition* partition = Find(h.table_id, h.partition);
  if (partition == nullptr) {
    Ack(op, conn, sink, wire::kErInternal,
        absl::StrCat("Internal error: partition ", h.partition, " of table ", h.table_id,
                     " is not on data node ", group_.self));
    return true;
  }
  storage::TxnId txn = (h.flags & wire::kReplicaCommitNow) ? storage::kAutocommit : h.txn;
  OpResult result = h.type == OpType::kReplicaWrite ? partition->Write(txn, op.sections[0])
                                                    : partition->Delete(txn, op.sections[0]);
  if (result.code == OpCode::kLocked) {
    // Only while two nodes both act as primary for a moment (their views differ).
    if (deadline == absl::InfiniteFuture()) deadline = LockNow(absl::Now()) + lock_wait_timeout_;
    Park(op, conn, result.holder, deadline);
    return false;
  }
  ++stats_.replica_applied;
  if (result.code == OpCode::kOk || result.code == OpCode::kNotFound) {
    if (txn != storage::kAutocommit) {
      OpenTxn& open = replicas_[txn];
      open.conn = conn;
      open.source = h.index;
      Touched touched{partition, h.table_id, h.partition};
      if (!absl::c_linear_search(open.touched, touched)) open.touched.push_back(touched);
    }
    Ack(op, conn, sink, 0, {});
  } else if (result.code == OpCode::kTableFull) {
    Ack(op, conn, sink, wire::kErRecordFileFull,
        absl::StrCat("The table '", tables_.at(h.table_id).def->name, "' is full"));
  } else {
    Ack(op, conn, sink, wire::kErInternal, absl::StrCat("Internal error: ", result.message));
  }
  return true;
}

void Ldm::Ack(const wire::Op& op, uint32_t conn, ReplySink* sink, uint16_t code,
              absl::string_view message) {
  const wire::OpHeader& h = op.header;
  if (h.tag == 0) return;  // the sender wants no answer (a copy)
  wire::OpHeader ack;
  ack.type = OpType::kReplicaAck;
  ack.index = static_cast<uint16_t>(group_.self);
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
  SendReplica(kOpsOn | conn, ack, section_, sink);
}

void Ldm::EndReplicaTxn(storage::TxnId txn, const Touched* only, bool commit, ReplySink* sink) {
  auto end = [&](const Touched& t) {
    if (t.partition == nullptr) return;
    if (commit) {
      t.partition->Commit(txn);
    } else {
      t.partition->Abort(txn);
    }
  };
  auto it = replicas_.find(txn);
  if (commit && it != replicas_.end() && it->second.prepared) {
    if (only != nullptr) {
      NoteDecided(txn, it->second.tc, *only);
    } else {
      for (const Touched& t : it->second.touched) NoteDecided(txn, it->second.tc, t);
    }
  }
  if (only != nullptr) {
    end(*only);
    if (it != replicas_.end()) {
      std::erase(it->second.touched, *only);
      if (it->second.touched.empty()) replicas_.erase(it);
    } else if (auto own = open_.find(txn);
               own != open_.end() && absl::c_linear_search(own->second.touched, *only)) {
      // Prepared here while this node was the partition's primary; the primary it handed
      // over to has ended it.
      if (commit && own->second.prepared) NoteDecided(txn, own->second.tc, *only);
      std::erase(own->second.touched, *only);
      if (own->second.touched.empty()) open_.erase(own);
    }
  } else if (it != replicas_.end()) {
    for (const Touched& t : it->second.touched) end(t);
    replicas_.erase(it);
  }
  Unpark(txn, sink);
}

void Ldm::StartCopy(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step) {
  copy_.emplace();
  copy_->node = node;
  copy_->conn = conn;
  copy_->ldm_count = ldm_count;
  copy_->rows_per_step = rows_per_step;
  for (const auto& [id, table] : tables_) {
    for (uint32_t p = 0; p < table.partitions.size(); ++p) {
      if (table.partitions[p] != nullptr) copy_->todo.emplace_back(id, p);
    }
  }
  copy_->total = static_cast<uint32_t>(copy_->todo.size());
  SHOAL_LOG(kInfo) << "LDM " << placement_.ldm_index << ": copying " << copy_->total
                   << " partition(s) to data node " << node;
}

bool Ldm::CopyStep(ReplySink* sink) {
  if (!copying()) return false;
  // Whole partitions, as many as fit in a step's rows: many small ones (a database of many
  // tables, or tables created during the copy) must not take a loop turn each.
  const uint64_t copied_before = stats_.copied_rows;
  while (!copy_->todo.empty() && stats_.copied_rows - copied_before < copy_->rows_per_step) {
    auto [table_id, p] = copy_->todo.front();
    copy_->todo.pop_front();
    CopyPartition(table_id, p, sink);
    copy_->done.emplace(table_id, p);
  }
  if (copy_->todo.empty()) {
    copy_->complete = true;
    SHOAL_LOG(kInfo) << "LDM " << placement_.ldm_index << ": copy to data node " << copy_->node
                     << " complete";
  }
  SendCopyProgress(sink);
  return true;
}

void Ldm::CopyPartition(uint32_t table_id, uint32_t p, ReplySink* sink) {
  storage::Partition* partition = Find(table_id, p);
  if (partition == nullptr) return;
  wire::OpHeader rh;
  rh.index = static_cast<uint16_t>(group_.self);
  rh.table_id = table_id;
  rh.table_version = tables_.at(table_id).def->version;
  rh.partition = p;
  const uint32_t destination = kOpsOn | copy_->conn;
  partition->Export(
      [&](storage::TxnId txn, absl::string_view key, absl::string_view row) {
        rh.txn = txn;
        rh.flags = txn == storage::kAutocommit ? wire::kReplicaCommitNow : 0;
        rh.type = row.empty() ? OpType::kReplicaDelete : OpType::kReplicaWrite;
        SendReplica(destination, rh, row.empty() ? key : row, sink);
        ++stats_.copied_rows;
      },
      &copy_row_);
  // The copied versions of prepared transactions stay theirs to the end, whatever fails.
  std::string tc;
  for (const auto& [txn, open] : open_) {
    if (!open.prepared || !absl::c_linear_search(open.touched, Touched{partition, table_id, p}))
      continue;
    tc.clear();
    wire::PutU32(&tc, static_cast<uint32_t>(open.tc));
    rh.type = OpType::kReplicaPrepare;
    rh.flags = 0;
    rh.txn = txn;
    rh.tag = 0;
    SendReplica(destination, rh, tc, sink);
  }
}

void Ldm::SendCopyProgress(ReplySink* sink) {
  wire::OpHeader progress;
  progress.type = OpType::kCopyDone;
  progress.flags = copy_->complete ? wire::kCopyComplete : 0;
  progress.index = static_cast<uint16_t>(group_.self);
  progress.table_id = static_cast<uint32_t>(placement_.ldm_index);
  progress.partition = static_cast<uint32_t>(copy_->ldm_count);
  progress.tag = copy_->done.size();
  progress.txn = copy_->total;
  SendReplica(kOpsOn | copy_->conn, progress, {}, sink);
}

}  // namespace shoal::node
