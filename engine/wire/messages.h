// The typed native messages, one struct per OpType (op.h lists which is whose), by family:
//   key_ops.h      Read ReadUnique Insert Write Update UpdateIf Delete DeleteIf Scan Commit Abort
//   replica_ops.h  ReplicaWrite ReplicaDelete ReplicaCommit ReplicaAbort ReplicaAck
//                  ReplicaPrepare CopyReq CopyDone Handover Ping Epoch CopyKeep CopyEdge
//   txn_ops.h      CommitTxn Prepare TakeoverReq, and TakeoverConf (a Result)
// DecodeOp (op.h) stays the framing layer: length, type and the split into sections. A typed
// Decode names the fields of one type and checks what that type's sections must hold.
#pragma once

#include "absl/strings/string_view.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/op.h"
#include "engine/wire/replica_ops.h"
#include "engine/wire/txn_ops.h"

namespace shoal::wire {

// Decodes the operation at the front of `*in` as a `T` and advances past it; kMalformed (and
// `*in` untouched) for anything else, a strict prefix of one included. `T`'s string fields
// borrow `*in`.
template <typename T>
DecodeStatus DecodeMessage(absl::string_view* in, T* out) {
  absl::string_view rest = *in;
  Op op;
  if (DecodeOp(&rest, &op) != DecodeStatus::kOk || T::Decode(op, out) != DecodeStatus::kOk) {
    return DecodeStatus::kMalformed;
  }
  *in = rest;
  return DecodeStatus::kOk;
}

template <typename... T>
struct TypeList {};

// Every typed operation, in OpType order (tests and the fuzz target walk it).
using AllOps = TypeList<Read, ReadUnique, Insert, Write, Update, UpdateIf, Delete, DeleteIf, Scan,
                        Commit, Abort, ReplicaWrite, ReplicaDelete, ReplicaCommit, ReplicaAbort,
                        ReplicaAck, CopyReq, CopyDone, CommitTxn, Prepare, ReplicaPrepare,
                        TakeoverReq, Ping, Handover, Epoch, CopyKeep, CopyEdge>;

}  // namespace shoal::wire
