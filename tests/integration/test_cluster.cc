#include "tests/integration/test_cluster.h"

#include <csignal>
#include <filesystem>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace shoal::testing {

std::string RouterClusterConfig(const std::string& more_routers) {
  return R"(
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
  - id: 3
    data_dir: {RUN_DIR}/dn3
routers:
  - id: 4
    socket: {RUN_DIR}/r4.sock
    port: {ROUTER_PORT}
    threads: 2
    metrics_port: {METRICS_BASE}
)" + more_routers +
         R"(users:
  - name: root
  - name: app
    native_hash: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"
    sha256_hash: "3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7"
)";
}

TestCluster TestCluster::Embedded(const std::vector<std::string>& extra_args) {
  TestCluster cluster;
  cluster.run_dir_ = MakeTempDir("shoal-it");
  cluster.mgmd_port_ = FreePort();
  cluster.metrics_base_ = FreePort(8);
  int router_base = FreePort(2);
  std::vector<std::string> argv = {BinDir() + "/shoal-mgmd",
                                   "--run-dir",
                                   cluster.run_dir_,
                                   "--port",
                                   std::to_string(cluster.mgmd_port_),
                                   "--base-port",
                                   std::to_string(router_base),
                                   "--metrics-base-port",
                                   std::to_string(cluster.metrics_base_)};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  cluster.Launch(std::move(argv));
  return cluster;
}

TestCluster TestCluster::FromConfig(const std::string& yaml,
                                    const std::vector<std::string>& extra_args) {
  TestCluster cluster;
  cluster.run_dir_ = MakeTempDir("shoal-it");
  cluster.mgmd_port_ = FreePort();
  cluster.metrics_base_ = FreePort(8);
  cluster.router_port_ = FreePort(2);
  std::vector<std::pair<std::string, std::string>> replacements = {
      {"{RUN_DIR}", cluster.run_dir_},
      {"{MGMD_PORT}", std::to_string(cluster.mgmd_port_)},
      {"{METRICS_BASE}", std::to_string(cluster.metrics_base_)},
      {"{ROUTER_PORT}", std::to_string(cluster.router_port_)}};
  for (int id = 1; id < 8; ++id) {
    replacements.emplace_back(absl::StrCat("{METRICS_PORT_", id, "}"),
                              std::to_string(cluster.metrics_port(id)));
  }
  std::string text = absl::StrReplaceAll(yaml, replacements);
  std::string path = cluster.run_dir_ + "/cluster.yaml";
  WriteFile(path, text);
  std::vector<std::string> argv = {BinDir() + "/shoal-mgmd", "--config-file", path};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  cluster.Launch(std::move(argv));
  return cluster;
}

void TestCluster::Launch(std::vector<std::string> argv) {
  mgmd_argv_ = std::move(argv);
  mgmd_.emplace(Subprocess::Start(mgmd_argv_, run_dir_ + "/mgmd.out"));
}

void TestCluster::RestartMgmdHard() {
  mgmd_->Signal(SIGKILL);
  mgmd_->Wait(absl::Seconds(10));
  mgmd_.reset();  // kills what is left of its process group
  mgmd_.emplace(Subprocess::Start(mgmd_argv_, run_dir_ + "/mgmd.out"));
}

void TestCluster::Relaunch() {
  mgmd_->Wait(absl::Seconds(30));
  mgmd_.reset();
  mgmd_.emplace(Subprocess::Start(mgmd_argv_, run_dir_ + "/mgmd-again.out"));
}

TestCluster::~TestCluster() {
  if (run_dir_.empty()) return;  // moved from
  if (mgmd_.has_value()) {
    // A graceful stop first, so the nodes it launched stop too; then the group is killed.
    mgmd_->Signal(SIGTERM);
    mgmd_->Wait(absl::Seconds(15));
    mgmd_.reset();
  }
  if (getenv("SHOAL_TEST_KEEP_RUN_DIR") != nullptr) {
    std::cerr << "run directory kept: " << run_dir_ << std::endl;  // logs, for a post-mortem
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(run_dir_, ec);
}

CommandResult TestCluster::Mgm(const std::string& command) const {
  return RunCommand(
      {BinDir() + "/shoal-mgm", "-c", absl::StrCat("127.0.0.1:", mgmd_port_), "-e", command});
}

std::map<int, ShownNode> TestCluster::Show() const {
  std::map<int, ShownNode> nodes;
  CommandResult r = Mgm("SHOW");
  if (r.exit_code != 0) return nodes;
  for (absl::string_view line : absl::StrSplit(r.out, '\n')) {
    if (!absl::ConsumePrefix(&line, "id=")) continue;
    int id = 0;
    if (!absl::SimpleAtoi(line.substr(0, line.find(' ')), &id)) continue;
    size_t open = line.find('(');
    size_t close = line.rfind(')');
    if (open == absl::string_view::npos || close == absl::string_view::npos) continue;
    ShownNode node;
    for (absl::string_view part : absl::StrSplit(line.substr(open + 1, close - open - 1), ", ")) {
      if (part == "started" || part == "not connected" || part == "starting" ||
          part == "stopping") {
        node.state = std::string(part);
      } else if (absl::ConsumePrefix(&part, "pid ")) {
        (void)absl::SimpleAtoi(part, &node.pid);
      } else if (absl::ConsumePrefix(&part, "restarts ")) {
        (void)absl::SimpleAtoi(part, &node.restarts);
      }
    }
    nodes[id] = node;
  }
  return nodes;
}

bool TestCluster::WaitForState(const std::vector<int>& ids, const std::string& state,
                               absl::Duration timeout) const {
  return WaitUntil(
      [&] {
        std::map<int, ShownNode> nodes = Show();
        for (int id : ids) {
          if (!nodes.contains(id) || nodes[id].state != state) return false;
        }
        return true;
      },
      timeout);
}

std::string TestCluster::ClusterLog() const { return Mgm("CLUSTERLOG").out; }

bool TestCluster::WaitForRestart(const std::map<int, ShownNode>& before,
                                 const std::vector<int>& ids, absl::Duration timeout) const {
  return WaitUntil(
      [&] {
        std::map<int, ShownNode> now = Show();
        for (int id : ids) {
          auto was = before.find(id);
          if (now[id].state != "started" ||
              (was != before.end() && now[id].pid == was->second.pid)) {
            return false;
          }
        }
        return true;
      },
      timeout);
}

std::string TestCluster::MgmdLog() const { return ReadFile(run_dir_ + "/mgmd.out"); }

}  // namespace shoal::testing
