// Fuzzes what shoal-restore reads from a backup besides the log's redo records (redo_fuzz):
// a manifest's bytes, and a data file (the local checkpoint format) read through
// redo::ReadCheckpoint from a memory file. The first byte picks which. Each input is also
// tried with its checksums made right, so the fuzzer gets past them to the layouts.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/backup/backup_files.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/crc32c.h"

namespace {

constexpr size_t kHeader = 8;  // u32 length or magic | u32 crc32c, in both formats

void ParseManifest(absl::string_view in) {
  absl::StatusOr<shoal::backup::Manifest> manifest = shoal::backup::ParseManifest(in, "fuzz");
  if (manifest.ok()) (void)manifest->SerializeAsString();
}

// A manifest's header made right for its body.
std::string FixManifest(absl::string_view in) {
  std::string out(in);
  if (out.size() < kHeader) return out;
  const uint32_t magic = 0x4B424853;
  uint32_t crc = shoal::redo::Crc32c(absl::string_view(out).substr(kHeader));
  std::memcpy(out.data(), &magic, 4);
  std::memcpy(out.data() + 4, &crc, 4);
  return out;
}

void ReadDataFile(absl::string_view in) {
  int fd = memfd_create("backup-data", 0);
  if (fd < 0) return;
  size_t done = 0;
  while (done < in.size()) {
    ssize_t n = write(fd, in.data() + done, in.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  uint64_t rows = 0;
  (void)shoal::redo::ReadCheckpoint(
      absl::StrCat("/proc/self/fd/", fd),
      [&](uint32_t, uint32_t, absl::string_view key, absl::string_view row) {
        rows += key.size() + row.size();
      },
      [](uint64_t done_bytes, uint64_t total) {
        if (done_bytes > total) std::abort();
      });
  close(fd);
}

// Every block's checksum made right.
std::string FixBlocks(absl::string_view in) {
  std::string out(in);
  size_t pos = 0;
  while (out.size() - pos >= kHeader) {
    uint32_t length;
    std::memcpy(&length, out.data() + pos, 4);
    if (length > out.size() - pos - kHeader) break;
    uint32_t crc = shoal::redo::Crc32c(absl::string_view(out.data() + pos + kHeader, length));
    std::memcpy(out.data() + pos + 4, &crc, 4);
    pos += kHeader + length;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  absl::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    ParseManifest(in);
    ParseManifest(FixManifest(in));
  } else {
    ReadDataFile(in);
    ReadDataFile(FixBlocks(in));
  }
  return 0;
}
