// Operation and result codecs (layouts in op.h).
#include "engine/wire/op.h"

#include <cstring>

namespace shoal::wire {
namespace {

// Splits `bytes` into exactly `expected` length-prefixed sections.
bool SplitSections(absl::string_view bytes, int expected, absl::string_view* out) {
  for (int i = 0; i < expected; ++i) {
    if (bytes.size() < 4) return false;
    uint32_t length = GetU32(bytes.data());
    bytes.remove_prefix(4);
    if (length > bytes.size()) return false;
    out[i] = bytes.substr(0, length);
    bytes.remove_prefix(length);
  }
  return bytes.empty();
}

void AppendSections(std::string* out, std::initializer_list<absl::string_view> sections) {
  for (absl::string_view section : sections) {
    PutU32(out, static_cast<uint32_t>(section.size()));
    out->append(section.data(), section.size());
  }
}

}  // namespace

absl::string_view OpTypeName(OpType type) {
  switch (type) {
    case OpType::kRead:
      return "read";
    case OpType::kReadUnique:
      return "read_unique";
    case OpType::kInsert:
      return "insert";
    case OpType::kWrite:
      return "write";
    case OpType::kUpdate:
      return "update";
    case OpType::kUpdateIf:
      return "update_if";
    case OpType::kDelete:
      return "delete";
    case OpType::kDeleteIf:
      return "delete_if";
    case OpType::kScan:
      return "scan";
    case OpType::kCommit:
      return "commit";
    case OpType::kAbort:
      return "abort";
    case OpType::kReplicaWrite:
      return "replica_write";
    case OpType::kReplicaDelete:
      return "replica_delete";
    case OpType::kReplicaCommit:
      return "replica_commit";
    case OpType::kReplicaAbort:
      return "replica_abort";
    case OpType::kReplicaAck:
      return "replica_ack";
    case OpType::kCopyReq:
      return "copy_req";
    case OpType::kCopyDone:
      return "copy_done";
    case OpType::kCommitTxn:
      return "commit_txn";
    case OpType::kPrepare:
      return "prepare";
    case OpType::kReplicaPrepare:
      return "replica_prepare";
    case OpType::kTakeoverReq:
      return "takeover_req";
    case OpType::kPing:
      return "ping";
    case OpType::kHandover:
      return "handover";
    case OpType::kEpoch:
      return "epoch";
    case OpType::kCopyKeep:
      return "copy_keep";
    case OpType::kCopyEdge:
      return "copy_edge";
  }
  return "unknown";
}

int SectionCount(OpType type) {
  switch (type) {
    case OpType::kRead:
    case OpType::kReadUnique:
    case OpType::kUpdate:
    case OpType::kDeleteIf:
    case OpType::kCommit:
      return 2;
    case OpType::kReplicaWrite:
    case OpType::kReplicaDelete:
      return 2;
    case OpType::kInsert:
    case OpType::kWrite:
    case OpType::kDelete:
    case OpType::kReplicaCommit:
    case OpType::kCopyKeep:
    case OpType::kReplicaAck:
    case OpType::kCommitTxn:
    case OpType::kReplicaPrepare:
    case OpType::kPrepare:
      return 1;
    case OpType::kUpdateIf:
      return 3;
    case OpType::kScan:
      return 6;
    case OpType::kAbort:
    case OpType::kReplicaAbort:
    case OpType::kCopyReq:
    case OpType::kCopyDone:
    case OpType::kTakeoverReq:
    case OpType::kPing:
    case OpType::kHandover:
    case OpType::kEpoch:
    case OpType::kCopyEdge:
      return 0;
  }
  return -1;
}

DecodeStatus DecodeOp(absl::string_view* in, Op* out) {
  if (in->size() < kOpHeaderSize) return DecodeStatus::kMalformed;
  const char* p = in->data();
  uint32_t length = GetU32(p);
  uint8_t type = static_cast<uint8_t>(p[4]);
  if (length < kOpHeaderSize || length > in->size() || type < 1 ||
      type > static_cast<uint8_t>(kMaxOpType)) {
    return DecodeStatus::kMalformed;
  }
  OpHeader& h = out->header;
  h.type = static_cast<OpType>(type);
  h.flags = static_cast<uint8_t>(p[5]);
  h.index = GetU16(p + 6);
  h.table_id = GetU32(p + 8);
  h.table_version = GetU32(p + 12);
  h.partition = GetU32(p + 16);
  h.txn = GetU64(p + 20);
  h.tag = GetU64(p + 28);
  out->section_count = SectionCount(h.type);
  absl::string_view body = in->substr(kOpHeaderSize, length - kOpHeaderSize);
  if (!SplitSections(body, out->section_count, out->sections)) return DecodeStatus::kMalformed;
  out->bytes = in->substr(0, length);
  in->remove_prefix(length);
  return DecodeStatus::kOk;
}

DecodeStatus DecodeResult(absl::string_view* in, Result* out) {
  if (in->size() < kResultHeaderSize) return DecodeStatus::kMalformed;
  const char* p = in->data();
  uint32_t length = GetU32(p);
  if (length < kResultHeaderSize || length > in->size()) return DecodeStatus::kMalformed;
  out->code = GetU16(p + 4);
  out->flags = GetU16(p + 6);
  out->tag = GetU64(p + 8);
  absl::string_view body = in->substr(kResultHeaderSize, length - kResultHeaderSize);
  out->section_count = 0;
  while (!body.empty()) {
    if (out->section_count == 3 || body.size() < 4) return DecodeStatus::kMalformed;
    uint32_t size = GetU32(body.data());
    body.remove_prefix(4);
    if (size > body.size()) return DecodeStatus::kMalformed;
    out->sections[out->section_count++] = body.substr(0, size);
    body.remove_prefix(size);
  }
  in->remove_prefix(length);
  return DecodeStatus::kOk;
}

bool DecodeColumns(absl::string_view section, std::vector<uint16_t>* out) {
  if (section.size() % 2 != 0) return false;
  out->resize(section.size() / 2);
  for (size_t i = 0; i < out->size(); ++i) (*out)[i] = GetU16(section.data() + 2 * i);
  return true;
}

DecodeStatus DecodeScanParams(absl::string_view section, ScanParams* out) {
  if (section.size() != kScanParamsSize) return DecodeStatus::kMalformed;
  out->max_rows = GetU32(section.data());
  out->max_examined = GetU32(section.data() + 4);
  out->flags = static_cast<uint8_t>(section[8]);
  return DecodeStatus::kOk;
}

void AppendOp(FrameBuilder* builder, const OpHeader& header,
              std::initializer_list<absl::string_view> sections) {
  if (builder == nullptr) return;
  size_t at = BeginOp(builder, header);
  AppendSections(builder->buffer(), sections);
  EndOp(builder, at);
}

size_t BeginOp(FrameBuilder* builder, const OpHeader& h) {
  std::string* out = builder->buffer();
  size_t at = out->size();
  PutU32(out, 0);
  out->push_back(static_cast<char>(h.type));
  out->push_back(static_cast<char>(h.flags));
  PutU16(out, h.index);
  PutU32(out, h.table_id);
  PutU32(out, h.table_version);
  PutU32(out, h.partition);
  PutU64(out, h.txn);
  PutU64(out, h.tag);
  return at;
}

void EndOp(FrameBuilder* builder, size_t op_at) {
  std::string* out = builder->buffer();
  SetU32(out, op_at, static_cast<uint32_t>(out->size() - op_at));
  builder->CountItem();
}

size_t BeginResult(FrameBuilder* builder, uint16_t code, uint16_t flags, uint64_t tag) {
  std::string* out = builder->buffer();
  size_t at = out->size();
  PutU32(out, 0);
  PutU16(out, code);
  PutU16(out, flags);
  PutU64(out, tag);
  return at;
}

void BeginSection(FrameBuilder* builder, size_t* section_at) {
  *section_at = builder->buffer()->size();
  PutU32(builder->buffer(), 0);
}

void EndSection(FrameBuilder* builder, size_t section_at) {
  std::string* out = builder->buffer();
  SetU32(out, section_at, static_cast<uint32_t>(out->size() - section_at - 4));
}

void EndResult(FrameBuilder* builder, size_t result_at) {
  std::string* out = builder->buffer();
  SetU32(out, result_at, static_cast<uint32_t>(out->size() - result_at));
  builder->CountItem();
}

void AppendResult(FrameBuilder* builder, uint16_t code, uint16_t flags, uint64_t tag,
                  std::initializer_list<absl::string_view> sections) {
  if (builder == nullptr) return;
  size_t at = BeginResult(builder, code, flags, tag);
  AppendSections(builder->buffer(), sections);
  EndResult(builder, at);
}

std::string EncodeColumns(absl::Span<const uint16_t> columns) {
  std::string out;
  for (uint16_t c : columns) PutU16(&out, c);
  return out;
}

void PutScanParams(const ScanParams& params, char* out) {
  std::memcpy(out, &params.max_rows, 4);
  std::memcpy(out + 4, &params.max_examined, 4);
  out[8] = static_cast<char>(params.flags);
}

std::string EncodeScanParams(const ScanParams& params) {
  std::string out(kScanParamsSize, '\0');
  PutScanParams(params, out.data());
  return out;
}

}  // namespace shoal::wire
