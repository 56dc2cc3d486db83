// The data-plane loop: accept, read frames, route them to the roles, reply in batches, sleep
// when idle.
#include "engine/node/data_plane.h"

#include <pthread.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/liveness/realtime.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/node/peer_watch.h"
#include "engine/wire/op.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {
namespace {

// Liveness of links and peers (PeerWatch's interval).
constexpr absl::Duration kLivenessInterval = PeerWatch::kCheckInterval;
constexpr absl::Duration kLockCheckInterval = absl::Milliseconds(5);

}  // namespace

DataPlane::DataPlane(DataPlaneOptions options)
    : options_(std::move(options)),
      view_(options_.node_id),
      dictionary_(options_.default_partitions),
      connections_(&options_, &view_, &dictionary_, this),
      ldms_(&options_, this),
      tc_(options_.node_id, options_.metrics, &connections_, &ldms_, &dictionary_),
      dictionary_role_(options_.node_id, options_.metrics, &dictionary_, &view_, &connections_,
                       [this](const DictionaryDelta& delta) {
                         ldms_.ApplyDelta(delta);
                         group_.ForwardDictionary(delta);
                       }),
      liveness_(&options_, &view_, &connections_),
      group_(&options_, &view_, &connections_, &ldms_, &dictionary_role_, &tc_) {
  ops_metric_ =
      options_.metrics->GetCounter("shoal_datanode_operations_total", "Native operations run.");
}

absl::StatusOr<std::unique_ptr<DataPlane>> DataPlane::Start(
    DataPlaneOptions options, const control::ClusterView& view,
    const std::optional<wire::Dictionary>& dictionary) {
  std::unique_ptr<DataPlane> plane(new DataPlane(std::move(options)));
  DataPlane& p = *plane;
  p.view_.Set(view);
  p.group_.FindCopySource();
  SHOAL_RETURN_IF_ERROR(p.connections_.Listen());
  SHOAL_RETURN_IF_ERROR(p.ldms_.Start());
  SHOAL_RETURN_IF_ERROR(p.dictionary_role_.Load(dictionary));
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
    worked |= group_.CopySteps();
    connections_.FlushAll();
    now = absl::Now();
    if (now - last_lock_check >= kLockCheckInterval) {
      last_lock_check = now;
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
    Sleep(ldms_.has_timed_work() ? kLockCheckInterval : kLivenessInterval);
  }
}

bool DataPlane::PollInput() {
  bool worked = connections_.PollEvents([this] {
    std::optional<control::ClusterView> view;
    {
      std::lock_guard<std::mutex> lock(view_mutex_);
      view.swap(new_view_);
    }
    if (view.has_value()) group_.OnView(std::move(*view));
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
    if (op.header.type >= wire::OpType::kReplicaWrite &&
        op.header.type != wire::OpType::kCommitTxn && conn->data_node == 0) {
      // Replication, copies and two-phase commit come from the data nodes only.
      connections_.Close(conn, absl::StrCat("a data node's operation (",
                                            wire::OpTypeName(op.header.type), ") from a client"));
      break;
    }
    if (op.header.type == wire::OpType::kPing) continue;  // its arrival was the point
    if (op.header.type == wire::OpType::kCommitTxn) {
      tc_.Commit(conn->id, op);
      continue;
    }
    if (op.header.type == wire::OpType::kCopyReq) {
      group_.StartCopyTo(conn);
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
}

void DataPlane::PublishStats() {
  ldms_.PublishStats();
  dictionary_role_.PublishStats();
  tc_.PublishStats();
}

}  // namespace shoal::node
