// Nodes started by hand on their hosts (no --launch): they register with the mgmd by
// connect string, are refused a node id that is taken, keep running while the mgmd is down and
// come back into the view when it returns, and stop on a console STOP.
#include <sys/wait.h>

#include <csignal>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kOneNodeGroup[] = R"(
cluster:
  replicas: 1
  heartbeat_interval: 100ms
mgmd:
  id: 1
  host: 127.0.0.1
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    host: 127.0.0.1
    data_dir: {RUN_DIR}/dn2
    metrics_port: {METRICS_BASE}
routers:
  - id: 3
    host: 127.0.0.1
    port: 0
    socket: {RUN_DIR}/r3.sock
)";

TEST(UnsupervisedNodeTest, RegistersByConnectStringAndSurvivesAnMgmdRestart) {
  TestCluster cluster = TestCluster::FromConfig(kOneNodeGroup, {});
  std::string connect = absl::StrCat("127.0.0.1:", cluster.mgmd_port());
  Subprocess datanode = Subprocess::Start(
      {BinDir() + "/shoal-datanode", "--connect-string", connect}, cluster.run_dir() + "/dn2.log");
  ASSERT_TRUE(cluster.WaitForState({2}, "started")) << cluster.MgmdLog();
  EXPECT_EQ(cluster.Show()[3].state, "not connected");

  // The id is taken: a second data node is refused with the reason, and exits.
  CommandResult second =
      RunCommand({BinDir() + "/shoal-datanode", "--connect-string", connect, "--node-id", "2"});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_THAT(second.err, HasSubstr("refused this node: node id 2 is already in use"));
  // A router cannot take a data node's id.
  CommandResult wrong_type =
      RunCommand({BinDir() + "/shoal-router", "--connect-string", connect, "--node-id", "2"});
  EXPECT_EQ(wrong_type.exit_code, 1);
  EXPECT_THAT(wrong_type.err, HasSubstr("node id 2 is a datanode, not a router"));

  // This mgmd did not start it, so it cannot start it again.
  CommandResult restart = cluster.Mgm("2 RESTART");
  EXPECT_EQ(restart.exit_code, 1);
  EXPECT_THAT(restart.err, HasSubstr("was not started by this management daemon"));

  // The mgmd dies and comes back: the data node keeps running and registers again.
  cluster.RestartMgmdHard();
  ASSERT_TRUE(cluster.WaitForState({2}, "started")) << cluster.MgmdLog();
  EXPECT_TRUE(ProcessAlive(datanode.pid()));
  std::optional<std::string> metrics = HttpGet(cluster.metrics_port(0), "/metrics");
  ASSERT_TRUE(metrics.has_value());
  EXPECT_THAT(*metrics, HasSubstr("shoal_mgmd_reconnects_total 1"));

  // Node 2 holds the only copy of node group 0: a plain STOP is refused, a forced one stops it.
  CommandResult refused = cluster.Mgm("2 STOP");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("Node 2 is the last live replica of node group 0"));
  EXPECT_TRUE(ProcessAlive(datanode.pid()));
  CommandResult stop = cluster.Mgm("2 STOP -f");
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  std::optional<int> status = datanode.Wait(absl::Seconds(10));
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
  EXPECT_EQ(cluster.Show()[2].state, "not connected");
}

TEST(UnsupervisedNodeTest, GivesUpWithOneClearLineWhenNoMgmdAnswers) {
  CommandResult r = RunCommand({BinDir() + "/shoal-datanode", "--connect-string",
                                absl::StrCat("127.0.0.1:", FreePort()), "--connect-timeout", "1s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("no management daemon reachable at 127.0.0.1:"));
}

}  // namespace
}  // namespace shoal::testing
