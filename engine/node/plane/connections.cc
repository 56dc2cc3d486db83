// The recv and send roles: listeners, the connection table, hello, output and the sleep.
#include "engine/node/plane/connections.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/transport/shm_channel.h"
#include "engine/transport/tcp_channel.h"
#include "engine/wire/dictionary.pb.h"
#include "google/protobuf/message.h"

namespace shoal::node {
namespace {

constexpr uint64_t kTcpListenerKey = 1ull << 40;
constexpr uint64_t kShmListenerKey = (1ull << 40) + 1;
constexpr uint64_t kWakeKey = (1ull << 40) + 2;
constexpr uint64_t kDoorbellKey = (1ull << 40) + 3;
constexpr size_t kShmRingBytes = 8 << 20;

void AddToEpoll(int epoll_fd, int fd, uint64_t key) {
  epoll_event event = {};
  event.events = EPOLLIN;
  event.data.u64 = key;
  SHOAL_CHECK(epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0) << "epoll_ctl: " << errno;
}

}  // namespace

Connections::Connections(DataPlaneOptions* options, const NodeView* view,
                         const Dictionary* dictionary, ConnectionEvents* events)
    : options_(options), view_(view), dictionary_(dictionary), events_(events) {
  MetricsRegistry* m = options_->metrics;
  frames_in_ = m->GetCounter("shoal_datanode_frames_received_total", "Native frames received.");
  frames_out_ = m->GetCounter("shoal_datanode_frames_sent_total", "Native frames sent.");
  constexpr char kPeerLinks[] = "shoal_datanode_peer_links_opened_total";
  constexpr char kPeerLinksHelp[] = "Links this data node opened to other data nodes.";
  peer_links_shm_ = m->GetCounter(kPeerLinks, kPeerLinksHelp, {{"transport", "shm"}});
  peer_links_tcp_ = m->GetCounter(kPeerLinks, kPeerLinksHelp, {{"transport", "tcp"}});
  // TLS links (cluster.tls) are counted apart: an operator sees that replication is encrypted.
  peer_links_tls_ = m->GetCounter(kPeerLinks, kPeerLinksHelp, {{"transport", "tcp+tls"}});
  connections_metric_ =
      m->GetCounter("shoal_datanode_connections_total", "Native client connections accepted.");
  tls_refusals_ = m->GetCounter(
      "shoal_datanode_tls_refusals_total",
      "Native TCP connections closed because TLS failed: another CA, another host, clear text.");
}

Connections::~Connections() {
  connections_.clear();
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (wake_fd_ >= 0) close(wake_fd_);
}

absl::Status Connections::Listen() {
  SHOAL_ASSIGN_OR_RETURN(tcp_listener_, transport::TcpListener::Listen(
                                            options_->host, options_->port, options_->link_tls));
  port_ = tcp_listener_->port();
  if (!options_->socket.empty()) {
    SHOAL_ASSIGN_OR_RETURN(shm_listener_,
                           transport::ShmListener::Listen(options_->socket, kShmRingBytes));
  }
  return absl::OkStatus();
}

absl::Status Connections::StartPolling(const std::vector<int>& doorbells) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || wake_fd_ < 0) return absl::InternalError("epoll/eventfd failed");
  AddToEpoll(epoll_fd_, tcp_listener_->fd(), kTcpListenerKey);
  if (shm_listener_) AddToEpoll(epoll_fd_, shm_listener_->fd(), kShmListenerKey);
  AddToEpoll(epoll_fd_, wake_fd_, kWakeKey);
  for (int fd : doorbells) AddToEpoll(epoll_fd_, fd, kDoorbellKey);
  return absl::OkStatus();
}

void Connections::Wake() {
  if (wake_fd_ < 0) return;
  uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof(one));
}

bool Connections::PollEvents(absl::FunctionRef<void()> on_wake) {
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
      on_wake();
    }
  }
  return worked;
}

void Connections::EraseDead() {
  absl::erase_if(connections_, [](const auto& entry) { return entry.second->dead; });
}

void Connections::Hello(Connection* conn, const wire::FrameHeader& header, absl::string_view body) {
  uint32_t id = 0;
  wire::FrameType expected =
      conn->is_peer ? wire::FrameType::kHelloConf : wire::FrameType::kHelloReq;
  if (header.type != expected || wire::DecodeHello(body, &id) != wire::DecodeStatus::kOk) {
    Close(conn, "expected a hello");
    return;
  }
  conn->hello_done = true;
  conn->hello_id = id;
  if (!conn->is_peer && view_->IsDataNode(id)) conn->data_node = static_cast<int>(id);
  if (!conn->is_peer) {
    conn->out.Finish();
    wire::AppendHello(&conn->out, wire::FrameType::kHelloConf,
                      static_cast<uint32_t>(options_->node_id));
  }
}

void Connections::SendFrame(Connection* conn, wire::FrameType type,
                            const google::protobuf::Message& body) {
  conn->out.Finish();
  conn->out.Begin(type, dictionary_->version());
  body.AppendToString(conn->out.buffer());
  conn->out.CountItem();
  conn->out.Finish();
}

std::vector<uint32_t> Connections::AnnounceDictionary() {
  const wire::DictConf notice;
  std::vector<uint32_t> routers;
  for (auto& [id, conn] : connections_) {
    if (conn->dead || !conn->hello_done || conn->data_node != 0) continue;
    SendFrame(conn.get(), wire::FrameType::kDictConf, notice);
    if (view_->IsStartedRouter(conn->hello_id)) routers.push_back(id);
  }
  return routers;
}

void Connections::FlushAll() {
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

std::vector<uint32_t> Connections::SilentKeepAliveClients(absl::Time now,
                                                          absl::Duration window) const {
  std::vector<uint32_t> silent;
  for (const auto& [id, conn] : connections_) {
    if (!conn->dead && conn->keeps_alive && now - conn->heard_at > window) silent.push_back(id);
  }
  return silent;
}

bool Connections::PrepareToSleep() {
  sleeping_.clear();
  blocked_output_ = false;
  for (auto& [id, conn] : connections_) {
    if (conn->dead) continue;
    if (!conn->channel->PrepareToSleep()) {
      WokeUp();
      return false;
    }
    blocked_output_ |= !conn->out.finished().empty();
    sleeping_.push_back(conn->channel.get());
  }
  return true;
}

void Connections::Wait(absl::Duration timeout) {
  bool pending_output = blocked_output_;
  for (auto& [id, conn] : connections_) pending_output |= conn->channel->HasPendingOutput();
  if (pending_output) timeout = std::min(timeout, absl::Milliseconds(1));
  epoll_event event;
  // Only to block: PollEvents asks epoll again, without waiting, for what is ready.
  int ms = static_cast<int>(absl::ToInt64Milliseconds(timeout));
  int n = epoll_wait(epoll_fd_, &event, 1, ms);
  (void)n;
}

void Connections::WokeUp() {
  for (transport::Channel* channel : sleeping_) channel->WokeUp();
  sleeping_.clear();
}

void Connections::Accept() {
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

void Connections::CheckConnections() {
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

void Connections::Close(Connection* conn, absl::string_view why) {
  if (conn->dead) return;
  conn->dead = true;
  bool peer_link = false;  // the connection PeerConnection() hands out for this node
  if (conn->data_node != 0) {
    if (auto it = peers_.find(conn->data_node); it != peers_.end() && it->second == conn->id) {
      peer_link = true;
      if (view_->IsStartedPeer(conn->data_node)) {
        // Writes sent on it may be lost: none may follow on a new connection until the view
        // says whether the node is gone (then it copies everything again when it returns).
        PeerLost(conn->data_node, why);
      }
    }
  }
  events_->OnClosing(*conn, why);
  if (conn->is_peer) {
    SHOAL_LOG(kWarning) << "closing peer connection " << conn->id << " (" << conn->channel->kind()
                        << "): " << why;
  } else if (absl::StartsWith(why, "tls: ")) {
    // A peer that could not prove it belongs to the cluster (common/tls/link_context.h).
    tls_refusals_->Increment();
    SHOAL_LOG(kWarning) << "refused native connection " << conn->id << ": " << why;
  } else {
    SHOAL_LOG(kDebug) << "closing native connection " << conn->id << " (" << conn->channel->kind()
                      << "): " << why;
  }
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, conn->channel->wait_fd(), nullptr);
  events_->OnClosed(*conn, peer_link);
}

void Connections::CloseDataNode(int node, absl::string_view why) {
  ids_.clear();
  for (auto& [conn_id, conn] : connections_) {
    if (conn->data_node == node && !conn->dead) ids_.push_back(conn_id);
  }
  for (uint32_t conn_id : ids_) Close(Find(conn_id), why);
}

bool Connections::HasUnreadFrame(int node) {
  for (auto& [id, conn] : connections_) {
    if (conn->dead || conn->data_node != node) continue;
    if (!conn->channel->Receive().ok()) continue;  // Read closes it on its next turn
    if (!conn->channel->Peek().empty()) return true;
  }
  return false;
}

Connection* Connections::PeerConnection(int node_id) {
  if (auto it = peers_.find(node_id); it != peers_.end()) {
    Connection* conn = Find(it->second);
    if (conn != nullptr && !conn->dead) return conn;
    peers_.erase(it);
  }
  if (lost_peers_.contains(node_id)) return nullptr;
  absl::Time now = absl::Now();
  if (auto it = unreachable_until_.find(node_id); it != unreachable_until_.end()) {
    if (now < it->second) return nullptr;
    unreachable_until_.erase(it);
  }
  for (const auto& node : view_->view().nodes()) {
    if (static_cast<int>(node.node_id()) != node_id || node.data_port() == 0) continue;
    // Once per peer and process: a short blocking connect keeps the peer links simple.
    absl::StatusOr<std::unique_ptr<transport::Channel>> channel = ConnectToPeer(node);
    if (!channel.ok()) {
      SHOAL_LOG(kWarning) << "cannot reach data node " << node_id << ": "
                          << channel.status().message();
      unreachable_until_[node_id] = now + absl::Milliseconds(200);
      if (view_->IsStartedPeer(node_id)) PeerLost(node_id, channel.status().message());
      return nullptr;
    }
    auto conn = std::make_unique<Connection>();
    conn->id = next_connection_id_++;
    conn->channel = std::move(*channel);
    conn->is_peer = true;
    conn->data_node = node_id;
    wire::AppendHello(&conn->out, wire::FrameType::kHelloReq,
                      static_cast<uint32_t>(options_->node_id));
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.u64 = conn->id;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, conn->channel->wait_fd(), &event);
    Connection* raw = conn.get();
    peers_[node_id] = conn->id;
    connections_.emplace(conn->id, std::move(conn));
    return raw;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<transport::Channel>> Connections::ConnectToPeer(
    const control::NodeStatus& node) {
  // A peer on this host is reached over shared memory, as routers reach us: replication's
  // frames then cost no socket system calls. While the peer's accept is awaited, ours go on.
  if (node.host() == options_->host && !node.data_socket().empty()) {
    absl::StatusOr<std::unique_ptr<transport::Channel>> shm =
        transport::ConnectShm(node.data_socket(), absl::Seconds(2), [this] { Accept(); });
    if (shm.ok()) {
      peer_links_shm_->Increment();
      return shm;
    }
    SHOAL_LOG(kWarning) << "shared memory to data node " << node.node_id() << " failed ("
                        << shm.status().message() << "); using TCP";
  }
  absl::StatusOr<std::unique_ptr<transport::Channel>> tcp = transport::ConnectTcp(
      node.host(), static_cast<int>(node.data_port()), absl::Seconds(2), options_->link_tls);
  if (tcp.ok()) (options_->link_tls != nullptr ? peer_links_tls_ : peer_links_tcp_)->Increment();
  return tcp;
}

Connection* Connections::PeerLink(int node_id) {
  auto peer = peers_.find(node_id);
  Connection* conn = peer == peers_.end() ? nullptr : Find(peer->second);
  return conn != nullptr && !conn->dead ? conn : nullptr;
}

void Connections::AdoptPeerLink(int node_id, Connection* conn) {
  if (auto it = peers_.find(node_id); it != peers_.end() && it->second != conn->id) {
    if (Connection* old = Find(it->second); old != nullptr) Close(old, "replaced by a restart");
  }
  peers_[node_id] = conn->id;
  lost_peers_.erase(node_id);
}

bool Connections::DropPeer(int node_id) {
  auto it = peers_.find(node_id);
  if (it == peers_.end()) return false;
  uint32_t conn_id = it->second;
  peers_.erase(it);
  if (Connection* conn = Find(conn_id); conn != nullptr && !conn->dead) {
    Close(conn, "the data node left the cluster");
  }
  return true;
}

void Connections::PeerLost(int node, absl::string_view why) {
  if (!lost_peers_.insert(node).second) return;
  SHOAL_LOG(kWarning) << "lost sight of data node " << node << " (" << why
                      << "), which the cluster view has serving: asking for arbitration";
  if (options_->on_peer_lost) options_->on_peer_lost(node);
}

}  // namespace shoal::node
