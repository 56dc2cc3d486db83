#include "engine/node/ldm/partition_copier.h"

#include <string>

#include "common/logging.h"

namespace shoal::node {

void PartitionCopier::Start(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step) {
  copy_.emplace();
  copy_->node = node;
  copy_->conn = conn;
  copy_->ldm_count = ldm_count;
  copy_->rows_per_step = rows_per_step;
  for (const auto& [id, table] : tables_->all()) {
    for (uint32_t p = 0; p < table.partitions.size(); ++p) {
      if (table.partitions[p] != nullptr) copy_->todo.emplace_back(id, p);
    }
  }
  copy_->total = static_cast<uint32_t>(copy_->todo.size());
  SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": copying " << copy_->total
                   << " partition(s) to data node " << node;
}

void PartitionCopier::Created(uint32_t table_id, uint32_t partition) {
  if (copying()) copy_->todo.emplace_back(table_id, partition);
}

bool PartitionCopier::Step(ReplySink* sink) {
  if (!copying()) return false;
  // Whole partitions, as many as fit in a step's rows: many small ones (a database of many
  // tables, or tables created during the copy) must not take a loop turn each.
  const uint64_t copied_before = context_->stats.copied_rows;
  while (!copy_->todo.empty() &&
         context_->stats.copied_rows - copied_before < copy_->rows_per_step) {
    auto [table_id, p] = copy_->todo.front();
    copy_->todo.pop_front();
    CopyPartition(table_id, p, sink);
    copy_->done.emplace(table_id, p);
  }
  if (copy_->todo.empty()) {
    copy_->complete = true;
    SHOAL_LOG(kInfo) << "LDM " << context_->placement.ldm_index << ": copy to data node "
                     << copy_->node << " complete";
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
  wire::OpHeader rh;
  rh.index = static_cast<uint16_t>(context_->group.self);
  rh.table_id = table_id;
  rh.table_version = tables_->Table(table_id)->def->version;
  rh.partition = p;
  const uint32_t destination = kOpsOn | copy_->conn;
  partition->Export(
      [&](storage::TxnId txn, absl::string_view key, absl::string_view row) {
        rh.txn = txn;
        rh.flags = txn == storage::kAutocommit ? wire::kReplicaCommitNow : 0;
        rh.type = row.empty() ? wire::OpType::kReplicaDelete : wire::OpType::kReplicaWrite;
        SendOp(sink, destination, rh, row.empty() ? key : row);
        ++context_->stats.copied_rows;
      },
      &row_);
  // The copied versions of prepared transactions stay theirs to the end, whatever fails.
  std::string tc;
  for (const auto& [txn, record] : txns_->primaries()) {
    if (!record.prepared() || !record.Holds(Touched{partition, table_id, p})) continue;
    tc.clear();
    wire::PutU32(&tc, static_cast<uint32_t>(record.tc));
    rh.type = wire::OpType::kReplicaPrepare;
    rh.flags = 0;
    rh.txn = txn;
    rh.tag = 0;
    SendOp(sink, destination, rh, tc);
  }
}

void PartitionCopier::SendProgress(ReplySink* sink) {
  wire::OpHeader progress;
  progress.type = wire::OpType::kCopyDone;
  progress.flags = copy_->complete ? wire::kCopyComplete : 0;
  progress.index = static_cast<uint16_t>(context_->group.self);
  progress.table_id = static_cast<uint32_t>(context_->placement.ldm_index);
  progress.partition = static_cast<uint32_t>(copy_->ldm_count);
  progress.tag = copy_->done.size();
  progress.txn = copy_->total;
  SendOp(sink, kOpsOn | copy_->conn, progress);
}

}  // namespace shoal::node
