// Connections: the data plane's recv and send roles (docs/architecture.md I3). Owns the
// listeners, the connection table, the epoll set and the wake doorbell; reads and decodes
// frames (the hello included) and hands every later frame to the DataPlane; gives each
// destination of a reply its frame (ReplyTo); writes everything out once per turn (FlushAll);
// sleeps on epoll. Also the links to the other data nodes (PeerConnection) and the peers lost
// on them.
//
// A connection is entered by Accept() or PeerConnection(), said hello on its first frame, and
// left by Close(): marked dead at once (nothing more is read from or written to it, the
// ConnectionEvents hear of it) and erased from the table at the end of the turn (EraseDead).
// A peer is lost (PeerLost) when its link breaks, or cannot be opened, while the view has it
// serving; it stays lost, unreachable by PeerConnection(), until a view says it does not
// serve, or it asks for a copy (AdoptPeerLink).
//
// Owned by the DataPlane; used on the data-plane thread only, except Wake().
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/context.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/options.h"
#include "engine/transport/channel.h"
#include "engine/wire/frame.h"

namespace google::protobuf {
class Message;
}  // namespace google::protobuf

namespace shoal::transport {
class ShmListener;
class TcpListener;
}  // namespace shoal::transport

namespace shoal::node {

struct Connection {
  uint32_t id = 0;
  std::unique_ptr<transport::Channel> channel;
  wire::FrameBuilder out;
  bool hello_done = false;
  uint32_t hello_id = 0;  // the id the peer gave in its hello (client id or data node id)
  bool is_peer = false;   // a connection this node opened to another data node
  int data_node = 0;      // the data node at the other end (either direction); 0: a client
  bool dead = false;
  absl::Time heard_at;       // its last frame
  bool keeps_alive = false;  // a client that pings when it has nothing to send (kPing)
};

// What the DataPlane hears of a connection that closes, in this order, each once.
class ConnectionEvents {
 public:
  virtual ~ConnectionEvents() = default;
  // `conn` is marked dead, nothing logged yet (PeerLost already ran if it was a lost peer's).
  virtual void OnClosing(const Connection& conn, absl::string_view why) = 0;
  // `conn` is logged and out of the epoll set; `peer_link` when it was the link
  // PeerConnection() handed out for its data node (still in the peer table).
  virtual void OnClosed(const Connection& conn, bool peer_link) = 0;
};

class Connections {
 public:
  // Stop reading a client whose replies pile up: it gets back-pressure instead of our memory.
  static constexpr size_t kMaxQueuedReplyBytes = 8 << 20;

  // `options`, `view`, `dictionary` (frames carry its version) and `events` outlive this.
  Connections(DataPlaneOptions* options, const NodeView* view, const Dictionary* dictionary,
              ConnectionEvents* events);
  ~Connections();  // closes every channel, the epoll set and the doorbell
  Connections(const Connections&) = delete;
  Connections& operator=(const Connections&) = delete;

  // Listens on options' host:port (TCP) and socket (shared memory, when set).
  absl::Status Listen();
  int port() const { return port_; }
  // Makes the epoll set with the listeners and the wake doorbell in it, and `doorbells` (the
  // LDM threads' results), which only wake Wait().
  absl::Status StartPolling(const std::vector<int>& doorbells);
  // Any thread: wakes the data-plane thread; its next PollEvents() calls `on_wake`.
  void Wake();

  // One look at epoll, without waiting: accepts on ready listeners, calls `on_wake` when
  // Wake() rang. True when it accepted.
  bool PollEvents(absl::FunctionRef<void()> on_wake);
  // Reads every connection not backed up, up to 16 frames each: calls `on_heard(int node)`
  // for each frame from a data node (whatever it holds), and hands each frame after the
  // hello to `on_frame(Connection*, const wire::FrameHeader&, absl::string_view body)`; a
  // malformed header or hello closes the connection. True when it read a frame.
  template <typename OnHeard, typename OnFrame>
  bool Read(OnHeard on_heard, OnFrame on_frame);
  // The clients that keep alive (they pinged once) and have been silent for `window`.
  std::vector<uint32_t> SilentKeepAliveClients(absl::Time now, absl::Duration window) const;
  // Erases the connections closed this turn.
  void EraseDead();

  // The ReplySink destinations (ldm/context.h) but kTcConn: kOpConf to client connection
  // `destination`, kOpReq to a data node (kToNode) or on a connection (kOpsOn).
  wire::FrameBuilder* ReplyTo(uint32_t destination);
  // Finishes the frame under construction and appends `body` as a frame of its own.
  void SendFrame(Connection* conn, wire::FrameType type, const google::protobuf::Message& body);
  // Tells every client the dictionary changed: an empty kDictConf (tag 0, answering nothing)
  // whose header carries the new version, so that a router's next statement fetches it. The
  // connections of started routers told: each answers with DictionarySeen.
  std::vector<uint32_t> AnnounceDictionary();
  // Writes what every connection has finished, as far as its channel takes it.
  void FlushAll();
  // The sleep, in three steps around the LDM threads' doorbells: PrepareToSleep() tells every
  // channel (false: one has input; none sleeps then), Wait() blocks on epoll up to `timeout`
  // (1 ms when output is pending), WokeUp() undoes PrepareToSleep().
  bool PrepareToSleep();
  void Wait(absl::Duration timeout);
  void WokeUp();
  // Closes connections whose channel reports the other end gone.
  void CheckConnections();
  void Close(Connection* conn, absl::string_view why);
  Connection* Find(uint32_t id);
  // Closes every live connection with data node `node` (either direction).
  void CloseDataNode(int node, absl::string_view why);
  // Reads the links with data node `node`: true when a whole frame from it waits unread.
  bool HasUnreadFrame(int node);

  // The connection replication and DDL use to reach `node_id`, opened if need be; nullptr
  // when it cannot be reached, or was lost while the view still has it serving (it must not
  // get later writes without the ones lost with the connection).
  Connection* PeerConnection(int node_id);
  // The live link to `node_id`, never opened here; nullptr when none.
  Connection* PeerLink(int node_id);
  bool HasPeerLink(int node_id) const { return peers_.contains(node_id); }
  // `conn` (from `node_id`, which asked for a copy) becomes its link; an older one is closed.
  void AdoptPeerLink(int node_id, Connection* conn);
  // Forgets the link to `node_id` and closes it. False when there was none.
  bool DropPeer(int node_id);
  // Lost sight of a serving peer: logged, and options' on_peer_lost called, once per loss.
  void PeerLost(int node, absl::string_view why);
  bool IsLost(int node) const { return lost_peers_.contains(node); }
  void ClearLost(int node) { lost_peers_.erase(node); }

 private:
  void Accept();
  // A new link to the data node `node`: shared memory on this host, else TCP. Blocks ≤ 2 s.
  absl::StatusOr<std::unique_ptr<transport::Channel>> ConnectToPeer(
      const control::NodeStatus& node);
  // The hello, on a connection's first frame; a wrong one closes the connection.
  void Hello(Connection* conn, const wire::FrameHeader& header, absl::string_view body);

  DataPlaneOptions* options_;
  const NodeView* view_;
  const Dictionary* dictionary_;
  ConnectionEvents* events_;
  int port_ = 0;
  std::unique_ptr<transport::TcpListener> tcp_listener_;
  std::unique_ptr<transport::ShmListener> shm_listener_;
  absl::flat_hash_map<uint32_t, std::unique_ptr<Connection>> connections_;
  std::vector<uint32_t> ids_;  // scratch: connection ids to walk while connections_ may grow
  std::vector<transport::Channel*> sleeping_;  // PrepareToSleep() … WokeUp()
  bool blocked_output_ = false;                // PrepareToSleep(): replies a client is not taking
  absl::flat_hash_map<int, uint32_t> peers_;   // data node id → connection
  absl::flat_hash_set<int> lost_peers_;        // see PeerConnection
  absl::flat_hash_map<int, absl::Time> unreachable_until_;
  uint32_t next_connection_id_ = 1;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;

  Counter* frames_in_;
  Counter* frames_out_;
  Counter* connections_metric_;
  Counter* tls_refusals_;
  Counter* peer_links_shm_;  // links this node opened to its peers, by transport
  Counter* peer_links_tcp_;
  Counter* peer_links_tls_;
};

template <typename OnHeard, typename OnFrame>
bool Connections::Read(OnHeard on_heard, OnFrame on_frame) {
  std::vector<uint32_t> ids;
  ids.reserve(connections_.size());
  for (auto& [id, conn] : connections_) ids.push_back(id);
  bool worked = false;
  const absl::Time now = absl::Now();
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
      if (conn->data_node != 0) on_heard(conn->data_node);
      conn->heard_at = now;
      frames_in_->Increment();
      wire::FrameHeader header;
      absl::string_view body;
      if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) {
        Close(conn, "malformed frame header");
      } else if (!conn->hello_done) {
        Hello(conn, header, body);
      } else {
        on_frame(conn, header, body);
      }
      if (!conn->dead) conn->channel->Consume();
      worked = true;
    }
  }
  return worked;
}

// Inline: every result an LDM produces asks for its frame here.
inline wire::FrameBuilder* Connections::ReplyTo(uint32_t destination) {
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
  out.Begin(type, dictionary_->version());
  return &out;
}

inline Connection* Connections::Find(uint32_t id) {
  auto it = connections_.find(id);
  return it == connections_.end() ? nullptr : it->second.get();
}

}  // namespace shoal::node
