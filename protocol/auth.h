// Server-side password checks for mysql_native_password and caching_sha2_password, scramble
// generation, and the client-side computations (for test clients and a --hash-password tool).
//
//   mysql_native_password: stored = SHA1(SHA1(pw)); the client sends
//     SHA1(pw) XOR SHA1(scramble || stored); the server recovers SHA1(pw) and checks that its
//     SHA1 equals `stored`.
//   caching_sha2_password (fast path): stored = SHA256(SHA256(pw)); the client sends
//     SHA256(pw) XOR SHA256(stored || nonce); same check with SHA-256.
//   Empty passwords: a client with an empty password sends an empty response, and an empty
//   response is accepted only for an account whose password is empty.
//
// All comparisons of secrets are constant-time. Stateless and thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "protocol/sha.h"

namespace shoal::mysql {

inline constexpr size_t kScrambleLength = 20;

// A 20-byte scramble of printable ASCII without NUL and '$' (as MySQL generates it).
// `random` returns uniformly random 32-bit values: absl::BitGen in production, a fixed
// sequence in tests.
std::string GenerateScramble(absl::FunctionRef<uint32_t()> random);

// Equal sizes and equal bytes, in time independent of where they differ.
bool ConstantTimeEquals(absl::string_view a, absl::string_view b);

// ---- mysql_native_password -------------------------------------------------------------

// SHA1(SHA1(password)).
Sha1Digest NativePasswordHash(absl::string_view password);
// "*" followed by 40 uppercase hex digits, as in mysql.user.authentication_string.
std::string FormatNativeHash(const Sha1Digest& hash);
// Accepts "*HEX40" (either case). False otherwise.
bool ParseNativeHash(absl::string_view text, Sha1Digest* out);
// Checks a 20-byte response (or an empty one) against `stored`.
bool VerifyNativePassword(absl::string_view scramble, absl::string_view response,
                          const Sha1Digest& stored);
// Client side: the 20-byte response for `password`, or empty for an empty password.
std::string ComputeNativeAuthResponse(absl::string_view password, absl::string_view scramble);

// ---- caching_sha2_password -------------------------------------------------------------

// SHA256(SHA256(password)).
Sha256Digest CachingSha2PasswordHash(absl::string_view password);
// Checks a 32-byte fast-path response (or an empty one) against `stored`; `nonce` is the
// 20-byte scramble from the greeting or AuthSwitchRequest.
bool VerifyCachingSha2Password(absl::string_view nonce, absl::string_view response,
                               const Sha256Digest& stored);
// Client side: the 32-byte response for `password`, or empty for an empty password.
std::string ComputeCachingSha2AuthResponse(absl::string_view password, absl::string_view nonce);

// ---- Clear-text passwords (caching_sha2 full authentication: the client sends `pw\0`) -----

// The password in a clear-text auth payload: the bytes before the first NUL.
absl::string_view ClearTextPassword(absl::string_view payload);
bool VerifyClearTextAgainstNative(absl::string_view payload, const Sha1Digest& stored);
bool VerifyClearTextAgainstCachingSha2(absl::string_view payload, const Sha256Digest& stored);

// Both stored forms of a clear-text password, for account setup and --hash-password.
struct PasswordHashes {
  Sha1Digest native;
  Sha256Digest caching_sha2;
};
PasswordHashes HashPassword(absl::string_view password);

}  // namespace shoal::mysql
