// Node-group membership from the cluster view, and node-restart copies from either end.
#include "engine/node/plane/group_role.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/node/ldm/context.h"
#include "engine/wire/op.h"

namespace shoal::node {
namespace {

// The copy pauses while this much is queued for the node being copied to.
constexpr size_t kMaxQueuedCopyBytes = 4 << 20;

}  // namespace

GroupRole::GroupRole(DataPlaneOptions* options, NodeView* view, Connections* connections,
                     LdmHost* ldms, DictionaryRole* dictionary, TcGlue* tc)
    : options_(options),
      view_(view),
      connections_(connections),
      ldms_(ldms),
      dictionary_(dictionary),
      tc_(tc) {}

void GroupRole::FindCopySource() {
  // Restarting: another node of the group serves, so our replica must be copied from it.
  for (const control::NodeStatus& node : view_->view().nodes()) {
    if (node.type() == control::DATANODE && node.node_group() == options_->node_group &&
        static_cast<int>(node.node_id()) != options_->node_id && node.state() == control::STARTED &&
        node.data_port() != 0) {
      copy_source_ = static_cast<int>(node.node_id());
      break;
    }
  }
}

void GroupRole::OnView(control::ClusterView view) {
  if (view.version() < view_->version()) return;  // views are applied in order only
  std::vector<int> lost;                          // data nodes that served and no longer do
  for (const control::NodeStatus& before : view_->view().nodes()) {
    if (before.type() != control::DATANODE || before.state() != control::STARTED) continue;
    for (const control::NodeStatus& after : view.nodes()) {
      if (after.node_id() == before.node_id() && after.state() != control::STARTED) {
        lost.push_back(static_cast<int>(after.node_id()));
      }
    }
  }
  view_->Set(std::move(view));
  for (const control::NodeStatus& node : view_->view().nodes()) {
    if (node.type() != control::DATANODE) continue;
    int id = static_cast<int>(node.node_id());
    if (node.state() != control::STARTED) connections_->ClearLost(id);
    // A stopping node serves no more but still answers: its links stay until it leaves, so
    // that a clean SHUTDOWN's last epoch round reaches it (EpochRole).
    if (node.state() == control::NOT_CONNECTED) {
      if (connections_->HasPeerLink(id)) PeerGone(id);
      // Its own connections to us too: what it replicated here is rolled back.
      connections_->CloseDataNode(id, "the data node left the cluster");
      copy_targets_.erase(id);
    }
    if (auto it = copy_targets_.find(id); it != copy_targets_.end() &&
                                          node.state() == control::STARTED &&
                                          view_->version() > it->second) {
      copy_targets_.erase(it);
    }
    if (id == copy_source_ && !ready_reported_ && node.state() != control::STARTED) {
      Ready(absl::UnavailableError(
          absl::StrCat("data node ", id, " left the cluster while this node copied from it")));
    }
  }
  PushGroup();
  // After the LDMs: they adopt the prepared transactions of lost primaries before the TC
  // sends those their outcome again.
  for (int node : lost) {
    bool take_over = view_->IsMaster();
    if (take_over) {
      SHOAL_LOG(kInfo) << "data node " << node << " lost: taking over its transactions";
    }
    tc_->NodeLost(node, take_over);
  }
}

void GroupRole::PushGroup() {
  GroupView group;
  group.self = options_->node_id;
  group.node_groups = options_->node_groups;
  std::vector<std::vector<std::pair<int, bool>>> groups(options_->node_groups);
  for (const control::NodeStatus& node : view_->view().nodes()) {
    if (node.type() != control::DATANODE) continue;
    int id = static_cast<int>(node.node_id());
    bool started = node.state() == control::STARTED && !copy_targets_.contains(id);
    if (!started) group.down.push_back(id);
    if (node.node_group() >= 0 && node.node_group() < options_->node_groups) {
      groups[node.node_group()].emplace_back(id, started);
    }
  }
  for (auto& members : groups) std::sort(members.begin(), members.end());
  for (const auto& [id, started] : groups[options_->node_group]) {
    group.members.push_back(id);
    group.started.push_back(started);
  }
  tc_->SetGroups(std::move(groups));
  ldms_->SetGroup(group);
}

void GroupRole::StartCopyTo(Connection* conn, uint64_t since_epoch) {
  int node = conn->data_node;
  SHOAL_LOG(kInfo) << "data node " << node << " restarts: copying our partitions to it";
  // Replication and DDL reach it on this connection from now on, in order with the copy.
  connections_->AdoptPeerLink(node, conn);
  copy_targets_[node] = view_->version();
  copy_conn_ = conn->id;
  // Ahead of the rows: the tables as they are here (it fetched them before it asked, and
  // DDL since reaches it only from us until it serves).
  dictionary_->SendDictionary(conn, {});
  PushGroup();  // whatever our view says, it does not serve before the copy is over
  ldms_->StartCopy(node, conn->id, since_epoch);
}

bool GroupRole::CopySteps() {
  if (!ldms_->copying()) return false;
  Connection* conn = connections_->Find(copy_conn_);
  if (conn != nullptr && conn->out.finished().size() > kMaxQueuedCopyBytes) return false;
  return ldms_->CopyStep();
}

void GroupRole::ForwardDictionary(const DictionaryDelta& delta) {
  for (const auto& [node, since] : copy_targets_) {
    if (Connection* conn = connections_->PeerLink(node); conn != nullptr) {
      dictionary_->SendDictionary(conn, delta.truncated);
    }
  }
}

void GroupRole::RequestCopy() {
  if (copy_source_ == 0) {
    Ready(absl::OkStatus());
    return;
  }
  SHOAL_LOG(kInfo) << "copying this node's partitions from data node " << copy_source_;
  Connection* conn = connections_->PeerConnection(copy_source_);
  if (conn == nullptr) {
    Ready(absl::UnavailableError(
        absl::StrCat("cannot reach data node ", copy_source_, " to copy from it")));
    return;
  }
  conn->out.Finish();
  conn->out.Begin(wire::FrameType::kOpReq);
  wire::CopyReq{static_cast<uint16_t>(options_->node_id), options_->copy_since_epoch}.Encode(
      &conn->out);
  conn->out.Finish();
  if (options_->on_copy_progress) options_->on_copy_progress(0);
}

void GroupRole::OnCopyProgress(const wire::CopyDone& progress) {
  if (ready_reported_) return;
  switch (copy_progress_.Update(progress)) {
    case CopyProgress::Step::kNone:
      return;
    case CopyProgress::Step::kPercent:
      if (options_->on_copy_progress) options_->on_copy_progress(copy_progress_.percent());
      return;
    case CopyProgress::Step::kComplete:
      SHOAL_LOG(kInfo) << "copy from data node " << copy_source_ << " complete";
      Ready(absl::OkStatus());
      return;
  }
}

void GroupRole::OnClosing(const Connection& conn, absl::string_view why) {
  if (conn.data_node != 0 && conn.data_node == copy_source_ && !ready_reported_) {
    Ready(absl::UnavailableError(
        absl::StrCat("lost data node ", copy_source_, " while copying from it: ", why)));
  }
}

void GroupRole::PeerGone(int node_id) {
  if (!connections_->DropPeer(node_id)) return;
  dictionary_->PeerGone(node_id);
}

void GroupRole::Ready(absl::Status status) {
  if (ready_reported_) return;
  ready_reported_ = true;
  if (!status.ok()) {
    SHOAL_LOG(kError) << status.message();
  }
  if (options_->on_ready) options_->on_ready(std::move(status));
}

}  // namespace shoal::node
