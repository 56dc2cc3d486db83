#include "engine/node/restore.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_reader.h"

namespace shoal::node {
namespace {

int Percent(uint64_t done, uint64_t total) {
  return total == 0 ? 100 : static_cast<int>(std::min<uint64_t>(100, done * 100 / total));
}

}  // namespace

CheckpointChoice ChooseCheckpoint(const redo::NodeState& state, uint64_t epoch) {
  if (state.checkpoint_id != 0 && state.checkpoint_end_epoch <= epoch) {
    return {state.checkpoint_id, state.checkpoint_start_epoch, state.checkpoint_end_epoch};
  }
  if (state.prev_checkpoint_id != 0 && state.prev_checkpoint_end_epoch <= epoch) {
    return {state.prev_checkpoint_id, state.prev_checkpoint_start_epoch,
            state.prev_checkpoint_end_epoch};
  }
  return {};
}

absl::StatusOr<RestoreStats> RestoreFromDisk(
    const std::string& data_dir, const redo::NodeState& state, uint64_t epoch, LdmHost* ldms,
    const std::function<void(const std::string& phase, int percent)>& progress) {
  const absl::Time start = absl::Now();
  RestoreStats stats;
  CheckpointChoice checkpoint = ChooseCheckpoint(state, epoch);
  if (checkpoint.id != 0) {
    stats.checkpoint_id = checkpoint.id;
    progress("restoring checkpoint", 0);
    const std::vector<std::string> files =
        redo::CheckpointFiles(CheckpointDir(data_dir), checkpoint.id);
    // The redo before the checkpoint is gone: a missing LDM file would lose its rows silently.
    if (state.ldm_count != 0 && files.size() != state.ldm_count) {
      return absl::DataLossError(absl::StrCat("local checkpoint ", checkpoint.id, " has ",
                                              files.size(), " file(s) in ", CheckpointDir(data_dir),
                                              ", expected ", state.ldm_count));
    }
    for (const std::string& path : files) {
      absl::Status read = redo::ReadCheckpoint(
          path,
          [&](uint32_t table_id, uint32_t partition, absl::string_view, absl::string_view row) {
            // A checkpoint's rows are of epochs up to its end, which they are stamped with: a
            // copy to this node since an epoch must not take a row for older than it is.
            if (ldms->LdmForRestore(partition)->RestoreWrite(table_id, partition, row,
                                                             checkpoint.end)) {
              ++stats.checkpoint_rows;
            } else {
              ++stats.skipped;
            }
          },
          [&](uint64_t done, uint64_t total) {
            progress("restoring checkpoint", Percent(done, total));
          });
      if (!read.ok()) {
        return absl::DataLossError(
            absl::StrCat("local checkpoint ", checkpoint.id, ": ", read.message()));
      }
    }
  }
  progress("applying redo", 0);
  std::vector<std::pair<std::string, uint64_t>> segments;
  absl::StatusOr<redo::ReplayStats> replay = redo::ReplayRedo(
      RedoDir(data_dir), checkpoint.replay_from, epoch,
      [&](const redo::Record& record) {
        Ldm* ldm = ldms->LdmForRestore(record.partition);
        bool applied = false;
        switch (record.type) {
          case redo::RecordType::kWrite:
            applied =
                ldm->RestoreWrite(record.table_id, record.partition, record.row, record.epoch);
            break;
          case redo::RecordType::kDelete:
            applied =
                ldm->RestoreDelete(record.table_id, record.partition, record.key, record.epoch);
            break;
          case redo::RecordType::kTruncate:
            applied = ldm->RestoreTruncate(record.table_id, record.partition, record.epoch);
            break;
          case redo::RecordType::kEpochSaved:
            applied = true;
            break;
        }
        if (!applied) ++stats.skipped;
      },
      [&](uint64_t done, uint64_t total) { progress("applying redo", Percent(done, total)); },
      &segments);
  if (!replay.ok()) return replay.status();
  stats.redo_records = replay->records;
  stats.redo_applied = replay->applied;
  stats.stopped = replay->stopped;
  stats.took = absl::Now() - start;
  return stats;
}

}  // namespace shoal::node
