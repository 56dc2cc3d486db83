// The data node's data plane: the thread that accepts native clients over shared memory and
// TCP, decodes their frames, runs operations on the LDMs, and sends batched replies.
//
// Thread layout (docs/architecture.md I3): one data-plane thread runs the recv, send, main,
// dictionary and tc roles; the LDMs run on it too (the layout for 1–2 CPUs) or each on a
// thread of its own (`ldm_threads`, ldm_worker.h). Each role is a class of its own
// (engine/node/plane/); the DataPlane runs the loop and routes frames and events to them:
//
//   Connections ── frame ──▶ DataPlane::HandleFrame
//    (recv, send)             ├ kOpReq ─▶ HandleOps ─┬ key ops … ─▶ LdmHost ─▶ Ldm / LdmWorker
//        ▲                    │                      ├ kCommitTxn ─▶ TcGlue ─▶ Coordinator
//        │                    │                      └ kCopyReq, kCopyDone ─▶ GroupRole
//        │                    ├ kOpConf (peers) ─────▶ TcGlue
//        │                    └ kDictReq, kDictConf ─▶ DictionaryRole ─▶ DdlQueue
//        └── ReplyTo(destination) ◀── results of the LDMs (kTcConn: TcGlue's frame)
//   views ─▶ GroupRole (membership, node-restart copies)   every 100 ms ─▶ PeerLiveness
//   every turn ─▶ EpochRole (global checkpoints), CheckpointRole (local checkpoints),
//                 BackupRole (online backups, which views start)
//
// Everything is owned by the data-plane thread, except SetView(), which any thread may call.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"
#include "common/metrics.h"
#include "engine/node/dictionary.h"
#include "engine/node/epoch_clock.h"
#include "engine/node/ldm/context.h"
#include "engine/node/plane/backup_role.h"
#include "engine/node/plane/checkpoint_role.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/dictionary_role.h"
#include "engine/node/plane/epoch_role.h"
#include "engine/node/plane/group_role.h"
#include "engine/node/plane/ldm_host.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/options.h"
#include "engine/node/plane/peer_liveness.h"
#include "engine/node/plane/tc_glue.h"
#include "engine/redo/redo_log.h"
#include "engine/redo/redo_writer.h"
#include "engine/wire/dictionary.pb.h"
#include "engine/wire/frame.h"

namespace shoal::node {

class DataPlane : private ReplySink, private ConnectionEvents {
 public:
  // Listens, installs `dictionary` (from the master when another data node already runs, from
  // disk for a system restart), restores the partitions from disk when options say so, and
  // starts the data-plane thread.
  static absl::StatusOr<std::unique_ptr<DataPlane>> Start(
      DataPlaneOptions options, const control::ClusterView& view,
      const std::optional<wire::Dictionary>& dictionary);
  ~DataPlane() override;  // stops the thread

  int port() const { return connections_.port(); }
  // Thread-safe: the mgmd's latest cluster view (who is the dictionary master, peer ports).
  void SetView(const control::ClusterView& view);
  // Thread-safe, blocking: a clean stop's last epoch — every commit acknowledged so far is
  // made durable on every serving node (EpochRole). False when that did not happen in time.
  bool CompleteEpoch(absl::Duration timeout);
  // Thread-safe: the data memory reserved now, and the data_memory limit.
  uint64_t data_memory_used() const { return ldms_.budget().used(); }
  uint64_t data_memory_limit() const { return ldms_.budget().limit(); }
  // Thread-safe: this node's part of the latest online backup, for the mgmd.
  control::BackupReport backup_report() const { return backup_.Report(); }

 private:
  explicit DataPlane(DataPlaneOptions options);
  // The part of Start that brings the partitions back from disk (a system restart).
  absl::Status Restore();
  // Writes the dictionary on the redo writer thread; `done` runs there once it is on disk.
  void SaveDictionary(std::function<void()> done = nullptr);
  void Run();
  bool PollInput();
  void HandleFrame(Connection* conn, const wire::FrameHeader& header, absl::string_view body);
  void HandleOps(Connection* conn, uint32_t count, absl::string_view body);
  void Sleep(absl::Duration timeout);
  void PublishStats();
  // ReplySink: every result of the LDMs, on either layout.
  wire::FrameBuilder* ReplyTo(uint32_t destination) override;
  // ConnectionEvents.
  void OnClosing(const Connection& conn, absl::string_view why) override;
  void OnClosed(const Connection& conn, bool peer_link) override;

  // In construction order: each role is handed the ones before it.
  DataPlaneOptions options_;
  // Durability (I8): the epoch commits belong to, the LDMs' redo logs, and the thread that
  // writes them (null without a data directory).
  EpochClock clock_;
  std::vector<std::unique_ptr<redo::RedoLog>> redo_logs_;
  std::unique_ptr<redo::RedoWriter> redo_writer_;
  NodeView view_;  // the data-plane thread's copy
  Dictionary dictionary_;
  Connections connections_;
  LdmHost ldms_;
  TcGlue tc_;
  DictionaryRole dictionary_role_;
  PeerLiveness liveness_;
  GroupRole group_;
  EpochRole epoch_;
  CheckpointRole checkpoint_;
  BackupRole backup_;

  absl::Time last_stuck_report_ = absl::InfinitePast();
  Counter* ops_metric_;

  std::mutex view_mutex_;
  std::optional<control::ClusterView> new_view_;  // guarded by view_mutex_

  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// Inline: the hot path's one virtual call per result lands here.
inline wire::FrameBuilder* DataPlane::ReplyTo(uint32_t destination) {
  if (destination == kTcConn) return tc_.results();
  return connections_.ReplyTo(destination);
}

}  // namespace shoal::node
