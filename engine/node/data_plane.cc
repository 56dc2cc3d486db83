// The data-plane loop: accept, read frames, route them to the roles, reply in batches, sleep
// when idle.
#include "engine/node/data_plane.h"

#include <pthread.h>

#include <algorithm>
#include <future>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/liveness/realtime.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/node_files.h"
#include "engine/node/peer_watch.h"
#include "engine/node/restore.h"
#include "engine/wire/op.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {
namespace {

// Liveness of links and peers (PeerWatch's interval).
constexpr absl::Duration kLivenessInterval = PeerWatch::kCheckInterval;
constexpr absl::Duration kLockCheckInterval = absl::Milliseconds(5);
// While an epoch round waits for a drain or a save here, look again this often.
constexpr absl::Duration kEpochCheckInterval = absl::Milliseconds(5);
// Redo segments are never smaller (a tiny checkpoint_after_redo would make many small files).
constexpr uint64_t kMinRedoSegmentBytes = 256 << 10;

// The epoch commits get until a round says otherwise: after a restore, the one after it; else
// the one after the last this node saw complete (a restarted node catches up from the first
// replicated commit it applies, EpochClock::Advance).
std::vector<std::unique_ptr<redo::RedoLog>> MakeRedoLogs(const DataPlaneOptions& options) {
  std::vector<std::unique_ptr<redo::RedoLog>> logs;
  if (options.data_dir.empty()) return logs;
  // Only whole closed segments are trimmed after a checkpoint: a few per checkpoint's worth of
  // redo keep what is on disk near twice checkpoint_after_redo.
  const uint64_t segment_bytes = std::clamp<uint64_t>(
      options.checkpoint_after_redo / (4 * static_cast<uint64_t>(std::max(1, options.ldm_count))),
      kMinRedoSegmentBytes, redo::RedoLog::kDefaultSegmentBytes);
  for (int i = 0; i < options.ldm_count; ++i) {
    logs.push_back(std::make_unique<redo::RedoLog>(RedoDir(options.data_dir),
                                                   options.node_state.run, i, segment_bytes));
  }
  return logs;
}

std::vector<redo::RedoLog*> LogPointers(const std::vector<std::unique_ptr<redo::RedoLog>>& logs) {
  std::vector<redo::RedoLog*> pointers;
  for (const auto& log : logs) pointers.push_back(log.get());
  return pointers;
}

std::unique_ptr<redo::RedoWriter> MakeRedoWriter(
    const std::vector<std::unique_ptr<redo::RedoLog>>& logs, MetricsRegistry* metrics) {
  if (logs.empty()) return nullptr;
  redo::RedoWriter::Options options;
  if (metrics != nullptr) {
    options.write_errors = metrics->GetCounter(
        "shoal_datanode_redo_write_errors_total",
        "Failed redo writes and syncs (a full disk; retried every 10 ms until one succeeds).");
  }
  auto writer = std::make_unique<redo::RedoWriter>(options);
  for (const auto& log : logs) writer->AddLog(log.get());
  return writer;
}

uint64_t FirstEpoch(const DataPlaneOptions& options) {
  if (options.restore_epoch != 0) return options.restore_epoch + 1;
  return options.node_state.complete_epoch + 1;
}

}  // namespace

DataPlane::DataPlane(DataPlaneOptions options)
    : options_(std::move(options)),
      clock_(FirstEpoch(options_)),
      redo_logs_(MakeRedoLogs(options_)),
      redo_writer_(MakeRedoWriter(redo_logs_, options_.metrics)),
      view_(options_.node_id),
      dictionary_(options_.default_partitions),
      connections_(&options_, &view_, &dictionary_, this),
      ldms_(&options_, this),
      tc_(options_.node_id, options_.metrics, &connections_, &ldms_, &dictionary_),
      dictionary_role_(
          options_.node_id, options_.metrics, &dictionary_, &view_, &connections_,
          [this](const DictionaryDelta& delta) {
            ldms_.ApplyDelta(delta);
            group_.ForwardDictionary(delta);
            SaveDictionary();
          },
          [this](std::function<void()> saved) {
            group_.ForwardDictionary(DictionaryDelta());
            SaveDictionary(std::move(saved));
          }),
      liveness_(&options_, &view_, &connections_),
      group_(&options_, &view_, &connections_, &ldms_, &dictionary_role_, &tc_),
      epoch_(options_.node_id, options_.node_groups, options_.epoch_interval, &view_, &connections_,
             &clock_, redo_writer_.get(), options_.data_dir, options_.node_state, options_.metrics,
             options_.on_disk_state),
      checkpoint_(&options_, &view_, &clock_, &ldms_, &epoch_, LogPointers(redo_logs_),
                  redo_writer_.get()),
      backup_(&options_, &clock_, &epoch_, &checkpoint_, &dictionary_) {
  ops_metric_ =
      options_.metrics->GetCounter("shoal_datanode_operations_total", "Native operations run.");
  // A node that holds a complete replica (copied, restored, or the first of its group) can be
  // restored from its own disk from then on.
  auto ready = std::move(options_.on_ready);
  options_.on_ready = [this, ready = std::move(ready)](absl::Status status) mutable {
    if (status.ok()) epoch_.MarkRestorable();
    if (ready) ready(std::move(status));
  };
}

absl::StatusOr<std::unique_ptr<DataPlane>> DataPlane::Start(
    DataPlaneOptions options, const control::ClusterView& view,
    const std::optional<wire::Dictionary>& dictionary) {
  std::unique_ptr<DataPlane> plane(new DataPlane(std::move(options)));
  DataPlane& p = *plane;
  p.view_.Set(view);
  p.group_.FindCopySource();
  SHOAL_RETURN_IF_ERROR(p.connections_.Listen());
  if (p.options_.on_listening) p.options_.on_listening(p.port());
  std::vector<LdmDurability> durability;
  for (int i = 0; i < p.options_.ldm_count; ++i) {
    LdmDurability& ldm = durability.emplace_back();
    ldm.decider = p.clock_.AddDecider();
    if (p.redo_writer_ != nullptr) {
      ldm.log = p.redo_logs_[i].get();
      ldm.redo_healthy = p.redo_writer_->healthy_flag();
      ldm.redo_error = [writer = p.redo_writer_.get()] { return writer->last_error(); };
    }
  }
  p.tc_.SetDecider(p.clock_.AddDecider());
  p.ldms_.Start(durability);
  if (p.redo_writer_ != nullptr) p.redo_writer_->Start();
  SHOAL_RETURN_IF_ERROR(p.dictionary_role_.Load(dictionary));
  if (p.options_.restore_epoch != 0) SHOAL_RETURN_IF_ERROR(p.Restore());
  SHOAL_RETURN_IF_ERROR(p.ldms_.Launch());
  SHOAL_RETURN_IF_ERROR(p.connections_.StartPolling(p.ldms_.doorbells()));
  p.group_.PushGroup();
  p.thread_ = std::thread([&p] {
    pthread_setname_np(pthread_self(), "data-plane");
    if (p.options_.realtime) (void)liveness::UseRealtimeScheduling("data plane");
    p.Run();
  });
  SHOAL_LOG(kInfo) << "native API on tcp " << p.options_.host << ":" << p.port()
                   << (p.options_.socket.empty() ? ""
                                                 : absl::StrCat(" and shm ", p.options_.socket))
                   << ", " << p.options_.ldm_count << " LDM(s)"
                   << (p.options_.ldm_threads ? " on threads of their own" : " on this thread");
  return plane;
}

DataPlane::~DataPlane() {
  stopping_.store(true);
  connections_.Wake();
  if (thread_.joinable()) thread_.join();
  ldms_.StopWorkers();
  if (redo_writer_ != nullptr) redo_writer_->Stop();
}

absl::Status DataPlane::Restore() {
  const uint64_t epoch = options_.restore_epoch;
  SHOAL_LOG(kInfo) << "system restart: restoring epoch " << epoch << " from " << options_.data_dir;
  absl::StatusOr<RestoreStats> stats =
      RestoreFromDisk(options_.data_dir, options_.node_state, epoch, &ldms_,
                      [this](const std::string& phase, int percent) {
                        if (options_.on_restore_progress) {
                          options_.on_restore_progress(phase, percent);
                        }
                      });
  if (!stats.ok()) return stats.status();
  if (!stats->stopped.empty()) {
    std::string line = absl::StrCat("redo log: ", stats->stopped,
                                    " (recovery stopped there; later records are ignored)");
    SHOAL_LOG(kWarning) << line;
    // Damage on disk is the operator's to know of: into the cluster log too (as a WARNING).
    if (options_.on_note) options_.on_note(line);
  }
  // Auto-increment counters go on after the largest value restored.
  for (const auto& [id, table] : dictionary_.tables()) {
    if (uint64_t max = ldms_.MaxAutoIncrement(id); max > 0) {
      dictionary_.RaiseAutoIncrement(id, max + 1);
    }
  }
  SHOAL_LOG(kInfo) << "system restart: epoch " << epoch << " restored in "
                   << absl::FormatDuration(stats->took) << ": " << stats->checkpoint_rows
                   << " rows from checkpoint " << stats->checkpoint_id << ", "
                   << stats->redo_applied << " of " << stats->redo_records
                   << " redo records applied, " << stats->skipped << " of dropped tables";
  if (redo_writer_ == nullptr) return absl::OkStatus();
  // The restored rows were logged again in this run: once they are on disk, the files of
  // earlier runs are needed no more.
  if (options_.on_restore_progress) options_.on_restore_progress("saving restored state", -1);
  std::promise<absl::Status> saved;
  redo_writer_->Save(epoch, [&saved](absl::Status status) { saved.set_value(std::move(status)); });
  SHOAL_RETURN_IF_ERROR(saved.get_future().get());
  redo::NodeState& state = options_.node_state;
  state.first_run = state.run;
  // Restored to copy the rest from a peer: restorable again once that copy is complete
  // (EpochRole::MarkRestorable), not before.
  state.restorable_from = options_.copy_since_epoch != 0 ? 0 : epoch;
  state.complete_epoch = std::max(state.complete_epoch, epoch);
  state.checkpoint_id = state.prev_checkpoint_id = 0;
  SHOAL_RETURN_IF_ERROR(redo::WriteNodeState(options_.data_dir, state));
  RemoveRunsBefore(options_.data_dir, state.first_run);
  // The checkpoint that was read is in the new run's redo now; a new one follows soon.
  RemoveCheckpointsNotIn(options_.data_dir, state);
  epoch_.Restored(state);
  checkpoint_.Restored(epoch);
  return absl::OkStatus();
}

void DataPlane::SaveDictionary(std::function<void()> done) {
  if (redo_writer_ == nullptr) {
    if (done) done();
    return;
  }
  wire::Dictionary dictionary;
  dictionary_.ToProto(&dictionary);
  // On the writer thread, ahead of the saves that follow: an epoch never completes with rows
  // of a table whose definition is not on disk.
  redo_writer_->Post(
      [dir = options_.data_dir, dictionary = std::move(dictionary), done = std::move(done)] {
        absl::Status saved = node::SaveDictionary(dir, dictionary);
        if (!saved.ok()) {
          SHOAL_LOG(kError) << "dictionary: " << saved;
        }
        // Done either way: a disk that fails this fails the redo too, and the node refuses
        // writes meanwhile (RedoRefuses).
        if (done) done();
      });
}

bool DataPlane::CompleteEpoch(absl::Duration timeout) {
  epoch_.RequestCompletion();
  connections_.Wake();
  const absl::Time deadline = absl::Now() + timeout;
  // The request is taken on the loop's next turn; until then CompletionDone says no.
  absl::SleepFor(absl::Milliseconds(5));
  while (!epoch_.CompletionDone()) {
    if (absl::Now() >= deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return true;
}

void DataPlane::SetView(const control::ClusterView& view) {
  {
    std::lock_guard<std::mutex> lock(view_mutex_);
    new_view_ = view;
  }
  connections_.Wake();
}

void DataPlane::Run() {
  absl::Time now = absl::Now();
  liveness_.Start(now);
  absl::Time last_liveness = now;
  absl::Time last_lock_check = now;
  absl::Time busy_until = now;
  group_.RequestCopy();
  while (!stopping_.load(std::memory_order_relaxed)) {
    bool worked = PollInput();
    tc_.DrainResults();
    dictionary_role_.Tick();
    worked |= group_.CopySteps();
    now = absl::Now();
    epoch_.Tick(now);
    checkpoint_.Tick(now);
    backup_.Tick(now);
    worked |= ldms_.CheckpointStep(now);
    connections_.FlushAll();
    if (now - last_lock_check >= kLockCheckInterval) {
      last_lock_check = now;
      ldms_.PublishHeard(now, liveness_.GroupHeardWithin(now, LockWaits::kSilence),
                         connections_.SilentKeepAliveClients(now, LockWaits::kSilence));
      ldms_.ExpireLockWaits(now);
    }
    if (now - last_liveness >= kLivenessInterval) {
      last_liveness = now;
      connections_.CheckConnections();
      liveness_.Check(now);
      PublishStats();
      if (now - last_stuck_report_ >= absl::Seconds(1)) {
        last_stuck_report_ = now;
        ldms_.ReportStuckWaits(now, absl::Seconds(1));
        tc_.ReportStuck(now, absl::Seconds(1));
      }
    }
    if (worked) {
      busy_until = now + options_.spin;
      continue;
    }
    if (now < busy_until) continue;
    Sleep(epoch_.busy()            ? kEpochCheckInterval
          : ldms_.has_timed_work() ? kLockCheckInterval
                                   : kLivenessInterval);
  }
}

bool DataPlane::PollInput() {
  bool worked = connections_.PollEvents([this] {
    std::optional<control::ClusterView> view;
    {
      std::lock_guard<std::mutex> lock(view_mutex_);
      view.swap(new_view_);
    }
    if (view.has_value()) {
      backup_.OnView(view->backup());
      group_.OnView(std::move(*view));
      dictionary_role_.OnView();
      epoch_.OnView();
    }
  });
  worked |= connections_.Read([this](int node) { liveness_.Heard(node); },
                              [this](Connection* conn, const wire::FrameHeader& header,
                                     absl::string_view body) { HandleFrame(conn, header, body); });
  worked |= ldms_.FlushAndDrain();
  connections_.EraseDead();
  return worked;
}

void DataPlane::HandleFrame(Connection* conn, const wire::FrameHeader& header,
                            absl::string_view body) {
  switch (header.type) {
    case wire::FrameType::kOpReq:
      HandleOps(conn, header.count, body);
      return;
    case wire::FrameType::kDictReq:
      dictionary_role_.HandleDict(conn, body);
      return;
    case wire::FrameType::kOpConf:
      // Data nodes answer only our TC's operations.
      if (conn->data_node == 0) {
        connections_.Close(conn, "unexpected results from a client");
        return;
      }
      if (!tc_.OnResults(header.count, body)) connections_.Close(conn, "malformed results");
      return;
    case wire::FrameType::kDictConf: {
      wire::DictConf conf;
      if (conn->data_node == 0 ||
          !conf.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
        connections_.Close(conn, "unexpected dictionary reply");
        return;
      }
      dictionary_role_.OnPeerConf(*conn, conf);
      return;
    }
    default:
      connections_.Close(conn,
                         absl::StrCat("unexpected frame type ", static_cast<int>(header.type)));
  }
}

void DataPlane::HandleOps(Connection* conn, uint32_t count, absl::string_view body) {
  for (uint32_t i = 0; i < count; ++i) {
    wire::Op op;
    const char* start = body.data();
    if (wire::DecodeOp(&body, &op) != wire::DecodeStatus::kOk) {
      connections_.Close(conn, "malformed operation");
      break;
    }
    if (op.header.type == wire::OpType::kPing) {
      // Its arrival was the point: a peer alive, or a client that keeps alive (lock waits on
      // its transactions' locks then count only while it is heard from, LockWaits).
      if (conn->data_node == 0) conn->keeps_alive = true;
      continue;
    }
    const bool data_node_op =
        (op.header.type >= wire::OpType::kReplicaWrite &&
         op.header.type != wire::OpType::kCommitTxn) ||
        (op.header.type == wire::OpType::kCommit &&
         ((op.header.flags & wire::kOnReplica) != 0 || !op.sections[1].empty()));
    if (data_node_op && conn->data_node == 0) {
      // Replication, copies and two-phase commit come from the data nodes only.
      connections_.Close(conn, absl::StrCat("a data node's operation (",
                                            wire::OpTypeName(op.header.type), ") from a client"));
      break;
    }
    if (op.header.type == wire::OpType::kEpoch) {
      wire::Epoch epoch;
      if (wire::Epoch::Decode(op, &epoch) != wire::DecodeStatus::kOk) {
        connections_.Close(conn, "malformed epoch message");
        break;
      }
      epoch_.OnMessage(epoch);
      continue;
    }
    if (op.header.type == wire::OpType::kCommitTxn) {
      tc_.Commit(conn->id, op);
      continue;
    }
    if (op.header.type == wire::OpType::kCopyReq) {
      wire::CopyReq request;
      if (wire::CopyReq::Decode(op, &request) != wire::DecodeStatus::kOk) continue;
      epoch_.SyncCopyTarget(conn->id);
      group_.StartCopyTo(conn, request.since_epoch);
      continue;
    }
    if (op.header.type == wire::OpType::kCopyDone) {
      wire::CopyDone progress;
      if (wire::CopyDone::Decode(op, &progress) == wire::DecodeStatus::kOk) {
        group_.OnCopyProgress(progress);
      }
      continue;
    }
    ldms_.Route(op, absl::string_view(start, body.data() - start), conn->id);
  }
  if (!conn->dead && !body.empty()) connections_.Close(conn, "trailing bytes after the operations");
  ldms_.PushBatches(conn->id, conn->dead);
  ops_metric_->Increment(count);
}

void DataPlane::Sleep(absl::Duration timeout) {
  if (!connections_.PrepareToSleep()) return;
  if (!ldms_.PrepareToSleep()) {
    connections_.WokeUp();
    return;
  }
  connections_.Wait(timeout);
  ldms_.WokeUp();
  connections_.WokeUp();
}

void DataPlane::OnClosing(const Connection& conn, absl::string_view why) {
  group_.OnClosing(conn, why);
}

void DataPlane::OnClosed(const Connection& conn, bool peer_link) {
  ldms_.ConnectionClosed(conn.id);
  if (peer_link) group_.PeerGone(conn.data_node);
  if (conn.data_node == 0) dictionary_role_.ClientGone(conn.id);
}

void DataPlane::PublishStats() {
  const absl::Time now = absl::Now();
  epoch_.PublishStats(now);
  checkpoint_.PublishStats(now);
  ldms_.PublishStats();
  dictionary_role_.PublishStats();
  tc_.PublishStats();
}

}  // namespace shoal::node
