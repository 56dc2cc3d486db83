#include "common/utf8.h"

#include "absl/strings/escaping.h"
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

TEST(DecodeUtf8Test, DecodesEachLength) {
  EXPECT_EQ(DecodeUtf8("a", Utf8Check::kUtf8mb4).code_point, U'a');
  EXPECT_EQ(DecodeUtf8("a", Utf8Check::kUtf8mb4).length, 1u);
  EXPECT_EQ(DecodeUtf8("é!", Utf8Check::kUtf8mb4).code_point, U'é');
  EXPECT_EQ(DecodeUtf8("é!", Utf8Check::kUtf8mb4).length, 2u);
  EXPECT_EQ(DecodeUtf8("€", Utf8Check::kUnicode).code_point, U'€');
  EXPECT_EQ(DecodeUtf8("€", Utf8Check::kUnicode).length, 3u);
  EXPECT_EQ(DecodeUtf8("😀", Utf8Check::kUnicode).code_point, U'😀');
  EXPECT_EQ(DecodeUtf8("😀", Utf8Check::kUnicode).length, 4u);
  // The extremes of each length.
  EXPECT_EQ(DecodeUtf8("\xC2\x80", Utf8Check::kUnicode).code_point, 0x80u);
  EXPECT_EQ(DecodeUtf8("\xDF\xBF", Utf8Check::kUnicode).code_point, 0x7FFu);
  EXPECT_EQ(DecodeUtf8("\xE0\xA0\x80", Utf8Check::kUnicode).code_point, 0x800u);
  EXPECT_EQ(DecodeUtf8("\xEF\xBF\xBF", Utf8Check::kUnicode).code_point, 0xFFFFu);
  EXPECT_EQ(DecodeUtf8("\xF0\x90\x80\x80", Utf8Check::kUnicode).code_point, 0x10000u);
  EXPECT_EQ(DecodeUtf8("\xF4\x8F\xBF\xBF", Utf8Check::kUnicode).code_point, 0x10FFFFu);
  EXPECT_EQ(DecodeUtf8(absl::string_view("\0", 1), Utf8Check::kUnicode).length, 1u);
}

// What MariaDB 10.11 answers to INSERT INTO t (utf8mb4 column) VALUES (X'…') in strict mode:
// these fail with 1366 "Incorrect string value", under both checks.
TEST(DecodeUtf8Test, RejectsWhatMariaDbUtf8mb4Rejects) {
  for (absl::string_view bad : {
           absl::string_view(""),
           absl::string_view("\x80"),              // continuation byte first
           absl::string_view("\xBF"),              //
           absl::string_view("\xC0\xAF"),          // overlong '/'
           absl::string_view("\xC1\xBF"),          // overlong
           absl::string_view("\xE0\x80\xAF"),      // overlong '/'
           absl::string_view("\xE0\x9F\xBF"),      // overlong U+07FF
           absl::string_view("\xF0\x80\x80\xAF"),  // overlong '/'
           absl::string_view("\xF0\x8F\xBF\xBF"),  // overlong U+FFFF
           absl::string_view("\xF4\x90\x80\x80"),  // U+110000
           absl::string_view("\xF5\x80\x80\x80"),  // lead byte past U+10FFFF
           absl::string_view("\xF8\x88\x80\x80\x80"),
           absl::string_view("\xFF"),
           absl::string_view("\xE2\x82"),      // cut short
           absl::string_view("\xF0\x9F\x98"),  //
           absl::string_view("\xC3"),          //
           absl::string_view("\xC3"
                             "A"),  // broken by a non-continuation
           absl::string_view("\xE2\x82"
                             "A"),  //
           absl::string_view("\xF0\x9F\x98"
                             "A"),  //
       }) {
    for (Utf8Check check : {Utf8Check::kUtf8mb4, Utf8Check::kUnicode}) {
      Utf8Char c = DecodeUtf8(bad, check);
      EXPECT_EQ(c.length, 0u) << absl::CHexEscape(bad);
      EXPECT_EQ(c.code_point, 0u) << absl::CHexEscape(bad);
      EXPECT_FALSE(IsValidUtf8(bad, check) && !bad.empty()) << absl::CHexEscape(bad);
    }
  }
}

// MariaDB's utf8mb4 stores the surrogates (INSERT ... X'EDA080' succeeds); Unicode has no
// such characters.
TEST(DecodeUtf8Test, SurrogatesAreUtf8mb4ButNotUnicode) {
  for (absl::string_view surrogate : {"\xED\xA0\x80", "\xED\xBF\xBF"}) {
    EXPECT_EQ(DecodeUtf8(surrogate, Utf8Check::kUtf8mb4).length, 3u);
    EXPECT_EQ(DecodeUtf8(surrogate, Utf8Check::kUnicode).length, 0u);
  }
  EXPECT_EQ(DecodeUtf8("\xED\xA0\x80", Utf8Check::kUtf8mb4).code_point, 0xD800u);
  EXPECT_EQ(DecodeUtf8("\xED\x9F\xBF", Utf8Check::kUnicode).code_point, 0xD7FFu);
  EXPECT_EQ(DecodeUtf8("\xEE\x80\x80", Utf8Check::kUnicode).code_point, 0xE000u);
}

TEST(IsValidUtf8Test, ChecksTheWholeText) {
  EXPECT_TRUE(IsValidUtf8("", Utf8Check::kUnicode));
  EXPECT_TRUE(IsValidUtf8("aé€😀", Utf8Check::kUnicode));
  EXPECT_FALSE(IsValidUtf8("aé€😀\xE2\x82", Utf8Check::kUtf8mb4));
  EXPECT_FALSE(
      IsValidUtf8("a\xC0\xAF"
                  "b",
                  Utf8Check::kUtf8mb4));
  EXPECT_TRUE(
      IsValidUtf8("a\xED\xA0\x80"
                  "b",
                  Utf8Check::kUtf8mb4));
  EXPECT_FALSE(
      IsValidUtf8("a\xED\xA0\x80"
                  "b",
                  Utf8Check::kUnicode));
}

// Malformed bytes count one character each, as MariaDB 10.11 counts them (my_numchars_mb):
// CHAR_LENGTH(CAST(X'…' AS CHAR CHARACTER SET utf8mb4)) is 1 for X'80', 2 for X'C0AF' and 3
// for X'E28241' (each with warning 1300).
TEST(Utf8CharCountTest, MalformedBytesCountOneEach) {
  EXPECT_EQ(Utf8CharCount(""), 0u);
  EXPECT_EQ(Utf8CharCount("aé€😀"), 4u);
  EXPECT_EQ(Utf8CharCount("\x80"), 1u);
  EXPECT_EQ(Utf8CharCount("\xE2\x82"), 2u);
  EXPECT_EQ(Utf8CharCount("\xE2\x82"
                          "A"),
            3u);
  EXPECT_EQ(Utf8CharCount("\xC0\xAF"), 2u);
  EXPECT_EQ(Utf8CharCount("\xED\xA0\x80"), 1u);  // a surrogate is one utf8mb4 character
}

TEST(Utf8StepLengthTest, StepsOneCharacterOrOneBadByte) {
  EXPECT_EQ(Utf8StepLength(""), 0u);
  EXPECT_EQ(Utf8StepLength("€x"), 3u);
  EXPECT_EQ(Utf8StepLength("\xE2\x82"), 1u);
  EXPECT_EQ(Utf8StepLength("\xFF\x80"), 1u);
}

TEST(Utf8FirstCharsTest, CutsAfterCharacters) {
  EXPECT_EQ(Utf8FirstChars("aé€😀", 0), "");
  EXPECT_EQ(Utf8FirstChars("aé€😀", 2), "aé");
  EXPECT_EQ(Utf8FirstChars("aé€😀", 4), "aé€😀");
  EXPECT_EQ(Utf8FirstChars("aé€😀", 9), "aé€😀");
  EXPECT_EQ(Utf8FirstChars("\xE2\x82"
                           "A",
                           2),
            "\xE2\x82");
}

}  // namespace
}  // namespace shoal
