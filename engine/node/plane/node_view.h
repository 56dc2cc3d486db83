// The cluster view as the data-plane thread sees it: the mgmd's latest view, applied in order
// (GroupRole::OnView replaces it), and the questions the roles ask of it. Owned by the
// DataPlane; read by every role, on the data-plane thread only.
#pragma once

#include <cstdint>
#include <utility>

#include "common/control/control.pb.h"

namespace shoal::node {

class NodeView {
 public:
  explicit NodeView(int self) : self_(self) {}

  const control::ClusterView& view() const { return view_; }
  uint64_t version() const { return view_.version(); }
  void Set(control::ClusterView view) { view_ = std::move(view); }

  // The dictionary master: no data node with a lower id is STARTED.
  bool IsMaster() const;
  // This data node is STARTED in the view: it holds a complete replica and serves.
  bool SelfStarted() const;
  // A data node of the view, other than this one, that is STARTED.
  bool IsStartedPeer(uint32_t node_id) const;
  // `id` names a data node of the view (a hello's id: data node or client).
  bool IsDataNode(uint32_t id) const;
  // `id` names a router of the view that is STARTED.
  bool IsStartedRouter(uint32_t id) const;

 private:
  int self_;
  control::ClusterView view_;
};

}  // namespace shoal::node
