#include "common/dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace shoal {

absl::StatusOr<DirLock> DirLock::Acquire(const std::string& dir, absl::string_view what) {
  const std::string path = dir + "/LOCK";
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot open ", path, " to lock the ", what, ": ", std::strerror(errno)));
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char text[32] = {};
    const ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
    close(fd);
    if (error != EWOULDBLOCK) {
      return absl::UnavailableError(
          absl::StrCat("cannot lock the ", what, " ", dir, ": ", std::strerror(error)));
    }
    int holder = 0;
    const bool known =
        n > 0 && absl::SimpleAtoi(absl::StripAsciiWhitespace(absl::string_view(text, n)), &holder);
    return absl::FailedPreconditionError(
        absl::StrCat("the ", what, " ", dir, " is in use by ",
                     known ? absl::StrCat("process ", holder) : std::string("another process"),
                     ": a directory serves one process at a time"));
  }
  // The holder's pid, for the message above: only informative, the lock is the flock.
  const std::string pid = absl::StrCat(getpid(), "\n");
  if (ftruncate(fd, 0) != 0 || pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The lock holds all the same; a refused process then names no pid.
  }
  return DirLock(fd);
}

DirLock& DirLock::operator=(DirLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

DirLock::~DirLock() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace shoal
