#include "engine/node/ldm/key_ops.h"

#include <algorithm>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/program.h"
#include "engine/storage/partition.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

using storage::OpCode;
using storage::OpResult;
using wire::OpType;

using wire::kErDataOutOfRange;
using wire::kErDupEntry;
using wire::kErInternal;
using wire::kErRecordFileFull;
using wire::kErTableDefChanged;
using wire::kErTemporary;

// A scan batch stops here so its reply stays well inside one frame.
constexpr size_t kScanBatchBytes = 256 * 1024;
constexpr uint32_t kScanMaxRows = 1000;
constexpr uint32_t kScanMaxExamined = 10000;
bool IsWrite(OpType type) {
  return type != OpType::kRead && type != OpType::kReadUnique && type != OpType::kScan;
}

// A projection names existing columns, none twice (a repeated column would let one small
// request ask for rows far larger than the table's).
bool ValidColumns(const schema::TableDef& table, absl::Span<const uint16_t> columns) {
  if (columns.size() > table.columns.size()) return false;
  std::vector<bool> seen(table.columns.size());
  for (uint16_t c : columns) {
    if (c >= table.columns.size() || seen[c]) return false;
    seen[c] = true;
  }
  return true;
}

size_t MaxRowBytes(const schema::TableDef& table, absl::Span<const uint16_t> columns) {
  size_t bytes = (columns.size() + 7) / 8;
  for (uint16_t c : columns) {
    const schema::ColumnDef& column = table.columns[c];
    int fixed = schema::FixedSize(column.type);
    if (fixed > 0) {
      bytes += fixed;
    } else if (column.type == schema::ColumnType::kText ||
               column.type == schema::ColumnType::kBlob) {
      bytes += 2 + 65535;
    } else {
      bytes += 2 + std::min<size_t>(65535, size_t{column.length} * 4 + column.precision + 3);
    }
  }
  return bytes;
}

}  // namespace

bool KeyOps::Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  if (h.txn != storage::kAutocommit && txns_->any_doomed()) {
    // Rolled back behind its client's back: what it does now would run without its earlier
    // writes and locks (an INSERT meeting the row its own DELETE removed).
    if (const std::string* why = txns_->DoomedWhy(h.txn); why != nullptr) {
      Error(sink->ReplyTo(conn), h.tag, kErTemporary,
            wire::TemporaryError(wire::kNdbRolledBack,
                                 absl::StrCat(*why, ": transaction rolled back")));
      return true;
    }
  }
  const TableState* found = tables_->Table(h.table_id);
  if (found == nullptr || found->def->version != h.table_version) {
    Error(sink->ReplyTo(conn), h.tag, kErTableDefChanged,
          "Table definition has changed, please retry transaction");
    return true;
  }
  const TableState& table = *found;
  const schema::TableDef& def = *table.def;
  storage::Partition* partition =
      h.partition < table.partitions.size() ? table.partitions[h.partition].get() : nullptr;
  if (partition == nullptr) {
    Error(sink->ReplyTo(conn), h.tag, kErInternal,
          absl::StrCat("Internal error: partition ", h.partition, " of table ", def.name,
                       " is not on this node"));
    return true;
  }
  storage::LockMode lock =
      (h.flags & wire::kLockExclusive) ? storage::LockMode::kExclusive : storage::LockMode::kNone;
  const bool write = IsWrite(h.type);
  if ((write || lock != storage::LockMode::kNone) && !context_->group.IsPrimary(h.partition)) {
    // The client's view is behind ours (a node failed or came back): it retries with the new.
    Error(sink->ReplyTo(conn), h.tag, kErTemporary,
          wire::TemporaryError(wire::kNdbNotPrimary,
                               absl::StrCat("data node ", context_->group.self,
                                            " is not the primary of partition ", h.partition)));
    return true;
  }
  storage::TxnId txn = h.txn;
  // Noted before it runs, whatever its outcome: the client counts the partition as one the
  // transaction holds from when it sent the operation, and a commit must find it here (a
  // transaction that lost what it held here cannot prepare: Ldm::Prepare).
  if (txn != storage::kAutocommit && (write || lock != storage::LockMode::kNone)) {
    txns_->Touch(txn, conn, Touched{partition, h.table_id, h.partition});
  }
  // A replicated autocommit write holds its row under a transaction of ours until the
  // backups have it, so nobody reads what a failure could still take back.
  const bool internal =
      write && txn == storage::kAutocommit && replicator_->HasTargets(h.table_id, h.partition);
  if (internal) txn = replicator_->NewInternalTxn();
  OpResult result;
  switch (h.type) {
    case OpType::kRead:
    case OpType::kReadUnique: {
      ++context_->stats.reads;
      if (!wire::DecodeColumns(op.sections[1], &columns_) || !ValidColumns(def, columns_)) {
        Error(sink->ReplyTo(conn), h.tag, kErInternal, "Internal error: bad column list");
        return true;
      }
      if (h.type == OpType::kRead) {
        result = partition->Read(txn, op.sections[0], columns_, lock, &row_);
      } else if (h.index == 0 || h.index >= def.indexes.size() || !def.indexes[h.index].unique) {
        Error(sink->ReplyTo(conn), h.tag, kErInternal, "Internal error: not a unique index");
        return true;
      } else {
        result = partition->ReadUnique(txn, h.index, op.sections[0], columns_, lock, &row_);
      }
      if (result.code == OpCode::kOk) {
        wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, h.tag, {row_.view()});
        row_.Clear();
        return true;
      }
      row_.Clear();
      break;
    }
    case OpType::kInsert:
      result = partition->Insert(txn, op.sections[0]);
      break;
    case OpType::kWrite:
      result = partition->Write(txn, op.sections[0]);
      break;
    case OpType::kUpdate:
    case OpType::kUpdateIf: {
      absl::string_view program = op.sections[h.type == OpType::kUpdate ? 1 : 2];
      if (absl::Status status = schema::ValidateUpdate(def, program); !status.ok()) {
        Error(sink->ReplyTo(conn), h.tag, kErInternal,
              absl::StrCat("Internal error: ", status.message()));
        return true;
      }
      if (h.type == OpType::kUpdate) {
        result = partition->Update(txn, op.sections[0], program);
      } else if (absl::Status status = schema::ValidateFilter(def, op.sections[1]); !status.ok()) {
        Error(sink->ReplyTo(conn), h.tag, kErInternal,
              absl::StrCat("Internal error: ", status.message()));
        return true;
      } else {
        result = partition->UpdateIf(txn, op.sections[0], op.sections[1], program);
      }
      break;
    }
    case OpType::kDelete:
      result = partition->Delete(txn, op.sections[0]);
      break;
    case OpType::kDeleteIf:
      if (absl::Status status = schema::ValidateFilter(def, op.sections[1]); !status.ok()) {
        Error(sink->ReplyTo(conn), h.tag, kErInternal,
              absl::StrCat("Internal error: ", status.message()));
        return true;
      }
      result = partition->DeleteIf(txn, op.sections[0], op.sections[1]);
      break;
    case OpType::kScan:
      ++context_->stats.scans;
      RunScan(op, table, partition, txn, sink->ReplyTo(conn));
      return true;
    case OpType::kCommit:
    case OpType::kAbort:
    case OpType::kReplicaWrite:
    case OpType::kReplicaDelete:
    case OpType::kReplicaCommit:
    case OpType::kReplicaAbort:
    case OpType::kReplicaAck:
    case OpType::kCopyReq:
    case OpType::kCopyDone:
    case OpType::kCommitTxn:
    case OpType::kPrepare:
    case OpType::kReplicaPrepare:
    case OpType::kTakeoverReq:
    case OpType::kPing:
    case OpType::kHandover:
      return true;  // not key operations: Ldm::Run routes them elsewhere
  }
  if (result.code == OpCode::kLocked) {
    if (internal) partition->Abort(txn);
    ++context_->stats.lock_waits;
    lock_waits_->Park(op, conn, result.holder, lock_waits_->DeadlineFor(deadline));
    return false;
  }
  if (write) {
    ++context_->stats.writes;
    if (result.code == OpCode::kOk) {
      if (replicator_->HasTargets(h.table_id, h.partition) &&
          replicator_->Replicate(op, table, partition, txn, internal, conn, sink)) {
        return true;  // answered when the backups have it
      }
      if (internal) partition->Commit(txn);
    } else if (internal) {
      partition->Abort(txn);  // nothing changed; forgets the id
    }
  }
  Reply(sink->ReplyTo(conn), result, op, def);
  return true;
}

void KeyOps::RunScan(const wire::Op& op, const TableState& table, storage::Partition* partition,
                     storage::TxnId txn, wire::FrameBuilder* out) {
  const wire::OpHeader& h = op.header;
  const schema::TableDef& def = *table.def;
  wire::ScanParams params;
  if (h.index >= def.indexes.size() ||
      wire::DecodeScanParams(op.sections[5], &params) != wire::DecodeStatus::kOk ||
      !wire::DecodeColumns(op.sections[4], &columns_) || !ValidColumns(def, columns_)) {
    Error(out, h.tag, kErInternal, "Internal error: malformed scan");
    return;
  }
  if (absl::Status status = schema::ValidateFilter(def, op.sections[3]); !status.ok()) {
    Error(out, h.tag, kErInternal, absl::StrCat("Internal error: ", status.message()));
    return;
  }
  storage::ScanSpec spec;
  spec.index = h.index;
  spec.lower = op.sections[0];
  spec.upper = op.sections[1];
  spec.resume_after = op.sections[2];
  spec.filter = op.sections[3];
  spec.columns = columns_;
  spec.lower_exclusive = params.flags & wire::kLowerExclusive;
  spec.upper_exclusive = params.flags & wire::kUpperExclusive;
  spec.descending = params.flags & wire::kDescending;
  uint32_t byte_cap = static_cast<uint32_t>(
      std::max<size_t>(1, kScanBatchBytes / std::max<size_t>(1, MaxRowBytes(def, columns_))));
  spec.max_rows =
      std::min({params.max_rows == 0 ? kScanMaxRows : params.max_rows, kScanMaxRows, byte_cap});
  spec.max_examined =
      std::min(params.max_examined == 0 ? kScanMaxExamined : params.max_examined, kScanMaxExamined);
  spec.lock =
      (h.flags & wire::kLockExclusive) ? storage::LockMode::kExclusive : storage::LockMode::kNone;
  spec.txn = txn;
  storage::ScanBatch batch = partition->Scan(spec, &row_);
  if (batch.result.code != OpCode::kOk && batch.result.code != OpCode::kLocked) {
    row_.Clear();
    Reply(out, batch.result, op, def);
    return;
  }
  // A lock met mid-scan ends the batch early; the client resumes and waits on that row then.
  std::string count;
  wire::PutU32(&count, batch.rows);
  wire::AppendResult(out, wire::kResultOk, batch.done ? 0 : wire::kMoreRows, h.tag,
                     {row_.view(), count, batch.resume_after});
  row_.Clear();
}

void KeyOps::Reply(wire::FrameBuilder* out, const OpResult& result, const wire::Op& op,
                   const schema::TableDef& table) {
  const uint64_t tag = op.header.tag;
  switch (result.code) {
    case OpCode::kOk:
      wire::AppendResult(out, wire::kResultOk, 0, tag, {});
      return;
    case OpCode::kNotFound:
      wire::AppendResult(out, wire::kResultNotFound, 0, tag, {});
      return;
    case OpCode::kDuplicateKey: {
      std::string key;
      bool has_row = op.header.type == OpType::kInsert || op.header.type == OpType::kWrite;
      if (has_row && storage::ExtractKey(table, result.index, op.sections[0], &key)) {
        Error(out, tag, kErDupEntry, storage::DuplicateEntryMessage(table, result.index, key));
      } else {
        Error(out, tag, kErDupEntry,
              absl::StrCat("Duplicate entry for key '", table.name, ".",
                           table.indexes[std::max(0, result.index)].name, "'"));
      }
      return;
    }
    case OpCode::kTableFull:
      Error(out, tag, kErRecordFileFull, absl::StrCat("The table '", table.name, "' is full"));
      return;
    case OpCode::kOutOfRange: {
      // "1264: text" names its MySQL error (a value outside its column); plain text is 1690.
      uint16_t code = kErDataOutOfRange;
      absl::string_view message = result.message;
      if (absl::StartsWith(message, "1264: ")) {
        code = 1264;
        message.remove_prefix(6);
      }
      Error(out, tag, code, message);
      return;
    }
    case OpCode::kBadRequest:
    case OpCode::kLocked:
      Error(out, tag, kErInternal, absl::StrCat("Internal error: ", result.message));
      return;
  }
}

}  // namespace shoal::node
