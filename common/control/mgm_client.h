// MgmClient: a data node's or router's membership in the cluster. It registers with the mgmd
// (receiving its node id and the cluster configuration), heartbeats, follows the cluster view,
// reports when the node has started or is stopping, and reconnects — keeping its node id —
// when the mgmd goes away, because the cluster keeps serving while the mgmd is down.
//
// Owned by the node's main(); used only on its EventLoop's thread. Callbacks run there too.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/config/config.h"
#include "common/control/channel.h"
#include "common/control/control.pb.h"
#include "common/control/disk_reporter.h"
#include "common/control/thread_usage.h"
#include "common/event_loop.h"
#include "common/liveness/process_probe.h"
#include "common/liveness/running_clock.h"
#include "common/liveness/stall_metrics.h"
#include "common/metrics.h"
#include "common/tls/link_context.h"

namespace shoal::control {

class MgmClient {
 public:
  struct Options {
    std::string mgmd_host;
    int mgmd_port = 1186;
    NodeType type = NODE_TYPE_UNSPECIFIED;
    int requested_node_id = 0;  // 0: any free id of this type
    // How long to keep trying to reach the mgmd for the first registration.
    absl::Duration connect_timeout = absl::Seconds(60);
    // TLS to the mgmd (must outlive the client); null: clear text.
    const tls::LinkContext* tls = nullptr;
  };
  struct Callbacks {
    // The first registration succeeded: this node's id and the cluster configuration.
    absl::AnyInvocable<void(int node_id, const config::ClusterConfig& config,
                            const ClusterView& view)>
        on_registered;
    // The node cannot join: registration refused, or no mgmd within connect_timeout.
    absl::AnyInvocable<void(const absl::Status& why)> on_fatal;
    // Every new cluster view (optional).
    absl::AnyInvocable<void(const ClusterView& view)> on_view;
    // The mgmd asked this node to stop; a non-zero `exit_code` when it declared the node
    // failed (it lost arbitration).
    absl::AnyInvocable<void(const std::string& reason, int exit_code)> on_stop_requested;
  };
  using ArbitrationDone = absl::AnyInvocable<void(bool granted, std::string why)>;

  MgmClient(EventLoop* loop, Options options, Callbacks callbacks, MetricsRegistry* metrics);
  ~MgmClient();

  // Starts connecting; returns at once.
  void Start();
  // Adds what the node itself has to say (its memory, its backup) to every heartbeat from now
  // on; runs on the loop thread.
  void SetHeartbeatProbe(absl::AnyInvocable<void(Heartbeat*)> probe) {
    heartbeat_probe_ = std::move(probe);
  }
  // Tells the mgmd the node serves; repeated after every reconnect.
  void ReportStarted(int metrics_port, int data_port);
  // Until ReportStarted: how far the node has got (phase text, percent 0-100 or -1). Every
  // heartbeat carries the latest report (so a restarted mgmd learns it again); a new phase
  // goes out at once in an extra heartbeat.
  void ReportStartProgress(const std::string& phase, int percent);
  // Data nodes, at any time: what the node's disk holds. Every heartbeat from now on carries
  // the latest report (so a restarted mgmd learns it again); the first goes out at once in an
  // extra heartbeat, because the mgmd waits for it to decide a system restart.
  void ReportDisk(const DiskReport& report);
  // Tells the mgmd the node is going away on purpose, so it is not counted as a failure, and
  // stops talking to it. `done` runs once the notice is sent (or could not be).
  void ReportStopping(const std::string& reason, absl::AnyInvocable<void()> done);

  // Asks the mgmd whether this node may go on serving without data node `lost` (I5). `done`
  // runs once, on the loop thread: with the mgmd's answer, or with false when there is no
  // answer within `timeout`, when the connection is lost meanwhile, or at once when there is
  // no registered connection now. The timeout is counted in time this node's loop ran
  // (liveness::RunningClock): a node stalled while it waits does not give up for that, and
  // reads the answer that arrived meanwhile first. Requests about the same node share one
  // ArbitrationReq and its answer.
  void Arbitrate(int lost, absl::Duration timeout, ArbitrationDone done);
  // Answers every outstanding Arbitrate with false and `why`.
  void FailArbitrations(const std::string& why);
  // A line for the cluster log, under this node's id (dropped while not registered: the
  // node's own log has it too).
  void ReportEvent(const std::string& severity, const std::string& text);

  int node_id() const { return node_id_; }
  bool connected() const { return registered_; }

 private:
  void Connect();
  void OnMessage(const ControlMessage& message);
  void OnRegistered(const RegisterConf& conf);
  void OnClosed(const absl::Status& why);
  void SendHeartbeat();
  void SendStarted();
  void Fail(absl::Status why);  // stops for good and reports through on_fatal
  void OnArbitrationConf(const ArbitrationConf& conf);
  // Every kArbitrationTick while requests wait: takes the running time off their timeouts.
  void ExpireArbitrations();

  EventLoop* loop_;
  Options options_;
  absl::AnyInvocable<void(Heartbeat*)> heartbeat_probe_;
  ThreadSampler threads_;  // every heartbeat says what each thread used since the last
  Callbacks callbacks_;
  std::unique_ptr<ControlChannel> channel_;
  Timer heartbeat_timer_;
  Timer reconnect_timer_;
  Timer arbitration_timer_;  // repeats while arbitrations_ is not empty
  std::optional<liveness::RunningClock> arbitration_clock_;  // while arbitrations_ is not empty
  liveness::ProcessIdentity identity_ = liveness::ProcessIdentity::Self();
  std::optional<liveness::RunningClock> heartbeat_clock_;  // measures the loop's lateness
  liveness::StallMetrics stall_metrics_;
  absl::Time first_attempt_ = absl::InfinitePast();
  absl::Duration heartbeat_interval_ = absl::Milliseconds(500);
  int node_id_ = 0;
  bool registered_ = false;  // on the current connection
  bool ever_registered_ = false;
  bool started_ = false;
  bool stopping_ = false;
  absl::AnyInvocable<void()> stopped_;
  int metrics_port_ = 0;
  int data_port_ = 0;
  bool has_start_progress_ = false;
  std::string start_phase_;
  int start_percent_ = -1;
  DiskState disk_;  // known once ReportDisk was called
  uint64_t heartbeat_sequence_ = 0;
  absl::Status last_error_;
  struct PendingArbitration {
    int lost = 0;
    absl::Duration left;  // of its timeout, in running time
    ArbitrationDone done;
  };
  std::vector<PendingArbitration> arbitrations_;  // few: about one per lost peer

  Counter* heartbeats_sent_;
  Counter* reconnects_;
  Gauge* mgmd_connected_;
  Gauge* view_version_;
};

}  // namespace shoal::control
