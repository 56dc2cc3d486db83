// The redo record codec: what a RedoLog appends and the reader parses back at recovery.
//
// Record (every integer little-endian):
//   u32 body_length | u32 crc32c(body) | body
// body:
//   u8 type | u64 epoch | ...
//   kWrite      | u32 table_id | u32 partition | u32 key_length | key | row (the rest)
//   kDelete     | u32 table_id | u32 partition | key (the rest)
//   kEpochSaved (nothing more)
//   kTruncate   | u32 table_id | u32 partition
//
// kWrite carries a whole after-image (an insert or a replace of the row); kEpochSaved is a
// marker: every record of an epoch <= its epoch is before it in the stream; kTruncate empties
// a partition (TRUNCATE, DROP). Stateless functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::redo {

inline constexpr size_t kRecordHeaderSize = 8;  // body_length, crc
// Bounds a body, so that a corrupt length is kCorrupt rather than a request to read gigabytes.
// Rows are far smaller; the Append functions check it.
inline constexpr uint32_t kMaxBodyLength = 64u << 20;

enum class RecordType : uint8_t { kWrite = 1, kDelete = 2, kEpochSaved = 3, kTruncate = 4 };

// A parsed record. `key` and `row` are views into the buffer given to ParseRecord.
struct Record {
  RecordType type;
  uint64_t epoch;
  uint32_t table_id = 0;
  uint32_t partition = 0;
  absl::string_view key;
  absl::string_view row;
};

// Each appends one encoded record to `*out` (never clearing it).
void AppendWrite(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition,
                 absl::string_view key, absl::string_view row);
void AppendDelete(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition,
                  absl::string_view key);
void AppendEpochSaved(std::string* out, uint64_t epoch);
void AppendTruncate(std::string* out, uint64_t epoch, uint32_t table_id, uint32_t partition);

// The encoded size of a record, header included.
size_t WriteRecordSize(size_t key_size, size_t row_size);

enum class ParseResult { kOk, kIncomplete, kCorrupt };

// Parses the record at the start of `in`.
//   kOk:         `*out` filled (its views point into `in`), `*consumed` = the record's size.
//   kIncomplete: `in` ends inside a record (a torn tail, or the caller must read more).
//   kCorrupt:    the checksum or the layout is wrong; `*why` says what.
// A length above kMaxBodyLength is kCorrupt even when `in` is short.
ParseResult ParseRecord(absl::string_view in, Record* out, size_t* consumed, std::string* why);

const char* RecordTypeName(RecordType type);

}  // namespace shoal::redo
