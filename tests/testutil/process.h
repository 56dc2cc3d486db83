// Test helpers for real processes: start a binary in its own process group, run a command to
// completion with a deadline, poll for a condition, find free ports, fetch /metrics.
//
// Every Subprocess kills its whole process group when destroyed, so a failing test leaves
// nothing running.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace shoal::testing {

// The directory of the built binaries (ctest sets SHOAL_BIN_DIR) and of the source tree.
std::string BinDir();
std::string SourceDir();
// A fresh directory under /tmp (short, for Unix socket paths), removed by the caller.
std::string MakeTempDir(const std::string& prefix);

class Subprocess {
 public:
  // Starts argv[0] (a path) in a new process group; stdout and stderr go to `log_path`.
  static Subprocess Start(const std::vector<std::string>& argv, const std::string& log_path);
  Subprocess(Subprocess&& other) noexcept;
  Subprocess& operator=(Subprocess&&) = delete;
  ~Subprocess();  // SIGKILL to the whole group, then reaps

  pid_t pid() const { return pid_; }
  void Signal(int signo) const;       // to the process
  void SignalGroup(int signo) const;  // to its whole process group (what Ctrl-C does)
  // The exit status (as from waitpid) if it ended within `timeout`.
  std::optional<int> Wait(absl::Duration timeout);

 private:
  explicit Subprocess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
  bool reaped_ = false;
};

struct CommandResult {
  int exit_code = -1;  // -1: killed or timed out
  std::string out;
  std::string err;
};
// Runs argv to completion (killed after `timeout`), capturing both outputs.
CommandResult RunCommand(const std::vector<std::string>& argv,
                         absl::Duration timeout = absl::Seconds(60));

// Polls `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
bool WaitUntil(const std::function<bool()>& condition, absl::Duration timeout);

// A TCP port on 127.0.0.1 that was free a moment ago; with `span`, ports port..port+span-1 all
// were.
int FreePort(int span = 1);

// GET http://127.0.0.1:port/path; the body, or nullopt on any failure.
std::optional<std::string> HttpGet(int port, const std::string& path);

// True while a process with this pid exists (zombies count as gone).
bool ProcessAlive(pid_t pid);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

}  // namespace shoal::testing
