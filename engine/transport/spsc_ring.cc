// SpscRing: see the layout and the protocols in spsc_ring.h.
#include "engine/transport/spsc_ring.h"

#include <bit>
#include <cstring>
#include <new>

#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::transport {
namespace {

bool Aligned(const void* mem) { return reinterpret_cast<uintptr_t>(mem) % kRingLineSize == 0; }

}  // namespace

SpscRing::SpscRing(RingHeader* header, uint8_t* data, size_t capacity)
    : header_(header), data_(data), capacity_(capacity), mask_(capacity - 1) {}

absl::StatusOr<SpscRing> SpscRing::Init(void* mem, size_t bytes) {
  if (!Aligned(mem)) return absl::InvalidArgumentError("ring memory is not aligned");
  if (bytes < kHeaderBytes + kMinCapacity) {
    return absl::InvalidArgumentError(absl::StrCat("ring memory too small: ", bytes, " bytes"));
  }
  size_t capacity = std::bit_floor(bytes - kHeaderBytes);
  auto* header = new (mem) RingHeader();
  header->magic = RingHeader::kMagic;
  header->version = RingHeader::kVersion;
  header->capacity = capacity;
  header->head.store(0, std::memory_order_relaxed);
  header->tail.store(0, std::memory_order_relaxed);
  header->consumer_sleeping.store(0, std::memory_order_release);
  return SpscRing(header, static_cast<uint8_t*>(mem) + kHeaderBytes, capacity);
}

absl::StatusOr<SpscRing> SpscRing::Attach(void* mem, size_t bytes) {
  if (!Aligned(mem)) return absl::InvalidArgumentError("ring memory is not aligned");
  if (bytes < kHeaderBytes + kMinCapacity) {
    return absl::DataLossError(absl::StrCat("ring memory too small: ", bytes, " bytes"));
  }
  auto* header = static_cast<RingHeader*>(mem);
  if (header->magic != RingHeader::kMagic || header->version != RingHeader::kVersion) {
    return absl::DataLossError("ring header: bad magic or version");
  }
  const uint64_t capacity = header->capacity;
  if (capacity < kMinCapacity || !std::has_single_bit(capacity) ||
      capacity > bytes - kHeaderBytes) {
    return absl::DataLossError(absl::StrCat("ring header: bad capacity ", capacity));
  }
  const uint64_t head = header->head.load(std::memory_order_acquire);
  const uint64_t tail = header->tail.load(std::memory_order_acquire);
  if (tail > head || head - tail > capacity || head % 8 != 0 || tail % 8 != 0) {
    return absl::DataLossError("ring header: positions out of range");
  }
  SpscRing ring(header, static_cast<uint8_t*>(mem) + kHeaderBytes, capacity);
  ring.head_ = head;
  ring.cached_tail_ = tail;
  ring.tail_ = tail;
  ring.cached_head_ = head;
  return ring;
}

uint8_t* SpscRing::Reserve(size_t n) {
  if (corrupted_ || n == 0 || n > max_record_size()) return nullptr;
  const size_t slot = SlotSize(n);
  const uint64_t offset = head_ & mask_;
  const uint64_t to_end = capacity_ - offset;
  const uint64_t pad = slot > to_end ? to_end : 0;
  const uint64_t need = pad + slot;
  if (capacity_ - (head_ - cached_tail_) < need) {
    const uint64_t tail = header_->tail.load(std::memory_order_acquire);
    if (tail < cached_tail_ || tail > head_ || tail % 8 != 0) {
      corrupted_ = true;  // the consumer moved backwards or past what was written
      return nullptr;
    }
    cached_tail_ = tail;
    if (capacity_ - (head_ - tail) < need) return nullptr;
  }
  if (pad != 0) std::memcpy(data_ + offset, &kPaddingMarker, 4);
  reserved_at_ = pad != 0 ? 0 : offset;
  reserved_pad_ = pad;
  reserved_size_ = n;
  return data_ + reserved_at_ + 4;
}

void SpscRing::Commit(size_t n) {
  SHOAL_DCHECK(n > 0 && n <= reserved_size_) << n << " > " << reserved_size_;
  const uint32_t length = static_cast<uint32_t>(n);
  std::memcpy(data_ + reserved_at_, &length, 4);
  head_ += reserved_pad_ + SlotSize(n);
  reserved_size_ = 0;
  header_->head.store(head_, std::memory_order_release);
}

bool SpscRing::TryPush(absl::string_view record) {
  uint8_t* dst = Reserve(record.size());
  if (dst == nullptr) return false;
  std::memcpy(dst, record.data(), record.size());
  Commit(record.size());
  return true;
}

bool SpscRing::ConsumerSleeping() {
  // The read-modify-write puts our head store in the seq_cst order before the flag load (a
  // fence would do, but ThreadSanitizer does not model fences); see the header comment.
  header_->head.fetch_add(0, std::memory_order_seq_cst);
  if (header_->consumer_sleeping.load(std::memory_order_seq_cst) == 0) return false;
  return header_->consumer_sleeping.exchange(0, std::memory_order_seq_cst) != 0;
}

bool SpscRing::ValidHead(uint64_t head) const {
  return head >= tail_ && head - tail_ <= capacity_ && head % 8 == 0;
}

absl::string_view SpscRing::Front() {
  if (corrupted_) return {};
  for (;;) {
    if (tail_ == cached_head_) {
      const uint64_t head = header_->head.load(std::memory_order_acquire);
      if (!ValidHead(head)) {
        corrupted_ = true;
        return {};
      }
      cached_head_ = head;
      if (tail_ == head) return {};
    }
    const uint64_t offset = tail_ & mask_;
    const uint64_t available = cached_head_ - tail_;
    uint32_t length;
    std::memcpy(&length, data_ + offset, 4);
    if (length == kPaddingMarker) {
      const uint64_t to_end = capacity_ - offset;
      if (to_end > available) {
        corrupted_ = true;
        return {};
      }
      tail_ += to_end;  // published with the next Pop
      continue;
    }
    const size_t slot = SlotSize(length);
    if (length == 0 || length > max_record_size() || slot > available ||
        slot > capacity_ - offset) {
      corrupted_ = true;
      return {};
    }
    front_slot_ = slot;
    return absl::string_view(reinterpret_cast<const char*>(data_ + offset + 4), length);
  }
}

void SpscRing::Pop() {
  SHOAL_DCHECK(front_slot_ != 0) << "Pop() without a record from Front()";
  tail_ += front_slot_;
  front_slot_ = 0;
  header_->tail.store(tail_, std::memory_order_release);
}

bool SpscRing::PrepareSleep() {
  if (corrupted_) return false;
  header_->consumer_sleeping.store(1, std::memory_order_seq_cst);
  if (header_->head.load(std::memory_order_seq_cst) != tail_) {
    header_->consumer_sleeping.store(0, std::memory_order_relaxed);
    return false;
  }
  return true;
}

void SpscRing::ClearSleep() { header_->consumer_sleeping.store(0, std::memory_order_relaxed); }

}  // namespace shoal::transport
