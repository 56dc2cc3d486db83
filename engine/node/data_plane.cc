// The data-plane loop: accept, read frames, run operations, reply in batches, sleep when idle.
#include "engine/node/data_plane.h"

#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "common/liveness/realtime.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/transport/shm_channel.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/errors.h"
#include "engine/wire/op.h"
#include "engine/wire/txn_ops.h"

namespace shoal::node {
namespace {

constexpr uint64_t kTcpListenerKey = 1ull << 40;
constexpr uint64_t kShmListenerKey = (1ull << 40) + 1;
constexpr uint64_t kWakeKey = (1ull << 40) + 2;
constexpr uint64_t kLdmResultsKey = (1ull << 40) + 3;
constexpr size_t kShmRingBytes = 8 << 20;
// Stop reading a client whose replies pile up: it gets back-pressure instead of our memory.
constexpr size_t kMaxQueuedReplyBytes = 8 << 20;
// Liveness of links and peers (PeerWatch's interval).
constexpr absl::Duration kLivenessInterval = PeerWatch::kCheckInterval;
constexpr absl::Duration kLockCheckInterval = absl::Milliseconds(5);

void AddToEpoll(int epoll_fd, int fd, uint64_t key) {
  epoll_event event = {};
  event.events = EPOLLIN;
  event.data.u64 = key;
  SHOAL_CHECK(epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0) << "epoll_ctl: " << errno;
}

}  // namespace

DataPlane::DataPlane(DataPlaneOptions options)
    : options_(std::move(options)),
      budget_(options_.data_memory),
      dictionary_(options_.default_partitions) {}

absl::StatusOr<std::unique_ptr<DataPlane>> DataPlane::Start(
    DataPlaneOptions options, const control::ClusterView& view,
    const std::optional<wire::Dictionary>& dictionary) {
  std::unique_ptr<DataPlane> plane(new DataPlane(std::move(options)));
  DataPlane& p = *plane;
  p.view_ = view;
  // Restarting: another node of the group serves, so our replica must be copied from it.
  for (const control::NodeStatus& node : view.nodes()) {
    if (node.type() == control::DATANODE && node.node_group() == p.options_.node_group &&
        static_cast<int>(node.node_id()) != p.options_.node_id &&
        node.state() == control::STARTED && node.data_port() != 0) {
      p.copy_source_ = static_cast<int>(node.node_id());
      break;
    }
  }
  SHOAL_ASSIGN_OR_RETURN(p.tcp_listener_,
                         transport::TcpListener::Listen(p.options_.host, p.options_.port));
  p.port_ = p.tcp_listener_->port();
  if (!p.options_.socket.empty()) {
    SHOAL_ASSIGN_OR_RETURN(p.shm_listener_,
                           transport::ShmListener::Listen(p.options_.socket, kShmRingBytes));
  }
  for (int i = 0; i < p.options_.ldm_count; ++i) {
    PartitionPlacement placement{p.options_.node_groups, p.options_.replicas, p.options_.node_group,
                                 p.options_.ldm_count, i};
    auto ldm = std::make_unique<Ldm>(placement, &p.budget_, p.options_.lock_wait_timeout);
    if (p.options_.ldm_threads) {
      SHOAL_ASSIGN_OR_RETURN(
          std::unique_ptr<LdmWorker> worker,
          LdmWorker::Start(std::move(ldm), i, p.options_.spin, p.options_.metrics));
      p.workers_.push_back(std::move(worker));
    } else {
      p.ldms_.push_back(std::move(ldm));
      p.ldm_metrics_.emplace_back(p.options_.metrics, i);
    }
  }
  p.ldm_batches_.resize(p.options_.ldm_count);
  p.ldm_batch_counts_.resize(p.options_.ldm_count);
  if (dictionary.has_value()) {
    DictionaryDelta delta;
    SHOAL_RETURN_IF_ERROR(p.dictionary_.Install(*dictionary, {}, &delta));
    p.ApplyDelta(delta);
  } else {
    p.dictionary_.BeginIncarnation(absl::Uniform<uint64_t>(absl::BitGen(), 1, ~uint64_t{0}));
    SHOAL_LOG(kInfo) << "no data node serves: starting with an empty dictionary (incarnation "
                     << absl::StrCat(absl::Hex(p.dictionary_.incarnation())) << ")";
  }
  p.epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  p.wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (p.epoll_fd_ < 0 || p.wake_fd_ < 0) return absl::InternalError("epoll/eventfd failed");
  AddToEpoll(p.epoll_fd_, p.tcp_listener_->fd(), kTcpListenerKey);
  if (p.shm_listener_) AddToEpoll(p.epoll_fd_, p.shm_listener_->fd(), kShmListenerKey);
  AddToEpoll(p.epoll_fd_, p.wake_fd_, kWakeKey);
  for (auto& worker : p.workers_) AddToEpoll(p.epoll_fd_, worker->results_fd(), kLdmResultsKey);

  MetricsRegistry* m = p.options_.metrics;
  p.frames_in_ = m->GetCounter("shoal_datanode_frames_received_total", "Native frames received.");
  p.frames_out_ = m->GetCounter("shoal_datanode_frames_sent_total", "Native frames sent.");
  p.ops_metric_ = m->GetCounter("shoal_datanode_operations_total", "Native operations run.");
  p.connections_metric_ =
      m->GetCounter("shoal_datanode_connections_total", "Native client connections accepted.");
  p.rows_metric_ = m->GetGauge("shoal_datanode_rows", "Rows held in this node's partitions.");
  p.memory_metric_ =
      m->GetGauge("shoal_datanode_data_memory_used_bytes", "Data memory reserved by partitions.");
  m->GetGauge("shoal_datanode_data_memory_limit_bytes", "The data_memory limit.")
      ->Set(static_cast<int64_t>(p.options_.data_memory));
  p.dictionary_version_metric_ =
      m->GetGauge("shoal_datanode_dictionary_version", "Version of the dictionary held here.");

  p.tc_ = std::make_unique<Coordinator>(
      p.options_.node_id,
      [&p](int node, const Coordinator::Message& message) { p.SendFromTc(node, message); },
      [&p](uint32_t conn, uint64_t tag, uint16_t code, absl::string_view message) {
        if (code == wire::kResultOk) {
          wire::AppendResult(p.ReplyTo(conn), code, 0, tag, {});
        } else {
          wire::AppendResult(p.ReplyTo(conn), code, 0, tag, {message});
        }
      });
  p.tc_commits_metric_ = m->GetCounter("shoal_datanode_tc_commits_total",
                                       "Transactions over several partitions this node's TC "
                                       "committed with two-phase commit.");
  p.tc_aborts_metric_ = m->GetCounter(
      "shoal_datanode_tc_aborts_total",
      "Transactions over several partitions rolled back because one could not prepare.");
  p.tc_takeovers_metric_ = m->GetCounter(
      "shoal_datanode_tc_takeovers_total",
      "Transactions of a failed TC this node finished (committed or rolled back) as master.");
  p.PushGroup();
  p.thread_ = std::thread([&p] {
    pthread_setname_np(pthread_self(), "data-plane");
    if (p.options_.realtime) (void)liveness::UseRealtimeScheduling("data plane");
    p.Run();
  });
  SHOAL_LOG(kInfo) << "native API on tcp " << p.options_.host << ":" << p.port_
                   << (p.shm_listener_ ? absl::StrCat(" and shm ", p.options_.socket) : "") << ", "
                   << p.options_.ldm_count << " LDM(s)"
                   << (p.options_.ldm_threads ? " on threads of their own" : " on this thread");
  return plane;
}

DataPlane::~DataPlane() {
  stopping_.store(true);
  if (wake_fd_ >= 0) {
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof(one));
  }
  if (thread_.joinable()) thread_.join();
  workers_.clear();
  connections_.clear();
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
}

void DataPlane::SetView(const control::ClusterView& view) {
  {
    std::lock_guard<std::mutex> lock(view_mutex_);
    new_view_ = view;
  }
  uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof(one));
}

void DataPlane::Run() {
  absl::Time now = absl::Now();
  peer_watch_.emplace(options_.peer_timeout, options_.metrics, now);
  absl::Time last_liveness = now;
  absl::Time last_lock_check = now;
  absl::Time busy_until = now;
  RequestCopy();
  while (!stopping_.load(std::memory_order_relaxed)) {
    bool worked = PollInput();
    DrainTcResults();
    worked |= CopySteps();
    FlushAll();
    now = absl::Now();
    if (now - last_lock_check >= kLockCheckInterval) {
      last_lock_check = now;
      for (auto& ldm : ldms_) {
        if (ldm->has_parked()) ldm->ExpireLockWaits(now, this);
      }
    }
    if (now - last_liveness >= kLivenessInterval) {
      last_liveness = now;
      CheckConnections();
      CheckPeers(now);
      PublishStats();
      if (now - last_stuck_report_ >= absl::Seconds(1)) {
        last_stuck_report_ = now;
        for (auto& ldm : ldms_) ldm->ReportStuckWaits(now, absl::Seconds(1));
        tc_->ReportStuck(now, absl::Seconds(1));
      }
    }
    if (worked) {
      busy_until = now + options_.spin;
      continue;
    }
    if (now < busy_until) continue;
    bool parked = false;
    for (auto& ldm : ldms_) parked |= ldm->has_parked() || ldm->copying();
    Sleep(parked ? kLockCheckInterval : kLivenessInterval);
  }
}

bool DataPlane::PollInput() {
  // One epoll_wait per turn tells which TCP sockets and listeners are ready; shared-memory
  // rings need no system call to look at.
  epoll_event events[64];
  int n = epoll_wait(epoll_fd_, events, 64, 0);
  bool worked = false;
  for (int i = 0; i < n; ++i) {
    uint64_t key = events[i].data.u64;
    if (key == kTcpListenerKey || key == kShmListenerKey) {
      Accept();
      worked = true;
    } else if (key == kWakeKey) {
      uint64_t value;
      (void)!read(wake_fd_, &value, sizeof(value));
      std::optional<control::ClusterView> view;
      {
        std::lock_guard<std::mutex> lock(view_mutex_);
        view.swap(new_view_);
      }
      if (view.has_value()) OnView(std::move(*view));
    }
  }
  std::vector<uint32_t> ids;
  ids.reserve(connections_.size());
  for (auto& [id, conn] : connections_) ids.push_back(id);
  for (uint32_t id : ids) {
    Connection* conn = Find(id);
    if (conn == nullptr || conn->dead) continue;
    if (conn->out.finished().size() > kMaxQueuedReplyBytes) continue;
    if (absl::Status status = conn->channel->Receive(); !status.ok()) {
      Close(conn, status.message());
      continue;
    }
    for (int frames = 0; frames < 16 && !conn->dead; ++frames) {
      absl::string_view frame = conn->channel->Peek();
      if (frame.empty()) break;
      if (conn->data_node != 0) peer_watch_->Heard(conn->data_node, absl::Now());
      frames_in_->Increment();
      HandleFrame(conn, frame);
      if (!conn->dead) conn->channel->Consume();
      worked = true;
    }
  }
  for (auto& worker : workers_) worker->Flush();
  worked |= DrainLdmResults();
  absl::erase_if(connections_, [](const auto& entry) { return entry.second->dead; });
  return worked;
}

void DataPlane::HandleFrame(Connection* conn, absl::string_view frame) {
  wire::FrameHeader header;
  absl::string_view body;
  if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) {
    Close(conn, "malformed frame header");
    return;
  }
  if (!conn->hello_done) {
    uint32_t id = 0;
    wire::FrameType expected =
        conn->is_peer ? wire::FrameType::kHelloConf : wire::FrameType::kHelloReq;
    if (header.type != expected || wire::DecodeHello(body, &id) != wire::DecodeStatus::kOk) {
      Close(conn, "expected a hello");
      return;
    }
    conn->hello_done = true;
    conn->hello_id = id;
    if (!conn->is_peer && IsDataNode(id)) conn->data_node = static_cast<int>(id);
    if (!conn->is_peer) {
      conn->out.Finish();
      wire::AppendHello(&conn->out, wire::FrameType::kHelloConf,
                        static_cast<uint32_t>(options_.node_id));
    }
    return;
  }
  switch (header.type) {
    case wire::FrameType::kOpReq:
      HandleOps(conn, header.count, body);
      return;
    case wire::FrameType::kDictReq:
      HandleDict(conn, body);
      return;
    case wire::FrameType::kOpConf:
      // Data nodes answer only our TC's operations.
      if (conn->data_node == 0) {
        Close(conn, "unexpected results from a client");
        return;
      }
      for (uint32_t i = 0; i < header.count; ++i) {
        wire::Result result;
        if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) {
          Close(conn, "malformed results");
          return;
        }
        tc_->OnResult(result);
      }
      return;
    case wire::FrameType::kDictConf: {
      wire::DictConf conf;
      if (conn->data_node == 0 ||
          !conf.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
        Close(conn, "unexpected dictionary reply");
        return;
      }
      OnPeerConf(conn, conf);
      return;
    }
    default:
      Close(conn, absl::StrCat("unexpected frame type ", static_cast<int>(header.type)));
  }
}

void DataPlane::HandleOps(Connection* conn, uint32_t count, absl::string_view body) {
  PartitionPlacement placement{options_.node_groups, options_.replicas, 0, options_.ldm_count};
  for (uint32_t i = 0; i < count; ++i) {
    wire::Op op;
    const char* start = body.data();
    if (wire::DecodeOp(&body, &op) != wire::DecodeStatus::kOk) {
      Close(conn, "malformed operation");
      break;
    }
    if (op.header.type >= wire::OpType::kReplicaWrite &&
        op.header.type != wire::OpType::kCommitTxn && conn->data_node == 0) {
      // Replication, copies and two-phase commit come from the data nodes only.
      Close(conn, absl::StrCat("a data node's operation (", wire::OpTypeName(op.header.type),
                               ") from a client"));
      break;
    }
    if (op.header.type == wire::OpType::kPing) continue;  // its arrival was the point
    if (op.header.type == wire::OpType::kCommitTxn) {
      wire::CommitTxn commit;
      if (wire::CommitTxn::Decode(op, &commit) != wire::DecodeStatus::kOk) {
        wire::AppendResult(ReplyTo(conn->id), wire::kErInternal, 0, op.header.tag,
                           {"Internal error: malformed commit request"});
      } else {
        tc_->Commit(conn->id, commit);
      }
      continue;
    }
    if (op.header.type == wire::OpType::kCopyReq) {
      StartCopyTo(conn, conn->data_node);
      continue;
    }
    if (op.header.type == wire::OpType::kCopyDone) {
      wire::CopyDone progress;
      if (wire::CopyDone::Decode(op, &progress) == wire::DecodeStatus::kOk) {
        OnCopyProgress(progress);
      }
      continue;
    }
    int ldm = placement.LdmOf(op.header.partition);
    if (workers_.empty()) {
      ldms_[ldm]->Execute(op, conn->id, this);
    } else {
      ldm_batches_[ldm].append(start, body.data() - start);
      ++ldm_batch_counts_[ldm];
    }
  }
  if (!conn->dead && !body.empty()) Close(conn, "trailing bytes after the operations");
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    // A connection closed by a malformed operation has had its closing queued already:
    // operations queued after it would open transactions nobody ends.
    if (ldm_batch_counts_[ldm] > 0 && !conn->dead) {
      PushToLdm(ldm, [&](LdmWorker* worker) {
        return worker->PushOps(conn->id, ldm_batch_counts_[ldm], ldm_batches_[ldm]);
      });
    }
    ldm_batches_[ldm].clear();
    ldm_batch_counts_[ldm] = 0;
  }
  ops_metric_->Increment(count);
}

bool DataPlane::DrainLdmResults() {
  bool any = false;
  for (auto& worker : workers_) any |= worker->DrainResults(this);
  return any;
}

wire::FrameBuilder* DataPlane::ReplyTo(uint32_t destination) {
  if (destination == kTcConn) {
    if (!tc_results_.in_frame()) tc_results_.Begin(wire::FrameType::kOpConf);
    return &tc_results_;
  }
  wire::FrameType type = wire::FrameType::kOpConf;
  Connection* conn = nullptr;
  if (destination & kToNode) {
    type = wire::FrameType::kOpReq;
    conn = PeerConnection(static_cast<int>(destination & ~kToNode));
  } else if (destination & kOpsOn) {
    type = wire::FrameType::kOpReq;
    conn = Find(destination & ~kOpsOn);
  } else {
    conn = Find(destination);
  }
  if (conn == nullptr || conn->dead) return nullptr;
  wire::FrameBuilder& out = conn->out;
  if (out.in_frame() && out.type() == type && out.current_body_size() < wire::kFrameSoftLimit) {
    return &out;
  }
  out.Finish();
  out.Begin(type, dictionary_.version());
  return &out;
}

void DataPlane::SendFrame(Connection* conn, wire::FrameType type,
                          const google::protobuf::Message& body) {
  conn->out.Finish();
  conn->out.Begin(type, dictionary_.version());
  body.AppendToString(conn->out.buffer());
  conn->out.CountItem();
  conn->out.Finish();
}

void DataPlane::FlushAll() {
  // By id: closing a peer connection may open another (a DDL moving on to the next peer).
  ids_.clear();
  for (auto& [id, conn] : connections_) ids_.push_back(id);
  for (uint32_t id : ids_) {
    Connection* conn = Find(id);
    if (conn == nullptr || conn->dead) continue;
    conn->out.Finish();
    size_t sent = 0;
    absl::string_view frames = conn->out.finished();
    while (sent < frames.size()) {
      absl::string_view frame = wire::FirstFrame(frames.substr(sent));
      if (!conn->channel->TryWrite(frame)) break;
      sent += frame.size();
      frames_out_->Increment();
    }
    if (sent > 0) conn->out.ConsumeFinished(sent);
    if (sent > 0 || conn->channel->HasPendingOutput()) {
      if (absl::Status status = conn->channel->Flush(); !status.ok()) {
        Close(conn, status.message());
      }
    }
  }
}

void DataPlane::Sleep(absl::Duration timeout) {
  std::vector<transport::Channel*> sleeping;
  // Replies a client is not taking: look again soon, but do not spin on it.
  bool blocked_output = false;
  for (auto& [id, conn] : connections_) {
    if (conn->dead) continue;
    if (!conn->channel->PrepareToSleep()) {
      for (transport::Channel* channel : sleeping) channel->WokeUp();
      return;
    }
    blocked_output |= !conn->out.finished().empty();
    sleeping.push_back(conn->channel.get());
  }
  size_t prepared = 0;
  for (; prepared < workers_.size(); ++prepared) {
    if (!workers_[prepared]->PrepareToSleep()) break;
  }
  if (prepared < workers_.size()) {
    for (size_t i = 0; i < prepared; ++i) workers_[i]->WokeUp();
    for (transport::Channel* channel : sleeping) channel->WokeUp();
    return;
  }
  bool pending_output = blocked_output;
  for (auto& [id, conn] : connections_) pending_output |= conn->channel->HasPendingOutput();
  if (pending_output) timeout = std::min(timeout, absl::Milliseconds(1));
  epoll_event event;
  // Only to block: PollInput asks epoll again, without waiting, for what is ready.
  int ms = static_cast<int>(absl::ToInt64Milliseconds(timeout));
  int n = epoll_wait(epoll_fd_, &event, 1, ms);
  (void)n;
  for (auto& worker : workers_) worker->WokeUp();
  for (transport::Channel* channel : sleeping) channel->WokeUp();
}

void DataPlane::Accept() {
  for (auto* listener_kind : {"tcp", "shm"}) {
    bool tcp = absl::string_view(listener_kind) == "tcp";
    if (!tcp && shm_listener_ == nullptr) continue;
    for (;;) {
      absl::StatusOr<std::unique_ptr<transport::Channel>> channel =
          tcp ? tcp_listener_->Accept() : shm_listener_->Accept();
      if (!channel.ok()) {
        SHOAL_LOG(kWarning) << "accept (" << listener_kind << "): " << channel.status().message();
        break;
      }
      if (*channel == nullptr) break;
      auto conn = std::make_unique<Connection>();
      conn->id = next_connection_id_++;
      conn->channel = std::move(*channel);
      AddToEpoll(epoll_fd_, conn->channel->wait_fd(), conn->id);
      connections_metric_->Increment();
      connections_.emplace(conn->id, std::move(conn));
    }
  }
}

void DataPlane::CheckConnections() {
  ids_.clear();
  for (auto& [id, conn] : connections_) ids_.push_back(id);
  for (uint32_t id : ids_) {
    Connection* conn = Find(id);
    if (conn == nullptr || conn->dead) continue;
    if (absl::Status status = conn->channel->CheckAlive(); !status.ok()) {
      Close(conn, status.message());
    }
  }
}

void DataPlane::Close(Connection* conn, absl::string_view why) {
  if (conn->dead) return;
  conn->dead = true;
  bool peer_link = false;  // the connection PeerConnection() hands out for this node
  if (conn->data_node != 0) {
    if (auto it = peers_.find(conn->data_node); it != peers_.end() && it->second == conn->id) {
      peer_link = true;
      if (IsStartedPeer(conn->data_node)) {
        // Writes sent on it may be lost: none may follow on a new connection until the view
        // says whether the node is gone (then it copies everything again when it returns).
        PeerLost(conn->data_node, why);
      }
    }
    if (conn->data_node == copy_source_ && !ready_reported_) {
      Ready(absl::UnavailableError(
          absl::StrCat("lost data node ", copy_source_, " while copying from it: ", why)));
    }
  }
  if (conn->is_peer) {
    SHOAL_LOG(kWarning) << "closing peer connection " << conn->id << " (" << conn->channel->kind()
                        << "): " << why;
  } else {
    SHOAL_LOG(kDebug) << "closing native connection " << conn->id << " (" << conn->channel->kind()
                      << "): " << why;
  }
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, conn->channel->wait_fd(), nullptr);
  for (auto& ldm : ldms_) ldm->ConnectionClosed(conn->id, this);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushConnectionClosed(conn->id); });
  }
  if (peer_link) PeerGone(conn->data_node);
}

DataPlane::Connection* DataPlane::Find(uint32_t id) {
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second.get();
}

void DataPlane::ApplyDelta(const DictionaryDelta& delta) {
  for (auto& ldm : ldms_) ldm->Apply(delta);
  for (int ldm = 0; ldm < static_cast<int>(workers_.size()); ++ldm) {
    PushToLdm(ldm, [&](LdmWorker* worker) { return worker->PushDelta(delta); });
    workers_[ldm]->Flush();
  }
}

void DataPlane::PublishStats() {
  int64_t rows = 0;
  for (size_t i = 0; i < ldms_.size(); ++i) {
    rows += static_cast<int64_t>(ldms_[i]->row_count());
    ldm_metrics_[i].Publish(*ldms_[i]);
  }
  for (auto& worker : workers_) rows += worker->rows();
  rows_metric_->Set(rows);
  memory_metric_->Set(static_cast<int64_t>(budget_.used()));
  dictionary_version_metric_->Set(dictionary_.version());
  const CoordinatorStats& tc = tc_->stats();
  tc_commits_metric_->Increment(static_cast<int64_t>(tc.commits - tc_published_.commits));
  tc_aborts_metric_->Increment(static_cast<int64_t>(tc.aborts - tc_published_.aborts));
  tc_takeovers_metric_->Increment(static_cast<int64_t>(tc.takeovers - tc_published_.takeovers));
  tc_published_ = tc;
}

}  // namespace shoal::node
