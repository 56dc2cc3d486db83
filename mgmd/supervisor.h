// Supervisor: starts the configuration's local data nodes and routers as child processes,
// pinned to their CPUs, and reports when one exits — the mgmd decides whether to start it
// again (as NDB's angel process does for ndbd).
//
// The nodes outlive the mgmd: a management daemon killed with SIGKILL leaves them serving, as
// NDB's data nodes go on without ndb_mgmd. So that the mgmd started again does not start a
// second process for a node whose first still runs (two data nodes writing one data
// directory), each child's identity (boot id, pid, start time) is kept in a pid file while it
// runs, and the next mgmd adopts the processes its files name that still run. An adopted
// process is not this one's child: its end is seen by looking at it every kWatchInterval, and
// how it ended is unknown.
//
// Owned by the MgmdServer; used only on its loop thread. It watches SIGCHLD, so a process has
// at most one Supervisor.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/event_loop.h"
#include "common/liveness/process_probe.h"

namespace shoal::mgmd {

struct ChildSpec {
  int node_id = 0;
  std::string binary;             // absolute path
  std::vector<std::string> args;  // not including argv[0]
  std::vector<int> cpus;          // empty: not pinned
  std::string log_path;           // stdout and stderr are appended here
  std::string pid_path;           // the running process's identity while it runs ("": none)
};

class Supervisor {
 public:
  static constexpr absl::Duration kWatchInterval = absl::Milliseconds(200);

  // `wait_status` is as from waitpid(2); nullopt for an adopted process, whose end is seen
  // but not how it came.
  using ExitHandler =
      absl::AnyInvocable<void(int node_id, pid_t pid, std::optional<int> wait_status)>;

  Supervisor(EventLoop* loop, ExitHandler on_exit);
  ~Supervisor();  // leaves children running; stop them first

  absl::StatusOr<pid_t> Launch(const ChildSpec& spec);
  // Takes over the process spec.pid_path names when it still runs (started by an earlier mgmd
  // on this host); returns its pid, or nullopt (a stale file is removed).
  std::optional<pid_t> Adopt(const ChildSpec& spec);
  // Sends `signo` to the node's process; false when it has none running.
  bool Signal(int node_id, int signo);
  bool Running(int node_id) const { return children_.contains(node_id); }
  bool Adopted(int node_id) const;
  pid_t pid(int node_id) const;
  size_t running_count() const { return children_.size(); }

 private:
  struct Child {
    liveness::ProcessIdentity identity;
    std::string pid_path;
    bool adopted = false;
  };

  void Reap();
  // Reports the adopted processes that have ended.
  void WatchAdopted();
  void Ended(int node_id, std::optional<int> wait_status);

  ExitHandler on_exit_;
  SignalWatcher sigchld_;
  Timer watch_;
  absl::flat_hash_map<int, Child> children_;  // by node id
};

// "exited with code 1", "killed by signal 9 (Killed)"; for an adopted process, that it ended.
std::string DescribeWaitStatus(std::optional<int> wait_status);

}  // namespace shoal::mgmd
