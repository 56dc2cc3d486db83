// Codecs of the node group's typed operations (replica_ops.h) over the Op layout of op.h.
#include "engine/wire/replica_ops.h"

#include <cstring>

namespace shoal::wire {
namespace {

uint8_t CommitNowFlags(bool commit_now) { return commit_now ? kReplicaCommitNow : 0; }

// An operation of `type` with only an index, for the ones that address no partition.
OpHeader SenderHeader(OpType type, uint16_t from_node) {
  OpHeader h;
  h.type = type;
  h.index = from_node;
  return h;
}

}  // namespace

void ReplicaWrite::Encode(FrameBuilder* builder) const {
  char scratch[8];
  AppendOp(builder, ToHeader(kType, CommitNowFlags(commit_now), from_node),
           {row, EpochSection(epoch, scratch)});
}

DecodeStatus ReplicaWrite::Decode(const Op& op, ReplicaWrite* out) {
  if (!HasShape(op, kType) || !DecodeEpochSection(op.sections[1], &out->epoch)) {
    return DecodeStatus::kMalformed;
  }
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  out->commit_now = (op.header.flags & kReplicaCommitNow) != 0;
  out->row = op.sections[0];
  return DecodeStatus::kOk;
}

void ReplicaDelete::Encode(FrameBuilder* builder) const {
  char scratch[8];
  AppendOp(builder, ToHeader(kType, CommitNowFlags(commit_now), from_node),
           {key, EpochSection(epoch, scratch)});
}

DecodeStatus ReplicaDelete::Decode(const Op& op, ReplicaDelete* out) {
  if (!HasShape(op, kType) || !DecodeEpochSection(op.sections[1], &out->epoch)) {
    return DecodeStatus::kMalformed;
  }
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  out->commit_now = (op.header.flags & kReplicaCommitNow) != 0;
  out->key = op.sections[0];
  return DecodeStatus::kOk;
}

void ReplicaCommit::Encode(FrameBuilder* builder) const {
  char scratch[8];
  AppendOp(builder, ToHeader(kType, 0, from_node), {EpochSection(epoch, scratch)});
}

DecodeStatus ReplicaCommit::Decode(const Op& op, ReplicaCommit* out) {
  if (!HasShape(op, kType) || !DecodeEpochSection(op.sections[0], &out->epoch)) {
    return DecodeStatus::kMalformed;
  }
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  return DecodeStatus::kOk;
}

void ReplicaAbort::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType, 0, from_node), {});
}

DecodeStatus ReplicaAbort::Decode(const Op& op, ReplicaAbort* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  return DecodeStatus::kOk;
}

void ReplicaAck::Encode(FrameBuilder* builder) const {
  if (builder == nullptr) return;
  size_t at = BeginOp(builder, ToHeader(kType, 0, from_node));
  size_t section_at;
  BeginSection(builder, &section_at);
  if (error != 0) {
    PutU16(builder->buffer(), error);
    builder->buffer()->append(message.data(), message.size());
  }
  EndSection(builder, section_at);
  EndOp(builder, at);
}

DecodeStatus ReplicaAck::Decode(const Op& op, ReplicaAck* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  absl::string_view status = op.sections[0];
  out->error = 0;
  out->message = {};
  if (!status.empty()) {
    if (status.size() < 2) return DecodeStatus::kMalformed;
    out->error = GetU16(status.data());
    if (out->error == 0) return DecodeStatus::kMalformed;
    out->message = status.substr(2);
  }
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  return DecodeStatus::kOk;
}

void ReplicaPrepare::Encode(FrameBuilder* builder) const {
  char encoded_tc[4];
  std::memcpy(encoded_tc, &tc, 4);
  AppendOp(builder, ToHeader(kType, 0, from_node), {absl::string_view(encoded_tc, 4)});
}

DecodeStatus ReplicaPrepare::Decode(const Op& op, ReplicaPrepare* out) {
  if (!HasShape(op, kType) || op.sections[0].size() != 4) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  out->tc = GetU32(op.sections[0].data());
  return DecodeStatus::kOk;
}

void CopyReq::Encode(FrameBuilder* builder) const {
  OpHeader h = SenderHeader(kType, from_node);
  h.txn = since_epoch;
  AppendOp(builder, h, {});
}

DecodeStatus CopyReq::Decode(const Op& op, CopyReq* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->from_node = op.header.index;
  out->since_epoch = op.header.txn;
  return DecodeStatus::kOk;
}

void CopyKeep::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType, 0, from_node), {key});
}

DecodeStatus CopyKeep::Decode(const Op& op, CopyKeep* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  out->key = op.sections[0];
  return DecodeStatus::kOk;
}

void CopyEdge::Encode(FrameBuilder* builder) const {
  AppendOp(builder, ToHeader(kType, end ? kCopyComplete : 0, from_node), {});
}

DecodeStatus CopyEdge::Decode(const Op& op, CopyEdge* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->FromHeader(op.header);
  out->from_node = op.header.index;
  out->end = (op.header.flags & kCopyComplete) != 0;
  return DecodeStatus::kOk;
}

void CopyDone::Encode(FrameBuilder* builder) const {
  OpHeader h = SenderHeader(kType, from_node);
  h.flags = complete ? kCopyComplete : 0;
  h.table_id = ldm;
  h.partition = ldm_count;
  h.tag = sent;
  h.txn = total;
  AppendOp(builder, h, {});
}

DecodeStatus CopyDone::Decode(const Op& op, CopyDone* out) {
  const OpHeader& h = op.header;
  if (!HasShape(op, kType) || h.table_id >= h.partition) return DecodeStatus::kMalformed;
  out->from_node = h.index;
  out->ldm = h.table_id;
  out->ldm_count = h.partition;
  out->sent = h.tag;
  out->total = h.txn;
  out->complete = (h.flags & kCopyComplete) != 0;
  return DecodeStatus::kOk;
}

void Handover::Encode(FrameBuilder* builder) const {
  OpHeader h = SenderHeader(kType, from_node);
  h.partition = partition;
  AppendOp(builder, h, {});
}

DecodeStatus Handover::Decode(const Op& op, Handover* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->from_node = op.header.index;
  out->partition = op.header.partition;
  return DecodeStatus::kOk;
}

void Ping::Encode(FrameBuilder* builder) const {
  AppendOp(builder, SenderHeader(kType, from_node), {});
}

DecodeStatus Ping::Decode(const Op& op, Ping* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->from_node = op.header.index;
  return DecodeStatus::kOk;
}

void Epoch::Encode(FrameBuilder* builder) const {
  OpHeader h = SenderHeader(kType, from_node);
  h.flags = static_cast<uint8_t>(phase);
  h.txn = epoch;
  AppendOp(builder, h, {});
}

DecodeStatus Epoch::Decode(const Op& op, Epoch* out) {
  if (!HasShape(op, kType) || op.header.flags < 1 || op.header.flags > kMaxEpochPhase) {
    return DecodeStatus::kMalformed;
  }
  out->from_node = op.header.index;
  out->phase = static_cast<EpochPhase>(op.header.flags);
  out->epoch = op.header.txn;
  return DecodeStatus::kOk;
}

}  // namespace shoal::wire
