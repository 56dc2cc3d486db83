// The shared-memory transport (same host): per connection, the data node creates a memfd
// segment holding two SpscRings (client → node, then node → client) and two eventfd
// doorbells, and hands them to the client over a Unix stream socket with SCM_RIGHTS.
//
// Handshake (node → client, one message on the Unix socket, native-endian):
//   uint32 magic "SHMC" | uint16 version | uint16 0 | uint64 ring capacity | uint64 segment size
//   ancillary SCM_RIGHTS: memfd, node's doorbell (the client rings it), client's doorbell
// The segment is sealed against shrinking and growing, so a peer cannot make the other's
// mapping fault. The Unix socket then stays open, silent, for the connection's life: its
// hangup is how each side learns the other is gone (CheckAlive, and wait_fd() turns readable).
#pragma once

#include <memory>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/transport/channel.h"

namespace shoal::transport {

inline constexpr uint32_t kShmHelloMagic = 0x434D4853;  // "SHMC"
inline constexpr uint16_t kShmHelloVersion = 1;
// Ring capacities a client accepts (a ring must hold a kMaxFrameSize frame).
inline constexpr size_t kShmMinRingCapacity = 4 << 20;
inline constexpr size_t kShmMaxRingCapacity = size_t{1} << 30;

// The data node's side: a non-blocking listening Unix socket. Owned by the data node's
// data-plane thread; used by that thread only.
class ShmListener {
 public:
  // Listens on `path` (a stale socket file there is replaced). Each connection gets two rings
  // of `ring_bytes` of data each, rounded up to a power of two of at least kShmMinRingCapacity.
  static absl::StatusOr<std::unique_ptr<ShmListener>> Listen(const std::string& path,
                                                             size_t ring_bytes);
  ~ShmListener();  // closes the socket and removes the socket file
  ShmListener(const ShmListener&) = delete;
  ShmListener& operator=(const ShmListener&) = delete;

  // Readable when a connection is pending.
  int fd() const { return fd_; }
  size_t ring_capacity() const { return ring_capacity_; }

  // One pending connection with its segment and doorbells set up and sent; nullptr (with OK)
  // when none is pending. An error concerns that one connection (e.g. the client already left,
  // or out of memory): keep listening.
  absl::StatusOr<std::unique_ptr<Channel>> Accept();

 private:
  ShmListener(int fd, std::string path, size_t ring_capacity)
      : fd_(fd), path_(std::move(path)), ring_capacity_(ring_capacity) {}

  int fd_;
  std::string path_;
  size_t ring_capacity_;
};

// The client's side: connects to the listener at `path`, waits up to `timeout` for the
// segment, validates and maps it. Blocks; for start-up and connection set-up only. A data node
// connecting to a peer passes `while_waiting` (run every millisecond or so while it waits) to
// accept the peer's own connection meanwhile: two nodes connecting to each other at once
// would otherwise each wait for the other's accept.
absl::StatusOr<std::unique_ptr<Channel>> ConnectShm(
    const std::string& path, absl::Duration timeout,
    absl::FunctionRef<void()> while_waiting = [] {});

}  // namespace shoal::transport
