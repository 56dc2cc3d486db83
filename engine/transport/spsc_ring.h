// SpscRing: a single-producer/single-consumer ring of variable-length records in memory the
// caller provides — a shared memory segment between two processes (ShmChannel) or heap memory
// between two threads (InProcessQueue).
//
// Memory layout (RingHeader, then the data area; every integer native-endian, both sides are
// on one host):
//   line 0    uint32 magic "SHRG" | uint32 version | uint64 capacity (bytes of data area)
//   line 1    atomic<uint64> head   producer position: bytes ever committed (incl. padding)
//   line 2    atomic<uint64> tail   consumer position: bytes ever released
//   line 3    atomic<uint32> consumer_sleeping
//   data      `capacity` bytes (a power of two), record slots at 8-byte aligned offsets
// A record slot is `uint32 length | length bytes | pad to 8`; slots never wrap: when a record
// does not fit before the end of the data area, the producer writes a padding marker
// (length 0xFFFFFFFF) that sends the consumer back to offset 0. Positions only grow; the
// offset of a position is `position & (capacity - 1)`.
//
// Publication: the producer writes a record, then stores head with release; the consumer
// loads head with acquire before reading, and releases the slot by storing tail with release.
// Each side caches the other's position and reloads it only when the cache says the ring is
// full (producer) or empty (consumer), so the position lines are not bounced per record.
//
// Sleeping (Dekker with seq_cst): the consumer stores consumer_sleeping = 1, then re-loads
// head; the producer, after committing, does a seq_cst read-modify-write of head and then
// loads consumer_sleeping. At least one of the two sees the other's store, so a consumer that
// decides to sleep is always woken.
//
// The other side may be hostile or broken: positions and lengths read from the shared memory
// are validated before use; anything out of range marks the ring corrupted() — the owner
// drops the connection — and is never dereferenced. Record contents may still change under the
// consumer while it reads them (they live in shared memory); parsers must not trust them.
//
// A handle (SpscRing) is process-local and cheap to copy, but holds its side's cached
// positions: keep exactly one live handle per side. The producer's calls
// (Reserve, Commit, TryPush, ConsumerSleeping) are made by one thread, the consumer's (Front,
// Pop, PrepareSleep, ClearSleep) by one thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::transport {

inline constexpr size_t kRingLineSize = 128;  // two 64-byte lines: adjacent-line prefetch

struct RingHeader {
  static constexpr uint32_t kMagic = 0x47524853;  // "SHRG"
  static constexpr uint32_t kVersion = 1;

  uint32_t magic;
  uint32_t version;
  uint64_t capacity;
  alignas(kRingLineSize) std::atomic<uint64_t> head;
  alignas(kRingLineSize) std::atomic<uint64_t> tail;
  alignas(kRingLineSize) std::atomic<uint32_t> consumer_sleeping;
};
static_assert(std::is_standard_layout_v<RingHeader>);
static_assert(std::atomic<uint64_t>::is_always_lock_free);
static_assert(std::atomic<uint32_t>::is_always_lock_free);
static_assert(sizeof(RingHeader) == 4 * kRingLineSize);

class SpscRing {
 public:
  static constexpr size_t kHeaderBytes = sizeof(RingHeader);
  static constexpr size_t kMinCapacity = 64;
  static constexpr uint32_t kPaddingMarker = 0xFFFFFFFF;

  // Bytes of memory a ring with `capacity` bytes of data area needs.
  // REQUIRES: capacity is a power of two >= kMinCapacity.
  static size_t RequiredBytes(size_t capacity) { return kHeaderBytes + capacity; }
  // The largest record a ring of `capacity` takes: half of it, less the length prefix, so a
  // record always fits once the consumer has caught up, wherever the positions are.
  static size_t MaxRecordSize(size_t capacity) { return capacity / 2 - 4; }

  // Formats `mem` as an empty ring whose capacity is the largest power of two that fits in
  // `bytes` after the header. The memory must stay mapped while any handle is used.
  // REQUIRES: `mem` is aligned to kRingLineSize.
  static absl::StatusOr<SpscRing> Init(void* mem, size_t bytes);
  // A handle on a ring another side formatted: checks magic, version, that the capacity is a
  // power of two matching `bytes` exactly, and that the positions are in range.
  static absl::StatusOr<SpscRing> Attach(void* mem, size_t bytes);

  SpscRing() = default;

  size_t capacity() const { return capacity_; }
  size_t max_record_size() const { return MaxRecordSize(capacity_); }
  // True once the other side broke the ring's invariants; every call then refuses to work.
  bool corrupted() const { return corrupted_; }

  // Producer. Room for a record of `n` bytes, or nullptr when there is none right now (or n is
  // 0 or exceeds max_record_size(), or the ring is corrupted). Valid until Commit().
  uint8_t* Reserve(size_t n);
  // Publishes the reserved record with its first `n` bytes. REQUIRES: n <= the reserved size.
  void Commit(size_t n);
  // Reserve + copy + Commit. False, copying nothing, when there is no room.
  bool TryPush(absl::string_view record);
  // Call after committing, before deciding to ring the consumer's doorbell: true when the
  // consumer announced it is going to sleep, so the caller must wake it. Claims the wake-up
  // (clears the flag), so later calls return false until the consumer announces again.
  bool ConsumerSleeping();

  // Consumer. The next record, or empty when there is none (or the ring is corrupted). The
  // view points into the ring and stays valid until Pop().
  absl::string_view Front();
  // Releases the record Front() returned. REQUIRES: Front() returned a record.
  void Pop();
  // Announces sleep, then re-checks: false (flag cleared) when data arrived meanwhile and the
  // consumer must not sleep; true when any later Commit will see the flag.
  bool PrepareSleep();
  // After waking (or deciding not to sleep after all).
  void ClearSleep();

 private:
  SpscRing(RingHeader* header, uint8_t* data, size_t capacity);
  static size_t SlotSize(size_t n) { return (n + 4 + 7) & ~size_t{7}; }
  bool ValidHead(uint64_t head) const;

  RingHeader* header_ = nullptr;
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  uint64_t mask_ = 0;
  bool corrupted_ = false;

  // Producer side.
  uint64_t head_ = 0;         // next position to write (published up to here after Commit)
  uint64_t cached_tail_ = 0;  // the consumer's position as last seen
  uint64_t reserved_at_ = 0;  // offset of the reserved slot
  uint64_t reserved_pad_ = 0;
  size_t reserved_size_ = 0;

  // Consumer side.
  uint64_t tail_ = 0;         // next position to read (published at Pop)
  uint64_t cached_head_ = 0;  // the producer's position as last seen
  size_t front_slot_ = 0;     // slot size of the record Front() returned, 0 when none
};

}  // namespace shoal::transport
