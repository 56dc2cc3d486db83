// The data node's data plane: the thread(s) that accept native clients over shared memory and
// TCP, decode their frames, run operations on the LDMs, and send batched replies. It also
// plays the dictionary role: DDL on the master, installs from the master elsewhere.
//
// Thread layout (docs/architecture.md I3): one data-plane thread runs the recv, send, main and
// dictionary roles; the LDMs run on it too (the layout for 1–2 CPUs) or each on a thread of its
// own (`ldm_threads`, ldm_worker.h). Everything below is owned by the data-plane thread, except
// SetView(), which any thread may call.
#pragma once

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"
#include "common/metrics.h"
#include "engine/node/coordinator.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/ldm.h"
#include "engine/node/ldm_metrics.h"
#include "engine/node/ldm_worker.h"
#include "engine/node/peer_watch.h"
#include "engine/storage/memory_budget.h"
#include "engine/transport/channel.h"
#include "engine/wire/dictionary.pb.h"
#include "engine/wire/frame.h"
#include "engine/wire/replica_ops.h"

namespace shoal::transport {
class ShmListener;
class TcpListener;
}  // namespace shoal::transport

namespace shoal::node {

struct DataPlaneOptions {
  int node_id = 0;
  int node_group = 0;
  int node_groups = 1;
  int replicas = 1;
  std::string host = "127.0.0.1";
  int port = 0;        // native TCP; 0: any free port
  std::string socket;  // shared-memory handshake socket; empty: none
  int ldm_count = 1;
  bool ldm_threads = false;  // one thread per LDM; else the LDMs run on the data-plane thread
  absl::Duration spin = absl::ZeroDuration();
  absl::Duration lock_wait_timeout = absl::Milliseconds(1200);
  uint64_t data_memory = 0;
  uint32_t default_partitions = 8;
  MetricsRegistry* metrics = nullptr;
  // Called on the data-plane thread. A node whose group already has a serving replica copies
  // every partition from it first (node restart): `on_copy_progress` tells the percent copied
  // now and then; `on_ready` runs once, when this node holds a complete replica (at once when
  // there was nothing to copy), or with the error that stopped the copy.
  absl::AnyInvocable<void(int percent)> on_copy_progress;
  absl::AnyInvocable<void(absl::Status status)> on_ready;
  // Peers of the node group that say nothing (no frame, not even a ping) this long are lost
  // (counted as PeerWatch counts it).
  absl::Duration peer_timeout = absl::Seconds(2);
  // The data-plane thread carries the pings: under SCHED_RR when asked (realtime_scheduler).
  bool realtime = false;
  // Called on the data-plane thread with a line for the cluster log: what the peer watch
  // concluded, e.g. that a silent peer was starved, not failed (also logged here).
  absl::AnyInvocable<void(std::string line)> on_note;
  // Called on the data-plane thread when this node loses sight of a data node of its group
  // that the view has serving (I5): the node may serve on without it only if the arbitrator
  // agrees; meanwhile writes that it owes an answer wait.
  absl::AnyInvocable<void(int node)> on_peer_lost;
};

class DataPlane : private ReplySink {
 public:
  // Listens, installs `dictionary` (from the master, when another data node already runs) and
  // starts the data-plane thread.
  static absl::StatusOr<std::unique_ptr<DataPlane>> Start(
      DataPlaneOptions options, const control::ClusterView& view,
      const std::optional<wire::Dictionary>& dictionary);
  ~DataPlane() override;  // stops the thread

  int port() const { return port_; }
  // Thread-safe: the mgmd's latest cluster view (who is the dictionary master, peer ports).
  void SetView(const control::ClusterView& view);

 private:
  struct Connection {
    uint32_t id = 0;
    std::unique_ptr<transport::Channel> channel;
    wire::FrameBuilder out;
    bool hello_done = false;
    uint32_t hello_id = 0;  // the id the peer gave in its hello (client id or data node id)
    bool is_peer = false;   // a connection this node opened to another data node
    int data_node = 0;      // the data node at the other end (either direction); 0: a client
    bool dead = false;
  };
  // The connection id under which the TC's operations run on this node's own LDMs.
  static constexpr uint32_t kTcConn = kOpsOn - 1;
  struct PendingDdl {
    uint32_t conn = 0;
    wire::DictReq req;
    wire::DictConf conf;
    std::vector<int> waiting_for;  // peers that have not confirmed the install yet
  };

  explicit DataPlane(DataPlaneOptions options);
  void Run();
  bool PollInput();
  void HandleFrame(Connection* conn, absl::string_view frame);
  void HandleOps(Connection* conn, uint32_t count, absl::string_view body);
  // Threaded LDMs: retries `push` on LDM `ldm` until its queue takes it, draining results
  // meanwhile.
  template <typename Push>
  void PushToLdm(int ldm, Push push);
  bool DrainLdmResults();
  void Accept();
  void FlushAll();
  void Sleep(absl::Duration timeout);
  void CheckConnections();
  void Close(Connection* conn, absl::string_view why);
  Connection* Find(uint32_t id);
  wire::FrameBuilder* ReplyTo(uint32_t conn) override;
  void SendFrame(Connection* conn, wire::FrameType type, const google::protobuf::Message& body);

  // Dictionary role (dictionary_service.cc).
  void HandleDict(Connection* conn, absl::string_view body);
  void StartNextDdl();
  // Our dictionary, as an install, to data node connection `conn`; `truncated` names the
  // tables the latest change truncated.
  void SendDictionary(Connection* conn, absl::Span<const uint32_t> truncated);
  // After a dictionary change here: the nodes copying from us, which the master does not
  // install on before they serve, get it in order with the copy.
  void ForwardDictionary(const DictionaryDelta& delta);
  void FinishDdl();
  void OnPeerConf(Connection* conn, const wire::DictConf& conf);
  void PeerGone(int node_id);
  bool IsMaster();
  // A data node of the current view, other than this one, that is STARTED.
  bool IsStartedPeer(uint32_t node_id) const;
  // The connection replication and DDL use to reach `node_id`, opened if need be; nullptr
  // when it cannot be reached, or was lost while the view still has it serving (it must not
  // get later writes without the ones lost with the connection).
  Connection* PeerConnection(int node_id);

  // Replication (data_plane_group.cc): the node group from the view, node restart copies.
  void OnView(control::ClusterView view);
  void PushGroup();
  bool IsDataNode(uint32_t id) const;
  void StartCopyTo(Connection* conn, int node);
  void OnCopyProgress(const wire::CopyDone& progress);
  void RequestCopy();
  // A step of the copies to restarting nodes by the LDMs on this thread; true when it copied.
  bool CopySteps();
  void Ready(absl::Status status);
  // Pings the group's serving peers and drops links silent past peer_timeout (PeerWatch).
  void CheckPeers(absl::Time now);
  // Reads the links with data node `node`: true when a whole frame from it waits unread.
  bool HasUnreadFrame(int node);
  void PeerLost(int node, absl::string_view why);
  // The TC role (coordinator.h): its operations to this node's own LDMs, and their results.
  void SendFromTc(int node, const Coordinator::Message& message);
  void DrainTcResults();
  std::vector<std::pair<uint32_t, uint32_t>> AllPartitions() const;
  void ApplyDelta(const DictionaryDelta& delta);
  void PublishStats();

  DataPlaneOptions options_;
  int port_ = 0;
  std::unique_ptr<transport::TcpListener> tcp_listener_;
  std::unique_ptr<transport::ShmListener> shm_listener_;
  storage::MemoryBudget budget_;
  Dictionary dictionary_;
  std::vector<std::unique_ptr<Ldm>> ldms_;           // LDMs run on this thread,
  std::vector<LdmMetrics> ldm_metrics_;              // (theirs), or
  std::vector<std::unique_ptr<LdmWorker>> workers_;  // LDMs on threads of their own
  std::vector<std::string> ldm_batches_;             // HandleOps: one frame's ops per LDM
  std::vector<uint32_t> ldm_batch_counts_;
  absl::flat_hash_map<uint32_t, std::unique_ptr<Connection>> connections_;
  std::vector<uint32_t> ids_;  // scratch: connection ids to walk while connections_ may grow
  absl::flat_hash_map<int, uint32_t> peers_;  // data node id → connection
  uint32_t next_connection_id_ = 1;
  std::deque<PendingDdl> ddl_queue_;  // front: the one in flight
  bool ddl_in_flight_ = false;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;

  // Replication state (data_plane_group.cc).
  int copy_source_ = 0;          // the node this one copies from while it restarts (0: none)
  bool ready_reported_ = false;  // on_ready has run
  int copy_percent_ = -1;
  std::vector<wire::CopyDone> copy_progress_;  // per LDM of the copy source: its last word
  // Nodes this one copies to, with the view version when they asked: until a newer view says
  // they started, they are not replicas that serve, whatever an older view said.
  absl::flat_hash_map<int, uint64_t> copy_targets_;
  uint32_t copy_conn_ = 0;               // the connection the copy goes out on
  absl::flat_hash_set<int> lost_peers_;  // see PeerConnection
  // Frames from each data node, on any connection with it, keep it heard (pings included).
  // Made when the thread starts running, so that its clock starts then.
  std::optional<PeerWatch> peer_watch_;
  absl::flat_hash_map<int, absl::Time> unreachable_until_;

  std::unique_ptr<Coordinator> tc_;
  absl::Time last_stuck_report_ = absl::InfinitePast();
  wire::FrameBuilder tc_results_;  // our LDMs' results for the TC (ReplyTo(kTcConn))
  wire::FrameBuilder tc_scratch_;

  std::mutex view_mutex_;
  std::optional<control::ClusterView> new_view_;  // guarded by view_mutex_
  control::ClusterView view_;                     // the data-plane thread's copy

  std::atomic<bool> stopping_{false};
  std::thread thread_;

  Counter* frames_in_ = nullptr;
  Counter* frames_out_ = nullptr;
  Counter* ops_metric_ = nullptr;
  Counter* connections_metric_ = nullptr;
  Gauge* rows_metric_ = nullptr;
  Gauge* memory_metric_ = nullptr;
  Gauge* dictionary_version_metric_ = nullptr;
  Counter* tc_commits_metric_ = nullptr;
  Counter* tc_aborts_metric_ = nullptr;
  Counter* tc_takeovers_metric_ = nullptr;
  CoordinatorStats tc_published_;
};

template <typename Push>
void DataPlane::PushToLdm(int ldm, Push push) {
  LdmWorker* worker = workers_[ldm].get();
  while (!push(worker)) {
    // The LDM is behind; it may itself be waiting for room for its results.
    worker->Flush();
    DrainLdmResults();
    sched_yield();
  }
}

// Asks a running data node for its dictionary (used once at start-up; blocks).
absl::StatusOr<wire::Dictionary> FetchDictionary(const std::string& host, int port,
                                                 absl::Duration timeout);

}  // namespace shoal::node
