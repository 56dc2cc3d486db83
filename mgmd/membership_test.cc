#include "mgmd/membership.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::mgmd {
namespace {

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

}  // namespace
}  // namespace shoal::mgmd
