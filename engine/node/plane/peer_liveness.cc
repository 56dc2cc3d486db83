// Pings and silence checks for the node group's serving peers.
#include "engine/node/plane/peer_liveness.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/node/ldm/context.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

void PeerLiveness::Check(absl::Time now) {
  std::vector<std::pair<int, liveness::ProcessIdentity>> watched;
  for (const control::NodeStatus& node : view_->view().nodes()) {
    int id = static_cast<int>(node.node_id());
    if (node.type() != control::DATANODE || node.node_group() != options_->node_group ||
        id == options_->node_id || !view_->IsStartedPeer(node.node_id()) ||
        connections_->IsLost(id)) {
      continue;
    }
    if (connections_->PeerConnection(id) == nullptr) continue;  // it reported it lost
    watched.push_back({id, {node.boot_id(), node.pid(), node.start_ticks()}});
    wire::Ping{static_cast<uint16_t>(options_->node_id)}.Encode(
        connections_->ReplyTo(kToNode | static_cast<uint32_t>(id)));
  }
  watch_->Follow(watched, now);
  watched_.clear();
  for (const auto& [id, identity] : watched) watched_.push_back(id);
  PeerWatch::Result result =
      watch_->Check(now, [this](int node) { return connections_->HasUnreadFrame(node); });
  for (std::string& note : result.notes) {
    SHOAL_LOG(kWarning) << note;
    if (options_->on_note) options_->on_note(std::move(note));
  }
  for (int id : result.lost) {
    if (Connection* conn = connections_->PeerConnection(id); conn != nullptr) {
      connections_->Close(
          conn, absl::StrCat("silent past ", absl::FormatDuration(options_->peer_timeout)));
    }
  }
}

bool PeerLiveness::GroupHeardWithin(absl::Time now, absl::Duration window) const {
  for (int id : watched_) {
    auto it = last_heard_.find(id);
    if (it == last_heard_.end() || now - it->second > window) return false;
  }
  return true;
}

}  // namespace shoal::node
