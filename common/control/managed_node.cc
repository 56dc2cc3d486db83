#include "common/control/managed_node.h"

#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/control/mgm_client.h"
#include "common/control/view_text.h"
#include "common/host_port.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/process.h"

ABSL_FLAG(std::string, connect_string, "localhost:1186",
          "The management daemon to register with, host[:port].");
ABSL_FLAG(int, node_id, 0,
          "Node id to take; 0 takes any free id of this node's type in the configuration.");
ABSL_FLAG(absl::Duration, connect_timeout, absl::Seconds(60),
          "How long to keep trying to reach the management daemon at start-up.");

namespace shoal::control {
namespace {

// Drives one node process; lives on main()'s stack for the life of the process.
class ManagedNode {
 public:
  ManagedNode(NodeType type, EventLoop* loop, ManagedNodeHooks hooks)
      : type_(type), loop_(loop), hooks_(std::move(hooks)), stop_timer_(loop, [loop] {
          SHOAL_LOG(kWarning) << "the management daemon did not take the stop notice in time";
          loop->Stop();
        }) {}

  int Run(const HostPort& mgmd) {
    MgmClient::Options options;
    options.mgmd_host = mgmd.host;
    options.mgmd_port = mgmd.port;
    options.type = type_;
    options.requested_node_id = absl::GetFlag(FLAGS_node_id);
    options.connect_timeout = absl::GetFlag(FLAGS_connect_timeout);
    MgmClient::Callbacks callbacks;
    callbacks.on_registered = [this](int id, const config::ClusterConfig& c,
                                     const ClusterView& view) { Start(id, c, view); };
    callbacks.on_fatal = [this](const absl::Status& why) {
      SHOAL_LOG(kError) << why.message();
      exit_code_ = 1;
      loop_->Stop();
    };
    callbacks.on_view = [this](const ClusterView& view) { OnView(view); };
    callbacks.on_stop_requested = [this](const std::string& reason) {
      Shutdown(absl::StrCat("the management daemon asked this node to stop (", reason, ")"));
    };
    client_ =
        std::make_unique<MgmClient>(loop_, std::move(options), std::move(callbacks), &metrics_);
    SignalWatcher sigterm(loop_, SIGTERM, [this] { Shutdown("SIGTERM"); });
    SignalWatcher sigint(loop_, SIGINT, [this] { Shutdown("SIGINT"); });
    SHOAL_LOG(kInfo) << "connecting to the management daemon at " << mgmd.host << ":" << mgmd.port;
    client_->Start();
    loop_->Run();
    if (started_ && hooks_.stop) hooks_.stop();
    client_.reset();
    metrics_server_.reset();
    SHOAL_LOG(kInfo) << "stopped";
    return exit_code_;
  }

 private:
  void Start(int node_id, const config::ClusterConfig& config, const ClusterView& view) {
    node_id_ = node_id;
    config_ = config;
    SetLogIdentity(absl::StrCat(NodeTypeLabel(type_), "-", node_id));
    SHOAL_LOG(kInfo) << "registered as node " << node_id << " (configuration " << config.source
                     << ")";
    metrics_
        .GetGauge("shoal_node_info", "Constant 1, labelled with what this process is.",
                  {{"id", std::to_string(node_id)},
                   {"type", std::string(NodeTypeLabel(type_))},
                   {"version", SHOAL_VERSION}})
        ->Set(1);
    std::string host;
    int metrics_port = 0;
    int data_port = 0;
    if (const auto* dn = config_->FindDataNode(node_id)) {
      host = dn->host;
      metrics_port = dn->metrics_port;
    } else if (const auto* router = config_->FindRouter(node_id)) {
      host = router->host;
      metrics_port = router->metrics_port;
    }
    if (metrics_port != 0) {
      auto server = MetricsServer::Start(&metrics_, host, metrics_port);
      if (!server.ok()) {
        Fail(server.status());
        return;
      }
      metrics_server_ = std::move(*server);
      SHOAL_LOG(kInfo) << "serving http://" << host << ":" << metrics_port << "/metrics";
    }
    if (hooks_.start) {
      absl::Status status =
          hooks_.start({loop_, &metrics_, node_id_, &*config_, &view, &data_port});
      if (!status.ok()) {
        Fail(status);
        return;
      }
    }
    started_ = true;
    client_->ReportStarted(metrics_port, data_port);
    SHOAL_LOG(kInfo) << "started";
  }

  void OnView(const ClusterView& view) {
    for (const std::string& change : DescribeViewChanges(last_view_, view)) {
      SHOAL_LOG(kInfo) << change;
    }
    last_view_ = view;
    if (hooks_.on_view) hooks_.on_view(view);
  }

  void Fail(const absl::Status& why) {
    SHOAL_LOG(kError) << why.message();
    exit_code_ = 1;
    Shutdown("start-up failed");
  }

  void Shutdown(const std::string& reason) {
    if (shutting_down_) return;
    shutting_down_ = true;
    SHOAL_LOG(kInfo) << "stopping: " << reason;
    // Without an answer from the mgmd within a second, exit anyway.
    stop_timer_.Start(absl::Seconds(1));
    client_->ReportStopping(reason, [this] { loop_->Stop(); });
  }

  NodeType type_;
  EventLoop* loop_;
  ManagedNodeHooks hooks_;
  MetricsRegistry metrics_;
  std::unique_ptr<MgmClient> client_;
  std::unique_ptr<MetricsServer> metrics_server_;
  std::optional<config::ClusterConfig> config_;
  ClusterView last_view_;
  Timer stop_timer_;
  int node_id_ = 0;
  int exit_code_ = 0;
  bool started_ = false;
  bool shutting_down_ = false;
};

}  // namespace

int RunManagedNode(NodeType type, absl::string_view name, absl::string_view usage, int argc,
                   char** argv, ManagedNodeHooks hooks) {
  std::vector<std::string> args = InitProcess(argc, argv, name, usage);
  if (!args.empty()) {
    SHOAL_LOG(kError) << "unexpected argument '" << args[0] << "' (see --help)";
    return 2;
  }
  absl::StatusOr<HostPort> mgmd = ParseHostPort(absl::GetFlag(FLAGS_connect_string), 1186);
  if (!mgmd.ok()) {
    SHOAL_LOG(kError) << "--connect-string: " << mgmd.status().message();
    return 2;
  }
  // A peer that vanishes mid-write must not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  absl::StatusOr<std::unique_ptr<EventLoop>> loop = EventLoop::Create();
  if (!loop.ok()) {
    SHOAL_LOG(kError) << loop.status().message();
    return 1;
  }
  ManagedNode node(type, loop->get(), std::move(hooks));
  return node.Run(*mgmd);
}

}  // namespace shoal::control
