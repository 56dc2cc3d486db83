#include "mgmd/mgmd_server.h"

#include <arpa/inet.h>
#include <event2/listener.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "common/control/view_text.h"
#include "common/dir_lock.h"
#include "common/logging.h"
#include "common/status_macros.h"

namespace shoal::mgmd {

using control::ControlMessage;

namespace {

std::string PeerIp(const sockaddr* addr) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, buf, sizeof(buf));
  } else if (addr->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, buf, sizeof(buf));
  }
  return buf;
}

}  // namespace

std::string TypeTitle(control::NodeType type) {
  switch (type) {
    case control::DATANODE:
      return "Data node";
    case control::ROUTER:
      return "Router";
    default:
      return "Management daemon";
  }
}

absl::StatusOr<std::unique_ptr<MgmdServer>> MgmdServer::Create(EventLoop* loop, Options options,
                                                               MetricsRegistry* metrics) {
  std::error_code ec;
  std::filesystem::create_directories(options.config.mgmd.data_dir, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat("cannot create the data directory ",
                                               options.config.mgmd.data_dir, ": ", ec.message()));
  }
  // A second mgmd on these files would take the first one's nodes for its own (pid files).
  SHOAL_ASSIGN_OR_RETURN(DirLock lock,
                         DirLock::Acquire(options.config.mgmd.data_dir, "mgmd data directory"));
  std::unique_ptr<MgmdServer> server(new MgmdServer(loop, std::move(options), metrics));
  server->data_dir_lock_.emplace(std::move(lock));
  SHOAL_ASSIGN_OR_RETURN(server->log_,
                         ClusterLog::Open(server->options_.config.mgmd.data_dir + "/cluster.log"));
  SHOAL_RETURN_IF_ERROR(server->Listen());
  server->log_->Add(
      "INFO", server->options_.config.mgmd.id,
      absl::StrCat("Management daemon started (version ", SHOAL_VERSION, ", configuration ",
                   server->options_.config.source, ", listening on port ", server->port_, ")"));
  server->heartbeat_timer_.Start(FailureDetector::kCheckInterval, Timer::Mode::kRepeat);
  server->pending_timer_.Start(absl::Milliseconds(200), Timer::Mode::kRepeat);
  if (server->options_.launch) SHOAL_RETURN_IF_ERROR(server->LaunchLocalNodes());
  return server;
}

MgmdServer::MgmdServer(EventLoop* loop, Options options, MetricsRegistry* metrics)
    : loop_(loop),
      options_(std::move(options)),
      config_yaml_(config::ToYaml(options_.config)),
      membership_(options_.config, absl::Now()),
      backups_(&membership_, options_.config.mgmd.id, BackupHooks()),
      failure_detector_(options_.config.cluster, absl::Now()),
      stall_metrics_(metrics, "mgmd"),
      heartbeat_timer_(loop, [this] { CheckHeartbeats(); }),
      pending_timer_(loop, [this] { ExpirePendingReplies(); }),
      shutdown_deadline_timer_(loop,
                               [this] {
                                 // Nodes that did not stop in time are killed; unsupervised ones
                                 // are left to themselves.
                                 for (auto& [id, sup] : supervised_) {
                                   if (supervisor_->Signal(id, SIGKILL)) {
                                     log_->Add("WARNING", id, "did not stop in time; killed");
                                   }
                                 }
                                 for (const auto& [id, slot] : membership_.slots()) {
                                   if (slot.type != control::MGMD)
                                     membership_.SetState(id, control::NOT_CONNECTED, absl::Now());
                                 }
                                 MaybeFinishShutdown();
                               }),
      shutdown_finish_timer_(loop,
                             [this] {
                               if (shutdown_done_) std::exchange(shutdown_done_, nullptr)();
                             }),
      heartbeats_received_(metrics->GetCounter("shoal_mgmd_heartbeats_received_total",
                                               "Heartbeats received from nodes.")),
      node_failures_(metrics->GetCounter("shoal_mgmd_node_failures_total",
                                         "Nodes that left without being asked to stop.")),
      node_restarts_(metrics->GetCounter("shoal_mgmd_node_restarts_total",
                                         "Supervised nodes restarted after an unexpected exit.")),
      cluster_failures_(metrics->GetCounter(
          "shoal_mgmd_cluster_failures_total",
          "Node groups that lost every live replica, and with them the cluster.")),
      view_version_(
          metrics->GetGauge("shoal_cluster_view_version", "Version of the current cluster view.")),
      metrics_(metrics) {
  NodeSlot* self = membership_.Find(options_.config.mgmd.id);
  self->state = control::STARTED;
  self->version = SHOAL_VERSION;
  self->pid = static_cast<int>(getpid());
  self->metrics_port = options_.config.mgmd.metrics_port;
  view_version_->Set(static_cast<int64_t>(membership_.View().version()));
}

MgmdServer::~MgmdServer() {
  if (listener_ != nullptr) evconnlistener_free(listener_);
}

absl::Status MgmdServer::Listen() {
  std::string host = options_.bind_host.empty() ? options_.config.mgmd.host : options_.bind_host;
  int port = options_.port != 0 ? options_.port : options_.config.mgmd.port;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* result = nullptr;
  if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &result); rc != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  listener_ =
      evconnlistener_new_bind(loop_->base(), &MgmdServer::OnAccept, this,
                              LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 64,
                              result->ai_addr, static_cast<int>(result->ai_addrlen));
  freeaddrinfo(result);
  if (listener_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", port, ": ", std::strerror(errno)));
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(evconnlistener_get_fd(listener_), reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                      : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return absl::OkStatus();
}

void MgmdServer::OnAccept(evconnlistener*, int fd, sockaddr* addr, int, void* arg) {
  auto* self = static_cast<MgmdServer*>(arg);
  auto conn = std::make_unique<Connection>();
  conn->id = self->next_connection_id_++;
  conn->peer_ip = PeerIp(addr);
  const tls::LinkContext* link_tls = self->options_.link_tls;
  conn->channel = control::ControlChannel::Adopt(
      self->loop_, fd, conn->peer_ip, link_tls == nullptr ? nullptr : link_tls->NewServerChannel());
  uint64_t id = conn->id;
  conn->channel->SetHandlers(
      [self, id](const ControlMessage& message) { self->OnMessage(id, message); },
      [self, id](const absl::Status& why) { self->OnClosed(id, why); });
  self->connections_[id] = std::move(conn);
}

void MgmdServer::OnMessage(uint64_t connection_id, const ControlMessage& message) {
  auto it = connections_.find(connection_id);
  if (it == connections_.end()) return;
  Connection& conn = *it->second;
  bool is_node = conn.node_id != 0;
  // Whatever a node sends shows it alive, not only its heartbeats.
  if (is_node) failure_detector_.Heard(conn.node_id, absl::Now());
  switch (message.body_case()) {
    case ControlMessage::kRegisterReq:
      if (!is_node) return HandleRegister(conn, message.register_req());
      break;
    case ControlMessage::kConsoleReq:
      if (!is_node) return HandleConsole(conn, message.console_req());
      break;
    case ControlMessage::kHeartbeat:
      if (!is_node) break;
      heartbeats_received_->Increment();
      if (message.heartbeat().has_start_progress()) {
        HandleStartProgress(conn.node_id, message.heartbeat().start_progress());
      }
      if (message.heartbeat().has_disk()) HandleDiskState(conn.node_id, message.heartbeat().disk());
      if (message.heartbeat().has_memory()) {
        membership_.SetMemoryUsage(conn.node_id, message.heartbeat().memory());
      }
      membership_.SetThreads(conn.node_id, message.heartbeat().threads());
      if (message.heartbeat().has_backup()) {
        backups_.OnReport(conn.node_id, message.heartbeat().backup());
      }
      return;
    case ControlMessage::kNodeStarted:
      if (!is_node) break;
      membership_.Find(conn.node_id)->metrics_port =
          static_cast<int>(message.node_started().metrics_port());
      membership_.Find(conn.node_id)->data_port =
          static_cast<int>(message.node_started().data_port());
      if (membership_.Find(conn.node_id)->type == control::DATANODE &&
          membership_.system_restart().has_value()) {
        HoldStart(conn.node_id);
        return;
      }
      log_->Add("INFO", conn.node_id,
                absl::StrCat(TypeTitle(membership_.Find(conn.node_id)->type), " started"));
      SetState(conn.node_id, control::STARTED);
      return;
    case ControlMessage::kArbitrationReq:
      if (!is_node) break;
      return HandleArbitration(conn.node_id, message.arbitration_req());
    case ControlMessage::kNodeEvent:
      if (!is_node) break;
      return HandleNodeEvent(conn.node_id, message.node_event());
    case ControlMessage::kNodeStopping:
      if (!is_node) break;
      if (membership_.Find(conn.node_id)->state != control::STOPPING) {
        log_->Add("INFO", conn.node_id,
                  absl::StrCat("stopping: ", message.node_stopping().reason()));
      }
      SetState(conn.node_id, control::STOPPING);
      return;
    default:
      break;
  }
  SHOAL_LOG(kWarning) << "closing the connection from " << conn.peer_ip
                      << ": unexpected control message " << message.body_case();
  conn.channel->CloseAfterFlush();
}

void MgmdServer::OnClosed(uint64_t connection_id, const absl::Status& why) {
  auto it = connections_.find(connection_id);
  if (it == connections_.end()) return;
  int node_id = it->second->node_id;
  // We are inside the channel's close handler: destroy it from a later turn.
  loop_->Post([dead = std::move(it->second)] {});
  connections_.erase(it);
  std::erase_if(pending_, [&](const PendingReply& p) { return p.connection_id == connection_id; });
  if (node_id != 0) {
    node_connections_.erase(node_id);
    NodeLeft(node_id, std::string(why.message()));
  } else if (absl::IsPermissionDenied(why) || absl::StrContains(why.message(), "TLS")) {
    // Someone who could not prove they belong to the cluster (common/tls/link_context.h).
    log_->Add("WARNING", 0, absl::StrCat("refused a connection: ", why.message()));
  }
}

void MgmdServer::DropConnection(uint64_t connection_id) {
  auto it = connections_.find(connection_id);
  if (it == connections_.end()) return;
  if (it->second->node_id != 0) node_connections_.erase(it->second->node_id);
  connections_.erase(it);  // not inside its handlers: safe to destroy now
}

void MgmdServer::HandleRegister(Connection& conn, const control::RegisterReq& req) {
  absl::StatusOr<int> id =
      shutting_down_ ? absl::UnavailableError("the management daemon is shutting down")
                     : membership_.Allocate(req.type(), static_cast<int>(req.requested_node_id()),
                                            conn.peer_ip);
  if (!id.ok()) {
    log_->Add("WARNING", 0,
              absl::StrCat("Refused a ", control::NodeTypeLabel(req.type()), " from ", conn.peer_ip,
                           ": ", id.status().message()));
    ControlMessage refuse;
    refuse.mutable_register_ref()->set_message(std::string(id.status().message()));
    conn.channel->Send(refuse);
    conn.channel->CloseAfterFlush();
    return;
  }
  NodeSlot* slot = membership_.Find(*id);
  const liveness::ProcessIdentity identity{req.boot_id(), static_cast<int>(req.pid()),
                                           req.start_ticks()};
  if (slot->fenced.pid != 0 && slot->fenced == identity) {
    // It was declared failed by arbitration yet lives on: it has to restart (I5).
    log_->Add("WARNING", *id,
              absl::StrCat("Refused process ", req.pid(), " from ", conn.peer_ip,
                           ": it lost arbitration and must restart"));
    ControlMessage refuse;
    refuse.mutable_register_ref()->set_message(
        absl::StrCat("node ", *id, " lost arbitration; this process must restart"));
    conn.channel->Send(refuse);
    conn.channel->CloseAfterFlush();
    return;
  }
  slot->fenced = {};
  conn.node_id = *id;
  node_connections_[*id] = conn.id;
  slot->version = req.version();
  slot->pid = req.pid();
  slot->identity = identity;
  failure_detector_.Watch(*slot, absl::Now());
  log_->Add("INFO", *id,
            absl::StrCat(TypeTitle(slot->type), " connected from ", conn.peer_ip, " (version ",
                         req.version(), ", pid ", req.pid(), ")"));
  membership_.SetState(*id, control::STARTING, absl::Now());
  ControlMessage accept;
  control::RegisterConf* conf = accept.mutable_register_conf();
  conf->set_node_id(static_cast<uint32_t>(*id));
  conf->set_config_yaml(config_yaml_);
  *conf->mutable_view() = View();
  conn.channel->Send(accept);
  PublishView();
}

void MgmdServer::HandleStartProgress(int node_id, const control::NodeStartProgress& progress) {
  if (!membership_.SetStartProgress(node_id, progress.phase(), progress.percent())) return;
  // A new phase is news for everyone (and the cluster log); a new percent alone is only kept
  // for the console, which reads it from the membership at each STATUS.
  const std::string& phase = membership_.Find(node_id)->start_phase;
  if (!phase.empty()) log_->Add("INFO", node_id, absl::StrCat("start phase: ", phase));
  PublishView();
}

void MgmdServer::HandleDiskState(int node_id, const control::DiskState& disk) {
  // The first report is news (it may complete a system restart's wait); later epochs alone are
  // kept for the console, as start percents are.
  bool first = membership_.SetDiskState(node_id, disk);
  if (FollowSystemRestart() || first) PublishView();
}

bool MgmdServer::FollowSystemRestart() {
  Membership::SystemRestartChange change =
      membership_.UpdateSystemRestart(absl::Now(), options_.config.cluster.start_partial_timeout);
  if (change == Membership::SystemRestartChange::kNone) return false;
  if (change == Membership::SystemRestartChange::kCleared) return true;
  const SystemRestartDecision& decision = *membership_.system_restart();
  std::string line = control::SystemRestartText(membership_.View().system_restart());
  if (!decision.missing.empty()) {
    absl::StrAppend(&line, " (not waiting any longer for data node",
                    decision.missing.size() == 1 ? " " : "s ",
                    absl::StrJoin(decision.missing, ", "), ": start_partial_timeout passed)");
  }
  log_->Add("INFO", 0, line);
  for (int group : decision.groups_lost) {
    log_->Add("ALERT", 0,
              absl::StrCat("System restart: node group ", group, " cannot be restored to epoch ",
                           decision.epoch, " (no data node holds it)"));
  }
  return true;
}

void MgmdServer::NodeLeft(int node_id, const std::string& why) {
  NodeSlot* slot = membership_.Find(node_id);
  if (slot == nullptr) return;
  if (slot->state == control::STOPPING) {
    log_->Add("INFO", node_id, "stopped");
  } else {
    node_failures_->Increment();
    log_->Add("ALERT", node_id, absl::StrCat(TypeTitle(slot->type), " failed: ", why));
  }
  SetState(node_id, control::NOT_CONNECTED);
}

void MgmdServer::DeclareFailed(int node_id, const std::string& stop_reason,
                               absl::string_view kill_note) {
  node_failures_->Increment();
  if (auto it = node_connections_.find(node_id); it != node_connections_.end()) {
    uint64_t connection_id = it->second;
    auto conn = connections_.find(connection_id);
    if (stop_reason.empty() || conn == connections_.end()) {
      DropConnection(connection_id);
    } else {
      // The node may still hear us: tell it to stop (with an error, so that whatever
      // supervises it starts it again), then let the connection go. Unbound, its close is no
      // news, and it reads nothing more.
      node_connections_.erase(it);
      conn->second->node_id = 0;
      ControlMessage stop;
      stop.mutable_stop_req()->set_reason(stop_reason);
      stop.mutable_stop_req()->set_exit_code(1);
      conn->second->channel->Send(stop);
      conn->second->channel->CloseAfterFlush();
    }
  }
  SetState(node_id, control::NOT_CONNECTED);
  // A supervised node is killed, so it surely stops; its exit brings the angel's restart.
  if (supervisor_ != nullptr && supervisor_->Signal(node_id, SIGKILL)) {
    log_->Add("WARNING", node_id, kill_note);
  }
}

void MgmdServer::SetState(int node_id, control::NodeState state) {
  if (!membership_.SetState(node_id, state, absl::Now())) return;
  if (state != control::STARTING) held_starts_.erase(node_id);
  StateChanged(node_id, state);
  // A node that left may be the one the held ones waited for.
  if (state == control::NOT_CONNECTED || state == control::STOPPING) ReleaseHeldStarts();
}

void MgmdServer::StateChanged(int node_id, control::NodeState state) {
  if (state == control::NOT_CONNECTED) failure_detector_.Forget(node_id);
  backups_.OnNodeState(node_id, state);  // a participant that left aborts the backup
  FollowSystemRestart();                 // its change, if any, goes out in the same view
  PublishView();
  FollowNodeGroup(node_id, state);
  SettlePendingReplies();
  MaybeFinishShutdown();
}

void MgmdServer::HoldStart(int node_id) {
  held_starts_.insert(node_id);
  std::vector<int> waiting;
  for (int id : membership_.system_restart()->nodes) {
    const NodeSlot* slot = membership_.Find(id);
    if (slot != nullptr && slot->state == control::STARTING && !held_starts_.contains(id)) {
      waiting.push_back(id);
    }
  }
  if (!waiting.empty()) {
    log_->Add("INFO", node_id,
              absl::StrCat("restored; serves with data node", waiting.size() == 1 ? " " : "s ",
                           absl::StrJoin(waiting, ", "), " once they have restored too"));
  }
  ReleaseHeldStarts();
}

void MgmdServer::ReleaseHeldStarts() {
  if (held_starts_.empty()) return;
  if (membership_.system_restart().has_value()) {
    for (int id : membership_.system_restart()->nodes) {
      const NodeSlot* slot = membership_.Find(id);
      if (slot != nullptr && slot->state == control::STARTING && !held_starts_.contains(id)) {
        return;  // still restoring
      }
    }
  }
  // Every node of the decision has restored (or left): all serve from the same view.
  std::vector<int> released(held_starts_.begin(), held_starts_.end());
  held_starts_.clear();
  std::sort(released.begin(), released.end());
  const absl::Time now = absl::Now();
  for (int id : released) {
    if (!membership_.SetState(id, control::STARTED, now)) continue;
    log_->Add("INFO", id, "Data node started");
  }
  FollowSystemRestart();
  PublishView();
  for (int id : released) FollowNodeGroup(id, control::STARTED);
  SettlePendingReplies();
  MaybeFinishShutdown();
}

control::ClusterView MgmdServer::View() const {
  control::ClusterView view = membership_.View();
  if (backups_.run().has_value()) *view.mutable_backup() = *backups_.run();
  return view;
}

BackupCoordinator::Hooks MgmdServer::BackupHooks() {
  BackupCoordinator::Hooks hooks;
  hooks.log = [this](const std::string& severity, const std::string& text) {
    log_->Add(severity, options_.config.mgmd.id, text);
  };
  hooks.publish = [this] {
    membership_.BumpVersion();
    PublishView();
  };
  hooks.reply = [this](uint64_t connection_id, const control::ConsoleRep& rep) {
    Reply(connection_id, rep);
  };
  return hooks;
}

void MgmdServer::PublishView() {
  ControlMessage message;
  *message.mutable_cluster_view() = View();
  for (const auto& [node_id, connection_id] : node_connections_) {
    auto it = connections_.find(connection_id);
    if (it != connections_.end()) it->second->channel->Send(message);
  }
  view_version_->Set(static_cast<int64_t>(message.cluster_view().version()));
  absl::flat_hash_map<std::pair<control::NodeType, control::NodeState>, int> counts;
  for (const auto& [id, slot] : membership_.slots()) ++counts[{slot.type, slot.state}];
  for (control::NodeType type : {control::MGMD, control::DATANODE, control::ROUTER}) {
    for (control::NodeState state :
         {control::NOT_CONNECTED, control::STARTING, control::STARTED, control::STOPPING}) {
      metrics_
          ->GetGauge("shoal_mgmd_nodes", "Configured nodes by type and state.",
                     {{"type", std::string(control::NodeTypeLabel(type))},
                      {"state", std::string(control::NodeStateLabel(state))}})
          ->Set(counts[{type, state}]);
    }
  }
}

void MgmdServer::SendTo(int node_id, const ControlMessage& message) {
  auto it = node_connections_.find(node_id);
  if (it == node_connections_.end()) return;
  auto conn = connections_.find(it->second);
  if (conn != connections_.end()) conn->second->channel->Send(message);
}

}  // namespace shoal::mgmd
