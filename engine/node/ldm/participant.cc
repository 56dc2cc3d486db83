#include "engine/node/ldm/participant.h"

#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "engine/wire/errors.h"

namespace shoal::node {

void Participant::Prepare(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  if (context_->group.IsPrimary(h.partition)) txns_->Adopt(h.txn);
  TxnRecord* record = txns_->Primary(h.txn);
  if (record == nullptr || txns_->DoomedWhy(h.txn) != nullptr ||
      !record->HoldsPartition(h.table_id, h.partition)) {
    // What it held here is gone: its primary failed or moved, its client left, or a backup
    // failed it. (Its operations in other partitions of this LDM do not make up for it.)
    replicator_->Abort(h.txn, sink);
    ReplyError(context_, sink->ReplyTo(conn), h.tag, wire::kErTemporary,
               wire::TemporaryError(
                   wire::kNdbNotHeld,
                   absl::StrCat("transaction rolled back on data node ", context_->group.self)));
    return;
  }
  record->Prepare(h.index);
  ReplicaWait wait;
  wait.kind = ReplicaWait::Kind::kPrepare;
  wait.conn = conn;
  wait.tag = h.tag;
  wait.txn = h.txn;
  const uint64_t id = replicator_->OpenWait(std::move(wait));
  std::string tc;
  wire::PutU32(&tc, h.index);
  wire::OpHeader rh;
  rh.type = wire::OpType::kReplicaPrepare;
  rh.txn = h.txn;
  for (const Touched& t : record->touched) replicator_->SendUnder(id, rh, tc, t, sink);
  replicator_->FinishIfAnswered(id, sink);
}

void Participant::Query(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  const wire::OpHeader& h = op.header;
  TakeoverQuery query{conn, h.tag, h.index, h.table_id, h.partition};
  if (absl::c_linear_search(context_->group.down, query.tc)) {
    Answer(query, sink);
  } else {
    // Until we know its TC is down, a commit from it may still be on its way here.
    waiting_.push_back(query);
  }
}

void Participant::ViewChanged(ReplySink* sink) {
  std::vector<TakeoverQuery> waiting = std::move(waiting_);
  waiting_.clear();
  for (const TakeoverQuery& query : waiting) {
    if (absl::c_linear_search(context_->group.down, query.tc)) {
      Answer(query, sink);
    } else {
      waiting_.push_back(query);
    }
  }
}

void Participant::Answer(const TakeoverQuery& query, ReplySink* sink) {
  std::string answer;
  auto add = [&answer](storage::TxnId txn, bool committed) {
    wire::PutU64(&answer, txn);
    answer.push_back(committed ? 1 : 0);
  };
  auto open_here = [&](const TxnTable::Records& records) {
    for (const auto& [txn, record] : records) {
      if (record.prepared() && record.tc == query.tc &&
          record.HoldsPartition(query.table_id, query.partition)) {
        add(txn, false);
      }
    }
  };
  open_here(txns_->primaries());
  open_here(txns_->replicas());
  decided_->ForEachOf(query.tc, query.table_id, query.partition,
                      [&](storage::TxnId txn) { add(txn, true); });
  wire::AppendResult(sink->ReplyTo(query.conn), wire::kResultOk, 0, query.tag, {answer});
}

}  // namespace shoal::node
