// Online backup files (docs/architecture.md, "Online backup"). Each data node writes its part
// of backup <id> into <backup_dir>/BACKUP-<id>/ (backup_dir: the node's `backup_dir`, by default
// <data_dir>/backups):
//
//   BACKUP-<id>.<node>.ctl        the Manifest (backup.proto), written last: a part without it
//                                 is incomplete. u32 magic "SHBK" | u32 crc32c(body) | body.
//   BACKUP-<id>-<ldm>.<node>.data one per LDM: the rows of the local checkpoint the part starts
//                                 from, in the checkpoint file format (redo/checkpoint.h)
//   BACKUP-<id>.<node>.log        redo records (redo/redo_record.h: kWrite, kDelete, kTruncate)
//                                 of epochs replay_from..stop_epoch, in the order to apply them
//
// A node's part holds its node group's partitions as they were at the stop epoch: the data
// files' rows, then the log applied over them in order (after-images and deletes by stored key,
// a truncation empties a partition). Each replica of a group holds the same rows; a restore
// takes one part per node group. Several nodes on one host may share a backup directory: the
// node id in the names keeps their files apart.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/backup/backup.pb.h"

namespace shoal::backup {

// "BACKUP-<id>": the directory of backup <id> under a backup directory.
std::string BackupDirName(uint32_t backup_id);
std::string ManifestFileName(uint32_t backup_id, int node_id);
std::string DataFileName(uint32_t backup_id, int ldm, int node_id);
std::string LogFileName(uint32_t backup_id, int node_id);

// Writes the manifest atomically (a temporary file renamed over, file and directory synced).
absl::Status WriteManifest(const std::string& dir, const Manifest& manifest);
// Reads and checks one manifest file (kDataLoss when it is corrupt).
absl::StatusOr<Manifest> ReadManifest(const std::string& path);
// The same over a manifest file's bytes; `name` is for the messages.
absl::StatusOr<Manifest> ParseManifest(absl::string_view bytes, const std::string& name);
// Every complete part in `dir` (a BACKUP-<id> directory), by node id.
absl::StatusOr<std::vector<Manifest>> ReadManifests(const std::string& dir);
// The ids of the backups under `backup_dir` (BACKUP-<id> directories), ascending.
std::vector<uint32_t> BackupIds(const std::string& backup_dir);

}  // namespace shoal::backup
