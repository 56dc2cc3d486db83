#include "engine/node/plane/epoch_role.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "common/logging.h"

namespace shoal::node {
namespace {

constexpr absl::Duration kResendInterval = absl::Milliseconds(500);
constexpr absl::Duration kSlowRound = absl::Seconds(5);

}  // namespace

using wire::EpochPhase;

EpochRole::EpochRole(int self, int node_groups, absl::Duration interval, NodeView* view,
                     Connections* connections, EpochClock* clock, redo::RedoWriter* writer,
                     std::string data_dir, redo::NodeState state, MetricsRegistry* metrics,
                     std::function<void(const redo::NodeState&, uint64_t)> on_disk_state)
    : self_(self),
      node_groups_(node_groups),
      interval_(interval),
      view_(view),
      connections_(connections),
      clock_(clock),
      writer_(writer),
      data_dir_(std::move(data_dir)),
      state_(state),
      on_disk_state_(std::move(on_disk_state)),
      synced_(std::make_shared<std::atomic<uint64_t>>(0)),
      save_failed_(std::make_shared<std::atomic<bool>>(false)),
      complete_(state.complete_epoch) {
  current_metric_ = metrics->GetGauge("shoal_datanode_epoch_current",
                                      "The epoch (global checkpoint) commits belong to now.");
  complete_metric_ = metrics->GetGauge(
      "shoal_datanode_epoch_complete",
      "The last epoch on disk on every serving data node: what a system restart recovers.");
  lag_metric_ = metrics->GetGauge(
      "shoal_datanode_epoch_lag_milliseconds",
      "Time since the last epoch completed here: commits younger than this may be lost if every "
      "data node stops at once.");
  rounds_metric_ = metrics->GetCounter("shoal_datanode_epoch_rounds_total",
                                       "Global checkpoint rounds this node ran as master.");
  round_ms_metric_ = metrics->GetGauge("shoal_datanode_epoch_round_milliseconds",
                                       "How long the last round this node ran as master took.");
}

void EpochRole::Send(int node, EpochPhase phase, uint64_t epoch) {
  wire::Epoch message{.from_node = static_cast<uint16_t>(self_), .phase = phase, .epoch = epoch};
  if (node == self_) {
    OnMessage(message);
    return;
  }
  message.Encode(connections_->ReplyTo(kToNode | static_cast<uint32_t>(node)));
}

absl::flat_hash_set<int> EpochRole::ServingDataNodes() const {
  // A stopping node still holds everything committed so far: a clean SHUTDOWN stops every
  // node at once, and their last round must still run.
  absl::flat_hash_set<int> nodes;
  for (const control::NodeStatus& node : view_->view().nodes()) {
    if (node.type() == control::DATANODE &&
        (node.state() == control::STARTED || node.state() == control::STOPPING)) {
      nodes.insert(static_cast<int>(node.node_id()));
    }
  }
  return nodes;
}

bool EpochRole::EveryNodeGroupServes(const absl::flat_hash_set<int>& serving) const {
  absl::flat_hash_set<int> groups;
  for (const control::NodeStatus& node : view_->view().nodes()) {
    if (serving.contains(static_cast<int>(node.node_id()))) groups.insert(node.node_group());
  }
  return static_cast<int>(groups.size()) >= node_groups_;
}

int EpochRole::Master(const absl::flat_hash_set<int>& serving) const {
  int master = 0;
  for (int node : serving) {
    if (master == 0 || node < master) master = node;
  }
  return master;
}

void EpochRole::OnMessage(const wire::Epoch& message) {
  const int from = message.from_node;
  switch (message.phase) {
    case EpochPhase::kBegin:
      clock_->Advance(message.epoch);
      ready_to_ = from;
      ready_epoch_ = message.epoch;
      return;
    case EpochPhase::kSync:
      clock_->Advance(message.epoch);
      return;
    case EpochPhase::kSave:
      saved_to_ = from;
      save_epoch_ = std::max(save_epoch_, message.epoch);
      if (synced_->load() < save_epoch_ && !save_running_) SaveNow();
      return;
    case EpochPhase::kComplete:
      Completed(message.epoch);
      return;
    case EpochPhase::kRequest:
      wanted_epoch_ = std::max(wanted_epoch_, message.epoch);
      return;
    case EpochPhase::kReady:
    case EpochPhase::kSaved:
      Answered(from, message.phase, message.epoch);
      return;
  }
}

void EpochRole::SyncCopyTarget(uint32_t conn) {
  wire::Epoch message{.from_node = static_cast<uint16_t>(self_),
                      .phase = EpochPhase::kSync,
                      .epoch = clock_->current()};
  message.Encode(connections_->ReplyTo(kOpsOn | conn));
}

void EpochRole::SaveNow() {
  const uint64_t epoch = save_epoch_;
  if (writer_ == nullptr) {
    synced_->store(epoch);
    return;
  }
  save_running_ = true;
  writer_->Save(epoch, [synced = synced_, failed = save_failed_, connections = connections_,
                        epoch](absl::Status status) {
    if (status.ok()) {
      uint64_t before = synced->load();
      while (before < epoch && !synced->compare_exchange_weak(before, epoch)) {
      }
      failed->store(false);
    } else {
      failed->store(true);
    }
    connections->Wake();
  });
}

void EpochRole::Completed(uint64_t epoch) {
  if (epoch <= complete_.load()) return;
  complete_.store(epoch);
  last_complete_at_ = absl::Now();
  state_.complete_epoch = epoch;
  WriteState();
}

void EpochRole::MarkRestorable() {
  if (state_.restorable_from != 0) return;
  state_.restorable_from = clock_->current();
  WriteState();
}

void EpochRole::CheckpointDone(uint64_t id, uint64_t start_epoch, uint64_t end_epoch,
                               uint32_t ldm_count) {
  state_.prev_checkpoint_id = state_.checkpoint_id;
  state_.prev_checkpoint_start_epoch = state_.checkpoint_start_epoch;
  state_.prev_checkpoint_end_epoch = state_.checkpoint_end_epoch;
  state_.checkpoint_id = id;
  state_.checkpoint_start_epoch = start_epoch;
  state_.checkpoint_end_epoch = end_epoch;
  // Both checkpoints are of this run's LDMs: a restore starts with no checkpoint (it logs
  // every row again), so the previous one, if any, has as many files.
  state_.ldm_count = ldm_count;
  WriteState();
}

void EpochRole::ForgetPrevCheckpoint() {
  state_.prev_checkpoint_id = state_.prev_checkpoint_start_epoch = 0;
  state_.prev_checkpoint_end_epoch = 0;
  WriteState();
}

void EpochRole::WriteState() {
  if (on_disk_state_) on_disk_state_(state_, synced_->load());
  if (writer_ == nullptr) return;
  // On the writer thread, after the saves queued before: the node state never says more than
  // the redo holds.
  writer_->Post([state = state_, dir = data_dir_] {
    absl::Status written = redo::WriteNodeState(dir, state);
    if (!written.ok()) {
      SHOAL_LOG(kError) << "node state: " << written;
    }
  });
}

void EpochRole::Tick(absl::Time now) {
  // Every node's side: answers that waited for the drain or the save.
  // Everything before the epoch this node is in now (at least the one begun): a node ahead of
  // a new master's first round has its own epoch's predecessor to drain.
  if (ready_to_ != 0 && clock_->Drained(clock_->current() - 1)) {
    int to = ready_to_;
    ready_to_ = 0;
    Send(to, EpochPhase::kReady, ready_epoch_);
  }
  if (save_running_ || save_failed_->load()) {
    const uint64_t synced = synced_->load();
    if (synced >= save_epoch_) {
      save_running_ = false;
    } else if (save_failed_->load()) {
      // The writer said why (a full disk, say); the round waits, and we try again.
      save_running_ = false;
      if (now >= save_retry_) {
        save_retry_ = now + absl::Seconds(1);
        save_failed_->store(false);
        SaveNow();
      }
    }
  }
  if (saved_to_ != 0 && synced_->load() >= save_epoch_) {
    int to = saved_to_;
    saved_to_ = 0;
    Send(to, EpochPhase::kSaved, save_epoch_);
  }

  // A clean stop's request: the current epoch, completed by the master.
  if (completion_wanted_.exchange(false)) {
    const uint64_t target = clock_->current();
    completion_target_.store(target);
    if (int master = Master(ServingDataNodes()); master != 0) {
      Send(master, EpochPhase::kRequest, target);
    }
  }

  // The master's side.
  const absl::flat_hash_set<int> serving_nodes = ServingDataNodes();
  const bool serving = serving_nodes.contains(self_);
  serving_.store(serving);
  if (!serving || Master(serving_nodes) != self_) {
    round_ = Round::kIdle;
    return;
  }
  if (round_ == Round::kIdle && (now >= next_round_ || wanted_epoch_ > complete_.load()) &&
      EveryNodeGroupServes(serving_nodes)) {
    StartRound(now);
  } else if (round_ != Round::kIdle && now - last_sent_ >= kResendInterval) {
    // A message can be lost with a link that broke; the handlers take one twice in their stride.
    last_sent_ = now;
    const EpochPhase phase = round_ == Round::kBegin ? EpochPhase::kBegin : EpochPhase::kSave;
    for (int node : absl::flat_hash_set<int>(waiting_)) Send(node, phase, round_epoch_);
    if (now - round_started_ >= kSlowRound && !slow_round_reported_) {
      slow_round_reported_ = true;
      std::vector<int> nodes(waiting_.begin(), waiting_.end());
      std::sort(nodes.begin(), nodes.end());
      SHOAL_LOG(kWarning) << "epoch " << round_epoch_ << ": the round has waited "
                          << absl::FormatDuration(now - round_started_) << " for data node(s) "
                          << absl::StrJoin(nodes, ", ") << " to "
                          << (round_ == Round::kBegin ? "finish its commits" : "sync its redo");
    }
  }
}

bool EpochRole::busy() const {
  // Only a drain is looked for: a save's end wakes the loop (Connections::Wake), answers come
  // as frames, and polling them would cost a starved host CPU every millisecond.
  return ready_to_ != 0;
}

bool EpochRole::CompletionDone() const {
  if (!serving_.load()) return true;  // nothing here is anyone's last copy to save
  const uint64_t target = completion_target_.load();
  return target != 0 && complete_.load() >= target;
}

void EpochRole::StartRound(absl::Time now) {
  round_ = Round::kBegin;
  round_epoch_ = clock_->current() + 1;
  round_started_ = now;
  last_sent_ = now;
  slow_round_reported_ = false;
  next_round_ = now + interval_;
  waiting_ = ServingDataNodes();
  for (int node : absl::flat_hash_set<int>(waiting_)) Send(node, EpochPhase::kBegin, round_epoch_);
}

void EpochRole::Answered(int node, EpochPhase phase, uint64_t epoch) {
  const bool expected = (round_ == Round::kBegin && phase == EpochPhase::kReady) ||
                        (round_ == Round::kSave && phase == EpochPhase::kSaved);
  if (!expected || epoch != round_epoch_) return;  // an answer to an earlier round
  waiting_.erase(node);
  if (waiting_.empty()) Advance();
}

void EpochRole::Advance() {
  absl::flat_hash_set<int> nodes = ServingDataNodes();
  if (round_ == Round::kBegin) {
    round_ = Round::kSave;
    round_epoch_ -= 1;  // save the epoch that has just ended everywhere
    if (round_epoch_ == 0) {
      round_ = Round::kIdle;  // nothing before the first epoch
      return;
    }
    waiting_ = nodes;
    for (int node : nodes) Send(node, EpochPhase::kSave, round_epoch_);
    return;
  }
  round_ = Round::kIdle;
  // An epoch is complete only with every node group's rows in it: a group with no node left
  // would restore an older one, and the cluster would not agree on any.
  if (!EveryNodeGroupServes(nodes)) return;
  rounds_metric_->Increment();
  round_ms_metric_->Set(absl::ToInt64Milliseconds(absl::Now() - round_started_));
  for (int node : nodes) Send(node, EpochPhase::kComplete, round_epoch_);
}

void EpochRole::OnView() {
  if (round_ == Round::kIdle) return;
  absl::flat_hash_set<int> serving = ServingDataNodes();
  absl::erase_if(waiting_, [&serving](int node) { return !serving.contains(node); });
  if (waiting_.empty()) Advance();
}

void EpochRole::PublishStats(absl::Time now) {
  current_metric_->Set(static_cast<int64_t>(clock_->current()));
  complete_metric_->Set(static_cast<int64_t>(complete_.load()));
  lag_metric_->Set(absl::ToInt64Milliseconds(now - last_complete_at_));
}

}  // namespace shoal::node
