#include "engine/redo/checkpoint.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/redo/crc32c.h"
#include "engine/redo/file_util.h"
#include "engine/redo/fixed_bytes.h"

namespace shoal::redo {
namespace {

enum BlockKind : uint8_t { kHeader = 0, kRows = 1, kFooter = 2 };
constexpr uint64_t kFileMagic = 0x50434C4C414F4853;    // "SHOALLCP"
constexpr uint64_t kFooterMagic = 0x4554454C504D4F43;  // "COMPLETE"
constexpr uint32_t kCheckpointVersion = 1;
constexpr size_t kBlockHeader = 8;

// Appends a whole block with `payload` (its kind byte first).
void AppendBlock(std::string* out, absl::string_view payload) {
  internal::AppendFixed(out, static_cast<uint32_t>(payload.size()));
  internal::AppendFixed(out, Crc32c(payload));
  out->append(payload.data(), payload.size());
}

absl::Status Damaged(const std::string& path, uint64_t offset, absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("checkpoint ", path, " is unusable at offset ", offset, ": ", what));
}

// Parses the rows of one kRows payload (kind byte removed); false if malformed.
bool ParseRows(
    absl::string_view in, uint64_t* count,
    absl::FunctionRef<void(uint32_t, uint32_t, absl::string_view, absl::string_view)> row) {
  while (!in.empty()) {
    uint32_t table_id, partition, key_length, row_length;
    if (!internal::ReadFixed(&in, &table_id) || !internal::ReadFixed(&in, &partition) ||
        !internal::ReadFixed(&in, &key_length) || key_length > in.size()) {
      return false;
    }
    absl::string_view key = in.substr(0, key_length);
    in.remove_prefix(key_length);
    if (!internal::ReadFixed(&in, &row_length) || row_length > in.size()) return false;
    row(table_id, partition, key, in.substr(0, row_length));
    in.remove_prefix(row_length);
    ++*count;
  }
  return true;
}

}  // namespace

std::string CheckpointFileName(uint64_t id, int ldm) {
  return absl::StrFormat("lcp-%08u-l%02d.ckpt", id, ldm);
}

absl::StatusOr<std::unique_ptr<CheckpointWriter>> CheckpointWriter::Create(const std::string& dir,
                                                                           uint64_t id, int ldm) {
  SHOAL_RETURN_IF_ERROR(internal::MakeDirs(dir));
  std::string path = dir + "/" + CheckpointFileName(id, ldm);
  // A file of that name left behind (ids start again after a restore) may be linked into an
  // online backup (engine/node/backup_part.h): a new file, never the old one truncated.
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return internal::ErrnoStatus("unlink", path, errno);
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return internal::ErrnoStatus("create", path, errno);
  return std::unique_ptr<CheckpointWriter>(new CheckpointWriter(dir, std::move(path), fd, id, ldm));
}

CheckpointWriter::CheckpointWriter(std::string dir, std::string path, int fd, uint64_t id, int ldm)
    : dir_(std::move(dir)), path_(std::move(path)), fd_(fd) {
  std::string header;
  internal::AppendFixed(&header, kHeader);
  internal::AppendFixed(&header, kFileMagic);
  internal::AppendFixed(&header, kCheckpointVersion);
  internal::AppendFixed(&header, id);
  internal::AppendFixed(&header, static_cast<uint32_t>(ldm));
  AppendBlock(&buffered_, header);
}

CheckpointWriter::~CheckpointWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!finished_) ::unlink(path_.c_str());  // a torn file would only be rejected later
}

void CheckpointWriter::AddRow(uint32_t table_id, uint32_t partition, absl::string_view key,
                              absl::string_view row) {
  size_t row_bytes = 16 + key.size() + row.size();
  SHOAL_CHECK(row_bytes + 1 <= kMaxCheckpointBlock)
      << "checkpoint row of " << row_bytes << " bytes";
  if (open_block_ != std::string::npos &&
      buffered_.size() - open_block_ + row_bytes > kMaxCheckpointBlock) {
    SealBlock();
  }
  if (open_block_ == std::string::npos) {
    open_block_ = buffered_.size();
    buffered_.append(kBlockHeader, '\0');  // filled in by SealBlock
    internal::AppendFixed(&buffered_, kRows);
  }
  internal::AppendFixed(&buffered_, table_id);
  internal::AppendFixed(&buffered_, partition);
  internal::AppendFixed(&buffered_, static_cast<uint32_t>(key.size()));
  buffered_.append(key.data(), key.size());
  internal::AppendFixed(&buffered_, static_cast<uint32_t>(row.size()));
  buffered_.append(row.data(), row.size());
  ++rows_;
  if (buffered_.size() - open_block_ >= kCheckpointBlockBytes) SealBlock();
}

void CheckpointWriter::SealBlock() {
  if (open_block_ == std::string::npos) return;
  size_t payload = buffered_.size() - open_block_ - kBlockHeader;
  uint32_t length = static_cast<uint32_t>(payload);
  uint32_t crc = Crc32c(absl::string_view(buffered_).substr(open_block_ + kBlockHeader));
  std::memcpy(buffered_.data() + open_block_, &length, 4);
  std::memcpy(buffered_.data() + open_block_ + 4, &crc, 4);
  open_block_ = std::string::npos;
}

std::string CheckpointWriter::TakeBuffered() {
  SealBlock();
  std::string out;
  out.swap(buffered_);
  return out;
}

absl::Status CheckpointWriter::Write(absl::string_view bytes) {
  if (fd_ < 0) return absl::FailedPreconditionError(path_ + " is already finished");
  return internal::PwriteAll(fd_, path_, bytes, &offset_);
}

absl::Status CheckpointWriter::Finish() {
  SHOAL_RETURN_IF_ERROR(Write(TakeBuffered()));
  std::string footer;
  internal::AppendFixed(&footer, kFooter);
  internal::AppendFixed(&footer, rows_);
  internal::AppendFixed(&footer, kFooterMagic);
  std::string block;
  AppendBlock(&block, footer);
  SHOAL_RETURN_IF_ERROR(Write(block));
  if (::fdatasync(fd_) != 0) return internal::ErrnoStatus("fdatasync", path_, errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    return internal::ErrnoStatus("close", path_, errno);
  }
  fd_ = -1;
  SHOAL_RETURN_IF_ERROR(internal::SyncDir(dir_));
  finished_ = true;
  return absl::OkStatus();
}

absl::Status ReadCheckpoint(
    const std::string& path,
    absl::FunctionRef<void(uint32_t, uint32_t, absl::string_view, absl::string_view)> row,
    absl::FunctionRef<void(uint64_t, uint64_t)> progress) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return internal::ErrnoStatus("open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    absl::Status status = internal::ErrnoStatus("stat", path, errno);
    ::close(fd);
    return status;
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  std::string payload;
  uint64_t offset = 0;
  uint64_t rows = 0;
  absl::Status status;
  for (bool first = true;; first = false) {
    char header[kBlockHeader];
    size_t got = 0;
    status = internal::PreadAll(fd, path, header, kBlockHeader, offset, &got);
    if (!status.ok()) break;
    if (got < kBlockHeader) {
      status = Damaged(path, offset, "the file ends before its footer (torn)");
      break;
    }
    uint32_t length, crc;
    std::memcpy(&length, header, 4);
    std::memcpy(&crc, header + 4, 4);
    if (length == 0 || length > kMaxCheckpointBlock) {
      status = Damaged(path, offset, absl::StrCat("bad block length ", length));
      break;
    }
    payload.resize(length);
    status = internal::PreadAll(fd, path, payload.data(), length, offset + kBlockHeader, &got);
    if (!status.ok()) break;
    if (got < length) {
      status = Damaged(path, offset, "the file ends inside a block (torn)");
      break;
    }
    if (Crc32c(payload) != crc) {
      status = Damaged(path, offset, "block checksum mismatch");
      break;
    }
    absl::string_view in(payload);
    uint8_t kind = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    if (first != (kind == kHeader)) {
      status = Damaged(path, offset, first ? "no file header" : "a second file header");
      break;
    }
    offset += kBlockHeader + length;
    if (kind == kHeader) {
      uint64_t magic = 0;
      uint32_t version = 0;
      if (!internal::ReadFixed(&in, &magic) || magic != kFileMagic ||
          !internal::ReadFixed(&in, &version) || version != kCheckpointVersion) {
        status = Damaged(path, 0, "not a checkpoint file of version 1");
        break;
      }
    } else if (kind == kRows) {
      if (!ParseRows(in, &rows, row)) {
        status = Damaged(path, offset - length - kBlockHeader, "malformed rows block");
        break;
      }
    } else if (kind == kFooter) {
      uint64_t count = 0, magic = 0;
      if (!internal::ReadFixed(&in, &count) || !internal::ReadFixed(&in, &magic) ||
          magic != kFooterMagic) {
        status = Damaged(path, offset, "malformed footer");
      } else if (count != rows) {
        status = Damaged(path, offset, absl::StrCat("footer says ", count, " rows, read ", rows));
      } else if (offset != size) {
        status = Damaged(path, offset, absl::StrCat(size - offset, " bytes after the footer"));
      }
      break;
    } else {
      status = Damaged(path, offset, absl::StrCat("unknown block kind ", static_cast<int>(kind)));
      break;
    }
    progress(offset, size);
  }
  ::close(fd);
  if (status.ok()) progress(size, size);
  return status;
}

std::vector<std::string> CheckpointFiles(const std::string& dir, uint64_t id) {
  std::vector<std::pair<int, std::string>> found;  // by LDM
  std::string prefix = absl::StrFormat("lcp-%08u-l", id);
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return {};
  while (struct dirent* entry = ::readdir(d)) {
    absl::string_view name = entry->d_name;
    int ldm;
    if (absl::ConsumePrefix(&name, prefix) && absl::ConsumeSuffix(&name, ".ckpt") &&
        absl::SimpleAtoi(name, &ldm) && ldm >= 0) {
      found.emplace_back(ldm, dir + "/" + entry->d_name);
    }
  }
  ::closedir(d);
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& [ldm, path] : found) out.push_back(std::move(path));
  return out;
}

std::vector<uint64_t> CheckpointIds(const std::string& dir) {
  std::vector<uint64_t> ids;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return ids;
  while (struct dirent* entry = ::readdir(d)) {
    absl::string_view name = entry->d_name;
    uint64_t id;
    // lcp-<id:08>-l<ldm:02>.ckpt
    if (absl::ConsumePrefix(&name, "lcp-") && absl::ConsumeSuffix(&name, ".ckpt") &&
        name.find("-l") != absl::string_view::npos &&
        absl::SimpleAtoi(name.substr(0, name.find("-l")), &id)) {
      ids.push_back(id);
    }
  }
  ::closedir(d);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

void RemoveCheckpoint(const std::string& dir, uint64_t id) {
  for (const std::string& path : CheckpointFiles(dir, id)) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      SHOAL_LOG(kWarning) << internal::ErrnoStatus("unlink", path, errno).message();
    }
  }
  if (absl::Status status = internal::SyncDir(dir); !status.ok()) {
    SHOAL_LOG(kWarning) << status.message();
  }
}

}  // namespace shoal::redo
