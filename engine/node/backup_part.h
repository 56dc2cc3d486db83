// This data node's part of an online backup (docs/architecture.md, "Online backup"): exactly
// what a system restart of `stop_epoch` from this node's disk would read (restore.h) — the
// local checkpoint chosen for that epoch, linked into the backup (its files never change once
// complete), and the redo records from the checkpoint's start epoch to `stop_epoch`, copied out
// — so a backup costs the data-plane thread nothing and is consistent at the epoch on every
// node (the epoch is the cluster's cut: a two-phase commit's participants share it). The files
// are those of engine/backup/backup_files.h.
//
// Runs on a thread of its own (it reads the whole redo), never on the data-plane thread. The
// caller keeps the checkpoint and the redo it reads from being trimmed meanwhile
// (CheckpointRole::HoldTrims).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "engine/backup/backup.pb.h"
#include "engine/redo/node_state.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

struct BackupPartRequest {
  uint32_t backup_id = 0;
  int node_id = 0;
  int node_group = 0;
  int node_groups = 1;
  uint64_t stop_epoch = 0;
  std::string data_dir;
  std::string backup_dir;
  redo::NodeState state;  // as of a moment when stop_epoch was complete here
  wire::Dictionary dictionary;
};

// Writes the part into <backup_dir>/BACKUP-<id>/ and returns its manifest (written last). On
// an error, or once `cancelled` is set, what it wrote is removed.
absl::StatusOr<backup::Manifest> WriteBackupPart(const BackupPartRequest& request,
                                                 const std::atomic<bool>& cancelled);

// Removes this node's files of backup `backup_id` (and the directory once empty).
void RemoveBackupPart(const std::string& backup_dir, uint32_t backup_id, int node_id);

}  // namespace shoal::node
