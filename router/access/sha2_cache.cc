#include "router/access/sha2_cache.h"

namespace shoal::access {

std::optional<mysql::Sha256Digest> Sha2Cache::Find(const std::string& stored) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = digests_.find(stored);
  if (it == digests_.end()) return std::nullopt;
  return it->second;
}

void Sha2Cache::Remember(const std::string& stored, const mysql::Sha256Digest& digest) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (digests_.size() >= kMaxEntries) digests_.clear();
  digests_[stored] = digest;
}

}  // namespace shoal::access
