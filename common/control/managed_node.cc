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
#include "common/liveness/realtime.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/process.h"

ABSL_FLAG(std::string, connect_string, "localhost:1186",
          "The management daemon to register with, host[:port].");
ABSL_FLAG(int, node_id, 0,
          "Node id to take; 0 takes any free id of this node's type in the configuration.");
ABSL_FLAG(absl::Duration, connect_timeout, absl::Seconds(60),
          "How long to keep trying to reach the management daemon at start-up.");
ABSL_FLAG(std::string, tls_dir, "/etc/shoal/cluster-tls",
          "This host's certificates for TLS between the cluster's processes (ca.pem, "
          "node-cert.pem, node-key.pem; shoal-mgmd --make-cluster-certificates makes them). Used "
          "when the directory holds them; a cluster whose links use TLS refuses a node without.");

namespace shoal::control {
namespace {

// Drives one node process; lives on the stack of whoever runs the loop, for the node's life.
//
// Starting: registered → metrics server → start hook → (deferred: progress reports, then
// Done) → NodeStarted. `start_hook_ok_` is set once the hook returned OK, `started_` once
// NodeStarted was reported; a deferred start lies between the two.
class ManagedNode {
 public:
  ManagedNode(EventLoop* loop, const ManagedNodeOptions& options, ManagedNodeHooks hooks)
      : options_(options),
        loop_(loop),
        hooks_(std::move(hooks)),
        stop_timer_(loop,
                    [loop] {
                      SHOAL_LOG(kWarning)
                          << "the management daemon did not take the stop notice in time";
                      loop->Stop();
                    }),
        progress_(loop, {.on_report = [this](const std::string& phase,
                                             int percent) { OnStartProgress(phase, percent); },
                         .on_done = [this](absl::Status status) { OnStartDone(status); }}),
        arbitrator_(
            loop,
            {.on_arbitrate =
                 [this](int lost, absl::Duration timeout, Arbitrator::Done done) {
                   client_->Arbitrate(lost, timeout, std::move(done));
                 },
             .on_stop = [this](std::string reason, int exit_code) { Stop(reason, exit_code); },
             .on_note = [this](std::string line) { client_->ReportEvent("WARNING", line); }}),
        disk_(loop, [this](const DiskReport& report) { client_->ReportDisk(report); }) {}

  int Run() {
    if (!options_.tls_dir.empty()) {
      absl::StatusOr<std::unique_ptr<tls::LinkContext>> link =
          tls::LinkContext::Load(options_.tls_dir);
      if (link.ok()) {
        link_tls_ = std::move(*link);
        SHOAL_LOG(kInfo) << "TLS between the cluster's processes with the set in "
                         << options_.tls_dir;
      } else if (!absl::IsNotFound(link.status())) {
        SHOAL_LOG(kError) << "--tls-dir: " << link.status().message();
        return 1;
      }
    }
    MgmClient::Options options;
    options.tls = link_tls_.get();
    options.mgmd_host = options_.mgmd.host;
    options.mgmd_port = options_.mgmd.port;
    options.type = options_.type;
    options.requested_node_id = options_.node_id;
    options.connect_timeout = options_.connect_timeout;
    MgmClient::Callbacks callbacks;
    callbacks.on_registered = [this](int id, const config::ClusterConfig& c,
                                     const ClusterView& view) { Start(id, c, view); };
    callbacks.on_fatal = [this](const absl::Status& why) {
      SHOAL_LOG(kError) << why.message();
      exit_code_ = 1;
      loop_->Stop();
    };
    callbacks.on_view = [this](const ClusterView& view) { OnView(view); };
    callbacks.on_stop_requested = [this](const std::string& reason, int exit_code) {
      Stop(absl::StrCat("the management daemon asked this node to stop (", reason, ")"), exit_code);
    };
    client_ =
        std::make_unique<MgmClient>(loop_, std::move(options), std::move(callbacks), &metrics_);
    SignalWatcher sigterm(loop_, SIGTERM, [this] { Shutdown("SIGTERM"); });
    SignalWatcher sigint(loop_, SIGINT, [this] { Shutdown("SIGINT"); });
    SHOAL_LOG(kInfo) << "connecting to the management daemon at " << options_.mgmd.host << ":"
                     << options_.mgmd.port;
    client_->Start();
    loop_->Run();
    // Threads the start hook began may still report or ask; from here on that does nothing
    // (or answers false), and the questions still outstanding are answered false.
    progress_.Detach();
    arbitrator_.Detach();
    disk_.Detach();
    client_->FailArbitrations("the node is stopping");
    if (start_hook_ok_ && hooks_.stop) hooks_.stop();
    client_.reset();
    metrics_server_.reset();
    SHOAL_LOG(kInfo) << "stopped";
    return exit_code_;
  }

 private:
  void Start(int node_id, const config::ClusterConfig& config, const ClusterView& view) {
    node_id_ = node_id;
    config_ = config;
    if (options_.set_log_identity) {
      SetLogIdentity(absl::StrCat(NodeTypeLabel(options_.type), "-", node_id));
    }
    SHOAL_LOG(kInfo) << "registered as node " << node_id << " (configuration " << config.source
                     << ")";
    if (config_->LinksUseTls() && link_tls_ == nullptr) {
      Fail(absl::FailedPreconditionError(
          absl::StrCat("this cluster's links use TLS (cluster.tls) and --tls-dir ",
                       options_.tls_dir, " holds no certificates for this host")));
      return;
    }
    metrics_
        .GetGauge("shoal_node_info", "Constant 1, labelled with what this process is.",
                  {{"id", std::to_string(node_id)},
                   {"type", std::string(NodeTypeLabel(options_.type))},
                   {"version", SHOAL_VERSION}})
        ->Set(1);
    std::string host;
    if (const auto* dn = config_->FindDataNode(node_id)) {
      host = dn->host;
      metrics_port_ = dn->metrics_port;
    } else if (const auto* router = config_->FindRouter(node_id)) {
      host = router->host;
      metrics_port_ = router->metrics_port;
    }
    if (metrics_port_ != 0) {
      auto server = MetricsServer::Start(&metrics_, host, metrics_port_);
      if (!server.ok()) {
        Fail(server.status());
        return;
      }
      metrics_server_ = std::move(*server);
      SHOAL_LOG(kInfo) << "serving http://" << host << ":" << metrics_port_ << "/metrics";
    }
    if (hooks_.start) {
      progress_.BeginStartHook();
      absl::Status status =
          hooks_.start({loop_, &metrics_, node_id_, &*config_, &view, &data_port_,
                        progress_.handle(), arbitrator_.handle(),
                        config_->LinksUseTls() ? link_tls_.get() : nullptr, disk_.handle()});
      bool deferred = progress_.EndStartHook();
      if (!status.ok()) {
        Fail(status);
        return;
      }
      start_hook_ok_ = true;
      client_->SetHeartbeatProbe([this](Heartbeat* heartbeat) {
        if (hooks_.memory_usage) {
          if (std::optional<MemoryUsage> memory = hooks_.memory_usage()) {
            *heartbeat->mutable_memory() = *memory;
          }
        }
        if (hooks_.backup_report) {
          if (std::optional<BackupReport> backup = hooks_.backup_report()) {
            *heartbeat->mutable_backup() = *backup;
          }
        }
      });
      // After the hook started the node's own threads: realtime is for this one only, and
      // threads created later start ordinary (UseRealtimeScheduling).
      if (config_->cluster.realtime_scheduler) (void)liveness::UseRealtimeScheduling("control");
      if (deferred) {
        SHOAL_LOG(kInfo) << "still starting (the start hook finishes in the background)";
        return;
      }
    }
    ReportStarted();
  }

  void ReportStarted() {
    started_ = true;
    client_->ReportStarted(metrics_port_, data_port_);
    SHOAL_LOG(kInfo) << "started";
  }

  void OnStartProgress(const std::string& phase, int percent) {
    if (started_ || shutting_down_) return;
    if (phase != start_phase_) {
      SHOAL_LOG(kInfo) << "start phase: " << phase;
      start_phase_ = phase;
    }
    client_->ReportStartProgress(phase, percent);
  }

  void OnStartDone(const absl::Status& status) {
    if (started_ || shutting_down_) return;
    if (!status.ok()) {
      Fail(status);
      return;
    }
    ReportStarted();
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

  // StopNode, or a stop the mgmd asked for: an error exit code is kept even when the node is
  // already stopping.
  void Stop(const std::string& reason, int exit_code) {
    if (exit_code != 0) {
      SHOAL_LOG(kError) << "stopping with exit code " << exit_code << ": " << reason;
      exit_code_ = exit_code;
    }
    Shutdown(reason);
  }

  void Shutdown(const std::string& reason) {
    if (shutting_down_) return;
    shutting_down_ = true;
    SHOAL_LOG(kInfo) << "stopping: " << reason;
    // Without an answer from the mgmd within a second, exit anyway.
    stop_timer_.Start(absl::Seconds(1));
    client_->ReportStopping(reason, [this] { loop_->Stop(); });
  }

  ManagedNodeOptions options_;
  EventLoop* loop_;
  ManagedNodeHooks hooks_;
  MetricsRegistry metrics_;
  std::unique_ptr<tls::LinkContext> link_tls_;  // null: no set in --tls-dir
  std::unique_ptr<MgmClient> client_;
  std::unique_ptr<MetricsServer> metrics_server_;
  std::optional<config::ClusterConfig> config_;
  ClusterView last_view_;
  Timer stop_timer_;
  StartProgressReceiver progress_;
  ArbitratorReceiver arbitrator_;
  DiskReporterReceiver disk_;
  std::string start_phase_;  // the last phase logged
  int node_id_ = 0;
  int metrics_port_ = 0;
  int data_port_ = 0;  // set by a data node's start hook
  int exit_code_ = 0;
  bool start_hook_ok_ = false;  // the stop hook runs at exit
  bool started_ = false;        // NodeStarted reported
  bool shutting_down_ = false;
};

}  // namespace

int RunManagedNodeOn(EventLoop* loop, const ManagedNodeOptions& options, ManagedNodeHooks hooks) {
  ManagedNode node(loop, options, std::move(hooks));
  return node.Run();
}

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
  ManagedNodeOptions options;
  options.type = type;
  options.mgmd = *mgmd;
  options.node_id = absl::GetFlag(FLAGS_node_id);
  options.connect_timeout = absl::GetFlag(FLAGS_connect_timeout);
  options.tls_dir = absl::GetFlag(FLAGS_tls_dir);
  return RunManagedNodeOn(loop->get(), options, std::move(hooks));
}

}  // namespace shoal::control
