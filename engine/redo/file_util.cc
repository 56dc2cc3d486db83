#include "engine/redo/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace shoal::redo::internal {

absl::Status ErrnoStatus(absl::string_view op, const std::string& path, int err) {
  std::string message = absl::StrCat(op, " ", path, ": ", std::strerror(err));
  switch (err) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return absl::ResourceExhaustedError(message);
    case ENOENT:
      return absl::NotFoundError(message);
    case EEXIST:
      return absl::AlreadyExistsError(message);
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::Status PwriteAll(int fd, const std::string& path, absl::string_view data, uint64_t* offset) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done, static_cast<off_t>(*offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("write", path, errno);
    }
    if (n == 0) return ErrnoStatus("write", path, ENOSPC);  // no progress: treat as a full disk
    done += static_cast<size_t>(n);
    *offset += static_cast<uint64_t>(n);
  }
  return absl::OkStatus();
}

absl::Status PreadAll(int fd, const std::string& path, char* buf, size_t size, uint64_t offset,
                      size_t* got) {
  *got = 0;
  while (*got < size) {
    ssize_t n = ::pread(fd, buf + *got, size - *got, static_cast<off_t>(offset + *got));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("read", path, errno);
    }
    if (n == 0) break;
    *got += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status MakeDirs(const std::string& dir) {
  if (dir.empty()) return absl::OkStatus();
  for (size_t pos = 1;; ++pos) {
    pos = dir.find('/', pos);
    std::string prefix = dir.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      return ErrnoStatus("mkdir", prefix, errno);
    }
    if (pos == std::string::npos) break;
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) return ErrnoStatus("stat", dir, errno);
  if (!S_ISDIR(st.st_mode)) return absl::FailedPreconditionError(dir + " is not a directory");
  return absl::OkStatus();
}

absl::Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("open", dir, errno);
  absl::Status status;
  if (::fsync(fd) != 0) status = ErrnoStatus("fsync", dir, errno);
  ::close(fd);
  return status;
}

absl::Status SyncFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("open", path, errno);
  absl::Status status;
  if (::fsync(fd) != 0) status = ErrnoStatus("fsync", path, errno);
  ::close(fd);
  return status;
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace shoal::redo::internal
