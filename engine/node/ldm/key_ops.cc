#include "engine/node/ldm/key_ops.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <variant>

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
bool IsWrite(const KeyOp& key_op) {
  return !std::holds_alternative<wire::Read>(key_op) &&
         !std::holds_alternative<wire::ReadUnique>(key_op) &&
         !std::holds_alternative<wire::Scan>(key_op);
}

bool DecodeKeyOp(const wire::Op& op, KeyOp* out) {
  // Decoded in place: a copy of the largest alternative (a Scan) per operation shows on reads.
  auto as = [&]<typename T>(T) {
    return T::Decode(op, &out->emplace<T>()) == wire::DecodeStatus::kOk;
  };
  switch (op.header.type) {
    case OpType::kRead:
      return as(wire::Read{});
    case OpType::kReadUnique:
      return as(wire::ReadUnique{});
    case OpType::kInsert:
      return as(wire::Insert{});
    case OpType::kWrite:
      return as(wire::Write{});
    case OpType::kUpdate:
      return as(wire::Update{});
    case OpType::kUpdateIf:
      return as(wire::UpdateIf{});
    case OpType::kDelete:
      return as(wire::Delete{});
    case OpType::kDeleteIf:
      return as(wire::DeleteIf{});
    case OpType::kScan:
      return as(wire::Scan{});
    default:
      return false;
  }
}

OpResult BadRequest(absl::string_view why) {
  OpResult result;
  result.code = OpCode::kBadRequest;
  result.message = std::string(why);
  return result;
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
  // The target (table, version, partition, transaction, tag) has one meaning for every key
  // operation; the rest is the typed message's.
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
  KeyOp key_op;
  if (!DecodeKeyOp(op, &key_op)) {
    Error(sink->ReplyTo(conn), h.tag, kErInternal,
          absl::StrCat("Internal error: malformed ", wire::OpTypeName(h.type)));
    return true;
  }
  const storage::LockMode lock = std::visit(
      [](const auto& m) {
        if constexpr (requires { m.lock_exclusive; }) {
          return m.lock_exclusive ? storage::LockMode::kExclusive : storage::LockMode::kNone;
        }
        return storage::LockMode::kNone;
      },
      key_op);
  const wire::LockWait lock_wait = std::visit(
      [](const auto& m) {
        if constexpr (requires { m.lock_wait; }) return m.lock_wait;
        return wire::LockWait::kWait;
      },
      key_op);
  const bool write = IsWrite(key_op);
  if ((write || lock != storage::LockMode::kNone) && !context_->group.IsPrimary(h.partition)) {
    // The client's view is behind ours (a node failed or came back): it retries with the new.
    Error(sink->ReplyTo(conn), h.tag, kErTemporary,
          wire::TemporaryError(wire::kNdbNotPrimary,
                               absl::StrCat("data node ", context_->group.self,
                                            " is not the primary of partition ", h.partition)));
    return true;
  }
  if (write && table.logged && context_->RedoRefuses()) {
    // The redo cannot take it (a full disk): refused before it changes anything, in a
    // transaction too, which its client may roll back or retry.
    Error(sink->ReplyTo(conn), h.tag, kErTemporary, context_->RedoRefusal());
    return true;
  }
  storage::TxnId txn = h.txn;
  // Noted before it runs, whatever its outcome: the client counts the partition as one the
  // transaction holds from when it sent the operation, and a commit must find it here (a
  // transaction that lost what it held here cannot prepare: Participant::Prepare).
  if (txn != storage::kAutocommit && (write || lock != storage::LockMode::kNone)) {
    txns_->Touch(txn, conn, Touched{partition, h.table_id, h.partition});
    if (write && table.logged) txns_->Primary(txn)->wrote_logged = true;
  }
  if (auto* scan = std::get_if<wire::Scan>(&key_op)) {
    ++context_->stats.scans;
    // A scan that meets a lock before it has a row waits here, as a key read does: answered
    // with no rows, its client would ask again at once, and the two would spin until the
    // holder ends.
    if (std::optional<storage::TxnId> holder =
            RunScan(*scan, def, partition, txn, sink->ReplyTo(conn))) {
      ++context_->stats.lock_waits;
      lock_waits_->Park(op, conn, *holder, lock_waits_->DeadlineFor(deadline));
      return false;
    }
    return true;
  }
  if (!write) {
    ++context_->stats.reads;
    OpResult result = RunRead(key_op, def, partition, txn, lock, sink->ReplyTo(conn));
    if (result.code == OpCode::kLocked) {
      switch (lock_wait) {
        case wire::LockWait::kNoWait:
          Error(sink->ReplyTo(conn), h.tag, wire::kErLockNoWait, wire::kLockNoWaitText);
          return true;
        case wire::LockWait::kSkipLocked:
          result = OpResult{};
          result.code = OpCode::kNotFound;
          break;
        case wire::LockWait::kWait:
          ++context_->stats.lock_waits;
          lock_waits_->Park(op, conn, result.holder, lock_waits_->DeadlineFor(deadline));
          return false;
      }
    }
    if (result.code != OpCode::kOk) Reply(sink->ReplyTo(conn), result, h.tag, {}, def);
    return true;
  }
  // A replicated autocommit write holds its row under a transaction of ours until the
  // backups have it, so nobody reads what a failure could still take back.
  const bool autocommit = txn == storage::kAutocommit;
  const bool internal = autocommit && replicator_->HasTargets(h.table_id, h.partition);
  if (internal) txn = replicator_->NewInternalTxn();
  // An autocommit write is a commit this LDM decides: it belongs to the current epoch, until
  // whose end every replica must have it (I8).
  const uint64_t epoch = autocommit ? context_->BeginCommit() : 0;
  RedoTap::EpochScope logged_in(&context_->redo, epoch);
  AppliedWrite applied;
  applied.table_id = h.table_id;
  applied.partition = h.partition;
  applied.tag = h.tag;
  OpResult result = RunWrite(key_op, def, partition, txn, &applied);
  applied.unchanged = result.unchanged;
  applied.replaced = result.replaced;
  if (result.code == OpCode::kLocked) {
    if (internal) partition->Abort(txn);
    if (autocommit) context_->EndCommit(epoch);
    ++context_->stats.lock_waits;
    lock_waits_->Park(op, conn, result.holder, lock_waits_->DeadlineFor(deadline));
    return false;
  }
  ++context_->stats.writes;
  if (result.code == OpCode::kOk) {
    if (replicator_->HasTargets(h.table_id, h.partition) &&
        replicator_->Replicate(applied, table, partition, txn, internal, epoch, conn, sink)) {
      return true;  // answered when the backups have it; the wait ends the epoch's part
    }
    if (internal) partition->Commit(txn);
  } else if (internal) {
    partition->Abort(txn);  // nothing changed; forgets the id
  }
  if (autocommit) context_->EndCommit(epoch);
  Reply(sink->ReplyTo(conn), result, h.tag, applied.row, def);
  return true;
}

OpResult KeyOps::RunRead(const KeyOp& key_op, const schema::TableDef& def,
                         storage::Partition* partition, storage::TxnId txn, storage::LockMode lock,
                         wire::FrameBuilder* out) {
  OpResult result;
  uint64_t tag = 0;
  if (auto* read = std::get_if<wire::Read>(&key_op)) {
    tag = read->tag;
    if (!wire::DecodeColumns(read->columns, &columns_) || !ValidColumns(def, columns_)) {
      return BadRequest("bad column list");
    }
    result = partition->Read(txn, read->key, columns_, lock, &row_);
  } else {
    const wire::ReadUnique& unique = std::get<wire::ReadUnique>(key_op);
    tag = unique.tag;
    if (!wire::DecodeColumns(unique.columns, &columns_) || !ValidColumns(def, columns_)) {
      return BadRequest("bad column list");
    }
    if (unique.index == 0 || unique.index >= def.indexes.size() ||
        !def.indexes[unique.index].unique) {
      return BadRequest("not a unique index");
    }
    result = partition->ReadUnique(txn, unique.index, unique.key, columns_, lock, &row_);
  }
  if (result.code == OpCode::kOk) {
    wire::AppendResult(out, wire::kResultOk, 0, tag, {row_.view()});
  }
  row_.Clear();
  return result;
}

OpResult KeyOps::RunWrite(const KeyOp& key_op, const schema::TableDef& def,
                          storage::Partition* partition, storage::TxnId txn,
                          AppliedWrite* applied) {
  return std::visit(
      [&](const auto& m) -> OpResult {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, wire::Insert> || std::is_same_v<T, wire::Write>) {
          applied->row = m.row;
          return std::is_same_v<T, wire::Insert> ? partition->Insert(txn, m.row)
                                                 : partition->Write(txn, m.row);
        } else if constexpr (std::is_same_v<T, wire::Update>) {
          applied->key = m.key;
          if (absl::Status status = schema::ValidateUpdate(def, m.program); !status.ok()) {
            return BadRequest(status.message());
          }
          return partition->Update(txn, m.key, m.program);
        } else if constexpr (std::is_same_v<T, wire::UpdateIf>) {
          applied->key = m.key;
          if (absl::Status status = schema::ValidateUpdate(def, m.program); !status.ok()) {
            return BadRequest(status.message());
          }
          if (absl::Status status = schema::ValidateFilter(def, m.filter); !status.ok()) {
            return BadRequest(status.message());
          }
          return partition->UpdateIf(txn, m.key, m.filter, m.program);
        } else if constexpr (std::is_same_v<T, wire::Delete>) {
          applied->key = m.key;
          applied->is_delete = true;
          return partition->Delete(txn, m.key);
        } else if constexpr (std::is_same_v<T, wire::DeleteIf>) {
          applied->key = m.key;
          applied->is_delete = true;
          if (absl::Status status = schema::ValidateFilter(def, m.filter); !status.ok()) {
            return BadRequest(status.message());
          }
          return partition->DeleteIf(txn, m.key, m.filter);
        } else {
          return BadRequest("not a write");  // reads and scans never come here
        }
      },
      key_op);
}

std::optional<storage::TxnId> KeyOps::RunScan(const wire::Scan& scan, const schema::TableDef& def,
                                              storage::Partition* partition, storage::TxnId txn,
                                              wire::FrameBuilder* out) {
  if (scan.index >= def.indexes.size() || !wire::DecodeColumns(scan.columns, &columns_) ||
      !ValidColumns(def, columns_)) {
    Error(out, scan.tag, kErInternal, "Internal error: malformed scan");
    return std::nullopt;
  }
  if (absl::Status status = schema::ValidateFilter(def, scan.filter); !status.ok()) {
    Error(out, scan.tag, kErInternal, absl::StrCat("Internal error: ", status.message()));
    return std::nullopt;
  }
  const wire::ScanParams& params = scan.params;
  storage::ScanSpec spec;
  spec.index = scan.index;
  spec.lower = scan.lower;
  spec.upper = scan.upper;
  spec.resume_after = scan.resume;
  spec.filter = scan.filter;
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
  spec.lock = scan.lock_exclusive ? storage::LockMode::kExclusive : storage::LockMode::kNone;
  spec.txn = txn;
  spec.skip_locked = scan.lock_wait == wire::LockWait::kSkipLocked;
  storage::ScanBatch batch = params.flags & wire::kRangeList ? ScanRangeList(scan, spec, partition)
                                                             : partition->Scan(spec, &row_);
  if (batch.result.code == OpCode::kLocked && scan.lock_wait == wire::LockWait::kNoWait) {
    row_.Clear();
    Error(out, scan.tag, wire::kErLockNoWait, wire::kLockNoWaitText);
    return std::nullopt;
  }
  if (batch.result.code == OpCode::kLocked && batch.rows == 0) {
    row_.Clear();
    return batch.result.holder;  // parked: retried from where it stood when the holder ends
  }
  if (batch.result.code != OpCode::kOk && batch.result.code != OpCode::kLocked) {
    row_.Clear();
    Reply(out, batch.result, scan.tag, {}, def);
    return std::nullopt;
  }
  // A lock met mid-scan ends the batch early; the client resumes, and waits on that row then.
  std::string count;
  wire::PutU32(&count, batch.rows);
  wire::AppendResult(out, wire::kResultOk, batch.done ? 0 : wire::kMoreRows, scan.tag,
                     {row_.view(), count, batch.resume_after});
  row_.Clear();
  return std::nullopt;
}

storage::ScanBatch KeyOps::ScanRangeList(const wire::Scan& scan, storage::ScanSpec spec,
                                         storage::Partition* partition) {
  storage::ScanBatch out;
  size_t at = 0;  // ranges done, in scan order
  absl::string_view token;
  if (!scan.upper.empty() || !wire::DecodeScanRanges(scan.lower, &ranges_) ||
      !wire::DecodeScanRangeResume(scan.resume, &at, &token) || at >= ranges_.size()) {
    out.result.code = OpCode::kBadRequest;
    out.result.message = "malformed scan range list";
    return out;
  }
  spec.lower_exclusive = spec.upper_exclusive = false;
  const uint32_t max_rows = spec.max_rows, max_examined = spec.max_examined;
  while (true) {
    const wire::ScanRange& range = ranges_[spec.descending ? ranges_.size() - 1 - at : at];
    spec.lower = range.lower;
    spec.upper = range.upper;
    spec.resume_after = token;
    spec.max_rows = max_rows - out.rows;
    spec.max_examined = max_examined - out.examined;
    storage::ScanBatch batch = partition->Scan(spec, &row_);
    ++context_->stats.scan_ranges;
    out.rows += batch.rows;
    out.examined += batch.examined;
    out.result = std::move(batch.result);
    if (out.result.code != OpCode::kOk && out.result.code != OpCode::kLocked) return out;
    if (!batch.done) {
      out.resume_after = wire::ScanRangeResume(at, batch.resume_after);
      return out;
    }
    if (++at == ranges_.size()) {
      out.done = true;
      return out;
    }
    token = {};
    if (out.rows >= max_rows || out.examined >= max_examined) {
      out.resume_after = wire::ScanRangeResume(at, {});
      return out;
    }
  }
}

void KeyOps::Reply(wire::FrameBuilder* out, const OpResult& result, uint64_t tag,
                   absl::string_view row, const schema::TableDef& table) {
  switch (result.code) {
    case OpCode::kOk:
      wire::AppendResult(out, wire::kResultOk, wire::OkFlags(result.unchanged, result.replaced),
                         tag, {});
      return;
    case OpCode::kNotFound:
      wire::AppendResult(out, wire::kResultNotFound, 0, tag, {});
      return;
    case OpCode::kDuplicateKey: {
      std::string key = result.key;
      if (!key.empty() || (!row.empty() && schema::KeyOfRow(table, result.index, row, &key))) {
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
