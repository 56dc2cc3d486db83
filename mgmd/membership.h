// Membership: the mgmd's record of every node slot in the configuration — who holds it, in
// which state, when it was last heard — and the cluster view built from it.
//
// Pure bookkeeping: no sockets, no clock of its own (callers pass `now`). Owned by the
// MgmdServer; used only on its loop thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/config/config.h"
#include "common/control/control.pb.h"
#include "common/liveness/process_probe.h"

namespace shoal::mgmd {

struct NodeSlot {
  int id = 0;
  control::NodeType type = control::NODE_TYPE_UNSPECIFIED;
  std::string host;     // as configured
  int node_group = -1;  // data nodes only
  control::NodeState state = control::NOT_CONNECTED;
  absl::Time state_since;
  std::string version;
  int pid = 0;
  liveness::ProcessIdentity identity;  // of the registered process: boot id, pid, start time
  int metrics_port = 0;
  int data_port = 0;
  std::string data_socket;  // data nodes: shared-memory handshake socket, as configured
  bool supervised = false;
  int restarts = 0;
  // A STARTING node's latest progress report ("" / -1: none); cleared at every state change.
  std::string start_phase;
  int start_percent = -1;
  // A data node's latest disk state, from its heartbeats (known once it reported); cleared when
  // it leaves (NOT_CONNECTED), as its next process reports afresh.
  control::DiskState disk;
  // A data node's memory, from its latest heartbeat that had it; cleared when it leaves.
  std::optional<control::MemoryUsage> memory;
  // Its process's threads, from its latest heartbeat; cleared when it leaves.
  std::vector<control::ThreadUsage> threads;
  // The process that lost arbitration in this slot (pid 0: none). That process may not
  // register again — it has to restart, as a node declared failed does — while a new process
  // may. Its whole identity, not its pid alone: in a container every node is pid 1, and the
  // same container started again is a new process under the same pid.
  liveness::ProcessIdentity fenced;
};

// The epoch a whole-cluster restart recovers, as the mgmd decided it (control.proto's
// SystemRestart).
struct SystemRestartDecision {
  uint64_t epoch = 0;      // 0: no data on disk, the cluster starts empty
  std::vector<int> nodes;  // the data nodes that can restore `epoch`, ascending
  // Node groups none of whose data nodes can restore `epoch` (only when it is not 0): their
  // rows cannot be recovered to it.
  std::vector<int> groups_lost;
  // Configured data nodes not waited for (start_partial_timeout passed without them).
  std::vector<int> missing;
};

// What the mgmd answers a data node that lost sight of another (I5).
struct ArbitrationVerdict {
  enum class Outcome {
    kGrant,      // the lost node is not serving anyway: the asker may go on
    kRefuse,     // the asker may not go on serving (it must stop)
    kAskerWins,  // both serve: the asker was first, so the lost node is declared failed
  };
  Outcome outcome = Outcome::kRefuse;
  std::string reason;  // one line, for the asker's log and the cluster log
};

class Membership {
 public:
  static constexpr size_t kMaxStartPhaseBytes = 64;

  // Resolves every configured host once (the mgmd may block at start-up).
  Membership(const config::ClusterConfig& config, absl::Time now);

  // Chooses the slot for a node of `type` connecting from `peer_ip`: `requested_id` if given,
  // else the lowest free id of that type configured for that host. Errors are one line for
  // the refused node's log.
  absl::StatusOr<int> Allocate(control::NodeType type, int requested_id,
                               const std::string& peer_ip) const;

  // Moves a node to `state`; returns false (and changes nothing) if it already is there.
  // Every change makes a new view version, and clears the node's start progress (and, to
  // NOT_CONNECTED, its disk state).
  bool SetState(int id, control::NodeState state, absl::Time now);
  // Records a STARTING node's progress report (others' are ignored). The phase is cut to
  // kMaxStartPhaseBytes and the percent clamped to -1..100. Returns true when the phase changed,
  // which makes a new view version; a new percent alone does not (see NodeStatus in
  // control.proto), though View() shows it.
  bool SetStartProgress(int id, absl::string_view phase, int percent);

  // Records a data node's disk state from its heartbeat (ignored for other nodes, for nodes not
  // connected, and when `disk.known` is false). Returns true on its first report since the node
  // registered, which makes a new view version; later numbers alone do not (see NodeStatus in
  // control.proto), though View() shows them.
  bool SetDiskState(int id, const control::DiskState& disk);
  // Records a data node's memory from its heartbeat (ignored for nodes not connected). Makes no
  // new view version: the console reads the latest.
  void SetMemoryUsage(int id, const control::MemoryUsage& memory);
  // The same for its threads.
  void SetThreads(int id, const google::protobuf::RepeatedPtrField<control::ThreadUsage>& threads);

  // The system restart decision (NDB's system restart; docs/architecture.md, "Membership").
  // While no data node is STARTED and none is decided yet: decides once every configured data
  // node is STARTING with its disk state known, or once `partial_timeout` has passed since the
  // first one was (this wait began) and every node group has one — the epoch is the highest
  // complete_epoch reported, the nodes those that can restore it. A decision stays as it is
  // (late nodes do not change it) until a data node is STARTED or none is connected, which
  // clears it. Call after every change of state or disk state, and periodically for the
  // timeout; `now` is the caller's clock.
  enum class SystemRestartChange { kNone, kDecided, kCleared };
  SystemRestartChange UpdateSystemRestart(absl::Time now, absl::Duration partial_timeout);
  const std::optional<SystemRestartDecision>& system_restart() const { return system_restart_; }

  // Data node `asker` can no longer reach data node `lost`: grants when `lost` is not STARTED
  // (failed, stopping or still starting), refuses when `asker` is not STARTED (it lost the race
  // or never started) or either is not a data node, and otherwise lets the asker win. Changes
  // nothing: on kAskerWins the caller declares `lost` failed, so that the loser's own request,
  // if it comes, is refused.
  ArbitrationVerdict Arbitrate(int asker, int lost) const;

  // Data nodes of node group `group` that are STARTED, leaving out those in `except`.
  int StartedDataNodes(int group, absl::Span<const int> except = {}) const;
  // True when `id` is a STARTED data node and no other data node of its group, but those in
  // `except`, is: its rows are all the cluster has of that node group's.
  bool IsLastLiveReplica(int id, absl::Span<const int> except = {}) const;

  NodeSlot* Find(int id);
  const NodeSlot* Find(int id) const;
  const absl::btree_map<int, NodeSlot>& slots() const { return slots_; }
  void BumpVersion() { ++version_; }
  control::ClusterView View() const;

 private:
  bool HostMatches(const NodeSlot& slot, const std::string& peer_ip) const;

  absl::btree_map<int, NodeSlot> slots_;
  absl::btree_map<int, std::vector<std::string>> host_addresses_;  // node id → resolved IPs
  uint64_t version_ = 1;
  std::optional<SystemRestartDecision> system_restart_;
  // When the current wait for a system restart began: the first time UpdateSystemRestart saw no
  // data node STARTED and one registered with its disk known. Unset otherwise.
  std::optional<absl::Time> restart_wait_since_;
};

// True for 127.0.0.0/8 and ::1 (and IPv4-mapped loopback).
bool IsLoopbackAddress(const std::string& ip);
// The IP addresses `host` resolves to (numeric form); empty when it does not resolve.
std::vector<std::string> ResolveHost(const std::string& host);

}  // namespace shoal::mgmd
