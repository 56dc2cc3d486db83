// What the fault tests share around their own workloads: a cluster whose data nodes 2 and 3
// the mgmd launches and supervises, load threads that are stopped under a watchdog, data nodes
// killed with SIGKILL by the pid SHOW gives and waited for until the mgmd has started them
// again, and a check that no data node process the test saw outlives it.
#pragma once

#include <signal.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "engine/api/cluster.h"
#include "gtest/gtest.h"
#include "tests/fault/workload.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {

// How long service may take to resume after a kill, and a killed node to be started again.
inline constexpr absl::Duration kResumeLimit = absl::Seconds(30);
inline constexpr absl::Duration kRestartLimit = absl::Seconds(60);

std::string Ms(absl::Duration d);
int Millis(absl::Duration d);

// What one kill showed.
struct KillReport {
  int node = 0;
  int pid = 0;  // the process killed
  absl::Time killed_at;
  std::optional<absl::Duration> first_commit;     // kill → first acknowledged commit (any thread)
  std::optional<absl::Duration> every_partition;  // kill → a commit on every partition
  std::optional<absl::Duration> back;             // kill → SHOW says "started" again (new pid)

  static std::string Text(const std::optional<absl::Duration>& d);
  std::string Resumed() const { return Text(first_commit); }
  std::string Describe() const;
  // Records the durations as test properties, named "node<N>_…".
  void Record() const;
};

// A test fixture; the test's own thread drives it. Subclasses say how many commits their load
// has had acknowledged.
class FaultTest : public ::testing::Test {
 protected:
  // Stops the load threads, then the cluster (the mgmd stops its nodes, then its process
  // group is killed); then no data node process this test saw may be left. After a failure
  // the daemons' logs are copied to a directory of their own, which is printed.
  void TearDown() override;

  // Launches the cluster of `yaml` (TestCluster::FromConfig, mgmd with --launch) and waits
  // until data nodes 2 and 3 are started. Use with ASSERT_NO_FATAL_FAILURE.
  void LaunchCluster(const std::string& yaml);

  // Installs the mgmd's view in `clusters` every 100 ms until StopThreads(): a native client
  // that is not a cluster member learns of failures and restarts this way.
  // REQUIRES: the clusters outlive StopThreads().
  void FollowView(std::vector<api::Cluster*> clusters);
  // Runs `body(stop)` on a thread of its own; `body` must return soon after `stop` is set.
  void StartThread(std::function<void(const std::atomic<bool>& stop)> body);
  // Sets `stop` and joins the threads. One still blocked in an operation 30 s later fails the
  // test, and the cluster is killed, which ends every operation with an error.
  void StopThreads();

  // Runs each load (api::Cluster* cluster(), Run(stop)) on a thread of its own, its cluster
  // following the mgmd's view. REQUIRES: the loads outlive StopThreads().
  template <typename Load>
  void StartLoads(const std::vector<std::unique_ptr<Load>>& loads) {
    std::vector<api::Cluster*> clusters;
    for (const auto& load : loads) clusters.push_back(load->cluster());
    FollowView(std::move(clusters));
    for (const auto& load : loads) {
      StartThread([l = load.get()](const std::atomic<bool>& stop) { l->Run(stop); });
    }
  }
  // The commits `loads` (int64_t acknowledged()) have had acknowledged, added up.
  template <typename Load>
  static int64_t AcknowledgedBy(const std::vector<std::unique_ptr<Load>>& loads) {
    int64_t n = 0;
    for (const auto& load : loads) n += load->acknowledged();
    return n;
  }

  // Commits the load has had acknowledged so far.
  virtual int64_t Acknowledged() const = 0;
  // Lets the load run for `duration`, and until it has had at least one more commit
  // acknowledged (so each step of a scenario happens under load).
  void KeepWriting(absl::Duration duration);
  // SIGKILL (or `signo`: SIGSTOP leaves the process for the cluster to find silent) to data
  // node `node`; returns once `clock` has seen commits resume on every partition (or
  // kResumeLimit passed).
  KillReport KillDataNode(int node, ResumeClock* clock, int signo = SIGKILL);
  // Waits until the mgmd has started the killed node again: a new process, STARTED in its
  // view (what SHOW prints), which also says since when.
  void WaitUntilBack(KillReport* report);

  // Every data node must have been restarted by the mgmd exactly as often as `kills` killed
  // it: one that died on its own fails the test, with the cluster log's alerts.
  void ExpectRestartsOnlyAfterKills(const std::vector<const KillReport*>& kills);

  std::unique_ptr<TestCluster> cluster_;

 private:
  void NoteDataNodePids();

  std::set<int> data_node_pids_;
  std::unique_ptr<ViewFollower> follower_;
  std::atomic<bool> stop_{false};
  std::atomic<int> finished_{0};
  std::vector<std::thread> threads_;
};

}  // namespace shoal::testing
