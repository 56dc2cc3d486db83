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

TEST(MembershipTest, SilentNodesAreThoseNotHeardWithinTheLimit) {
  absl::Time now = absl::Now();
  Membership m(config::EmbeddedDefault({.run_dir = "/tmp/x"}), now);
  m.SetState(2, control::STARTED, now);
  m.SetState(3, control::STARTED, now);
  m.Heard(2, now);
  m.Heard(3, now + absl::Seconds(2));
  EXPECT_THAT(m.Silent(now + absl::Seconds(3), absl::Seconds(2)), ::testing::ElementsAre(2));
  // Nodes that are not connected are never silent.
  m.SetState(2, control::NOT_CONNECTED, now);
  EXPECT_TRUE(m.Silent(now + absl::Seconds(3), absl::Seconds(2)).empty());
}

}  // namespace
}  // namespace shoal::mgmd
