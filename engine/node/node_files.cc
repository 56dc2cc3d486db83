#include "engine/node/node_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_log.h"

namespace shoal::node {
namespace {

constexpr char kDictionaryFile[] = "dictionary.pb";

absl::Status Errno(const std::string& what, const std::string& path) {
  return absl::UnavailableError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

absl::Status SyncPath(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return Errno("cannot open", path);
  int rc = ::fsync(fd);
  ::close(fd);
  return rc == 0 ? absl::OkStatus() : Errno("cannot sync", path);
}

}  // namespace

std::string RedoDir(const std::string& data_dir) { return data_dir + "/redo"; }
std::string CheckpointDir(const std::string& data_dir) { return data_dir + "/checkpoints"; }

absl::Status SaveDictionary(const std::string& data_dir, const wire::Dictionary& dictionary) {
  const std::string path = absl::StrCat(data_dir, "/", kDictionaryFile);
  const std::string tmp = path + ".new";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !dictionary.SerializeToOstream(&out) || !out.flush()) {
      return Errno("cannot write", tmp);
    }
  }
  if (absl::Status synced = SyncPath(tmp, O_RDONLY); !synced.ok()) return synced;
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("cannot rename", tmp);
  return SyncPath(data_dir, O_RDONLY | O_DIRECTORY);
}

absl::StatusOr<std::optional<wire::Dictionary>> LoadDictionary(const std::string& data_dir) {
  const std::string path = absl::StrCat(data_dir, "/", kDictionaryFile);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return std::optional<wire::Dictionary>();
    return Errno("cannot read", path);
  }
  wire::Dictionary dictionary;
  if (!dictionary.ParseFromIstream(&in)) {
    return absl::DataLossError(absl::StrCat(path, " is not a readable dictionary"));
  }
  return std::optional<wire::Dictionary>(std::move(dictionary));
}

absl::Status RemoveNodeData(const std::string& data_dir) {
  std::error_code ec;
  std::filesystem::remove(absl::StrCat(data_dir, "/", kDictionaryFile), ec);
  if (ec)
    return absl::UnavailableError(absl::StrCat("cannot remove the dictionary: ", ec.message()));
  for (const std::string& dir : {RedoDir(data_dir), CheckpointDir(data_dir)}) {
    std::filesystem::remove_all(dir, ec);
    if (ec) return absl::UnavailableError(absl::StrCat("cannot remove ", dir, ": ", ec.message()));
  }
  return SyncPath(data_dir, O_RDONLY | O_DIRECTORY);
}

void RemoveRunsBefore(const std::string& data_dir, uint32_t first_run) {
  absl::StatusOr<std::vector<redo::SegmentInfo>> segments =
      redo::RedoLog::ListSegments(RedoDir(data_dir));
  if (!segments.ok()) return;
  for (const redo::SegmentInfo& segment : *segments) {
    if (segment.run >= first_run) continue;
    std::error_code ec;
    std::filesystem::remove(segment.path, ec);
    if (ec) {
      SHOAL_LOG(kWarning) << "cannot remove " << segment.path << ": " << ec.message();
    }
  }
}

void RemoveCheckpointsNotIn(const std::string& data_dir, const redo::NodeState& state) {
  const std::string dir = CheckpointDir(data_dir);
  for (uint64_t id : redo::CheckpointIds(dir)) {
    if (id == state.checkpoint_id || id == state.prev_checkpoint_id) continue;
    SHOAL_LOG(kInfo) << "removing local checkpoint " << id << " (the node state does not name it)";
    redo::RemoveCheckpoint(dir, id);
  }
}

}  // namespace shoal::node
