// The TCP transport (any host): frames back to back on a non-blocking socket with
// TCP_NODELAY, each found by its first 4 bytes (int<4> little-endian total length).
//
// A stream whose next length is below kMinFrameSize or above kMaxFrameSize is malformed:
// Receive() then returns DataLossError (and Peek() stays empty), and the channel is dead.
// When the peer closes, frames that had fully arrived are still delivered; Receive() returns
// UnavailableError once none is left. Between hosts the stream may be TLS (NewTlsServerChannel,
// NewTlsClientChannel): the same frames, encrypted, between mutually verified cluster members.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/tls/link_context.h"
#include "engine/transport/channel.h"

namespace shoal::transport {

// TryWrite refuses a frame while this much output waits for the socket (the frame would
// still be accepted into an empty buffer), so memory per connection stays bounded.
inline constexpr size_t kTcpOutputHighWater = 4 << 20;
// Receive stops reading while this much input waits to be consumed.
inline constexpr size_t kTcpInputHighWater = 4 << 20;

// Wraps a connected socket (made non-blocking, TCP_NODELAY set). Takes ownership of `fd`.
std::unique_ptr<Channel> NewTcpChannel(int fd);

// The same with the frames inside TLS (common/tls/link_context.h): the accepting end, and the
// connecting end, whose peer must prove it is a member of the cluster named `host`. Both
// handshakes run as the channel is used — frames written meanwhile leave once it has finished —
// so two data nodes connecting to each other never wait on each other; a failed handshake
// (another CA, another host, clear text) makes Receive() fail with OpenSSL's reason.
std::unique_ptr<Channel> NewTlsServerChannel(int fd, const tls::LinkContext& tls);
std::unique_ptr<Channel> NewTlsClientChannel(int fd, const tls::LinkContext& tls,
                                             const std::string& host);

// A non-blocking listening TCP socket. Owned by one thread, used by that thread only.
class TcpListener {
 public:
  // Listens on host:port; port 0 picks a free port (see port()). With `tls` (which must
  // outlive the listener), every connection accepted is a TLS one.
  static absl::StatusOr<std::unique_ptr<TcpListener>> Listen(const std::string& host, int port,
                                                             const tls::LinkContext* tls = nullptr);
  ~TcpListener();
  TcpListener(const TcpListener&) = delete;
  TcpListener& operator=(const TcpListener&) = delete;

  int fd() const { return fd_; }  // readable when a connection is pending
  int port() const { return port_; }

  // One pending connection, or nullptr (with OK) when none is pending. An error concerns that
  // one connection or a transient condition (EMFILE): keep listening.
  absl::StatusOr<std::unique_ptr<Channel>> Accept();

 private:
  TcpListener(int fd, int port, const tls::LinkContext* tls) : fd_(fd), port_(port), tls_(tls) {}

  int fd_;
  int port_;
  const tls::LinkContext* tls_;
};

// Connects to host:port, trying each resolved address until `timeout`. Blocks. With `tls`,
// the channel is a TLS one (NewTlsClientChannel).
absl::StatusOr<std::unique_ptr<Channel>> ConnectTcp(const std::string& host, int port,
                                                    absl::Duration timeout,
                                                    const tls::LinkContext* tls = nullptr);

}  // namespace shoal::transport
