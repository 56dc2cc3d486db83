// Sha2Cache: SHA256(SHA256(password)) of accounts known only by their caching_sha2_password
// stored form ("$A$005$…", protocol/sha2_crypt.h), learned from each one's first full
// authentication on this router — mysqld's cache of the same name. Keyed by the stored form
// itself, so a new password (a new stored form) never meets an old digest, and nothing needs
// emptying it (FLUSH PRIVILEGES, ALTER USER) as mysqld's must. Shared by a
// router's workers; in memory only, so a restarted router asks each such client for its
// password once again, as a restarted mysqld does.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "protocol/sha.h"

namespace shoal::access {

class Sha2Cache {
 public:
  std::optional<mysql::Sha256Digest> Find(const std::string& stored) const;
  void Remember(const std::string& stored, const mysql::Sha256Digest& digest);

 private:
  // Past this many accounts the cache starts again (each costs one full authentication more).
  static constexpr size_t kMaxEntries = 100000;
  // std::mutex, not absl::Mutex: ThreadSanitizer sees it (Debian's abseil is not built for it).
  mutable std::mutex mutex_;
  absl::flat_hash_map<std::string, mysql::Sha256Digest> digests_;
};

}  // namespace shoal::access
