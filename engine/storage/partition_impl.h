// Partition's implementation, shared by partition*.cc. Private to engine/storage.
//
// Versions and visibility (row_layout.h has the row format): a head's `owner` is the
// transaction holding its lock. Reader r of entry e sees:
//   e a before-image: its data, unless r owns its head (r sees its own head instead);
//   e a head: unlocked or owned by r -> the head (none if r deleted it); owned by another ->
//     none if inserted by it, else the before-image when it shares this index position with
//     the head (its split_mask bit is clear), the head when there is none.
// Every transaction that touched a row lists it in txns_ (Row::txn_slot is its position), so
// Commit and Abort visit exactly their rows. Autocommit operations run as kAutoTxn and commit
// before returning.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/storage/arena.h"
#include "engine/storage/index.h"
#include "engine/storage/partition.h"
#include "engine/storage/row_layout.h"

namespace shoal::storage {

// The id autocommit operations run under inside a partition; never held between calls.
// (Clients' transaction ids keep bit 63 clear; data nodes' own ids never set every bit.)
inline constexpr TxnId kAutoTxn = ~TxnId{0};
inline constexpr int kMaxIndexes = 64;  // Row::split_mask bits

struct IndexState {
  IndexState(const Layout* layout, const schema::IndexDef& def);

  IndexInfo info;
  OrderedIndex ordered;
  std::unique_ptr<UniqueIndex> unique;  // unique secondary indexes only
  uint64_t split_entries = 0;           // before-images with their own entry here
};

class Partition::Impl {
 public:
  Impl(const schema::TableDef* table, MemoryBudget* budget);
  ~Impl();

  OpResult SetTable(const schema::TableDef* table);
  void SetObserver(CommitObserver* observer, uint32_t index) {
    observer_ = observer;
    index_ = index;
  }
  OpResult Read(TxnId txn, absl::string_view key, absl::Span<const uint16_t> columns, LockMode lock,
                schema::RowWriter* out);
  OpResult ReadUnique(TxnId txn, int index, absl::string_view key,
                      absl::Span<const uint16_t> columns, LockMode lock, schema::RowWriter* out);
  OpResult Insert(TxnId txn, absl::string_view row, bool replace);
  OpResult Modify(TxnId txn, absl::string_view key, absl::string_view filter,
                  absl::string_view program, bool is_delete);
  ScanBatch Scan(const ScanSpec& spec, schema::RowWriter* out);
  void Commit(TxnId txn);
  void Abort(TxnId txn);
  bool HasTransaction(TxnId txn) const { return txns_.contains(txn); }
  void Export(Partition::ExportFn emit, schema::RowWriter* scratch);
  uint64_t row_count() const { return row_count_; }
  uint64_t memory_bytes() const { return arena_.reserved_bytes(); }
  uint64_t max_auto_increment() const { return max_auto_increment_; }

 private:
  int index_count() const { return static_cast<int>(indexes_.size()); }
  // The head with primary key `key` (as sent, or already in its collation form).
  Row* FindHead(absl::string_view key) {
    if (layout_.pk_folds_case) return FindFoldedHead(key);
    auto it = pk_.find(key);
    return it == pk_.end() ? nullptr : *it;
  }
  Row* FindFoldedHead(absl::string_view key);  // out of line: most keys fold nothing
  // Version of head `h` a primary-key reader sees without locking; null for none.
  static Row* HeadVersion(Row* h, TxnId txn);
  // Version entry `e` of ordered index `index` shows; with a lock, a row held by another
  // transaction sets *result to kLocked.
  Row* View(Row* e, int index, TxnId txn, LockMode lock, OpResult* result) const;
  void Touch(TxnId txn, Row* h);
  void Output(const Row* v, absl::Span<const uint16_t> columns, schema::RowWriter* out);
  bool ColumnsValid(absl::Span<const uint16_t> columns) const;

  // partition_write.cc
  OpResult ValidateRow(absl::string_view row);  // splits into new_fields_, key into new_key_
  OpResult CheckUnique(TxnId txn, int index, const schema::Field* fields, const Row* self);
  // kDuplicateKey on unique index `index`, naming the key the new row's `fields` give it.
  OpResult DuplicateUnique(int index, const schema::Field* fields) const;
  OpResult InsertNew(TxnId txn, absl::string_view row);
  OpResult ReplaceData(TxnId txn, Row* h, absl::string_view row, bool undelete);
  Row* Relocate(Row* h, Row* to, absl::string_view row, uint64_t changed);
  void DeleteRow(TxnId txn, Row* h);
  void TrackAutoIncrement(const schema::Field* fields);
  Row* NewBlock(size_t data_bytes);
  void FreeBlock(Row* r) { arena_.Free(r, r->size_class, r->capacity + sizeof(Row)); }
  void InsertEntry(int index, Row* r);
  void EraseEntry(int index, Row* r);
  void UniquePut(int index, Row* h);
  bool UniqueEraseIf(int index, Row* h);
  void RemoveRow(Row* h);  // a head and its before-image, from every index; frees them
  // Frees a head's before-image, if any, and the index entries only it had.
  void FreeBeforeImage(Row* h);
  void FinishAutocommit(TxnId txn) {
    if (txn == kAutoTxn) Commit(kAutoTxn);
  }

  // partition_scan.cc
  void WriteToken(const IndexInfo& info, const Row* e, std::string* out);

  const schema::TableDef* table_;
  CommitObserver* observer_ = nullptr;
  uint32_t index_ = 0;  // which partition of the table, for the observer
  Layout layout_;
  RowArena arena_;
  PkIndex pk_;
  std::vector<std::unique_ptr<IndexState>> indexes_;
  absl::flat_hash_map<TxnId, std::vector<Row*>> txns_;
  std::vector<std::vector<Row*>> spare_lists_;
  uint64_t index_entries_ = 0;
  uint64_t row_count_ = 0;
  uint64_t max_auto_increment_ = 0;
  int auto_increment_column_ = -1;

  // Scratch, reused so that operations do not allocate.
  std::vector<schema::Field> fields_;
  std::vector<schema::Field> new_fields_;
  std::vector<schema::Field> probe_fields_;
  std::vector<schema::Field> bound_fields_;
  std::string new_key_;
  std::string key_scratch_;
  std::string key_form_;  // FindHead, ReadUnique
  schema::RowWriter update_;
  schema::RowWriter token_;
};

inline OpResult Result(OpCode code) {
  OpResult r;
  r.code = code;
  return r;
}
inline OpResult Locked(TxnId holder) {
  OpResult r;
  r.code = OpCode::kLocked;
  r.holder = holder;
  return r;
}
inline OpResult Duplicate(int index) {
  OpResult r;
  r.code = OpCode::kDuplicateKey;
  r.index = index;
  return r;
}
inline OpResult BadRequest(std::string message) {
  OpResult r;
  r.code = OpCode::kBadRequest;
  r.message = std::move(message);
  return r;
}

}  // namespace shoal::storage
