#include "engine/node/plane/backup_role.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/backup/backup_files.h"
#include "engine/node/backup_part.h"

namespace shoal::node {

BackupRole::BackupRole(const DataPlaneOptions* options, EpochClock* clock, EpochRole* epoch,
                       CheckpointRole* checkpoint, const Dictionary* dictionary)
    : options_(options),
      clock_(clock),
      epoch_(epoch),
      checkpoint_(checkpoint),
      dictionary_(dictionary),
      backup_dir_(options->backup_dir),
      completed_metric_(options->metrics->GetCounter(
          "shoal_datanode_backups_total", "This node's parts of online backups, by outcome.",
          {{"outcome", "completed"}})),
      failed_metric_(options->metrics->GetCounter(
          "shoal_datanode_backups_total", "This node's parts of online backups, by outcome.",
          {{"outcome", "failed"}})) {
  if (!backup_dir_.empty()) {
    std::vector<uint32_t> ids = backup::BackupIds(backup_dir_);
    if (!ids.empty()) last_id_ = ids.back();
    for (uint32_t id : ids) {
      absl::StatusOr<backup::Manifest> manifest =
          backup::ReadManifest(absl::StrCat(backup_dir_, "/", backup::BackupDirName(id), "/",
                                            backup::ManifestFileName(id, options_->node_id)));
      if (manifest.ok()) Hold(*manifest);  // else not this node's, or incomplete
    }
  }
  Publish(report_);
}

// The parts SHOW BACKUPS lists: the latest ones, a heartbeat's worth.
void BackupRole::Hold(const backup::Manifest& manifest) {
  constexpr size_t kHeldReported = 20;
  control::BackupPart part;
  part.set_id(manifest.backup_id());
  part.set_stop_epoch(manifest.stop_epoch());
  part.set_bytes(manifest.data_bytes() + manifest.log_bytes());
  part.set_finished_unix_ms(manifest.finished_unix_ms());
  part.set_path(absl::StrCat(backup_dir_, "/", backup::BackupDirName(manifest.backup_id())));
  held_.push_back(std::move(part));
  if (held_.size() > kHeldReported) held_.erase(held_.begin());
}

BackupRole::~BackupRole() {
  if (job_ != nullptr) {
    job_->cancelled.store(true);
    retiring_.push_back(std::move(job_));
  }
  for (const auto& job : retiring_) {
    job->thread.join();
    RemoveBackupPart(backup_dir_, job->id, options_->node_id);
  }
}

void BackupRole::OnView(const control::BackupRun& run) {
  const bool mine = std::find(run.nodes().begin(), run.nodes().end(),
                              static_cast<uint32_t>(options_->node_id)) != run.nodes().end();
  if (phase_ == Phase::kNoted || phase_ == Phase::kWaiting || phase_ == Phase::kWriting) {
    if (run.id() != id_ || !mine) {
      Abandon("the backup was aborted");
      return;
    }
    if (phase_ == Phase::kNoted && run.stop_epoch() != 0) {
      stop_epoch_ = run.stop_epoch();
      phase_ = Phase::kWaiting;
      SHOAL_LOG(kInfo) << "backup " << id_ << ": stop epoch " << stop_epoch_;
    }
    return;
  }
  if (!mine || run.id() == 0 || run.id() == id_) return;
  if (run.id() <= last_id_) {
    // A backup of that id is on this disk already (an mgmd that restarted and had not heard
    // the nodes' ids yet): refused, so the mgmd aborts it and hands out a higher one.
    id_ = run.id();
    control::BackupReport report;
    report.set_state(control::BackupReport::FAILED);
    report.set_error(absl::StrCat("backup ", id_, " exists in ", backup_dir_,
                                  " already; the next START BACKUP takes a higher id"));
    Settle(Phase::kFailed, std::move(report));
    return;
  }
  Note(run);
}

void BackupRole::Note(const control::BackupRun& run) {
  id_ = run.id();
  last_id_ = std::max(last_id_, id_);
  stop_epoch_ = 0;
  if (options_->data_dir.empty() || backup_dir_.empty()) {
    control::BackupReport report;
    report.set_state(control::BackupReport::FAILED);
    report.set_error("this data node keeps nothing on disk (no data_dir)");
    Settle(Phase::kFailed, std::move(report));
    return;
  }
  phase_ = Phase::kNoted;
  dictionary_version_ = dictionary_->version();
  // Held from now, not only while the part is written: a checkpoint that ends after the stop
  // epoch must not trim the one before it, which is the one a part of that epoch starts from.
  checkpoint_->HoldTrims();
  holding_trims_ = true;
  control::BackupReport report;
  report.set_state(control::BackupReport::NOTED);
  report.set_current_epoch(clock_->current());
  SHOAL_LOG(kInfo) << "backup " << id_ << ": noted at epoch " << report.current_epoch();
  Publish(report);
  // The view may carry the stop epoch already (a view that arrived late).
  if (run.stop_epoch() != 0) OnView(run);
}

void BackupRole::Tick(absl::Time) {
  for (auto it = retiring_.begin(); it != retiring_.end();) {
    if (!(*it)->finished.load(std::memory_order_acquire)) {
      ++it;
      continue;
    }
    (*it)->thread.join();
    // It may have finished its files just before it saw the cancellation.
    RemoveBackupPart(backup_dir_, (*it)->id, options_->node_id);
    it = retiring_.erase(it);
  }
  if (phase_ == Phase::kWaiting) {
    if (epoch_->complete_epoch() < stop_epoch_) return;
    if (dictionary_->version() != dictionary_version_) {
      Abandon(absl::StrCat("a DDL statement ran during the backup (dictionary version ",
                           dictionary_version_, " became ", dictionary_->version(),
                           "); start it again"));
      return;
    }
    StartWriting();
  } else if (phase_ == Phase::kWriting && job_->finished.load(std::memory_order_acquire)) {
    job_->thread.join();
    absl::StatusOr<backup::Manifest> result = std::move(job_->result);
    job_.reset();
    Finish(std::move(result));
  }
}

void BackupRole::StartWriting() {
  BackupPartRequest request;
  request.backup_id = id_;
  request.node_id = options_->node_id;
  request.node_group = options_->node_group;
  request.node_groups = options_->node_groups;
  request.stop_epoch = stop_epoch_;
  request.data_dir = options_->data_dir;
  request.backup_dir = backup_dir_;
  request.state = epoch_->state();
  dictionary_->ToProto(&request.dictionary);
  job_ = std::make_unique<Job>();
  job_->id = id_;
  Job* job = job_.get();
  job->thread = std::thread([job, request = std::move(request)] {
    job->result = WriteBackupPart(request, job->cancelled);
    job->finished.store(true, std::memory_order_release);
  });
  phase_ = Phase::kWriting;
}

void BackupRole::Finish(absl::StatusOr<backup::Manifest> result) {
  control::BackupReport report;
  if (!result.ok()) {
    SHOAL_LOG(kWarning) << "backup " << id_ << " failed: " << result.status();
    report.set_state(control::BackupReport::FAILED);
    report.set_error(std::string(result.status().message()));
    failed_metric_->Increment();
    Settle(Phase::kFailed, std::move(report));
    return;
  }
  report.set_state(control::BackupReport::DONE);
  report.set_path(absl::StrCat(backup_dir_, "/", backup::BackupDirName(id_)));
  report.set_replay_from(result->replay_from());
  report.set_data_rows(result->data_rows());
  report.set_data_bytes(result->data_bytes());
  report.set_log_records(result->log_records());
  report.set_log_bytes(result->log_bytes());
  SHOAL_LOG(kInfo) << "backup " << id_ << " done in " << report.path() << ": " << report.data_rows()
                   << " rows, " << report.log_records() << " log records, epochs "
                   << report.replay_from() << ".." << stop_epoch_;
  completed_metric_->Increment();
  Hold(*result);
  Settle(Phase::kDone, std::move(report));
}

void BackupRole::Abandon(const std::string& why) {
  if (job_ != nullptr) {
    // Never waited for here: it may be reading a long redo. Its files go once it returns.
    job_->cancelled.store(true);
    retiring_.push_back(std::move(job_));
  } else {
    RemoveBackupPart(backup_dir_, id_, options_->node_id);
  }
  SHOAL_LOG(kWarning) << "backup " << id_ << " given up: " << why;
  failed_metric_->Increment();
  control::BackupReport report;
  report.set_state(control::BackupReport::FAILED);
  report.set_error(why);
  Settle(Phase::kFailed, std::move(report));
}

void BackupRole::Settle(Phase phase, control::BackupReport report) {
  phase_ = phase;
  if (holding_trims_) {
    checkpoint_->ReleaseTrims();
    holding_trims_ = false;
  }
  Publish(report);
}

void BackupRole::Publish(const control::BackupReport& report) {
  std::lock_guard<std::mutex> lock(report_mutex_);
  report_ = report;
  report_.set_id(id_);
  report_.set_last_id(last_id_);
  for (const control::BackupPart& part : held_) *report_.add_held() = part;
}

control::BackupReport BackupRole::Report() const {
  std::lock_guard<std::mutex> lock(report_mutex_);
  return report_;
}

}  // namespace shoal::node
