// Two-phase commit, the participant's side (coordinator.h has the TC's): preparing a
// transaction on every replica of a partition, remembering prepared transactions that
// committed, and telling a node that takes over a failed TC what became of them.
#include "absl/strings/str_cat.h"
#include "engine/node/ldm.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

using wire::OpType;

// How long a committed prepared transaction is remembered: far longer than a takeover takes.
constexpr absl::Duration kDecidedMemory = absl::Seconds(60);

}  // namespace

void Ldm::AdoptIfPrimary(storage::TxnId txn, uint32_t partition) {
  auto replica = replicas_.find(txn);
  if (replica == replicas_.end() || !group_.IsPrimary(partition)) return;
  OpenTxn& adopted = open_[txn];
  adopted.prepared |= replica->second.prepared;
  if (replica->second.prepared) adopted.tc = replica->second.tc;
  for (const Touched& t : replica->second.touched) {
    if (!absl::c_linear_search(adopted.touched, t)) adopted.touched.push_back(t);
  }
  replicas_.erase(replica);
}

void Ldm::Prepare(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  AdoptIfPrimary(h.txn, h.partition);
  auto it = open_.find(h.txn);
  auto here = [&h](const Touched& t) { return t.table_id == h.table_id && t.index == h.partition; };
  if (it == open_.end() || doomed_.contains(h.txn) || !absl::c_any_of(it->second.touched, here)) {
    // What it held here is gone: its primary failed or moved, its client left, or a backup
    // failed it. (Its operations in other partitions of this LDM do not make up for it.)
    Abort(h.txn, sink);
    Error(sink->ReplyTo(conn), h.tag, wire::kErTemporary,
          wire::TemporaryError(wire::kNdbNotHeld,
                               absl::StrCat("transaction rolled back on data node ", group_.self)));
    return;
  }
  it->second.prepared = true;
  it->second.tc = h.index;
  uint64_t id = next_wait_++;
  ReplicaWait wait;
  wait.kind = ReplicaWait::Kind::kPrepare;
  wait.conn = conn;
  wait.tag = h.tag;
  wait.txn = h.txn;
  std::string tc;
  wire::PutU32(&tc, h.index);
  wire::OpHeader rh;
  rh.type = OpType::kReplicaPrepare;
  rh.index = static_cast<uint16_t>(group_.self);
  rh.txn = h.txn;
  for (const Touched& t : it->second.touched) {
    Targets(t.table_id, t.index);
    rh.table_id = t.table_id;
    rh.partition = t.index;
    if (copy_target_) {
      rh.tag = 0;
      SendReplica(kOpsOn | copy_->conn, rh, tc, sink);
    }
    rh.tag = id;
    for (int node : acked_targets_) {
      SendReplica(kToNode | static_cast<uint32_t>(node), rh, tc, sink);
      wait.pending.push_back(node);
    }
  }
  waits_.emplace(id, std::move(wait));
  if (waits_[id].pending.empty()) Finish(id, sink);
}

void Ldm::NoteDecided(storage::TxnId txn, int tc, const Touched& touched) {
  absl::Time now = absl::Now();
  while (!decided_order_.empty() && now - decided_order_.front().first > kDecidedMemory) {
    decided_.erase(decided_order_.front().second);
    decided_order_.pop_front();
  }
  auto [it, added] = decided_.try_emplace(txn);
  Decided& decided = it->second;
  if (added) decided_order_.emplace_back(now, txn);
  decided.tc = tc;
  std::pair<uint32_t, uint32_t> partition(touched.table_id, touched.index);
  if (!absl::c_linear_search(decided.partitions, partition)) {
    decided.partitions.push_back(partition);
  }
}

void Ldm::AnswerTakeover(const TakeoverQuery& query, ReplySink* sink) {
  std::string answer;
  auto add = [&answer](storage::TxnId txn, bool committed) {
    wire::PutU64(&answer, txn);
    answer.push_back(committed ? 1 : 0);
  };
  auto touches = [&query](const OpenTxn& open) {
    for (const Touched& t : open.touched) {
      if (t.table_id == query.table_id && t.index == query.partition) return true;
    }
    return false;
  };
  for (const auto& [txn, open] : open_) {
    if (open.prepared && open.tc == query.tc && touches(open)) add(txn, false);
  }
  for (const auto& [txn, open] : replicas_) {
    if (open.prepared && open.tc == query.tc && touches(open)) add(txn, false);
  }
  std::pair<uint32_t, uint32_t> partition(query.table_id, query.partition);
  for (const auto& [txn, decided] : decided_) {
    if (decided.tc == query.tc && absl::c_linear_search(decided.partitions, partition)) {
      add(txn, true);
    }
  }
  wire::AppendResult(sink->ReplyTo(query.conn), wire::kResultOk, 0, query.tag, {answer});
}

void Ldm::AnswerTakeovers(ReplySink* sink) {
  std::vector<TakeoverQuery> waiting = std::move(takeover_queries_);
  takeover_queries_.clear();
  for (const TakeoverQuery& query : waiting) {
    if (absl::c_linear_search(group_.down, query.tc)) {
      AnswerTakeover(query, sink);
    } else {
      takeover_queries_.push_back(query);
    }
  }
}

}  // namespace shoal::node
