// InProcessQueue: an SpscRing on the heap with an eventfd doorbell.
#include "engine/transport/in_process_queue.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/transport/doorbell.h"

namespace shoal::transport {

absl::StatusOr<std::unique_ptr<InProcessQueue>> InProcessQueue::Create(size_t capacity) {
  capacity = std::bit_ceil(std::max(capacity, SpscRing::kMinCapacity));
  const size_t bytes = SpscRing::RequiredBytes(capacity);
  // aligned_alloc wants a multiple of the alignment; the ring uses `bytes` of it.
  void* memory =
      std::aligned_alloc(kRingLineSize, (bytes + kRingLineSize - 1) & ~(kRingLineSize - 1));
  if (memory == nullptr) return absl::ResourceExhaustedError("cannot allocate a queue");
  absl::StatusOr<SpscRing> producer = SpscRing::Init(memory, bytes);
  absl::StatusOr<SpscRing> consumer =
      producer.ok() ? SpscRing::Attach(memory, bytes) : producer.status();
  if (!consumer.ok()) {
    std::free(memory);
    return consumer.status();
  }
  int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (fd < 0) {
    std::free(memory);
    return absl::InternalError(absl::StrCat("eventfd: ", std::strerror(errno)));
  }
  return std::unique_ptr<InProcessQueue>(
      new InProcessQueue(memory, fd, *std::move(producer), *std::move(consumer)));
}

InProcessQueue::InProcessQueue(void* memory, int doorbell_fd, SpscRing producer, SpscRing consumer)
    : memory_(memory), doorbell_fd_(doorbell_fd), producer_(producer), consumer_(consumer) {}

InProcessQueue::~InProcessQueue() {
  close(doorbell_fd_);
  std::free(memory_);
}

void InProcessQueue::Flush() {
  if (!unflushed_) return;
  unflushed_ = false;
  if (producer_.ConsumerSleeping()) RingDoorbell(doorbell_fd_);
}

void InProcessQueue::WokeUp() {
  DrainDoorbell(doorbell_fd_);
  consumer_.ClearSleep();
}

}  // namespace shoal::transport
