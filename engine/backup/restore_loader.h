// shoal-restore's work (NDB's ndb_restore, simpler): restores backup <id> into a running
// cluster — possibly another one, with other data nodes and node groups — from the parts its
// data nodes wrote (backup_files.h). It reads one part per node group (ChooseParts), makes
// the metadata (restore_metadata.h), loads every row of every part as of the stop epoch
// through the native client (RowPipeline: upserts, many in flight) into the target's table
// of the same database and name, and then moves each AUTO_INCREMENT (or hidden key) counter
// past the largest value it restored.
//
// Parts are read one at a time, each whole into memory first (backup_reader.h).
//
// Used from one thread; blocks (a tool's main).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/api/cluster.h"
#include "engine/backup/backup_reader.h"
#include "engine/backup/restore_metadata.h"

namespace shoal::backup {

struct RestoreOptions {
  uint32_t backup_id = 0;
  // Data nodes' backup directories (holding BACKUP-<id>/) or BACKUP-<id> directories.
  std::vector<std::string> backup_paths;
  bool metadata = true;   // create databases, tables and views (refused if one exists)
  bool data = true;       // load the rows; their tables must exist on the target
  bool accounts = false;  // replace the target's accounts with the backup's
  int parallelism = 256;  // writes in flight
};

struct RestoreSummary {
  uint32_t backup_id = 0;
  uint64_t stop_epoch = 0;
  std::vector<uint32_t> nodes;  // whose parts were read, by node group
  size_t tables = 0;            // created, or (without metadata) loaded into
  uint64_t rows = 0;            // written to the target
  uint64_t log_records = 0;     // applied from the parts' logs
  uint64_t skipped = 0;         // rows and records of tables not restored
  absl::Duration took;
};

// The parts of backup `options.backup_id` to restore, one per node group (FindParts over
// `options.backup_paths`, then ChooseParts): NotFound when there is none, the reasons of
// ChooseParts when they do not make a whole backup, NotFound when a chosen part lacks a file
// (CheckPartFiles). Reads manifests only.
absl::StatusOr<std::vector<Part>> PartsToRestore(const RestoreOptions& options);

// Restores `parts` (from PartsToRestore; the first one's dictionary is the metadata) into
// `cluster` (its view set: data nodes to reach). `note` gets the progress, one line at a time.
// An error names what failed; what was done before it stays done (tables created, rows
// written).
absl::StatusOr<RestoreSummary> RunRestore(const RestoreOptions& options,
                                          const std::vector<Part>& parts, api::Cluster* cluster,
                                          const NoteFn& note);

// The one line a restore's summary prints: "restored backup 7 (stop epoch 1234, nodes 2, 4):
// 5 tables, 120000 rows, 3400 log records applied, 12.34 seconds" (", 9 skipped (of tables not
// restored)" before the seconds when rows or records of unknown tables or ALTER copies were).
std::string SummaryLine(const RestoreSummary& summary);

}  // namespace shoal::backup
