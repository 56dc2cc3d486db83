#include "engine/node/ldm/participant.h"

#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "engine/wire/errors.h"

namespace shoal::node {

void Participant::Prepare(const wire::Prepare& prepare, uint32_t conn, ReplySink* sink) {
  if (context_->group.IsPrimary(prepare.partition)) txns_->Adopt(prepare.txn);
  TxnRecord* record = txns_->Primary(prepare.txn);
  if (record == nullptr || txns_->DoomedWhy(prepare.txn) != nullptr ||
      !record->HoldsPartition(prepare.table_id, prepare.partition)) {
    // What it held here is gone: its primary failed or moved, its client left, or a backup
    // failed it. (Its operations in other partitions of this LDM do not make up for it.)
    replicator_->Abort(prepare.txn, sink);
    ReplyError(context_, sink->ReplyTo(conn), prepare.tag, wire::kErTemporary,
               wire::TemporaryError(
                   wire::kNdbNotHeld,
                   absl::StrCat("transaction rolled back on data node ", context_->group.self)));
    return;
  }
  if (record->wrote_logged && context_->RedoRefuses()) {
    // Once prepared it must commit if its TC says so; refused now, while it still may not.
    replicator_->Abort(prepare.txn, sink);
    ReplyError(context_, sink->ReplyTo(conn), prepare.tag, wire::kErTemporary,
               context_->RedoRefusal());
    return;
  }
  record->Prepare(prepare.tc);
  ReplicaWait wait;
  wait.kind = ReplicaWait::Kind::kPrepare;
  wait.conn = conn;
  wait.tag = prepare.tag;
  wait.txn = prepare.txn;
  const uint64_t id = replicator_->OpenWait(std::move(wait));
  wire::ReplicaPrepare message;
  message.txn = prepare.txn;
  message.tc = prepare.tc;
  for (const Touched& t : record->touched) {
    replicator_->SendUnder(id, message, t, sink, prepare.replicas_done);
  }
  replicator_->FinishIfAnswered(id, sink);
}

void Participant::Query(const wire::TakeoverReq& request, uint32_t conn, ReplySink* sink) {
  TakeoverQuery query{conn, request.tag, request.failed_tc, request.table_id, request.partition};
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
  std::string entries;
  auto add = [&entries](storage::TxnId txn, bool committed) {
    wire::TakeoverConf::AddEntry(&entries, txn, committed);
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
  wire::TakeoverConf answer;
  answer.tag = query.tag;
  answer.entries = entries;
  answer.Encode(sink->ReplyTo(query.conn));
}

}  // namespace shoal::node
