// The _ci collations' forms (text_fold.h), against what MySQL 8.0's utf8mb4_0900_ai_ci holds
// equal and what it tells apart.
#include "engine/schema/text_fold.h"

#include <string>

#include "gtest/gtest.h"

namespace shoal::schema {
namespace {

std::string Form(absl::string_view text) {
  std::string out;
  AppendFoldedText(text, &out);
  return out;
}

TEST(TextFoldTest, CaseAndAccentsDoNotCountInAnyScript) {
  EXPECT_EQ(Form("Ada"), "ada");
  EXPECT_EQ(Form("Jos\xC3\xA9"), "jose");                                   // José
  EXPECT_EQ(Form("\xC3\x89\x43OLE"), "ecole");                              // ÉCOLE
  EXPECT_EQ(Form("M\xC3\xBCLLER"), "muller");                               // MüLLER
  EXPECT_EQ(Form("Se\xC3\xB1or"), "senor");                                 // Señor
  EXPECT_EQ(Form("\xC3\x85ngstr\xC3\xB6m"), "angstrom");                    // Ångström
  EXPECT_EQ(Form("\xEF\xBC\xA1"), "a");                                     // fullwidth Ａ
  EXPECT_EQ(Form("\xCE\x86"), Form("\xCE\xB1"));                            // Greek Ά, α
  EXPECT_EQ(Form("\xCE\xA3"), Form("\xCF\x82"));                            // Σ, final ς
  EXPECT_EQ(Form("\xD0\x9F\xD0\xA0\xD0\x98"), "\xD0\xBF\xD1\x80\xD0\xB8");  // ПРИ, при
  EXPECT_EQ(Form("\xD0\x81"), Form("\xD0\xB5"));                            // Ё, е
  EXPECT_EQ(Form("\xE3\x82\xAB"), Form("\xE3\x81\x8B"));  // katakana カ, hiragana か
  EXPECT_EQ(Form("\xC3\x9F"), "ss");                      // ß
  EXPECT_EQ(Form("\xC3\xA6"), "ae");                      // æ
  EXPECT_EQ(Form("e\xCC\x81"), "e");                      // e + combining acute
  EXPECT_EQ(Form(std::string("a\0b", 3)), "ab");          // NUL is ignorable
}

TEST(TextFoldTest, WhatTheCollationTellsApartStaysApart) {
  EXPECT_NE(Form("a"), Form("b"));
  EXPECT_NE(Form("ada"), Form("ada "));                   // NO PAD
  EXPECT_NE(Form("\xD0\xB9"), Form("\xD0\xB8"));          // Cyrillic й, и
  EXPECT_NE(Form("\xC4\xB1"), Form("i"));                 // dotless ı
  EXPECT_NE(Form("\xE4\xB8\xAD"), Form("\xE6\x96\x87"));  // 中, 文
  EXPECT_EQ(Form("\xE4\xB8\xAD\xE6\x96\x87"), "\xE4\xB8\xAD\xE6\x96\x87");
  EXPECT_EQ(Form("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");  // 😀 stays itself
  EXPECT_EQ(Form("\xC2\xBD"), "\xC2\xBD");  // ½: its form ("1⁄2") would be longer
}

TEST(TextFoldTest, CompareAgreesWithTheFormsBytes) {
  const char* texts[] = {
      "",         "a",        "A",        "ab",        "a b", "\xC3\xA1",     "\xC3\x81\x42",
      "b",        "_",        "Z",        "\xC3\x9F",  "ss",  "st",           "s",
      "\xD0\xB5", "\xD0\x81", "\xCE\xB1", "e\xCC\x81", "e",   "\xE4\xB8\xAD", "\xC3",
      "\xC3z",    "\xFF"};
  for (const char* a : texts) {
    for (const char* b : texts) {
      const int want = Form(a).compare(Form(b));
      EXPECT_EQ(CompareFoldedText(a, b), want < 0 ? -1 : want > 0 ? 1 : 0) << a << " / " << b;
    }
  }
}

TEST(TextFoldTest, FoldingNeverLengthensAndAFormIsItsOwnForm) {
  // Every character, alone and beside others.
  for (char32_t cp = 1; cp < 0x110000; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    std::string ch;
    if (cp < 0x80) {
      ch = std::string(1, static_cast<char>(cp));
    } else if (cp < 0x800) {
      ch = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    } else if (cp < 0x10000) {
      ch = {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
            static_cast<char>(0x80 | (cp & 0x3F))};
    } else {
      ch = {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
            static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
    }
    const std::string form = Form(ch);
    ASSERT_LE(form.size(), ch.size()) << std::hex << static_cast<uint32_t>(cp);
    ASSERT_EQ(Form(form), form) << std::hex << static_cast<uint32_t>(cp);
    ASSERT_EQ(CompareFoldedText(ch, form), 0) << std::hex << static_cast<uint32_t>(cp);
    ASSERT_EQ(Form("x" + ch + "Y"), "x" + form + "y") << std::hex << static_cast<uint32_t>(cp);
  }
}

TEST(TextFoldTest, MalformedBytesStandForThemselves) {
  EXPECT_EQ(Form("\xC3"), "\xC3");
  EXPECT_EQ(Form("\xC3Z"), "\xC3z");
  EXPECT_EQ(Form("\x80\xFF"), "\x80\xFF");
  EXPECT_NE(CompareFoldedText("\xC3", "\xC3\xA9"), 0);
}

TEST(TextFoldTest, PrefixIsTheFormsFirstBytes) {
  char out[8];
  EXPECT_EQ(FoldedPrefix("\xC3\x89\x43OLE NORMALE", out, sizeof(out)), 8u);
  EXPECT_EQ(std::string(out, 8), "ecole no");
  EXPECT_EQ(FoldedPrefix("AB", out, sizeof(out)), 2u);
  EXPECT_EQ(std::string(out, 2), "ab");
}

}  // namespace
}  // namespace shoal::schema
