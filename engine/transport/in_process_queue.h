// InProcessQueue: a single-producer/single-consumer queue of byte records between two threads
// of one process (the data node's threads), an SpscRing over heap memory plus an eventfd
// doorbell with the same sleep protocol as the shared-memory channel: the producer rings only
// when the consumer announced it is going to sleep.
//
// Owned by whoever wires the two threads together; the producer methods are called by one
// thread, the consumer methods by one (other) thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/transport/spsc_ring.h"

namespace shoal::transport {

class InProcessQueue {
 public:
  // A queue holding up to `capacity` bytes of records (rounded up to a power of two; records
  // up to half of it).
  static absl::StatusOr<std::unique_ptr<InProcessQueue>> Create(size_t capacity);
  ~InProcessQueue();
  InProcessQueue(const InProcessQueue&) = delete;
  InProcessQueue& operator=(const InProcessQueue&) = delete;

  size_t max_record_size() const { return producer_.max_record_size(); }

  // Producer thread.
  uint8_t* Reserve(size_t n) { return producer_.Reserve(n); }
  void Commit(size_t n) {
    producer_.Commit(n);
    unflushed_ = true;
  }
  bool TryPush(absl::string_view record) {
    if (!producer_.TryPush(record)) return false;
    unflushed_ = true;
    return true;
  }
  // Wakes the consumer if it sleeps. Call after a batch of pushes (or after each one).
  void Flush();

  // Consumer thread.
  absl::string_view Front() { return consumer_.Front(); }
  void Pop() { consumer_.Pop(); }
  // True: the caller may block until wait_fd() is readable, then must call WokeUp().
  // False: records arrived meanwhile; do not sleep.
  bool PrepareToSleep() { return consumer_.PrepareSleep(); }
  void WokeUp();
  int wait_fd() const { return doorbell_fd_; }

 private:
  InProcessQueue(void* memory, int doorbell_fd, SpscRing producer, SpscRing consumer);

  void* memory_;
  int doorbell_fd_;
  // Each handle is touched by its own thread only; keep them on separate lines.
  alignas(kRingLineSize) SpscRing producer_;
  bool unflushed_ = false;
  alignas(kRingLineSize) SpscRing consumer_;
};

}  // namespace shoal::transport
