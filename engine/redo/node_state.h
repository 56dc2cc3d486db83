// The node's small control file, <data_dir>/node.state (NDB's sysfile): how many times the
// node started, the cluster-wide complete epoch it last heard of, what its disk can restore
// and which local checkpoints are usable. Replaced atomically (write a temporary file, fsync,
// rename, fsync the directory) and checksummed, so a crash leaves the old or the new state.
//
// File (every integer little-endian):
//   u32 magic "SNST" | u32 version (1) | u32 body_length | u32 crc32c(body) | body
//   body (v1): u32 run | u64 complete_epoch | u64 restorable_from | u64 checkpoint_id |
//              u64 checkpoint_start_epoch | u64 checkpoint_end_epoch | u64 prev_checkpoint_id |
//              u64 prev_checkpoint_start_epoch | u64 prev_checkpoint_end_epoch | u32 ldm_count
//
// Stateless functions; safe from any thread (but one writer per data_dir at a time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::redo {

struct NodeState {
  uint32_t run = 0;             // starts so far (incremented at each start)
  uint64_t complete_epoch = 0;  // the last epoch this node was told is complete cluster-wide
  // This node's disk restores only to epochs >= this (0: not restorable, e.g. it never had
  // data, or it was mid-copy).
  uint64_t restorable_from = 0;
  uint64_t checkpoint_id = 0;           // the last complete local checkpoint (0: none)
  uint64_t checkpoint_start_epoch = 0;  // redo is replayed from here over that checkpoint
  uint64_t checkpoint_end_epoch = 0;    // the checkpoint restores only epochs >= this
  uint64_t prev_checkpoint_id = 0, prev_checkpoint_start_epoch = 0, prev_checkpoint_end_epoch = 0;
  uint32_t ldm_count = 0;
  // Redo segments of earlier runs are obsolete (a restore logged their rows again, or a copy
  // replaced them): recovery removes them unread.
  uint32_t first_run = 0;

  bool operator==(const NodeState&) const = default;
};

inline constexpr char kNodeStateFile[] = "node.state";

// nullopt: no file (a fresh node). An error (kDataLoss) names the file and what is wrong when
// it is corrupt; other errors when it cannot be read.
absl::StatusOr<std::optional<NodeState>> ReadNodeState(const std::string& data_dir);
// Replaces <data_dir>/node.state atomically and durably (creates data_dir if needed).
absl::Status WriteNodeState(const std::string& data_dir, const NodeState& state);

// The file's bytes, and back. ParseNodeState returns kDataLoss for anything malformed.
std::string SerializeNodeState(const NodeState& state);
absl::StatusOr<NodeState> ParseNodeState(absl::string_view bytes);

}  // namespace shoal::redo
