// SHA-1 and SHA-256 (FIPS 180-4), for the MySQL authentication plugins. Small and
// allocation-free; not hardened against side channels beyond what the auth code needs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace shoal::mysql {

using Sha1Digest = std::array<uint8_t, 20>;
using Sha256Digest = std::array<uint8_t, 32>;

// Incremental hashers: Update any number of times, then Finish once.
class Sha1Hasher {
 public:
  Sha1Hasher();
  void Update(absl::string_view data);
  Sha1Digest Finish();

 private:
  void Block(const uint8_t* block);

  uint32_t h_[5];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t length_ = 0;  // bytes
};

class Sha256Hasher {
 public:
  Sha256Hasher();
  void Update(absl::string_view data);
  Sha256Digest Finish();

 private:
  void Block(const uint8_t* block);

  uint32_t h_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t length_ = 0;
};

Sha1Digest Sha1(absl::string_view data);
Sha256Digest Sha256(absl::string_view data);

// A digest's bytes as a string_view (borrowing the digest).
template <size_t N>
absl::string_view DigestView(const std::array<uint8_t, N>& digest) {
  return absl::string_view(reinterpret_cast<const char*>(digest.data()), N);
}

}  // namespace shoal::mysql
