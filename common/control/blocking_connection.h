// BlockingConnection: one control-plane connection driven by blocking calls with deadlines,
// for tools and tests that play a node or an mgmd without an EventLoop (the event-driven kind
// is ControlChannel). Frames as in frame.h.
//
// Owned by its creator; one thread at a time.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"
#include "common/tls/link_context.h"

namespace shoal::control {

class BlockingConnection {
 public:
  // Connects to host:port within `timeout`; with `tls`, also finishes the TLS handshake (the
  // mgmd's certificate must name `host`) within it.
  static absl::StatusOr<BlockingConnection> Connect(const std::string& host, int port,
                                                    absl::Duration timeout,
                                                    const tls::LinkContext* tls = nullptr);
  // Takes ownership of the connected socket `fd`.
  static BlockingConnection Adopt(int fd, std::string peer);
  BlockingConnection(BlockingConnection&& other) noexcept;
  BlockingConnection& operator=(BlockingConnection&& other) noexcept;
  ~BlockingConnection();  // closes

  absl::Status Send(const ControlMessage& message, absl::Duration timeout = absl::Seconds(10));
  // The next message; DeadlineExceeded when none came within `timeout`, Unavailable once the
  // peer has closed the connection.
  absl::StatusOr<ControlMessage> Receive(absl::Duration timeout);
  void Close();

  const std::string& peer() const { return peer_; }

 private:
  BlockingConnection(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}
  absl::Status SendBytes(absl::string_view bytes, absl::Time deadline);
  // Waits for bytes and reads them (decrypted, with TLS) onto buffer_.
  absl::Status ReadMore(absl::Time deadline, absl::Duration timeout);
  absl::Status FinishHandshake(absl::Time deadline);

  int fd_ = -1;
  std::string peer_;
  std::string buffer_;                 // bytes read (and decrypted) but not yet decoded
  std::unique_ptr<tls::Channel> tls_;  // null: clear text
};

// A listening socket that accepts BlockingConnections (a fake mgmd, in tests).
class BlockingListener {
 public:
  // Listens on host:port (port 0: any free port).
  static absl::StatusOr<BlockingListener> Listen(const std::string& host, int port);
  BlockingListener(BlockingListener&& other) noexcept;
  BlockingListener& operator=(BlockingListener&& other) noexcept;
  ~BlockingListener();

  absl::StatusOr<BlockingConnection> Accept(absl::Duration timeout);
  int port() const { return port_; }

 private:
  BlockingListener(int fd, int port) : fd_(fd), port_(port) {}

  int fd_ = -1;
  int port_ = 0;
};

}  // namespace shoal::control
