// Test helpers: a fake /proc tree whose stat lines a test writes, for ProcessProbe and the
// detectors that use it.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "common/liveness/process_probe.h"

namespace shoal::liveness {

inline const absl::Time kStart = absl::FromUnixSeconds(1'000'000);
inline constexpr char kBootId[] = "5b1e7c38-7a0e-4d8f-9d33-0c5b9a1f6a10";

// A /proc/<pid>/stat line as the kernel writes it (52 fields), with a command name that holds
// spaces and parentheses, as a process may choose.
inline std::string StatText(int pid, char state, uint64_t utime, uint64_t stime, uint64_t start) {
  return absl::StrCat(pid, " (shoal (x) dn) ", std::string(1, state),
                      " 1 100 100 0 -1 4194560 500 0 0 0 ", utime, " ", stime, " 0 0 20 0 3 0 ",
                      start,
                      " 100000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 "
                      "0 0 0 0 0 0 0 0\n");
}

// A fake /proc with one process and its threads, whose stat lines the test rewrites.
class FakeProc {
 public:
  FakeProc()
      : root_(absl::StrCat(std::filesystem::temp_directory_path().string(), "/probe-test-",
                           getpid(), "-", counter_++)) {
    std::filesystem::create_directories(root_ + "/sys/kernel/random");
    Write("/sys/kernel/random/boot_id", absl::StrCat(kBootId, "\n"));
  }
  ~FakeProc() { std::filesystem::remove_all(root_); }

  // Process `pid` started at `start` has thread `tid` in `state` with `cpu` ticks so far.
  void Thread(int pid, int tid, char state, uint64_t cpu, uint64_t start = 4242) {
    std::filesystem::create_directories(absl::StrCat(root_, "/", pid, "/task/", tid));
    std::string line = StatText(tid, state, cpu, 0, start);
    Write(absl::StrCat("/", pid, "/task/", tid, "/stat"), line);
    if (tid == pid) Write(absl::StrCat("/", pid, "/stat"), line);
  }

  const std::string& root() const { return root_; }

 private:
  void Write(const std::string& path, const std::string& text) {
    std::ofstream(root_ + path, std::ios::trunc) << text;
  }

  static inline int counter_ = 0;
  std::string root_;
};

inline ProcessIdentity Identity(int pid, uint64_t start = 4242) { return {kBootId, pid, start}; }

}  // namespace shoal::liveness
