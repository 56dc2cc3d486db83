#include "engine/node/ldm/ldm.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"
#include "engine/wire/errors.h"

namespace shoal::node {

using wire::OpType;

Ldm::Ldm(PartitionPlacement placement, storage::MemoryBudget* budget,
         absl::Duration lock_wait_timeout, LdmDurability durability)
    : context_{.placement = placement,
               .group = {},
               .stats = {},
               .unparker = this,
               .decider = durability.decider,
               .redo = RedoTap(durability.log),
               .redo_healthy = durability.redo_healthy,
               .redo_error = std::move(durability.redo_error)},
      tables_(&context_.placement, budget, &context_.redo),
      lock_waits_(lock_wait_timeout, absl::Now()),
      copier_(&context_, &tables_, &txns_),
      sweep_(&context_, &tables_),
      checkpointer_(&context_, &tables_),
      replicator_(&context_, &txns_, &decided_, &copier_),
      replica_apply_(&context_, &tables_, &txns_, &decided_, &lock_waits_, &sweep_),
      participant_(&context_, &txns_, &decided_, &replicator_),
      handover_(&context_, &tables_, &txns_, &lock_waits_, &replicator_),
      key_ops_(&context_, &tables_, &txns_, &lock_waits_, &replicator_) {}

Ldm::~Ldm() = default;

void Ldm::Apply(const DictionaryDelta& delta) {
  LdmTables::Changes changes = tables_.Apply(delta, context_.CurrentEpoch());
  // Transactions and waits keep raw partition pointers; forget those of the gone partitions.
  for (uint32_t table_id : changes.forgotten) {
    txns_.ForgetTable(table_id);
    replicator_.ForgetTable(table_id);
  }
  for (const auto& [table_id, partition] : changes.created) copier_.Created(table_id, partition);
}

bool Ldm::RestoreWrite(uint32_t table_id, uint32_t partition, absl::string_view row,
                       uint64_t epoch) {
  storage::Partition* p = tables_.Find(table_id, partition);
  if (p == nullptr) return false;
  const schema::TableDef& def = *tables_.Table(table_id)->def;
  std::string key;
  if (schema::IndexFoldsCase(def, 0) && schema::KeyOfRow(def, 0, row, &key) &&
      schema::KeyHash(def, key) % std::max<uint32_t>(1, def.partitions) != partition) {
    ++context_.stats.misplaced_restored_rows;
    if (misplaced_tables_.insert(table_id).second) {
      SHOAL_LOG(kError) << "table " << def.name << ": partition " << partition
                        << " holds rows whose keys now belong in other partitions (written "
                           "before text folding covered accents and case beyond ASCII): scans "
                           "find them, key lookups do not; dump and restore the table";
    }
  }
  RedoTap::EpochScope logged_in(&context_.redo, epoch);
  return p->Write(storage::kAutocommit, row).code == storage::OpCode::kOk;
}

bool Ldm::RestoreDelete(uint32_t table_id, uint32_t partition, absl::string_view key,
                        uint64_t epoch) {
  storage::Partition* p = tables_.Find(table_id, partition);
  if (p == nullptr) return false;
  RedoTap::EpochScope logged_in(&context_.redo, epoch);
  storage::OpCode code = p->Delete(storage::kAutocommit, key).code;
  return code == storage::OpCode::kOk || code == storage::OpCode::kNotFound;
}

bool Ldm::RestoreTruncate(uint32_t table_id, uint32_t partition, uint64_t epoch) {
  if (!tables_.Reset(table_id, partition)) return false;
  context_.redo.Truncated(table_id, partition, epoch);
  return true;
}

uint64_t Ldm::max_auto_increment(uint32_t table_id) const {
  const TableState* table = tables_.Table(table_id);
  if (table == nullptr) return 0;
  uint64_t max = 0;
  for (const auto& partition : table->partitions) {
    if (partition != nullptr) max = std::max(max, partition->max_auto_increment());
  }
  return max;
}

void Ldm::SetGroup(const GroupView& group, ReplySink* sink) {
  GroupView old = std::move(context_.group);
  context_.group = group;
  for (size_t i = 0; i < old.members.size(); ++i) {
    if (old.started[i] && !group.IsStarted(old.members[i])) NodeLost(old.members[i], sink);
  }
  handover_.FollowPrimaries(old, sink);
  copier_.ViewChanged();
  participant_.ViewChanged(sink);
}

void Ldm::NodeLost(int node, ReplySink* sink) {
  // What that node still owed us it will never send; what it replicated here and had not
  // committed dies with it.
  replicator_.NodeLost(node, sink);
  replica_apply_.SourceLost(node, sink);
  copier_.NodeLost(node);
  handover_.Forget(node, sink);
}

void Ldm::Execute(const wire::Op& op, uint32_t conn, ReplySink* sink) {
  ++context_.stats.ops;
  Run(op, conn, sink, absl::InfiniteFuture());
}

namespace {

// Decodes `op` as a `T`; a malformed one is logged and dropped (only a peer or client with a
// bug sends one: the framing was checked).
template <typename T>
std::optional<T> Decode(const wire::Op& op) {
  T message;
  if (T::Decode(op, &message) == wire::DecodeStatus::kOk) return message;
  SHOAL_LOG(kWarning) << "dropped a malformed " << wire::OpTypeName(op.header.type);
  return std::nullopt;
}

}  // namespace

bool Ldm::Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline) {
  if (handover_.ParkUntilHandedOver(op, conn, deadline)) return false;
  switch (op.header.type) {
    case OpType::kReplicaWrite:
      if (auto write = Decode<wire::ReplicaWrite>(op)) {
        return replica_apply_.Apply(*write, write->row, op, conn, sink, deadline);
      }
      return true;
    case OpType::kReplicaDelete:
      if (auto deleted = Decode<wire::ReplicaDelete>(op)) {
        return replica_apply_.Apply(*deleted, deleted->key, op, conn, sink, deadline);
      }
      return true;
    case OpType::kReplicaCommit:
      if (auto commit = Decode<wire::ReplicaCommit>(op)) replica_apply_.End(*commit, conn, sink);
      return true;
    case OpType::kCopyKeep:
      if (auto keep = Decode<wire::CopyKeep>(op);
          keep && sweep_.open(keep->table_id, keep->partition)) {
        sweep_.Named(keep->key);
      }
      return true;
    case OpType::kCopyEdge:
      if (auto edge = Decode<wire::CopyEdge>(op)) {
        if (edge->end) {
          sweep_.End(*edge);
        } else {
          sweep_.Begin(*edge);
        }
      }
      return true;
    case OpType::kReplicaAbort:
      if (auto abort = Decode<wire::ReplicaAbort>(op)) replica_apply_.End(*abort, sink);
      return true;
    case OpType::kReplicaPrepare:
      if (auto prepare = Decode<wire::ReplicaPrepare>(op)) {
        replica_apply_.Prepare(*prepare, conn, sink);
      }
      return true;
    case OpType::kReplicaAck:
      if (auto ack = Decode<wire::ReplicaAck>(op)) replicator_.OnAck(*ack, sink);
      return true;
    case OpType::kPrepare:
      if (auto prepare = Decode<wire::Prepare>(op)) {
        // A TC asks a backup directly; a node that became the primary since does it all.
        if (prepare->on_replica && !context_.group.IsPrimary(prepare->partition)) {
          replica_apply_.PrepareForTc(*prepare, conn, sink);
        } else {
          prepare->on_replica = false;
          participant_.Prepare(*prepare, conn, sink);
        }
      }
      return true;
    case OpType::kTakeoverReq:
      if (auto request = Decode<wire::TakeoverReq>(op)) participant_.Query(*request, conn, sink);
      return true;
    case OpType::kHandover:
      if (auto handover = Decode<wire::Handover>(op)) handover_.Take(*handover, sink);
      return true;
    case OpType::kCopyReq:
    case OpType::kCopyDone:
    case OpType::kCommitTxn:
    case OpType::kPing:
      return true;  // the data plane's
    default:
      break;
  }
  // A client's (or its TC's) operation.
  const wire::OpHeader& h = op.header;
  if (h.txn >> 63) {
    ReplyError(&context_, sink->ReplyTo(conn), h.tag, wire::kErInternal,
               "Internal error: reserved transaction id");
    return true;
  }
  if (h.type == OpType::kCommit) {
    if (auto commit = Decode<wire::Commit>(op)) {
      if (commit->on_replica && !context_.group.IsPrimary(commit->partition)) {
        replica_apply_.CommitForTc(*commit, conn, sink);
      } else {
        replicator_.Commit(*commit, conn, sink);
      }
    }
    return true;
  }
  if (h.type == OpType::kAbort) {
    if (auto abort = Decode<wire::Abort>(op)) ClientAbort(*abort, conn, sink);
    return true;
  }
  return key_ops_.Run(op, conn, sink, deadline);
}

void Ldm::ClientAbort(const wire::Abort& abort, uint32_t conn, ReplySink* sink) {
  if (context_.group.IsPrimary(abort.partition)) txns_.Adopt(abort.txn);
  // A client's rollback (tc 0) does not end what a TC prepared: only the TC (or the node
  // taking over from it) knows the outcome. The client sends one after any failed commit, to
  // clear what the TC did not reach.
  const TxnRecord* record = txns_.Primary(abort.txn);
  if (abort.tc != 0 || record == nullptr || !record->prepared()) {
    replicator_.Abort(abort.txn, sink);
  }
  wire::AppendResult(sink->ReplyTo(conn), wire::kResultOk, 0, abort.tag, {});
}

void Ldm::Unpark(storage::TxnId txn, ReplySink* sink) {
  if (lock_waits_.empty()) return;
  for (LockWaits::Parked& orphan : lock_waits_.OfEnded(txn)) {
    absl::string_view bytes = orphan.op;
    wire::Op op;
    SHOAL_CHECK(wire::DecodeOp(&bytes, &op) == wire::DecodeStatus::kOk);  // decoded before
    ReplyError(&context_, sink->ReplyTo(orphan.conn), op.header.tag, wire::kErTemporary,
               wire::TemporaryError(wire::kNdbRolledBack,
                                    "its transaction ended while it waited for a lock"));
  }
  for (LockWaits::Parked& waiting : lock_waits_.Ready(txn)) {
    absl::string_view bytes = waiting.op;
    wire::Op op;
    if (wire::DecodeOp(&bytes, &op) != wire::DecodeStatus::kOk) continue;
    Run(op, waiting.conn, sink, waiting.deadline);
  }
}

void Ldm::ExpireLockWaits(absl::Time now, ReplySink* sink) {
  if (holders_heard_ != nullptr) {
    holders_heard_->Read(&heard_);
  } else {
    heard_ = HoldersHeard::View{now, true, {}};
  }
  const bool moving = heard_.group_heard && now - heard_.at <= LockWaits::kSilence;
  auto holder_heard = [&](storage::TxnId holder) {
    if (!moving) return false;
    const TxnRecord* record = txns_.Primary(holder);
    // A prepared holder waits for its TC, not its client (the group covers the TC's commit).
    if (record == nullptr || record->prepared()) return true;
    return !absl::c_linear_search(heard_.silent_clients, record->conn);
  };
  for (LockWaits::Parked& expired : lock_waits_.Expired(now, holder_heard)) {
    absl::string_view bytes = expired.op;
    wire::Op op;
    // Parked operations were decoded before: this cannot fail.
    SHOAL_CHECK(wire::DecodeOp(&bytes, &op) == wire::DecodeStatus::kOk);
    if (IsHandoverWait(expired.waiting_for)) {
      ReplyError(&context_, sink->ReplyTo(expired.conn), op.header.tag, wire::kErTemporary,
                 wire::TemporaryError(
                     wire::kNdbNotPrimary,
                     absl::StrCat("data node ", context_.group.self,
                                  " is not yet the primary of partition ", op.header.partition,
                                  ": its former primary has not handed it over")));
      continue;
    }
    if (++context_.stats.lock_timeouts % 64 == 1) {
      const TxnRecord* own = txns_.Primary(expired.waiting_for);
      const TxnRecord* replica = txns_.Replica(expired.waiting_for);
      SHOAL_LOG(kWarning) << "lock wait timeout behind transaction " << expired.waiting_for
                          << (own != nullptr
                                  ? absl::StrCat(" (ours, from connection ", own->conn,
                                                 own->prepared() ? ", prepared" : "", ")")
                                  : "")
                          << (replica != nullptr
                                  ? absl::StrCat(" (replicated from data node ", replica->source,
                                                 replica->prepared() ? ", prepared" : "", ")")
                                  : "");
    }
    constexpr absl::string_view kTimeout = "Lock wait timeout exceeded; try restarting transaction";
    if (op.header.type >= OpType::kReplicaWrite) {
      wire::OpTarget answered;
      answered.FromHeader(op.header);
      replica_apply_.Ack(answered, expired.conn, sink, wire::kErLockWaitTimeout, kTimeout);
    } else {
      ReplyError(&context_, sink->ReplyTo(expired.conn), op.header.tag, wire::kErLockWaitTimeout,
                 kTimeout);
    }
  }
}

void Ldm::ConnectionClosed(uint32_t conn, ReplySink* sink) {
  lock_waits_.DropConnection(conn);
  // A prepared transaction is its TC's to end, whatever becomes of its client.
  for (storage::TxnId txn : txns_.UnpreparedPrimariesOf(conn)) replicator_.Abort(txn, sink);
  for (storage::TxnId txn : txns_.UnpreparedReplicasOf(conn)) {
    replica_apply_.EndTxn(txn, nullptr, /*commit=*/false, sink);
  }
  copier_.ConnectionClosed(conn);  // the node being copied to left
}

}  // namespace shoal::node
