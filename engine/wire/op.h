// Operations and their results: the items of kOpReq and kOpConf frames (frame.h).
//
// Operation:
//   int<4> length        the whole operation, this field included
//   int<1> type          OpType
//   int<1> flags         OpFlags bits
//   int<2> index         kReadUnique, kScan: position in TableDef::indexes; else 0
//   int<4> table_id
//   int<4> table_version the version the client planned with; a mismatch is refused with
//                        ER_TABLE_DEF_CHANGED (1412) and the client refreshes its dictionary
//   int<4> partition     which partition of the table (the client hashed the key: I2)
//   int<8> txn           transaction id (0: autocommit), unique per client connection
//   int<8> tag           the client's correlation id, echoed in the result
//   sections: each int<4> length | bytes, in the order the type defines:
//     kRead, kReadUnique   key | columns
//     kInsert, kWrite      row (packed over every column)
//     kUpdate              key | update program          kUpdateIf  key | filter | program
//     kDelete              key                           kDeleteIf  key | filter
//     kScan                lower | upper | resume | filter | columns | ScanParams; with
//                          ScanFlags kRangeList, `lower` is a range list (key_ops.h
//                          ScanRangeList: NDB's multi-range read), `upper` empty, and
//                          `resume` int<2> the range it stopped in | that range's token
//     kCommit              epoch | replicas done: ends `txn` in `partition`; `index` the TC that
//                          sends it, 0 from the client. The epoch (below) is the TC's; empty
//                          from a client. Replicas done: int<2> data node ids (empty from a
//                          client), the backups the TC already ended it on, which the primary
//                          then skips (flags kOnReplica: end it here, a backup, for the TC)
//     kAbort               (none): the same, rolls back (a client's leaves what a TC prepared)
//   Between the data nodes of a node group (replication, docs/architecture.md I7); `index` carries
//   the sending data node's id:
//     kReplicaWrite        row | epoch: insert or replace, under `txn` (kReplicaCommitNow:
//                          committed at once, the primary ran it as an autocommit write)
//     kReplicaDelete       key | epoch
//     kReplicaCommit       epoch: commit `txn` in `partition`; kReplicaAbort (none): roll back
//     kReplicaAck          status (empty: done; else int<2> MySQL error | message): the backup's
//                          answer to the kReplicaWrite/Delete/Commit whose `tag` it echoes
//                          (tag 0 asks for no answer)
//     kCopyReq             (none): "copy your partitions to me", from a starting node; `txn`
//                          the epoch it restored from its own disk (0: none)
//     kCopyKeep            key: a committed row unchanged since that epoch (keep yours)
//     kCopyEdge            (none): a partition's copy since an epoch begins, or ends
//                          (kCopyComplete); the restarting node then drops what was not named
//     kCopyDone            (none): progress of one LDM of the copying node: `table_id` that
//                          LDM, `partition` how many LDMs copy, `tag` partitions it has sent,
//                          `txn` its partitions in all; flags kCopyComplete: it has sent all
//   Two-phase commit of a transaction over several partitions (engine/node/coordinator.h):
//     kCommitTxn           participants: (int<4> table | int<4> partition)…, the first the
//                          coordinating partition: client → the data node primary for it (TC)
//     kPrepare             replicas done: TC → the primary of `partition`: keep `txn` (its locks
//                          and writes) until told its outcome, on every replica; `index` the
//                          TC; replicas done as kCommit's (flags kOnReplica: TC → a backup,
//                          keep this replica of it)
//     kReplicaPrepare      int<4> the TC: the same, primary → backups (answered with kReplicaAck)
//     kTakeoverReq         (none): the transactions of partition `partition` whose TC was the
//                          data node `index`, asked by the node that takes over its role
//   Between the data nodes of a group, to know each other alive, and from a client that keeps
//   alive (api::Client::KeepAlive: lock waits on its locks then count only while it is heard):
//     kPing                (none): sent on a quiet link every liveness check
//   When a restarted node takes back its primary roles (engine/node/ldm/handover.h):
//     kHandover            (none): the sender, primary of `partition` until now, has stopped
//                          acting as its primary; all it sent before arrives ahead of this
//   Global checkpoints (engine/node/plane/epoch_role.h), between every serving data node:
//     kEpoch               (none): `flags` the EpochPhase, `txn` the epoch, `index` the sender
//   An epoch section is empty (none: a client's commit, or the sender logs nothing) or int<8>:
//   the global checkpoint the commit belongs to, chosen by whoever decided the commit (the
//   primary, or the TC), so that every replica logs it under the same one (I8).
//   A participant answers the TC's kPrepare, kCommit, kAbort and kTakeoverReq with results;
//   kTakeoverReq's: int<8> txn | int<1> committed, for each such transaction.
//   key: a packed key (schema/row.h); columns: int<2> column positions; programs and filters:
//   schema/program.h. ScanParams: int<4> max_rows | int<4> max_examined | int<1> ScanFlags.
//
// Typed views (messages.h): every type has a struct of its own, named as the type without its
// `k` (kCopyDone: CopyDone), whose fields name what the header and sections above mean for that
// type and whose Encode and Decode write and read exactly this layout; DecodeOp below is the
// framing they build on (length, type, sections).
//   key_ops.h      Read ReadUnique Insert Write Update UpdateIf Delete DeleteIf Scan Commit Abort
//   replica_ops.h  ReplicaWrite ReplicaDelete ReplicaCommit ReplicaAbort ReplicaAck
//                  ReplicaPrepare CopyReq CopyDone Handover Ping Epoch CopyKeep CopyEdge
//   txn_ops.h      CommitTxn Prepare TakeoverReq, and TakeoverConf: kTakeoverReq's result
//
// Result:
//   int<4> length | int<2> code (0 ok, 1 not found, else a MySQL error number) | int<2> flags |
//   int<8> tag | sections:
//     ok kRead, kReadUnique   row (packed over the columns asked for)
//     ok kScan                rows (packed rows, back to back) | int<4> row count | resume
//                             (flags & kMoreRows: call again with this resume token)
//     ok kUpdate, kUpdateIf   (none); flags & kUnchanged: the row matched but its program
//                             changed no value (MySQL's "Rows matched" without "Changed")
//     ok kWrite               (none); flags & kReplaced: a row was there and was replaced
//     error                   message (the MySQL error text)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/wire/frame.h"

namespace shoal::wire {

enum class OpType : uint8_t {
  kRead = 1,
  kReadUnique = 2,
  kInsert = 3,
  kWrite = 4,
  kUpdate = 5,
  kUpdateIf = 6,
  kDelete = 7,
  kDeleteIf = 8,
  kScan = 9,
  kCommit = 10,
  kAbort = 11,
  kReplicaWrite = 12,
  kReplicaDelete = 13,
  kReplicaCommit = 14,
  kReplicaAbort = 15,
  kReplicaAck = 16,
  kCopyReq = 17,
  kCopyDone = 18,
  kCommitTxn = 19,
  kPrepare = 20,
  kReplicaPrepare = 21,
  kTakeoverReq = 22,
  kPing = 23,
  kHandover = 24,
  kEpoch = 25,
  kCopyKeep = 26,
  kCopyEdge = 27,
};
inline constexpr OpType kMaxOpType = OpType::kCopyEdge;
absl::string_view OpTypeName(OpType type);

enum OpFlags : uint8_t {
  kLockExclusive = 1,     // reads and scans: lock the rows (SELECT … FOR UPDATE)
  kReplicaCommitNow = 2,  // kReplicaWrite, kReplicaDelete: commit as applied
  kCopyComplete = 4,      // kCopyDone: the last partition is sent
  kOnReplica = 8,         // kPrepare, kCommit from a TC: this node's replica of the partition
  kLockNoWait = 16,       // locking reads and scans: a row locked by another fails (NOWAIT)
  kLockSkipLocked = 32,   // locking reads and scans: a row locked by another is passed over
};
// What a locking read does at a row another transaction holds (FOR UPDATE [NOWAIT | SKIP
// LOCKED]): waits for it (lock_wait_timeout), fails at once with 3572, or passes it over.
enum class LockWait : uint8_t { kWait, kNoWait, kSkipLocked };
enum ScanFlags : uint8_t {
  kLowerExclusive = 1,
  kUpperExclusive = 2,
  kDescending = 4,
  kRangeList = 8,  // `lower` holds many ranges, scanned one after another (key_ops.h)
};
enum ResultFlags : uint16_t {
  kMoreRows = 1,
  kUnchanged = 2,  // ok kUpdate, kUpdateIf: the program left the row's values as they were
  kReplaced = 4,   // ok kWrite: a row was there under the key and was replaced
};
inline uint16_t OkFlags(bool unchanged, bool replaced) {
  return (unchanged ? kUnchanged : 0) | (replaced ? kReplaced : 0);
}
enum ResultCode : uint16_t {
  kResultOk = 0,
  kResultNotFound = 1,
};

inline constexpr int kMaxSections = 6;
inline constexpr size_t kOpHeaderSize = 36;
inline constexpr size_t kResultHeaderSize = 16;

struct OpHeader {
  OpType type = OpType::kRead;
  uint8_t flags = 0;
  uint16_t index = 0;
  uint32_t table_id = 0;
  uint32_t table_version = 0;
  uint32_t partition = 0;
  uint64_t txn = 0;
  uint64_t tag = 0;
};

struct Op {
  OpHeader header;
  absl::string_view sections[kMaxSections];
  int section_count = 0;
  absl::string_view bytes;  // the whole operation as it came (for forwarding)
};

struct ScanParams {
  uint32_t max_rows = 0;
  uint32_t max_examined = 0;
  uint8_t flags = 0;  // ScanFlags
  bool operator==(const ScanParams&) const = default;
};
inline constexpr size_t kScanParamsSize = 9;

struct Result {
  uint16_t code = kResultOk;
  uint16_t flags = 0;
  uint64_t tag = 0;
  absl::string_view sections[3];
  int section_count = 0;
};

// How many sections each type carries; operations with another count are malformed.
int SectionCount(OpType type);
// Whether `op` is an operation of `type` with that type's sections: where the typed decoders
// (messages.h) start, so that an Op built by hand is checked like one DecodeOp made.
inline bool HasShape(const Op& op, OpType type) {
  return op.header.type == type && op.section_count == SectionCount(type);
}

// Decodes the operation at the front of `*in` and advances past it. Sections borrow `*in`.
// kMalformed for anything that does not fit the layout above (type, lengths, section count).
DecodeStatus DecodeOp(absl::string_view* in, Op* out);
DecodeStatus DecodeResult(absl::string_view* in, Result* out);
// Column lists are int<2> positions, copied out because the section may be unaligned; `out`
// is reused (no allocation once it has grown). False when the section's size is odd.
bool DecodeColumns(absl::string_view section, std::vector<uint16_t>* out);
DecodeStatus DecodeScanParams(absl::string_view section, ScanParams* out);
// Writes the kScanParamsSize bytes of `params` to `out` (no allocation, unlike
// EncodeScanParams).
void PutScanParams(const ScanParams& params, char* out);

// Encoders append to a frame under construction and count the item. AppendOp and
// AppendResult drop the item when `builder` is null (its destination is gone).
void AppendOp(FrameBuilder* builder, const OpHeader& header,
              std::initializer_list<absl::string_view> sections);
// Appends an operation whose sections the caller writes between BeginOp and EndOp, each between
// BeginSection and EndSection (a section made of several pieces, written without a copy).
// REQUIRES: `builder` is not null.
size_t BeginOp(FrameBuilder* builder, const OpHeader& header);
void EndOp(FrameBuilder* builder, size_t op_at);
void AppendResult(FrameBuilder* builder, uint16_t code, uint16_t flags, uint64_t tag,
                  std::initializer_list<absl::string_view> sections);
// Appends a result whose one section the caller writes directly into builder->buffer() between
// BeginResult and EndResult (saves a copy of read rows).
size_t BeginResult(FrameBuilder* builder, uint16_t code, uint16_t flags, uint64_t tag);
void BeginSection(FrameBuilder* builder, size_t* section_at);
void EndSection(FrameBuilder* builder, size_t section_at);
void EndResult(FrameBuilder* builder, size_t result_at);

std::string EncodeColumns(absl::Span<const uint16_t> columns);
std::string EncodeScanParams(const ScanParams& params);

}  // namespace shoal::wire
