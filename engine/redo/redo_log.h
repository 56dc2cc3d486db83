// The redo log of one LDM: the LDM thread appends records to a pending buffer in memory; the
// node's redo writer thread (RedoWriter) takes that buffer and writes it to segment files in
// `dir`, named r<run:06>-l<ldm:02>-<seq:08>.redo (run: the node's start count, so every start
// writes new files; seq from 0 within a run). A segment is rolled over once it holds
// `segment_bytes` (it may exceed that by one flush's worth: segments end on record boundaries
// because a whole flushed buffer goes to one segment). One (run, ldm) sequence of segments is
// a stream; the reader (redo_reader.h) replays streams.
//
// Errors. A failed write (ENOSPC, EIO, ...) returns an error naming the file and keeps every
// unwritten byte; the next Flush resumes at exactly the first byte that did not reach the file
// (pwrite at a tracked offset; nothing truncated, nothing lost or written twice), so a full
// disk that gets space again heals. Until then the file may end inside a record, which the
// reader treats as a torn tail, as after a crash. A failed fdatasync, however, is permanent:
// after it Linux may have dropped the dirty pages and a retried fsync would succeed without
// the data (the "fsyncgate" semantics), so every later Flush returns that first error and the
// node must restart and recover from what is on disk.
//
// Thread contract: Append* only from one thread (the LDM's); Flush, TrimBelow and
// AdoptOldSegments only from the writer thread; pending_bytes/bytes_written from any thread.
// The mutex guards only the pending buffer; the writer swaps it with its own (emptied)
// buffer, so in steady state neither side allocates.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::redo {

// A segment file found in a directory, by its name.
struct SegmentInfo {
  std::string path;
  uint32_t run = 0;
  int ldm = 0;
  uint64_t seq = 0;
};

class RedoLog {
 public:
  static constexpr uint64_t kDefaultSegmentBytes = 64 << 20;

  // Creates the directory if needed (a failure there surfaces at the first Flush); opens a
  // new first segment lazily at the first write. REQUIRES: no segment of (run, ldm) exists in
  // `dir` (runs are unique per start).
  RedoLog(std::string dir, uint32_t run, int ldm, uint64_t segment_bytes = kDefaultSegmentBytes);
  ~RedoLog();  // closes its file (without flushing: RedoWriter::Stop flushes)
  RedoLog(const RedoLog&) = delete;
  RedoLog& operator=(const RedoLog&) = delete;

  // LDM thread: appends a record to the pending buffer.
  void AppendWrite(uint64_t epoch, uint32_t table_id, uint32_t partition, absl::string_view key,
                   absl::string_view row);
  void AppendDelete(uint64_t epoch, uint32_t table_id, uint32_t partition, absl::string_view key);
  void AppendTruncate(uint64_t epoch, uint32_t table_id, uint32_t partition);

  // Writer thread: writes what is pending (write(2), no sync). With `saved_epoch` != 0 also
  // appends a kEpochSaved marker after everything pending (unless one for an epoch >= it is
  // already queued or written) and fdatasyncs the segment, and the directory when a segment
  // was created since the last sync. On error nothing is lost: see the file comment.
  absl::Status Flush(uint64_t saved_epoch);

  // Writer thread: deletes closed segments (its own and adopted ones, never the open one)
  // whose records all have epochs < `epoch`.
  void TrimBelow(uint64_t epoch);

  // Writer thread: segments from before a restart (paths and max epochs, as ReplayRedo
  // reports them), so that TrimBelow deletes them too once they are below the trim epoch.
  void AdoptOldSegments(std::vector<std::pair<std::string, uint64_t>> path_and_max_epoch);

  // Every segment file of `dir`, sorted by (run, ldm, seq); other files are ignored. A missing
  // directory has none.
  static absl::StatusOr<std::vector<SegmentInfo>> ListSegments(const std::string& dir);
  // The file name of a segment: r<run:06>-l<ldm:02>-<seq:08>.redo.
  static std::string SegmentName(uint32_t run, int ldm, uint64_t seq);

  // Any thread.
  uint64_t pending_bytes() const { return pending_bytes_.load(std::memory_order_relaxed); }
  uint64_t bytes_written() const { return bytes_written_.load(std::memory_order_relaxed); }

  // Writer thread: every segment this log knows (adopted, closed, open) with its max epoch.
  std::vector<std::pair<std::string, uint64_t>> segments() const;

 private:
  struct Segment {
    std::string path;
    uint64_t max_epoch = 0;
  };

  void TakePending();
  absl::Status OpenSegment();
  absl::Status SyncSegment();
  absl::Status CloseSegment();

  const std::string dir_;
  const uint32_t run_;
  const int ldm_;
  const uint64_t segment_bytes_;

  // std::mutex rather than absl::Mutex, as in EventLoop: ThreadSanitizer cannot see Debian's
  // (uninstrumented) abseil synchronize.
  std::mutex mu_;
  std::string pending_ ABSL_GUARDED_BY(mu_);
  uint64_t pending_max_epoch_ ABSL_GUARDED_BY(mu_) = 0;
  std::atomic<uint64_t> pending_bytes_{0};
  std::atomic<uint64_t> bytes_written_{0};

  // Writer thread only. write_buf_[write_off_, end) has not reached the file yet.
  std::string write_buf_;
  size_t write_off_ = 0;
  uint64_t write_max_epoch_ = 0;
  uint64_t marker_epoch_ = 0;  // the highest kEpochSaved put into write_buf_ so far
  int fd_ = -1;                // the open segment, or -1 before the first write / after a roll
  Segment open_;
  uint64_t file_offset_ = 0;  // bytes in the open segment
  uint64_t next_seq_ = 0;
  bool dir_dirty_ = false;       // a segment was created since the directory was last synced
  bool needs_sync_ = false;      // the open segment has bytes written since its last fdatasync
  absl::Status sync_error_;      // sticky: see the file comment
  std::vector<Segment> closed_;  // adopted and rolled-over segments, oldest first
};

}  // namespace shoal::redo
