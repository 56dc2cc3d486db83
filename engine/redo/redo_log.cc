#include "engine/redo/redo_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/redo/file_util.h"
#include "engine/redo/redo_record.h"

namespace shoal::redo {
namespace {

// Parses r<run>-l<ldm>-<seq>.redo; false for any other name.
bool ParseSegmentName(absl::string_view name, SegmentInfo* info) {
  if (!absl::ConsumePrefix(&name, "r") || !absl::ConsumeSuffix(&name, ".redo")) return false;
  std::vector<absl::string_view> parts = absl::StrSplit(name, '-');
  if (parts.size() != 3 || !absl::ConsumePrefix(&parts[1], "l")) return false;
  uint64_t seq;
  if (!absl::SimpleAtoi(parts[0], &info->run) || !absl::SimpleAtoi(parts[1], &info->ldm) ||
      !absl::SimpleAtoi(parts[2], &seq) || info->ldm < 0) {
    return false;
  }
  info->seq = seq;
  return true;
}

}  // namespace

RedoLog::RedoLog(std::string dir, uint32_t run, int ldm, uint64_t segment_bytes)
    : dir_(std::move(dir)), run_(run), ldm_(ldm), segment_bytes_(segment_bytes) {
  // A failure here is reported by the first Flush, which needs the directory to create a file.
  internal::MakeDirs(dir_).IgnoreError();
}

RedoLog::~RedoLog() {
  if (fd_ >= 0) ::close(fd_);
}

void RedoLog::AppendWrite(uint64_t epoch, uint32_t table_id, uint32_t partition,
                          absl::string_view key, absl::string_view row) {
  std::lock_guard<std::mutex> lock(mu_);
  redo::AppendWrite(&pending_, epoch, table_id, partition, key, row);
  pending_max_epoch_ = std::max(pending_max_epoch_, epoch);
  pending_bytes_.store(pending_.size(), std::memory_order_relaxed);
}

void RedoLog::AppendDelete(uint64_t epoch, uint32_t table_id, uint32_t partition,
                           absl::string_view key) {
  std::lock_guard<std::mutex> lock(mu_);
  redo::AppendDelete(&pending_, epoch, table_id, partition, key);
  pending_max_epoch_ = std::max(pending_max_epoch_, epoch);
  pending_bytes_.store(pending_.size(), std::memory_order_relaxed);
}

void RedoLog::AppendTruncate(uint64_t epoch, uint32_t table_id, uint32_t partition) {
  std::lock_guard<std::mutex> lock(mu_);
  redo::AppendTruncate(&pending_, epoch, table_id, partition);
  pending_max_epoch_ = std::max(pending_max_epoch_, epoch);
  pending_bytes_.store(pending_.size(), std::memory_order_relaxed);
}

void RedoLog::TakePending() {
  std::lock_guard<std::mutex> lock(mu_);
  if (pending_.empty()) return;
  if (write_buf_.empty()) {
    // The common case: hand the LDM our emptied buffer (its capacity kept) and take its.
    std::swap(pending_, write_buf_);
  } else {
    // Bytes a failed write left behind: keep them first, then what came since.
    write_buf_.erase(0, write_off_);
    write_off_ = 0;
    write_buf_.append(pending_);
    pending_.clear();
  }
  write_max_epoch_ = std::max(write_max_epoch_, pending_max_epoch_);
  pending_max_epoch_ = 0;
  pending_bytes_.store(0, std::memory_order_relaxed);
}

absl::Status RedoLog::Flush(uint64_t saved_epoch) {
  if (!sync_error_.ok()) return sync_error_;
  TakePending();
  if (saved_epoch > marker_epoch_) {
    AppendEpochSaved(&write_buf_, saved_epoch);
    marker_epoch_ = saved_epoch;
    write_max_epoch_ = std::max(write_max_epoch_, saved_epoch);
  }
  if (write_off_ < write_buf_.size()) {
    if (fd_ < 0) SHOAL_RETURN_IF_ERROR(OpenSegment());
    // Counted before the write, so a segment is never trimmed early even if the write fails.
    open_.max_epoch = std::max(open_.max_epoch, write_max_epoch_);
    uint64_t before = file_offset_;
    absl::Status status = internal::PwriteAll(
        fd_, open_.path, absl::string_view(write_buf_).substr(write_off_), &file_offset_);
    uint64_t written = file_offset_ - before;
    write_off_ += written;
    bytes_written_.fetch_add(written, std::memory_order_relaxed);
    if (written > 0) needs_sync_ = true;
    if (!status.ok()) return status;  // resumes at write_off_ / file_offset_ next time
    write_buf_.clear();
    write_off_ = 0;
    write_max_epoch_ = 0;
  }
  if (saved_epoch != 0) SHOAL_RETURN_IF_ERROR(SyncSegment());
  // Rolled only here, after a whole buffer went out, so a segment ends on a record boundary.
  if (fd_ >= 0 && file_offset_ >= segment_bytes_) SHOAL_RETURN_IF_ERROR(CloseSegment());
  return absl::OkStatus();
}

absl::Status RedoLog::OpenSegment() {
  SHOAL_RETURN_IF_ERROR(internal::MakeDirs(dir_));
  std::string path = dir_ + "/" + SegmentName(run_, ldm_, next_seq_);
  // O_TRUNC rather than O_EXCL: names are unique per run, and a pre-made path (a test's
  // symlink to /dev/full) must stay usable.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return internal::ErrnoStatus("create", path, errno);
  ++next_seq_;
  fd_ = fd;
  open_ = Segment{std::move(path), 0};
  file_offset_ = 0;
  dir_dirty_ = true;
  return absl::OkStatus();
}

absl::Status RedoLog::SyncSegment() {
  if (fd_ >= 0 && needs_sync_) {
    if (::fdatasync(fd_) != 0) {
      sync_error_ = internal::ErrnoStatus("fdatasync", open_.path, errno);
      return sync_error_;
    }
    needs_sync_ = false;
  }
  if (dir_dirty_) {
    if (absl::Status status = internal::SyncDir(dir_); !status.ok()) {
      sync_error_ = status;
      return sync_error_;
    }
    dir_dirty_ = false;
  }
  return absl::OkStatus();
}

absl::Status RedoLog::CloseSegment() {
  // Synced before it is closed, so that a later save needs to sync only the open segment.
  if (needs_sync_ && ::fdatasync(fd_) != 0) {
    sync_error_ = internal::ErrnoStatus("fdatasync", open_.path, errno);
    return sync_error_;
  }
  needs_sync_ = false;
  ::close(fd_);
  fd_ = -1;
  closed_.push_back(std::move(open_));
  open_ = Segment{};
  file_offset_ = 0;
  return absl::OkStatus();
}

void RedoLog::TrimBelow(uint64_t epoch) {
  std::vector<Segment> kept;
  for (Segment& segment : closed_) {
    if (segment.max_epoch >= epoch) {
      kept.push_back(std::move(segment));
      continue;
    }
    if (::unlink(segment.path.c_str()) != 0 && errno != ENOENT) {
      SHOAL_LOG(kWarning) << internal::ErrnoStatus("unlink", segment.path, errno).message();
      kept.push_back(std::move(segment));  // tried again at the next trim
    }
  }
  closed_ = std::move(kept);
}

void RedoLog::AdoptOldSegments(std::vector<std::pair<std::string, uint64_t>> path_and_max_epoch) {
  std::vector<Segment> adopted;
  for (auto& [path, max_epoch] : path_and_max_epoch) {
    adopted.push_back(Segment{std::move(path), max_epoch});
  }
  closed_.insert(closed_.begin(), std::make_move_iterator(adopted.begin()),
                 std::make_move_iterator(adopted.end()));
}

std::vector<std::pair<std::string, uint64_t>> RedoLog::segments() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const Segment& segment : closed_) out.emplace_back(segment.path, segment.max_epoch);
  if (fd_ >= 0) out.emplace_back(open_.path, open_.max_epoch);
  return out;
}

std::string RedoLog::SegmentName(uint32_t run, int ldm, uint64_t seq) {
  return absl::StrFormat("r%06u-l%02d-%08u.redo", run, ldm, seq);
}

absl::StatusOr<std::vector<SegmentInfo>> RedoLog::ListSegments(const std::string& dir) {
  std::vector<SegmentInfo> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    if (errno == ENOENT) return out;
    return internal::ErrnoStatus("opendir", dir, errno);
  }
  for (;;) {
    errno = 0;
    struct dirent* entry = ::readdir(d);
    if (entry == nullptr) break;
    SegmentInfo info;
    if (ParseSegmentName(entry->d_name, &info)) {
      info.path = dir + "/" + entry->d_name;
      out.push_back(std::move(info));
    }
  }
  int err = errno;
  ::closedir(d);
  if (err != 0) return internal::ErrnoStatus("readdir", dir, err);
  std::sort(out.begin(), out.end(), [](const SegmentInfo& a, const SegmentInfo& b) {
    return std::tie(a.run, a.ldm, a.seq) < std::tie(b.run, b.ldm, b.seq);
  });
  return out;
}

}  // namespace shoal::redo
