#include "common/control/view_text.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace shoal::control {

absl::string_view NodeTypeLabel(NodeType type) {
  switch (type) {
    case MGMD:
      return "mgmd";
    case DATANODE:
      return "datanode";
    case ROUTER:
      return "router";
    default:
      return "unknown";
  }
}

absl::string_view NodeStateLabel(NodeState state) {
  switch (state) {
    case NOT_CONNECTED:
      return "not connected";
    case STARTING:
      return "starting";
    case STARTED:
      return "started";
    case STOPPING:
      return "stopping";
    default:
      return "unknown";
  }
}

std::string StartProgressText(absl::string_view phase, int percent) {
  if (phase.empty()) return "";
  if (percent < 0) return std::string(phase);
  return absl::StrCat(phase, ", ", percent, "% done");
}

std::string SystemRestartText(const SystemRestart& restart) {
  if (restart.epoch() == 0) return "System restart: no data on disk, starting empty";
  std::string text = absl::StrCat("System restart: recovering epoch ", restart.epoch());
  if (restart.nodes().empty()) return absl::StrCat(text, " (no data node can restore it)");
  return absl::StrCat(text, " from data node", restart.nodes_size() == 1 ? " " : "s ",
                      absl::StrJoin(restart.nodes(), ", "));
}

std::vector<std::string> DescribeViewChanges(const ClusterView& before, const ClusterView& after) {
  absl::flat_hash_map<uint32_t, NodeState> old_states;
  for (const NodeStatus& node : before.nodes()) old_states[node.node_id()] = node.state();
  std::vector<std::string> changes;
  for (const NodeStatus& node : after.nodes()) {
    auto it = old_states.find(node.node_id());
    NodeState old_state = it == old_states.end() ? NOT_CONNECTED : it->second;
    if (old_state == node.state()) continue;
    changes.push_back(absl::StrCat("node ", node.node_id(), " (", NodeTypeLabel(node.type()),
                                   "): ", NodeStateLabel(old_state), " -> ",
                                   NodeStateLabel(node.state())));
  }
  const SystemRestart& restart = after.system_restart();
  if (restart.decided() &&
      (!before.system_restart().decided() || before.system_restart().epoch() != restart.epoch())) {
    changes.push_back(SystemRestartText(restart));
  }
  return changes;
}

}  // namespace shoal::control
