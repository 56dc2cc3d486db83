// The data plane's configuration (DataPlane::Start), shared read-only by its roles; the
// callbacks are the node runtime's, called on the data-plane thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "common/tls/link_context.h"
#include "engine/redo/node_state.h"

namespace shoal::node {

struct DataPlaneOptions {
  int node_id = 0;
  int node_group = 0;
  int node_groups = 1;
  int replicas = 1;
  std::string host = "127.0.0.1";
  int port = 0;        // native TCP; 0: any free port
  std::string socket;  // shared-memory handshake socket; empty: none
  // TLS on every native TCP link, accepted and opened (common/tls/link_context.h); null: clear
  // text. Outlives the data plane.
  const tls::LinkContext* link_tls = nullptr;
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
  // Called by Start once the native port is known, before anything can call on_ready: the
  // port this node's NodeStarted publishes.
  std::function<void(int port)> on_listening;
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

  // Durability (docs/architecture.md, I8). `data_dir` empty: nothing is written (tests).
  std::string data_dir;
  // Where this node writes its parts of online backups (plane/backup_role.h).
  std::string backup_dir;
  absl::Duration epoch_interval = absl::Seconds(1);
  // Local checkpoints (plane/checkpoint_role.h): one starts once this much redo was written
  // since the last started, and writes at most this many bytes per second.
  uint64_t checkpoint_after_redo = 64 << 20;
  uint64_t checkpoint_write_rate = 20 << 20;
  // This node's state on disk as read at start (its `run` already counted for this start).
  redo::NodeState node_state;
  // The epoch to restore this node's disk to before it serves (a system restart, or a node
  // restart from its own disk); 0 for none.
  uint64_t restore_epoch = 0;
  // A node restart from its own disk: the copy from a peer sends only rows changed since this
  // epoch (CopyReq::since_epoch); 0: a whole copy.
  uint64_t copy_since_epoch = 0;
  // Called on the thread that starts the data plane while it restores: phase and percent.
  std::function<void(const std::string& phase, int percent)> on_restore_progress;
  // Called on the data-plane thread with the node's disk state whenever it changes (the last
  // complete epoch moves every round): for the mgmd, which decides system restarts.
  std::function<void(const redo::NodeState& state, uint64_t saved_epoch)> on_disk_state;
};

}  // namespace shoal::node
