#include "mgmd/console/format.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/control/view_text.h"

namespace shoal::console {

using control::NodeStatus;

namespace {

// "(shoal-0.1.0, node group 0, started, pid 1234)".
std::string Details(const NodeStatus& node) {
  std::vector<std::string> parts;
  if (node.state() != control::NOT_CONNECTED)
    parts.push_back(absl::StrCat("shoal-", node.version()));
  if (node.type() == control::DATANODE)
    parts.push_back(absl::StrCat("node group ", node.node_group()));
  parts.push_back(std::string(control::NodeStateLabel(node.state())));
  if (node.pid() != 0) parts.push_back(absl::StrCat("pid ", node.pid()));
  if (node.restarts() != 0) parts.push_back(absl::StrCat("restarts ", node.restarts()));
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

}  // namespace

std::string FormatShow(const control::ClusterView& view) {
  std::string out = absl::StrCat("Cluster configuration (view ", view.version(), ")\n",
                                 "---------------------------------\n");
  bool first = true;
  for (control::NodeType type : {control::DATANODE, control::MGMD, control::ROUTER}) {
    std::vector<const NodeStatus*> nodes;
    for (const NodeStatus& node : view.nodes()) {
      if (node.type() == type) nodes.push_back(&node);
    }
    if (nodes.empty()) continue;
    if (!first) out += "\n";
    first = false;
    absl::StrAppend(
        &out, absl::StrFormat("[%s]\t%d node(s)\n", control::NodeTypeLabel(type), nodes.size()));
    for (const NodeStatus* node : nodes) {
      absl::StrAppend(&out, absl::StrFormat("id=%-3d @%-15s %s\n", node->node_id(), node->host(),
                                            Details(*node)));
    }
  }
  // Last, and not in the node lines' shape: scripts parse the `id=` lines.
  if (view.system_restart().decided()) {
    absl::StrAppend(&out, "\n", control::SystemRestartText(view.system_restart()), "\n");
  }
  return out;
}

std::string FormatStatus(const control::ClusterView& view, uint32_t node_id, absl::Time now) {
  std::string out;
  for (const NodeStatus& node : view.nodes()) {
    if (node_id != 0 && node.node_id() != node_id) continue;
    absl::Duration since = now - absl::FromUnixMillis(node.state_since_unix_ms());
    absl::StrAppend(&out, "Node ", node.node_id(), ": ", control::NodeTypeLabel(node.type()), ", ",
                    control::NodeStateLabel(node.state()), " for ",
                    absl::FormatDuration(absl::Trunc(since, absl::Seconds(1))));
    if (node.state() == control::STARTING && !node.start_phase().empty()) {
      absl::StrAppend(&out, " (",
                      control::StartProgressText(node.start_phase(), node.start_percent()), ")");
    }
    if (node.state() != control::NOT_CONNECTED) absl::StrAppend(&out, ", shoal-", node.version());
    if (node.pid() != 0) absl::StrAppend(&out, ", pid ", node.pid());
    if (node.disk().known()) {
      absl::StrAppend(&out, ", epoch ", node.disk().complete_epoch(), " complete");
    }
    if (node.metrics_port() != 0) {
      absl::StrAppend(&out, ", metrics http://", node.host(), ":", node.metrics_port(), "/metrics");
    }
    if (node.supervised()) absl::StrAppend(&out, ", supervised, restarts ", node.restarts());
    out += "\n";
  }
  return out;
}

namespace {

// 38273024 → "36.5 MiB": one decimal, the largest binary unit that keeps the number ≥ 1.
std::string Bytes(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return absl::StrCat(bytes, " bytes");
  std::string text = absl::StrFormat("%.1f", value);
  if (absl::EndsWith(text, ".0")) text.resize(text.size() - 2);
  return absl::StrCat(text, " ", units[unit]);
}

}  // namespace

std::string FormatMemoryUsage(const control::ClusterView& view, uint32_t node_id) {
  std::string out;
  for (const NodeStatus& node : view.nodes()) {
    if (node_id != 0 && node.node_id() != node_id) continue;
    if (node.type() != control::DATANODE) {
      if (node_id != 0) absl::StrAppend(&out, "Node ", node.node_id(), ": not a data node\n");
      continue;
    }
    if (!node.has_memory() || node.memory().data_limit_bytes() == 0) {
      absl::StrAppend(&out, "Node ", node.node_id(), ": no memory report (",
                      control::NodeStateLabel(node.state()), ")\n");
      continue;
    }
    const control::MemoryUsage& memory = node.memory();
    // Rounded up, as ndb_mgm's: a node with anything in it never reads 0%.
    uint64_t percent = (memory.data_used_bytes() * 100 + memory.data_limit_bytes() - 1) /
                       memory.data_limit_bytes();
    absl::StrAppend(&out, "Node ", node.node_id(), ": Data usage is ", percent, "%(",
                    Bytes(memory.data_used_bytes()), " of ", Bytes(memory.data_limit_bytes()),
                    ")\n");
  }
  return out;
}

std::string FormatThreads(const control::ClusterView& view, uint32_t node_id) {
  std::string out;
  for (const NodeStatus& node : view.nodes()) {
    if (node_id != 0 && node.node_id() != node_id) continue;
    if (node.threads().empty()) {
      // The mgmd runs no heartbeat of its own; a node not connected has none to send.
      if (node_id != 0 || node.type() != control::MGMD) {
        absl::StrAppend(&out, "Node ", node.node_id(), ": no thread report (",
                        node.type() == control::MGMD ? "the management daemon"
                                                     : control::NodeStateLabel(node.state()),
                        ")\n");
      }
      continue;
    }
    absl::StrAppend(&out, "Node ", node.node_id(), ": ", control::NodeTypeLabel(node.type()),
                    ", pid ", node.pid(), ", ", node.threads_size(), " threads\n");
    for (const control::ThreadUsage& thread : node.threads()) {
      absl::StrAppend(
          &out, absl::StrFormat("  %-16s  user %5.1f%%  system %5.1f%%  (tid %d)\n", thread.name(),
                                thread.user_percent(), thread.system_percent(), thread.tid()));
    }
  }
  return out;
}

std::string FormatClusterLog(const control::ConsoleRep& rep) {
  std::string out;
  for (const control::ClusterEvent& event : rep.events()) {
    std::string subject = event.node_id() == 0 ? "Cluster" : absl::StrCat("Node ", event.node_id());
    absl::StrAppend(&out,
                    absl::FormatTime("%Y-%m-%d %H:%M:%E3S", absl::FromUnixMillis(event.unix_ms()),
                                     absl::LocalTimeZone()),
                    " [", event.severity(), "] ", subject, ": ", event.text(), "\n");
  }
  return out;
}

}  // namespace shoal::console
