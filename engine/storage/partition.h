// One partition of one table on one data node: its rows in memory, the primary key's hash
// index, an ordered index for the primary key and for every secondary index, a hash index for
// every unique index, row locks, and the before-images that let READ COMMITTED readers see
// the last committed row while a writer holds it.
//
// Owned by exactly one LDM thread (docs/architecture.md I4): no method takes a lock or touches an
// atomic, except MemoryBudget reservations (by page, not by row).
//
// Transactions: every write names a transaction; TxnId 0 means autocommit (the write commits
// as it returns). A write locks its row exclusively until Commit or Abort of its transaction;
// a locking read (kExclusive) does the same. A committed read (kNone) never waits: it sees the
// row as last committed. An operation that needs a lock held by another transaction returns
// kLocked without side effects; the caller parks it and retries after the holder finishes
// (and answers 1205 when it has waited too long).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "engine/storage/memory_budget.h"

namespace shoal::storage {

using TxnId = uint64_t;
inline constexpr TxnId kAutocommit = 0;

enum class LockMode : uint8_t { kNone = 0, kExclusive = 1 };

enum class OpCode : uint16_t {
  kOk = 0,
  kNotFound = 1,      // a normal result for reads, updates and deletes, not an error
  kLocked = 2,        // held by another transaction: park and retry (see above)
  kDuplicateKey = 3,  // ER_DUP_ENTRY 1062; OpResult::index says which key
  kTableFull = 4,     // ER_RECORD_FILE_FULL 1114
  kBadRequest = 5,    // malformed row, key, filter or program (InvalidArgument in `message`)
  kOutOfRange = 6,    // ER_DATA_OUT_OF_RANGE 1690 from an interpreted update
};

struct OpResult {
  OpCode code = OpCode::kOk;
  int index = -1;  // kDuplicateKey: position in TableDef::indexes
  // kDuplicateKey of a unique secondary index: the new row's packed key over that index's
  // columns, as given (not folded), for 1062's message; empty when the caller has the row.
  std::string key;
  TxnId holder = 0;     // kLocked: the transaction holding the lock
  std::string message;  // kBadRequest/kOutOfRange: the reason; otherwise empty
  // kOk of an update: its program left every column's value as it was (MySQL counts the row
  // matched, not changed). The row is still written and locked as any update's.
  bool unchanged = false;
  // kOk of a write (REPLACE): a row was there under the key and was replaced (MySQL counts
  // a deleted and an inserted row).
  bool replaced = false;
};

struct ScanSpec {
  int index = 0;  // position in TableDef::indexes; 0 = primary key (a full-table scan)
  // Bounds: packed keys (row.h, no bitmap) over a prefix of the index's columns; empty =
  // unbounded. Inclusive unless *_exclusive.
  absl::string_view lower;
  bool lower_exclusive = false;
  absl::string_view upper;
  bool upper_exclusive = false;
  bool descending = false;
  // Resume point from a previous ScanBatch (empty: start at the bound).
  absl::string_view resume_after;
  absl::string_view filter;            // schema/program.h; empty passes all
  absl::Span<const uint16_t> columns;  // columns of each returned row
  uint32_t max_rows = 0;               // stop after this many rows (0: no limit)
  uint32_t max_examined = 0;           // stop after looking at this many rows (0: no limit)
  LockMode lock = LockMode::kNone;
  TxnId txn = kAutocommit;
  bool skip_locked = false;  // a row another transaction holds is passed over (SKIP LOCKED)
};

struct ScanBatch {
  uint32_t rows = 0;         // rows appended to the output
  uint32_t examined = 0;     // index entries looked at (ScanSpec::max_examined's count)
  bool done = false;         // nothing left in the range
  std::string resume_after;  // when !done: the position to pass as ScanSpec::resume_after
                             // (opaque; format in storage/partition_scan.cc)
  OpResult result;           // kOk, kLocked (rows before the locked one were returned), …
};

// Sees every change a partition commits, in commit order, with the committed image: the redo
// log's feed (docs/architecture.md, I8). Called from inside Commit and the autocommit
// operations, on the partition's thread; the views are valid during the call only.
class CommitObserver {
 public:
  virtual ~CommitObserver() = default;
  // `row` (packed over all columns) empty: the row with `key` is gone.
  virtual void Committed(uint32_t table_id, uint32_t partition, absl::string_view key,
                         absl::string_view row) = 0;
  // The epoch of the commit being applied: every row it changes is stamped with it.
  virtual uint64_t epoch() const = 0;
};

class Partition {
 public:
  // `table` must outlive the partition until SetTable replaces it.
  Partition(const schema::TableDef* table, MemoryBudget* budget);
  ~Partition();  // returns all memory to the budget
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  // Every commit from now on is shown to `observer` (null: none) as partition `index` of its
  // table.
  void SetObserver(CommitObserver* observer, uint32_t index);

  // Switches to a new version of the same table. Indexes added are built from the rows
  // (kDuplicateKey if a new unique index does not hold, leaving the old definition);
  // indexes dropped are freed. Columns must not change.
  OpResult SetTable(const schema::TableDef* table);

  // Primary-key read: appends a packed row over `columns` to `out` (RowWriter::BeginRow is
  // called here). `key` is the packed primary key.
  OpResult Read(TxnId txn, absl::string_view key, absl::Span<const uint16_t> columns, LockMode lock,
                schema::RowWriter* out);
  // Read through unique index `index` (a packed key over the index's columns).
  OpResult ReadUnique(TxnId txn, int index, absl::string_view key,
                      absl::Span<const uint16_t> columns, LockMode lock, schema::RowWriter* out);
  // `row` is a packed row over all columns, in table order.
  OpResult Insert(TxnId txn, absl::string_view row);
  // Insert, or replace the whole row when the primary key exists (REPLACE on the key only).
  OpResult Write(TxnId txn, absl::string_view row);
  // Runs an update program (schema/program.h) on the row with this key.
  OpResult Update(TxnId txn, absl::string_view key, absl::string_view program);
  OpResult Delete(TxnId txn, absl::string_view key);
  // Conditional versions: the operation applies only when `filter` passes on the current
  // row; otherwise kNotFound. (Used for UPDATE … WHERE pk = ? AND c = ?.)
  OpResult UpdateIf(TxnId txn, absl::string_view key, absl::string_view filter,
                    absl::string_view program);
  OpResult DeleteIf(TxnId txn, absl::string_view key, absl::string_view filter);

  // Ordered-index range scan (also the full-table scan, on index 0).
  ScanBatch Scan(const ScanSpec& spec, schema::RowWriter* out);

  // Ends a transaction's work in this partition: Commit keeps its changes, Abort restores
  // the before-images; both release its locks. Unknown transactions are a no-op.
  void Commit(TxnId txn);
  void Abort(TxnId txn);
  // True when `txn` holds anything here.
  bool HasTransaction(TxnId txn) const;

  // Copying the partition to a new replica (node restart, partition_copy.cc): calls `emit` for
  // every row as a committed reader sees it (txn 0), then for every row an open transaction
  // holds, with that transaction's version (`row` empty: it deleted the row). Keys are packed
  // primary keys, rows packed over all columns, both valid during the call only. Applying the
  // same calls in order to an empty partition (Write, or Delete for an empty row, under `txn`)
  // reproduces this one, locks included. `epoch` is the committed version's (CommitObserver;
  // 0 for transactions' versions and rows of partitions without an observer).
  using ExportFn = absl::FunctionRef<void(TxnId txn, absl::string_view key, absl::string_view row,
                                          uint64_t epoch)>;
  void Export(ExportFn emit, schema::RowWriter* scratch);

  uint64_t row_count() const;     // committed rows as a committed reader sees them
  uint64_t memory_bytes() const;  // bytes reserved from the budget
  // The maximum value of the AUTO_INCREMENT (or hidden key) column, 0 if none, for counters.
  uint64_t max_auto_increment() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// "Duplicate entry '<values>' for key '<table>.<index>'": MySQL 8.0's ER_DUP_ENTRY text for a
// packed key of `index` (values joined with '-', as MySQL does).
std::string DuplicateEntryMessage(const schema::TableDef& table, int index,
                                  absl::string_view packed_key);

}  // namespace shoal::storage
