#include "common/control/mgm_client.h"

#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::control {
namespace {

constexpr absl::Duration kReconnectDelay = absl::Milliseconds(500);
// How often waiting arbitrations take the loop's running time off their timeouts.
constexpr absl::Duration kArbitrationTick = absl::Milliseconds(100);

}  // namespace

MgmClient::MgmClient(EventLoop* loop, Options options, Callbacks callbacks,
                     MetricsRegistry* metrics)
    : loop_(loop),
      options_(std::move(options)),
      callbacks_(std::move(callbacks)),
      heartbeat_timer_(loop,
                       [this] {
                         if (heartbeat_clock_)
                           stall_metrics_.Record(heartbeat_clock_->Advance(absl::Now()));
                         SendHeartbeat();
                       }),
      reconnect_timer_(loop, [this] { Connect(); }),
      arbitration_timer_(loop, [this] { ExpireArbitrations(); }),
      stall_metrics_(metrics, "control"),
      node_id_(options_.requested_node_id),
      heartbeats_sent_(metrics->GetCounter("shoal_mgmd_heartbeats_sent_total",
                                           "Heartbeats sent to the management daemon.")),
      reconnects_(
          metrics->GetCounter("shoal_mgmd_reconnects_total",
                              "Times the connection to the management daemon was re-established.")),
      mgmd_connected_(metrics->GetGauge("shoal_mgmd_connected",
                                        "1 while registered with the management daemon.")),
      view_version_(metrics->GetGauge("shoal_cluster_view_version",
                                      "Version of the last cluster view received.")) {}

MgmClient::~MgmClient() = default;

void MgmClient::Start() {
  first_attempt_ = absl::Now();
  Connect();
}

void MgmClient::Connect() {
  channel_ = ControlChannel::Connect(loop_, options_.mgmd_host, options_.mgmd_port, options_.tls);
  channel_->SetHandlers([this](const ControlMessage& m) { OnMessage(m); },
                        [this](const absl::Status& why) { OnClosed(why); });
  ControlMessage message;
  RegisterReq* req = message.mutable_register_req();
  req->set_type(options_.type);
  req->set_requested_node_id(static_cast<uint32_t>(node_id_));
  req->set_version(SHOAL_VERSION);
  req->set_pid(static_cast<int32_t>(getpid()));
  req->set_boot_id(identity_.boot_id);
  req->set_start_ticks(identity_.start_ticks);
  channel_->Send(message);
}

void MgmClient::OnMessage(const ControlMessage& message) {
  switch (message.body_case()) {
    case ControlMessage::kRegisterConf:
      OnRegistered(message.register_conf());
      break;
    case ControlMessage::kRegisterRef:
      // A refusal is final: retrying would only be refused again.
      Fail(absl::FailedPreconditionError(
          absl::StrCat("the management daemon at ", channel_->peer(),
                       " refused this node: ", message.register_ref().message())));
      break;
    case ControlMessage::kClusterView:
      view_version_->Set(static_cast<int64_t>(message.cluster_view().version()));
      if (callbacks_.on_view) callbacks_.on_view(message.cluster_view());
      break;
    case ControlMessage::kStopReq:
      if (callbacks_.on_stop_requested) {
        callbacks_.on_stop_requested(message.stop_req().reason(), message.stop_req().exit_code());
      }
      break;
    case ControlMessage::kArbitrationConf:
      OnArbitrationConf(message.arbitration_conf());
      break;
    default:
      SHOAL_LOG(kWarning) << "ignoring unexpected control message " << message.body_case()
                          << " from " << channel_->peer();
  }
}

void MgmClient::OnRegistered(const RegisterConf& conf) {
  if (!ever_registered_) {
    absl::StatusOr<config::ClusterConfig> config = config::LoadConfigString(
        conf.config_yaml(), absl::StrCat("<configuration from ", channel_->peer(), ">"));
    if (!config.ok()) {
      Fail(config.status());
      return;
    }
    heartbeat_interval_ = options_.type == ROUTER ? config->cluster.router_heartbeat_interval
                                                  : config->cluster.heartbeat_interval;
    node_id_ = static_cast<int>(conf.node_id());
    ever_registered_ = true;
    registered_ = true;
    mgmd_connected_->Set(1);
    heartbeat_clock_.emplace(heartbeat_interval_, absl::Now());
    heartbeat_timer_.Start(heartbeat_interval_, Timer::Mode::kRepeat);
    if (callbacks_.on_registered) callbacks_.on_registered(node_id_, *config, conf.view());
  } else {
    registered_ = true;
    mgmd_connected_->Set(1);
    reconnects_->Increment();
    SHOAL_LOG(kInfo) << "reconnected to the management daemon at " << channel_->peer()
                     << " as node " << node_id_;
    heartbeat_clock_.emplace(heartbeat_interval_, absl::Now());  // no heartbeats meanwhile
    heartbeat_timer_.Start(heartbeat_interval_, Timer::Mode::kRepeat);
    // NodeStarted before the disk state: a new mgmd that heard the disk states of data nodes
    // none of which has started would take it for a whole-cluster restart and decide one.
    if (started_) SendStarted();
    if ((!started_ && has_start_progress_) || disk_.known()) {
      SendHeartbeat();  // the new mgmd learns how far we are without waiting an interval
    }
  }
  view_version_->Set(static_cast<int64_t>(conf.view().version()));
  if (callbacks_.on_view) callbacks_.on_view(conf.view());
}

void MgmClient::OnClosed(const absl::Status& why) {
  bool was_registered = registered_;
  registered_ = false;
  mgmd_connected_->Set(0);
  heartbeat_timer_.Cancel();
  // The channel is inside its own close handler here: let it go from a later turn.
  loop_->Post([dead = std::move(channel_)] {});
  // Answers sent before the close have been read; none can come now.
  FailArbitrations(
      absl::StrCat("lost the connection to the management daemon (", why.message(), ")"));
  if (stopping_) {
    if (stopped_) std::exchange(stopped_, nullptr)();
    return;
  }
  if (!ever_registered_ && absl::Now() - first_attempt_ > options_.connect_timeout) {
    Fail(absl::DeadlineExceededError(
        absl::StrCat("no management daemon reachable at ", options_.mgmd_host, ":",
                     options_.mgmd_port, " within ", absl::FormatDuration(options_.connect_timeout),
                     " (last error: ", why.message(), ")")));
    return;
  }
  if (was_registered || why.message() != last_error_.message()) {
    SHOAL_LOG(kWarning) << why.message() << "; retrying every "
                        << absl::FormatDuration(kReconnectDelay);
  }
  last_error_ = why;
  reconnect_timer_.Start(kReconnectDelay);
}

void MgmClient::ReportStarted(int metrics_port, int data_port) {
  started_ = true;
  metrics_port_ = metrics_port;
  data_port_ = data_port;
  if (registered_) SendStarted();
}

void MgmClient::ReportStartProgress(const std::string& phase, int percent) {
  if (started_ || stopping_) return;
  bool new_phase = !has_start_progress_ || phase != start_phase_;
  has_start_progress_ = true;
  start_phase_ = phase;
  start_percent_ = percent;
  if (new_phase) SendHeartbeat();
}

void MgmClient::ReportDisk(const DiskReport& report) {
  if (stopping_) return;
  bool first = !disk_.known();
  disk_.set_known(true);
  disk_.set_complete_epoch(report.complete_epoch);
  disk_.set_saved_epoch(report.saved_epoch);
  disk_.set_restorable_from(report.restorable_from);
  if (first) SendHeartbeat();
}

void MgmClient::SendStarted() {
  ControlMessage message;
  message.mutable_node_started()->set_metrics_port(static_cast<uint32_t>(metrics_port_));
  message.mutable_node_started()->set_data_port(static_cast<uint32_t>(data_port_));
  channel_->Send(message);
}

void MgmClient::ReportStopping(const std::string& reason, absl::AnyInvocable<void()> done) {
  stopping_ = true;
  heartbeat_timer_.Cancel();
  reconnect_timer_.Cancel();
  FailArbitrations("the node is stopping");
  if (!registered_) {
    channel_.reset();
    done();
    return;
  }
  stopped_ = std::move(done);
  ControlMessage message;
  message.mutable_node_stopping()->set_reason(reason);
  channel_->Send(message);
  channel_->CloseAfterFlush();
}

void MgmClient::Fail(absl::Status why) {
  stopping_ = true;
  heartbeat_timer_.Cancel();
  reconnect_timer_.Cancel();
  FailArbitrations(std::string(why.message()));
  if (callbacks_.on_fatal) callbacks_.on_fatal(why);
}

void MgmClient::SendHeartbeat() {
  if (!registered_) return;
  ControlMessage message;
  Heartbeat* heartbeat = message.mutable_heartbeat();
  heartbeat->set_sequence(++heartbeat_sequence_);
  if (has_start_progress_ && !started_) {
    heartbeat->mutable_start_progress()->set_phase(start_phase_);
    heartbeat->mutable_start_progress()->set_percent(start_percent_);
  }
  if (disk_.known()) *heartbeat->mutable_disk() = disk_;
  for (ThreadUsage& thread : threads_.Sample(absl::Now())) {
    *heartbeat->add_threads() = std::move(thread);
  }
  if (heartbeat_probe_) heartbeat_probe_(heartbeat);
  channel_->Send(message);
  heartbeats_sent_->Increment();
}

void MgmClient::Arbitrate(int lost, absl::Duration timeout, ArbitrationDone done) {
  if (!registered_ || stopping_) {
    done(false, "no connection to the management daemon");
    return;
  }
  SHOAL_LOG(kWarning) << "asking the management daemon at " << channel_->peer()
                      << " whether this node may go on serving without node " << lost;
  bool asked = false;
  for (const PendingArbitration& pending : arbitrations_) asked = asked || pending.lost == lost;
  if (arbitrations_.empty()) {
    arbitration_clock_.emplace(kArbitrationTick, absl::Now());
    arbitration_timer_.Start(kArbitrationTick, Timer::Mode::kRepeat);
  }
  arbitrations_.push_back({lost, std::max(timeout, absl::ZeroDuration()), std::move(done)});
  if (!asked) {
    ControlMessage message;
    message.mutable_arbitration_req()->set_lost_node(static_cast<uint32_t>(lost));
    channel_->Send(message);
  }
  if (timeout <= absl::ZeroDuration()) ExpireArbitrations();  // no time at all: answered now
}

void MgmClient::OnArbitrationConf(const ArbitrationConf& conf) {
  std::vector<PendingArbitration> answered;
  std::erase_if(arbitrations_, [&](PendingArbitration& pending) {
    if (static_cast<uint32_t>(pending.lost) != conf.lost_node()) return false;
    answered.push_back(std::move(pending));
    return true;
  });
  if (answered.empty()) {
    SHOAL_LOG(kWarning) << "late arbitration answer about node " << conf.lost_node() << " ("
                        << (conf.granted() ? "granted" : "refused") << ": " << conf.reason()
                        << ") ignored";
    return;
  }
  if (conf.granted()) {
    SHOAL_LOG(kInfo) << "arbitration granted: may go on serving without node " << conf.lost_node()
                     << " (" << conf.reason() << ")";
  } else {
    SHOAL_LOG(kError) << "arbitration refused: may not go on serving without node "
                      << conf.lost_node() << " (" << conf.reason() << ")";
  }
  if (arbitrations_.empty()) arbitration_timer_.Cancel();
  for (PendingArbitration& pending : answered) pending.done(conf.granted(), conf.reason());
}

void MgmClient::ExpireArbitrations() {
  liveness::RunningClock::Tick tick = arbitration_clock_->Advance(absl::Now());
  if (tick.stalled) {
    SHOAL_LOG(kWarning) << "this node was stalled for " << absl::FormatDuration(tick.gap)
                        << " while waiting for arbitration: that time is not counted";
  }
  std::vector<PendingArbitration> expired;
  std::erase_if(arbitrations_, [&](PendingArbitration& pending) {
    pending.left -= tick.counted;
    if (pending.left > absl::ZeroDuration()) return false;
    expired.push_back(std::move(pending));
    return true;
  });
  if (arbitrations_.empty()) arbitration_timer_.Cancel();
  // Callbacks last: they may ask again.
  for (PendingArbitration& pending : expired) {
    SHOAL_LOG(kError) << "no arbitration answer about node " << pending.lost << " in time";
    pending.done(false, "no answer from the management daemon in time");
  }
}

void MgmClient::ReportEvent(const std::string& severity, const std::string& text) {
  if (!registered_ || stopping_) return;
  ControlMessage message;
  message.mutable_node_event()->set_severity(severity);
  message.mutable_node_event()->set_text(text);
  channel_->Send(message);
}

void MgmClient::FailArbitrations(const std::string& why) {
  arbitration_timer_.Cancel();
  std::vector<PendingArbitration> failed = std::exchange(arbitrations_, {});
  for (PendingArbitration& pending : failed) {
    SHOAL_LOG(kError) << "arbitration about node " << pending.lost << " failed: " << why;
    pending.done(false, why);
  }
}

}  // namespace shoal::control
