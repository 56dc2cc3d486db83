// EpochRole: global checkpoints (NDB's GCP; docs/architecture.md, I8). Every `epoch_interval`
// the master — the lowest-id serving (or stopping) data node — runs one round over every
// serving and stopping data node:
//
//   Begin(e+1) ──▶ each node: new commits belong to e+1 (EpochClock::Advance); once none it
//                  decided in e or before is still on its way to a replica: Ready(e+1)
//   all Ready  ──▶ Save(e): each node syncs its redo, which now holds every commit of e that
//                  any node decided (the backups logged them before they answered): Saved(e)
//   all Saved  ──▶ Complete(e): e is on disk on every serving node; each notes it in its node
//                  state, and a restart of the whole cluster recovers exactly up to it
//
// A round waits only for nodes the view has serving: one that leaves stops being waited for.
// No epoch completes while a node group has no serving node (its rows would be missing from
// it): that is a cluster failure, and the mgmd restarts every data node from disk.
// A master that fails mid-round is replaced by the next, whose rounds go on from its own
// clock; every handler is idempotent, so a node that answers a round twice does no harm.
// Rounds are sequential: e + 2 begins only once e has drained everywhere (EpochClock).
// A clean stop asks for one more round (Request) and waits for it (RequestCompletion), so that
// every commit acknowledged before the stop is in a complete epoch.
// The node state is this role's: the local checkpoints (CheckpointRole) record theirs through
// CheckpointDone and ForgetPrevCheckpoint, so that one owner writes it, in order.
//
// Owned by the DataPlane; used on the data-plane thread only, except as said.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/node/epoch_clock.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/node_view.h"
#include "engine/redo/node_state.h"
#include "engine/redo/redo_writer.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

class EpochRole {
 public:
  // `writer` null: nothing is on disk (a node without durability): saves succeed at once.
  // `state` is this node's node state as restored; it is written back (on the writer thread)
  // at every complete epoch.
  // `on_disk_state` hears of every change of the node state (and the epoch last saved here).
  EpochRole(int self, int node_groups, absl::Duration interval, NodeView* view,
            Connections* connections, EpochClock* clock, redo::RedoWriter* writer,
            std::string data_dir, redo::NodeState state, MetricsRegistry* metrics,
            std::function<void(const redo::NodeState&, uint64_t saved_epoch)> on_disk_state);
  EpochRole(const EpochRole&) = delete;
  EpochRole& operator=(const EpochRole&) = delete;

  // A kEpoch from data node `message.from_node` (or this one's own).
  void OnMessage(const wire::Epoch& message);
  // Every loop turn: the master's timer, and answers that were waiting for a drain or a save.
  void Tick(absl::Time now);
  // A drain is awaited here: the loop should look again soon rather than sleep long.
  bool busy() const;
  // The view changed: nodes no longer serving are not waited for.
  void OnView();
  // A node asked for a copy on connection `conn`: it starts from our epoch (it serves no round
  // before it has started).
  void SyncCopyTarget(uint32_t conn);

  uint64_t complete_epoch() const { return complete_.load(); }
  const redo::NodeState& state() const { return state_; }
  // This node holds a complete replica from now on: its disk restores epochs from the current
  // one (unless it already could, from a restore).
  void MarkRestorable();
  // Writes the node state (on the writer thread, after what was queued before).
  void WriteState();
  // Local checkpoint `id` is complete on disk: a restore of an epoch >= `end_epoch` may load it
  // and replay the redo from `start_epoch`. It becomes the node state's checkpoint, the one
  // before it the previous (kept for restores of earlier epochs); `ldm_count` files make it up.
  // Writes the node state.
  void CheckpointDone(uint64_t id, uint64_t start_epoch, uint64_t end_epoch, uint32_t ldm_count);
  // The previous checkpoint is no longer named (its files and the redo before the current one
  // are about to go); writes the node state.
  void ForgetPrevCheckpoint();
  // A restore wrote `state` (before the data-plane thread runs).
  void Restored(const redo::NodeState& state) {
    state_ = state;
    complete_.store(state.complete_epoch);
  }
  // Any thread: asks for the current epoch to be completed (a clean stop), and whether it is —
  // or this node does not serve, so has nothing to complete.
  void RequestCompletion() { completion_wanted_.store(true); }
  bool CompletionDone() const;
  void PublishStats(absl::Time now);

 private:
  enum class Round : uint8_t { kIdle, kBegin, kSave };

  void Send(int node, wire::EpochPhase phase, uint64_t epoch);
  // The master's side.
  void StartRound(absl::Time now);
  void Answered(int node, wire::EpochPhase phase, uint64_t epoch);
  void Advance();
  absl::flat_hash_set<int> ServingDataNodes() const;
  int Master(const absl::flat_hash_set<int>& serving) const;  // the lowest id; 0: none
  bool EveryNodeGroupServes(const absl::flat_hash_set<int>& serving) const;
  // Every node's side.
  void SaveNow();
  void Completed(uint64_t epoch);

  const int self_;
  const int node_groups_;
  const absl::Duration interval_;
  NodeView* view_;
  Connections* connections_;
  EpochClock* clock_;
  redo::RedoWriter* writer_;
  const std::string data_dir_;
  redo::NodeState state_;
  std::function<void(const redo::NodeState&, uint64_t)> on_disk_state_;

  // Master: the round in progress and who still owes an answer.
  Round round_ = Round::kIdle;
  uint64_t round_epoch_ = 0;  // kBegin: the epoch begun; kSave: the epoch being saved
  absl::flat_hash_set<int> waiting_;
  absl::Time next_round_ = absl::InfinitePast();
  absl::Time round_started_;
  absl::Time last_sent_;
  bool slow_round_reported_ = false;
  uint64_t wanted_epoch_ = 0;  // complete at least this one, without waiting for the timer

  // Every node: a Ready owed once the epoch before `ready_epoch_` has drained here; a Saved
  // owed once the writer has synced `save_epoch_`.
  int ready_to_ = 0;
  uint64_t ready_epoch_ = 0;
  int saved_to_ = 0;
  uint64_t save_epoch_ = 0;
  bool save_running_ = false;
  absl::Time save_retry_ = absl::InfinitePast();
  std::shared_ptr<std::atomic<uint64_t>> synced_;   // the writer's last successful save
  std::shared_ptr<std::atomic<bool>> save_failed_;  // the writer's last save failed

  std::atomic<uint64_t> complete_{0};
  std::atomic<bool> completion_wanted_{false};
  std::atomic<bool> serving_{false};
  std::atomic<uint64_t> completion_target_{0};
  absl::Time last_complete_at_ = absl::Now();

  Gauge* current_metric_;
  Gauge* complete_metric_;
  Gauge* lag_metric_;
  Counter* rounds_metric_;
  Gauge* round_ms_metric_;
};

}  // namespace shoal::node
