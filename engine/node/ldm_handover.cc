// Handing a partition's primary role from one serving node to another, as happens when a
// restarted node takes its roles back. The nodes learn of the new view at different moments;
// acting on it alone, both would be primary for a while and could both lock the same row (a
// read lock lives on the primary only), so updates would be lost. Instead:
//
//   former primary, on the view: rolls back the open transactions holding anything in the
//     partition (not the prepared: their TC ends them, through either node), stops acting as
//     its primary, and sends kHandover after everything it sent before;
//   new primary: parks the partition's operations from the view until the kHandover (or
//     until the former primary no longer serves), then runs them in order.
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/node/ldm.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

using wire::OpType;

// The id operations wait for, like a lock holder's, until `partition` is handed over here.
// Bit 63 with no node in bits 48–55: no transaction has it (Ldm::NewInternalTxn).
storage::TxnId HandoverWait(uint32_t partition) { return (uint64_t{1} << 63) | partition; }

}  // namespace

bool IsHandoverWait(storage::TxnId txn) { return (txn >> 63) != 0 && ((txn >> 48) & 0xff) == 0; }

void Ldm::FollowPrimaries(const GroupView& old, ReplySink* sink) {
  uint32_t partitions = 0;
  for (const auto& [id, table] : tables_) partitions = std::max(partitions, table.def->partitions);
  for (uint32_t p = 0; p < partitions; ++p) {
    if (!placement_.Owns(p)) continue;
    // A node's first view moves no role: it was primary of nothing before.
    const int before = old.members.empty() ? -1 : old.PrimaryOf(p);
    const int now = group_.PrimaryOf(p);
    if (before == now) continue;
    // (A node the view no longer has serving is on its way out: it hands nothing over.)
    if (before == group_.self && now > 0 && group_.IsStarted(group_.self)) HandOver(p, now, sink);
    if (now != group_.self) {
      // Not ours (any more): what waited for it learns so (Run refuses it).
      if (awaiting_handover_.erase(p) > 0) Unpark(HandoverWait(p), sink);
      continue;
    }
    if (before > 0 && before != group_.self && group_.IsStarted(before) &&
        handed_over_.erase({p, before}) == 0) {
      awaiting_handover_[p] = before;
    }
  }
  std::vector<int> gone;
  for (const auto& [p, from] : awaiting_handover_) {
    if (!group_.IsStarted(from)) gone.push_back(from);
  }
  for (int node : gone) ForgetHandovers(node, sink);
}

void Ldm::HandOver(uint32_t partition, int to, ReplySink* sink) {
  std::vector<storage::TxnId> ended;
  for (const auto& [txn, open] : open_) {
    if (open.prepared) continue;
    for (const Touched& t : open.touched) {
      if (t.index == partition) {
        ended.push_back(txn);
        break;
      }
    }
  }
  for (storage::TxnId txn : ended) {
    Abort(txn, sink);
    doomed_[txn] = absl::StrCat("the primary of partition ", partition, " moved to data node ", to);
  }
  if (!ended.empty()) {
    SHOAL_LOG(kInfo) << "LDM " << placement_.ldm_index << ": partition " << partition
                     << " handed over to data node " << to << ", " << ended.size()
                     << " open transaction(s) holding rows in it rolled back";
  }
  wire::OpHeader h;
  h.type = OpType::kHandover;
  h.index = static_cast<uint16_t>(group_.self);
  h.partition = partition;
  SendReplica(kToNode | static_cast<uint32_t>(to), h, {}, sink);
}

void Ldm::TakeHandover(const wire::Op& op, ReplySink* sink) {
  const uint32_t partition = op.header.partition;
  const int from = op.header.index;
  auto it = awaiting_handover_.find(partition);
  if (it == awaiting_handover_.end() || it->second != from) {
    handed_over_.emplace(partition, from);  // ahead of our view of the move
    return;
  }
  awaiting_handover_.erase(it);
  Unpark(HandoverWait(partition), sink);
}

bool Ldm::ParkUntilHandedOver(const wire::Op& op, uint32_t conn, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  const bool client_op = h.type < OpType::kReplicaWrite || h.type == OpType::kPrepare;
  if (!client_op || awaiting_handover_.empty() || !awaiting_handover_.contains(h.partition)) {
    return false;
  }
  if (deadline == absl::InfiniteFuture()) deadline = LockNow(absl::Now()) + lock_wait_timeout_;
  Park(op, conn, HandoverWait(h.partition), deadline);
  return true;
}

void Ldm::ForgetHandovers(int node, ReplySink* sink) {
  absl::erase_if(handed_over_, [node](const auto& entry) { return entry.second == node; });
  std::vector<uint32_t> partitions;
  for (const auto& [p, from] : awaiting_handover_) {
    if (from == node) partitions.push_back(p);
  }
  for (uint32_t p : partitions) {
    awaiting_handover_.erase(p);
    Unpark(HandoverWait(p), sink);
  }
}

}  // namespace shoal::node
