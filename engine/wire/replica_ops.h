// Typed operations between the data nodes of a node group (docs/architecture.md I7): replication
// from a primary to its backups and their answers, the copy to a restarting node, the handover
// of a primary role, and the liveness ping. Produced by the LDMs (engine/node/ldm/) and the
// data plane, consumed there too.
//
// The same contract as key_ops.h: each struct is a named view over an Op of its type, Encode
// writes exactly op.h's bytes, Decode checks the type, the section count and the sections'
// contents, string fields borrow, nothing allocates, and a null builder drops the operation.
// Every one of them names its sender in the header's `index` (from_node).
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"
#include "engine/wire/frame.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/op.h"

namespace shoal::wire {

// kReplicaWrite: index the primary | flags kReplicaCommitNow | row (insert or replace) |
// epoch. A `tag` of 0 asks for no answer (the copy to a restarting node); else a ReplicaAck
// echoes it.
struct ReplicaWrite : OpTarget {
  static constexpr OpType kType = OpType::kReplicaWrite;
  uint16_t from_node = 0;
  bool commit_now = false;  // the primary ran it as an autocommit write: committed as applied
  absl::string_view row;
  uint64_t epoch = 0;  // commit_now: the epoch its commit belongs to

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaWrite* out);
  bool operator==(const ReplicaWrite&) const = default;
};

// kReplicaDelete: index the primary | flags kReplicaCommitNow | key | epoch.
struct ReplicaDelete : OpTarget {
  static constexpr OpType kType = OpType::kReplicaDelete;
  uint16_t from_node = 0;
  bool commit_now = false;
  absl::string_view key;
  uint64_t epoch = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaDelete* out);
  bool operator==(const ReplicaDelete&) const = default;
};

// kReplicaCommit: index the primary | epoch: commit `txn` in `partition`.
struct ReplicaCommit : OpTarget {
  static constexpr OpType kType = OpType::kReplicaCommit;
  uint16_t from_node = 0;
  uint64_t epoch = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaCommit* out);
  bool operator==(const ReplicaCommit&) const = default;
};

// kReplicaAbort: index the primary, no sections: roll `txn` back in `partition` (no answer).
struct ReplicaAbort : OpTarget {
  static constexpr OpType kType = OpType::kReplicaAbort;
  uint16_t from_node = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaAbort* out);
  bool operator==(const ReplicaAbort&) const = default;
};

// kReplicaAck: index the backup | status: empty when done, else int<2> MySQL error (never 0) |
// message. The backup's answer to the operation whose target and tag it echoes.
struct ReplicaAck : OpTarget {
  static constexpr OpType kType = OpType::kReplicaAck;
  uint16_t from_node = 0;
  uint16_t error = 0;         // 0: applied
  absl::string_view message;  // with an error only

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaAck* out);
  bool operator==(const ReplicaAck&) const = default;
};

// kReplicaPrepare: index the primary | int<4> the TC. Keep `txn` in `partition` until told its
// outcome (two-phase commit, coordinator.h); answered with a ReplicaAck unless `tag` is 0.
struct ReplicaPrepare : OpTarget {
  static constexpr OpType kType = OpType::kReplicaPrepare;
  uint16_t from_node = 0;
  uint32_t tc = 0;  // the data node whose TC coordinates the transaction

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReplicaPrepare* out);
  bool operator==(const ReplicaPrepare&) const = default;
};

// kCopyReq: index the starting node | txn `since_epoch`: "copy your partitions to me". With a
// since_epoch, the node restored its own disk up to that epoch: committed rows no newer than it
// are named by key only (kCopyKeep), and each partition's copy is framed by kCopyEdge so that the
// node can drop the rows it has and the copy did not name (deleted meanwhile).
struct CopyReq {
  static constexpr OpType kType = OpType::kCopyReq;
  uint16_t from_node = 0;
  uint64_t since_epoch = 0;  // 0: the node has nothing, copy everything

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, CopyReq* out);
  bool operator==(const CopyReq&) const = default;
};

// kCopyDone: the progress of one LDM of the copying node, no sections. In the header: index the
// copying node | table_id `ldm` | partition `ldm_count` | tag `sent` | txn `total` | flags
// kCopyComplete. Malformed unless ldm < ldm_count.
struct CopyDone {
  static constexpr OpType kType = OpType::kCopyDone;
  uint16_t from_node = 0;
  uint32_t ldm = 0;        // which LDM of the copying node
  uint32_t ldm_count = 0;  // how many LDMs copy
  uint64_t sent = 0;       // partitions that LDM has sent
  uint64_t total = 0;      // its partitions in all
  bool complete = false;   // it has sent all

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, CopyDone* out);
  bool operator==(const CopyDone&) const = default;
};

// kHandover: index the sender, primary of `partition` until now, no sections: it has stopped
// acting as its primary, and all it sent before arrives ahead of this.
struct Handover {
  static constexpr OpType kType = OpType::kHandover;
  uint16_t from_node = 0;
  uint32_t partition = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Handover* out);
  bool operator==(const Handover&) const = default;
};

// kPing: index the sender, nothing else; sent on a quiet peer link every liveness check.
struct Ping {
  static constexpr OpType kType = OpType::kPing;
  uint16_t from_node = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Ping* out);
  bool operator==(const Ping&) const = default;
};

// kCopyKeep: index the copying node | key: a committed row of `partition` unchanged since the
// copy's since_epoch; the restarting node keeps its own.
struct CopyKeep : OpTarget {
  static constexpr OpType kType = OpType::kCopyKeep;
  uint16_t from_node = 0;
  absl::string_view key;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, CopyKeep* out);
  bool operator==(const CopyKeep&) const = default;
};

// kCopyEdge: index the copying node | flags kCopyComplete at the end, none at the beginning, no
// sections: the copy of `partition` of `table_id` begins or ends (a copy since an epoch only).
struct CopyEdge : OpTarget {
  static constexpr OpType kType = OpType::kCopyEdge;
  uint16_t from_node = 0;
  bool end = false;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, CopyEdge* out);
  bool operator==(const CopyEdge&) const = default;
};

// kEpoch: index the sender | flags the phase | txn the epoch, no sections. The rounds of a
// global checkpoint (engine/node/plane/epoch_role.h).
enum class EpochPhase : uint8_t {
  kBegin = 1,     // master → all: commits decided from now on belong to `epoch`
  kReady = 2,     // all → master: every commit I decided before `epoch` is on every replica
  kSave = 3,      // master → all: sync your redo through `epoch`
  kSaved = 4,     // all → master: done
  kComplete = 5,  // master → all: `epoch` is on disk on every serving node
  kRequest = 6,   // any → master: complete an epoch soon (a clean stop waits for it)
  kSync = 7,      // a copy source → the node it copies to: the epoch it is in (no answer)
};
inline constexpr uint8_t kMaxEpochPhase = 7;

struct Epoch {
  static constexpr OpType kType = OpType::kEpoch;
  uint16_t from_node = 0;
  EpochPhase phase = EpochPhase::kBegin;
  uint64_t epoch = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Epoch* out);
  bool operator==(const Epoch&) const = default;
};

}  // namespace shoal::wire
