#include "protocol/auth.h"

#include <string>

#include "gtest/gtest.h"
#include "protocol/test_util.h"

namespace shoal::mysql {
namespace {

using testing::ToHex;

template <size_t N>
std::string Hex(const std::array<uint8_t, N>& digest) {
  return ToHex(DigestView(digest));
}

// FIPS 180-4 / NIST example vectors.
TEST(ShaTest, Sha1Vectors) {
  EXPECT_EQ(Hex(Sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex(Sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex(Sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex(Sha1(std::string(1000000, 'a'))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(ShaTest, Sha256Vectors) {
  EXPECT_EQ(Hex(Sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex(Sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(Sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(ShaTest, IncrementalEqualsOneShot) {
  const std::string data(1000, 'x');
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 127, 128, 999}) {
    Sha1Hasher h1;
    h1.Update(absl::string_view(data).substr(0, split));
    h1.Update(absl::string_view(data).substr(split));
    EXPECT_EQ(h1.Finish(), Sha1(data)) << split;
    Sha256Hasher h2;
    h2.Update(absl::string_view(data).substr(0, split));
    h2.Update(absl::string_view(data).substr(split));
    EXPECT_EQ(h2.Finish(), Sha256(data)) << split;
  }
}

constexpr absl::string_view kScramble = "0123456789abcdefghij";

// What a client computes for mysql_native_password, written out independently here:
// SHA1(pw) XOR SHA1(scramble || SHA1(SHA1(pw))).
std::string ClientNativeResponse(absl::string_view password, absl::string_view scramble) {
  const Sha1Digest stage1 = Sha1(password);
  const Sha1Digest stage2 = Sha1(DigestView(stage1));
  const Sha1Digest mask = Sha1(std::string(scramble) + std::string(DigestView(stage2)));
  std::string out(20, '\0');
  for (size_t i = 0; i < 20; ++i) out[i] = static_cast<char>(stage1[i] ^ mask[i]);
  return out;
}

// caching_sha2_password: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) || nonce).
std::string ClientSha2Response(absl::string_view password, absl::string_view nonce) {
  const Sha256Digest stage1 = Sha256(password);
  const Sha256Digest stage2 = Sha256(DigestView(stage1));
  const Sha256Digest mask = Sha256(std::string(DigestView(stage2)) + std::string(nonce));
  std::string out(32, '\0');
  for (size_t i = 0; i < 32; ++i) out[i] = static_cast<char>(stage1[i] ^ mask[i]);
  return out;
}

TEST(AuthTest, NativePasswordHashMatchesMysql) {
  // SELECT PASSWORD('secret') on MySQL 5.7 / authentication_string in 8.0.
  EXPECT_EQ(FormatNativeHash(NativePasswordHash("secret")),
            "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
  Sha1Digest parsed;
  ASSERT_TRUE(ParseNativeHash("*14e65567abdb5135d0cfd9a70b3032c179a49ee7", &parsed));
  EXPECT_EQ(parsed, NativePasswordHash("secret"));
  EXPECT_FALSE(ParseNativeHash("14E65567ABDB5135D0CFD9A70B3032C179A49EE7", &parsed));
  EXPECT_FALSE(ParseNativeHash("*14E65567ABDB5135D0CFD9A70B3032C179A49EEG", &parsed));
  EXPECT_FALSE(ParseNativeHash("*14E6", &parsed));
}

TEST(AuthTest, NativePasswordVerifies) {
  const Sha1Digest stored = NativePasswordHash("secret");
  const std::string response = ClientNativeResponse("secret", kScramble);
  EXPECT_EQ(ComputeNativeAuthResponse("secret", kScramble), response);
  EXPECT_TRUE(VerifyNativePassword(kScramble, response, stored));
  EXPECT_FALSE(VerifyNativePassword(kScramble, ClientNativeResponse("Secret", kScramble), stored));
  EXPECT_FALSE(VerifyNativePassword("0123456789abcdefghiX", response, stored));
  EXPECT_FALSE(VerifyNativePassword(kScramble, response.substr(0, 19), stored));
  EXPECT_FALSE(VerifyNativePassword(kScramble, "", stored));
}

TEST(AuthTest, NativeEmptyPassword) {
  const Sha1Digest empty = NativePasswordHash("");
  EXPECT_EQ(ComputeNativeAuthResponse("", kScramble), "");
  EXPECT_TRUE(VerifyNativePassword(kScramble, "", empty));
  EXPECT_FALSE(VerifyNativePassword(kScramble, ClientNativeResponse("x", kScramble), empty));
}

TEST(AuthTest, CachingSha2FastPath) {
  const Sha256Digest stored = CachingSha2PasswordHash("secret");
  EXPECT_EQ(Hex(stored), "3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7");
  const std::string response = ClientSha2Response("secret", kScramble);
  EXPECT_EQ(ComputeCachingSha2AuthResponse("secret", kScramble), response);
  EXPECT_TRUE(VerifyCachingSha2Password(kScramble, response, stored));
  EXPECT_FALSE(
      VerifyCachingSha2Password(kScramble, ClientSha2Response("secreT", kScramble), stored));
  EXPECT_FALSE(VerifyCachingSha2Password("X123456789abcdefghij", response, stored));
  EXPECT_FALSE(VerifyCachingSha2Password(kScramble, "", stored));
  EXPECT_FALSE(VerifyCachingSha2Password(kScramble, response.substr(0, 31), stored));
  const Sha256Digest empty = CachingSha2PasswordHash("");
  EXPECT_TRUE(VerifyCachingSha2Password(kScramble, "", empty));
  EXPECT_FALSE(VerifyCachingSha2Password(kScramble, response, empty));
}

TEST(AuthTest, ClearTextPassword) {
  const PasswordHashes hashes = HashPassword("sbtest");
  const std::string payload("sbtest\0", 7);
  EXPECT_EQ(ClearTextPassword(payload), "sbtest");
  EXPECT_TRUE(VerifyClearTextAgainstNative(payload, hashes.native));
  EXPECT_TRUE(VerifyClearTextAgainstCachingSha2(payload, hashes.caching_sha2));
  EXPECT_TRUE(VerifyClearTextAgainstCachingSha2("sbtest", hashes.caching_sha2));
  EXPECT_FALSE(VerifyClearTextAgainstNative(std::string("sbtes\0", 6), hashes.native));
  EXPECT_FALSE(VerifyClearTextAgainstCachingSha2("", hashes.caching_sha2));
}

TEST(AuthTest, ScrambleIsPrintableWithoutDollarOrNul) {
  uint32_t state = 1;
  auto random = [&state]() { return state = state * 1103515245u + 12345u; };
  const std::string a = GenerateScramble(random);
  ASSERT_EQ(a.size(), kScrambleLength);
  for (char c : a) {
    EXPECT_GE(c, 0x21);
    EXPECT_LE(c, 0x7e);
    EXPECT_NE(c, '$');
  }
  uint32_t seq = 0;
  const std::string all = GenerateScramble([&seq]() { return seq++; });
  EXPECT_EQ(all, "!\"#%&'()*+,-./012345");
  uint32_t again = 1;
  auto random2 = [&again]() { return again = again * 1103515245u + 12345u; };
  EXPECT_EQ(GenerateScramble(random2), a);  // deterministic for a given source
}

TEST(AuthTest, ConstantTimeEquals) {
  EXPECT_TRUE(ConstantTimeEquals("", ""));
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "ab"));
}

}  // namespace
}  // namespace shoal::mysql
