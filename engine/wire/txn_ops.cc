// Codecs of two-phase commit's typed messages (txn_ops.h) over the layouts of op.h.
#include "engine/wire/txn_ops.h"

namespace shoal::wire {

void CommitTxn::AddParticipant(std::string* participants, uint32_t table_id, uint32_t partition) {
  PutU32(participants, table_id);
  PutU32(participants, partition);
}

CommitTxn::Participant CommitTxn::participant(size_t i) const {
  const char* p = participants.data() + i * kParticipantSize;
  return Participant{GetU32(p), GetU32(p + 4)};
}

void CommitTxn::Encode(FrameBuilder* builder) const {
  OpHeader h;
  h.type = kType;
  if (participant_count() > 0) {
    Participant first = participant(0);
    h.table_id = first.table_id;
    h.partition = first.partition;
  }
  h.txn = txn;
  h.tag = tag;
  AppendOp(builder, h, {participants});
}

DecodeStatus CommitTxn::Decode(const Op& op, CommitTxn* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  absl::string_view participants = op.sections[0];
  const uint64_t txn = op.header.txn;
  if (participants.empty() || participants.size() % kParticipantSize != 0 ||
      participants.size() / kParticipantSize > kMaxParticipants || txn == 0 || (txn >> 63) != 0) {
    return DecodeStatus::kMalformed;
  }
  out->txn = txn;
  out->tag = op.header.tag;
  out->participants = participants;
  return DecodeStatus::kOk;
}

void Prepare::Encode(FrameBuilder* builder) const {
  OpHeader h;
  h.type = kType;
  h.index = tc;
  h.table_id = table_id;
  h.partition = partition;
  h.txn = txn;
  h.tag = tag;
  h.flags = on_replica ? kOnReplica : 0;
  AppendOp(builder, h, {replicas_done});
}

DecodeStatus Prepare::Decode(const Op& op, Prepare* out) {
  if (!HasShape(op, kType) || op.sections[0].size() % 2 != 0) return DecodeStatus::kMalformed;
  out->on_replica = (op.header.flags & kOnReplica) != 0;
  out->replicas_done = op.sections[0];
  out->tc = op.header.index;
  out->table_id = op.header.table_id;
  out->partition = op.header.partition;
  out->txn = op.header.txn;
  out->tag = op.header.tag;
  return DecodeStatus::kOk;
}

void TakeoverReq::Encode(FrameBuilder* builder) const {
  OpHeader h;
  h.type = kType;
  h.index = failed_tc;
  h.table_id = table_id;
  h.partition = partition;
  h.tag = tag;
  AppendOp(builder, h, {});
}

DecodeStatus TakeoverReq::Decode(const Op& op, TakeoverReq* out) {
  if (!HasShape(op, kType)) return DecodeStatus::kMalformed;
  out->failed_tc = op.header.index;
  out->table_id = op.header.table_id;
  out->partition = op.header.partition;
  out->tag = op.header.tag;
  return DecodeStatus::kOk;
}

void TakeoverConf::AddEntry(std::string* entries, uint64_t txn, bool committed) {
  PutU64(entries, txn);
  entries->push_back(committed ? 1 : 0);
}

TakeoverConf::Entry TakeoverConf::entry(size_t i) const {
  const char* p = entries.data() + i * kEntrySize;
  return Entry{GetU64(p), p[8] != 0};
}

void TakeoverConf::Encode(FrameBuilder* builder) const {
  AppendResult(builder, kResultOk, 0, tag, {entries});
}

DecodeStatus TakeoverConf::Decode(const Result& result, TakeoverConf* out) {
  if (result.code != kResultOk || result.section_count != 1 ||
      result.sections[0].size() % kEntrySize != 0) {
    return DecodeStatus::kMalformed;
  }
  out->tag = result.tag;
  out->entries = result.sections[0];
  return DecodeStatus::kOk;
}

}  // namespace shoal::wire
