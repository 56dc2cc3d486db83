// The form in which MySQL 8 keeps a caching_sha2_password password (mysql.user's
// authentication_string, SHOW CREATE USER's AS '…'): "$A$" + three digits of rounds / 1000 +
// "$" + a 20-byte salt + 43 characters of the SHA-256 crypt digest (Ulrich Drepper's
// SHA-crypt, as glibc's "$5$", with MySQL's longer salt). An account imported that way has no
// SHA256(SHA256(password)) to check a fast-path scramble against until its client sends the
// password itself once (full authentication); the router then keeps that digest in memory.
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace shoal::mysql {

inline constexpr size_t kSha2CryptSaltSize = 20;
inline constexpr uint32_t kSha2CryptRounds = 5000;  // MySQL's default, "005"

// The 43 characters of SHA-256 crypt's digest of `password` with `salt` and `rounds`.
std::string Sha256CryptDigest(absl::string_view password, absl::string_view salt, uint32_t rounds);

// "$A$005$" + salt + digest, for a password and a 20-byte salt.
std::string MakeSha2Crypt(absl::string_view password, absl::string_view salt);
// Whether `text` is of that form (any rounds from 1000 to 999000, a 20-byte salt).
bool IsSha2Crypt(absl::string_view text);
// Whether `password` is the one `stored` (of that form) was made from; false if malformed.
bool VerifySha2Crypt(absl::string_view stored, absl::string_view password);

}  // namespace shoal::mysql
