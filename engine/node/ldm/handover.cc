#include "engine/node/ldm/handover.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::node {
namespace {

// The id operations wait for, like a lock holder's, until `partition` is handed over here.
// Bit 63 with no node in bits 48–55: no transaction has it (Replicator::NewInternalTxn).
storage::TxnId HandoverWait(uint32_t partition) { return (uint64_t{1} << 63) | partition; }

}  // namespace

bool IsHandoverWait(storage::TxnId txn) { return (txn >> 63) != 0 && ((txn >> 48) & 0xff) == 0; }

void Handover::FollowPrimaries(const GroupView& old, ReplySink* sink) {
  const GroupView& group = context_->group;
  uint32_t partitions = 0;
  for (const auto& [id, table] : tables_->all()) {
    partitions = std::max(partitions, table.def->partitions);
  }
  for (uint32_t p = 0; p < partitions; ++p) {
    if (!context_->placement.Owns(p)) continue;
    // A node's first view moves no role: it was primary of nothing before.
    const int before = old.members.empty() ? -1 : old.PrimaryOf(p);
    const int now = group.PrimaryOf(p);
    if (before == now) continue;
    // (A node the view no longer has serving is on its way out: it hands nothing over.)
    if (before == group.self && now > 0 && group.IsStarted(group.self)) HandOver(p, now, sink);
    if (now != group.self) {
      // Not ours (any more): what waited for it learns so (the LDM refuses it).
      if (awaiting_.erase(p) > 0) context_->unparker->Unpark(HandoverWait(p), sink);
      continue;
    }
    if (before > 0 && before != group.self && group.IsStarted(before) &&
        handed_over_.erase({p, before}) == 0) {
      awaiting_[p] = before;
    }
  }
  std::vector<int> gone;
  for (const auto& [p, from] : awaiting_) {
    if (!group.IsStarted(from)) gone.push_back(from);
  }
  for (int node : gone) Forget(node, sink);
}

void Handover::HandOver(uint32_t partition, int to, ReplySink* sink) {
  std::vector<storage::TxnId> ended;
  for (const auto& [txn, record] : txns_->primaries()) {
    if (record.prepared()) continue;
    for (const Touched& t : record.touched) {
      if (t.index == partition) {
        ended.push_back(txn);
        break;
      }
    }
  }
  for (storage::TxnId txn : ended) {
    replicator_->Abort(txn, sink);
    txns_->Doom(txn,
                absl::StrCat("the primary of partition ", partition, " moved to data node ", to));
  }
  if (!ended.empty()) {
    SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": partition " << partition
                     << " handed over to data node " << to << ", " << ended.size()
                     << " open transaction(s) holding rows in it rolled back";
  }
  wire::Handover handover;
  handover.from_node = static_cast<uint16_t>(context_->group.self);
  handover.partition = partition;
  handover.Encode(sink->ReplyTo(kToNode | static_cast<uint32_t>(to)));
}

void Handover::Take(const wire::Handover& handover, ReplySink* sink) {
  const uint32_t partition = handover.partition;
  const int from = handover.from_node;
  auto it = awaiting_.find(partition);
  if (it == awaiting_.end() || it->second != from) {
    handed_over_.emplace(partition, from);  // ahead of our view of the move
    return;
  }
  awaiting_.erase(it);
  context_->unparker->Unpark(HandoverWait(partition), sink);
}

bool Handover::ParkUntilHandedOver(const wire::Op& op, uint32_t conn, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  const bool client_op = h.type < wire::OpType::kReplicaWrite || h.type == wire::OpType::kPrepare;
  if (!client_op || awaiting_.empty() || !awaiting_.contains(h.partition)) return false;
  ++context_->stats.lock_waits;
  lock_waits_->Park(op, conn, HandoverWait(h.partition), lock_waits_->DeadlineFor(deadline));
  return true;
}

void Handover::Forget(int node, ReplySink* sink) {
  absl::erase_if(handed_over_, [node](const auto& entry) { return entry.second == node; });
  std::vector<uint32_t> partitions;
  for (const auto& [p, from] : awaiting_) {
    if (from == node) partitions.push_back(p);
  }
  for (uint32_t p : partitions) {
    awaiting_.erase(p);
    context_->unparker->Unpark(HandoverWait(p), sink);
  }
}

}  // namespace shoal::node
