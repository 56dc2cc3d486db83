// RunManagedNode: the life of a data node or router process as a member of the cluster —
// reach the mgmd, register, start the node's own work, serve /metrics, heartbeat, follow the
// cluster view, and stop cleanly on SIGTERM/SIGINT or a STOP from the console.
//
// The node's own work plugs in through ManagedNodeHooks; everything here runs on the main
// thread's EventLoop.
#pragma once

#include <string_view>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "common/config/config.h"
#include "common/control/control.pb.h"
#include "common/event_loop.h"
#include "common/metrics.h"

namespace shoal::control {

struct ManagedNodeContext {
  EventLoop* loop;
  MetricsRegistry* metrics;
  int node_id;
  const config::ClusterConfig* config;
  const ClusterView* view;  // the cluster as of registration
  int* data_port;           // a data node's start hook sets the native TCP port it listens on
};

struct ManagedNodeHooks {
  // Runs once the node is registered; an error ends the process with that message.
  absl::AnyInvocable<absl::Status(const ManagedNodeContext&)> start;
  // Runs before the process exits after a successful start.
  absl::AnyInvocable<void()> stop;
  // Runs on every new cluster view (optional).
  absl::AnyInvocable<void(const ClusterView&)> on_view;
};

// Parses the command line (--connect-string, --node-id, --connect-timeout, --log-level) and
// runs the node until it is told to stop. Returns the process exit code.
int RunManagedNode(NodeType type, absl::string_view name, absl::string_view usage, int argc,
                   char** argv, ManagedNodeHooks hooks);

}  // namespace shoal::control
