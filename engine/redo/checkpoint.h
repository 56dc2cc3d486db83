// Local checkpoint files (NDB's LCP): every row of one LDM's partitions at one checkpoint,
// one file per (checkpoint id, LDM): <dir>/lcp-<id:08>-l<ldm:02>.ckpt. Recovery loads the
// newest complete checkpoint and replays the redo from its start epoch over it.
//
// File: a stream of blocks (every integer little-endian)
//   u32 length | u32 crc32c(payload) | payload,   payload = u8 kind | ...
//   kind 0, first block only: u64 magic "SHOALLCP" | u32 version (1) | u64 id | u32 ldm
//   kind 1, rows:   { u32 table_id | u32 partition | u32 key_length | key | u32 row_length | row }*
//   kind 2, footer: u64 row count | u64 magic "COMPLETE"; nothing may follow it
// The kind byte tells the footer from a rows block without relying on a magic never
// appearing in row data. A file without its footer is torn (the node died while writing it)
// and rejected whole.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::redo {

// Rows blocks are sealed at about this size; a block may not exceed kMaxCheckpointBlock.
inline constexpr size_t kCheckpointBlockBytes = 256 << 10;
inline constexpr size_t kMaxCheckpointBlock = 64 << 20;

// Writes one checkpoint file. Used from one thread at a time: rows are added (and buffered
// bytes taken) by the LDM thread, Write and Finish run on the I/O thread; the caller hands
// the buffered bytes over. Owns the open file; destroyed before Finish succeeded, it removes
// the incomplete file.
class CheckpointWriter {
 public:
  static absl::StatusOr<std::unique_ptr<CheckpointWriter>> Create(const std::string& dir,
                                                                  uint64_t id, int ldm);
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  // Buffers one row (no I/O). REQUIRES: key and row together well under kMaxCheckpointBlock.
  void AddRow(uint32_t table_id, uint32_t partition, absl::string_view key, absl::string_view row);
  // The bytes buffered so far, in whole blocks, for the I/O thread's Write.
  std::string TakeBuffered();
  // Appends `bytes` (from TakeBuffered, in order) to the file.
  absl::Status Write(absl::string_view bytes);
  // Writes anything still buffered and the footer, fsyncs the file and the directory.
  absl::Status Finish();

  uint64_t rows() const { return rows_; }
  uint64_t bytes() const { return offset_; }  // written to the file so far
  const std::string& path() const { return path_; }

 private:
  CheckpointWriter(std::string dir, std::string path, int fd, uint64_t id, int ldm);
  void SealBlock();

  const std::string dir_;
  const std::string path_;
  int fd_;
  std::string buffered_;
  size_t open_block_ = std::string::npos;  // offset in buffered_ of the unsealed rows block
  uint64_t rows_ = 0;
  uint64_t offset_ = 0;
  bool finished_ = false;
};

// Reads a checkpoint file, calling `row` for every row (views valid during the call) and
// `progress(bytes_done, bytes_total)` after every block. Returns an error (kDataLoss) when the
// file is torn, corrupt or lacks its footer; rows before the damage were already delivered,
// so the caller loads into fresh partitions and discards them on error.
absl::Status ReadCheckpoint(const std::string& path,
                            absl::FunctionRef<void(uint32_t table_id, uint32_t partition,
                                                   absl::string_view key, absl::string_view row)>
                                row,
                            absl::FunctionRef<void(uint64_t, uint64_t)> progress);

// The file name of one LDM's part of a checkpoint: lcp-<id:08>-l<ldm:02>.ckpt.
std::string CheckpointFileName(uint64_t id, int ldm);
// Every LDM's file of checkpoint `id` in `dir`, sorted by LDM.
std::vector<std::string> CheckpointFiles(const std::string& dir, uint64_t id);
// The ids of every checkpoint with a file in `dir`, ascending (none when it does not exist).
std::vector<uint64_t> CheckpointIds(const std::string& dir);
// Deletes every file of checkpoint `id` (failures are logged, not fatal).
void RemoveCheckpoint(const std::string& dir, uint64_t id);

}  // namespace shoal::redo
