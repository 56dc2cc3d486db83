// DirLock: one process's exclusive hold on a directory — an flock on DIR/LOCK, which the kernel
// releases when the process ends, however it ends. A data node holds its data directory so that
// a second process given the same directory (a management daemon started again while the nodes
// of its killed predecessor still run, or two nodes configured with one path) is refused before
// it reads or writes anything, instead of writing over the first one's redo and checkpoints.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal {

class DirLock {
 public:
  // Takes the lock without waiting. FailedPrecondition, naming the holder's pid, when another
  // process has it; `what` says what the directory is ("data directory").
  static absl::StatusOr<DirLock> Acquire(const std::string& dir, absl::string_view what);

  DirLock(DirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DirLock& operator=(DirLock&& other) noexcept;
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
  ~DirLock();

 private:
  explicit DirLock(int fd) : fd_(fd) {}

  int fd_;
};

}  // namespace shoal
