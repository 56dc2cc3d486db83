// MgmdServer: the management daemon. It accepts control-plane connections, registers data
// nodes and routers into their configured slots, watches their heartbeats, publishes every
// change of the cluster view to all of them, keeps the cluster log, answers the console, and —
// when launching — starts the local nodes and restarts those that die (the angel's job).
//
// Owned by main(); used only on its EventLoop's thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/config/config.h"
#include "common/control/channel.h"
#include "common/dir_lock.h"
#include "common/event_loop.h"
#include "common/liveness/stall_metrics.h"
#include "common/metrics.h"
#include "common/tls/link_context.h"
#include "mgmd/backup_coordinator.h"
#include "mgmd/cluster_log.h"
#include "mgmd/failure_detector.h"
#include "mgmd/membership.h"
#include "mgmd/supervisor.h"

struct evconnlistener;

namespace shoal::mgmd {

// "Data node", "Router", "Management daemon": how a cluster log line names a node's type.
std::string TypeTitle(control::NodeType type);

class MgmdServer {
 public:
  struct Options {
    config::ClusterConfig config;
    std::string bind_host;  // empty: the mgmd's configured host
    int port = 0;           // 0: the configured port (which may itself be 0: any free port)
    bool launch = false;    // start and supervise the nodes configured on this host
    std::string bin_dir;    // where shoal-datanode and shoal-router are, when launching
    // TLS on every control link (common/tls/link_context.h; must outlive the server), and the
    // directory it came from, which launched nodes are given. Null: clear text.
    const tls::LinkContext* link_tls = nullptr;
    std::string tls_dir;
    // Time a console STOP/START/RESTART may take before it is reported as failed.
    absl::Duration command_timeout = absl::Seconds(30);
  };

  static absl::StatusOr<std::unique_ptr<MgmdServer>> Create(EventLoop* loop, Options options,
                                                            MetricsRegistry* metrics);
  ~MgmdServer();

  int port() const { return port_; }
  // Stops every node, then runs `done` (which typically stops the loop). Idempotent.
  void Shutdown(const std::string& reason, absl::AnyInvocable<void()> done);

 private:
  struct Connection {
    uint64_t id = 0;
    std::unique_ptr<control::ControlChannel> channel;
    std::string peer_ip;
    int node_id = 0;  // 0 until registered; consoles stay 0
  };
  // A node started by this mgmd.
  struct Supervised {
    ChildSpec spec;
    bool want_running = true;
    bool restarting = false;  // a console RESTART: start again as soon as it exits
    std::unique_ptr<Timer> relaunch_timer;
    std::unique_ptr<Timer> adoption_check;
    bool replacing_adopted = false;  // killed by CheckAdopted: the next waits until it serves
    absl::Time launched_at;
    int quick_deaths = 0;  // consecutive deaths soon after launch: backs off relaunching
  };
  // A console command waiting for a node to reach a state.
  struct PendingReply {
    uint64_t connection_id = 0;
    int node_id = 0;  // 0: every node (SHUTDOWN)
    control::NodeState wanted = control::NOT_CONNECTED;
    bool require_down = false;  // must pass through NOT_CONNECTED first (RESTART)
    absl::Time deadline;
    std::string done_message;
    absl::AnyInvocable<void()> then;  // runs after the reply is sent
  };

  MgmdServer(EventLoop* loop, Options options, MetricsRegistry* metrics);
  absl::Status Listen();
  static void OnAccept(evconnlistener*, int fd, struct sockaddr* addr, int len, void* arg);
  void OnMessage(uint64_t connection_id, const control::ControlMessage& message);
  void OnClosed(uint64_t connection_id, const absl::Status& why);
  void DropConnection(uint64_t connection_id);

  // Node side (mgmd_server.cc).
  void HandleRegister(Connection& conn, const control::RegisterReq& req);
  void HandleStartProgress(int node_id, const control::NodeStartProgress& progress);
  void HandleDiskState(int node_id, const control::DiskState& disk);
  // Brings the system restart decision up to date (Membership::UpdateSystemRestart) and says a
  // new one in the cluster log. Returns true when the view changed: the caller publishes it.
  bool FollowSystemRestart();
  // A system restart's data nodes serve together: each that has restored is held STARTING
  // until every other node of the decision has too (or left), then all turn STARTED in one
  // view — a node serving alone for a moment would take writes its peers never see.
  void HoldStart(int node_id);
  void ReleaseHeldStarts();
  void NodeLeft(int node_id, const std::string& why);
  // A node still connected is failed all the same (it went silent, or lost arbitration): it is
  // counted as a failure, its connection let go — at once when `stop_reason` is empty, else
  // after a StopReq saying it — the view published, and a supervised process killed (noting
  // `kill_note` in the cluster log) so that the angel starts it again. The caller logs why.
  void DeclareFailed(int node_id, const std::string& stop_reason, absl::string_view kill_note);
  void SetState(int node_id, control::NodeState state);
  // The tail of a state change: the system-restart decision, the view, waiting replies.
  void StateChanged(int node_id, control::NodeState state);
  // The view: the membership's, and the backup running.
  control::ClusterView View() const;
  void PublishView();
  BackupCoordinator::Hooks BackupHooks();
  void SendTo(int node_id, const control::ControlMessage& message);

  // Arbitration (arbitration.cc).
  void HandleArbitration(int node_id, const control::ArbitrationReq& req);

  // Failure detection (node_failures.cc).
  void CheckHeartbeats();
  // A node's own detector reports what it concluded: into the cluster log, under its id.
  void HandleNodeEvent(int node_id, const control::NodeEvent& event);
  // After data node `node_id` moved to `state`: a node group that served and has no started
  // data node left is a cluster failure.
  void FollowNodeGroup(int node_id, control::NodeState state);
  // Node group `group` lost its last live replica, `last`: said loudly, and every other data
  // node is stopped (its angel starts it again), so the cluster restarts as a whole rather than
  // serve tables with a node group's rows missing.
  void ClusterFailure(int group, int last);

  // Supervision (supervision.cc).
  absl::Status LaunchLocalNodes();
  absl::Status Launch(int node_id);
  void OnChildExit(int node_id, pid_t pid, std::optional<int> wait_status);
  // An adopted process that has not registered in time (an earlier mgmd gave it another
  // address) is killed, to be started again with this mgmd's.
  void CheckAdopted(int node_id);
  bool IsLocalHost(const std::string& host) const;

  // Console (console_service.cc).
  void HandleConsole(Connection& conn, const control::ConsoleReq& req);
  // These return the reply, or nullopt when it will come once the node gets there.
  // `force`: even the last live replica of a node group, whose rows go with it.
  std::optional<control::ConsoleRep> Stop(Connection& conn, int node_id, bool restart, bool force);
  std::optional<control::ConsoleRep> Start(Connection& conn, int node_id);
  void WaitFor(PendingReply pending);
  void SettlePendingReplies();
  void ExpirePendingReplies();
  void Reply(uint64_t connection_id, const control::ConsoleRep& rep);
  void MaybeFinishShutdown();

  EventLoop* loop_;
  Options options_;
  std::string config_yaml_;
  Membership membership_;
  BackupCoordinator backups_;
  FailureDetector failure_detector_;
  liveness::StallMetrics stall_metrics_;
  std::unique_ptr<ClusterLog> log_;
  std::optional<DirLock> data_dir_lock_;  // held while this mgmd runs
  std::unique_ptr<Supervisor> supervisor_;
  evconnlistener* listener_ = nullptr;
  int port_ = 0;
  uint64_t next_connection_id_ = 1;
  absl::flat_hash_map<uint64_t, std::unique_ptr<Connection>> connections_;
  absl::flat_hash_map<int, uint64_t> node_connections_;  // node id → connection id
  absl::flat_hash_set<int> held_starts_;  // restored data nodes waiting for the others (HoldStart)
  absl::flat_hash_map<int, Supervised> supervised_;
  absl::flat_hash_set<int> serving_groups_;  // node groups with data: one of theirs started
  std::vector<PendingReply> pending_;
  Timer heartbeat_timer_;
  Timer pending_timer_;
  Timer shutdown_deadline_timer_;
  Timer shutdown_finish_timer_;
  bool shutting_down_ = false;
  absl::AnyInvocable<void()> shutdown_done_;

  Counter* heartbeats_received_;
  Counter* node_failures_;
  Counter* node_restarts_;
  Counter* cluster_failures_;
  Gauge* view_version_;
  MetricsRegistry* metrics_;
};

}  // namespace shoal::mgmd
