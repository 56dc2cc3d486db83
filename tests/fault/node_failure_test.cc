// Issue 6's acceptance test ("Show", first bullet): native-API writers run against two data
// nodes of one node group (replicas: 2) launched and supervised by the mgmd; data node 2 is
// killed with SIGKILL mid-run, the mgmd restarts it and it rejoins under load, then data node 3
// is killed. Afterwards every key ever written is read back: every acknowledged commit must be
// there, no transaction partial, no row that no write could have made; the only errors the
// writers may see are temporary ones, and service must resume after each kill (the time is
// measured and reported).
#include <signal.h>

#include <atomic>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/fault/checker.h"
#include "tests/fault/workload.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

constexpr char kConfig[] = R"(
cluster:
  replicas: 2
  data_memory: 256M  # room for every row the writers may make (workload.h caps them)
  heartbeat_interval: 100ms
  missed_heartbeats: 3
  lock_wait_timeout: 300ms
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
    socket: {RUN_DIR}/dn2.sock
  - id: 3
    data_dir: {RUN_DIR}/dn3
    socket: {RUN_DIR}/dn3.sock
)";

constexpr int kWriters = 4;
constexpr absl::Duration kLoadBetweenSteps = absl::Seconds(2);
constexpr absl::Duration kResumeLimit = absl::Seconds(30);
constexpr absl::Duration kRestartLimit = absl::Seconds(60);

std::string Ms(absl::Duration d) { return absl::StrCat(absl::ToInt64Milliseconds(d), " ms"); }

int Millis(absl::Duration d) { return static_cast<int>(absl::ToInt64Milliseconds(d)); }

// What one kill showed.
struct KillReport {
  int node = 0;
  int pid = 0;  // the process killed
  absl::Time killed_at;
  std::optional<absl::Duration> first_commit;     // kill → first acknowledged commit (any thread)
  std::optional<absl::Duration> every_partition;  // kill → a commit on every partition
  std::optional<absl::Duration> back;             // kill → SHOW says "started" again (new pid)

  static std::string Text(const std::optional<absl::Duration>& d) {
    return d.has_value() ? Ms(*d) : std::string("never");
  }
  std::string Resumed() const { return Text(first_commit); }
  std::string Describe() const {
    return absl::StrCat("node ", node, " killed: service resumed after ", Text(first_commit),
                        " (first acknowledged commit), on every partition after ",
                        Text(every_partition), "; node ", node, " started again after ",
                        Text(back));
  }
};

class NodeFailureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ = std::make_unique<TestCluster>(TestCluster::FromConfig(kConfig, {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
    NoteDataNodePids();
  }

  // The writers stop; the cluster goes (the mgmd stops its nodes, then its process group is
  // killed); then no data node process this test saw may be left.
  void TearDown() override {
    StopWriters();
    cluster_.reset();
    for (int pid : data_node_pids_) {
      if (ProcessAlive(pid)) {
        ADD_FAILURE() << "data node process " << pid << " outlived its cluster; killing it";
        kill(pid, SIGKILL);
      }
    }
  }

  // Creates the table and the writers, and starts them (each on a thread of its own, the
  // view followed for all of them by one more).
  void StartWriters() {
    int mgmd_port = cluster_->mgmd_port();
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView("127.0.0.1", mgmd_port, absl::Seconds(5));
    ASSERT_TRUE(view.ok()) << view.status();
    api::Cluster setup_cluster(api::Cluster::Options{});
    setup_cluster.SetView(*view);
    api::SyncClient setup(&setup_cluster);
    absl::Status created = CreateAckedTable(&setup);
    ASSERT_TRUE(created.ok()) << created;
    absl::StatusOr<api::TablePtr> table = setup.Table(kFaultDatabase, kAckedTable);
    ASSERT_TRUE(table.ok()) << table.status();
    clock_ = std::make_unique<ResumeClock>((*table)->partitions);

    std::vector<api::Cluster*> clusters;
    for (int id = 0; id < kWriters; ++id) {
      absl::StatusOr<std::unique_ptr<Writer>> writer = Writer::Create(id, mgmd_port, clock_.get());
      ASSERT_TRUE(writer.ok()) << writer.status();
      clusters.push_back((*writer)->cluster());
      writers_.push_back(std::move(*writer));
    }
    follower_ = std::make_unique<ViewFollower>(mgmd_port, clusters);
    for (auto& w : writers_) {
      threads_.emplace_back([this, writer = w.get()] {
        writer->Run(stop_);
        finished_.fetch_add(1);
      });
    }
  }

  void StopWriters() {
    if (threads_.empty()) return;
    stop_.store(true);
    // A writer blocked in an operation that never ends would hang the test: give them a
    // deadline, then take the cluster down, which ends every operation with an error.
    if (!WaitUntil([&] { return finished_.load() == static_cast<int>(threads_.size()); },
                   absl::Seconds(30))) {
      ADD_FAILURE() << "writers still blocked in an operation 30 s after being stopped";
      cluster_->mgmd().SignalGroup(SIGKILL);
    }
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    follower_.reset();
  }

  void NoteDataNodePids() {
    for (const auto& [id, node] : cluster_->Show()) {
      if ((id == 2 || id == 3) && node.pid > 0) data_node_pids_.insert(node.pid);
    }
  }

  int64_t Acknowledged() const {
    int64_t n = 0;
    for (const auto& w : writers_) n += w->acknowledged();
    return n;
  }

  // Lets the writers run for `duration`, and until they have had at least one more commit
  // acknowledged (so each step of the scenario happens under load).
  void KeepWriting(absl::Duration duration) {
    int64_t before = Acknowledged();
    absl::SleepFor(duration);
    EXPECT_TRUE(WaitUntil([&] { return Acknowledged() > before; }, kResumeLimit))
        << "no commit acknowledged for " << Ms(duration + kResumeLimit);
  }

  // SIGKILL to data node `node`; returns once writes have resumed on every partition (or
  // kResumeLimit passed).
  KillReport KillDataNode(int node) {
    KillReport report;
    report.node = node;
    std::map<int, ShownNode> shown = cluster_->Show();
    report.pid = shown[node].pid;
    EXPECT_EQ(shown[node].state, "started");
    EXPECT_GT(report.pid, 0) << "SHOW gave no pid for node " << node;
    if (report.pid <= 0) return report;
    clock_->Arm();
    report.killed_at = absl::Now();
    EXPECT_EQ(kill(report.pid, SIGKILL), 0) << "kill -9 " << report.pid;
    WaitUntil([&] { return clock_->EveryPartition().has_value(); }, kResumeLimit);
    report.first_commit = clock_->FirstCommit();
    report.every_partition = clock_->EveryPartition();
    EXPECT_TRUE(report.every_partition.has_value())
        << "node " << node << " killed: writes did not resume on every partition within "
        << Ms(kResumeLimit);
    return report;
  }

  // Waits until the mgmd has started the killed node again: a new process, STARTED in its
  // view (what SHOW prints), which also says since when.
  void WaitUntilBack(KillReport* report) {
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
    if (back) {
      report->back = absl::FromUnixMillis(status.state_since_unix_ms()) - report->killed_at;
    }
    NoteDataNodePids();
    EXPECT_TRUE(back) << "node " << node << " not started again within " << Ms(kRestartLimit)
                      << "\n"
                      << cluster_->Mgm("SHOW").out;
  }

  std::vector<const Writer*> Writers() const {
    std::vector<const Writer*> out;
    for (const auto& w : writers_) out.push_back(w.get());
    return out;
  }

  std::unique_ptr<TestCluster> cluster_;
  std::set<int> data_node_pids_;
  std::unique_ptr<ResumeClock> clock_;
  std::vector<std::unique_ptr<Writer>> writers_;
  std::unique_ptr<ViewFollower> follower_;
  std::atomic<bool> stop_{false};
  std::atomic<int> finished_{0};
  std::vector<std::thread> threads_;
};

TEST_F(NodeFailureTest, NoAcknowledgedCommitIsLostWhenEachDataNodeIsKilledInTurn) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(kLoadBetweenSteps);
  KillReport first = KillDataNode(2);
  WaitUntilBack(&first);  // restarted by the mgmd; it rejoins under load
  KeepWriting(kLoadBetweenSteps);
  KillReport second = KillDataNode(3);
  KeepWriting(kLoadBetweenSteps);
  StopWriters();
  WaitUntilBack(&second);  // the check reads from both nodes

  for (const KillReport* k : {&first, &second}) {
    std::cout << k->Describe() << std::endl;
    std::string prefix = absl::StrCat("node", k->node, "_");
    if (k->first_commit) RecordProperty(prefix + "resumed_ms", Millis(*k->first_commit));
    if (k->every_partition) {
      RecordProperty(prefix + "every_partition_ms", Millis(*k->every_partition));
    }
    if (k->back) RecordProperty(prefix + "started_again_ms", Millis(*k->back));
  }

  std::map<uint16_t, int64_t> temporary;
  int64_t temporary_total = 0;
  int64_t failure_count = 0;
  std::vector<std::string> failures;
  for (const auto& w : writers_) {
    for (const auto& [code, n] : w->temporary_errors()) {
      temporary[code] += n;
      temporary_total += n;
    }
    failure_count += w->failure_count();
    failures.insert(failures.end(), w->failures().begin(), w->failures().end());
  }
  absl::StatusOr<CheckReport> check =
      CheckWrites(cluster_->mgmd_port(), Writers(), absl::Seconds(30));
  ASSERT_TRUE(check.ok()) << check.status();

  std::cout << "summary: " << Acknowledged() << " commits acknowledged, " << temporary_total
            << " temporary errors (" << absl::StrJoin(temporary, ", ", absl::PairFormatter(": "))
            << "), " << failure_count << " other errors or rows found gone while writing; "
            << check->keys << " keys read back, " << check->rows << " rows, " << check->scanned
            << " scanned, " << check->problems() << " problems; resumed after " << first.Resumed()
            << " (node 2 killed) and " << second.Resumed() << " (node 3 killed); restarts in SHOW:";
  for (const auto& [id, node] : cluster_->Show()) {
    if (id == 2 || id == 3) std::cout << " node " << id << " " << node.restarts;
  }
  std::cout << std::endl;
  RecordProperty("acknowledged", static_cast<int>(Acknowledged()));
  RecordProperty("temporary_errors", static_cast<int>(temporary_total));

  EXPECT_GT(Acknowledged(), 0);
  EXPECT_EQ(failure_count, 0) << "errors that are not temporary, or rows found gone while "
                                 "writing; the first few of each writer:\n"
                              << absl::StrJoin(failures, "\n");
  EXPECT_EQ(check->problems(), 0) << check->Describe();
}

// The checker must be able to fail: with the writers stopped and no node killed, damage done
// by hand to a few rows is reported, each kind as what it is.
TEST_F(NodeFailureTest, CheckerReportsDamageDoneByHand) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(absl::Seconds(1));
  StopWriters();
  absl::StatusOr<CheckReport> clean =
      CheckWrites(cluster_->mgmd_port(), Writers(), absl::Seconds(30));
  ASSERT_TRUE(clean.ok()) << clean.status();
  ASSERT_EQ(clean->problems(), 0) << clean->Describe();

  // Rows of writer 0 whose last write was acknowledged, nothing in doubt after it.
  const Writer& w = *writers_[0];
  std::vector<int64_t> settled;
  for (const auto& [key, history] : w.singles()) {
    if (history.acked.has_value() && history.in_doubt.empty()) settled.push_back(key);
  }
  ASSERT_GE(settled.size(), 3u);
  const Pair* pair = nullptr;
  for (const Pair& p : w.pairs()) {
    if (p.history.acked.has_value() && p.history.in_doubt.empty()) pair = &p;
  }
  ASSERT_NE(pair, nullptr);
  auto acked_seq = [&](int64_t key) { return SeqOf(*w.singles().at(key).acked); };

  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(5));
  ASSERT_TRUE(view.ok()) << view.status();
  api::Cluster api_cluster(api::Cluster::Options{});
  api_cluster.SetView(*view);
  api::SyncClient client(&api_cluster);
  absl::StatusOr<api::TablePtr> table = client.Table(kFaultDatabase, kAckedTable);
  ASSERT_TRUE(table.ok()) << table.status();
  const schema::TableDef& t = **table;
  // lost: an acknowledged row deleted.
  ASSERT_TRUE(client.Delete(t, AckedKey(t, settled[0])).ok());
  // stale: a row holding what another write of its writer wrote (elsewhere).
  ASSERT_TRUE(client.Write(t, AckedRow(t, settled[1], 0, acked_seq(settled[2]), kNoPartner)).ok());
  // garbled: a row claiming another writer.
  ASSERT_TRUE(client.Write(t, AckedRow(t, settled[2], 1, acked_seq(settled[2]), kNoPartner)).ok());
  // partial (and stale): one row of a pair changed on its own.
  ASSERT_TRUE(client.Write(t, AckedRow(t, pair->b, 0, acked_seq(settled[0]), pair->a)).ok());
  // scan: a row no writer made, so no key read looks for it (and the counts differ).
  ASSERT_TRUE(client.Insert(t, AckedRow(t, kPairKeysFrom - 1, 0, 0, kNoPartner)).ok());

  absl::StatusOr<CheckReport> damaged =
      CheckWrites(cluster_->mgmd_port(), Writers(), absl::Seconds(30));
  ASSERT_TRUE(damaged.ok()) << damaged.status();
  EXPECT_EQ(damaged->counts,
            (std::map<std::string, int64_t>{
                {"garbled", 1}, {"lost", 1}, {"partial", 1}, {"scan", 2}, {"stale", 2}}))
      << damaged->Describe();
}

}  // namespace
}  // namespace shoal::testing
