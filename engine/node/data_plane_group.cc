// The data plane's part in replication: following the cluster view (who serves in this node's
// group, which peers left), and copying partitions to a node that restarts, from either end.
#include <algorithm>
#include <variant>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/node/data_plane.h"
#include "engine/wire/op.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {
namespace {

// The copy pauses while this much is queued for the node being copied to.
constexpr size_t kMaxQueuedCopyBytes = 4 << 20;

}  // namespace

void DataPlane::OnView(control::ClusterView view) {
  if (view.version() < view_.version()) return;  // views are applied in order only
  std::vector<int> lost;                         // data nodes that served and no longer do
  for (const control::NodeStatus& before : view_.nodes()) {
    if (before.type() != control::DATANODE || before.state() != control::STARTED) continue;
    for (const control::NodeStatus& after : view.nodes()) {
      if (after.node_id() == before.node_id() && after.state() != control::STARTED) {
        lost.push_back(static_cast<int>(after.node_id()));
      }
    }
  }
  view_ = std::move(view);
  for (const control::NodeStatus& node : view_.nodes()) {
    if (node.type() != control::DATANODE) continue;
    int id = static_cast<int>(node.node_id());
    if (node.state() != control::STARTED) lost_peers_.erase(id);
    if (node.state() == control::NOT_CONNECTED || node.state() == control::STOPPING) {
      if (peers_.contains(id)) PeerGone(id);
      // Its own connections to us too: what it replicated here is rolled back.
      ids_.clear();
      for (auto& [conn_id, conn] : connections_) {
        if (conn->data_node == id && !conn->dead) ids_.push_back(conn_id);
      }
      for (uint32_t conn_id : ids_) Close(Find(conn_id), "the data node left the cluster");
      copy_targets_.erase(id);
    }
    if (auto it = copy_targets_.find(id); it != copy_targets_.end() &&
                                          node.state() == control::STARTED &&
                                          view_.version() > it->second) {
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
    bool take_over = IsMaster();
    if (take_over) {
      SHOAL_LOG(kInfo) << "data node " << node << " lost: taking over its transactions";
    }
    tc_->NodeLost(node, take_over, AllPartitions());
  }
}

void DataPlane::PushGroup() {
  GroupView group;
  group.self = options_.node_id;
  group.node_groups = options_.node_groups;
  std::vector<std::vector<std::pair<int, bool>>> groups(options_.node_groups);
  for (const control::NodeStatus& node : view_.nodes()) {
    if (node.type() != control::DATANODE) continue;
    int id = static_cast<int>(node.node_id());
    bool started = node.state() == control::STARTED && !copy_targets_.contains(id);
    if (!started) group.down.push_back(id);
    if (node.node_group() >= 0 && node.node_group() < options_.node_groups) {
      groups[node.node_group()].emplace_back(id, started);
    }
  }
  for (auto& members : groups) std::sort(members.begin(), members.end());
  for (const auto& [id, started] : groups[options_.node_group]) {
    group.members.push_back(id);
    group.started.push_back(started);
  }
  tc_->SetGroups(std::move(groups));
  for (auto& ldm : ldms_) ldm->SetGroup(group, this);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushGroup(group); });
    workers_[ldm]->Flush();
  }
}

bool DataPlane::IsDataNode(uint32_t id) const {
  for (const control::NodeStatus& node : view_.nodes()) {
    if (node.node_id() == id) return node.type() == control::DATANODE;
  }
  return false;
}

void DataPlane::StartCopyTo(Connection* conn, int node) {
  SHOAL_LOG(kInfo) << "data node " << node << " restarts: copying our partitions to it";
  // Replication and DDL reach it on this connection from now on, in order with the copy.
  if (auto it = peers_.find(node); it != peers_.end() && it->second != conn->id) {
    if (Connection* old = Find(it->second); old != nullptr) Close(old, "replaced by a restart");
  }
  peers_[node] = conn->id;
  lost_peers_.erase(node);
  copy_targets_[node] = view_.version();
  copy_conn_ = conn->id;
  // Ahead of the rows: the tables as they are here (it fetched them before it asked, and
  // DDL since reaches it only from us until it serves).
  SendDictionary(conn, {});
  PushGroup();  // whatever our view says, it does not serve before the copy is over
  int ldm_count = options_.ldm_count;
  for (auto& ldm : ldms_) ldm->StartCopy(node, conn->id, ldm_count);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm,
              [&](LdmWorker* worker) { return worker->PushStartCopy(node, conn->id, ldm_count); });
    workers_[ldm]->Flush();
  }
}

bool DataPlane::CopySteps() {
  bool copying = false;
  for (auto& ldm : ldms_) copying |= ldm->copying();
  if (!copying) return false;
  Connection* conn = Find(copy_conn_);
  if (conn != nullptr && conn->out.finished().size() > kMaxQueuedCopyBytes) return false;
  bool copied = false;
  for (auto& ldm : ldms_) copied |= ldm->CopyStep(this);
  return copied;
}

void DataPlane::RequestCopy() {
  if (copy_source_ == 0) {
    Ready(absl::OkStatus());
    return;
  }
  SHOAL_LOG(kInfo) << "copying this node's partitions from data node " << copy_source_;
  Connection* conn = PeerConnection(copy_source_);
  if (conn == nullptr) {
    Ready(absl::UnavailableError(
        absl::StrCat("cannot reach data node ", copy_source_, " to copy from it")));
    return;
  }
  conn->out.Finish();
  conn->out.Begin(wire::FrameType::kOpReq);
  wire::CopyReq{static_cast<uint16_t>(options_.node_id)}.Encode(&conn->out);
  conn->out.Finish();
  if (options_.on_copy_progress) options_.on_copy_progress(0);
}

void DataPlane::OnCopyProgress(const wire::CopyDone& progress) {
  if (ready_reported_ || progress.ldm_count > 256) return;
  copy_progress_.resize(progress.ldm_count);
  copy_progress_[progress.ldm] = progress;
  uint64_t done = 0;
  uint64_t total = 0;
  int complete = 0;
  for (const wire::CopyDone& ldm : copy_progress_) {
    done += ldm.sent;
    total += ldm.total;
    complete += ldm.complete ? 1 : 0;
  }
  if (complete == static_cast<int>(copy_progress_.size())) {
    SHOAL_LOG(kInfo) << "copy from data node " << copy_source_ << " complete";
    Ready(absl::OkStatus());
    return;
  }
  // LDMs not heard from yet count as not started: the percent only grows.
  int percent = total == 0 ? 0 : static_cast<int>(std::min<uint64_t>(99, done * 100 / total));
  if (copy_progress_.size() > 1) {
    uint64_t heard = 0;
    for (const wire::CopyDone& ldm : copy_progress_) heard += ldm.ldm_count != 0 ? 1 : 0;
    percent = static_cast<int>(percent * heard / copy_progress_.size());
  }
  if (percent != copy_percent_) {
    copy_percent_ = percent;
    if (options_.on_copy_progress) options_.on_copy_progress(percent);
  }
}

void DataPlane::SendFromTc(int node, const Coordinator::Message& message) {
  auto append = [&message](wire::FrameBuilder* out) {
    std::visit([out](const auto& op) { op.Encode(out); }, message);
  };
  const uint32_t partition = std::visit([](const auto& op) { return op.partition; }, message);
  if (node != options_.node_id) {
    if (wire::FrameBuilder* out = ReplyTo(kToNode | static_cast<uint32_t>(node)); out != nullptr) {
      append(out);
    }
    return;  // unreachable: the view will drop it, and the TC sends again (NodeLost)
  }
  tc_scratch_.Clear();
  tc_scratch_.Begin(wire::FrameType::kOpReq);
  append(&tc_scratch_);
  tc_scratch_.Finish();
  absl::string_view body = tc_scratch_.finished().substr(wire::kFrameHeaderSize);
  PartitionPlacement placement{options_.node_groups, options_.replicas, 0, options_.ldm_count};
  int ldm = placement.LdmOf(partition);
  if (workers_.empty()) {
    wire::Op op;
    if (wire::DecodeOp(&body, &op) == wire::DecodeStatus::kOk) {
      ldms_[ldm]->Execute(op, kTcConn, this);
    }
  } else {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushOps(kTcConn, 1, body); });
    workers_[ldm]->Flush();
  }
}

void DataPlane::DrainTcResults() {
  if (tc_results_.empty()) return;
  tc_results_.Finish();
  // Results may send operations whose results land in tc_results_ again: take them first.
  std::string frames(tc_results_.finished());
  tc_results_.Clear();
  for (absl::string_view rest = frames; !rest.empty();) {
    absl::string_view frame = wire::FirstFrame(rest);
    rest.remove_prefix(frame.size());
    wire::FrameHeader header;
    absl::string_view body;
    if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) continue;
    for (uint32_t i = 0; i < header.count; ++i) {
      wire::Result result;
      if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) break;
      tc_->OnResult(result);
    }
  }
}

std::vector<std::pair<uint32_t, uint32_t>> DataPlane::AllPartitions() const {
  std::vector<std::pair<uint32_t, uint32_t>> all;
  for (const auto& [id, table] : dictionary_.tables()) {
    for (uint32_t p = 0; p < table->partitions; ++p) all.emplace_back(id, p);
  }
  return all;
}

void DataPlane::CheckPeers(absl::Time now) {
  std::vector<std::pair<int, liveness::ProcessIdentity>> watched;
  for (const control::NodeStatus& node : view_.nodes()) {
    int id = static_cast<int>(node.node_id());
    if (node.type() != control::DATANODE || node.node_group() != options_.node_group ||
        id == options_.node_id || !IsStartedPeer(node.node_id()) || lost_peers_.contains(id)) {
      continue;
    }
    if (PeerConnection(id) == nullptr) continue;  // PeerConnection reported it lost
    watched.push_back({id, {node.boot_id(), node.pid(), node.start_ticks()}});
    wire::Ping{static_cast<uint16_t>(options_.node_id)}.Encode(
        ReplyTo(kToNode | static_cast<uint32_t>(id)));
  }
  peer_watch_->Follow(watched, now);
  PeerWatch::Result result =
      peer_watch_->Check(now, [this](int node) { return HasUnreadFrame(node); });
  for (std::string& note : result.notes) {
    SHOAL_LOG(kWarning) << note;
    if (options_.on_note) options_.on_note(std::move(note));
  }
  for (int id : result.lost) {
    if (Connection* conn = PeerConnection(id); conn != nullptr) {
      Close(conn, absl::StrCat("silent past ", absl::FormatDuration(options_.peer_timeout)));
    }
  }
}

bool DataPlane::HasUnreadFrame(int node) {
  for (auto& [id, conn] : connections_) {
    if (conn->dead || conn->data_node != node) continue;
    if (!conn->channel->Receive().ok()) continue;  // PollInput closes it on its next turn
    if (!conn->channel->Peek().empty()) return true;
  }
  return false;
}

void DataPlane::PeerLost(int node, absl::string_view why) {
  if (!lost_peers_.insert(node).second) return;
  SHOAL_LOG(kWarning) << "lost sight of data node " << node << " (" << why
                      << "), which the cluster view has serving: asking for arbitration";
  if (options_.on_peer_lost) options_.on_peer_lost(node);
}

void DataPlane::Ready(absl::Status status) {
  if (ready_reported_) return;
  ready_reported_ = true;
  if (!status.ok()) {
    SHOAL_LOG(kError) << status.message();
  }
  if (options_.on_ready) options_.on_ready(std::move(status));
}

}  // namespace shoal::node
