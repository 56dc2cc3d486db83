// SHA-1 and SHA-256 per FIPS 180-4 (see sha.h).
#include "protocol/sha.h"

#include <algorithm>
#include <cstring>

namespace shoal::mysql {
namespace {

inline uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
inline uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t LoadBE32(const uint8_t* p) {
  return (static_cast<uint32_t>(p[0]) << 24) | (static_cast<uint32_t>(p[1]) << 16) |
         (static_cast<uint32_t>(p[2]) << 8) | static_cast<uint32_t>(p[3]);
}

inline void StoreBE32(uint32_t v, uint8_t* p) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

constexpr uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// Shared Merkle–Damgård buffering: feeds whole 64-byte blocks to `block`.
template <typename BlockFn>
void Feed(absl::string_view data, uint8_t* buffer, size_t* buffered, uint64_t* length,
          BlockFn block) {
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t n = data.size();
  *length += n;
  if (*buffered > 0) {
    const size_t take = std::min(n, 64 - *buffered);
    std::memcpy(buffer + *buffered, p, take);
    *buffered += take;
    p += take;
    n -= take;
    if (*buffered < 64) return;
    block(buffer);
    *buffered = 0;
  }
  for (; n >= 64; p += 64, n -= 64) block(p);
  std::memcpy(buffer, p, n);
  *buffered = n;
}

// Appends 0x80, zeros and the 64-bit big-endian bit length, then runs the last block(s).
template <typename BlockFn>
void Pad(uint8_t* buffer, size_t buffered, uint64_t length, BlockFn block) {
  buffer[buffered++] = 0x80;
  if (buffered > 56) {
    std::memset(buffer + buffered, 0, 64 - buffered);
    block(buffer);
    buffered = 0;
  }
  std::memset(buffer + buffered, 0, 56 - buffered);
  const uint64_t bits = length * 8;
  StoreBE32(static_cast<uint32_t>(bits >> 32), buffer + 56);
  StoreBE32(static_cast<uint32_t>(bits), buffer + 60);
  block(buffer);
}

}  // namespace

Sha1Hasher::Sha1Hasher() : h_{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0} {}

void Sha1Hasher::Block(const uint8_t* block) {
  uint32_t w[80];
  for (int t = 0; t < 16; ++t) w[t] = LoadBE32(block + 4 * t);
  for (int t = 16; t < 80; ++t) w[t] = Rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
  uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
  for (int t = 0; t < 80; ++t) {
    uint32_t f, k;
    if (t < 20) {
      f = (b & c) | (~b & d);
      k = 0x5A827999;
    } else if (t < 40) {
      f = b ^ c ^ d;
      k = 0x6ED9EBA1;
    } else if (t < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d;
      k = 0xCA62C1D6;
    }
    const uint32_t temp = Rotl(a, 5) + f + e + k + w[t];
    e = d;
    d = c;
    c = Rotl(b, 30);
    b = a;
    a = temp;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
}

void Sha1Hasher::Update(absl::string_view data) {
  Feed(data, buffer_, &buffered_, &length_, [this](const uint8_t* b) { Block(b); });
}

Sha1Digest Sha1Hasher::Finish() {
  Pad(buffer_, buffered_, length_, [this](const uint8_t* b) { Block(b); });
  Sha1Digest digest;
  for (int i = 0; i < 5; ++i) StoreBE32(h_[i], digest.data() + 4 * i);
  return digest;
}

Sha256Hasher::Sha256Hasher()
    : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256Hasher::Block(const uint8_t* block) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = LoadBE32(block + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
  uint32_t e = h_[4], f = h_[5], g = h_[6], h = h_[7];
  for (int t = 0; t < 64; ++t) {
    const uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + s1 + ch + kSha256K[t] + w[t];
    const uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

void Sha256Hasher::Update(absl::string_view data) {
  Feed(data, buffer_, &buffered_, &length_, [this](const uint8_t* b) { Block(b); });
}

Sha256Digest Sha256Hasher::Finish() {
  Pad(buffer_, buffered_, length_, [this](const uint8_t* b) { Block(b); });
  Sha256Digest digest;
  for (int i = 0; i < 8; ++i) StoreBE32(h_[i], digest.data() + 4 * i);
  return digest;
}

Sha1Digest Sha1(absl::string_view data) {
  Sha1Hasher hasher;
  hasher.Update(data);
  return hasher.Finish();
}

Sha256Digest Sha256(absl::string_view data) {
  Sha256Hasher hasher;
  hasher.Update(data);
  return hasher.Finish();
}

}  // namespace shoal::mysql
