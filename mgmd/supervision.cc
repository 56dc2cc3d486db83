// MgmdServer, supervision: starting the nodes configured on this host and restarting those that
// die unexpectedly, with a back-off for nodes that keep dying right after starting.
#include <ifaddrs.h>
#include <netdb.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "common/control/view_text.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "mgmd/mgmd_server.h"

namespace shoal::mgmd {
namespace {

// A node that dies within this long of starting counts as a quick death.
constexpr absl::Duration kQuickDeath = absl::Seconds(10);
constexpr absl::Duration kFirstRelaunchDelay = absl::Milliseconds(500);
constexpr int kMaxBackoffDoublings = 5;
// How long an adopted node has to register: it retries its mgmd every 500 ms, but a busy
// neighbour can keep it from running for many seconds (docs/architecture.md, "Failure
// detection"), and taking a live node for a lost one costs a node restart.
constexpr absl::Duration kAdoptedRegisterWithin = absl::Seconds(15);
// How soon an adopted node that must be replaced looks again while another is being replaced.
constexpr absl::Duration kAdoptedRecheck = absl::Seconds(1);

std::vector<std::string> LocalAddresses() {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return out;
  for (ifaddrs* ifa = list; ifa != nullptr; ifa = ifa->ifa_next) {
    if (ifa->ifa_addr == nullptr) continue;
    int family = ifa->ifa_addr->sa_family;
    if (family != AF_INET && family != AF_INET6) continue;
    char buf[NI_MAXHOST] = {};
    socklen_t len = family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
    if (getnameinfo(ifa->ifa_addr, len, buf, sizeof(buf), nullptr, 0, NI_NUMERICHOST) == 0) {
      out.emplace_back(buf);
    }
  }
  freeifaddrs(list);
  return out;
}

}  // namespace

bool MgmdServer::IsLocalHost(const std::string& host) const {
  std::vector<std::string> local = LocalAddresses();
  for (const std::string& ip : ResolveHost(host)) {
    if (IsLoopbackAddress(ip) || std::find(local.begin(), local.end(), ip) != local.end()) {
      return true;
    }
  }
  return false;
}

absl::Status MgmdServer::LaunchLocalNodes() {
  supervisor_ = std::make_unique<Supervisor>(
      loop_, [this](int node_id, pid_t pid, std::optional<int> status) {
        OnChildExit(node_id, pid, status);
      });
  const config::ClusterConfig& config = options_.config;
  // Children reach the mgmd on the address it listens on (loopback when it listens on all).
  std::string mgmd_host = options_.bind_host.empty() ? config.mgmd.host : options_.bind_host;
  if (mgmd_host == "0.0.0.0" || mgmd_host == "::") mgmd_host = "127.0.0.1";
  auto add = [&](int id, const std::string& host, const std::vector<int>& cpus,
                 absl::string_view binary) {
    if (!IsLocalHost(host)) return;
    Supervised& sup = supervised_[id];
    sup.spec.node_id = id;
    sup.spec.binary = absl::StrCat(options_.bin_dir, "/", binary);
    sup.spec.args = {
        "--connect-string", absl::StrCat(mgmd_host, ":", port_), "--node-id", std::to_string(id),
        // Always given: a set lying in the default place must not turn TLS on.
        absl::StrCat("--tls-dir=", options_.link_tls == nullptr ? "" : options_.tls_dir)};
    sup.spec.cpus = cpus;
    sup.spec.log_path = absl::StrCat(config.mgmd.data_dir, "/", binary, "-", id, ".log");
    sup.spec.pid_path = absl::StrCat(config.mgmd.data_dir, "/", binary, "-", id, ".pid");
    sup.relaunch_timer = std::make_unique<Timer>(loop_, [this, id] {
      if (absl::Status s = Launch(id); !s.ok()) log_->Add("ALERT", id, s.message());
    });
    sup.adoption_check = std::make_unique<Timer>(loop_, [this, id] { CheckAdopted(id); });
    membership_.Find(id)->supervised = true;
  };
  for (const auto& dn : config.datanodes) add(dn.id, dn.host, dn.cpus, "shoal-datanode");
  for (const auto& r : config.routers) add(r.id, r.host, r.cpus, "shoal-router");
  if (supervised_.empty()) {
    log_->Add("WARNING", 0, "--launch: no data node or router is configured on this host");
  }
  std::vector<int> ids;
  for (const auto& [id, sup] : supervised_) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (int id : ids) {
    // A node an earlier mgmd started still runs (that mgmd was killed): it is this node, and
    // reconnects on its own; a second process would fight it for its data directory and port.
    Supervised& sup = supervised_.at(id);
    if (std::optional<pid_t> pid = supervisor_->Adopt(sup.spec); pid.has_value()) {
      sup.launched_at = absl::Now();
      log_->Add("INFO", id,
                absl::StrCat("process ", *pid,
                             ", started by an earlier management daemon, still runs: "
                             "not started again"));
      sup.adoption_check->Start(kAdoptedRegisterWithin);
      continue;
    }
    SHOAL_RETURN_IF_ERROR(Launch(id));
  }
  return absl::OkStatus();
}

// One at a time, each started and serving before the next is killed: the replicas of a node
// group are never all down together, and a node restarted copies from one that serves.
void MgmdServer::CheckAdopted(int node_id) {
  const NodeSlot* slot = membership_.Find(node_id);
  if (shutting_down_ || !supervisor_->Adopted(node_id) || slot->state != control::NOT_CONNECTED) {
    return;
  }
  Supervised& sup = supervised_.at(node_id);
  for (const auto& [id, other] : supervised_) {
    if (id != node_id && other.replacing_adopted &&
        membership_.Find(id)->state != control::STARTED) {
      sup.adoption_check->Start(kAdoptedRecheck);
      return;
    }
  }
  const pid_t pid = supervisor_->pid(node_id);
  sup.restarting = true;
  sup.replacing_adopted = true;
  if (!supervisor_->Signal(node_id, SIGKILL)) {
    // Gone meanwhile (its end is on the way), or not ours to signal.
    sup.restarting = false;
    sup.replacing_adopted = false;
    log_->Add("ALERT", node_id,
              absl::StrCat("process ", pid, " did not register within ",
                           absl::FormatDuration(kAdoptedRegisterWithin),
                           " and cannot be stopped: ", std::strerror(errno)));
    return;
  }
  log_->Add(
      "WARNING", node_id,
      absl::StrCat("process ", pid, " did not register within ",
                   absl::FormatDuration(kAdoptedRegisterWithin), ": killed, to be started again"));
}

absl::Status MgmdServer::Launch(int node_id) {
  Supervised& sup = supervised_.at(node_id);
  SHOAL_ASSIGN_OR_RETURN(pid_t pid, supervisor_->Launch(sup.spec));
  sup.launched_at = absl::Now();
  NodeSlot* slot = membership_.Find(node_id);
  if (slot->state == control::NOT_CONNECTED) slot->pid = pid;
  log_->Add("INFO", node_id,
            absl::StrCat("started process ", pid, " (log ", sup.spec.log_path, ")"));
  membership_.BumpVersion();
  PublishView();
  return absl::OkStatus();
}

void MgmdServer::OnChildExit(int node_id, pid_t pid, std::optional<int> wait_status) {
  Supervised& sup = supervised_.at(node_id);
  NodeSlot* slot = membership_.Find(node_id);
  if (slot->pid == pid) slot->pid = 0;
  sup.adoption_check->Cancel();
  std::string how = DescribeWaitStatus(wait_status);
  // An adopted process's end is never taken for a clean one: the angel starts it again.
  bool clean_exit =
      wait_status.has_value() && WIFEXITED(*wait_status) && WEXITSTATUS(*wait_status) == 0;
  if (shutting_down_ || !sup.want_running) {
    log_->Add("INFO", node_id, absl::StrCat("process ", pid, " ", how));
  } else if (sup.restarting) {
    sup.restarting = false;
    log_->Add("INFO", node_id, absl::StrCat("process ", pid, " ", how, "; starting it again"));
    if (absl::Status s = Launch(node_id); !s.ok()) log_->Add("ALERT", node_id, s.message());
  } else if (clean_exit) {
    // Someone stopped it on purpose (SIGTERM); the angel only restarts nodes that died.
    sup.want_running = false;
    log_->Add("INFO", node_id,
              absl::StrCat("process ", pid, " ", how, " on its own; not restarting it (use '",
                           node_id, " START')"));
  } else {
    // The first death is restarted at once; each further one soon after a start waits twice
    // as long, so a node that cannot start does not spin.
    bool quick = absl::Now() - sup.launched_at < kQuickDeath;
    absl::Duration delay = kFirstRelaunchDelay;
    if (quick && sup.quick_deaths > 0) {
      delay *= 1 << std::min(sup.quick_deaths, kMaxBackoffDoublings);
    }
    sup.quick_deaths = quick ? sup.quick_deaths + 1 : 0;
    ++slot->restarts;
    node_restarts_->Increment();
    log_->Add("ALERT", node_id,
              absl::StrCat("process ", pid, " ", how, "; restarting it in ",
                           absl::FormatDuration(delay)));
    sup.relaunch_timer->Start(delay);
  }
  // A node that died before its connection closed is gone all the same.
  if (auto it = node_connections_.find(node_id); it != node_connections_.end()) {
    DropConnection(it->second);
    NodeLeft(node_id, absl::StrCat("process ", how));
  } else {
    membership_.BumpVersion();
    PublishView();
  }
  MaybeFinishShutdown();
}

}  // namespace shoal::mgmd
