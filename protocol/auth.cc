// Password hashing and verification for the MySQL auth plugins (see auth.h).
#include "protocol/auth.h"

#include <cstring>

#include "absl/strings/ascii.h"

namespace shoal::mysql {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

template <size_t N>
std::array<uint8_t, N> Xor(const std::array<uint8_t, N>& a, const std::array<uint8_t, N>& b) {
  std::array<uint8_t, N> out;
  for (size_t i = 0; i < N; ++i) out[i] = a[i] ^ b[i];
  return out;
}

template <size_t N>
std::array<uint8_t, N> ToArray(absl::string_view bytes) {
  std::array<uint8_t, N> out{};
  std::memcpy(out.data(), bytes.data(), std::min(N, bytes.size()));
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = absl::ascii_toupper(static_cast<unsigned char>(c));
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string GenerateScramble(absl::FunctionRef<uint32_t()> random) {
  // Printable ASCII 0x21..0x7E without '$' (0x24): 93 characters.
  std::string scramble(kScrambleLength, '\0');
  for (char& c : scramble) {
    uint32_t index = random() % 93;
    c = static_cast<char>(0x21 + index + (0x21 + index >= '$' ? 1 : 0));
  }
  return scramble;
}

bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return false;
  uint8_t diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<uint8_t>(a[i] ^ b[i]);
  return diff == 0;
}

Sha1Digest NativePasswordHash(absl::string_view password) {
  return Sha1(DigestView(Sha1(password)));
}

std::string FormatNativeHash(const Sha1Digest& hash) {
  std::string text = "*";
  for (uint8_t byte : hash) {
    text.push_back(kHexDigits[byte >> 4]);
    text.push_back(kHexDigits[byte & 0xF]);
  }
  return text;
}

bool ParseNativeHash(absl::string_view text, Sha1Digest* out) {
  if (text.size() != 41 || text[0] != '*') return false;
  for (size_t i = 0; i < out->size(); ++i) {
    const int hi = HexValue(text[1 + 2 * i]);
    const int lo = HexValue(text[2 + 2 * i]);
    if (hi < 0 || lo < 0) return false;
    (*out)[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

bool VerifyNativePassword(absl::string_view scramble, absl::string_view response,
                          const Sha1Digest& stored) {
  const bool stored_is_empty =
      ConstantTimeEquals(DigestView(stored), DigestView(NativePasswordHash("")));
  // An empty response proves an empty password, and only that.
  if (response.empty()) return stored_is_empty;
  if (response.size() != 20) return false;
  Sha1Hasher hasher;
  hasher.Update(scramble);
  hasher.Update(DigestView(stored));
  const Sha1Digest stage1 = Xor(ToArray<20>(response), hasher.Finish());
  return ConstantTimeEquals(DigestView(Sha1(DigestView(stage1))), DigestView(stored));
}

std::string ComputeNativeAuthResponse(absl::string_view password, absl::string_view scramble) {
  if (password.empty()) return "";
  const Sha1Digest stage1 = Sha1(password);
  const Sha1Digest stage2 = Sha1(DigestView(stage1));
  Sha1Hasher hasher;
  hasher.Update(scramble);
  hasher.Update(DigestView(stage2));
  return std::string(DigestView(Xor(stage1, hasher.Finish())));
}

Sha256Digest CachingSha2PasswordHash(absl::string_view password) {
  return Sha256(DigestView(Sha256(password)));
}

bool VerifyCachingSha2Password(absl::string_view nonce, absl::string_view response,
                               const Sha256Digest& stored) {
  const bool stored_is_empty =
      ConstantTimeEquals(DigestView(stored), DigestView(CachingSha2PasswordHash("")));
  // An empty response proves an empty password, and only that.
  if (response.empty()) return stored_is_empty;
  if (response.size() != 32) return false;
  Sha256Hasher hasher;
  hasher.Update(DigestView(stored));
  hasher.Update(nonce);
  const Sha256Digest candidate = Xor(ToArray<32>(response), hasher.Finish());
  return ConstantTimeEquals(DigestView(Sha256(DigestView(candidate))), DigestView(stored));
}

std::string ComputeCachingSha2AuthResponse(absl::string_view password, absl::string_view nonce) {
  if (password.empty()) return "";
  const Sha256Digest stage1 = Sha256(password);
  const Sha256Digest stage2 = Sha256(DigestView(stage1));
  Sha256Hasher hasher;
  hasher.Update(DigestView(stage2));
  hasher.Update(nonce);
  return std::string(DigestView(Xor(stage1, hasher.Finish())));
}

absl::string_view ClearTextPassword(absl::string_view payload) {
  const size_t nul = payload.find('\0');
  return nul == absl::string_view::npos ? payload : payload.substr(0, nul);
}

bool VerifyClearTextAgainstNative(absl::string_view payload, const Sha1Digest& stored) {
  return ConstantTimeEquals(DigestView(NativePasswordHash(ClearTextPassword(payload))),
                            DigestView(stored));
}

bool VerifyClearTextAgainstCachingSha2(absl::string_view payload, const Sha256Digest& stored) {
  return ConstantTimeEquals(DigestView(CachingSha2PasswordHash(ClearTextPassword(payload))),
                            DigestView(stored));
}

PasswordHashes HashPassword(absl::string_view password) {
  return PasswordHashes{NativePasswordHash(password), CachingSha2PasswordHash(password)};
}

}  // namespace shoal::mysql
