// A client's key operations and scans on the partitions this LDM is primary of (or, for
// reads without locks, any replica of): reads, inserts, writes, updates and deletes by key,
// conditional ones, and ordered or full scans. A write or a locking read notes its partition
// in the transaction's record; a write that has backups is answered by the Replicator once
// they have it; an operation that meets a row lock parks until the holder ends or the wait
// times out.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/ldm/replicator.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/schema/row.h"
#include "engine/wire/key_ops.h"

namespace shoal::node {

// A key operation or scan, decoded.
using KeyOp = std::variant<wire::Read, wire::ReadUnique, wire::Insert, wire::Write, wire::Update,
                           wire::UpdateIf, wire::Delete, wire::DeleteIf, wire::Scan>;

class KeyOps {
 public:
  KeyOps(LdmContext* context, const LdmTables* tables, TxnTable* txns, LockWaits* lock_waits,
         Replicator* replicator)
      : context_(context),
        tables_(tables),
        txns_(txns),
        lock_waits_(lock_waits),
        replicator_(replicator) {}

  // Runs kRead, kReadUnique, kInsert, kWrite, kUpdate(If), kDelete(If) or kScan from
  // connection `conn`. False when it met a lock and was parked (no reply yet).
  bool Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);

 private:
  // A read's row goes to `out`; any other outcome is returned for the caller to answer.
  storage::OpResult RunRead(const KeyOp& key_op, const schema::TableDef& def,
                            storage::Partition* partition, storage::TxnId txn,
                            storage::LockMode lock, wire::FrameBuilder* out);
  // Runs a write and notes in `applied` what the backups will need of it.
  storage::OpResult RunWrite(const KeyOp& key_op, const schema::TableDef& def,
                             storage::Partition* partition, storage::TxnId txn,
                             AppliedWrite* applied);
  // Answers the scan's batch, or, when it met a lock before any row (and may wait), answers
  // nothing and returns the transaction holding that lock.
  std::optional<storage::TxnId> RunScan(const wire::Scan& scan, const schema::TableDef& def,
                                        storage::Partition* partition, storage::TxnId txn,
                                        wire::FrameBuilder* out);
  // A scan of a range list (wire::kRangeList): its ranges one after another from where the
  // last batch stopped, sharing `spec`'s row and examined budgets; the batch's resume token
  // names the range it stopped in.
  storage::ScanBatch ScanRangeList(const wire::Scan& scan, storage::ScanSpec spec,
                                   storage::Partition* partition);
  // Answers an outcome other than a read's row; `row`, the row written (inserts and writes),
  // names the duplicate in 1062's message.
  void Reply(wire::FrameBuilder* out, const storage::OpResult& result, uint64_t tag,
             absl::string_view row, const schema::TableDef& table);
  void Error(wire::FrameBuilder* out, uint64_t tag, uint16_t code, absl::string_view message) {
    ReplyError(context_, out, tag, code, message);
  }

  LdmContext* context_;
  const LdmTables* tables_;
  TxnTable* txns_;
  LockWaits* lock_waits_;
  Replicator* replicator_;
  schema::RowWriter row_;
  std::vector<uint16_t> columns_;
  std::vector<wire::ScanRange> ranges_;  // a range-list scan's, decoded per operation
};

}  // namespace shoal::node
