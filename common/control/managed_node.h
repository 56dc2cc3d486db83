// RunManagedNode: the life of a data node or router process as a member of the cluster —
// reach the mgmd, register, start the node's own work, serve /metrics, heartbeat, follow the
// cluster view, and stop cleanly on SIGTERM/SIGINT or a STOP from the console.
//
// The node's own work plugs in through ManagedNodeHooks; everything here runs on the main
// thread's EventLoop. A start hook may defer the node's "started" until work it began has
// finished (StartProgress, start_progress.h), reporting its progress to the mgmd meanwhile. Its
// threads may ask the mgmd for arbitration and stop the node (Arbitrator, arbitrator.h), and a
// data node's report what its disk holds (DiskReporter, disk_reporter.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/config/config.h"
#include "common/control/arbitrator.h"
#include "common/control/control.pb.h"
#include "common/control/disk_reporter.h"
#include "common/control/start_progress.h"
#include "common/event_loop.h"
#include "common/host_port.h"
#include "common/metrics.h"
#include "common/tls/link_context.h"

namespace shoal::control {

// What the start hook gets. `loop`, `metrics`, `config` and `data_port` stay valid until the
// stop hook has returned; `view` only while the start hook runs.
struct ManagedNodeContext {
  EventLoop* loop;
  MetricsRegistry* metrics;
  int node_id;
  const config::ClusterConfig* config;
  const ClusterView* view;  // the cluster as of registration
  // A data node's start hook sets the native TCP port it listens on (a deferred start may set
  // it from any thread until it calls Done; it is read on the loop thread after Done).
  int* data_port;
  // To defer "started" until Done(), and report progress meanwhile. Copy it into whichever
  // thread finishes the start: a copy is safe from any thread and harmless after shutdown.
  StartProgress start_progress;
  // To ask the mgmd whether the node may go on serving without a data node it lost (I5), and to
  // stop the node with an error exit code. Copy it into any thread: safe from any thread and
  // harmless after shutdown (arbitrator.h).
  Arbitrator arbitrator;
  // TLS for the links this node opens and accepts between hosts (native TCP), when the
  // cluster's links use it (cluster.tls); null: clear text.
  const tls::LinkContext* link_tls;
  // Data nodes: to tell the mgmd what their disk holds, for a whole-cluster restart (the mgmd
  // decides the epoch every data node restores, and says so in the view: on_view below). Copy
  // it into any thread: safe from any thread, at any time, and harmless after shutdown
  // (disk_reporter.h).
  DiskReporter disk;
};

struct ManagedNodeHooks {
  // Runs once the node is registered; an error ends the process with that message. It may
  // call context.start_progress.Defer(): the node then reports itself started only when
  // start_progress.Done(OkStatus()) is called, and Done(error) ends the process as an error
  // returned here does.
  absl::AnyInvocable<absl::Status(const ManagedNodeContext&)> start;
  // Runs before the process exits whenever the start hook returned OK — also when a deferred
  // start never finished or finished with an error, so the hook's threads can be stopped.
  // StartProgress calls made from now on do nothing, Arbitrator calls answer false at once,
  // and arbitrations still outstanding have been answered false.
  absl::AnyInvocable<void()> stop;
  // Runs on every new cluster view (optional), on the loop thread: the view at registration
  // right after the start hook returned, then each one the mgmd sends — also while a deferred
  // start has not finished, so a start waiting for something in the view (the system restart
  // decision, a peer started) learns of it here. Not during the start hook (it has
  // context.view); not once the node is stopping and its loop has ended.
  absl::AnyInvocable<void(const ClusterView&)> on_view;
  // Data nodes (optional): their memory now, asked at each heartbeat on the loop thread once the
  // start hook returned; nullopt while there is none to tell (console: REPORT MEMORYUSAGE).
  absl::AnyInvocable<std::optional<MemoryUsage>()> memory_usage;
  // Data nodes (optional): their part of the latest online backup, asked as memory_usage is;
  // nullopt while there is nothing to tell.
  absl::AnyInvocable<std::optional<BackupReport>()> backup_report;
};

// Parses the command line (--connect-string, --node-id, --connect-timeout, --tls-dir,
// --log-level) and
// runs the node until it is told to stop. Returns the process exit code.
int RunManagedNode(NodeType type, absl::string_view name, absl::string_view usage, int argc,
                   char** argv, ManagedNodeHooks hooks);

struct ManagedNodeOptions {
  NodeType type = NODE_TYPE_UNSPECIFIED;
  HostPort mgmd;
  int node_id = 0;  // 0: any free id of this type
  absl::Duration connect_timeout = absl::Seconds(60);
  // Where this host's set for TLS between the cluster's processes is (common/tls/link_context.h);
  // none there (or empty): the node speaks in clear text, which a cluster using TLS refuses.
  std::string tls_dir;
  // Names the process's log lines after the node ("datanode-3") once registered. Off for a
  // node run inside a test process, where other threads are already logging.
  bool set_log_identity = true;
};

// RunManagedNode without the command line, on `loop` (which the caller's thread runs until
// the node stops; it watches SIGTERM and SIGINT). Returns the exit code. Lets tests run a
// node in-process.
int RunManagedNodeOn(EventLoop* loop, const ManagedNodeOptions& options, ManagedNodeHooks hooks);

}  // namespace shoal::control
