// The TCP transport (any host): frames back to back on a non-blocking socket with
// TCP_NODELAY, each found by its first 4 bytes (int<4> little-endian total length).
//
// A stream whose next length is below kMinFrameSize or above kMaxFrameSize is malformed:
// Receive() then returns DataLossError (and Peek() stays empty), and the channel is dead.
// When the peer closes, frames that had fully arrived are still delivered; Receive() returns
// UnavailableError once none is left.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/transport/channel.h"

namespace shoal::transport {

// TryWrite refuses a frame while this much output waits for the socket (the frame would
// still be accepted into an empty buffer), so memory per connection stays bounded.
inline constexpr size_t kTcpOutputHighWater = 4 << 20;
// Receive stops reading while this much input waits to be consumed.
inline constexpr size_t kTcpInputHighWater = 4 << 20;

// Wraps a connected socket (made non-blocking, TCP_NODELAY set). Takes ownership of `fd`.
std::unique_ptr<Channel> NewTcpChannel(int fd);

// A non-blocking listening TCP socket. Owned by one thread, used by that thread only.
class TcpListener {
 public:
  // Listens on host:port; port 0 picks a free port (see port()).
  static absl::StatusOr<std::unique_ptr<TcpListener>> Listen(const std::string& host, int port);
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  int fd() const { return fd_; }  // readable when a connection is pending
  int port() const { return port_; }

  // One pending connection, or nullptr (with OK) when none is pending. An error concerns that
  // one connection or a transient condition (EMFILE): keep listening.
  absl::StatusOr<std::unique_ptr<Channel>> Accept();

 private:
  TcpListener(int fd, int port) : fd_(fd), port_(port) {}

  int fd_;
  int port_;
};

// Connects to host:port, trying each resolved address until `timeout`. Blocks.
absl::StatusOr<std::unique_ptr<Channel>> ConnectTcp(const std::string& host, int port,
                                                    absl::Duration timeout);

}  // namespace shoal::transport
