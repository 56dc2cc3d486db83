// What a data node keeps in its data directory (docs/architecture.md, "Durability"):
//
//   node.state       redo::NodeState: runs, the last complete epoch, what can be restored
//   dictionary.pb    the dictionary (wire::Dictionary), rewritten at every change
//   redo/            the redo log: one stream of segments per LDM and run (engine/redo/)
//   checkpoints/     local checkpoints, one file per LDM each
#pragma once

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/redo/node_state.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

std::string RedoDir(const std::string& data_dir);
std::string CheckpointDir(const std::string& data_dir);

// Writes `dictionary` atomically (a new file renamed over the old, synced).
absl::Status SaveDictionary(const std::string& data_dir, const wire::Dictionary& dictionary);
// nullopt: none saved. An unreadable file is an error (DataLoss) that names it.
absl::StatusOr<std::optional<wire::Dictionary>> LoadDictionary(const std::string& data_dir);

// Removes the dictionary, the redo and the checkpoints (the node state stays): the node starts
// empty, or copies everything from a peer.
absl::Status RemoveNodeData(const std::string& data_dir);
// Removes the redo segments of runs before `first_run` (their rows are in later ones).
void RemoveRunsBefore(const std::string& data_dir, uint32_t first_run);
// Removes the local checkpoints `state` names neither as its checkpoint nor as the previous
// one: one a crash interrupted (a torn file), or one replaced after the state was written.
void RemoveCheckpointsNotIn(const std::string& data_dir, const redo::NodeState& state);

}  // namespace shoal::node
