// The data node's DataMemory: every partition reserves memory from one budget, in pages,
// so that a full node answers "table is full" (1114) instead of exhausting the machine.
// Thread-safe (one atomic); partitions reserve whole pages, never per row.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shoal::storage {

class MemoryBudget {
 public:
  static constexpr size_t kPageSize = 64 * 1024;

  explicit MemoryBudget(uint64_t limit_bytes) : limit_(limit_bytes) {}

  // Reserves `bytes` (the caller rounds to pages); false, reserving nothing, past the limit.
  bool TryReserve(uint64_t bytes) {
    uint64_t used = used_.load(std::memory_order_relaxed);
    do {
      if (used + bytes > limit_) return false;
    } while (!used_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
  }
  void Release(uint64_t bytes) { used_.fetch_sub(bytes, std::memory_order_relaxed); }

  uint64_t used() const { return used_.load(std::memory_order_relaxed); }
  uint64_t limit() const { return limit_; }

 private:
  const uint64_t limit_;
  std::atomic<uint64_t> used_{0};
};

}  // namespace shoal::storage
