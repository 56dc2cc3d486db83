// MgmdServer, failure detection: the heartbeat check that declares silent nodes failed (its
// judgement is the FailureDetector's), what the nodes' own detectors report to the cluster log,
// and the cluster failure when a node group has no live replica left. See
// docs/architecture.md, "Failure detection".
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "mgmd/mgmd_server.h"

namespace shoal::mgmd {

using control::ControlMessage;

namespace {

// A node's event text goes into the cluster log as one line of bounded length.
constexpr size_t kMaxEventText = 512;

// Valid UTF-8 in (a proto3 string), valid UTF-8 out: the cluster log's events go to consoles.
std::string OneLine(absl::string_view text) {
  std::string line(Utf8Prefix(text, kMaxEventText));
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return line;
}

}  // namespace

void MgmdServer::CheckHeartbeats() {
  // Heartbeats waiting unread are heard before anyone is judged: this process may just have
  // been stalled itself, and the loop may not have read them yet.
  std::vector<uint64_t> node_connections;
  for (const auto& [node_id, connection_id] : node_connections_) {
    node_connections.push_back(connection_id);
  }
  for (uint64_t connection_id : node_connections) {
    auto it = connections_.find(connection_id);
    if (it != connections_.end()) it->second->channel->ReadWaiting();
  }
  FailureDetector::Verdict verdict = failure_detector_.Check(absl::Now(), membership_);
  stall_metrics_.Record(verdict.tick);
  for (const auto& [node_id, text] : verdict.warnings) {
    const NodeSlot* slot = membership_.Find(node_id);
    if (slot != nullptr)
      log_->Add("WARNING", node_id, absl::StrCat(TypeTitle(slot->type), " ", text));
  }
  const config::ClusterDefaults& c = options_.config.cluster;
  for (int node_id : verdict.failed) {
    NodeSlot* slot = membership_.Find(node_id);
    if (slot == nullptr || slot->state == control::NOT_CONNECTED) continue;
    log_->Add("ALERT", node_id,
              absl::StrCat(TypeTitle(slot->type), " missed ", c.missed_heartbeats,
                           " heartbeats (silent for ",
                           absl::FormatDuration(absl::Trunc(failure_detector_.counted(node_id),
                                                            absl::Milliseconds(1))),
                           "); declared failed"));
    // Others serve on without it: its process may not come back with what it held (I5).
    if (slot->type == control::DATANODE) slot->fenced = slot->identity;
    DeclareFailed(node_id, /*stop_reason=*/"", "killed the unresponsive process");
  }
  // A system restart waiting for data nodes decides once start_partial_timeout has passed.
  if (FollowSystemRestart()) PublishView();
}

void MgmdServer::FollowNodeGroup(int node_id, control::NodeState state) {
  const NodeSlot* slot = membership_.Find(node_id);
  if (slot == nullptr || slot->type != control::DATANODE) return;
  int group = slot->node_group;
  if (state == control::STARTED) {
    serving_groups_.insert(group);
    return;
  }
  if (shutting_down_ || !serving_groups_.contains(group)) return;
  if (membership_.StartedDataNodes(group) == 0) ClusterFailure(group, node_id);
}

void MgmdServer::ClusterFailure(int group, int last) {
  cluster_failures_->Increment();
  serving_groups_.clear();  // every group restarts; this is said once
  log_->Add(
      "ALERT", 0,
      absl::StrCat("Cluster failure: node group ", group, " has no live replica left (node ", last,
                   " was the last to serve). Every data node stops and starts again from its "
                   "disk (a system restart): commits of the last complete epoch and earlier "
                   "come back"));
  for (const auto& [id, slot] : membership_.slots()) {
    if (slot.type != control::DATANODE || slot.state == control::NOT_CONNECTED ||
        slot.state == control::STOPPING) {
      continue;
    }
    ControlMessage stop;
    stop.mutable_stop_req()->set_reason(
        absl::StrCat("cluster failure: node group ", group, " has no live replica left"));
    stop.mutable_stop_req()->set_exit_code(1);  // so that its angel starts it again
    SendTo(id, stop);
  }
}

void MgmdServer::HandleNodeEvent(int node_id, const control::NodeEvent& event) {
  absl::string_view severity = event.severity();
  if (severity != "INFO" && severity != "WARNING" && severity != "ALERT") severity = "INFO";
  log_->Add(severity, node_id, OneLine(event.text()));
}

}  // namespace shoal::mgmd
