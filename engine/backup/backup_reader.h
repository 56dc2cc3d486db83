// Reading backups back (backup_files.h): finding the parts of a backup in the directories an
// operator names, choosing the ones a restore reads — one per node group, since every replica
// of a group holds the same rows — and reading one part's rows as they were at the stop
// epoch: the data files' rows, then the log applied over them in order.
//
// Memory: ReadPart holds one part's rows at once — every row of its node group, keyed by
// (table id, partition) and then by stored key, in hash maps — so a restore needs about one
// data node's data memory plus the maps' overhead (~100 bytes a row). It has to: a row of a
// data file may be overwritten or deleted by any record of the log, so no row can be handed
// on before the whole log is read.
//
// Stateless functions; safe from any thread (they only read files).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/backup/backup.pb.h"
#include "engine/schema/schema.h"

namespace shoal::backup {

// One data node's complete part of a backup: its manifest and the directory of its files.
struct Part {
  std::string dir;  // the BACKUP-<id> directory
  Manifest manifest;
};

// Every complete part (one with its manifest) of backup `backup_id` under `paths`, each a data
// node's backup directory (holding BACKUP-<id>/) or a BACKUP-<id> directory itself; a
// directory named twice is read once. NotFound when a path holds no BACKUP-<id> directory;
// kDataLoss when a manifest there is corrupt. Parts are in the order found (paths in order,
// node ids ascending within one).
absl::StatusOr<std::vector<Part>> FindParts(uint32_t backup_id,
                                            const std::vector<std::string>& paths);

// The parts a restore reads, by node group (0 … node_groups - 1): for each group its part of
// the lowest node id. Refuses (kFailedPrecondition, saying which) parts of different backups,
// parts that disagree on the stop epoch or the number of node groups, and a node group with
// no part; NotFound when `parts` is empty; kDataLoss when a part names no node groups or a
// group beyond them.
absl::StatusOr<std::vector<Part>> ChooseParts(const std::vector<Part>& parts);

// Whether every file `part`'s manifest names is in its directory: NotFound naming the first
// one missing. Only looks (stat): a restore checks its parts before it changes the target.
absl::Status CheckPartFiles(const Part& part);

struct PartStats {
  uint64_t data_rows = 0;    // read from the data files, of tables the dictionary has
  uint64_t log_records = 0;  // of the log applied, of tables the dictionary has
  uint64_t skipped = 0;      // rows and records of table ids the dictionary does not have
  uint64_t rows = 0;         // delivered: the part's rows at the stop epoch
  uint64_t bytes = 0;        // of its data and log files
};

// Reads `part` (its data files, then its log) and calls `row` for every row its partitions
// held at the stop epoch, with the row's table as the part's dictionary defines it and the
// packed row over all of its columns (both valid during the call only); in order of table id
// and partition, rows of one partition in no particular order. `progress(done, total)`
// follows the bytes of its files read. Rows of table ids the dictionary lacks are skipped
// and counted. Rows are delivered only once every file was read whole: an error (kDataLoss for
// a torn or corrupt file or a malformed row, NotFound for a missing one) delivers none.
// A non-OK status from `row` stops the delivery and is returned.
absl::StatusOr<PartStats> ReadPart(
    const Part& part,
    absl::FunctionRef<absl::Status(const schema::TableDef& source_table, absl::string_view row)>
        row,
    absl::FunctionRef<void(uint64_t bytes_done, uint64_t bytes_total)> progress);

}  // namespace shoal::backup
