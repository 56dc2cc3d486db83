// Codecs of the client's typed operations (key_ops.h) over the Op layout of op.h.
#include "engine/wire/key_ops.h"

#include <cstring>

namespace shoal::wire {
namespace {

uint8_t LockFlags(bool lock_exclusive, LockWait wait) {
  if (!lock_exclusive) return 0;
  switch (wait) {
    case LockWait::kWait:
      break;
    case LockWait::kNoWait:
      return kLockExclusive | kLockNoWait;
    case LockWait::kSkipLocked:
      return kLockExclusive | kLockSkipLocked;
  }
  return kLockExclusive;
}

LockWait LockWaitOf(uint8_t flags) {
  if (flags & kLockNoWait) return LockWait::kNoWait;
  if (flags & kLockSkipLocked) return LockWait::kSkipLocked;
  return LockWait::kWait;
}

bool WholeColumns(absl::string_view columns) { return columns.size() % 2 == 0; }

}  // namespace

OpHeader OpTarget::ToHeader(OpType type, uint8_t flags, uint16_t index) const {
  OpHeader h;
  h.type = type;
  h.flags = flags;
  h.index = index;
  h.table_id = table_id;
  h.table_version = table_version;
  h.partition = partition;
  h.txn = txn;
  h.tag = tag;
  return h;
}

void OpTarget::FromHeader(const OpHeader& h) {
  table_id = h.table_id;
  table_version = h.table_version;
  partition = h.partition;
  txn = h.txn;
  tag = h.tag;
}

void Read::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType, LockFlags(lock_exclusive, lock_wait)), {key, columns});
}

DecodeStatus Read::Decode(const Op& op, Read* out) {
  if (!HasShape(op, kType) || !WholeColumns(op.sections[1])) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->lock_exclusive = (op.header.flags & kLockExclusive) != 0;
  out->lock_wait = LockWaitOf(op.header.flags);
  out->key = op.sections[0];
  out->columns = op.sections[1];
  return DecodeStatus::kOk;
}

void ReadUnique::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType, LockFlags(lock_exclusive, lock_wait), index), {key, columns});
}

DecodeStatus ReadUnique::Decode(const Op& op, ReadUnique* out) {
  if (!HasShape(op, kType) || !WholeColumns(op.sections[1])) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->lock_exclusive = (op.header.flags & kLockExclusive) != 0;
  out->lock_wait = LockWaitOf(op.header.flags);
  out->index = op.header.index;
  out->key = op.sections[0];
  out->columns = op.sections[1];
  return DecodeStatus::kOk;
}

void Insert::Encode(FrameBuilder* builder) const { AppendOp(builder, ToHeader(kType), {row}); }

DecodeStatus Insert::Decode(const Op& op, Insert* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->row = op.sections[0];
  return DecodeStatus::kOk;
}

void Write::Encode(FrameBuilder* builder) const { AppendOp(builder, ToHeader(kType), {row}); }

DecodeStatus Write::Decode(const Op& op, Write* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->row = op.sections[0];
  return DecodeStatus::kOk;
}

void Update::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType), {key, program});
}

DecodeStatus Update::Decode(const Op& op, Update* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->key = op.sections[0];
  out->program = op.sections[1];
  return DecodeStatus::kOk;
}

void UpdateIf::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType), {key, filter, program});
}

DecodeStatus UpdateIf::Decode(const Op& op, UpdateIf* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->key = op.sections[0];
  out->filter = op.sections[1];
  out->program = op.sections[2];
  return DecodeStatus::kOk;
}

void Delete::Encode(FrameBuilder* builder) const { AppendOp(builder, ToHeader(kType), {key}); }

DecodeStatus Delete::Decode(const Op& op, Delete* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->key = op.sections[0];
  return DecodeStatus::kOk;
}

void DeleteIf::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType), {key, filter});
}

DecodeStatus DeleteIf::Decode(const Op& op, DeleteIf* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->key = op.sections[0];
  out->filter = op.sections[1];
  return DecodeStatus::kOk;
}

void Scan::Encode(FrameBuilder* builder) const {
  char encoded_params[kScanParamsSize];
  PutScanParams(params, encoded_params);
  AppendOp(
      builder, ToHeader(kType, LockFlags(lock_exclusive, lock_wait), index),
      {lower, upper, resume, filter, columns, absl::string_view(encoded_params, kScanParamsSize)});
}

DecodeStatus Scan::Decode(const Op& op, Scan* out) {
  if (!HasShape(op, kType) || !WholeColumns(op.sections[4]) ||
      DecodeScanParams(op.sections[5], &out->params) != DecodeStatus::kOk) {
    return DecodeStatus::kMalformed;
  }
  out->FromHeader(op.header);
  out->lock_exclusive = (op.header.flags & kLockExclusive) != 0;
  out->lock_wait = LockWaitOf(op.header.flags);
  out->index = op.header.index;
  out->lower = op.sections[0];
  out->upper = op.sections[1];
  out->resume = op.sections[2];
  out->filter = op.sections[3];
  out->columns = op.sections[4];
  return DecodeStatus::kOk;
}

void AppendScanRange(absl::string_view lower, absl::string_view upper, std::string* list) {
  PutU16(list, static_cast<uint16_t>(lower.size()));
  list->append(lower.data(), lower.size());
  PutU16(list, static_cast<uint16_t>(upper.size()));
  list->append(upper.data(), upper.size());
}

bool DecodeScanRanges(absl::string_view list, std::vector<ScanRange>* out) {
  out->clear();
  auto take = [&list](absl::string_view* bound) {
    if (list.size() < 2) return false;
    const size_t length = GetU16(list.data());
    if (list.size() - 2 < length) return false;
    *bound = list.substr(2, length);
    list.remove_prefix(2 + length);
    return true;
  };
  while (!list.empty()) {
    ScanRange range;
    if (!take(&range.lower) || !take(&range.upper)) return false;
    out->push_back(range);
  }
  return !out->empty();
}

std::string ScanRangeResume(size_t range, absl::string_view token) {
  std::string resume;
  PutU16(&resume, static_cast<uint16_t>(range));
  resume.append(token.data(), token.size());
  return resume;
}

bool DecodeScanRangeResume(absl::string_view resume, size_t* range, absl::string_view* token) {
  if (resume.empty()) {
    *range = 0;
    *token = {};
    return true;
  }
  if (resume.size() < 2) return false;
  *range = GetU16(resume.data());
  *token = resume.substr(2);
  return true;
}

bool DecodeEpochSection(absl::string_view section, uint64_t* epoch) {
  if (section.empty()) {
    *epoch = 0;
    return true;
  }
  if (section.size() != 8) return false;
  *epoch = GetU64(section.data());
  return true;
}

absl::string_view EpochSection(uint64_t epoch, char (&scratch)[8]) {
  if (epoch == 0) return {};
  std::memcpy(scratch, &epoch, 8);  // little-endian hosts only, as the rest of the format
  return absl::string_view(scratch, 8);
}

void AddReplicaDone(std::string* nodes, int node) { PutU16(nodes, static_cast<uint16_t>(node)); }

bool HasReplicaDone(absl::string_view nodes, int node) {
  for (size_t i = 0; i + 2 <= nodes.size(); i += 2) {
    if (GetU16(nodes.data() + i) == node) return true;
  }
  return false;
}

void Commit::Encode(FrameBuilder* builder) const {
  char scratch[8];
  AppendOp(builder, ToHeader(kType, on_replica ? kOnReplica : 0, tc),
           {EpochSection(epoch, scratch), replicas_done});
}

DecodeStatus Commit::Decode(const Op& op, Commit* out) {
  if (!HasShape(op, kType) || !DecodeEpochSection(op.sections[0], &out->epoch) ||
      op.sections[1].size() % 2 != 0) {
    return DecodeStatus::kMalformed;
  }
  out->FromHeader(op.header);
  out->tc = op.header.index;
  out->on_replica = (op.header.flags & kOnReplica) != 0;
  out->replicas_done = op.sections[1];
  return DecodeStatus::kOk;
}

void Abort::Encode(FrameBuilder* builder) const { AppendOp(builder, ToHeader(kType, 0, tc), {}); }

DecodeStatus Abort::Decode(const Op& op, Abort* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->tc = op.header.index;
  return DecodeStatus::kOk;
}

}  // namespace shoal::wire
