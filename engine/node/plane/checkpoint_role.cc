#include "engine/node/plane/checkpoint_role.h"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/node/node_files.h"
#include "engine/redo/checkpoint.h"

namespace shoal::node {
namespace {

// Looking at the redo's size costs atomics and a walk of the view: not every loop turn.
constexpr absl::Duration kCheckInterval = absl::Milliseconds(10);
// A checkpoint that failed (a full disk, say) is tried again after this; the redo keeps
// everything meanwhile.
constexpr absl::Duration kRetryInterval = absl::Seconds(10);
constexpr absl::Duration kMeasureInterval = absl::Seconds(1);

int64_t DirectoryBytes(const std::string& dir) {
  std::error_code ec;
  int64_t bytes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::error_code size_ec;
    const uintmax_t size = entry.file_size(size_ec);
    if (!size_ec) bytes += static_cast<int64_t>(size);
  }
  return bytes;
}

}  // namespace

CheckpointRole::CheckpointRole(const DataPlaneOptions* options, const NodeView* view,
                               EpochClock* clock, LdmHost* ldms, EpochRole* epoch,
                               std::vector<redo::RedoLog*> logs, redo::RedoWriter* writer)
    : options_(options),
      view_(view),
      clock_(clock),
      ldms_(ldms),
      epoch_(epoch),
      logs_(std::move(logs)),
      writer_(writer),
      checkpoint_dir_(CheckpointDir(options->data_dir)),
      redo_dir_(RedoDir(options->data_dir)),
      redo_on_disk_(std::make_shared<std::atomic<int64_t>>(0)) {
  MetricsRegistry* m = options_->metrics;
  checkpoints_metric_ = m->GetCounter("shoal_datanode_checkpoints_total",
                                      "Local checkpoints this data node completed.");
  rows_metric_ =
      m->GetGauge("shoal_datanode_checkpoint_rows", "Rows in the last local checkpoint.");
  bytes_metric_ =
      m->GetGauge("shoal_datanode_checkpoint_bytes", "Bytes written by the last local checkpoint.");
  seconds_metric_ = m->GetGauge("shoal_datanode_checkpoint_seconds",
                                "How long the last local checkpoint took, in whole seconds.");
  redo_bytes_metric_ =
      m->GetGauge("shoal_datanode_redo_bytes", "Bytes of redo log on this data node's disk now.");
  redo_written_metric_ = m->GetCounter("shoal_datanode_redo_written_bytes_total",
                                       "Bytes of redo log this data node wrote since it started.");
}

CheckpointRole::~CheckpointRole() {
  if (current_ == nullptr) return;
  // The LDMs stop scanning; the last owner of each part removes its unfinished file.
  for (const auto& part : current_->parts) part->cancelled.store(true, std::memory_order_release);
}

uint64_t CheckpointRole::RedoWritten() const {
  uint64_t bytes = 0;
  for (const redo::RedoLog* log : logs_) bytes += log->bytes_written();
  return bytes;
}

bool CheckpointRole::Due() const {
  // Only a complete replica is worth keeping: a node still copying has no data of its own.
  if (!view_->SelfStarted()) return false;
  return due_ || RedoWritten() - redo_at_last_start_ >= options_->checkpoint_after_redo;
}

bool CheckpointRole::WriterSucceeded(absl::Time now) {
  if (!current_->io_done.load(std::memory_order_acquire)) return false;
  if (current_->io_status.ok()) return true;
  Abandon(now, current_->io_status);
  return false;
}

void CheckpointRole::Tick(absl::Time now) {
  if (writer_ == nullptr) return;
  switch (phase_) {
    case Phase::kIdle:
      if (now < next_check_) return;
      next_check_ = now + kCheckInterval;
      if (Due()) Begin(now);
      return;
    case Phase::kOpening:
      if (!WriterSucceeded(now)) return;
      ldms_->StartCheckpoint(current_->parts);
      phase_ = Phase::kScanning;
      return;
    case Phase::kScanning: {
      bool scanned = true;
      for (const auto& part : current_->parts) {
        if (part->failed()) {
          Abandon(now, part->error());
          return;
        }
        scanned &= part->scanned.load(std::memory_order_acquire);
      }
      if (scanned) Scanned();
      return;
    }
    case Phase::kFinishing:
      if (!WriterSucceeded(now)) return;
      Finished(now);
      return;
    case Phase::kTrimming:
      // Recorded in the node state too: EpochRole posted that write before we post the trim.
      // Held while a backup reads the previous checkpoint and the redo after it.
      if (trim_holds_ == 0 && epoch_->complete_epoch() >= current_->end_epoch) Trim();
      return;
  }
}

void CheckpointRole::Begin(absl::Time now) {
  const uint64_t written = RedoWritten();
  auto checkpoint = std::make_shared<Checkpoint>();
  checkpoint->id = epoch_->state().checkpoint_id + 1;
  // Every commit of an epoch before the current one's predecessor is applied here already;
  // those of the predecessor may still be on their way, so the redo replays from it.
  checkpoint->start_epoch = std::max(clock_->current() - 1, min_start_epoch_);
  checkpoint->started = now;
  const int ldm_count = std::max(1, options_->ldm_count);
  for (int i = 0; i < ldm_count; ++i) {
    auto part = std::make_shared<CheckpointPart>();
    part->id = checkpoint->id;
    part->io = writer_;
    part->bytes_per_second = std::max<uint64_t>(1, options_->checkpoint_write_rate / ldm_count);
    checkpoint->parts.push_back(std::move(part));
  }
  SHOAL_LOG(kInfo) << "local checkpoint " << checkpoint->id << " starts at epoch "
                   << checkpoint->start_epoch << " ("
                   << (due_ ? std::string("after a restore")
                            : absl::StrCat(written - redo_at_last_start_,
                                           " bytes of redo since the last"))
                   << ")";
  current_ = std::move(checkpoint);
  redo_at_last_start_ = written;
  due_ = false;
  phase_ = Phase::kOpening;
  PostIo([dir = checkpoint_dir_](Checkpoint* c) {
    for (size_t i = 0; i < c->parts.size(); ++i) {
      SHOAL_ASSIGN_OR_RETURN(c->parts[i]->file,
                             redo::CheckpointWriter::Create(dir, c->id, static_cast<int>(i)));
    }
    return absl::OkStatus();
  });
}

void CheckpointRole::Scanned() {
  phase_ = Phase::kFinishing;
  // After every write the LDMs posted: a part whose writes failed is not finished, or its
  // file would look whole with blocks missing.
  PostIo([](Checkpoint* c) {
    for (const auto& part : c->parts) {
      if (part->failed()) return part->error();
      SHOAL_RETURN_IF_ERROR(part->file->Finish());
    }
    return absl::OkStatus();
  });
}

void CheckpointRole::Finished(absl::Time now) {
  Checkpoint& c = *current_;
  // Every row scanned was committed in this epoch or an earlier one: a restore of this epoch
  // or a later one may load the checkpoint.
  c.end_epoch = clock_->current();
  uint64_t rows = 0;
  uint64_t bytes = 0;
  for (const auto& part : c.parts) {
    rows += part->rows.load(std::memory_order_relaxed);
    bytes += part->file->bytes();
  }
  epoch_->CheckpointDone(c.id, c.start_epoch, c.end_epoch, static_cast<uint32_t>(c.parts.size()));
  const absl::Duration took = now - c.started;
  checkpoints_metric_->Increment();
  rows_metric_->Set(static_cast<int64_t>(rows));
  bytes_metric_->Set(static_cast<int64_t>(bytes));
  seconds_metric_->Set(absl::ToInt64Seconds(took + absl::Milliseconds(500)));
  SHOAL_LOG(kInfo) << "local checkpoint " << c.id << " complete: " << rows << " rows, " << bytes
                   << " bytes in " << absl::FormatDuration(took) << "; restores epochs from "
                   << c.end_epoch << " with the redo from epoch " << c.start_epoch;
  c.parts.clear();  // finished and closed: nothing left to remove
  phase_ = Phase::kTrimming;
}

void CheckpointRole::Trim() {
  const uint64_t prev = epoch_->state().prev_checkpoint_id;
  const uint64_t start_epoch = current_->start_epoch;
  // The node state stops naming the previous checkpoint before its files and the redo it
  // needs go (both on the writer thread, in this order).
  if (prev != 0) epoch_->ForgetPrevCheckpoint();
  writer_->Post([dir = checkpoint_dir_, prev, start_epoch, logs = logs_] {
    if (prev != 0) redo::RemoveCheckpoint(dir, prev);
    for (redo::RedoLog* log : logs) log->TrimBelow(start_epoch);
  });
  MeasureRedo();
  current_.reset();
  phase_ = Phase::kIdle;
}

void CheckpointRole::Abandon(absl::Time now, const absl::Status& why) {
  SHOAL_LOG(kWarning) << "local checkpoint " << current_->id << " abandoned: " << why
                      << "; another in " << absl::FormatDuration(kRetryInterval);
  for (const auto& part : current_->parts) part->cancelled.store(true, std::memory_order_release);
  // The files go with their last owner; let that be the I/O thread, not this one.
  writer_->Post([checkpoint = std::move(current_)] { checkpoint->parts.clear(); });
  next_check_ = now + kRetryInterval;
  phase_ = Phase::kIdle;
}

void CheckpointRole::PostIo(std::function<absl::Status(Checkpoint*)> fn) {
  current_->io_done.store(false, std::memory_order_relaxed);
  writer_->Post([checkpoint = current_, fn = std::move(fn)] {
    checkpoint->io_status = fn(checkpoint.get());
    checkpoint->io_done.store(true, std::memory_order_release);
  });
}

void CheckpointRole::MeasureRedo() {
  writer_->Post([dir = redo_dir_, out = redo_on_disk_] { out->store(DirectoryBytes(dir)); });
}

void CheckpointRole::PublishStats(absl::Time now) {
  if (writer_ == nullptr) return;
  if (now >= next_measure_) {
    next_measure_ = now + kMeasureInterval;
    MeasureRedo();
  }
  redo_bytes_metric_->Set(redo_on_disk_->load());
  const uint64_t written = RedoWritten();
  redo_written_metric_->Increment(static_cast<int64_t>(written - redo_written_published_));
  redo_written_published_ = written;
}

}  // namespace shoal::node
