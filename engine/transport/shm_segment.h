// ShmSegment: the resources of one shared-memory connection — the Unix socket it was set up
// over, the mapped memfd holding the two rings, and the two eventfd doorbells — and the
// handshake that passes them from the data node to the client (layout in shm_channel.h).
// Internal to the shared-memory transport. Move-only; closes and unmaps what it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/transport/spsc_ring.h"

namespace shoal::transport {

struct ShmHello {
  uint32_t magic;
  uint16_t version;
  uint16_t reserved;
  uint64_t ring_capacity;
  uint64_t segment_bytes;
};

class ShmSegment {
 public:
  // Data node side: takes ownership of `socket` (an accepted connection), creates, seals and
  // maps a segment with two empty rings of `ring_capacity`, and two doorbells.
  static absl::StatusOr<ShmSegment> Create(int socket, size_t ring_capacity);
  // Data node side: sends the hello with the memfd and both doorbells (then closes the memfd).
  absl::Status SendHello();
  // Client side: takes ownership of `socket` (connected), waits until `deadline` for the hello,
  // validates it against the memfd's real size and seals, and maps the segment. While it
  // waits, `while_waiting` runs every millisecond or so.
  static absl::StatusOr<ShmSegment> Receive(int socket, absl::Time deadline,
                                            absl::FunctionRef<void()> while_waiting);

  ShmSegment() = default;
  ShmSegment(ShmSegment&& other) noexcept { *this = std::move(other); }
  ShmSegment& operator=(ShmSegment&& other) noexcept;
  ~ShmSegment() { Reset(); }

  // A handle on ring `index` (0: client → node, 1: node → client); validates its header.
  absl::StatusOr<SpscRing> Ring(int index) const;

  static size_t SegmentBytes(size_t ring_capacity) {
    return 2 * SpscRing::RequiredBytes(ring_capacity);
  }

  int socket = -1;
  int own_doorbell = -1;   // this side sleeps on it
  int peer_doorbell = -1;  // this side rings it
  int memfd = -1;
  void* base = nullptr;
  size_t bytes = 0;
  size_t ring_capacity = 0;

 private:
  void Reset();
  absl::Status Map();
};

}  // namespace shoal::transport
