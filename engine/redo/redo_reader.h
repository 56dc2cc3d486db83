// Reading the redo back at recovery: every segment of a directory, stream by stream (one
// stream per (run, ldm), its segments in seq order), record by record, in chunks (a log of
// many gigabytes is never in memory at once; a record may span chunk borders).
//
// A stream ends at its first incomplete or corrupt record: what follows in that stream is not
// trusted (a crash tears only the tail; anything else is damage), and is reported in
// ReplayStats::stopped. Other streams go on.
//
// Stateless functions; safe from any thread (they only read files).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "engine/redo/redo_record.h"

namespace shoal::redo {

struct ReplayStats {
  uint64_t records = 0;  // read, markers included
  uint64_t applied = 0;  // passed to `apply`
  uint64_t bytes = 0;    // of records read
  uint64_t saved_epoch = 0;
  std::string stopped;  // empty, or per stream cut short: file, offset, reason, bytes ignored
};

// Reads every segment of `dir` in (run, ldm, seq) order, calling `apply` for each kWrite,
// kDelete and kTruncate record with from_epoch <= epoch <= to_epoch (the Record's views are
// valid only during the call). Per stream, saved epoch = its last kEpochSaved; the result's
// saved_epoch is the minimum over the streams of the last run (0 when there are none): the
// epoch this node's redo can restore to. `progress(bytes_done, bytes_total)` is called after
// every chunk. `*segment_max_epochs` (if not null) gets each segment's path and the max epoch
// of its records read; segments after a stream's stop get 0, as nothing in them counts (for
// RedoLog::AdoptOldSegments). An error only when a directory or file cannot be read.
absl::StatusOr<ReplayStats> ReplayRedo(
    const std::string& dir, uint64_t from_epoch, uint64_t to_epoch,
    absl::FunctionRef<void(const Record&)> apply,
    absl::FunctionRef<void(uint64_t, uint64_t)> progress,
    std::vector<std::pair<std::string, uint64_t>>* segment_max_epochs);

// Only the saved epoch of `dir`, as ReplayRedo computes it (reads the last run's streams).
absl::StatusOr<uint64_t> SavedEpoch(const std::string& dir);

}  // namespace shoal::redo
