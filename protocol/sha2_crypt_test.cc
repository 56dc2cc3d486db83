#include "protocol/sha2_crypt.h"

#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"

namespace shoal::mysql {
namespace {

// glibc's crypt(3) "$5$" (the same algorithm, with its 16-byte salt limit) made these, e.g.
// crypt("Hello world!", "$5$saltstring").
TEST(Sha2CryptTest, TheDigestIsGlibcsSha256Crypt) {
  EXPECT_EQ(Sha256CryptDigest("Hello world!", "saltstring", 5000),
            "5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5");
  EXPECT_EQ(Sha256CryptDigest("", "abcdefghijklmnop", 5000),
            "p99E2fxZB/BTl9j.a2VRY5z71zEP761isnVBuiGlzV3");
  EXPECT_EQ(Sha256CryptDigest("a much longer password that spans more than 32 bytes in length",
                              "0123456789abcdef", 5000),
            "pLGsAWE00KXDBuwVxb0vC9WMkUQ10792bQ0s0xkO8E3");
}

// An authentication_string MySQL 8 made for the password "foobar" (its salt has control
// characters, as MySQL's do).
TEST(Sha2CryptTest, VerifiesWhatMysqlStored) {
  const std::string stored = absl::HexStringToBytes(
      "24412430303524031A69251C34295C4B35167C7F1E5A7B63091349503974624D34504B5A42467935485633"
      "6868686F52485A736E4A733368786E427575516C73446469496537");
  EXPECT_TRUE(IsSha2Crypt(stored));
  EXPECT_TRUE(VerifySha2Crypt(stored, "foobar"));
  EXPECT_FALSE(VerifySha2Crypt(stored, "not_foobar"));
  EXPECT_FALSE(VerifySha2Crypt(stored, ""));
}

TEST(Sha2CryptTest, MadeAndVerified) {
  const std::string salt = "abcdefghij0123456789";
  std::string stored = MakeSha2Crypt("s3cret", salt);
  EXPECT_EQ(stored.substr(0, 27), "$A$005$" + salt);
  EXPECT_EQ(stored.size(), 70u);
  EXPECT_TRUE(VerifySha2Crypt(stored, "s3cret"));
  EXPECT_FALSE(VerifySha2Crypt(stored, "s3cre"));
}

TEST(Sha2CryptTest, MalformedTextsAreNotHashes) {
  for (const std::string& text :
       {std::string(""), std::string("*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"),
        std::string("$A$005$short"), std::string("$B$005$") + std::string(63, 'x'),
        std::string("$A$0x5$") + std::string(63, 'x'),
        std::string("$A$000$") + std::string(63, 'x'),
        std::string("$A$005x") + std::string(63, 'x')}) {
    EXPECT_FALSE(IsSha2Crypt(text)) << text;
    EXPECT_FALSE(VerifySha2Crypt(text, "")) << text;
  }
  // MySQL's placeholder for accounts that must never log in is well formed, and matches nothing.
  const std::string never =
      "$A$005$THISISACOMBINATIONOFINVALIDSALTANDPASSWORDTHATMUSTNEVERBRBEUSED";
  EXPECT_TRUE(IsSha2Crypt(never));
  EXPECT_FALSE(VerifySha2Crypt(never, ""));
}

}  // namespace
}  // namespace shoal::mysql
