// The TC: two-phase commit over a transaction's partitions, and takeover of a failed TC's.
#include "engine/node/coordinator.h"

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/wire/errors.h"
#include "engine/wire/placement.h"

namespace shoal::node {
namespace {

// Tags of our operations: our transaction's id, which replica was asked (0: the primary, as
// such; else 1 + the node's place in its node group, for kOnReplica steps and takeover
// queries), and the participant's position (a takeover asks about every partition there is).
constexpr int kPartBits = 21;
constexpr int kSlotBits = 3;
constexpr uint64_t kPartMask = (uint64_t{1} << kPartBits) - 1;
constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
constexpr int kIdShift = kPartBits + kSlotBits;

uint64_t TagOf(uint64_t id, int slot, size_t part) {
  return (id << kIdShift) | (static_cast<uint64_t>(slot) << kPartBits) | part;
}

// The TC's commit or rollback of `txn` in a participant.
template <typename End>
End EndOf(uint16_t tc, uint32_t table_id, uint32_t partition, uint64_t txn, uint64_t tag) {
  End end;
  end.tc = tc;
  end.table_id = table_id;
  end.partition = partition;
  end.txn = txn;
  end.tag = tag;
  return end;
}

}  // namespace

Coordinator::Coordinator(int self, Send send, Reply reply)
    : self_(self), send_(std::move(send)), reply_(std::move(reply)) {}

void Coordinator::BeginEpoch(Txn& txn) {
  if (decider_ == nullptr) return;
  txn.epoch = decider_->Begin();
  txn.epoch_counted = true;
}

void Coordinator::SetGroups(std::vector<std::vector<std::pair<int, bool>>> groups) {
  groups_ = std::move(groups);
}

void Coordinator::ReportStuck(absl::Time now, absl::Duration age) const {
  for (const auto& [id, txn] : txns_) {
    if (now - txn.since < age) continue;
    std::string waiting;
    for (const Part& part : txn.parts) {
      if (part.waiting) absl::StrAppend(&waiting, " p", part.partition, "@", part.node);
      for (int node : part.replicas_waiting) {
        absl::StrAppend(&waiting, " p", part.partition, "@", node, "(replica)");
      }
    }
    SHOAL_LOG(kWarning) << "TC: transaction " << txn.txn << " in phase "
                        << static_cast<int>(txn.phase) << " for "
                        << absl::FormatDuration(now - txn.since) << ", waiting for" << waiting;
  }
}

int Coordinator::PrimaryOf(uint32_t partition) const {
  if (groups_.empty()) return -1;
  const int node_groups = static_cast<int>(groups_.size());
  const auto& group = groups_[wire::NodeGroupOf(partition, node_groups)];
  int replica = wire::PrimaryReplica(partition, node_groups, static_cast<int>(group.size()),
                                     [&group](int i) { return group[i].second; });
  return replica < 0 ? -1 : group[replica].first;
}

int Coordinator::SlotOf(uint32_t partition, int node) const {
  if (groups_.empty()) return -1;
  const auto& group = groups_[wire::NodeGroupOf(partition, static_cast<int>(groups_.size()))];
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i].first == node) return static_cast<int>(i) + 1;
  }
  return -1;
}

int Coordinator::NodeInSlot(uint32_t partition, int slot) const {
  if (groups_.empty()) return -1;
  const auto& group = groups_[wire::NodeGroupOf(partition, static_cast<int>(groups_.size()))];
  return slot >= 1 && slot <= static_cast<int>(group.size()) ? group[slot - 1].first : -1;
}

std::vector<int> Coordinator::BackupsOf(uint32_t partition) const {
  std::vector<int> backups;
  if (groups_.empty()) return backups;
  const int primary = PrimaryOf(partition);
  const auto& group = groups_[wire::NodeGroupOf(partition, static_cast<int>(groups_.size()))];
  for (const auto& [node, serving] : group) {
    if (serving && node != primary) backups.push_back(node);
  }
  return backups;
}

void Coordinator::Commit(uint32_t conn, const wire::CommitTxn& commit) {
  uint64_t id = next_id_++;
  Txn& txn = txns_[id];
  txn.txn = commit.txn;
  txn.has_client = true;
  txn.conn = conn;
  txn.tag = commit.tag;
  for (size_t i = 0; i < commit.participant_count(); ++i) {
    wire::CommitTxn::Participant participant = commit.participant(i);
    Part& part = txn.parts.emplace_back();
    part.table_id = participant.table_id;
    part.partition = participant.partition;
  }
  txn.phase = Phase::kPrepare;
  for (size_t i = 0; i < txn.parts.size(); ++i) StartPart(id, txn, i, wire::OpType::kPrepare);
  if (txn.waiting == 0) Advance(id);
}

void Coordinator::StartPart(uint64_t id, Txn& txn, size_t part_index, wire::OpType type) {
  Part& part = txn.parts[part_index];
  part.replicas_done.clear();
  for (int node : BackupsOf(part.partition)) {
    const int slot = SlotOf(part.partition, node);
    if (slot <= 0 || static_cast<uint64_t>(slot) > kSlotMask || part_index > kPartMask) continue;
    part.replicas_waiting.push_back(node);
    ++txn.waiting;
    SendPhase(node, txn, part, TagOf(id, slot, part_index), type, /*on_replica=*/true);
  }
  // A backup on this node answers at once (its result is read in this turn); a partition
  // without backups goes straight to its primary.
  if (part.replicas_waiting.empty()) SendTo(id, txn, part_index, type);
}

void Coordinator::QueryReplicas(uint64_t id, Txn& txn) {
  for (size_t i = 0; i < txn.parts.size(); ++i) {
    Part& part = txn.parts[i];
    // Every serving replica: a backup may be the only one that committed.
    std::vector<int> targets = BackupsOf(part.partition);
    if (int primary = PrimaryOf(part.partition); primary >= 0) targets.push_back(primary);
    for (int node : targets) {
      const int slot = SlotOf(part.partition, node);
      if (slot <= 0 || static_cast<uint64_t>(slot) > kSlotMask || i > kPartMask) continue;
      part.replicas_waiting.push_back(node);
      ++txn.waiting;
      send_(node, wire::TakeoverReq{.failed_tc = static_cast<uint16_t>(txn.failed_tc),
                                    .table_id = part.table_id,
                                    .partition = part.partition,
                                    .tag = TagOf(id, slot, i)});
    }
  }
}

void Coordinator::SendTo(uint64_t id, Txn& txn, size_t part_index, wire::OpType type) {
  Part& part = txn.parts[part_index];
  int node = PrimaryOf(part.partition);
  if (node < 0) {
    // The partition's whole node group is down: it cannot prepare, and holds nothing to end.
    if (type == wire::OpType::kPrepare && txn.error == 0) {
      txn.error = wire::kErTemporary;
      txn.message = wire::TemporaryError(
          wire::kNdbClusterFailure, absl::StrCat("no data node serves partition ", part.partition));
    }
    return;
  }
  part.node = node;
  part.waiting = true;
  ++txn.waiting;
  const uint64_t tag = TagOf(id, 0, part_index);
  if (type == wire::OpType::kAbort) {
    send_(node, EndOf<wire::Abort>(static_cast<uint16_t>(self_), part.table_id, part.partition,
                                   txn.txn, tag));
  } else {
    SendPhase(node, txn, part, tag, type, /*on_replica=*/false);
  }
}

void Coordinator::SendPhase(int node, const Txn& txn, const Part& part, uint64_t tag,
                            wire::OpType type, bool on_replica) {
  const auto tc = static_cast<uint16_t>(self_);
  // A primary hears which of its backups we did (none when we speak to a backup).
  const absl::string_view done = on_replica ? absl::string_view() : part.replicas_done;
  if (type == wire::OpType::kPrepare) {
    send_(node, wire::Prepare{.tc = tc,
                              .table_id = part.table_id,
                              .partition = part.partition,
                              .txn = txn.txn,
                              .tag = tag,
                              .on_replica = on_replica,
                              .replicas_done = done});
    return;
  }
  SHOAL_CHECK(type == wire::OpType::kCommit) << wire::OpTypeName(type);
  auto commit = EndOf<wire::Commit>(tc, part.table_id, part.partition, txn.txn, tag);
  commit.epoch = txn.epoch;
  commit.on_replica = on_replica;
  commit.replicas_done = done;
  send_(node, commit);
}

void Coordinator::OnResult(const wire::Result& result) {
  auto it = txns_.find(result.tag >> kIdShift);
  if (it == txns_.end()) return;
  const uint64_t id = it->first;
  Txn& txn = it->second;
  const size_t index = result.tag & kPartMask;
  const int slot = static_cast<int>((result.tag >> kPartBits) & kSlotMask);
  if (index >= txn.parts.size()) return;
  Part& part = txn.parts[index];
  absl::string_view first = result.section_count > 0 ? result.sections[0] : absl::string_view();
  if (slot != 0) {
    const int replica = NodeInSlot(part.partition, slot);
    auto at = absl::c_find(part.replicas_waiting, replica);
    if (replica <= 0 || at == part.replicas_waiting.end()) return;
    part.replicas_waiting.erase(at);
    --txn.waiting;
    if (txn.phase == Phase::kTakeoverQuery) {
      NoteTakeoverAnswer(txn, part, replica, result);
    } else if (result.code == wire::kResultOk) {
      wire::AddReplicaDone(&part.replicas_done, replica);
    } else {
      // Not done: its primary handles it as it always did.
      SHOAL_LOG(kDebug) << "transaction " << txn.txn << ": replica " << replica << " of partition "
                        << part.partition << " answered " << result.code << " " << first;
    }
    if ((txn.phase == Phase::kPrepare || txn.phase == Phase::kCommit) &&
        part.replicas_waiting.empty()) {
      SendTo(id, txn, index,
             txn.phase == Phase::kPrepare ? wire::OpType::kPrepare : wire::OpType::kCommit);
    }
    if (txn.waiting == 0) Advance(id);
    return;
  }
  if (!part.waiting) return;
  part.waiting = false;
  --txn.waiting;
  switch (txn.phase) {
    case Phase::kPrepare:
      if (result.code != wire::kResultOk && txn.error == 0) {
        txn.error = result.code;
        txn.message = std::string(first);
      }
      break;
    case Phase::kCommit:
    case Phase::kAbort:
      if (result.code != wire::kResultOk) {
        SHOAL_LOG(kWarning) << "transaction " << txn.txn << ": partition " << part.partition
                            << " answered " << result.code << " " << first;
      }
      break;
    case Phase::kTakeoverQuery:
      break;  // queries go to every replica as such (slot != 0)
  }
  if (txn.waiting == 0) Advance(id);
}

void Coordinator::NoteTakeoverAnswer(Txn& query, const Part& part, int replica,
                                     const wire::Result& result) {
  if (result.code != wire::kResultOk) return;
  wire::TakeoverConf answer;
  if (wire::TakeoverConf::Decode(result, &answer) != wire::DecodeStatus::kOk) {
    SHOAL_LOG(kWarning) << "TC: a malformed takeover answer from data node " << replica
                        << " for partition " << part.partition << " of table " << part.table_id;
    return;
  }
  for (size_t i = 0; i < answer.entry_count(); ++i) {
    wire::TakeoverConf::Entry entry = answer.entry(i);
    Txn::Found& found = query.found[entry.txn];
    found.committed |= entry.committed;
    found.open |= !entry.committed;
    const bool known = absl::c_any_of(found.parts, [&part](const Part& p) {
      return p.table_id == part.table_id && p.partition == part.partition;
    });
    if (!known) {
      Part& where = found.parts.emplace_back();
      where.table_id = part.table_id;
      where.partition = part.partition;
    }
  }
}

void Coordinator::Advance(uint64_t id) {
  Txn& txn = txns_.at(id);
  switch (txn.phase) {
    case Phase::kPrepare:
      if (txn.error != 0) {
        // Each primary rolls its backups back too, the ones prepared by us included.
        txn.phase = Phase::kAbort;
        for (size_t i = 0; i < txn.parts.size(); ++i) SendTo(id, txn, i, wire::OpType::kAbort);
      } else {
        // Every participant is prepared: a node taking over later commits them all when it
        // finds any committed. Every participant logs the commit in one epoch, ours (I8).
        txn.phase = Phase::kCommit;
        BeginEpoch(txn);
        for (size_t i = 0; i < txn.parts.size(); ++i) StartPart(id, txn, i, wire::OpType::kCommit);
      }
      break;
    case Phase::kCommit:
    case Phase::kAbort:
      Done(id);
      return;
    case Phase::kTakeoverQuery: {
      Txn query = std::move(txn);  // Resolve adds transactions: `txn` would not stay put
      txns_.erase(id);
      Resolve(query);
      return;
    }
  }
  if (txns_.at(id).waiting == 0) Advance(id);
}

void Coordinator::Done(uint64_t id) {
  auto it = txns_.find(id);
  Txn txn = std::move(it->second);
  txns_.erase(it);
  if (txn.epoch_counted) decider_->End(txn.epoch);
  if (txn.phase == Phase::kCommit) {
    ++stats_.commits;
  } else {
    ++stats_.aborts;
  }
  if (!txn.has_client) return;
  if (txn.phase == Phase::kCommit) {
    reply_(txn.conn, txn.tag, wire::kResultOk, {});
  } else {
    reply_(txn.conn, txn.tag, txn.error,
           txn.message.empty()
               ? wire::TemporaryError(wire::kNdbNodeFailure, "transaction rolled back")
               : txn.message);
  }
}

void Coordinator::Resolve(Txn& query) {
  for (auto& [txn_id, found] : query.found) {
    if (!found.open) continue;  // committed wherever it was: nothing left to do
    const bool committed = found.committed;
    std::vector<Part>& parts = found.parts;
    ++stats_.takeovers;
    SHOAL_LOG(kInfo) << "takeover from data node " << query.failed_tc << ": transaction " << txn_id
                     << (committed ? " committed" : " rolled back") << " on " << parts.size()
                     << " partition(s)";
    uint64_t id = next_id_++;
    Txn& txn = txns_[id];
    txn.txn = txn_id;
    txn.parts = std::move(parts);
    // Each primary ends it on its backups itself (no replicas done).
    txn.phase = committed ? Phase::kCommit : Phase::kAbort;
    if (committed) BeginEpoch(txn);
    wire::OpType type = committed ? wire::OpType::kCommit : wire::OpType::kAbort;
    for (size_t i = 0; i < txn.parts.size(); ++i) SendTo(id, txn, i, type);
    if (txn.waiting == 0) Done(id);
  }
}

void Coordinator::NodeLost(int node, bool take_over,
                           const std::vector<std::pair<uint32_t, uint32_t>>& partitions) {
  std::vector<uint64_t> ready;
  for (auto& [id, txn] : txns_) {
    bool touched = false;
    for (size_t i = 0; i < txn.parts.size(); ++i) {
      Part& part = txn.parts[i];
      if (auto at = absl::c_find(part.replicas_waiting, node); at != part.replicas_waiting.end()) {
        // A backup gone holds nothing any more: nobody waits for it, and its primary (which
        // no longer counts it either) is asked once no other backup is due.
        part.replicas_waiting.erase(at);
        --txn.waiting;
        touched = true;
        if ((txn.phase == Phase::kPrepare || txn.phase == Phase::kCommit) &&
            part.replicas_waiting.empty()) {
          SendTo(id, txn, i,
                 txn.phase == Phase::kPrepare ? wire::OpType::kPrepare : wire::OpType::kCommit);
        }
      }
      if (!part.waiting || part.node != node) continue;
      touched = true;
      part.waiting = false;
      --txn.waiting;
      switch (txn.phase) {
        case Phase::kPrepare:
          if (txn.error == 0) {
            txn.error = wire::kErTemporary;
            txn.message = wire::TemporaryError(
                wire::kNdbNodeFailure,
                absl::StrCat("data node ", node, " lost: transaction rolled back"));
          }
          break;
        case Phase::kCommit:
          // Its backup holds the prepared transaction (or committed it, from us) and is
          // primary now.
          SendTo(id, txn, i, wire::OpType::kCommit);
          break;
        case Phase::kAbort:
          SendTo(id, txn, i, wire::OpType::kAbort);
          break;
        case Phase::kTakeoverQuery:
          break;  // queries go to every replica as such
      }
    }
    if (touched && txn.waiting == 0) ready.push_back(id);
  }
  for (uint64_t id : ready) {
    if (txns_.contains(id)) Advance(id);
  }
  if (!take_over) return;
  uint64_t id = next_id_++;
  Txn& query = txns_[id];
  query.phase = Phase::kTakeoverQuery;
  query.failed_tc = node;
  for (const auto& [table_id, partition] : partitions) {
    Part& part = query.parts.emplace_back();
    part.table_id = table_id;
    part.partition = partition;
  }
  QueryReplicas(id, query);
  if (query.waiting == 0) Advance(id);
}

}  // namespace shoal::node
