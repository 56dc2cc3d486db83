// Small POSIX file helpers shared by the redo log, the checkpoint files and the node state
// file, and by the online backup's files (engine/backup, engine/node/backup_part): errno to
// absl::Status with the path in the message, whole writes over short writes, directory
// creation and fsync of files and directories. Internal to the engine.
//
// Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace shoal::redo::internal {

// "<op> <path>: <strerror(err)>", with a code that matches the errno (ENOSPC ->
// kResourceExhausted, ENOENT -> kNotFound, ...).
absl::Status ErrnoStatus(absl::string_view op, const std::string& path, int err);

// Writes all of `data` at `*offset` with pwrite(2), retrying short writes and EINTR, and
// advances `*offset` by what reached the file even when it fails: on error `*offset` says
// exactly how far the file now goes, so a caller can resume at the first unwritten byte.
absl::Status PwriteAll(int fd, const std::string& path, absl::string_view data, uint64_t* offset);

// Reads up to `size` bytes at `offset`, retrying EINTR and short reads until EOF; `*got` is
// what was read (less than `size` only at end of file).
absl::Status PreadAll(int fd, const std::string& path, char* buf, size_t size, uint64_t offset,
                      size_t* got);

// mkdir -p.
absl::Status MakeDirs(const std::string& dir);

// fsync(2) of a directory, so file creations, renames and unlinks in it are durable.
absl::Status SyncDir(const std::string& dir);
// fsync(2) of the file at `path`.
absl::Status SyncFile(const std::string& path);

// The directory part of `path` ("." when there is none).
std::string DirName(const std::string& path);

}  // namespace shoal::redo::internal
