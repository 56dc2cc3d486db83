// Network partitions (docs/architecture.md I5, no split brain): the mgmd and the two data nodes of
// one node group, each in a network namespace of its own created here, joined by a bridge
// (veth pairs, private addresses); the test's own client reaches them through one more veth.
// Cutting the link between the data nodes leaves exactly one of them serving, by arbitration;
// cutting one data node off from everything makes it stop on its own while the other serves.
// The cluster spans hosts, so its links use TLS (cluster.tls: auto): every process has its
// host's set from `shoal-mgmd --make-cluster-certificates`, and so does the test's client.
// Needs root and iproute2 (`ip netns`); every namespace and interface is removed afterwards.
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/tls/link_context.h"
#include "engine/api/cluster.h"
#include "engine/api/sync_client.h"
#include "engine/schema/row.h"
#include "gtest/gtest.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

constexpr char kIp[] = "/usr/sbin/ip";

// Runs `ip args…`; false (and the output, in the test log) when it fails.
bool Ip(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {kIp};
  argv.insert(argv.end(), args.begin(), args.end());
  CommandResult result = RunCommand(argv, absl::Seconds(10));
  if (result.exit_code != 0) {
    ADD_FAILURE() << "ip " << absl::StrJoin(args, " ") << ": " << result.err << result.out;
  }
  return result.exit_code == 0;
}

// The namespaces and links: m (the mgmd and the bridge), a and b (one data node each), and a
// veth from the test's own namespace into the bridge.
class Network {
 public:
  Network() : tag_(absl::StrCat("sh", getpid() % 100000)), subnet_(Subnet()) {}
  ~Network() {
    for (const char* ns : {"m", "a", "b"}) {
      RunCommand({kIp, "netns", "del", Ns(ns)}, absl::Seconds(10));
    }
    RunCommand({kIp, "link", "del", tag_ + "r"}, absl::Seconds(10));
  }

  bool Create() {
    for (const char* ns : {"m", "a", "b"}) {
      if (!Ip({"netns", "add", Ns(ns)}) || !Exec(ns, {"link", "set", "lo", "up"})) return false;
    }
    if (!Exec("m", {"link", "add", "br0", "type", "bridge"}) ||
        !Exec("m", {"addr", "add", Address(1) + "/24", "dev", "br0"}) ||
        !Exec("m", {"link", "set", "br0", "up"})) {
      return false;
    }
    // a and b, then the test's own namespace ("r", left in the root namespace).
    for (auto [ns, host] : {std::pair<const char*, int>{"a", 2}, {"b", 3}, {"r", 10}}) {
      std::string outside = tag_ + ns;        // the end in the namespace (or root)
      std::string inside = tag_ + ns + "br";  // the end on the bridge
      if (!Ip({"link", "add", outside, "type", "veth", "peer", "name", inside}) ||
          !Ip({"link", "set", inside, "netns", Ns("m")}) ||
          !Exec("m", {"link", "set", inside, "master", "br0"}) ||
          !Exec("m", {"link", "set", inside, "up"})) {
        return false;
      }
      if (std::string(ns) == "r") {
        if (!Ip({"addr", "add", Address(host) + "/24", "dev", outside}) ||
            !Ip({"link", "set", outside, "up"})) {
          return false;
        }
        continue;
      }
      if (!Ip({"link", "set", outside, "netns", Ns(ns)}) ||
          !Exec(ns, {"addr", "add", Address(host) + "/24", "dev", outside}) ||
          !Exec(ns, {"link", "set", outside, "up"})) {
        return false;
      }
    }
    return true;
  }

  // Drops what data node namespace `ns` sends to `to` (the link between them, cut one way).
  bool Blackhole(const char* ns, int to) {
    return Exec(ns, {"route", "add", "blackhole", Address(to) + "/32"});
  }
  // Takes namespace `ns`'s only link down: it reaches nobody, nobody reaches it.
  bool Isolate(const char* ns) { return Exec(ns, {"link", "set", tag_ + ns, "down"}); }

  std::string Ns(const char* ns) const { return absl::StrCat(tag_, "-", ns); }
  std::string Address(int host) const { return absl::StrCat(subnet_, ".", host); }

 private:
  static std::string Subnet() { return absl::StrCat("10.254.", getpid() % 250); }
  bool Exec(const char* ns, std::vector<std::string> args) {
    args.insert(args.begin(), {"netns", "exec", Ns(ns), kIp});
    return Ip(args);
  }

  std::string tag_;
  std::string subnet_;
};

class PartitionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0 || access(kIp, X_OK) != 0) {
      GTEST_SKIP() << "needs root and iproute2 (" << kIp << ") for network namespaces";
    }
    // A container without CAP_NET_ADMIN cannot make namespaces: say so rather than fail.
    std::string probe = network_.Ns("probe");
    CommandResult made = RunCommand({kIp, "netns", "add", probe}, absl::Seconds(10));
    if (made.exit_code != 0) {
      GTEST_SKIP() << "this machine does not allow network namespaces: " << made.err;
    }
    RunCommand({kIp, "netns", "del", probe}, absl::Seconds(10));
    ASSERT_TRUE(network_.Create());
    run_dir_ = MakeTempDir("shoal-part");
    port_ = 1186;  // the mgmd's namespace is ours alone
    std::ofstream(run_dir_ + "/cluster.yaml") << absl::StrCat(R"(
cluster:
  replicas: 2
  data_memory: 64M
  heartbeat_interval: 200ms
  missed_heartbeats: 5
  lock_wait_timeout: 300ms
mgmd:
  host: )",
                                                              network_.Address(1), R"(
  port: )",
                                                              port_, R"(
  data_dir: )",
                                                              run_dir_, R"(/mgmd
datanodes:
  - id: 2
    host: )",
                                                              network_.Address(2), R"(
    data_dir: )",
                                                              run_dir_, R"(/dn2
  - id: 3
    host: )",
                                                              network_.Address(3), R"(
    data_dir: )",
                                                              run_dir_, R"(/dn3
)");
    CommandResult certificates =
        RunCommand({BinDir() + "/shoal-mgmd", "--config-file", run_dir_ + "/cluster.yaml",
                    "--make-cluster-certificates", TlsDir()});
    ASSERT_EQ(certificates.exit_code, 0) << certificates.err << certificates.out;
    mgmd_.emplace(
        Subprocess::Start({kIp, "netns", "exec", network_.Ns("m"), BinDir() + "/shoal-mgmd",
                           "--config-file", run_dir_ + "/cluster.yaml", "--tls-dir", TlsDir(1)},
                          run_dir_ + "/mgmd.out"));
    for (auto [id, ns] : {std::pair<int, const char*>{2, "a"}, {3, "b"}}) {
      nodes_.push_back(std::make_unique<Subprocess>(
          Subprocess::Start({kIp, "netns", "exec", network_.Ns(ns), BinDir() + "/shoal-datanode",
                             "--connect-string", absl::StrCat(network_.Address(1), ":", port_),
                             "--node-id", std::to_string(id), "--tls-dir", TlsDir(id)},
                            absl::StrCat(run_dir_, "/dn", id, ".out"))));
    }
    // The test's client is a member too: any host's set proves it.
    absl::StatusOr<std::unique_ptr<tls::LinkContext>> link = tls::LinkContext::Load(TlsDir(1));
    ASSERT_TRUE(link.ok()) << link.status();
    link_tls_ = std::move(*link);
    ASSERT_TRUE(WaitUntil([&] { return Serving().size() == 2; }, absl::Seconds(30)))
        << "the data nodes did not start";
    api::Cluster::Options options;
    options.use_shared_memory = false;
    options.link_tls = link_tls_.get();
    cluster_ = std::make_unique<api::Cluster>(options);
    RefreshView();
    client_ = std::make_unique<api::SyncClient>(cluster_.get());
    wire::DictReq create_db;
    create_db.mutable_create_database()->set_name("part");
    ASSERT_TRUE(client_->Dictionary(create_db).ok());
    wire::DictReq create;
    schema::TableDef def;
    def.name = "t";
    def.database = "part";
    schema::ColumnDef id, v;
    id.name = "id";
    id.type = schema::ColumnType::kBigInt;
    v.name = "v";
    v.type = schema::ColumnType::kBigInt;
    def.columns = {id, v};
    schema::IndexDef primary;
    primary.name = "PRIMARY";
    primary.columns = {0};
    primary.primary = primary.unique = true;
    def.indexes = {primary};
    schema::AppendTableDef(def, create.mutable_create_table()->mutable_table());
    absl::StatusOr<wire::DictConf> created = client_->Dictionary(create);
    ASSERT_TRUE(created.ok() && created->error_code() == 0) << created.status();
    absl::StatusOr<api::TablePtr> t = client_->Table("part", "t");
    ASSERT_TRUE(t.ok()) << t.status();
    table_ = *t;
  }

  void TearDown() override {
    nodes_.clear();
    mgmd_.reset();
    std::error_code ignored;
    if (!run_dir_.empty()) std::filesystem::remove_all(run_dir_, ignored);
  }

  // The cluster's certificates, and the set of the host with address `host`.
  std::string TlsDir() const { return run_dir_ + "/tls"; }
  std::string TlsDir(int host) const { return absl::StrCat(TlsDir(), "/", network_.Address(host)); }

  // The data nodes the mgmd has serving.
  std::vector<int> Serving() {
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView(network_.Address(1), port_, absl::Seconds(2), link_tls_.get());
    std::vector<int> serving;
    if (!view.ok()) return serving;
    for (const auto& node : view->nodes()) {
      if (node.type() == control::DATANODE && node.state() == control::STARTED) {
        serving.push_back(static_cast<int>(node.node_id()));
      }
    }
    return serving;
  }
  void RefreshView() {
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView(network_.Address(1), port_, absl::Seconds(2), link_tls_.get());
    if (view.ok()) cluster_->SetView(*view);
  }
  // Writes rows [first, first + n) one by one; how many were acknowledged.
  int Write(int64_t first, int n) {
    int acked = 0;
    for (int64_t id = first; id < first + n; ++id) {
      schema::RowWriter w;
      w.BeginRow(2);
      w.Int(table_->columns[0], id);
      w.Int(table_->columns[1], id * 7);
      if (client_->Write(*table_, w.view()).ok()) ++acked;
    }
    return acked;
  }
  // Whether data node process `index` (0: node 2, 1: node 3) has exited (reaped once).
  bool Exited(int index) {
    if (!exited_[index]) exited_[index] = nodes_[index]->Wait(absl::ZeroDuration()).has_value();
    return exited_[index];
  }

  // After a fault: exactly one data node serves and the other has stopped; writes go on.
  void ExpectOneSideServes() {
    ASSERT_TRUE(WaitUntil([&] { return Exited(0) || Exited(1); }, absl::Seconds(20)))
        << "neither data node stopped";
    absl::SleepFor(absl::Seconds(1));  // whatever would go wrong next has had time to
    EXPECT_NE(Exited(0), Exited(1)) << "both data nodes stopped";
    std::vector<int> serving = Serving();
    ASSERT_EQ(serving.size(), 1u) << "the mgmd has " << serving.size() << " serving";
    int survivor = Exited(0) ? 3 : 2;
    EXPECT_EQ(serving[0], survivor);
    RefreshView();
    bool resumed = WaitUntil(
        [&] {
          RefreshView();
          return Write(next_id_, 1) == 1;
        },
        absl::Seconds(10));
    EXPECT_TRUE(resumed) << "no write went through on data node " << survivor;
    ++next_id_;
    EXPECT_EQ(Write(next_id_, 100), 100);
    next_id_ += 100;
  }

  Network network_;
  std::string run_dir_;
  int port_ = 0;
  std::optional<Subprocess> mgmd_;
  std::vector<std::unique_ptr<Subprocess>> nodes_;
  bool exited_[2] = {false, false};
  std::unique_ptr<tls::LinkContext> link_tls_;  // outlives cluster_
  std::unique_ptr<api::Cluster> cluster_;
  std::unique_ptr<api::SyncClient> client_;
  api::TablePtr table_;
  int64_t next_id_ = 1000;
};

TEST_F(PartitionTest, CutBetweenTheDataNodesLeavesExactlyOneServing) {
  ASSERT_EQ(Write(0, 200), 200);
  // Each still reaches the mgmd; they no longer reach each other.
  ASSERT_TRUE(network_.Blackhole("a", 3));
  ASSERT_TRUE(network_.Blackhole("b", 2));
  ExpectOneSideServes();
  // Nothing acknowledged before the cut is lost on the side that serves.
  int found = 0;
  for (int64_t id = 0; id < 200; ++id) {
    schema::RowWriter w;
    w.BeginKey();
    w.Int(table_->columns[0], id);
    std::vector<uint16_t> columns = {1};
    found += client_->Read(*table_, w.view(), columns).ok() ? 1 : 0;
  }
  EXPECT_EQ(found, 200);
}

TEST_F(PartitionTest, DataNodeCutOffFromEverythingStopsItself) {
  ASSERT_EQ(Write(0, 200), 200);
  ASSERT_TRUE(network_.Isolate("b"));  // no mgmd, no peer: it may not serve on
  ExpectOneSideServes();
  EXPECT_TRUE(Exited(1)) << "the isolated data node kept running";
}

}  // namespace
}  // namespace shoal::testing
