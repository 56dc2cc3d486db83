// The LDMs of this data node, on the data-plane thread or on their own.
#include "engine/node/plane/ldm_host.h"

#include <algorithm>
#include <utility>

#include "common/logging.h"
#include "common/status_macros.h"

namespace shoal::node {

LdmHost::LdmHost(const DataPlaneOptions* options, ReplySink* sink)
    : options_(options),
      sink_(sink),
      placement_{options->node_groups, options->replicas, 0, options->ldm_count},
      budget_(options->data_memory) {
  MetricsRegistry* m = options_->metrics;
  rows_metric_ = m->GetGauge("shoal_datanode_rows", "Rows held in this node's partitions.");
  memory_metric_ =
      m->GetGauge("shoal_datanode_data_memory_used_bytes", "Data memory reserved by partitions.");
  m->GetGauge("shoal_datanode_data_memory_limit_bytes", "The data_memory limit.")
      ->Set(static_cast<int64_t>(options_->data_memory));
}

void LdmHost::Start(const std::vector<LdmDurability>& durability) {
  for (int i = 0; i < options_->ldm_count; ++i) {
    PartitionPlacement placement{options_->node_groups, options_->replicas, options_->node_group,
                                 options_->ldm_count, i};
    ldms_.push_back(std::make_unique<Ldm>(
        placement, &budget_, options_->lock_wait_timeout,
        i < static_cast<int>(durability.size()) ? durability[i] : LdmDurability{}));
    ldms_.back()->WatchHolders(&holders_heard_);
  }
  batches_.resize(options_->ldm_count);
  batch_counts_.resize(options_->ldm_count);
}

absl::Status LdmHost::Launch() {
  if (!options_->ldm_threads) {
    for (int i = 0; i < static_cast<int>(ldms_.size()); ++i) {
      ldm_metrics_.emplace_back(options_->metrics, i);
    }
    return absl::OkStatus();
  }
  for (int i = 0; i < static_cast<int>(ldms_.size()); ++i) {
    SHOAL_ASSIGN_OR_RETURN(
        std::unique_ptr<LdmWorker> worker,
        LdmWorker::Start(std::move(ldms_[i]), i, options_->spin, options_->metrics));
    workers_.push_back(std::move(worker));
  }
  ldms_.clear();
  return absl::OkStatus();
}

Ldm* LdmHost::LdmForRestore(uint32_t partition) {
  SHOAL_CHECK(workers_.empty()) << "restore runs before the LDM threads start";
  return ldms_[placement_.LdmOf(partition)].get();
}

uint64_t LdmHost::MaxAutoIncrement(uint32_t table_id) const {
  uint64_t max = 0;
  for (const auto& ldm : ldms_) max = std::max(max, ldm->max_auto_increment(table_id));
  return max;
}

std::vector<int> LdmHost::doorbells() const {
  std::vector<int> fds;
  for (const auto& worker : workers_) fds.push_back(worker->results_fd());
  return fds;
}

void LdmHost::PushBatches(uint32_t conn, bool conn_dead) {
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    if (batch_counts_[ldm] > 0 && !conn_dead) {
      PushToLdm(ldm, [&](LdmWorker* worker) {
        return worker->PushOps(conn, batch_counts_[ldm], batches_[ldm]);
      });
    }
    batches_[ldm].clear();
    batch_counts_[ldm] = 0;
  }
}

void LdmHost::RunOne(uint32_t partition, absl::string_view body, uint32_t conn) {
  int ldm = placement_.LdmOf(partition);
  if (workers_.empty()) {
    wire::Op op;
    if (wire::DecodeOp(&body, &op) == wire::DecodeStatus::kOk) {
      ldms_[ldm]->Execute(op, conn, sink_);
    }
  } else {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushOps(conn, 1, body); });
    workers_[ldm]->Flush();
  }
}

bool LdmHost::FlushAndDrain() {
  for (auto& worker : workers_) worker->Flush();
  return DrainResults();
}

bool LdmHost::DrainResults() {
  bool any = false;
  for (auto& worker : workers_) any |= worker->DrainResults(sink_);
  return any;
}

void LdmHost::ConnectionClosed(uint32_t conn) {
  for (auto& ldm : ldms_) ldm->ConnectionClosed(conn, sink_);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushConnectionClosed(conn); });
  }
}

void LdmHost::ApplyDelta(const DictionaryDelta& delta) {
  for (auto& ldm : ldms_) ldm->Apply(delta);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushDelta(delta); });
    workers_[ldm]->Flush();
  }
}

void LdmHost::SetGroup(const GroupView& group) {
  for (auto& ldm : ldms_) ldm->SetGroup(group, sink_);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushGroup(group); });
    workers_[ldm]->Flush();
  }
}

void LdmHost::StartCopy(int node, uint32_t conn, uint64_t since_epoch) {
  int ldm_count = options_->ldm_count;
  for (auto& ldm : ldms_) ldm->StartCopy(node, conn, ldm_count, 4096, since_epoch);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) {
      return worker->PushStartCopy(node, conn, ldm_count, since_epoch);
    });
    workers_[ldm]->Flush();
  }
}

bool LdmHost::copying() const {
  bool copying = false;
  for (const auto& ldm : ldms_) copying |= ldm->copying();
  return copying;
}

bool LdmHost::CopyStep() {
  bool copied = false;
  for (auto& ldm : ldms_) copied |= ldm->CopyStep(sink_);
  return copied;
}

void LdmHost::StartCheckpoint(const std::vector<std::shared_ptr<CheckpointPart>>& parts) {
  const absl::Time now = absl::Now();
  for (size_t i = 0; i < ldms_.size(); ++i) ldms_[i]->StartCheckpoint(parts[i], now);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushStartCheckpoint(parts[ldm]); });
    workers_[ldm]->Flush();
  }
}

bool LdmHost::CheckpointStep(absl::Time now) {
  bool stepped = false;
  for (auto& ldm : ldms_) stepped |= ldm->CheckpointStep(now);
  return stepped;
}

void LdmHost::ExpireLockWaits(absl::Time now) {
  for (auto& ldm : ldms_) {
    if (ldm->has_parked()) ldm->ExpireLockWaits(now, sink_);
  }
}

void LdmHost::ReportStuckWaits(absl::Time now, absl::Duration age) {
  for (auto& ldm : ldms_) ldm->ReportStuckWaits(now, age);
}

bool LdmHost::has_timed_work() const {
  bool parked = false;
  for (const auto& ldm : ldms_) {
    parked |= ldm->has_parked() || ldm->copying() || ldm->checkpointing();
  }
  return parked;
}

bool LdmHost::PrepareToSleep() {
  size_t prepared = 0;
  for (; prepared < workers_.size(); ++prepared) {
    if (!workers_[prepared]->PrepareToSleep()) break;
  }
  if (prepared < workers_.size()) {
    for (size_t i = 0; i < prepared; ++i) workers_[i]->WokeUp();
    return false;
  }
  return true;
}

void LdmHost::WokeUp() {
  for (auto& worker : workers_) worker->WokeUp();
}

void LdmHost::PublishStats() {
  int64_t rows = 0;
  for (size_t i = 0; i < ldms_.size(); ++i) {
    rows += static_cast<int64_t>(ldms_[i]->row_count());
    ldm_metrics_[i].Publish(*ldms_[i]);
  }
  for (auto& worker : workers_) rows += worker->rows();
  rows_metric_->Set(rows);
  memory_metric_->Set(static_cast<int64_t>(budget_.used()));
}

}  // namespace shoal::node
