#include "engine/storage/arena.h"

#include <cstdlib>

#include "common/logging.h"

namespace shoal::storage {
namespace {

// Class sizes: every 16 bytes up to 256, then four per doubling up to kMaxClassBytes.
std::vector<uint32_t> MakeClassSizes() {
  std::vector<uint32_t> sizes;
  for (uint32_t s = 32; s <= 256; s += 16) sizes.push_back(s);
  for (uint32_t base = 256; base < RowArena::kMaxClassBytes; base *= 2) {
    for (uint32_t q = 1; q <= 4; ++q) sizes.push_back(base + q * base / 4);
  }
  return sizes;
}

const std::vector<uint32_t>& ClassSizes() {
  static const std::vector<uint32_t>* sizes = new std::vector<uint32_t>(MakeClassSizes());
  return *sizes;
}

// Size class for every 16-byte granule up to kMaxClassBytes.
const std::vector<uint8_t>& GranuleClasses() {
  static const std::vector<uint8_t>* table = [] {
    auto* t = new std::vector<uint8_t>(RowArena::kMaxClassBytes / 16 + 1);
    const std::vector<uint32_t>& sizes = ClassSizes();
    size_t c = 0;
    for (size_t g = 0; g < t->size(); ++g) {
      while (sizes[c] < g * 16) ++c;
      (*t)[g] = static_cast<uint8_t>(c);
    }
    return t;
  }();
  return *table;
}

uint64_t RoundUp(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

}  // namespace

RowArena::RowArena(MemoryBudget* budget) : budget_(budget) {
  const std::vector<uint32_t>& sizes = ClassSizes();
  classes_.resize(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) classes_[i].bytes = sizes[i];
}

RowArena::~RowArena() {
  for (char* page : pages_) std::free(page);
  budget_->Release(page_bytes_ + index_bytes_);
  // Dedicated chunks are freed by their owners (the partition frees every row it holds).
  SHOAL_DCHECK(chunk_bytes_ == 0) << "dedicated chunks leaked: " << chunk_bytes_;
}

int RowArena::ClassOf(size_t bytes) {
  if (bytes > kMaxClassBytes) return -1;
  return GranuleClasses()[(bytes + 15) / 16];
}

void* RowArena::Allocate(size_t bytes, uint8_t* size_class, uint32_t* block_bytes) {
  int c = ClassOf(bytes);
  if (c < 0) {
    uint64_t accounted = RoundUp(bytes, 64);
    if (!budget_->TryReserve(accounted)) return nullptr;
    void* chunk = std::malloc(accounted);
    SHOAL_CHECK(chunk != nullptr) << "out of memory";
    chunk_bytes_ += accounted;
    *size_class = kDedicated;
    *block_bytes = static_cast<uint32_t>(accounted);
    return chunk;
  }
  SizeClass& sc = classes_[c];
  *size_class = static_cast<uint8_t>(c);
  *block_bytes = sc.bytes;
  if (sc.free != nullptr) {
    FreeBlock* block = sc.free;
    sc.free = block->next;
    return block;
  }
  if (static_cast<size_t>(sc.end - sc.bump) < sc.bytes) {
    if (!budget_->TryReserve(MemoryBudget::kPageSize)) return nullptr;
    char* page = static_cast<char*>(std::malloc(MemoryBudget::kPageSize));
    SHOAL_CHECK(page != nullptr) << "out of memory";
    pages_.push_back(page);
    page_bytes_ += MemoryBudget::kPageSize;
    sc.bump = page;
    sc.end = page + MemoryBudget::kPageSize;
  }
  void* block = sc.bump;
  sc.bump += sc.bytes;
  return block;
}

void RowArena::Free(void* block, uint8_t size_class, uint32_t block_bytes) {
  if (size_class == kDedicated) {
    std::free(block);
    chunk_bytes_ -= block_bytes;
    budget_->Release(block_bytes);
    return;
  }
  SizeClass& sc = classes_[size_class];
  auto* free_block = static_cast<FreeBlock*>(block);
  free_block->next = sc.free;
  sc.free = free_block;
}

bool RowArena::ReserveIndexEntries(uint64_t entries) {
  const uint64_t need = entries * kIndexEntryBytes;
  if (need > index_bytes_) {
    uint64_t more = RoundUp(need - index_bytes_, MemoryBudget::kPageSize);
    if (!budget_->TryReserve(more)) return false;
    index_bytes_ += more;
  } else if (index_bytes_ - need > 2 * MemoryBudget::kPageSize) {
    // Keep one page of slack so that a row coming and going does not churn the budget.
    uint64_t keep = RoundUp(need, MemoryBudget::kPageSize) + MemoryBudget::kPageSize;
    budget_->Release(index_bytes_ - keep);
    index_bytes_ = keep;
  }
  return true;
}

}  // namespace shoal::storage
