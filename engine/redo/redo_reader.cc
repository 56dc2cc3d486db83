#include "engine/redo/redo_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/redo/file_util.h"
#include "engine/redo/redo_log.h"

namespace shoal::redo {
namespace {

constexpr size_t kChunkBytes = 1 << 20;

// What a scan does with the records: ReplayRedo applies them, SavedEpoch only looks at markers.
struct Scan {
  uint64_t from_epoch = 0;
  uint64_t to_epoch = 0;
  std::optional<absl::FunctionRef<void(const Record&)>> apply;
  std::optional<absl::FunctionRef<void(uint64_t, uint64_t)>> progress;
  uint64_t bytes_total = 0;
  uint64_t bytes_done = 0;
  ReplayStats stats;
  std::string buf;  // reused across segments
};

// How reading one segment ended.
struct SegmentOutcome {
  uint64_t max_epoch = 0;
  uint64_t saved_epoch = 0;  // the last marker, 0 if none
  bool stopped = false;
  uint64_t stop_offset = 0;
  std::string reason;
};

void OnRecord(const Record& r, size_t size, Scan* scan, SegmentOutcome* out) {
  ++scan->stats.records;
  scan->stats.bytes += size;
  out->max_epoch = std::max(out->max_epoch, r.epoch);
  if (r.type == RecordType::kEpochSaved) {
    out->saved_epoch = r.epoch;
    return;
  }
  if (scan->apply && r.epoch >= scan->from_epoch && r.epoch <= scan->to_epoch) {
    (*scan->apply)(r);
    ++scan->stats.applied;
  }
}

// Reads `path` (of `size` bytes) record by record, in chunks of kChunkBytes (more when one
// record is larger). buf[begin, end) holds the bytes read but not yet parsed.
absl::Status ReadSegment(const std::string& path, uint64_t size, Scan* scan, SegmentOutcome* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return internal::ErrnoStatus("open", path, errno);
  std::string& buf = scan->buf;
  if (buf.size() < kChunkBytes) buf.resize(kChunkBytes);
  size_t begin = 0;
  size_t end = 0;
  uint64_t parsed = 0;    // file offset of buf[begin]
  uint64_t read_pos = 0;  // file offset of buf[end]
  bool eof = false;
  absl::Status status;
  for (;;) {
    Record record;
    size_t used = 0;
    std::string why;
    ParseResult result =
        ParseRecord(absl::string_view(buf.data() + begin, end - begin), &record, &used, &why);
    if (result == ParseResult::kOk) {
      OnRecord(record, used, scan, out);
      begin += used;
      parsed += used;
      continue;
    }
    if (result == ParseResult::kCorrupt) {
      out->stopped = true;
      out->stop_offset = parsed;
      out->reason = why;
      break;
    }
    if (eof) {
      if (begin < end) {
        out->stopped = true;
        out->stop_offset = parsed;
        out->reason =
            absl::StrCat("torn record (the file ends ", end - begin, " bytes into a record)");
      }
      break;
    }
    // Incomplete: keep the partial record at the front and read more, enough for all of it.
    std::memmove(buf.data(), buf.data() + begin, end - begin);
    end -= begin;
    begin = 0;
    if (end >= 4) {
      uint32_t length;
      std::memcpy(&length, buf.data(), 4);  // <= kMaxBodyLength, or ParseRecord said kCorrupt
      size_t need = kRecordHeaderSize + length;
      if (need > buf.size()) buf.resize(need);
    }
    size_t got = 0;
    status = internal::PreadAll(fd, path, buf.data() + end, buf.size() - end, read_pos, &got);
    if (!status.ok()) break;
    eof = got < buf.size() - end;
    end += got;
    read_pos += got;
    scan->bytes_done += got;
    if (scan->progress) (*scan->progress)(scan->bytes_done, scan->bytes_total);
  }
  ::close(fd);
  // Bytes not read because of a stop still count as done, so progress ends at the total.
  if (read_pos < size) scan->bytes_done += size - read_pos;
  return status;
}

uint64_t FileSize(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Scans the segments of `dir` (only those of the last run when `last_run_only`).
absl::Status ScanDir(const std::string& dir, bool last_run_only, Scan* scan,
                     std::vector<std::pair<std::string, uint64_t>>* segment_max_epochs) {
  SHOAL_ASSIGN_OR_RETURN(std::vector<SegmentInfo> segments, RedoLog::ListSegments(dir));
  if (segments.empty()) return absl::OkStatus();
  const uint32_t last_run = segments.back().run;
  if (last_run_only) {
    std::erase_if(segments, [&](const SegmentInfo& s) { return s.run != last_run; });
  }
  std::vector<uint64_t> sizes;
  for (const SegmentInfo& s : segments) {
    sizes.push_back(FileSize(s.path));
    scan->bytes_total += sizes.back();
  }
  std::optional<uint64_t> min_saved;  // over the streams of the last run
  for (size_t first = 0; first < segments.size();) {
    size_t last = first;
    while (last < segments.size() && segments[last].run == segments[first].run &&
           segments[last].ldm == segments[first].ldm) {
      ++last;
    }
    uint64_t stream_saved = 0;
    std::string stop;  // where this stream stopped
    uint64_t ignored = 0;
    for (size_t i = first; i < last; ++i) {
      const SegmentInfo& s = segments[i];
      SegmentOutcome outcome;
      if (stop.empty()) {
        SHOAL_RETURN_IF_ERROR(ReadSegment(s.path, sizes[i], scan, &outcome));
        if (outcome.saved_epoch != 0) stream_saved = outcome.saved_epoch;
        if (outcome.stopped) {
          stop = absl::StrCat(s.path, " at offset ", outcome.stop_offset, ": ", outcome.reason);
          ignored += sizes[i] - std::min(sizes[i], outcome.stop_offset);
        }
      } else {
        ignored += sizes[i];
        scan->bytes_done += sizes[i];
      }
      if (segment_max_epochs != nullptr)
        segment_max_epochs->emplace_back(s.path, outcome.max_epoch);
    }
    if (!stop.empty()) {
      if (!scan->stats.stopped.empty()) scan->stats.stopped += "; ";
      absl::StrAppend(&scan->stats.stopped, stop, "; ", ignored, " bytes ignored");
    }
    if (segments[first].run == last_run) {
      min_saved = std::min(min_saved.value_or(std::numeric_limits<uint64_t>::max()), stream_saved);
    }
    first = last;
  }
  scan->stats.saved_epoch = min_saved.value_or(0);
  if (scan->progress) (*scan->progress)(scan->bytes_done, scan->bytes_total);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReplayStats> ReplayRedo(
    const std::string& dir, uint64_t from_epoch, uint64_t to_epoch,
    absl::FunctionRef<void(const Record&)> apply,
    absl::FunctionRef<void(uint64_t, uint64_t)> progress,
    std::vector<std::pair<std::string, uint64_t>>* segment_max_epochs) {
  Scan scan;
  scan.from_epoch = from_epoch;
  scan.to_epoch = to_epoch;
  scan.apply.emplace(apply);
  scan.progress.emplace(progress);
  SHOAL_RETURN_IF_ERROR(ScanDir(dir, /*last_run_only=*/false, &scan, segment_max_epochs));
  return std::move(scan.stats);
}

absl::StatusOr<uint64_t> SavedEpoch(const std::string& dir) {
  Scan scan;
  SHOAL_RETURN_IF_ERROR(ScanDir(dir, /*last_run_only=*/true, &scan, nullptr));
  return scan.stats.saved_epoch;
}

}  // namespace shoal::redo
