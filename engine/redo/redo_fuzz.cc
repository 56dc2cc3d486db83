// Fuzzes what recovery reads from disk: a redo segment's bytes, parsed record after record as
// the reader does, and the node state file. Every record that parses must re-encode to the
// very bytes it came from, and so must a node state that parses. Each input is also tried with
// its records' checksums made right, so the fuzzer gets past the CRC to the layout checks.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/redo/crc32c.h"
#include "engine/redo/node_state.h"
#include "engine/redo/redo_record.h"

namespace {

void Reencode(const shoal::redo::Record& r, std::string* out) {
  using shoal::redo::RecordType;
  switch (r.type) {
    case RecordType::kWrite:
      shoal::redo::AppendWrite(out, r.epoch, r.table_id, r.partition, r.key, r.row);
      break;
    case RecordType::kDelete:
      shoal::redo::AppendDelete(out, r.epoch, r.table_id, r.partition, r.key);
      break;
    case RecordType::kEpochSaved:
      shoal::redo::AppendEpochSaved(out, r.epoch);
      break;
    case RecordType::kTruncate:
      shoal::redo::AppendTruncate(out, r.epoch, r.table_id, r.partition);
      break;
  }
}

// Parses records one after another, as the reader does.
void ParseStream(absl::string_view rest) {
  std::string again;
  for (;;) {
    shoal::redo::Record record;
    size_t consumed = 0;
    std::string why;
    if (shoal::redo::ParseRecord(rest, &record, &consumed, &why) != shoal::redo::ParseResult::kOk) {
      break;
    }
    if (consumed == 0 || consumed > rest.size()) std::abort();
    again.clear();
    Reencode(record, &again);
    if (again != rest.substr(0, consumed)) std::abort();
    rest.remove_prefix(consumed);
  }
}

// The input with every record's checksum made right, so the fuzzer gets past the CRC to the
// layout checks behind it.
std::string FixChecksums(absl::string_view in) {
  std::string out(in);
  size_t pos = 0;
  while (out.size() - pos >= shoal::redo::kRecordHeaderSize) {
    uint32_t length;
    std::memcpy(&length, out.data() + pos, 4);
    if (length > out.size() - pos - shoal::redo::kRecordHeaderSize) break;
    uint32_t crc = shoal::redo::Crc32c(
        absl::string_view(out.data() + pos + shoal::redo::kRecordHeaderSize, length));
    std::memcpy(out.data() + pos + 4, &crc, 4);
    pos += shoal::redo::kRecordHeaderSize + length;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  ParseStream(in);
  ParseStream(FixChecksums(in));

  absl::StatusOr<shoal::redo::NodeState> state = shoal::redo::ParseNodeState(in);
  if (state.ok() && shoal::redo::SerializeNodeState(*state) != in) std::abort();
  return 0;
}
