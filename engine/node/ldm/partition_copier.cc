#include "engine/node/ldm/partition_copier.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

void PartitionCopier::Start(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step,
                            uint64_t since_epoch) {
  copy_ = Copy{};
  copy_->node = node;
  copy_->conn = conn;
  copy_->ldm_count = ldm_count;
  copy_->rows_per_step = rows_per_step;
  copy_->since_epoch = since_epoch;
  copy_->copied_before = context_->stats.copied_rows;
  copy_->kept_before = context_->stats.copy_kept_rows;
  for (const auto& [id, table] : tables_->all()) {
    for (uint32_t p = 0; p < table.partitions.size(); ++p) {
      if (table.partitions[p] != nullptr) copy_->todo.emplace_back(id, p);
    }
  }
  copy_->total = static_cast<uint32_t>(copy_->todo.size());
  SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": copying " << copy_->total
                   << " partition(s) to data node " << node
                   << (since_epoch == 0 ? std::string()
                                        : absl::StrCat(", rows changed since epoch ", since_epoch));
}

void PartitionCopier::Created(uint32_t table_id, uint32_t partition) {
  if (copying()) copy_->todo.emplace_back(table_id, partition);
}

bool PartitionCopier::Step(ReplySink* sink) {
  if (!copying()) return false;
  // Whole partitions, as many as fit in a step's rows: many small ones (a database of many
  // tables, or tables created during the copy) must not take a loop turn each.
  auto sent = [this] { return context_->stats.copied_rows + context_->stats.copy_kept_rows; };
  const uint64_t sent_before = sent();
  while (!copy_->todo.empty() && sent() - sent_before < copy_->rows_per_step) {
    auto [table_id, p] = copy_->todo.front();
    copy_->todo.pop_front();
    CopyPartition(table_id, p, sink);
    copy_->done.emplace(table_id, p);
  }
  if (copy_->todo.empty()) {
    copy_->complete = true;
    SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": copy to data node "
                     << copy_->node
                     << " complete: " << context_->stats.copied_rows - copy_->copied_before
                     << " rows copied, " << context_->stats.copy_kept_rows - copy_->kept_before
                     << " kept from its own disk";
  }
  SendProgress(sink);
  return true;
}

std::optional<uint32_t> PartitionCopier::TargetFor(uint32_t table_id, uint32_t partition) const {
  if (!copy_.has_value() || context_->group.IsStarted(copy_->node)) return std::nullopt;
  if (!copy_->complete && !copy_->done.contains({table_id, partition})) return std::nullopt;
  return copy_->conn;
}

void PartitionCopier::ViewChanged() {
  if (copy_.has_value() && copy_->complete && context_->group.IsStarted(copy_->node)) {
    copy_.reset();
  }
}

void PartitionCopier::NodeLost(int node) {
  if (copy_.has_value() && copy_->node == node) copy_.reset();
}

void PartitionCopier::ConnectionClosed(uint32_t conn) {
  if (copy_.has_value() && copy_->conn == conn) copy_.reset();
}

void PartitionCopier::CopyPartition(uint32_t table_id, uint32_t p, ReplySink* sink) {
  storage::Partition* partition = tables_->Find(table_id, p);
  if (partition == nullptr) return;
  wire::OpTarget target;
  target.table_id = table_id;
  target.table_version = tables_->Table(table_id)->def->version;
  target.partition = p;
  const uint16_t self = static_cast<uint16_t>(context_->group.self);
  const uint32_t destination = kOpsOn | copy_->conn;
  // The node being copied to logs what it gets; it counts as restorable only from an epoch
  // after its copy ends, so the current one will do.
  const uint64_t epoch = context_->CurrentEpoch();
  // A non-logged table's rows are not on the node's disk: they all go.
  const uint64_t since = schema::Logged(*tables_->Table(table_id)->def) ? copy_->since_epoch : 0;
  auto edge = [&](bool end) {
    wire::CopyEdge message;
    static_cast<wire::OpTarget&>(message) = target;
    message.from_node = self;
    message.end = end;
    message.Encode(sink->ReplyTo(destination));
  };
  if (since != 0) edge(/*end=*/false);
  // Untagged: the node being copied to does not answer.
  partition->Export(
      [&](storage::TxnId txn, absl::string_view key, absl::string_view row, uint64_t row_epoch) {
        target.txn = txn;
        if (since != 0 && txn == storage::kAutocommit && row_epoch != 0 && row_epoch <= since) {
          wire::CopyKeep message;
          static_cast<wire::OpTarget&>(message) = target;
          message.from_node = self;
          message.key = key;
          message.Encode(sink->ReplyTo(destination));
          ++context_->stats.copy_kept_rows;
          return;
        }
        if (row.empty()) {
          wire::ReplicaDelete message;
          static_cast<wire::OpTarget&>(message) = target;
          message.from_node = self;
          message.commit_now = txn == storage::kAutocommit;
          message.key = key;
          message.epoch = epoch;
          message.Encode(sink->ReplyTo(destination));
        } else {
          wire::ReplicaWrite message;
          static_cast<wire::OpTarget&>(message) = target;
          message.from_node = self;
          message.commit_now = txn == storage::kAutocommit;
          message.row = row;
          message.epoch = epoch;
          message.Encode(sink->ReplyTo(destination));
        }
        ++context_->stats.copied_rows;
      },
      &row_);
  if (since != 0) edge(/*end=*/true);
  // The copied versions of prepared transactions stay theirs to the end, whatever fails.
  for (const auto& [txn, record] : txns_->primaries()) {
    if (!record.prepared() || !record.Holds(Touched{partition, table_id, p})) continue;
    wire::ReplicaPrepare prepare;
    static_cast<wire::OpTarget&>(prepare) = target;
    prepare.from_node = self;
    prepare.txn = txn;
    prepare.tc = static_cast<uint32_t>(record.tc);
    prepare.Encode(sink->ReplyTo(destination));
  }
}

void PartitionCopier::SendProgress(ReplySink* sink) {
  wire::CopyDone progress;
  progress.from_node = static_cast<uint16_t>(context_->group.self);
  progress.ldm = static_cast<uint32_t>(context_->placement.ldm_index);
  progress.ldm_count = static_cast<uint32_t>(copy_->ldm_count);
  progress.sent = copy_->done.size();
  progress.total = copy_->total;
  progress.complete = copy_->complete;
  progress.Encode(sink->ReplyTo(kOpsOn | copy_->conn));
}

}  // namespace shoal::node
