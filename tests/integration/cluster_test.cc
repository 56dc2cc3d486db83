// The cluster in a box as a user sees it: it comes up, the console shows and controls it, a
// killed data node is noticed and restarted, a hung one is declared failed after the heartbeat
// window, and stopping the mgmd stops everything.
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

std::vector<int> NodePids(const TestCluster& cluster) {
  std::vector<int> pids;
  for (const auto& [id, node] : cluster.Show()) {
    if (id != 1 && node.pid != 0) pids.push_back(node.pid);
  }
  return pids;
}

TEST(ClusterInABoxTest, ComesUpAndTheConsoleStopsAndStartsADataNode) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({1, 2, 3, 4, 5}, "started")) << cluster.MgmdLog();

  CommandResult show = cluster.Mgm("SHOW");
  EXPECT_EQ(show.exit_code, 0);
  EXPECT_THAT(show.out, HasSubstr("[datanode]\t2 node(s)"));
  EXPECT_THAT(show.out, HasSubstr("[mgmd]\t1 node(s)"));
  EXPECT_THAT(show.out, HasSubstr("[router]\t2 node(s)"));
  EXPECT_THAT(show.out, HasSubstr("id=2   @127.0.0.1       (shoal-0.1.0, node group 0, started"));
  EXPECT_THAT(show.out, HasSubstr("id=3   @127.0.0.1       (shoal-0.1.0, node group 0, started"));

  // Every process serves /metrics.
  std::optional<std::string> mgmd_metrics = HttpGet(cluster.metrics_port(1), "/metrics");
  ASSERT_TRUE(mgmd_metrics.has_value());
  EXPECT_THAT(*mgmd_metrics, HasSubstr("shoal_mgmd_nodes{type=\"datanode\",state=\"started\"} 2"));
  EXPECT_THAT(*mgmd_metrics, HasSubstr("shoal_mgmd_nodes{type=\"router\",state=\"started\"} 2"));
  for (int id : {2, 3, 4, 5}) {
    std::optional<std::string> metrics = HttpGet(cluster.metrics_port(id), "/metrics");
    ASSERT_TRUE(metrics.has_value()) << "node " << id;
    EXPECT_THAT(*metrics, HasSubstr(absl::StrCat("shoal_node_info{id=\"", id, "\"")));
    EXPECT_THAT(*metrics, HasSubstr("shoal_mgmd_connected 1"));
  }
  // The two data nodes share a host: their links to each other are shared memory, never TCP.
  for (int id : {2, 3}) {
    auto links = [&](const char* transport) {
      std::optional<std::string> metrics = HttpGet(cluster.metrics_port(id), "/metrics");
      std::string line =
          absl::StrCat("shoal_datanode_peer_links_opened_total{transport=\"", transport, "\"} ");
      size_t at = metrics ? metrics->find(line) : std::string::npos;
      int64_t n = -1;
      if (at != std::string::npos) {
        absl::string_view rest = absl::string_view(*metrics).substr(at + line.size());
        (void)absl::SimpleAtoi(rest.substr(0, rest.find('\n')), &n);
      }
      return n;
    };
    EXPECT_TRUE(WaitUntil([&] { return links("shm") >= 1; }, absl::Seconds(10))) << "node " << id;
    EXPECT_EQ(links("tcp"), 0) << "node " << id;
  }

  int old_pid = cluster.Show()[3].pid;
  CommandResult stop = cluster.Mgm("3 STOP");
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_THAT(stop.out, HasSubstr("Node 3 has stopped"));
  std::map<int, ShownNode> nodes = cluster.Show();
  EXPECT_EQ(nodes[3].state, "not connected");
  EXPECT_EQ(nodes[2].state, "started");
  EXPECT_TRUE(WaitUntil([&] { return !ProcessAlive(old_pid); }, absl::Seconds(10)));
  // Node 2 now holds the only copy: stopping it too is refused, as ndb_mgm refuses a stop that
  // would crash the system.
  CommandResult refused = cluster.Mgm("2 STOP");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("Node 2 is the last live replica of node group 0"));
  EXPECT_THAT(cluster.Mgm("2 RESTART").err, HasSubstr("'2 RESTART -f'"));
  EXPECT_EQ(cluster.Show()[2].state, "started");

  CommandResult start = cluster.Mgm("3 START");
  EXPECT_EQ(start.exit_code, 0) << start.err;
  EXPECT_THAT(start.out, HasSubstr("Node 3 has started"));
  nodes = cluster.Show();
  EXPECT_EQ(nodes[3].state, "started");
  EXPECT_NE(nodes[3].pid, old_pid);
  EXPECT_EQ(nodes[3].restarts, 0);  // asked for, not a failure

  std::string log = cluster.ClusterLog();
  EXPECT_THAT(log, HasSubstr("[INFO] Node 3: STOP requested from the console"));
  EXPECT_THAT(log, HasSubstr("[INFO] Node 3: stopped"));
  EXPECT_THAT(log, HasSubstr("[INFO] Node 3: START requested from the console"));

  // Stopping the mgmd stops every node it launched; nothing is left running.
  std::vector<int> pids = NodePids(cluster);
  ASSERT_EQ(pids.size(), 4u);
  cluster.mgmd().Signal(SIGTERM);
  std::optional<int> status = cluster.mgmd().Wait(absl::Seconds(20));
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
  for (int pid : pids) EXPECT_FALSE(ProcessAlive(pid)) << "pid " << pid;
}

TEST(ClusterInABoxTest, AKilledDataNodeIsNoticedLoggedAndRestarted) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5}, "started")) << cluster.MgmdLog();
  int old_pid = cluster.Show()[2].pid;
  ASSERT_GT(old_pid, 0);
  ASSERT_EQ(kill(old_pid, SIGKILL), 0);

  // SHOW shows it gone, then back with a new process.
  EXPECT_TRUE(WaitUntil([&] { return cluster.Show()[2].state != "started"; }, absl::Seconds(10)) ||
              cluster.Show()[2].pid != old_pid);
  ASSERT_TRUE(WaitUntil(
      [&] {
        ShownNode node = cluster.Show()[2];
        return node.state == "started" && node.pid != old_pid && node.pid != 0;
      },
      absl::Seconds(30)))
      << cluster.ClusterLog();
  EXPECT_EQ(cluster.Show()[2].restarts, 1);
  EXPECT_EQ(cluster.Show()[3].state, "started");

  // The mgmd notices the death itself, or first hears of it from node 3, which lost sight of
  // its peer and asked for arbitration: either way it is an ALERT naming node 2.
  const auto failed = AnyOf(HasSubstr("[ALERT] Node 2: Data node failed"),
                            HasSubstr("[ALERT] Node 2: lost by node 3; arbitration chose node 3"));
  std::string log = cluster.ClusterLog();
  EXPECT_THAT(log, failed);
  EXPECT_THAT(log, HasSubstr(absl::StrCat("[ALERT] Node 2: process ", old_pid,
                                          " killed by signal 9 (Killed); restarting it in")));
  EXPECT_THAT(log, HasSubstr("[INFO] Node 2: Data node started"));
  // The same events are in the cluster log file.
  EXPECT_THAT(ReadFile(cluster.run_dir() + "/mgmd-1/cluster.log"), failed);
  std::optional<std::string> metrics = HttpGet(cluster.metrics_port(1), "/metrics");
  ASSERT_TRUE(metrics.has_value());
  EXPECT_THAT(*metrics, HasSubstr("shoal_mgmd_node_failures_total 1"));
  EXPECT_THAT(*metrics, HasSubstr("shoal_mgmd_node_restarts_total 1"));
}

TEST(ClusterInABoxTest, StopRightAfterACrashKeepsTheNodeStopped) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5}, "started")) << cluster.MgmdLog();
  int pid = cluster.Show()[3].pid;
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  ASSERT_TRUE(
      WaitUntil([&] { return cluster.Show()[3].state == "not connected"; }, absl::Seconds(10)));
  // Whether this lands during the restart back-off or just after the restart, it stops it.
  CommandResult stop = cluster.Mgm("3 STOP");
  EXPECT_EQ(stop.exit_code, 0) << stop.err;
  EXPECT_THAT(stop.out, HasSubstr("Node 3 has stopped"));
  absl::SleepFor(absl::Seconds(2));  // longer than the first restart delay
  EXPECT_EQ(cluster.Show()[3].state, "not connected") << cluster.ClusterLog();
  EXPECT_EQ(cluster.Show()[3].pid, 0);
}

constexpr char kFastHeartbeatConfig[] = R"(
cluster:
  replicas: 2
  heartbeat_interval: 100ms
  missed_heartbeats: 5
mgmd:
  id: 1
  host: 127.0.0.1
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
  metrics_port: 0
datanodes:
  - id: 2
    host: 127.0.0.1
    data_dir: {RUN_DIR}/dn2
  - id: 3
    host: 127.0.0.1
    data_dir: {RUN_DIR}/dn3
routers:
  - id: 4
    host: 127.0.0.1
    socket: {RUN_DIR}/r4.sock
)";

TEST(ClusterTest, AHungDataNodeIsDeclaredFailedWithinTheHeartbeatWindowAndRestarted) {
  TestCluster cluster = TestCluster::FromConfig(kFastHeartbeatConfig, {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4}, "started")) << cluster.MgmdLog();
  int hung_pid = cluster.Show()[3].pid;
  ASSERT_EQ(kill(hung_pid, SIGSTOP), 0);
  absl::Time stopped_at = absl::Now();

  // Declared failed by the mgmd's heartbeats, or by arbitration when data node 2 (which pings
  // its peer at the same rhythm) notices first.
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::string log = cluster.ClusterLog();
        return log.find("Node 3: Data node missed 5 heartbeats") != std::string::npos ||
               log.find("Node 3: lost by node 2; arbitration chose node 2") != std::string::npos;
      },
      absl::Seconds(10)))
      << cluster.ClusterLog();
  absl::Duration detection = absl::Now() - stopped_at;
  // The window is 5 x 100 ms; the bound leaves room for a loaded machine, not for a missed
  // detection (which would never come: the process is alive and its socket open).
  EXPECT_LT(detection, absl::Seconds(5));
  std::cerr << "hung node declared failed after " << detection << "\n";

  ASSERT_TRUE(WaitUntil(
      [&] {
        ShownNode node = cluster.Show()[3];
        return node.state == "started" && node.pid != hung_pid && node.pid != 0;
      },
      absl::Seconds(30)))
      << cluster.ClusterLog();
  EXPECT_FALSE(ProcessAlive(hung_pid));
  EXPECT_THAT(cluster.ClusterLog(),
              AnyOf(HasSubstr("Node 3: killed the unresponsive process"),
                    HasSubstr("Node 3: killed the process (it lost arbitration)")));
}

TEST(ClusterTest, ShutdownFromTheConsoleStopsEveryNodeAndTheMgmd) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5}, "started")) << cluster.MgmdLog();
  std::vector<int> pids = NodePids(cluster);
  CommandResult r = cluster.Mgm("SHUTDOWN");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("4 node(s) have shut down"));
  std::optional<int> status = cluster.mgmd().Wait(absl::Seconds(20));
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
  for (int pid : pids) EXPECT_FALSE(ProcessAlive(pid)) << "pid " << pid;
}

TEST(ConsoleTest, ExplainsBadCommandsAndIdsWithANonZeroExit) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5}, "started")) << cluster.MgmdLog();
  struct Case {
    std::string command;
    std::string error;
  };
  for (const Case& c : std::vector<Case>{
           {"9 STOP", "Node 9 is not in the configuration"},
           {"1 STOP", "Node 1 is the management daemon; use SHUTDOWN"},
           {"2 START", "Node 2 is already running (started)"},
           {"0 STOP", "'0' is not a node id"},
           {"frobnicate", "Unknown command 'frobnicate'; type HELP"},
           {"3 dance", "Unknown command 'DANCE' for node 3"},
           {"42 STATUS", "Node 42 is not in the configuration"},
       }) {
    CommandResult r = cluster.Mgm(c.command);
    EXPECT_EQ(r.exit_code, 1) << c.command;
    EXPECT_THAT(r.err, HasSubstr(c.error)) << c.command;
  }
  CommandResult help = cluster.Mgm("HELP");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("<id> RESTART"));
  CommandResult status = cluster.Mgm("2 STATUS");
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_THAT(status.out, HasSubstr("Node 2: datanode, started for"));

  CommandResult unreachable = RunCommand(
      {BinDir() + "/shoal-mgm", "-c", absl::StrCat("127.0.0.1:", FreePort()), "-e", "SHOW"});
  EXPECT_EQ(unreachable.exit_code, 1);
  EXPECT_THAT(unreachable.err, HasSubstr("cannot connect to the management daemon"));
}

// Runs `command` at the console until its output satisfies `ready` (reports come with the
// nodes' heartbeats, within seconds); returns the last output.
std::string ConsoleOnceReady(const TestCluster& cluster, const std::string& command,
                             absl::FunctionRef<bool(absl::string_view)> ready) {
  std::string out;
  EXPECT_TRUE(WaitUntil(
      [&] {
        out = cluster.Mgm(command).out;
        return ready(out);
      },
      absl::Seconds(10)))
      << command << ": " << out;
  return out;
}

TEST(ConsoleTest, ReportsMemoryAndThreadsFromTheNodesHeartbeats) {
  TestCluster cluster = TestCluster::Embedded();
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5}, "started")) << cluster.MgmdLog();
  // Each data node's memory: the embedded default's 512M each, nothing reserved while the
  // cluster is empty, pages once a table has rows (on both replicas).
  // (Each node's first report comes with its first heartbeat after it started.)
  std::string report =
      ConsoleOnceReady(cluster, "ALL REPORT MEMORYUSAGE", [](absl::string_view out) {
        return absl::StrContains(out, "Node 2: Data usage") &&
               absl::StrContains(out, "Node 3: Data usage");
      });
  EXPECT_THAT(report, ::testing::MatchesRegex("Node 2: Data usage is [0-9]+%\\([0-9.]+ "
                                              "(bytes|[KMG]iB) of 512 MiB\\)\nNode 3: .*\n"));
  CommandResult created = RunCommand(
      {"/usr/bin/mariadb", "-S", cluster.run_dir() + "/router-4.sock", "-u", "root", "-e",
       "CREATE DATABASE m; CREATE TABLE m.t (id INT PRIMARY KEY, v VARCHAR(100));"
       "INSERT INTO m.t VALUES (1, 'a'), (2, 'b'), (3, 'c')"});
  ASSERT_EQ(created.exit_code, 0) << created.err;
  ConsoleOnceReady(cluster, "ALL REPORT MEMORYUSAGE", [](absl::string_view out) {
    return !absl::StrContains(out, "0 bytes") && absl::StrContains(out, "Node 3: Data");
  });
  EXPECT_EQ(cluster.Mgm("4 REPORT MEMORY").out, "Node 4: not a data node\n");
  // For scripts: the reply as JSON, with the same numbers.
  CommandResult json =
      RunCommand({BinDir() + "/shoal-mgm", "-c", absl::StrCat("127.0.0.1:", cluster.mgmd_port()),
                  "--json", "-e", "2 REPORT MEMORY"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr(R"("node_id":2,"type":"DATANODE")"));
  EXPECT_THAT(json.out, HasSubstr(R"("data_limit_bytes":"536870912")"));
  // Every thread of a node, by the name it gave itself, with its CPU.
  std::string threads = ConsoleOnceReady(cluster, "2 REPORT THREADS", [](absl::string_view out) {
    return absl::StrContains(out, "data-plane");
  });
  EXPECT_THAT(threads, ::testing::MatchesRegex("Node 2: datanode, pid [0-9]+, [0-9]+ threads\n"
                                               "(  [-a-z0-9]+ +user +[0-9.]+%  system +[0-9.]+%  "
                                               "\\(tid [0-9]+\\)\n)+"));
  EXPECT_THAT(threads, HasSubstr("redo-writer"));
  // Routers heartbeat every 1.5 s.
  ConsoleOnceReady(cluster, "ALL REPORT THREADS",
                   [](absl::string_view out) { return absl::StrContains(out, "router-w0"); });
}

constexpr char kTwoNodeGroups[] = R"(
cluster:
  replicas: 2
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - {id: 2, data_dir: "{RUN_DIR}/dn2"}
  - {id: 3, data_dir: "{RUN_DIR}/dn3"}
  - {id: 4, data_dir: "{RUN_DIR}/dn4"}
  - {id: 5, data_dir: "{RUN_DIR}/dn5"}
routers:
  - {id: 6, socket: "{RUN_DIR}/r6.sock"}
users:
  - name: root
)";

CommandResult Sql(const TestCluster& cluster, const std::string& statement) {
  return RunCommand({"/usr/bin/mariadb", "-S", cluster.run_dir() + "/r6.sock", "-u", "root", "-N",
                     "-e", statement});
}

// A node group whose every replica died cannot serve its rows until it restores them from disk.
// That is a cluster failure, said as one, and the whole cluster restarts from disk (a system
// restart) — never a cluster that serves on with one node group's rows missing from every
// table. Every row committed in a complete epoch is back, in both node groups.
TEST(ClusterTest, ANodeGroupWithNoLiveReplicaIsAClusterFailureAndEveryDataNodeRestarts) {
  TestCluster cluster = TestCluster::FromConfig(kTwoNodeGroups, {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({2, 3, 4, 5, 6}, "started")) << cluster.MgmdLog();
  CommandResult made = Sql(cluster,
                           "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY);"
                           "INSERT INTO d.t VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  // Two epochs (1 s each by default): the rows are on disk on every data node.
  absl::SleepFor(absl::Milliseconds(2500));
  std::map<int, ShownNode> before = cluster.Show();
  // Both replicas of node group 1 die at once.
  ASSERT_EQ(kill(before[4].pid, SIGKILL), 0);
  ASSERT_EQ(kill(before[5].pid, SIGKILL), 0);
  ASSERT_TRUE(WaitUntil(
      [&] {
        return cluster.ClusterLog().find(
                   "Cluster failure: node group 1 has no live replica "
                   "left") != std::string::npos;
      },
      absl::Seconds(10)))
      << cluster.ClusterLog();
  // Node group 0 lost nothing, yet restarts with the rest: new processes, all serving.
  ASSERT_TRUE(WaitUntil(
      [&] {
        std::map<int, ShownNode> now = cluster.Show();
        for (int id : {2, 3, 4, 5}) {
          if (now[id].state != "started" || now[id].pid == before[id].pid) return false;
        }
        return true;
      },
      absl::Seconds(60)))
      << cluster.ClusterLog();
  // The cluster serves again, every row restored from disk.
  CommandResult after;
  ASSERT_TRUE(WaitUntil(
      [&] {
        after = Sql(cluster, "SELECT COUNT(*) FROM d.t");
        return after.err.find("1297") == std::string::npos;  // not a temporary error
      },
      absl::Seconds(30)));
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_THAT(after.out, HasSubstr("10")) << after.out;
  EXPECT_NE(cluster.ClusterLog().find("System restart: recovering epoch"), std::string::npos)
      << cluster.ClusterLog();
  CommandResult fresh = Sql(cluster, "CREATE DATABASE d2; CREATE TABLE d2.t (id INT PRIMARY KEY)");
  EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
}

constexpr char kRealtimeConfig[] = R"(
cluster:
  realtime_scheduler: true
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - {id: 2, data_dir: "{RUN_DIR}/dn2"}
  - {id: 3, data_dir: "{RUN_DIR}/dn3"}
routers:
  - {id: 4, socket: "{RUN_DIR}/r4.sock", threads: 2}
)";

// Each thread of `pid`: its tid, name and scheduling policy (0 ordinary, 2 SCHED_RR).
struct ThreadPolicy {
  int tid = 0;
  std::string name;
  int policy = -1;
};
std::vector<ThreadPolicy> ThreadPolicies(int pid) {
  std::vector<ThreadPolicy> threads;
  std::string task = absl::StrCat("/proc/", pid, "/task");
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(task, ec)) {
    ThreadPolicy t;
    if (!absl::SimpleAtoi(entry.path().filename().string(), &t.tid)) continue;
    std::string stat = ReadFile(entry.path().string() + "/stat");
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::vector<std::string> fields =
        absl::StrSplit(stat.substr(close + 2), ' ', absl::SkipEmpty());
    // Field 41 of stat (policy) is the 39th after the command name.
    if (fields.size() < 39 || !absl::SimpleAtoi(fields[38], &t.policy)) continue;
    t.name = std::string(absl::StripAsciiWhitespace(ReadFile(entry.path().string() + "/comm")));
    threads.push_back(t);
  }
  return threads;
}

// Whether this machine lets a process use SCHED_RR (root, CAP_SYS_NICE or RLIMIT_RTPRIO).
bool RealtimePermitted() {
  pid_t child = fork();
  if (child == 0) {
    sched_param param{};
    param.sched_priority = 10;
    _exit(sched_setscheduler(0, SCHED_RR, &param) == 0 ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(ClusterTest, RealtimeSchedulingIsForTheThreadsThatCarryHeartbeatsOnly) {
  TestCluster cluster = TestCluster::FromConfig(kRealtimeConfig, {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({1, 2, 3, 4}, "started")) << cluster.MgmdLog();
  std::map<int, ShownNode> nodes = cluster.Show();
  if (!RealtimePermitted()) {
    // One clear line says why, and the node runs on.
    EXPECT_TRUE(WaitUntil(
        [&] {
          return ReadFile(cluster.run_dir() + "/mgmd/shoal-datanode-2.log")
                     .find(
                         "realtime scheduling (SCHED_RR) for the control thread is not "
                         "permitted here") != std::string::npos;
        },
        absl::Seconds(10)));
    GTEST_SKIP() << "SCHED_RR is not permitted on this machine: checked the warning only";
  }
  // Realtime: the mgmd's loop, each node's control loop (its main thread) and a data node's
  // data-plane thread; every other thread (metrics, router workers) ordinary.
  auto expect = [](int pid, const std::vector<std::string>& realtime_names) {
    std::vector<ThreadPolicy> threads = ThreadPolicies(pid);
    ASSERT_FALSE(threads.empty()) << "pid " << pid;
    for (const ThreadPolicy& t : threads) {
      bool realtime = t.tid == pid || std::find(realtime_names.begin(), realtime_names.end(),
                                                t.name) != realtime_names.end();
      EXPECT_EQ(t.policy, realtime ? 2 : 0)
          << "pid " << pid << " thread " << t.tid << " (" << t.name << ")";
    }
  };
  expect(nodes[1].pid, {});
  expect(nodes[2].pid, {"data-plane"});
  expect(nodes[3].pid, {"data-plane"});
  expect(nodes[4].pid, {});
  // A node the realtime mgmd starts again starts ordinary, then raises its own loops.
  ASSERT_EQ(kill(nodes[4].pid, SIGKILL), 0);
  ASSERT_TRUE(WaitUntil(
      [&] {
        ShownNode router = cluster.Show()[4];
        return router.state == "started" && router.pid != nodes[4].pid;
      },
      absl::Seconds(30)));
  expect(cluster.Show()[4].pid, {});
}

}  // namespace
}  // namespace shoal::testing
