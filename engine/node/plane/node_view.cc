// NodeView's questions about the cluster view.
#include "engine/node/plane/node_view.h"

namespace shoal::node {

bool NodeView::IsMaster() const {
  for (const auto& node : view_.nodes()) {
    if (node.type() == control::DATANODE && node.state() == control::STARTED &&
        static_cast<int>(node.node_id()) < self_) {
      return false;
    }
  }
  return true;
}

bool NodeView::SelfStarted() const {
  for (const auto& node : view_.nodes()) {
    if (node.type() == control::DATANODE && static_cast<int>(node.node_id()) == self_) {
      return node.state() == control::STARTED;
    }
  }
  return false;
}

bool NodeView::IsStartedPeer(uint32_t node_id) const {
  for (const auto& node : view_.nodes()) {
    if (node.type() == control::DATANODE && node.node_id() == node_id &&
        node.state() == control::STARTED && static_cast<int>(node_id) != self_) {
      return true;
    }
  }
  return false;
}

bool NodeView::IsDataNode(uint32_t id) const {
  for (const control::NodeStatus& node : view_.nodes()) {
    if (node.node_id() == id) return node.type() == control::DATANODE;
  }
  return false;
}

bool NodeView::IsStartedRouter(uint32_t id) const {
  for (const control::NodeStatus& node : view_.nodes()) {
    if (node.node_id() == id) {
      return node.type() == control::ROUTER && node.state() == control::STARTED;
    }
  }
  return false;
}

}  // namespace shoal::node
