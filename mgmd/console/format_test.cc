#include "mgmd/console/format.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::console {
namespace {

using ::testing::HasSubstr;

control::ClusterView SampleView() {
  control::ClusterView view;
  view.set_version(7);
  auto add = [&](uint32_t id, control::NodeType type, control::NodeState state, int group) {
    control::NodeStatus* n = view.add_nodes();
    n->set_node_id(id);
    n->set_type(type);
    n->set_host("127.0.0.1");
    n->set_state(state);
    n->set_version("0.1.0");
    n->set_node_group(group);
    n->set_pid(state == control::NOT_CONNECTED ? 0 : 100 + static_cast<int>(id));
  };
  add(1, control::MGMD, control::STARTED, -1);
  add(2, control::DATANODE, control::STARTED, 0);
  add(3, control::DATANODE, control::NOT_CONNECTED, 0);
  add(4, control::ROUTER, control::STARTING, -1);
  return view;
}

TEST(FormatTest, ShowGroupsNodesByType) {
  std::string text = FormatShow(SampleView());
  EXPECT_THAT(text, HasSubstr("(view 7)"));
  EXPECT_THAT(text, HasSubstr("[datanode]\t2 node(s)\n"));
  EXPECT_THAT(text,
              HasSubstr("id=2   @127.0.0.1       (shoal-0.1.0, node group 0, started, pid 102)"));
  EXPECT_THAT(text, HasSubstr("id=3   @127.0.0.1       (node group 0, not connected)"));
  EXPECT_THAT(text, HasSubstr("[mgmd]\t1 node(s)\n"));
  EXPECT_THAT(
      text,
      HasSubstr("[router]\t1 node(s)\nid=4   @127.0.0.1       (shoal-0.1.0, starting, pid 104)"));
}

TEST(FormatTest, StatusOfOneNodeOrAll) {
  control::ClusterView view = SampleView();
  absl::Time now = absl::FromUnixMillis(view.nodes(1).state_since_unix_ms()) + absl::Seconds(65);
  EXPECT_EQ(FormatStatus(view, 2, now),
            "Node 2: datanode, started for 1m5s, shoal-0.1.0, pid 102\n");
  EXPECT_EQ(FormatStatus(view, 0, now).size() > 0, true);
  EXPECT_THAT(FormatStatus(view, 0, now), HasSubstr("Node 3: datanode, not connected"));
}

TEST(FormatTest, StatusOfAStartingNodeSaysHowFarItHasGot) {
  control::ClusterView view = SampleView();
  control::NodeStatus* dn3 = view.mutable_nodes(2);
  dn3->set_state(control::STARTING);
  dn3->set_pid(103);
  dn3->set_start_phase("copying data");
  dn3->set_start_percent(42);
  absl::Time now = absl::FromUnixMillis(dn3->state_since_unix_ms()) + absl::Seconds(12);
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s (copying data, 42% done), shoal-0.1.0, pid 103\n");
  dn3->set_start_percent(-1);  // not meaningful: the phase alone
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s (copying data), shoal-0.1.0, pid 103\n");
  dn3->set_start_percent(0);
  EXPECT_THAT(FormatStatus(view, 0, now), HasSubstr("starting for 12s (copying data, 0% done)"));
  // No phase reported: the line is as before.
  dn3->clear_start_phase();
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s, shoal-0.1.0, pid 103\n");
  // Only a starting node's progress is shown.
  dn3->set_start_phase("copying data");
  dn3->set_state(control::STARTED);
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, started for 12s, shoal-0.1.0, pid 103\n");
  // SHOW stays as it was (scripts parse it).
  dn3->set_state(control::STARTING);
  EXPECT_THAT(
      FormatShow(view),
      HasSubstr("id=3   @127.0.0.1       (shoal-0.1.0, node group 0, starting, pid 103)\n"));
}

}  // namespace
}  // namespace shoal::console
