// Issue 6's acceptance test ("Show", first bullet): native-API writers run against two data
// nodes of one node group (replicas: 2) launched and supervised by the mgmd; data node 2 is
// killed with SIGKILL mid-run, the mgmd restarts it and it rejoins under load, then data node 3
// is killed. Afterwards every key ever written is read back: every acknowledged commit must be
// there, no transaction partial, no row that no write could have made; the only errors the
// writers may see are temporary ones, and service must resume after each kill (the time is
// measured and reported).
#include <atomic>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/fault/checker.h"
#include "tests/fault/workload.h"
#include "tests/fault/writers_fixture.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

constexpr char kConfig[] = R"(
cluster:
  replicas: 2
  data_memory: 256M  # room for every row the writers may make (workload.h caps them)
  heartbeat_interval: 200ms  # a node silent for 1 s is failed: slow (sanitizer) builds stay up
  missed_heartbeats: 5
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

constexpr absl::Duration kLoadBetweenSteps = absl::Seconds(2);

class NodeFailureTest : public WritersTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(LaunchCluster(kConfig)); }
};

TEST_F(NodeFailureTest, NoAcknowledgedCommitIsLostWhenEachDataNodeIsKilledInTurn) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(kLoadBetweenSteps);
  KillReport first = KillDataNode(2, clock_.get());
  WaitUntilBack(&first);  // restarted by the mgmd; it rejoins under load
  KeepWriting(kLoadBetweenSteps);
  KillReport second = KillDataNode(3, clock_.get());
  KeepWriting(kLoadBetweenSteps);
  StopThreads();
  WaitUntilBack(&second);  // the check reads from both nodes

  for (const KillReport* k : {&first, &second}) {
    std::cout << k->Describe() << std::endl;
    k->Record();
  }

  std::string restarts = "; restarts in SHOW:";
  for (const auto& [id, node] : cluster_->Show()) {
    if (id == 2 || id == 3) absl::StrAppend(&restarts, " node ", id, " ", node.restarts);
  }
  ExpectEveryCommitKept(absl::StrCat("; resumed after ", first.Resumed(), " (node 2 killed) and ",
                                     second.Resumed(), " (node 3 killed)", restarts));
}

// The checker must be able to fail: with the writers stopped and no node killed, damage done
// by hand to a few rows is reported, each kind as what it is.
TEST_F(NodeFailureTest, CheckerReportsDamageDoneByHand) {
  ASSERT_NO_FATAL_FAILURE(StartWriters());
  KeepWriting(absl::Seconds(1));
  StopThreads();
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
