// SHA-256 crypt as its specification (Drepper, "Unix crypt using SHA-256 and SHA-512") gives it,
// over protocol/sha.h's SHA-256.
#include "protocol/sha2_crypt.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "protocol/sha.h"

namespace shoal::mysql {
namespace {

constexpr absl::string_view kPrefix = "$A$";
constexpr size_t kDigestChars = 43;
constexpr char kAlphabet[] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// `length` bytes of `digest` repeated (the spec's P and S sequences).
std::string Repeat(const Sha256Digest& digest, size_t length) {
  std::string out;
  out.reserve(length);
  while (out.size() < length) {
    absl::string_view part = DigestView(digest).substr(0, length - out.size());
    out.append(part.data(), part.size());
  }
  return out;
}

void AppendBase64(uint8_t b2, uint8_t b1, uint8_t b0, int chars, std::string* out) {
  uint32_t w = (uint32_t{b2} << 16) | (uint32_t{b1} << 8) | b0;
  for (int i = 0; i < chars; ++i, w >>= 6) out->push_back(kAlphabet[w & 0x3f]);
}

}  // namespace

std::string Sha256CryptDigest(absl::string_view password, absl::string_view salt, uint32_t rounds) {
  Sha256Hasher alternate;
  alternate.Update(password);
  alternate.Update(salt);
  alternate.Update(password);
  const Sha256Digest b = alternate.Finish();

  Sha256Hasher initial;
  initial.Update(password);
  initial.Update(salt);
  initial.Update(Repeat(b, password.size()));
  for (size_t bits = password.size(); bits > 0; bits >>= 1) {
    initial.Update((bits & 1) != 0 ? DigestView(b) : password);
  }
  Sha256Digest digest = initial.Finish();

  Sha256Hasher password_rounds;
  for (size_t i = 0; i < password.size(); ++i) password_rounds.Update(password);
  const std::string p = Repeat(password_rounds.Finish(), password.size());
  Sha256Hasher salt_rounds;
  for (size_t i = 0; i < 16u + digest[0]; ++i) salt_rounds.Update(salt);
  const std::string s = Repeat(salt_rounds.Finish(), salt.size());

  for (uint32_t i = 0; i < rounds; ++i) {
    Sha256Hasher round;
    round.Update((i & 1) != 0 ? absl::string_view(p) : DigestView(digest));
    if (i % 3 != 0) round.Update(s);
    if (i % 7 != 0) round.Update(p);
    round.Update((i & 1) != 0 ? DigestView(digest) : absl::string_view(p));
    digest = round.Finish();
  }

  std::string out;
  out.reserve(kDigestChars);
  const Sha256Digest& d = digest;
  AppendBase64(d[0], d[10], d[20], 4, &out);
  AppendBase64(d[21], d[1], d[11], 4, &out);
  AppendBase64(d[12], d[22], d[2], 4, &out);
  AppendBase64(d[3], d[13], d[23], 4, &out);
  AppendBase64(d[24], d[4], d[14], 4, &out);
  AppendBase64(d[15], d[25], d[5], 4, &out);
  AppendBase64(d[6], d[16], d[26], 4, &out);
  AppendBase64(d[27], d[7], d[17], 4, &out);
  AppendBase64(d[18], d[28], d[8], 4, &out);
  AppendBase64(d[9], d[19], d[29], 4, &out);
  AppendBase64(0, d[31], d[30], 3, &out);
  return out;
}

std::string MakeSha2Crypt(absl::string_view password, absl::string_view salt) {
  return absl::StrCat(kPrefix, "005$", salt, Sha256CryptDigest(password, salt, kSha2CryptRounds));
}

namespace {

// The rounds, salt and digest of a well-formed stored text.
bool Parse(absl::string_view text, uint32_t* rounds, absl::string_view* salt,
           absl::string_view* digest) {
  constexpr size_t kHeader = 7;  // "$A$005$"
  if (text.size() != kHeader + kSha2CryptSaltSize + kDigestChars ||
      !absl::StartsWith(text, kPrefix) || text[kHeader - 1] != '$') {
    return false;
  }
  absl::string_view digits = text.substr(kPrefix.size(), 3);
  uint32_t thousands = 0;
  for (char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  if (!absl::SimpleAtoi(digits, &thousands) || thousands == 0) return false;
  *rounds = thousands * 1000;
  *salt = text.substr(kHeader, kSha2CryptSaltSize);
  *digest = text.substr(kHeader + kSha2CryptSaltSize);
  return true;
}

}  // namespace

bool IsSha2Crypt(absl::string_view text) {
  uint32_t rounds;
  absl::string_view salt, digest;
  return Parse(text, &rounds, &salt, &digest);
}

bool VerifySha2Crypt(absl::string_view stored, absl::string_view password) {
  uint32_t rounds;
  absl::string_view salt, digest;
  if (!Parse(stored, &rounds, &salt, &digest)) return false;
  return Sha256CryptDigest(password, salt, rounds) == digest;
}

}  // namespace shoal::mysql
