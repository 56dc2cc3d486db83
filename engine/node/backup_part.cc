#include "engine/node/backup_part.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/backup/backup_files.h"
#include "engine/node/node_files.h"
#include "engine/node/restore.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/file_util.h"
#include "engine/redo/redo_reader.h"

namespace shoal::node {
namespace {

constexpr size_t kLogFlushBytes = 1 << 20;

// The checkpoint file as `to`: a hard link (no copy: the file never changes again), or a copy
// where the backup directory is on another file system.
absl::Status LinkOrCopy(const std::string& from, const std::string& to) {
  if (::link(from.c_str(), to.c_str()) == 0) return absl::OkStatus();
  if (errno != EXDEV && errno != EPERM) {
    return redo::internal::ErrnoStatus(absl::StrCat("link ", from, " as"), to, errno);
  }
  std::error_code error;
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, error);
  if (error)
    return absl::UnavailableError(absl::StrCat("cannot copy ", from, ": ", error.message()));
  return absl::OkStatus();
}

// Appends the log records to one file, a megabyte at a time.
class LogFile {
 public:
  explicit LogFile(std::string path) : path_(std::move(path)) {}
  ~LogFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  absl::Status Open() {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    return fd_ < 0 ? redo::internal::ErrnoStatus("create", path_, errno) : absl::OkStatus();
  }
  std::string* buffer() { return &buffer_; }
  absl::Status MaybeFlush() {
    return buffer_.size() >= kLogFlushBytes ? Flush() : absl::OkStatus();
  }
  absl::Status Flush() {
    size_t done = 0;
    while (done < buffer_.size()) {
      ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return redo::internal::ErrnoStatus("write", path_, errno);
      done += static_cast<size_t>(n);
    }
    bytes_ += buffer_.size();
    buffer_.clear();
    return absl::OkStatus();
  }
  absl::Status Close() {
    SHOAL_RETURN_IF_ERROR(Flush());
    if (::fsync(fd_) != 0) return redo::internal::ErrnoStatus("fsync", path_, errno);
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0 ? absl::OkStatus() : redo::internal::ErrnoStatus("close", path_, errno);
  }
  uint64_t bytes() const { return bytes_; }

 private:
  const std::string path_;
  int fd_ = -1;
  std::string buffer_;
  uint64_t bytes_ = 0;
};

absl::Status WritePart(const BackupPartRequest& request, const std::atomic<bool>& cancelled,
                       const std::string& dir, backup::Manifest* manifest) {
  const uint64_t epoch = request.stop_epoch;
  const redo::NodeState& state = request.state;
  if (state.restorable_from == 0 || epoch < state.restorable_from) {
    return absl::FailedPreconditionError(
        absl::StrCat("this node's disk cannot restore epoch ", epoch, " (it holds epochs from ",
                     state.restorable_from, "): it was still copying from a peer"));
  }
  SHOAL_RETURN_IF_ERROR(std::filesystem::create_directories(dir)
                            ? absl::OkStatus()
                            : (std::filesystem::is_directory(dir)
                                   ? absl::OkStatus()
                                   : absl::UnavailableError(absl::StrCat("cannot create ", dir))));
  const CheckpointChoice checkpoint = ChooseCheckpoint(state, epoch);
  manifest->set_checkpoint_id(checkpoint.id);
  manifest->set_replay_from(checkpoint.replay_from);
  if (checkpoint.id != 0) {
    const std::vector<std::string> files =
        redo::CheckpointFiles(CheckpointDir(request.data_dir), checkpoint.id);
    if (files.size() != state.ldm_count) {
      return absl::DataLossError(absl::StrCat("local checkpoint ", checkpoint.id, " has ",
                                              files.size(), " file(s), expected ",
                                              state.ldm_count));
    }
    for (size_t ldm = 0; ldm < files.size(); ++ldm) {
      const std::string name =
          backup::DataFileName(request.backup_id, static_cast<int>(ldm), request.node_id);
      SHOAL_RETURN_IF_ERROR(LinkOrCopy(files[ldm], absl::StrCat(dir, "/", name)));
      manifest->add_data_files(name);
      // Read back whole: a backup is only as good as the checkpoint it links, and the count
      // is what START BACKUP reports.
      uint64_t rows = 0;
      SHOAL_RETURN_IF_ERROR(redo::ReadCheckpoint(
          absl::StrCat(dir, "/", name),
          [&](uint32_t, uint32_t, absl::string_view, absl::string_view) { ++rows; },
          [&](uint64_t done, uint64_t total) {
            if (done == total) manifest->set_data_bytes(manifest->data_bytes() + total);
          }));
      manifest->set_data_rows(manifest->data_rows() + rows);
      if (cancelled.load()) return absl::CancelledError("the backup was aborted");
    }
  }
  const std::string log_name = backup::LogFileName(request.backup_id, request.node_id);
  LogFile log(absl::StrCat(dir, "/", log_name));
  SHOAL_RETURN_IF_ERROR(log.Open());
  absl::Status write_error;
  uint64_t records = 0;
  absl::StatusOr<redo::ReplayStats> replay = redo::ReplayRedo(
      RedoDir(request.data_dir), checkpoint.replay_from, epoch,
      [&](const redo::Record& record) {
        if (!write_error.ok()) return;
        std::string* out = log.buffer();
        switch (record.type) {
          case redo::RecordType::kWrite:
            redo::AppendWrite(out, record.epoch, record.table_id, record.partition, record.key,
                              record.row);
            break;
          case redo::RecordType::kDelete:
            redo::AppendDelete(out, record.epoch, record.table_id, record.partition, record.key);
            break;
          case redo::RecordType::kTruncate:
            redo::AppendTruncate(out, record.epoch, record.table_id, record.partition);
            break;
          case redo::RecordType::kEpochSaved:
            return;
        }
        ++records;
        write_error = log.MaybeFlush();
      },
      [](uint64_t, uint64_t) {}, nullptr);
  if (!replay.ok()) return replay.status();
  SHOAL_RETURN_IF_ERROR(write_error);
  // The stream's tail being written as we read is cut short harmlessly; what is needed is that
  // every record of the epoch was before a saved mark.
  if (replay->saved_epoch < epoch) {
    return absl::DataLossError(absl::StrCat("this node's redo holds epochs up to ",
                                            replay->saved_epoch, " only, not ", epoch,
                                            replay->stopped.empty() ? "" : ": ", replay->stopped));
  }
  if (cancelled.load()) return absl::CancelledError("the backup was aborted");
  SHOAL_RETURN_IF_ERROR(log.Close());
  manifest->set_log_file(log_name);
  manifest->set_log_records(records);
  manifest->set_log_bytes(log.bytes());
  SHOAL_RETURN_IF_ERROR(redo::internal::SyncDir(dir));
  manifest->set_finished_unix_ms(absl::ToUnixMillis(absl::Now()));
  return backup::WriteManifest(dir, *manifest);
}

}  // namespace

absl::StatusOr<backup::Manifest> WriteBackupPart(const BackupPartRequest& request,
                                                 const std::atomic<bool>& cancelled) {
  const std::string dir =
      absl::StrCat(request.backup_dir, "/", backup::BackupDirName(request.backup_id));
  backup::Manifest manifest;
  manifest.set_backup_id(request.backup_id);
  manifest.set_node_id(static_cast<uint32_t>(request.node_id));
  manifest.set_node_group(static_cast<uint32_t>(request.node_group));
  manifest.set_node_groups(static_cast<uint32_t>(request.node_groups));
  manifest.set_stop_epoch(request.stop_epoch);
  manifest.set_dictionary(request.dictionary.SerializeAsString());
  manifest.set_version(SHOAL_VERSION);
  absl::Status written = WritePart(request, cancelled, dir, &manifest);
  if (!written.ok()) {
    RemoveBackupPart(request.backup_dir, request.backup_id, request.node_id);
    return written;
  }
  return manifest;
}

void RemoveBackupPart(const std::string& backup_dir, uint32_t backup_id, int node_id) {
  const std::string dir = absl::StrCat(backup_dir, "/", backup::BackupDirName(backup_id));
  // Only this node's files: nodes on one host may share the directory.
  const std::string suffix = absl::StrCat(".", node_id, ".");
  std::error_code error;
  std::vector<std::filesystem::path> mine;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (absl::StrContains(entry.path().filename().string(), suffix)) mine.push_back(entry.path());
  }
  for (const auto& path : mine) std::filesystem::remove(path, error);
  if (std::filesystem::is_empty(dir, error)) std::filesystem::remove(dir, error);
}

}  // namespace shoal::node
