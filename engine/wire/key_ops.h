// Typed operations of a native client on one partition: key operations and scans, sent to the
// partition's primary (or a replica, for committed reads), and the end of a transaction there,
// sent by the client or by a TC (coordinator.h).
//
// Each struct is a named view over an Op of its type (op.h has the layout): Encode appends the
// very bytes op.h lays out, Decode reads them back from an Op that DecodeOp split. Header
// fields a type gives no meaning are written 0 and ignored when read; other OpFlags bits are
// ignored as well. String fields borrow: Encode copies them into the frame, and after Decode
// they point into the Op's bytes (valid while those are). Neither allocates, so these are the
// hot path's messages. Decode checks the type, the section count and what the sections must
// hold (column lists of whole int<2>, scan parameters of their size); on kMalformed `*out` is
// unspecified. Encode drops the operation when `builder` is null, as AppendOp does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

namespace shoal::wire {

// The header fields an operation on a partition carries: which partition of which table
// version, under which transaction, and the tag its result (or answer) echoes.
struct OpTarget {
  uint32_t table_id = 0;
  uint32_t table_version = 0;  // the version planned with; a mismatch is refused with 1412
  uint32_t partition = 0;
  uint64_t txn = 0;  // 0: autocommit
  uint64_t tag = 0;

  // The header of an operation of `type` to this target, with the type's flags and index.
  OpHeader ToHeader(OpType type, uint8_t flags = 0, uint16_t index = 0) const;
  void FromHeader(const OpHeader& header);
  bool operator==(const OpTarget&) const = default;
};

// kRead: flags kLockExclusive [kLockNoWait | kLockSkipLocked] | key | columns.
struct Read : OpTarget {
  static constexpr OpType kType = OpType::kRead;
  bool lock_exclusive = false;  // SELECT … FOR UPDATE: lock the row
  LockWait lock_wait = LockWait::kWait;
  absl::string_view key;      // a packed key (schema/row.h)
  absl::string_view columns;  // int<2> column positions (DecodeColumns)

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Read* out);
  bool operator==(const Read&) const = default;
};

// kReadUnique: flags kLockExclusive | index the unique index | key (of that index) | columns.
struct ReadUnique : OpTarget {
  static constexpr OpType kType = OpType::kReadUnique;
  bool lock_exclusive = false;
  LockWait lock_wait = LockWait::kWait;
  uint16_t index = 0;  // position in TableDef::indexes
  absl::string_view key;
  absl::string_view columns;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, ReadUnique* out);
  bool operator==(const ReadUnique&) const = default;
};

// kInsert: row (packed over every column).
struct Insert : OpTarget {
  static constexpr OpType kType = OpType::kInsert;
  absl::string_view row;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Insert* out);
  bool operator==(const Insert&) const = default;
};

// kWrite (insert or replace): row.
struct Write : OpTarget {
  static constexpr OpType kType = OpType::kWrite;
  absl::string_view row;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Write* out);
  bool operator==(const Write&) const = default;
};

// kUpdate: key | program (schema/program.h).
struct Update : OpTarget {
  static constexpr OpType kType = OpType::kUpdate;
  absl::string_view key;
  absl::string_view program;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Update* out);
  bool operator==(const Update&) const = default;
};

// kUpdateIf: key | filter | program.
struct UpdateIf : OpTarget {
  static constexpr OpType kType = OpType::kUpdateIf;
  absl::string_view key;
  absl::string_view filter;
  absl::string_view program;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, UpdateIf* out);
  bool operator==(const UpdateIf&) const = default;
};

// kDelete: key.
struct Delete : OpTarget {
  static constexpr OpType kType = OpType::kDelete;
  absl::string_view key;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Delete* out);
  bool operator==(const Delete&) const = default;
};

// kDeleteIf: key | filter.
struct DeleteIf : OpTarget {
  static constexpr OpType kType = OpType::kDeleteIf;
  absl::string_view key;
  absl::string_view filter;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, DeleteIf* out);
  bool operator==(const DeleteIf&) const = default;
};

// kScan: flags kLockExclusive | index the index scanned | lower | upper | resume | filter |
// columns | ScanParams.
struct Scan : OpTarget {
  static constexpr OpType kType = OpType::kScan;
  bool lock_exclusive = false;
  LockWait lock_wait = LockWait::kWait;
  uint16_t index = 0;  // position in TableDef::indexes (0: the primary key)
  absl::string_view lower;
  absl::string_view upper;
  absl::string_view resume;  // empty, or the token of the batch before (kMoreRows)
  absl::string_view filter;
  absl::string_view columns;
  ScanParams params;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Scan* out);
  bool operator==(const Scan&) const = default;
};

// The range list of a kScan with ScanFlags kRangeList: (int<2> length | lower | int<2>
// length | upper) per range, each bound a packed key prefix, inclusive, empty for open. The
// data node scans the ranges in the order given (in descending scans, from the last) and
// skips none, so ranges in index order, disjoint, give the rows in index order: what the
// client's ordered merge needs. One scan operation per partition for any number of ranges.
struct ScanRange {
  absl::string_view lower;
  absl::string_view upper;
};
void AppendScanRange(absl::string_view lower, absl::string_view upper, std::string* list);
// False when `list` is not a whole, non-empty range list.
bool DecodeScanRanges(absl::string_view list, std::vector<ScanRange>* out);
// A range-list scan's resume token: the range it stopped in and that range's own token.
std::string ScanRangeResume(size_t range, absl::string_view token);
bool DecodeScanRangeResume(absl::string_view resume, size_t* range, absl::string_view* token);

// An epoch section: empty for 0, else int<8>. False when it is neither.
bool DecodeEpochSection(absl::string_view section, uint64_t* epoch);
// Its bytes, valid as long as `scratch`.
absl::string_view EpochSection(uint64_t epoch, char (&scratch)[8]);

// The data node ids a TC ended a transaction on before it asks a primary (kCommit, kPrepare):
// int<2> each. The primary skips them.
void AddReplicaDone(std::string* nodes, int node);
bool HasReplicaDone(absl::string_view nodes, int node);

// kCommit: flags kOnReplica | index the TC (0: the client's own commit of a transaction in one
// partition) | epoch (the TC's; none from a client) | replicas done (AddReplicaDone). Ends
// `txn` in `partition`: on every replica (skipping those done), or with kOnReplica on this
// backup only.
struct Commit : OpTarget {
  static constexpr OpType kType = OpType::kCommit;
  uint16_t tc = 0;
  uint64_t epoch = 0;  // from a TC: the epoch it decided the commit in; 0: the primary decides
  bool on_replica = false;
  absl::string_view replicas_done;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Commit* out);
  bool operator==(const Commit&) const = default;
};

// kAbort: index the TC (0: the client's rollback, which leaves what a TC prepared), no
// sections.
struct Abort : OpTarget {
  static constexpr OpType kType = OpType::kAbort;
  uint16_t tc = 0;

  void Encode(FrameBuilder* builder) const;
  static DecodeStatus Decode(const Op& op, Abort* out);
  bool operator==(const Abort&) const = default;
};

}  // namespace shoal::wire
