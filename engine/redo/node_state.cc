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

namespace shoal::redo {
namespace {

constexpr uint32_t kMagic = 0x54534E53;  // "SNST"
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderSize = 16;
constexpr size_t kBodySizeV1 = 4 + 8 * 8 + 4 + 4;
// A node.state is tiny; anything bigger is not one (and is not read into memory whole).
constexpr size_t kMaxFileSize = 4096;

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}
template <typename T>
T Get(absl::string_view* in) {
  T v;
  std::memcpy(&v, in->data(), sizeof(v));
  in->remove_prefix(sizeof(v));
  return v;
}

}  // namespace

std::string SerializeNodeState(const NodeState& s) {
  std::string body;
  Put(&body, s.run);
  Put(&body, s.complete_epoch);
  Put(&body, s.restorable_from);
  Put(&body, s.checkpoint_id);
  Put(&body, s.checkpoint_start_epoch);
  Put(&body, s.checkpoint_end_epoch);
  Put(&body, s.prev_checkpoint_id);
  Put(&body, s.prev_checkpoint_start_epoch);
  Put(&body, s.prev_checkpoint_end_epoch);
  Put(&body, s.ldm_count);
  Put(&body, s.first_run);
  std::string out;
  Put(&out, kMagic);
  Put(&out, kVersion);
  Put(&out, static_cast<uint32_t>(body.size()));
  Put(&out, Crc32c(body));
  out += body;
  return out;
}

absl::StatusOr<NodeState> ParseNodeState(absl::string_view in) {
  if (in.size() < kHeaderSize) {
    return absl::DataLossError(absl::StrCat("truncated (", in.size(), " bytes)"));
  }
  uint32_t magic = Get<uint32_t>(&in);
  uint32_t version = Get<uint32_t>(&in);
  uint32_t length = Get<uint32_t>(&in);
  uint32_t crc = Get<uint32_t>(&in);
  if (magic != kMagic) return absl::DataLossError("not a node state file (bad magic)");
  if (version != kVersion) {
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
  s.run = Get<uint32_t>(&in);
  s.complete_epoch = Get<uint64_t>(&in);
  s.restorable_from = Get<uint64_t>(&in);
  s.checkpoint_id = Get<uint64_t>(&in);
  s.checkpoint_start_epoch = Get<uint64_t>(&in);
  s.checkpoint_end_epoch = Get<uint64_t>(&in);
  s.prev_checkpoint_id = Get<uint64_t>(&in);
  s.prev_checkpoint_start_epoch = Get<uint64_t>(&in);
  s.prev_checkpoint_end_epoch = Get<uint64_t>(&in);
  s.ldm_count = Get<uint32_t>(&in);
  s.first_run = Get<uint32_t>(&in);
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
