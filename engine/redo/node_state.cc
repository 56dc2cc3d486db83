#include "engine/redo/node_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/redo/crc32c.h"
#include "engine/redo/file_util.h"
#include "engine/redo/fixed_bytes.h"

namespace shoal::redo {
namespace {

constexpr uint32_t kMagic = 0x54534E53;  // "SNST"
constexpr uint32_t kNodeStateVersion = 1;
constexpr size_t kHeaderSize = 16;
constexpr size_t kBodySizeV1 = 4 + 8 * 8 + 4 + 4;
// A node.state is tiny; anything bigger is not one (and is not read into memory whole).
constexpr size_t kMaxFileSize = 4096;

}  // namespace

std::string SerializeNodeState(const NodeState& s) {
  std::string body;
  internal::AppendFixed(&body, s.run);
  internal::AppendFixed(&body, s.complete_epoch);
  internal::AppendFixed(&body, s.restorable_from);
  internal::AppendFixed(&body, s.checkpoint_id);
  internal::AppendFixed(&body, s.checkpoint_start_epoch);
  internal::AppendFixed(&body, s.checkpoint_end_epoch);
  internal::AppendFixed(&body, s.prev_checkpoint_id);
  internal::AppendFixed(&body, s.prev_checkpoint_start_epoch);
  internal::AppendFixed(&body, s.prev_checkpoint_end_epoch);
  internal::AppendFixed(&body, s.ldm_count);
  internal::AppendFixed(&body, s.first_run);
  std::string out;
  internal::AppendFixed(&out, kMagic);
  internal::AppendFixed(&out, kNodeStateVersion);
  internal::AppendFixed(&out, static_cast<uint32_t>(body.size()));
  internal::AppendFixed(&out, Crc32c(body));
  out += body;
  return out;
}

absl::StatusOr<NodeState> ParseNodeState(absl::string_view in) {
  if (in.size() < kHeaderSize) {
    return absl::DataLossError(absl::StrCat("truncated (", in.size(), " bytes)"));
  }
  uint32_t magic = internal::TakeFixed<uint32_t>(&in);
  uint32_t version = internal::TakeFixed<uint32_t>(&in);
  uint32_t length = internal::TakeFixed<uint32_t>(&in);
  uint32_t crc = internal::TakeFixed<uint32_t>(&in);
  if (magic != kMagic) return absl::DataLossError("not a node state file (bad magic)");
  if (version != kNodeStateVersion) {
    return absl::DataLossError(absl::StrCat("unsupported version ", version));
  }
  if (length != in.size()) {
    return absl::DataLossError(
        absl::StrCat("body length ", length, " but ", in.size(), " bytes follow the header"));
  }
  if (Crc32c(in) != crc) return absl::DataLossError("checksum mismatch");
  if (length != kBodySizeV1) {
    return absl::DataLossError(absl::StrCat("body of ", length, " bytes, want ", kBodySizeV1));
  }
  NodeState s;
  s.run = internal::TakeFixed<uint32_t>(&in);
  s.complete_epoch = internal::TakeFixed<uint64_t>(&in);
  s.restorable_from = internal::TakeFixed<uint64_t>(&in);
  s.checkpoint_id = internal::TakeFixed<uint64_t>(&in);
  s.checkpoint_start_epoch = internal::TakeFixed<uint64_t>(&in);
  s.checkpoint_end_epoch = internal::TakeFixed<uint64_t>(&in);
  s.prev_checkpoint_id = internal::TakeFixed<uint64_t>(&in);
  s.prev_checkpoint_start_epoch = internal::TakeFixed<uint64_t>(&in);
  s.prev_checkpoint_end_epoch = internal::TakeFixed<uint64_t>(&in);
  s.ldm_count = internal::TakeFixed<uint32_t>(&in);
  s.first_run = internal::TakeFixed<uint32_t>(&in);
  return s;
}

absl::StatusOr<std::optional<NodeState>> ReadNodeState(const std::string& data_dir) {
  std::string path = data_dir + "/" + kNodeStateFile;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<NodeState>();
    return internal::ErrnoStatus("open", path, errno);
  }
  std::string bytes(kMaxFileSize + 1, '\0');
  size_t got = 0;
  absl::Status status = internal::PreadAll(fd, path, bytes.data(), bytes.size(), 0, &got);
  ::close(fd);
  SHOAL_RETURN_IF_ERROR(status);
  if (got > kMaxFileSize) {
    return absl::DataLossError(
        absl::StrCat(path, " is corrupt: larger than ", kMaxFileSize, " bytes"));
  }
  bytes.resize(got);
  absl::StatusOr<NodeState> state = ParseNodeState(bytes);
  if (!state.ok()) {
    return absl::DataLossError(absl::StrCat(path, " is corrupt: ", state.status().message(),
                                            "; the node cannot know what its disk holds (move "
                                            "the data directory away to start it empty)"));
  }
  return std::optional<NodeState>(*state);
}

absl::Status WriteNodeState(const std::string& data_dir, const NodeState& state) {
  SHOAL_RETURN_IF_ERROR(internal::MakeDirs(data_dir));
  std::string path = data_dir + "/" + kNodeStateFile;
  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return internal::ErrnoStatus("create", tmp, errno);
  uint64_t offset = 0;
  absl::Status status = internal::PwriteAll(fd, tmp, SerializeNodeState(state), &offset);
  if (status.ok() && ::fsync(fd) != 0) status = internal::ErrnoStatus("fsync", tmp, errno);
  ::close(fd);
  if (status.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    status = internal::ErrnoStatus("rename to " + path, tmp, errno);
  }
  if (!status.ok()) {
    ::unlink(tmp.c_str());
    return status;
  }
  return internal::SyncDir(data_dir);
}

}  // namespace shoal::redo
