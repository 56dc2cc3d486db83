// Memory for row versions: per-partition pages reserved from the node's MemoryBudget, carved
// into blocks of a few size classes with a free list per class, so a freed row is reused by the
// next row of its size class without touching the budget. Blocks too large for a page's
// quarter get a dedicated allocation, accounted in the budget by itself. Also accounts index
// entries (hash and ordered indexes) at a flat cost per entry, in pages, so that a full node
// refuses writes (1114) rather than growing its indexes without bound.
//
// Owned by one Partition; single-threaded (the budget is the only shared thing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/storage/memory_budget.h"

namespace shoal::storage {

class RowArena {
 public:
  static constexpr uint8_t kDedicated = 255;
  static constexpr size_t kMaxClassBytes = MemoryBudget::kPageSize / 4;
  // What one index entry is assumed to cost: a flat_hash_set slot is 8-16 bytes, an ordered
  // index's 16-byte IndexEntry with its share of btree nodes 20-24 at usual fill.
  static constexpr uint64_t kIndexEntryBytes = 24;

  explicit RowArena(MemoryBudget* budget);
  ~RowArena();  // frees every page and chunk and returns them to the budget
  RowArena(const RowArena&) = delete;
  RowArena& operator=(const RowArena&) = delete;

  // A block of at least `bytes` (8-aligned), or null when the budget refuses. `*size_class`
  // and `*block_bytes` are what Free needs back.
  void* Allocate(size_t bytes, uint8_t* size_class, uint32_t* block_bytes);
  void Free(void* block, uint8_t size_class, uint32_t block_bytes);

  // Makes sure `entries` index entries in total are paid for; false (changing nothing) when
  // the budget refuses. Releases surplus pages when entries shrink.
  bool ReserveIndexEntries(uint64_t entries);

  uint64_t reserved_bytes() const { return page_bytes_ + chunk_bytes_ + index_bytes_; }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  struct SizeClass {
    uint32_t bytes = 0;
    FreeBlock* free = nullptr;
    char* bump = nullptr;  // next unused byte of the class's current page
    char* end = nullptr;
  };
  static int ClassOf(size_t bytes);

  MemoryBudget* budget_;
  std::vector<SizeClass> classes_;
  std::vector<char*> pages_;
  uint64_t page_bytes_ = 0;
  uint64_t chunk_bytes_ = 0;
  uint64_t index_bytes_ = 0;  // reserved for index entries, whole pages
};

}  // namespace shoal::storage
