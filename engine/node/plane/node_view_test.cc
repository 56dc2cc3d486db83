#include "engine/node/plane/node_view.h"

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

void Add(control::ClusterView* view, uint32_t id, control::NodeType type,
         control::NodeState state) {
  control::NodeStatus* node = view->add_nodes();
  node->set_node_id(id);
  node->set_type(type);
  node->set_state(state);
}

TEST(NodeViewTest, TheMasterIsTheLowestStartedDataNode) {
  control::ClusterView view;
  Add(&view, 1, control::MGMD, control::STARTED);
  Add(&view, 2, control::DATANODE, control::NOT_CONNECTED);
  Add(&view, 3, control::DATANODE, control::STARTED);
  Add(&view, 4, control::DATANODE, control::STARTED);
  NodeView three(3);
  three.Set(view);
  NodeView four(4);
  four.Set(view);
  EXPECT_TRUE(three.IsMaster());
  EXPECT_FALSE(four.IsMaster());

  EXPECT_TRUE(three.IsStartedPeer(4));
  EXPECT_FALSE(three.IsStartedPeer(3));  // itself
  EXPECT_FALSE(three.IsStartedPeer(2));  // not started
  EXPECT_FALSE(three.IsStartedPeer(1));  // not a data node

  EXPECT_TRUE(three.IsDataNode(2));
  EXPECT_FALSE(three.IsDataNode(1));
  EXPECT_FALSE(three.IsDataNode(9));  // a client's id
}

}  // namespace
}  // namespace shoal::node
