// MgmdServer, console: what SHOW, STATUS, STOP, START, RESTART, SHUTDOWN and CLUSTERLOG do;
// START BACKUP, ABORT BACKUP and SHOW BACKUPS go to the BackupCoordinator.
// STOP, START, RESTART and SHUTDOWN answer once the node(s) got there, so a script that runs
// `3 STOP` and then `SHOW` sees the node stopped.
#include <csignal>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/view_text.h"
#include "common/logging.h"
#include "mgmd/mgmd_server.h"

namespace shoal::mgmd {

using control::ConsoleRep;
using control::ConsoleReq;
using control::ControlMessage;

namespace {

constexpr size_t kClusterLogLines = 100;

ConsoleRep Error(std::string message) {
  ConsoleRep rep;
  rep.set_ok(false);
  rep.set_error(std::move(message));
  return rep;
}

ConsoleRep Ok(std::string message) {
  ConsoleRep rep;
  rep.set_ok(true);
  rep.set_message(std::move(message));
  return rep;
}

}  // namespace

void MgmdServer::HandleConsole(Connection& conn, const ConsoleReq& req) {
  metrics_
      ->GetCounter("shoal_mgmd_console_commands_total", "Console commands received, by verb.",
                   {{"verb", ConsoleReq::Verb_Name(req.verb())}})
      ->Increment();
  int node_id = static_cast<int>(req.node_id());
  std::optional<ConsoleRep> rep;
  switch (req.verb()) {
    case ConsoleReq::SHOW:
    case ConsoleReq::STATUS:
      if (node_id != 0 && membership_.Find(node_id) == nullptr) {
        rep = Error(absl::StrCat("Node ", node_id, " is not in the configuration"));
      } else {
        rep = Ok("");
        *rep->mutable_view() = View();
      }
      break;
    case ConsoleReq::CLUSTERLOG:
      rep = Ok("");
      for (const auto& event : log_->Recent(kClusterLogLines)) *rep->add_events() = event;
      break;
    case ConsoleReq::STOP:
      rep = Stop(conn, node_id, /*restart=*/false, req.force());
      break;
    case ConsoleReq::RESTART:
      rep = Stop(conn, node_id, /*restart=*/true, req.force());
      break;
    case ConsoleReq::START:
      rep = Start(conn, node_id);
      break;
    case ConsoleReq::START_BACKUP:
      rep = shutting_down_ ? Error("The cluster is shutting down")
                           : backups_.Start(conn.id, req.wait());
      break;
    case ConsoleReq::ABORT_BACKUP:
      rep = backups_.Abort(req.backup_id());
      break;
    case ConsoleReq::SHOW_BACKUPS:
      rep = Ok(backups_.ShowBackups());
      break;
    case ConsoleReq::SHUTDOWN: {
      PendingReply pending;
      pending.connection_id = conn.id;
      pending.deadline = absl::InfiniteFuture();  // the shutdown deadline ends it
      WaitFor(std::move(pending));
      Shutdown(absl::StrCat("SHUTDOWN from the console at ", conn.peer_ip),
               [this] { loop_->Stop(); });
      break;
    }
    default:
      rep = Error("unknown console command");
  }
  if (rep.has_value()) Reply(conn.id, *rep);
}

std::optional<ConsoleRep> MgmdServer::Stop(Connection& conn, int node_id, bool restart,
                                           bool force) {
  std::string verb = restart ? "RESTART" : "STOP";
  NodeSlot* slot = membership_.Find(node_id);
  if (slot == nullptr) return Error(absl::StrCat("Node ", node_id, " is not in the configuration"));
  if (slot->type == control::MGMD) {
    return Error(absl::StrCat("Node ", node_id,
                              " is the management daemon; use SHUTDOWN to stop the cluster"));
  }
  if (shutting_down_) return Error("The cluster is shutting down");
  auto sup = supervised_.find(node_id);
  bool supervised = sup != supervised_.end();
  bool running =
      slot->state != control::NOT_CONNECTED || (supervised && supervisor_->Running(node_id));
  if (restart && !supervised) {
    return Error(absl::StrCat("Node ", node_id,
                              " was not started by this management daemon, so it cannot start "
                              "it again; use '",
                              node_id, " STOP' and start it on its host"));
  }
  if (!force && membership_.IsLastLiveReplica(node_id)) {
    // As ndb_mgm: "Node shutdown would cause system crash".
    return Error(
        absl::StrCat("Node ", node_id, " is the last live replica of node group ", slot->node_group,
                     ": stopping it stops the cluster, which then restarts from disk and "
                     "loses what the last epoch had not saved (system crash). Use '",
                     node_id, " ", verb, " -f' to do it anyway, or SHUTDOWN to stop the cluster"));
  }
  if (!running) {
    // A node waiting out its restart back-off is stopped by cancelling the restart.
    if (supervised && sup->second.relaunch_timer->pending() && !restart) {
      sup->second.want_running = false;
      sup->second.relaunch_timer->Cancel();
      log_->Add(
          "INFO", node_id,
          absl::StrCat("STOP requested from the console at ", conn.peer_ip, ": restart cancelled"));
      return Ok(absl::StrCat("Node ", node_id, " has stopped"));
    }
    return Error(absl::StrCat("Node ", node_id, " is not running"));
  }

  log_->Add("INFO", node_id, absl::StrCat(verb, " requested from the console at ", conn.peer_ip));
  if (supervised) {
    sup->second.want_running = restart;
    sup->second.restarting = restart;
    sup->second.quick_deaths = 0;
    sup->second.relaunch_timer->Cancel();
  }
  if (slot->state != control::NOT_CONNECTED) {
    ControlMessage stop;
    stop.mutable_stop_req()->set_reason(absl::StrCat(verb, " from the console"));
    SendTo(node_id, stop);
    SetState(node_id, control::STOPPING);
  } else {
    supervisor_->Signal(node_id, SIGTERM);  // started but not yet registered
  }
  PendingReply pending;
  pending.connection_id = conn.id;
  pending.node_id = node_id;
  pending.wanted = restart ? control::STARTED : control::NOT_CONNECTED;
  pending.require_down = restart;
  pending.deadline = absl::Now() + options_.command_timeout;
  pending.done_message =
      absl::StrCat("Node ", node_id, restart ? " has restarted" : " has stopped");
  WaitFor(std::move(pending));
  return std::nullopt;
}

std::optional<ConsoleRep> MgmdServer::Start(Connection& conn, int node_id) {
  NodeSlot* slot = membership_.Find(node_id);
  if (slot == nullptr) return Error(absl::StrCat("Node ", node_id, " is not in the configuration"));
  if (slot->type == control::MGMD) {
    return Error(absl::StrCat("Node ", node_id, " is the management daemon; it is running"));
  }
  if (shutting_down_) return Error("The cluster is shutting down");
  auto sup = supervised_.find(node_id);
  if (sup == supervised_.end()) {
    return Error(
        absl::StrCat("Node ", node_id, " was not started by this management daemon; start shoal-",
                     control::NodeTypeLabel(slot->type), " --node-id ", node_id, " on its host"));
  }
  if (slot->state != control::NOT_CONNECTED) {
    return Error(absl::StrCat("Node ", node_id, " is already running (",
                              control::NodeStateLabel(slot->state), ")"));
  }
  if (!supervisor_->Running(node_id)) {
    sup->second.want_running = true;
    sup->second.quick_deaths = 0;
    sup->second.relaunch_timer->Cancel();
    log_->Add("INFO", node_id, absl::StrCat("START requested from the console at ", conn.peer_ip));
    if (absl::Status s = Launch(node_id); !s.ok()) return Error(std::string(s.message()));
  }
  PendingReply pending;
  pending.connection_id = conn.id;
  pending.node_id = node_id;
  pending.wanted = control::STARTED;
  pending.deadline = absl::Now() + options_.command_timeout;
  pending.done_message = absl::StrCat("Node ", node_id, " has started");
  WaitFor(std::move(pending));
  return std::nullopt;
}

void MgmdServer::WaitFor(PendingReply pending) {
  pending_.push_back(std::move(pending));
  SettlePendingReplies();
}

void MgmdServer::SettlePendingReplies() {
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->node_id == 0) {  // SHUTDOWN: answered by MaybeFinishShutdown
      ++it;
      continue;
    }
    const NodeSlot* slot = membership_.Find(it->node_id);
    if (slot->state == control::NOT_CONNECTED) it->require_down = false;
    if (slot->state == it->wanted && !it->require_down) {
      Reply(it->connection_id, Ok(it->done_message));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

void MgmdServer::ExpirePendingReplies() {
  absl::Time now = absl::Now();
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (now < it->deadline) {
      ++it;
      continue;
    }
    const NodeSlot* slot = membership_.Find(it->node_id);
    std::string progress = control::StartProgressText(slot->start_phase, slot->start_percent);
    Reply(it->connection_id,
          Error(absl::StrCat("Node ", it->node_id, " did not get to '",
                             control::NodeStateLabel(it->wanted), "' within ",
                             absl::FormatDuration(options_.command_timeout), " (it is '",
                             control::NodeStateLabel(slot->state), "'",
                             progress.empty() ? "" : ": ", progress, "); see CLUSTERLOG")));
    it = pending_.erase(it);
  }
}

void MgmdServer::Reply(uint64_t connection_id, const ConsoleRep& rep) {
  auto it = connections_.find(connection_id);
  if (it == connections_.end()) return;
  ControlMessage message;
  *message.mutable_console_rep() = rep;
  it->second->channel->Send(message);
}

void MgmdServer::Shutdown(const std::string& reason, absl::AnyInvocable<void()> done) {
  if (shutting_down_) return;
  shutting_down_ = true;
  shutdown_done_ = std::move(done);
  log_->Add("INFO", 0, absl::StrCat("Shutting down the cluster: ", reason));
  for (auto& [id, sup] : supervised_) {
    sup.want_running = false;
    sup.relaunch_timer->Cancel();
  }
  ControlMessage stop;
  stop.mutable_stop_req()->set_reason("cluster shutdown");
  for (const auto& [id, slot] : membership_.slots()) {
    if (slot.type == control::MGMD) continue;
    if (slot.state != control::NOT_CONNECTED) {
      SendTo(id, stop);
      SetState(id, control::STOPPING);
    } else if (supervisor_ != nullptr) {
      supervisor_->Signal(id, SIGTERM);
    }
  }
  shutdown_deadline_timer_.Start(absl::Seconds(10));
  MaybeFinishShutdown();
}

void MgmdServer::MaybeFinishShutdown() {
  if (!shutting_down_ || shutdown_finish_timer_.pending()) return;
  int stopped = 0;
  for (const auto& [id, slot] : membership_.slots()) {
    if (slot.type == control::MGMD) continue;
    if (slot.state != control::NOT_CONNECTED) return;
    ++stopped;
  }
  if (supervisor_ != nullptr && supervisor_->running_count() > 0) return;
  shutdown_deadline_timer_.Cancel();
  log_->Add("INFO", 0, "All nodes stopped; the management daemon exits");
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->node_id == 0) {
      Reply(it->connection_id,
            Ok(absl::StrCat(stopped, " node(s) have shut down; the management daemon exits")));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  // Give the replies a moment to leave before the loop stops.
  shutdown_finish_timer_.Start(absl::Milliseconds(100));
}

}  // namespace shoal::mgmd
