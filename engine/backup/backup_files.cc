#include "engine/backup/backup_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/redo/crc32c.h"
#include "engine/redo/file_util.h"

namespace shoal::backup {
namespace {

constexpr uint32_t kManifestMagic = 0x4B424853;  // "SHBK"
constexpr size_t kManifestHeader = 8;

void PutU32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }

uint32_t GetU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

std::string BackupDirName(uint32_t backup_id) { return absl::StrCat("BACKUP-", backup_id); }

std::string ManifestFileName(uint32_t backup_id, int node_id) {
  return absl::StrCat("BACKUP-", backup_id, ".", node_id, ".ctl");
}

std::string DataFileName(uint32_t backup_id, int ldm, int node_id) {
  return absl::StrCat("BACKUP-", backup_id, "-", ldm, ".", node_id, ".data");
}

std::string LogFileName(uint32_t backup_id, int node_id) {
  return absl::StrCat("BACKUP-", backup_id, ".", node_id, ".log");
}

absl::Status WriteManifest(const std::string& dir, const Manifest& manifest) {
  const std::string path =
      absl::StrCat(dir, "/", ManifestFileName(manifest.backup_id(), manifest.node_id()));
  const std::string tmp = path + ".new";
  const std::string body = manifest.SerializeAsString();
  std::string bytes;
  PutU32(&bytes, kManifestMagic);
  PutU32(&bytes, redo::Crc32c(body));
  bytes += body;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) ||
        !out.flush()) {
      return redo::internal::ErrnoStatus("write", tmp, errno);
    }
  }
  if (absl::Status synced = redo::internal::SyncFile(tmp); !synced.ok()) return synced;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return redo::internal::ErrnoStatus("rename", tmp, errno);
  }
  return redo::internal::SyncDir(dir);
}

absl::StatusOr<Manifest> ParseManifest(absl::string_view bytes, const std::string& name) {
  if (bytes.size() < kManifestHeader || GetU32(bytes.data()) != kManifestMagic) {
    return absl::DataLossError(absl::StrCat(name, " is not a backup manifest"));
  }
  const absl::string_view body = bytes.substr(kManifestHeader);
  if (redo::Crc32c(body) != GetU32(bytes.data() + 4)) {
    return absl::DataLossError(absl::StrCat(name, ": checksum mismatch"));
  }
  Manifest manifest;
  if (!manifest.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
    return absl::DataLossError(absl::StrCat(name, ": the manifest does not parse"));
  }
  return manifest;
}

absl::StatusOr<Manifest> ReadManifest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return redo::internal::ErrnoStatus("read", path, errno);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseManifest(buffer.str(), path);
}

absl::StatusOr<std::vector<Manifest>> ReadManifests(const std::string& dir) {
  std::error_code error;
  std::vector<Manifest> manifests;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!absl::StartsWith(name, "BACKUP-") || !absl::EndsWith(name, ".ctl")) continue;
    absl::StatusOr<Manifest> manifest = ReadManifest(entry.path().string());
    if (!manifest.ok()) return manifest.status();
    manifests.push_back(*std::move(manifest));
  }
  if (error) return absl::NotFoundError(absl::StrCat("cannot read ", dir, ": ", error.message()));
  std::sort(manifests.begin(), manifests.end(),
            [](const Manifest& a, const Manifest& b) { return a.node_id() < b.node_id(); });
  return manifests;
}

std::vector<uint32_t> BackupIds(const std::string& backup_dir) {
  std::vector<uint32_t> ids;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(backup_dir, error)) {
    const std::string filename = entry.path().filename().string();
    absl::string_view name = filename;
    uint32_t id = 0;
    if (entry.is_directory(error) && absl::ConsumePrefix(&name, "BACKUP-") &&
        absl::SimpleAtoi(name, &id)) {
      ids.push_back(id);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace shoal::backup
