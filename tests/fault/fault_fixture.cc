#include "tests/fault/fault_fixture.h"

#include <signal.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "tests/testutil/process.h"

namespace shoal::testing {

std::string Ms(absl::Duration d) { return absl::StrCat(absl::ToInt64Milliseconds(d), " ms"); }

int Millis(absl::Duration d) { return static_cast<int>(absl::ToInt64Milliseconds(d)); }

std::string KillReport::Text(const std::optional<absl::Duration>& d) {
  return d.has_value() ? Ms(*d) : std::string("never");
}

std::string KillReport::Describe() const {
  return absl::StrCat("node ", node, " killed: service resumed after ", Text(first_commit),
                      " (first acknowledged commit), on every partition after ",
                      Text(every_partition), "; node ", node, " started again after ", Text(back));
}

void KillReport::Record() const {
  std::string prefix = absl::StrCat("node", node, "_");
  if (first_commit) ::testing::Test::RecordProperty(prefix + "resumed_ms", Millis(*first_commit));
  if (every_partition) {
    ::testing::Test::RecordProperty(prefix + "every_partition_ms", Millis(*every_partition));
  }
  if (back) ::testing::Test::RecordProperty(prefix + "started_again_ms", Millis(*back));
}

void FaultTest::TearDown() {
  StopThreads();
  if (HasFailure() && cluster_ != nullptr) {
    // The cluster takes its run directory with it: keep what the daemons said.
    std::string kept = MakeTempDir("shoal-fault-logs");
    std::error_code ec;
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(cluster_->run_dir(), ec)) {
      std::string ext = entry.path().extension().string();
      bool wanted = ext == ".log" || ext == ".out" || ext == ".yaml";
      if (!wanted || !entry.is_regular_file(ec)) continue;
      std::filesystem::copy_file(entry.path(), kept + "/" + entry.path().filename().string(), ec);
    }
    std::cout << "the daemons' logs are kept in " << kept << std::endl;
  }
  cluster_.reset();
  for (int pid : data_node_pids_) {
    if (ProcessAlive(pid)) {
      ADD_FAILURE() << "data node process " << pid << " outlived its cluster; killing it";
      kill(pid, SIGKILL);
    }
  }
}

void FaultTest::LaunchCluster(const std::string& yaml) {
  cluster_ = std::make_unique<TestCluster>(TestCluster::FromConfig(yaml, {"--launch"}));
  NoteDataNodePids();
  ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
  NoteDataNodePids();
}

void FaultTest::FollowView(std::vector<api::Cluster*> clusters) {
  follower_ = std::make_unique<ViewFollower>(cluster_->mgmd_port(), std::move(clusters));
}

void FaultTest::StartThread(std::function<void(const std::atomic<bool>& stop)> body) {
  threads_.emplace_back([this, body = std::move(body)] {
    body(stop_);
    finished_.fetch_add(1);
  });
}

void FaultTest::StopThreads() {
  if (!threads_.empty()) {
    stop_.store(true);
    if (!WaitUntil([&] { return finished_.load() == static_cast<int>(threads_.size()); },
                   absl::Seconds(30))) {
      ADD_FAILURE() << "load threads still blocked in an operation 30 s after being stopped";
      cluster_->mgmd().SignalGroup(SIGKILL);
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }
  follower_.reset();
}

void FaultTest::KeepWriting(absl::Duration duration) {
  int64_t before = Acknowledged();
  absl::SleepFor(duration);
  EXPECT_TRUE(WaitUntil([&] { return Acknowledged() > before; }, kResumeLimit))
      << "no commit acknowledged for " << Ms(duration + kResumeLimit);
}

KillReport FaultTest::KillDataNode(int node, ResumeClock* clock, int signo) {
  KillReport report;
  report.node = node;
  std::map<int, ShownNode> shown = cluster_->Show();
  report.pid = shown[node].pid;
  EXPECT_EQ(shown[node].state, "started");
  EXPECT_GT(report.pid, 0) << "SHOW gave no pid for node " << node;
  if (report.pid <= 0) return report;
  data_node_pids_.insert(report.pid);
  clock->Arm();
  report.killed_at = absl::Now();
  EXPECT_EQ(kill(report.pid, signo), 0) << "kill -" << signo << " " << report.pid;
  WaitUntil([&] { return clock->EveryPartition().has_value(); }, kResumeLimit);
  report.first_commit = clock->FirstCommit();
  report.every_partition = clock->EveryPartition();
  EXPECT_TRUE(report.every_partition.has_value())
      << "node " << node << " killed: writes did not resume on every partition within "
      << Ms(kResumeLimit);
  return report;
}

void FaultTest::WaitUntilBack(KillReport* report) {
  int node = report->node;
  control::NodeStatus status;
  bool back = WaitUntil(
      [&] {
        absl::StatusOr<control::ClusterView> view =
            api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(1));
        if (!view.ok()) return false;
        for (const control::NodeStatus& n : view->nodes()) {
          if (static_cast<int>(n.node_id()) == node && n.state() == control::STARTED &&
              n.pid() > 0 && n.pid() != report->pid) {
            status = n;
            return true;
          }
        }
        return false;
      },
      kRestartLimit);
  if (back) report->back = absl::FromUnixMillis(status.state_since_unix_ms()) - report->killed_at;
  NoteDataNodePids();
  EXPECT_TRUE(back) << "node " << node << " not started again within " << Ms(kRestartLimit) << "\n"
                    << cluster_->Mgm("SHOW").out;
}

void FaultTest::ExpectRestartsOnlyAfterKills(const std::vector<const KillReport*>& kills) {
  std::map<int, int> killed;
  for (const KillReport* k : kills) {
    if (k->pid > 0) ++killed[k->node];
  }
  for (const auto& [id, node] : cluster_->Show()) {
    if (id != 2 && id != 3) continue;
    if (node.restarts == killed[id]) continue;
    std::string alerts;
    for (absl::string_view line : absl::StrSplit(cluster_->ClusterLog(), '\n')) {
      if (absl::StrContains(line, "ALERT")) absl::StrAppend(&alerts, "\n", line);
    }
    ADD_FAILURE() << "data node " << id << " was restarted " << node.restarts
                  << " time(s) but killed by the test " << killed[id]
                  << " time(s): it died on its own; the cluster log's alerts:" << alerts;
  }
}

void FaultTest::NoteDataNodePids() {
  for (const auto& [id, node] : cluster_->Show()) {
    if ((id == 2 || id == 3) && node.pid > 0) data_node_pids_.insert(node.pid);
  }
}

}  // namespace shoal::testing
