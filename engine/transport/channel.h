// A Channel carries native frames (engine/wire) between one native client and one data node,
// in both directions, without blocking. Two implementations carry the same frames:
//   ShmChannel — two single-producer/single-consumer rings in a shared memory segment, with
//                eventfd doorbells (same host);
//   TcpChannel — a non-blocking TCP socket (any host).
//
// A frame is opaque here except for its first 4 bytes, int<4> little-endian total length
// (header included), which TCP uses to find frame boundaries. Frames are at most
// kMaxFrameSize bytes.
//
// Owned by one thread: both ends of a channel are each used by exactly one thread at a time
// (the rings are single-producer/single-consumer per direction).
#pragma once

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace shoal::transport {

inline constexpr size_t kMaxFrameSize = 1 << 20;
// An incoming frame shorter than this is malformed (the channel reports DataLossError);
// every engine/wire frame is longer.
inline constexpr size_t kMinFrameSize = 8;

class Channel {
 public:
  virtual ~Channel() = default;

  // Copies one whole frame into the outgoing direction. Returns false, copying nothing, when
  // there is no room right now (back-pressure): keep the frame and try again after the peer
  // has read (nothing is ever dropped). REQUIRES: frame.size() <= kMaxFrameSize and
  // frame.size() >= 4 with the frame's own length in its first 4 bytes.
  virtual bool TryWrite(absl::string_view frame) = 0;
  // Makes written frames visible to the peer and wakes it if it sleeps: for TCP, writes as
  // much of the buffered output as the socket takes; for shared memory, rings the peer's
  // doorbell if the peer said it would sleep. An error means the channel is dead.
  virtual absl::Status Flush() = 0;
  // True while frames written are still waiting to leave this process (TCP) — the owner
  // should Flush() again once wait_fd()/writable allows.
  virtual bool HasPendingOutput() const = 0;

  // Pulls whatever has arrived (TCP: reads the socket until it would block; shared memory:
  // nothing to do). An error (peer closed, malformed length) means the channel is dead.
  virtual absl::Status Receive() = 0;
  // The next whole incoming frame, or empty when none is complete. The view stays valid
  // until Consume().
  virtual absl::string_view Peek() = 0;
  // Releases the frame Peek() returned.
  virtual void Consume() = 0;

  // Sleeping: the owner calls PrepareToSleep(); if it returns true, the owner may block until
  // wait_fd() is readable (poll/epoll), then calls WokeUp(). If it returns false, input arrived
  // meanwhile and the owner must not sleep.
  virtual bool PrepareToSleep() = 0;
  virtual void WokeUp() = 0;
  // Readable when input may be available (or the peer is gone). Never changes.
  virtual int wait_fd() const = 0;
  // For TCP a socket that can take more output makes this fd writable; -1 for shared memory.
  virtual int write_fd() const = 0;

  // Cheap liveness check the owner calls after waking up and every ~100 ms: an error when the
  // peer is gone (for shared memory, the Unix socket the segment came over has hung up).
  virtual absl::Status CheckAlive() = 0;

  virtual absl::string_view kind() const = 0;  // "shm" or "tcp"
};

}  // namespace shoal::transport
