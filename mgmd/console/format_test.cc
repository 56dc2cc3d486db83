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

}  // namespace
}  // namespace shoal::console
