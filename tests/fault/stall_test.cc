// Issue 14's SIGSTOP tests: a host may stall a process, or a whole process group, for seconds
// (a busy neighbour, a VM pause, swap, SIGSTOP); the cluster must tell that from a failure.
// Native-API writers run throughout, and every acknowledged commit is read back at the end.
//  * the mgmd stopped for 10 s: nothing is declared failed;
//  * the whole cluster's process group stopped for 5 s: it serves on, nothing declared failed;
//  * one data node stopped past the failure window: its peer takes over, the stopped node (not
//    the live one) is declared failed, and the mgmd starts it again.
// The defaults are the embedded ones: data nodes 500 ms × 4, routers 1500 ms × 4.
#include <signal.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fault/writers_fixture.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kConfig[] = R"(
cluster:
  replicas: 2
  data_memory: 256M  # room for every row the writers may make (workload.h caps them)
  lock_wait_timeout: 300ms
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
  metrics_port: {METRICS_PORT_1}
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
    socket: {RUN_DIR}/dn2.sock
    metrics_port: {METRICS_PORT_2}
  - id: 3
    data_dir: {RUN_DIR}/dn3
    socket: {RUN_DIR}/dn3.sock
    metrics_port: {METRICS_PORT_3}
routers:
  - id: 4
    socket: {RUN_DIR}/r4.sock
    metrics_port: {METRICS_PORT_4}
)";

// Long enough after a stall that anything wrongly counted silent would have been failed.
constexpr absl::Duration kAfterStall = absl::Seconds(5);

class StallTest : public WritersTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(LaunchCluster(kConfig));
    ASSERT_TRUE(cluster_->WaitForState({4}, "started")) << cluster_->MgmdLog();
    before_ = cluster_->Show();
  }

  // SIGSTOP to `pid` (or, with a negative pid, its process group) for `d`, then SIGCONT; the
  // writers go on meanwhile.
  void Stop(pid_t pid, absl::Duration d) {
    ASSERT_EQ(kill(pid, SIGSTOP), 0);
    absl::SleepFor(d);
    ASSERT_EQ(kill(pid, SIGCONT), 0);
  }

  // The cluster log's lines that contain `what`.
  std::vector<std::string> LogLines(absl::string_view what) const {
    std::vector<std::string> lines;
    for (absl::string_view line : absl::StrSplit(cluster_->ClusterLog(), '\n')) {
      if (absl::StrContains(line, what)) lines.emplace_back(line);
    }
    return lines;
  }

  // Nobody was declared failed, lost arbitration or was restarted: every node is the process
  // it was at the start, serving.
  void ExpectNothingFailed() {
    EXPECT_THAT(LogLines("ALERT"), ::testing::IsEmpty()) << cluster_->ClusterLog();
    std::map<int, ShownNode> now = cluster_->Show();
    for (int id : {2, 3, 4}) {
      EXPECT_EQ(now[id].state, "started") << "node " << id;
      EXPECT_EQ(now[id].pid, before_[id].pid) << "node " << id << " is another process now";
      EXPECT_EQ(now[id].restarts, 0) << "node " << id;
    }
  }

  // A counter or gauge of node `id`'s /metrics with these labels (-1 when absent).
  int64_t Metric(int id, absl::string_view series) const {
    std::optional<std::string> text = HttpGet(cluster_->metrics_port(id), "/metrics");
    if (!text.has_value()) return -1;
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      if (!absl::StartsWith(line, series) || line.size() <= series.size() ||
          line[series.size()] != ' ') {
        continue;
      }
      int64_t value = 0;
      if (absl::SimpleAtoi(line.substr(series.size() + 1), &value)) return value;
    }
    return -1;
  }

  std::map<int, ShownNode> before_;
};

TEST_F(StallTest, TheMgmdStoppedForTenSecondsDeclaresNobodyFailed) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(absl::Seconds(2));
  // The data path does not need the mgmd: commits go on while it is stopped.
  cluster_->mgmd().Signal(SIGSTOP);
  KeepWriting(absl::Seconds(10));
  cluster_->mgmd().Signal(SIGCONT);
  KeepWriting(kAfterStall);
  StopThreads();
  ExpectNothingFailed();
  // The mgmd measured its own stall (and so left it out of everyone's silence).
  EXPECT_GE(Metric(1, "shoal_scheduling_lateness_max_microseconds{thread=\"mgmd\"}"), 9'000'000);
  EXPECT_GE(Metric(1, "shoal_scheduling_stalls_total{thread=\"mgmd\"}"), 1);
  ExpectEveryCommitKept();
}

TEST_F(StallTest, TheWholeClusterStoppedForFiveSecondsServesOnWithEveryCommit) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(absl::Seconds(2));
  // The mgmd leads the process group of every node it launched.
  ASSERT_NO_FATAL_FAILURE(Stop(-cluster_->mgmd().pid(), absl::Seconds(5)));
  KeepWriting(kAfterStall);
  StopThreads();
  ExpectNothingFailed();
  for (int id : {2, 3}) {
    EXPECT_GE(Metric(id, "shoal_scheduling_stalls_total{thread=\"data-plane\"}"), 1)
        << "data node " << id << " did not see its own stall";
  }
  ExpectEveryCommitKept();
}

TEST_F(StallTest, ADataNodeStoppedPastTheWindowIsTheOneDeclaredFailed) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(absl::Seconds(2));
  // Stopped, never continued: the window (2 s) passes, node 2 serves on alone, and the mgmd
  // kills the stopped process and starts node 3 again, which copies from node 2.
  KillReport stopped = KillDataNode(3, clock_.get(), SIGSTOP);
  WaitUntilBack(&stopped);
  KeepWriting(absl::Seconds(2));
  StopThreads();
  std::cout << "node 3 stopped (SIGSTOP): " << stopped.Describe() << std::endl;
  stopped.Record();

  std::string log = cluster_->ClusterLog();
  std::vector<std::string> failed;  // by the mgmd's heartbeat check
  for (const std::string& line : LogLines("[ALERT]")) {
    if (absl::StrContains(line, "declared failed")) failed.push_back(line);
  }
  std::vector<std::string> lost = LogLines("arbitration chose");  // by its peer's
  ASSERT_FALSE(failed.empty() && lost.empty()) << log;
  for (const std::string& line : failed) EXPECT_THAT(line, HasSubstr("Node 3:")) << log;
  for (const std::string& line : lost)
    EXPECT_THAT(line, HasSubstr("Node 3: lost by node 2")) << log;
  EXPECT_THAT(log, Not(HasSubstr("Node 2: Data node missed")));
  std::map<int, ShownNode> now = cluster_->Show();
  EXPECT_EQ(now[2].pid, before_[2].pid) << "the live data node was restarted";
  EXPECT_EQ(now[2].restarts, 0);
  ExpectRestartsOnlyAfterKills({&stopped});
  ExpectEveryCommitKept();
}

}  // namespace
}  // namespace shoal::testing
