#include "engine/redo/redo_record.h"

#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/redo/crc32c.h"

namespace shoal::redo {
namespace {

static_assert(std::endian::native == std::endian::little, "records are memcpy'd little-endian");

constexpr size_t kBodyPrefix = 1 + 8;  // type, epoch
constexpr size_t kIdsSize = 4 + 4;     // table_id, partition

void PutU32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }
uint32_t GetU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t GetU64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Grows `*out` by one record of `body_size` body bytes and writes its body prefix (type,
// epoch); returns where the rest of the body goes. Seal() then fills in the header. One
// resize per record, so appending to a buffer with spare capacity never allocates.
char* Begin(std::string* out, size_t body_size, RecordType type, uint64_t epoch, size_t* start) {
  SHOAL_CHECK(body_size <= kMaxBodyLength) << "redo record of " << body_size << " bytes";
  *start = out->size();
  out->resize(*start + kRecordHeaderSize + body_size);
  char* body = out->data() + *start + kRecordHeaderSize;
  body[0] = static_cast<char>(type);
  std::memcpy(body + 1, &epoch, 8);
  return body + kBodyPrefix;
}

void Seal(std::string* out, size_t start) {
  char* header = out->data() + start;
  size_t body_size = out->size() - start - kRecordHeaderSize;
  PutU32(header, static_cast<uint32_t>(body_size));
  PutU32(header + 4, Crc32c(absl::string_view(header + kRecordHeaderSize, body_size)));
}

char* PutIds(char* p, uint32_t table_id, uint32_t partition) {
  PutU32(p, table_id);
  PutU32(p + 4, partition);
  return p + kIdsSize;
}

}  // namespace

size_t WriteRecordSize(size_t key_size, size_t row_size) {
  return kRecordHeaderSize + kBodyPrefix + kIdsSize + 4 + key_size + row_size;
}

void AppendWrite(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition,
                 absl::string_view key, absl::string_view row) {
  size_t start;
  char* p = Begin(out, WriteRecordSize(key.size(), row.size()) - kRecordHeaderSize,
                  RecordType::kWrite, epoch, &start);
  p = PutIds(p, table_id, partition);
  PutU32(p, static_cast<uint32_t>(key.size()));
  p += 4;
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  if (!row.empty()) std::memcpy(p + key.size(), row.data(), row.size());
  Seal(out, start);
}

void AppendDelete(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition,
                  absl::string_view key) {
  size_t start;
  char* p = Begin(out, kBodyPrefix + kIdsSize + key.size(), RecordType::kDelete, epoch, &start);
  p = PutIds(p, table_id, partition);
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  Seal(out, start);
}

void AppendEpochSaved(std::string* out, uint64_t epoch) {
  size_t start;
  Begin(out, kBodyPrefix, RecordType::kEpochSaved, epoch, &start);
  Seal(out, start);
}

void AppendTruncate(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition) {
  size_t start;
  char* p = Begin(out, kBodyPrefix + kIdsSize, RecordType::kTruncate, epoch, &start);
  PutIds(p, table_id, partition);
  Seal(out, start);
}

ParseResult ParseRecord(absl::string_view in, Record* out, size_t* consumed, std::string* why) {
  if (in.size() < 4) return ParseResult::kIncomplete;
  uint32_t length = GetU32(in.data());
  if (length > kMaxBodyLength) {
    *why = absl::StrCat("record length ", length, " exceeds ", kMaxBodyLength);
    return ParseResult::kCorrupt;
  }
  if (length < kBodyPrefix) {
    *why = absl::StrCat("record length ", length, " is shorter than a record's type and epoch");
    return ParseResult::kCorrupt;
  }
  if (in.size() < kRecordHeaderSize + length) return ParseResult::kIncomplete;
  absl::string_view body = in.substr(kRecordHeaderSize, length);
  uint32_t expected = GetU32(in.data() + 4);
  uint32_t actual = Crc32c(body);
  if (expected != actual) {
    *why = absl::StrCat("record checksum mismatch (stored ", absl::Hex(expected), ", computed ",
                        absl::Hex(actual), ")");
    return ParseResult::kCorrupt;
  }
  // The checksum passed, so a bad layout below means a writer bug or a colliding corruption.
  Record r{};
  r.type = static_cast<RecordType>(static_cast<uint8_t>(body[0]));
  r.epoch = GetU64(body.data() + 1);
  absl::string_view rest = body.substr(kBodyPrefix);
  auto bad_layout = [&](absl::string_view what) {
    *why = absl::StrCat("bad ", what, " record layout (body ", length, " bytes)");
    return ParseResult::kCorrupt;
  };
  switch (r.type) {
    case RecordType::kWrite: {
      if (rest.size() < kIdsSize + 4) return bad_layout("write");
      uint32_t key_length = GetU32(rest.data() + kIdsSize);
      if (key_length > rest.size() - kIdsSize - 4) return bad_layout("write");
      r.key = rest.substr(kIdsSize + 4, key_length);
      r.row = rest.substr(kIdsSize + 4 + key_length);
      break;
    }
    case RecordType::kDelete:
      if (rest.size() < kIdsSize) return bad_layout("delete");
      r.key = rest.substr(kIdsSize);
      break;
    case RecordType::kEpochSaved:
      if (!rest.empty()) return bad_layout("epoch-saved");
      break;
    case RecordType::kTruncate:
      if (rest.size() != kIdsSize) return bad_layout("truncate");
      break;
    default:
      *why = absl::StrCat("unknown record type ", static_cast<int>(body[0]));
      return ParseResult::kCorrupt;
  }
  if (r.type != RecordType::kEpochSaved) {
    r.table_id = GetU32(rest.data());
    r.partition = GetU32(rest.data() + 4);
  }
  *out = r;
  *consumed = kRecordHeaderSize + length;
  return ParseResult::kOk;
}

const char* RecordTypeName(RecordType type) {
  switch (type) {
    case RecordType::kWrite:
      return "write";
    case RecordType::kDelete:
      return "delete";
    case RecordType::kEpochSaved:
      return "epoch-saved";
    case RecordType::kTruncate:
      return "truncate";
  }
  return "unknown";
}

}  // namespace shoal::redo
