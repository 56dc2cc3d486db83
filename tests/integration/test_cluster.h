// TestCluster: a real shoal-mgmd (and the nodes it launches) in a temporary run directory on
// free loopback ports, observed through the real console (shoal-mgm) and /metrics.
// Destroying it kills everything it started.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tests/testutil/process.h"

namespace shoal::testing {

struct ShownNode {
  std::string state;  // "started", "not connected", ...
  int pid = 0;
  int restarts = 0;
};

// For TestCluster::FromConfig: the mgmd, data nodes 2 and 3, and router 4 on the Unix socket
// {RUN_DIR}/r4.sock and TCP {ROUTER_PORT} with two workers and /metrics on {METRICS_BASE};
// `more_routers` are further YAML items for the routers list. Users: root (no password) and
// app (password "secret").
std::string RouterClusterConfig(const std::string& more_routers = "");

class TestCluster {
 public:
  // The embedded cluster in a box, with `extra_args` appended to shoal-mgmd's command line.
  static TestCluster Embedded(const std::vector<std::string>& extra_args = {});
  // A configuration file; `yaml` may use {RUN_DIR}, {MGMD_PORT}, {METRICS_BASE},
  // {METRICS_PORT_1} … {METRICS_PORT_7} (what metrics_port(id) returns) and {ROUTER_PORT} (two
  // free ports from there).
  static TestCluster FromConfig(const std::string& yaml,
                                const std::vector<std::string>& extra_args);
  TestCluster(TestCluster&&) = default;
  ~TestCluster();

  const std::string& run_dir() const { return run_dir_; }
  int mgmd_port() const { return mgmd_port_; }
  int metrics_port(int node_id) const { return metrics_base_ + node_id; }
  int router_port() const { return router_port_; }
  Subprocess& mgmd() { return *mgmd_; }

  // Runs `shoal-mgm -c 127.0.0.1:<port> -e <command>`.
  CommandResult Mgm(const std::string& command) const;
  // SHOW, parsed: node id → what SHOW says of it. Empty if SHOW failed.
  std::map<int, ShownNode> Show() const;
  // Waits until SHOW reports `state` for every id in `ids`.
  bool WaitForState(const std::vector<int>& ids, const std::string& state,
                    absl::Duration timeout = absl::Seconds(30)) const;
  // Waits until each of `ids` runs in a new process (not the pid `before` shows) and SHOW says
  // it started: nodes killed, restarted by the mgmd and serving again.
  bool WaitForRestart(const std::map<int, ShownNode>& before, const std::vector<int>& ids,
                      absl::Duration timeout) const;
  std::string ClusterLog() const;  // the CLUSTERLOG command's output
  std::string MgmdLog() const;     // shoal-mgmd's own stdout and stderr
  // kill -9 the mgmd (its launched nodes keep running) and start it again on the same port.
  void RestartMgmdHard();
  // After the mgmd has exited (SHUTDOWN): starts it again, same command line and run
  // directory, so its nodes start again on the data they left on disk.
  void Relaunch();

 private:
  TestCluster() = default;
  void Launch(std::vector<std::string> argv);

  std::string run_dir_;
  int mgmd_port_ = 0;
  int metrics_base_ = 0;
  int router_port_ = 0;
  std::vector<std::string> mgmd_argv_;
  std::optional<Subprocess> mgmd_;
};

}  // namespace shoal::testing
