// DDL while a data node restarts, through SQL as a user would run it (the mariadb CLI against
// a router): tables created and filled while data node 3 is down, fetching the dictionary and
// copying its partitions (each table with an ENUM, whose members travel with its definition)
// must all be on it once it serves — so that, with data node 2 killed
// next, every table, view and row is still there, served by node 3 alone.
#include <signal.h>

#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/api/cluster.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

constexpr int kBigRows = 40000;       // makes the restarted node's copy last a while
constexpr int kRowsPerInsert = 400;   // a statement stays under the 128 KiB of one argument
constexpr int kTablesAfterStart = 5;  // DDL goes on a little after node 3 serves again

class DdlRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ =
        std::make_unique<TestCluster>(TestCluster::FromConfig(RouterClusterConfig(), {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started")) << cluster_->MgmdLog();
  }

  CommandResult Mariadb(const std::string& sql) const {
    return RunCommand({"/usr/bin/mariadb", "--user=root", "--batch",
                       "--socket=" + cluster_->run_dir() + "/r4.sock", "-e", sql},
                      absl::Seconds(60));
  }
  // Runs `sql` until it succeeds or `timeout` passes (a node's death or restart may fail a
  // statement with a temporary error); the last result.
  CommandResult MariadbRetrying(const std::string& sql, absl::Duration timeout) const {
    absl::Time deadline = absl::Now() + timeout;
    CommandResult r = Mariadb(sql);
    while (r.exit_code != 0 && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(200));
      r = Mariadb(sql);
    }
    return r;
  }

  // Data node `node`'s state and pid in the mgmd's view; NODE_STATE_UNSPECIFIED without one.
  std::pair<control::NodeState, int> StateOf(int node) const {
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(1));
    if (view.ok()) {
      for (const control::NodeStatus& n : view->nodes()) {
        if (static_cast<int>(n.node_id()) == node) return {n.state(), static_cast<int>(n.pid())};
      }
    }
    return {control::NodeState{}, 0};
  }

  int Kill(int node) {
    int pid = cluster_->Show()[node].pid;
    EXPECT_GT(pid, 0) << "SHOW gave no pid for node " << node;
    if (pid > 0) {
      EXPECT_EQ(kill(pid, SIGKILL), 0);
    }
    return pid;
  }

  std::unique_ptr<TestCluster> cluster_;
};

TEST_F(DdlRestartTest, TablesCreatedWhileANodeRestartsAreOnItWhenItServes) {
  CommandResult created = Mariadb(
      "CREATE DATABASE d; CREATE TABLE d.big (id INT PRIMARY KEY, pad VARCHAR(200)) "
      "ENGINE=ndbcluster");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  const std::string pad(200, 'x');
  for (int from = 0; from < kBigRows; from += kRowsPerInsert) {
    std::string insert = "INSERT INTO d.big VALUES ";
    for (int id = from; id < from + kRowsPerInsert; ++id) {
      absl::StrAppend(&insert, id == from ? "" : ",", "(", id, ",'", pad, "')");
    }
    CommandResult r = Mariadb(insert);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  int killed = Kill(3);
  ASSERT_GT(killed, 0);
  // A view made while node 3 is down comes with the dictionary it fetches.
  CommandResult view =
      MariadbRetrying("CREATE VIEW d.big_count AS SELECT COUNT(*) AS n FROM d.big WHERE id >= 0",
                      absl::Seconds(10));
  ASSERT_EQ(view.exit_code, 0) << view.err;
  // One table after another, each with a row, until node 3 has served again for a while.
  int tables = 0;
  int while_starting = 0;  // created while node 3 was starting (fetching, copying)
  int after_start = 0;
  absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (after_start < kTablesAfterStart && absl::Now() < deadline) {
    auto [state, pid] = StateOf(3);
    bool back = pid != killed && state == control::STARTED;
    // (Retried whole: a statement that failed may have happened.)
    CommandResult r =
        MariadbRetrying(absl::StrCat("CREATE TABLE IF NOT EXISTS d.t", tables,
                                     " (id INT PRIMARY KEY, e ENUM('x', 'y', 'z') NOT NULL "
                                     "DEFAULT 'y') ENGINE=ndbcluster; REPLACE INTO d.t",
                                     tables, " (id) VALUES (", tables, ")"),
                        absl::Seconds(10));
    ASSERT_EQ(r.exit_code, 0) << "table " << tables << ": " << r.err;
    if (pid != killed && state == control::STARTING) ++while_starting;
    if (back) ++after_start;
    ++tables;
  }
  ASSERT_EQ(after_start, kTablesAfterStart) << "node 3 did not serve again within a minute";
  std::cout << tables << " tables created, " << while_starting
            << " of them while node 3 was starting" << std::endl;

  // Node 3 alone now: everything must be on it.
  ASSERT_GT(Kill(2), 0);
  ASSERT_TRUE(WaitUntil([&] { return StateOf(2).first != control::STARTED; }, absl::Seconds(30)));
  std::string reads;
  std::string expected;
  for (int t = 0; t < tables; ++t) {
    absl::StrAppend(&reads, "SELECT id, e FROM d.t", t, " ORDER BY e; ");
    absl::StrAppend(&expected, "id\te\n", t, "\ty\n");
  }
  CommandResult read = MariadbRetrying(reads, absl::Seconds(20));
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, expected);
  CommandResult count = MariadbRetrying("SELECT COUNT(*) FROM d.big", absl::Seconds(20));
  EXPECT_EQ(count.out, absl::StrCat("COUNT(*)\n", kBigRows, "\n")) << count.err;
  CommandResult through_view = MariadbRetrying("SELECT n FROM d.big_count", absl::Seconds(20));
  EXPECT_EQ(through_view.out, absl::StrCat("n\n", kBigRows, "\n")) << through_view.err;
}

}  // namespace
}  // namespace shoal::testing
