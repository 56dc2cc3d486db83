// Words for the cluster view, shared by logs, the mgmd's cluster log and the console, so a
// state is called the same everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/string_view.h"
#include "common/control/control.pb.h"

namespace shoal::control {

absl::string_view NodeTypeLabel(NodeType type);     // "mgmd", "datanode", "router"
absl::string_view NodeStateLabel(NodeState state);  // "not connected", "starting", ...

// A starting node's progress as the console and the cluster log say it: "copying data, 42%
// done", "copying data" (percent -1), or "" when there is no phase.
std::string StartProgressText(absl::string_view phase, int percent);

// A system restart decision as the cluster log and the console say it: "System restart:
// recovering epoch 1234 from data nodes 2, 3", "System restart: no data on disk, starting empty".
std::string SystemRestartText(const SystemRestart& restart);

// One line per node whose state differs between `before` and `after`,
// e.g. "node 3 (datanode): started -> not connected", and one for a new system restart decision.
std::vector<std::string> DescribeViewChanges(const ClusterView& before, const ClusterView& after);

}  // namespace shoal::control
