// The TC: two-phase commit over a transaction's partitions, and takeover of a failed TC's.
#include "engine/node/coordinator.h"

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/wire/errors.h"
#include "engine/wire/placement.h"

namespace shoal::node {
namespace {

// Tags of our operations: our transaction's id, then the participant's position.
constexpr int kPartBits = 20;
constexpr uint64_t kPartMask = (uint64_t{1} << kPartBits) - 1;

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
  for (size_t i = 0; i < txn.parts.size(); ++i) SendTo(id, txn, i, wire::OpType::kPrepare);
  if (txn.waiting == 0) Advance(id);
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
  const uint64_t tag = (id << kPartBits) | part_index;
  const auto tc = static_cast<uint16_t>(self_);
  switch (type) {
    case wire::OpType::kPrepare:
      send_(node, wire::Prepare{.tc = tc,
                                .table_id = part.table_id,
                                .partition = part.partition,
                                .txn = txn.txn,
                                .tag = tag});
      break;
    case wire::OpType::kTakeoverReq:
      send_(node, wire::TakeoverReq{.failed_tc = static_cast<uint16_t>(txn.failed_tc),
                                    .table_id = part.table_id,
                                    .partition = part.partition,
                                    .tag = tag});
      break;
    case wire::OpType::kCommit: {
      auto commit = EndOf<wire::Commit>(tc, part.table_id, part.partition, txn.txn, tag);
      commit.epoch = txn.epoch;
      send_(node, commit);
      break;
    }
    default:
      SHOAL_CHECK(type == wire::OpType::kAbort) << wire::OpTypeName(type);
      send_(node, EndOf<wire::Abort>(tc, part.table_id, part.partition, txn.txn, tag));
      break;
  }
}

void Coordinator::OnResult(const wire::Result& result) {
  auto it = txns_.find(result.tag >> kPartBits);
  if (it == txns_.end()) return;
  Txn& txn = it->second;
  size_t index = result.tag & kPartMask;
  if (index >= txn.parts.size() || !txn.parts[index].waiting) return;
  Part& part = txn.parts[index];
  part.waiting = false;
  --txn.waiting;
  absl::string_view first = result.section_count > 0 ? result.sections[0] : absl::string_view();
  switch (txn.phase) {
    case Phase::kPrepare:
      if (result.code != wire::kResultOk && txn.error == 0) {
        txn.error = result.code;
        txn.message = std::string(first);
      }
      break;
    case Phase::kTakeoverQuery: {
      if (result.code != wire::kResultOk) break;
      wire::TakeoverConf answer;
      if (wire::TakeoverConf::Decode(result, &answer) != wire::DecodeStatus::kOk) {
        SHOAL_LOG(kWarning) << "TC: a malformed takeover answer from partition " << part.partition
                            << " of table " << part.table_id;
        break;
      }
      for (size_t i = 0; i < answer.entry_count(); ++i) {
        wire::TakeoverConf::Entry entry = answer.entry(i);
        Txn::Found& found = txn.found[entry.txn];
        found.committed |= entry.committed;
        found.open |= !entry.committed;
        Part& where = found.parts.emplace_back();
        where.table_id = part.table_id;
        where.partition = part.partition;
      }
      break;
    }
    case Phase::kCommit:
    case Phase::kAbort:
      if (result.code != wire::kResultOk) {
        SHOAL_LOG(kWarning) << "transaction " << txn.txn << ": partition " << part.partition
                            << " answered " << result.code << " " << first;
      }
      break;
  }
  if (txn.waiting == 0) Advance(it->first);
}

void Coordinator::Advance(uint64_t id) {
  Txn& txn = txns_.at(id);
  switch (txn.phase) {
    case Phase::kPrepare:
      if (txn.error != 0) {
        txn.phase = Phase::kAbort;
        for (size_t i = 0; i < txn.parts.size(); ++i) SendTo(id, txn, i, wire::OpType::kAbort);
      } else {
        // Every participant is prepared: a node taking over later commits them all when it
        // finds any committed, so they are told at once. Every participant logs the commit
        // in one epoch, ours (I8).
        txn.phase = Phase::kCommit;
        BeginEpoch(txn);
        for (size_t i = 0; i < txn.parts.size(); ++i) SendTo(id, txn, i, wire::OpType::kCommit);
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
          // Its backup holds the prepared transaction and is primary now.
          SendTo(id, txn, i, wire::OpType::kCommit);
          break;
        case Phase::kAbort:
          SendTo(id, txn, i, wire::OpType::kAbort);
          break;
        case Phase::kTakeoverQuery:
          SendTo(id, txn, i, wire::OpType::kTakeoverReq);
          break;
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
  for (size_t i = 0; i < query.parts.size(); ++i) {
    SendTo(id, query, i, wire::OpType::kTakeoverReq);
  }
  if (query.waiting == 0) Advance(id);
}

}  // namespace shoal::node
