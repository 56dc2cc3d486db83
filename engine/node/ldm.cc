// Runs native operations on the partitions of one LDM: key operations, scans, transaction
// ends, and the parking of operations that wait for a row lock.
#include "engine/node/ldm.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/schema/program.h"
#include "engine/wire/errors.h"

namespace shoal::node {
namespace {

using storage::OpCode;
using storage::OpResult;
using wire::OpType;

using wire::kErDataOutOfRange;
using wire::kErDupEntry;
using wire::kErInternal;
using wire::kErLockWaitTimeout;
using wire::kErRecordFileFull;
using wire::kErTableDefChanged;
using wire::kErTemporary;

// A scan batch stops here so its reply stays well inside one frame.
constexpr size_t kScanBatchBytes = 256 * 1024;
constexpr uint32_t kScanMaxRows = 1000;
constexpr uint32_t kScanMaxExamined = 10000;
// The lock clock's step: a gap of up to twice this between two looks counts in full (a busy
// turn of the loop), a longer one is a stall of this thread and counts as twice this.
constexpr absl::Duration kLockClockInterval = absl::Milliseconds(100);

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

Ldm::Ldm(PartitionPlacement placement, storage::MemoryBudget* budget,
         absl::Duration lock_wait_timeout)
    : placement_(placement),
      budget_(budget),
      lock_wait_timeout_(lock_wait_timeout),
      lock_clock_(kLockClockInterval, absl::Now()) {}

absl::Time Ldm::LockNow(absl::Time now) {
  lock_clock_.Advance(now);
  return absl::UnixEpoch() + lock_clock_.running();
}

Ldm::~Ldm() = default;

void Ldm::Apply(const DictionaryDelta& delta) {
  for (uint32_t id : delta.dropped) {
    // Transactions keep raw partition pointers; forget those of the dropped partitions.
    if (auto it = tables_.find(id); it != tables_.end()) {
      ForgetPartitions(id);
      tables_.erase(it);
    }
  }
  for (const TablePtr& def : delta.created) {
    TableState& state = tables_[def->id];
    bool truncate = absl::c_linear_search(delta.truncated, def->id);
    if (state.def != nullptr && !truncate) {
      for (auto& partition : state.partitions) {
        if (partition == nullptr) continue;
        OpResult result = partition->SetTable(def.get());
        if (result.code != OpCode::kOk) {
          SHOAL_LOG(kError) << "table " << def->database << "." << def->name
                            << ": a partition keeps version " << state.def->version
                            << " (its rows break a new unique index)";
          if (!absl::c_linear_search(state.kept, state.def)) state.kept.push_back(state.def);
        }
      }
      state.def = def;
      continue;
    }
    ForgetPartitions(def->id);
    state.def = def;
    state.partitions.clear();
    state.partitions.resize(def->partitions);
    for (uint32_t p = 0; p < def->partitions; ++p) {
      if (placement_.Owns(p)) {
        state.partitions[p] = std::make_unique<storage::Partition>(def.get(), budget_);
        // A table created while a copy runs is copied too (its rows may be written before).
        if (copying()) copy_->todo.emplace_back(def->id, p);
      }
    }
  }
}

void Ldm::ForgetPartitions(uint32_t table_id) {
  // Transactions and waits keep raw partition pointers; forget those of the table's.
  auto forget = [table_id](std::vector<Touched>& touched) {
    std::erase_if(touched, [table_id](const Touched& t) { return t.table_id == table_id; });
  };
  for (auto& [txn, open] : open_) forget(open.touched);
  for (auto& [txn, open] : replicas_) forget(open.touched);
  for (auto& [id, wait] : waits_) {
    for (Touched& t : wait.touched) {
      if (t.table_id == table_id) t.partition = nullptr;
    }
  }
}

storage::Partition* Ldm::Find(uint32_t table_id, uint32_t partition) const {
  auto it = tables_.find(table_id);
  if (it == tables_.end() || partition >= it->second.partitions.size()) return nullptr;
  return it->second.partitions[partition].get();
}

void Ldm::Execute(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  ++stats_.ops;
  Run(op, conn, sink, absl::InfiniteFuture());
}

bool Ldm::Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  const wire::OpHeader& h = op.header;
  if (ParkUntilHandedOver(op, conn, deadline)) return false;
  if (h.type >= OpType::kReplicaWrite) return RunReplica(op, conn, sink, deadline);
  if (h.txn >> 63) {
    Error(sink->ReplyTo(conn), h.tag, kErInternal, "Internal error: reserved transaction id");
    return true;
  }
  if (h.type == OpType::kCommit) {
    Commit(op, conn, sink);
    return true;
  }
  if (h.type == OpType::kAbort) {
    AdoptIfPrimary(h.txn, h.partition);
    // A client's rollback (index 0) does not end what a TC prepared: only the TC (or the node
    // taking over from it) knows the outcome. The client sends one after any failed commit,
    // to clear what the TC did not reach.
    if (auto open = open_.find(h.txn);
        h.index != 0 || open == open_.end() || !open->second.prepared) {
      Abort(h.txn, sink);
    }
    wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, h.tag, {});
    return true;
  }
  if (h.txn != storage::kAutocommit && !doomed_.empty()) {
    // Rolled back behind its client's back: what it does now would run without its earlier
    // writes and locks (an INSERT meeting the row its own DELETE removed).
    if (auto doomed = doomed_.find(h.txn); doomed != doomed_.end()) {
      Error(sink->ReplyTo(conn), h.tag, kErTemporary,
            wire::TemporaryError(wire::kNdbRolledBack,
                                 absl::StrCat(doomed->second, ": transaction rolled back")));
      return true;
    }
  }
  auto it = tables_.find(h.table_id);
  if (it == tables_.end() || it->second.def->version != h.table_version) {
    Error(sink->ReplyTo(conn), h.tag, kErTableDefChanged,
          "Table definition has changed, please retry transaction");
    return true;
  }
  const TableState& table = it->second;
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
  if ((write || lock != storage::LockMode::kNone) && !group_.IsPrimary(h.partition)) {
    // The client's view is behind ours (a node failed or came back): it retries with the new.
    Error(sink->ReplyTo(conn), h.tag, kErTemporary,
          wire::TemporaryError(wire::kNdbNotPrimary,
                               absl::StrCat("data node ", group_.self,
                                            " is not the primary of partition ", h.partition)));
    return true;
  }
  storage::TxnId txn = h.txn;
  // Noted before it runs, whatever its outcome: the client counts the partition as one the
  // transaction holds from when it sent the operation, and a commit must find it here (a
  // transaction that lost what it held here cannot prepare: Ldm::Prepare).
  if (txn != storage::kAutocommit && (write || lock != storage::LockMode::kNone)) {
    Touch(txn, conn, Touched{partition, h.table_id, h.partition});
  }
  // A replicated autocommit write holds its row under a transaction of ours until the
  // backups have it, so nobody reads what a failure could still take back.
  const bool internal = write && txn == storage::kAutocommit && HasTargets(h.table_id, h.partition);
  if (internal) txn = NewInternalTxn();
  OpResult result;
  switch (h.type) {
    case OpType::kRead:
    case OpType::kReadUnique: {
      ++stats_.reads;
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
      ++stats_.scans;
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
      return true;  // handled above
  }
  if (result.code == OpCode::kLocked) {
    if (internal) partition->Abort(txn);
    if (deadline == absl::InfiniteFuture()) deadline = LockNow(absl::Now()) + lock_wait_timeout_;
    Park(op, conn, result.holder, deadline);
    return false;
  }
  if (write) {
    ++stats_.writes;
    if (result.code == OpCode::kOk) {
      if (HasTargets(h.table_id, h.partition) &&
          Replicate(op, table, partition, txn, internal, conn, sink)) {
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

void Ldm::RunScan(const wire::Op& op, const TableState& table, storage::Partition* partition,
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

void Ldm::Reply(wire::FrameBuilder* out, const OpResult& result, const wire::Op& op,
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
      if (has_row && schema::KeyOfRow(table, result.index, op.sections[0], &key)) {
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

void Ldm::Error(wire::FrameBuilder* out, uint64_t tag, uint16_t code, absl::string_view message) {
  ++stats_.errors;
  if (out != nullptr) wire::AppendResult(out, code, 0, tag, {message});
}

void Ldm::Park(const wire::Op& op, uint32_t conn, storage::TxnId holder, absl::Time deadline) {
  ++stats_.lock_waits;
  parked_.push_back(Parked{std::string(op.bytes), conn, holder, deadline});
}

void Ldm::Unpark(storage::TxnId txn, ReplySink* sink) {
  if (parked_.empty()) return;
  std::vector<Parked> ready;
  for (auto it = parked_.begin(); it != parked_.end();) {
    if (it->waiting_for == txn) {
      ready.push_back(std::move(*it));
      it = parked_.erase(it);
    } else {
      ++it;
    }
  }
  for (Parked& waiting : ready) {
    absl::string_view bytes = waiting.op;
    wire::Op op;
    if (wire::DecodeOp(&bytes, &op) != wire::DecodeStatus::kOk) continue;
    Run(op, waiting.conn, sink, waiting.deadline);
  }
}

void Ldm::ExpireLockWaits(absl::Time now, ReplySink* sink) {
  absl::Time lock_now = LockNow(now);
  for (auto it = parked_.begin(); it != parked_.end();) {
    if (it->deadline > lock_now) {
      ++it;
      continue;
    }
    absl::string_view bytes = it->op;
    wire::Op op;
    // Parked operations were decoded before: this cannot fail.
    SHOAL_CHECK(wire::DecodeOp(&bytes, &op) == wire::DecodeStatus::kOk);
    if (IsHandoverWait(it->waiting_for)) {
      Error(sink->ReplyTo(it->conn), op.header.tag, kErTemporary,
            wire::TemporaryError(
                wire::kNdbNotPrimary,
                absl::StrCat("data node ", group_.self, " is not yet the primary of partition ",
                             op.header.partition, ": its former primary has not handed it over")));
      it = parked_.erase(it);
      continue;
    }
    ++stats_.lock_timeouts;
    if (stats_.lock_timeouts % 64 == 1) {
      auto open = open_.find(it->waiting_for);
      auto replica = replicas_.find(it->waiting_for);
      SHOAL_LOG(kWarning) << "lock wait timeout behind transaction " << it->waiting_for
                          << (open != open_.end()
                                  ? absl::StrCat(" (ours, from connection ", open->second.conn,
                                                 open->second.prepared ? ", prepared" : "", ")")
                                  : "")
                          << (replica != replicas_.end()
                                  ? absl::StrCat(" (replicated from data node ",
                                                 replica->second.source,
                                                 replica->second.prepared ? ", prepared" : "", ")")
                                  : "");
    }
    constexpr absl::string_view kTimeout = "Lock wait timeout exceeded; try restarting transaction";
    if (op.header.type >= OpType::kReplicaWrite) {
      Ack(op, it->conn, sink, kErLockWaitTimeout, kTimeout);
    } else {
      Error(sink->ReplyTo(it->conn), op.header.tag, kErLockWaitTimeout, kTimeout);
    }
    it = parked_.erase(it);
  }
}

void Ldm::ConnectionClosed(uint32_t conn, ReplySink* sink) {
  std::erase_if(parked_, [conn](const Parked& p) { return p.conn == conn; });
  std::vector<storage::TxnId> doomed;
  for (const auto& [txn, open] : open_) {
    // A prepared transaction is its TC's to end, whatever becomes of its client.
    if (open.conn == conn && !open.prepared) doomed.push_back(txn);
  }
  for (storage::TxnId txn : doomed) Abort(txn, sink);
  doomed.clear();
  for (const auto& [txn, open] : replicas_) {
    if (open.conn == conn && !open.prepared) doomed.push_back(txn);
  }
  for (storage::TxnId txn : doomed) EndReplicaTxn(txn, nullptr, /*commit=*/false, sink);
  if (copy_.has_value() && copy_->conn == conn) copy_.reset();  // the node being copied to left
}

void Ldm::Touch(storage::TxnId txn, uint32_t conn, const Touched& touched) {
  OpenTxn& open = open_[txn];
  open.conn = conn;
  if (!absl::c_linear_search(open.touched, touched)) open.touched.push_back(touched);
}

uint64_t Ldm::row_count() const {
  uint64_t rows = 0;
  for (const auto& [id, table] : tables_) {
    for (const auto& partition : table.partitions) {
      if (partition != nullptr) rows += partition->row_count();
    }
  }
  return rows;
}

}  // namespace shoal::node
