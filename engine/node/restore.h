// A system restart of one data node (docs/architecture.md, "Durability"): brings its LDMs'
// partitions — created empty from the dictionary on disk — to exactly the commits of one
// epoch: the last local checkpoint that may serve it, then the redo after that checkpoint up to
// the epoch. Each row is applied as committed and logged again (Ldm::RestoreWrite), so once the
// new run's redo is saved, the files of earlier runs can go.
//
// Runs on the thread that starts the data plane, before the LDM threads start and before the
// node serves.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/node/node_files.h"
#include "engine/node/plane/ldm_host.h"
#include "engine/redo/node_state.h"

namespace shoal::node {

struct RestoreStats {
  uint64_t checkpoint_id = 0;  // 0: none used
  uint64_t checkpoint_rows = 0;
  uint64_t redo_records = 0;  // read from the redo, of every epoch
  uint64_t redo_applied = 0;  // of the epochs restored
  uint64_t skipped = 0;       // rows of tables dropped since
  std::string stopped;        // where the redo ended early (a torn or corrupt tail), if it did
  absl::Duration took;
};

// The local checkpoint a restore of `epoch` starts from: the newest whose rows are all of
// epochs <= `epoch` (it ended before `epoch` did). id 0: none; the redo from replay_from (0)
// holds everything.
struct CheckpointChoice {
  uint64_t id = 0;
  uint64_t replay_from = 0;  // redo epochs before this are in the checkpoint
  uint64_t end = 0;          // no row of it is of a later epoch
};
CheckpointChoice ChooseCheckpoint(const redo::NodeState& state, uint64_t epoch);

// `progress(phase, percent)`: "restoring checkpoint" and "applying redo", percent of bytes.
absl::StatusOr<RestoreStats> RestoreFromDisk(
    const std::string& data_dir, const redo::NodeState& state, uint64_t epoch, LdmHost* ldms,
    const std::function<void(const std::string& phase, int percent)>& progress);

}  // namespace shoal::node
