// Typed messages of two-phase commit over several partitions (engine/node/coordinator.h): the
// client's commit request to a TC, the TC's prepare and takeover query to each partition's
// primary, and the takeover query's answer. The TC ends the transaction in each partition with
// Commit and Abort (key_ops.h, `tc` set); the primaries replicate a prepare with
// ReplicaPrepare (replica_ops.h).
//
// The same contract as key_ops.h: a named view over an Op (or, for TakeoverConf, a Result) of
// its type, exactly op.h's bytes, contents checked, string fields borrowed, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

namespace shoal::wire {

// kCommitTxn, client → the data node primary for its first participant (the TC):
// participants (int<4> table | int<4> partition)…, the first the coordinating partition; the
// header repeats the first in table_id and partition. Malformed without participants, with
// more than kMaxParticipants, or with a transaction id of 0 or with bit 63 set (the data nodes'
// own ids).
struct CommitTxn {
  static constexpr OpType kType = OpType::kCommitTxn;
  static constexpr size_t kParticipantSize = 8;
  static constexpr size_t kMaxParticipants = size_t{1} << 16;
  struct Participant {
    uint32_t table_id = 0;
    uint32_t partition = 0;
  };
  uint64_t txn = 0;
  uint64_t tag = 0;
  absl::string_view participants;  // built with AddParticipant

  static void AddParticipant(std::string* participants, uint32_t table_id, uint32_t partition);
  size_t participant_count() const { return participants.size() / kParticipantSize; }
  // REQUIRES: i < participant_count().
  Participant participant(size_t i) const;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, CommitTxn* out);
  bool operator==(const CommitTxn&) const = default;
};

// kPrepare, TC → the primary of `partition`: flags kOnReplica | index the TC | replicas done
// (key_ops.h's AddReplicaDone). Keep `txn` (its locks and writes) on every replica until told
// its outcome (skipping the replicas done), or with kOnReplica, TC → a backup: on this one.
struct Prepare {
  static constexpr OpType kType = OpType::kPrepare;
  uint16_t tc = 0;
  uint32_t table_id = 0;
  uint32_t partition = 0;
  uint64_t txn = 0;
  uint64_t tag = 0;
  bool on_replica = false;
  absl::string_view replicas_done;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Prepare* out);
  bool operator==(const Prepare&) const = default;
};

// kTakeoverReq, the node taking over a failed TC → the primary of `partition`, no sections;
// index the failed TC. Answered with a TakeoverConf.
struct TakeoverReq {
  static constexpr OpType kType = OpType::kTakeoverReq;
  uint16_t failed_tc = 0;
  uint32_t table_id = 0;
  uint32_t partition = 0;
  uint64_t tag = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, TakeoverReq* out);
  bool operator==(const TakeoverReq&) const = default;
};

// The result answering a kTakeoverReq: code ok | entries (int<8> txn | int<1> committed)…, the
// transactions of the failed TC the partition has prepared (committed 0) or committed (not 0).
struct TakeoverConf {
  static constexpr size_t kEntrySize = 9;
  struct Entry {
    uint64_t txn = 0;
    bool committed = false;
  };
  uint64_t tag = 0;
  absl::string_view entries;  // built with AddEntry

  static void AddEntry(std::string* entries, uint64_t txn, bool committed);
  size_t entry_count() const { return entries.size() / kEntrySize; }
  // REQUIRES: i < entry_count().
  Entry entry(size_t i) const;

  void Encode(FrameBuilder* builder) const;
  // Malformed unless `result` is ok with one section of whole entries.
  static DecodeStatus Decode(const Result& result, TakeoverConf* out);
  bool operator==(const TakeoverConf&) const = default;
};

}  // namespace shoal::wire
