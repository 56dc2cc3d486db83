// Helpers shared by the transport tests: frames with a recognisable body, a short temporary
// directory for Unix sockets, and polling with a deadline.
#pragma once

#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::transport::testing {

// A frame of `size` bytes (>= 12): int<4> length | int<8> seq | bytes derived from seq.
inline std::string MakeFrame(size_t size, uint64_t seq) {
  std::string frame(size, '\0');
  uint32_t length = static_cast<uint32_t>(size);
  std::memcpy(frame.data(), &length, 4);
  std::memcpy(frame.data() + 4, &seq, 8);
  for (size_t i = 12; i < size; ++i) frame[i] = static_cast<char>((seq * 31 + i) & 0xFF);
  return frame;
}

// True when `frame` is MakeFrame(frame.size(), seq).
inline bool CheckFrame(absl::string_view frame, uint64_t seq) {
  if (frame.size() < 12) return false;
  uint32_t length;
  uint64_t got;
  std::memcpy(&length, frame.data(), 4);
  std::memcpy(&got, frame.data() + 4, 8);
  if (length != frame.size() || got != seq) return false;
  for (size_t i = 12; i < frame.size(); ++i) {
    if (frame[i] != static_cast<char>((seq * 31 + i) & 0xFF)) return false;
  }
  return true;
}

// Frame sizes that vary with seq, from 12 bytes to about `max`.
inline size_t FrameSize(uint64_t seq, size_t max) {
  uint64_t x = seq * 0x9E3779B97F4A7C15ull;
  return 12 + ((x >> 40) % (x % 16 == 0 ? max - 12 : 256));
}

// A fresh directory under /tmp, removed with its contents on destruction.
class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/shoal-tr-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string Path(absl::string_view name) const { return path_ + "/" + std::string(name); }

 private:
  std::string path_;
};

// Waits up to `ms` for `fd` to turn readable (or writable with POLLOUT).
inline bool PollFd(int fd, int ms, short events = POLLIN) {
  pollfd pfd = {fd, events, 0};
  int rc;
  do {
    rc = poll(&pfd, 1, ms);
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

// Slower builds run smaller loads so the suite stays within seconds.
#if defined(__SANITIZE_THREAD__)
inline constexpr int kLoadDivisor = 30;
#elif defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
inline constexpr int kLoadDivisor = 10;
#else
inline constexpr int kLoadDivisor = 1;
#endif

}  // namespace shoal::transport::testing
