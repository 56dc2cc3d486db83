#include "mgmd/membership.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::mgmd {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

config::ClusterConfig TwoHosts() {
  config::ClusterConfig c = config::EmbeddedDefault({.run_dir = "/tmp/x"});
  c.datanodes[1].host = "10.1.1.2";  // node 3 lives elsewhere
  return c;
}

TEST(MembershipTest, AllocatesTheLowestFreeIdOfTheTypeOnThePeersHost) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  EXPECT_EQ(*m.Allocate(control::DATANODE, 0, "127.0.0.1"), 2);
  m.SetState(2, control::STARTING, now);
  EXPECT_EQ(*m.Allocate(control::DATANODE, 0, "127.0.0.1"), 3);
  EXPECT_EQ(*m.Allocate(control::ROUTER, 0, "127.0.0.1"), 4);
  m.SetState(3, control::STARTED, now);
  auto none = m.Allocate(control::DATANODE, 0, "127.0.0.1");
  EXPECT_THAT(none.status().message(), HasSubstr("no free node id for a datanode"));
}

TEST(MembershipTest, RequestedIdMustExistMatchTypeBeFreeAndMatchHost) {
  absl::Time now = absl::Now();
  Membership m(TwoHosts(), now);
  EXPECT_THAT(m.Allocate(control::DATANODE, 9, "127.0.0.1").status().message(),
              HasSubstr("node id 9 is not in the configuration"));
  EXPECT_THAT(m.Allocate(control::ROUTER, 2, "127.0.0.1").status().message(),
              HasSubstr("node id 2 is a datanode, not a router"));
  EXPECT_THAT(m.Allocate(control::DATANODE, 3, "127.0.0.1").status().message(),
              HasSubstr("configured for host 10.1.1.2"));
  EXPECT_EQ(*m.Allocate(control::DATANODE, 3, "10.1.1.2"), 3);
  m.SetState(2, control::STARTED, now);
  EXPECT_THAT(m.Allocate(control::DATANODE, 2, "127.0.0.1").status().message(),
              HasSubstr("already in use"));
  EXPECT_FALSE(m.Allocate(control::MGMD, 0, "127.0.0.1").ok());
}

TEST(MembershipTest, StateChangesBumpTheViewVersionOnce) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  uint64_t v = m.View().version();
  EXPECT_TRUE(m.SetState(2, control::STARTING, now));
  EXPECT_FALSE(m.SetState(2, control::STARTING, now));
  EXPECT_EQ(m.View().version(), v + 1);
  control::ClusterView view = m.View();
  const control::NodeStatus& dn2 = view.nodes(1);
  EXPECT_EQ(dn2.node_id(), 2u);
  EXPECT_EQ(dn2.state(), control::STARTING);
  EXPECT_EQ(dn2.node_group(), 0);
}

TEST(MembershipTest, StartProgressIsKeptWhileStartingAndOnlyANewPhaseMakesANewView) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  EXPECT_FALSE(m.SetStartProgress(2, "copying data", 5));  // not connected: ignored
  m.SetState(2, control::STARTING, now);
  uint64_t v = m.View().version();
  EXPECT_TRUE(m.SetStartProgress(2, "copying data", 5));
  EXPECT_EQ(m.View().version(), v + 1);
  EXPECT_FALSE(m.SetStartProgress(2, "copying data", 42));
  control::ClusterView view = m.View();
  EXPECT_EQ(view.version(), v + 1);
  EXPECT_EQ(view.nodes(1).start_phase(), "copying data");
  EXPECT_EQ(view.nodes(1).start_percent(), 42);
  EXPECT_EQ(view.nodes(2).start_phase(), "");  // node 3 said nothing
  EXPECT_TRUE(m.SetStartProgress(2, "catching up", 250));
  EXPECT_EQ(m.Find(2)->start_percent, 100);
  EXPECT_FALSE(m.SetStartProgress(2, "catching up", -9));
  EXPECT_EQ(m.Find(2)->start_percent, -1);
  // A long phase is cut at a character boundary.
  std::string long_phase = std::string(Membership::kMaxStartPhaseBytes - 1, 'x') + "\xc3\xa9tape";
  EXPECT_TRUE(m.SetStartProgress(2, long_phase, 1));
  EXPECT_EQ(m.Find(2)->start_phase, std::string(Membership::kMaxStartPhaseBytes - 1, 'x'));
  // Any state change clears it; a started node's reports are ignored.
  m.SetState(2, control::STARTED, now);
  EXPECT_EQ(m.Find(2)->start_phase, "");
  EXPECT_EQ(m.View().nodes(1).start_phase(), "");
  EXPECT_FALSE(m.SetStartProgress(2, "copying data", 50));
  EXPECT_EQ(m.Find(2)->start_phase, "");
}

TEST(MembershipTest, ArbitrationLetsTheFirstStartedAskerWin) {
  using Outcome = ArbitrationVerdict::Outcome;
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  m.SetState(2, control::STARTED, now);
  m.SetState(3, control::STARTED, now);
  uint64_t v = m.View().version();
  ArbitrationVerdict win = m.Arbitrate(2, 3);
  EXPECT_EQ(win.outcome, Outcome::kAskerWins);
  EXPECT_THAT(win.reason, HasSubstr("node 3 was declared failed: node 2 asked first"));
  EXPECT_EQ(m.View().version(), v);  // the decision changes nothing: the caller fails node 3
  m.SetState(3, control::NOT_CONNECTED, now);
  // The loser asking in its turn is refused; the winner asking again is granted.
  ArbitrationVerdict late = m.Arbitrate(3, 2);
  EXPECT_EQ(late.outcome, Outcome::kRefuse);
  EXPECT_THAT(late.reason, HasSubstr("node 3 is not started (it is 'not connected')"));
  ArbitrationVerdict again = m.Arbitrate(2, 3);
  EXPECT_EQ(again.outcome, Outcome::kGrant);
  EXPECT_THAT(again.reason, HasSubstr("node 3 is not serving (it is 'not connected')"));
}

TEST(MembershipTest, ArbitrationGrantsWhenTheLostNodeDoesNotServe) {
  using Outcome = ArbitrationVerdict::Outcome;
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  m.SetState(2, control::STARTED, now);
  for (control::NodeState state : {control::NOT_CONNECTED, control::STARTING, control::STOPPING}) {
    m.SetState(3, state, now);
    EXPECT_EQ(m.Arbitrate(2, 3).outcome, Outcome::kGrant) << control::NodeState_Name(state);
  }
  // Even to an asker that does not serve itself: it loses nothing.
  m.SetState(2, control::STARTING, now);
  EXPECT_EQ(m.Arbitrate(2, 3).outcome, Outcome::kGrant);
}

TEST(MembershipTest, ArbitrationRefusesAskersNotStartedAndNodesThatAreNotDataNodes) {
  using Outcome = ArbitrationVerdict::Outcome;
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  m.SetState(3, control::STARTED, now);
  for (control::NodeState state : {control::NOT_CONNECTED, control::STARTING, control::STOPPING}) {
    m.SetState(2, state, now);
    EXPECT_EQ(m.Arbitrate(2, 3).outcome, Outcome::kRefuse) << control::NodeState_Name(state);
  }
  m.SetState(2, control::STARTED, now);
  m.SetState(4, control::STARTED, now);
  EXPECT_THAT(m.Arbitrate(4, 3).reason, HasSubstr("node 4 is not a data node"));
  EXPECT_THAT(m.Arbitrate(2, 4).reason, HasSubstr("node 4 is not a data node"));
  EXPECT_THAT(m.Arbitrate(2, 1).reason, HasSubstr("node 1 is not a data node"));
  EXPECT_THAT(m.Arbitrate(2, 99).reason, HasSubstr("node 99 is not a data node"));
  EXPECT_EQ(m.Arbitrate(2, 2).outcome, Outcome::kRefuse);
  EXPECT_EQ(m.Arbitrate(4, 3).outcome, Outcome::kRefuse);
}

TEST(MembershipTest, TheLastLiveReplicaIsTheOnlyStartedDataNodeOfItsGroup) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  EXPECT_FALSE(m.IsLastLiveReplica(2));  // not started
  m.SetState(2, control::STARTED, now);
  m.SetState(3, control::STARTED, now);
  EXPECT_EQ(m.StartedDataNodes(0), 2);
  EXPECT_FALSE(m.IsLastLiveReplica(2));
  EXPECT_TRUE(m.IsLastLiveReplica(2, {3}));  // node 3 does not count (it is silent, say)
  m.SetState(3, control::STARTING, now);     // copying from node 2: not a live replica yet
  EXPECT_TRUE(m.IsLastLiveReplica(2));
  EXPECT_FALSE(m.IsLastLiveReplica(3));
  EXPECT_FALSE(m.IsLastLiveReplica(4));  // a router
  m.SetState(2, control::NOT_CONNECTED, now);
  EXPECT_EQ(m.StartedDataNodes(0), 0);
}

control::DiskState Disk(uint64_t complete, uint64_t saved, uint64_t restorable_from) {
  control::DiskState disk;
  disk.set_known(true);
  disk.set_complete_epoch(complete);
  disk.set_saved_epoch(saved);
  disk.set_restorable_from(restorable_from);
  return disk;
}

// Two node groups of two: data nodes 2, 3 (group 0) and 4, 5 (group 1); routers 6 and 7.
config::ClusterConfig TwoNodeGroups() {
  config::ClusterConfig c = config::EmbeddedDefault({.run_dir = "/tmp/x"});
  config::DataNodeConfig dn4 = c.datanodes[0];
  dn4.id = 4;
  dn4.node_group = 1;
  config::DataNodeConfig dn5 = dn4;
  dn5.id = 5;
  c.datanodes.push_back(dn4);
  c.datanodes.push_back(dn5);
  for (size_t i = 0; i < c.routers.size(); ++i) c.routers[i].id = 6 + static_cast<int>(i);
  return c;
}

using Change = Membership::SystemRestartChange;
constexpr absl::Duration kPartial = absl::Seconds(30);

TEST(MembershipTest, DiskStateIsKeptAndOnlyTheFirstReportMakesANewView) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  EXPECT_FALSE(m.SetDiskState(2, Disk(5, 6, 1)));  // not connected: ignored
  EXPECT_FALSE(m.View().nodes(1).has_disk());
  m.SetState(2, control::STARTING, now);
  m.SetState(4, control::STARTING, now);
  EXPECT_FALSE(m.SetDiskState(4, Disk(5, 6, 1)));         // a router: ignored
  EXPECT_FALSE(m.SetDiskState(2, control::DiskState()));  // not known: ignored
  uint64_t v = m.View().version();
  EXPECT_TRUE(m.SetDiskState(2, Disk(5, 6, 1)));
  EXPECT_EQ(m.View().version(), v + 1);
  EXPECT_FALSE(m.SetDiskState(2, Disk(9, 9, 1)));
  control::ClusterView view = m.View();
  EXPECT_EQ(view.version(), v + 1);
  EXPECT_TRUE(view.nodes(1).disk().known());
  EXPECT_EQ(view.nodes(1).disk().complete_epoch(), 9u);  // the latest, without a new version
  EXPECT_FALSE(view.nodes(2).has_disk());                // node 3 said nothing
  // Kept across STARTED; cleared when the node leaves.
  m.SetState(2, control::STARTED, now);
  EXPECT_EQ(m.Find(2)->disk.complete_epoch(), 9u);
  m.SetState(2, control::NOT_CONNECTED, now);
  EXPECT_FALSE(m.Find(2)->disk.known());
  EXPECT_FALSE(m.View().nodes(1).has_disk());
}

TEST(MembershipTest, SystemRestartIsDecidedOnceEveryDataNodeReportedItsDisk) {
  absl::Time now = absl::Now();
  Membership m(TwoNodeGroups(), now);
  m.SetState(2, control::STARTING, now);
  m.SetDiskState(2, Disk(100, 101, 10));
  m.SetState(3, control::STARTING, now);
  m.SetDiskState(3, Disk(98, 98, 10));  // behind: cannot restore 100
  m.SetState(4, control::STARTING, now);
  m.SetDiskState(4, Disk(99, 100, 50));
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);
  m.SetState(5, control::STARTING, now);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);  // registered, disk not known
  m.SetDiskState(5, Disk(100, 120, 101));                          // restores from 101 on only
  uint64_t v = m.View().version();
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kDecided);
  ASSERT_TRUE(m.system_restart().has_value());
  EXPECT_EQ(m.system_restart()->epoch, 100u);                   // the highest complete epoch
  EXPECT_THAT(m.system_restart()->nodes, ElementsAre(2, 4));    // 3 and 5 cannot restore it
  EXPECT_THAT(m.system_restart()->groups_lost, ElementsAre());  // each group has one
  EXPECT_THAT(m.system_restart()->missing, ElementsAre());
  control::ClusterView view = m.View();
  EXPECT_EQ(view.version(), v + 1);
  EXPECT_TRUE(view.system_restart().decided());
  EXPECT_EQ(view.system_restart().epoch(), 100u);
  EXPECT_THAT(view.system_restart().nodes(), ElementsAre(2u, 4u));
  // Decided once: later reports do not change it.
  m.SetDiskState(3, Disk(200, 200, 1));
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);
  EXPECT_EQ(m.system_restart()->epoch, 100u);
  EXPECT_EQ(m.View().version(), v + 1);
}

TEST(MembershipTest, SystemRestartExcludesNodesThatCannotRestoreAndSaysWhichGroupIsLost) {
  absl::Time now = absl::Now();
  Membership m(TwoNodeGroups(), now);
  m.SetState(2, control::STARTING, now);
  m.SetDiskState(2, Disk(100, 100, 90));
  m.SetState(3, control::STARTING, now);
  m.SetDiskState(3, Disk(100, 100, 0));  // saved it, but its disk cannot be restored
  m.SetState(4, control::STARTING, now);
  m.SetDiskState(4, Disk(100, 99, 90));  // its redo does not hold 100 fully
  m.SetState(5, control::STARTING, now);
  m.SetDiskState(5, Disk(0, 0, 0));  // a fresh node
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kDecided);
  EXPECT_EQ(m.system_restart()->epoch, 100u);
  EXPECT_THAT(m.system_restart()->nodes, ElementsAre(2));
  EXPECT_THAT(m.system_restart()->groups_lost, ElementsAre(1));  // decided all the same
}

TEST(MembershipTest, SystemRestartWithNoDataOnDiskStartsEveryNodeEmpty) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  for (int id : {2, 3}) {
    m.SetState(id, control::STARTING, now);
    m.SetDiskState(id, Disk(0, 0, 0));
  }
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kDecided);
  EXPECT_EQ(m.system_restart()->epoch, 0u);
  EXPECT_THAT(m.system_restart()->nodes, ElementsAre(2, 3));
  EXPECT_THAT(m.system_restart()->groups_lost, ElementsAre());
  EXPECT_TRUE(m.View().system_restart().decided());
  EXPECT_EQ(m.View().system_restart().epoch(), 0u);
}

TEST(MembershipTest, SystemRestartGoesOnWithoutMissingNodesAfterThePartialTimeout) {
  absl::Time start = absl::Now();
  Membership m(TwoNodeGroups(), start);
  m.SetState(2, control::STARTING, start);
  m.SetDiskState(2, Disk(40, 41, 1));
  EXPECT_EQ(m.UpdateSystemRestart(start, kPartial), Change::kNone);  // the wait begins
  // Node group 1 has no one yet: the timeout alone is not enough.
  EXPECT_EQ(m.UpdateSystemRestart(start + kPartial + absl::Seconds(5), kPartial), Change::kNone);
  absl::Time later = start + absl::Seconds(10);
  m.SetState(4, control::STARTING, later);
  m.SetDiskState(4, Disk(42, 42, 2));
  m.SetState(5, control::STARTING, later);  // registered, has not reported its disk yet
  EXPECT_EQ(m.UpdateSystemRestart(start + kPartial - absl::Milliseconds(1), kPartial),
            Change::kNone);
  // Counted from the first report, not from node 4's.
  EXPECT_EQ(m.UpdateSystemRestart(start + kPartial, kPartial), Change::kDecided);
  EXPECT_EQ(m.system_restart()->epoch, 42u);
  EXPECT_THAT(m.system_restart()->nodes, ElementsAre(4));
  EXPECT_THAT(m.system_restart()->groups_lost, ElementsAre(0));  // node 2 saved only 41
  EXPECT_THAT(m.system_restart()->missing, ElementsAre(3, 5));
}

TEST(MembershipTest, SystemRestartIsNotDecidedWhileADataNodeServesAndClearedWhenOneStarts) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  // Node 2 serves; node 3 restarts by itself (a node restart: it copies from node 2).
  m.SetState(2, control::STARTED, now);
  m.SetDiskState(2, Disk(10, 10, 1));
  m.SetState(3, control::STARTING, now);
  m.SetDiskState(3, Disk(8, 8, 1));
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);
  EXPECT_EQ(m.UpdateSystemRestart(now + 2 * kPartial, kPartial), Change::kNone);
  EXPECT_FALSE(m.system_restart().has_value());
  // Node 2 goes: node 3 alone, its wait begins now (not when it registered).
  absl::Time gone = now + 3 * kPartial;
  m.SetState(2, control::NOT_CONNECTED, gone);
  EXPECT_EQ(m.UpdateSystemRestart(gone, kPartial), Change::kNone);
  EXPECT_EQ(m.UpdateSystemRestart(gone + kPartial - absl::Seconds(1), kPartial), Change::kNone);
  // Node 2 comes back: everyone has reported.
  m.SetState(2, control::STARTING, gone + absl::Seconds(1));
  m.SetDiskState(2, Disk(10, 10, 1));
  EXPECT_EQ(m.UpdateSystemRestart(gone + absl::Seconds(1), kPartial), Change::kDecided);
  EXPECT_EQ(m.system_restart()->epoch, 10u);
  EXPECT_THAT(m.system_restart()->nodes, ElementsAre(2));
  // The first to start ends it (with a new view).
  uint64_t v = m.View().version();
  m.SetState(2, control::STARTED, now);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kCleared);
  EXPECT_FALSE(m.system_restart().has_value());
  EXPECT_FALSE(m.View().system_restart().decided());
  EXPECT_EQ(m.View().version(), v + 2);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);
}

TEST(MembershipTest, SystemRestartIsClearedWhenNoDataNodeIsConnected) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  for (int id : {2, 3}) {
    m.SetState(id, control::STARTING, now);
    m.SetDiskState(id, Disk(7, 7, 1));
  }
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kDecided);
  m.SetState(2, control::NOT_CONNECTED, now);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);  // node 3 is still there
  m.SetState(3, control::STOPPING, now);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kNone);
  m.SetState(3, control::NOT_CONNECTED, now);
  EXPECT_EQ(m.UpdateSystemRestart(now, kPartial), Change::kCleared);
  EXPECT_FALSE(m.View().system_restart().decided());
  // The next to come begin a new wait: one alone waits for the other.
  m.SetState(3, control::STARTING, now);
  m.SetDiskState(3, Disk(9, 9, 1));
  EXPECT_EQ(m.UpdateSystemRestart(now + absl::Seconds(1), kPartial), Change::kNone);
  EXPECT_EQ(m.UpdateSystemRestart(now + absl::Seconds(1) + kPartial, kPartial), Change::kDecided);
  EXPECT_EQ(m.system_restart()->epoch, 9u);
  EXPECT_THAT(m.system_restart()->missing, ElementsAre(2));
}

}  // namespace
}  // namespace shoal::mgmd
