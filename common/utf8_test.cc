#include "common/utf8.h"

#include "gtest/gtest.h"

namespace shoal {
namespace {

TEST(Utf8PrefixTest, CutsOnlyBetweenCharacters) {
  EXPECT_EQ(Utf8Prefix("abc", 5), "abc");
  EXPECT_EQ(Utf8Prefix("abc", 2), "ab");
  // "é" is two bytes, "€" three, "😀" four: a cut inside one backs up to its start.
  EXPECT_EQ(Utf8Prefix("aé", 2), "a");
  EXPECT_EQ(Utf8Prefix("aé", 3), "aé");
  EXPECT_EQ(Utf8Prefix("x€y", 2), "x");
  EXPECT_EQ(Utf8Prefix("x€y", 3), "x");
  EXPECT_EQ(Utf8Prefix("x€y", 4), "x€");
  EXPECT_EQ(Utf8Prefix("😀😀", 7), "😀");
  EXPECT_EQ(Utf8Prefix("😀", 0), "");
}

TEST(Utf8PrefixTest, MalformedBytesAreKeptAsTheyAre) {
  EXPECT_EQ(Utf8Prefix("\xff\xfe\xfd", 2), "\xff\xfe");
  // Only continuation bytes: no character start to back up to.
  EXPECT_EQ(Utf8Prefix("\x80\x80\x80", 2), "");
}

}  // namespace
}  // namespace shoal
