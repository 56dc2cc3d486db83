// Supervisor: starts the configuration's local data nodes and routers as child processes,
// pinned to their CPUs, and reports when one exits — the mgmd decides whether to start it
// again (as NDB's angel process does for ndbd).
//
// Owned by the MgmdServer; used only on its loop thread. It watches SIGCHLD, so a process has
// at most one Supervisor.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "common/event_loop.h"

namespace shoal::mgmd {

struct ChildSpec {
  int node_id = 0;
  std::string binary;             // absolute path
  std::vector<std::string> args;  // not including argv[0]
  std::vector<int> cpus;          // empty: not pinned
  std::string log_path;           // stdout and stderr are appended here
};

class Supervisor {
 public:
  // `wait_status` is as from waitpid(2).
  using ExitHandler = absl::AnyInvocable<void(int node_id, pid_t pid, int wait_status)>;

  Supervisor(EventLoop* loop, ExitHandler on_exit);
  ~Supervisor();  // leaves children running; stop them first

  absl::StatusOr<pid_t> Launch(const ChildSpec& spec);
  // Sends `signo` to the node's process; false when it has none running.
  bool Signal(int node_id, int signo);
  bool Running(int node_id) const { return pids_.contains(node_id); }
  pid_t pid(int node_id) const;
  size_t running_count() const { return pids_.size(); }

 private:
  void Reap();

  ExitHandler on_exit_;
  SignalWatcher sigchld_;
  absl::flat_hash_map<int, pid_t> pids_;
};

// "exited with code 1", "killed by signal 9 (Killed)".
std::string DescribeWaitStatus(int wait_status);

}  // namespace shoal::mgmd
