#include "router/sql/parse/lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace shoal::sql {
namespace {

using ::testing::ElementsAre;

std::vector<TokenKind> Kinds(absl::string_view sql,
                             BackslashEscapes escapes = BackslashEscapes::kOn) {
  std::vector<TokenKind> out;
  for (const Token& t : Lex(sql, escapes)) out.push_back(t.kind);
  return out;
}

std::vector<std::string> Texts(absl::string_view sql) {
  std::vector<std::string> out;
  for (const Token& t : Lex(sql)) {
    if (t.kind != TokenKind::kEnd) out.emplace_back(t.text);
  }
  return out;
}

TEST(LexerTest, IdentifiersAndKeywords) {
  auto toks = Lex("select `a``b` , 1abc $x _utf8mb4");
  ASSERT_EQ(toks.size(), 7u);
  EXPECT_TRUE(IsKeyword(toks[0], "SELECT"));
  EXPECT_EQ(toks[1].kind, TokenKind::kQuotedIdent);
  EXPECT_EQ(toks[1].value, "a`b");
  EXPECT_EQ(toks[3].kind, TokenKind::kIdent);  // digits then letters: a name
  EXPECT_EQ(toks[3].text, "1abc");
  EXPECT_EQ(toks[4].text, "$x");
  EXPECT_FALSE(IsKeyword(toks[1], "a`b"));
}

TEST(LexerTest, StringLiterals) {
  auto toks = Lex(R"('it''s' "dq\"x" 'a\nb\\c\%' N'nat' _utf8mb4'x' '')");
  EXPECT_EQ(toks[0].value, "it's");
  EXPECT_EQ(toks[1].value, "dq\"x");
  EXPECT_EQ(toks[2].value, "a\nb\\c\\%");  // \% keeps its backslash, as in MySQL
  EXPECT_EQ(toks[3].kind, TokenKind::kString);
  EXPECT_EQ(toks[3].introducer, "utf8mb3");
  EXPECT_EQ(toks[4].kind, TokenKind::kIdent);  // the introducer; the parser joins them
  EXPECT_EQ(toks[5].value, "x");
  EXPECT_EQ(toks[6].value, "");
}

TEST(LexerTest, NoBackslashEscapes) {
  auto toks = Lex(R"('a\' 'b')", BackslashEscapes::kOff);
  EXPECT_EQ(toks[0].value, "a\\");
  EXPECT_EQ(toks[1].value, "b");
  EXPECT_EQ(Lex(R"('a\')")[0].kind, TokenKind::kError);  // unterminated with escapes on
}

TEST(LexerTest, HexAndBitLiterals) {
  auto toks = Lex("X'4F' x'' 0x4F41 0x4 b'01' 0b101 0xZZ 0b2 X'4'");
  EXPECT_EQ(toks[0].kind, TokenKind::kHex);
  EXPECT_EQ(toks[0].value, "O");
  EXPECT_EQ(toks[1].value, "");
  EXPECT_EQ(toks[2].value, "OA");
  EXPECT_EQ(toks[3].value, std::string(1, '\x04'));
  EXPECT_EQ(toks[4].kind, TokenKind::kBit);
  EXPECT_EQ(toks[4].value, std::string(1, '\x01'));
  EXPECT_EQ(toks[5].value, std::string(1, '\x05'));
  EXPECT_EQ(toks[6].kind, TokenKind::kIdent);  // not hex: a name
  EXPECT_EQ(toks[7].kind, TokenKind::kIdent);
  EXPECT_EQ(toks[8].kind, TokenKind::kError);  // odd digit count in X''
}

TEST(LexerTest, Numbers) {
  EXPECT_THAT(Kinds("1 123456789012345678901234567890 1.5 .5 1. 1e10 1.5E-3 2e"),
              ElementsAre(TokenKind::kInteger, TokenKind::kInteger, TokenKind::kDecimal,
                          TokenKind::kDecimal, TokenKind::kDecimal, TokenKind::kFloat,
                          TokenKind::kFloat, TokenKind::kIdent, TokenKind::kEnd));
  EXPECT_EQ(Lex("123456789012345678901234567890")[0].text, "123456789012345678901234567890");
  EXPECT_THAT(Texts("t.a 1.e5"), ElementsAre("t", ".", "a", "1.e5"));
}

TEST(LexerTest, Operators) {
  EXPECT_THAT(
      Kinds("= <=> != <> < <= > >= + - * / % || && ! ~ ^ & | << >> := . , ; ( ) ?"),
      ElementsAre(TokenKind::kEq, TokenKind::kNullSafeEq, TokenKind::kNe, TokenKind::kNe,
                  TokenKind::kLt, TokenKind::kLe, TokenKind::kGt, TokenKind::kGe, TokenKind::kPlus,
                  TokenKind::kMinus, TokenKind::kStar, TokenKind::kSlash, TokenKind::kPercent,
                  TokenKind::kOrOr, TokenKind::kAndAnd, TokenKind::kBang, TokenKind::kTilde,
                  TokenKind::kCaret, TokenKind::kAmp, TokenKind::kPipe, TokenKind::kShl,
                  TokenKind::kShr, TokenKind::kAssign, TokenKind::kDot, TokenKind::kComma,
                  TokenKind::kSemicolon, TokenKind::kLParen, TokenKind::kRParen, TokenKind::kParam,
                  TokenKind::kEnd));
}

TEST(LexerTest, Variables) {
  auto toks = Lex("@a @'b c' @`d` @@session.sql_mode @@version @e.f");
  EXPECT_EQ(toks[0].kind, TokenKind::kUserVar);
  EXPECT_EQ(toks[0].value, "a");
  EXPECT_EQ(toks[1].value, "b c");
  EXPECT_EQ(toks[2].value, "d");
  EXPECT_EQ(toks[3].kind, TokenKind::kAtAt);
  EXPECT_EQ(toks[4].text, "session");
  EXPECT_EQ(toks[5].kind, TokenKind::kDot);
  EXPECT_EQ(toks[6].text, "sql_mode");
  EXPECT_EQ(toks[7].kind, TokenKind::kAtAt);
  EXPECT_EQ(toks[9].value, "e.f");
}

TEST(LexerTest, Comments) {
  EXPECT_THAT(Texts("1 -- c\n2 #x\n3 /* a ; b */ 4 --5"),
              ElementsAre("1", "2", "3", "4", "-", "-", "5"));
  EXPECT_THAT(Texts("1--\n2"), ElementsAre("1", "2"));
  EXPECT_EQ(Lex("1 /* open")[1].kind, TokenKind::kError);
}

TEST(LexerTest, ExecutableComments) {
  EXPECT_THAT(Texts("a /*! b */ c"), ElementsAre("a", "b", "c"));
  EXPECT_THAT(Texts("a /*!80000 b */ c /*!99999 d */ e"), ElementsAre("a", "b", "c", "e"));
  EXPECT_THAT(Texts("a /*!80036 b*/c"), ElementsAre("a", "b", "c"));
  EXPECT_THAT(Texts("a /*!80037 b*/c"), ElementsAre("a", "c"));
  EXPECT_THAT(Texts("SELECT /*+ MAX_EXECUTION_TIME(1) */ 1"), ElementsAre("SELECT", "1"));
}

TEST(LexerTest, SysbenchDdl) {
  std::string ddl =
      "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT "
      "NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  "
      "PRIMARY KEY (id)\n) /*! ENGINE = innodb */ ";
  auto toks = Lex(ddl);
  EXPECT_EQ(toks.back().kind, TokenKind::kEnd);
  ASSERT_GE(toks.size(), 5u);
  EXPECT_EQ(toks[toks.size() - 2].text, "innodb");
  EXPECT_EQ(toks[toks.size() - 3].kind, TokenKind::kEq);
  EXPECT_EQ(toks[toks.size() - 4].text, "ENGINE");
  EXPECT_EQ(toks[toks.size() - 2].line, 7u);
}

TEST(LexerTest, ConnectorJQuery) {
  std::string q =
      "/* mysql-connector-j-26.10.0 (Revision: fac9) */SELECT  @@session.auto_increment_increment "
      "AS auto_increment_increment, @@character_set_client AS character_set_client";
  EXPECT_THAT(Texts(q), ElementsAre("SELECT", "@@", "session", ".", "auto_increment_increment",
                                    "AS", "auto_increment_increment", ",", "@@",
                                    "character_set_client", "AS", "character_set_client"));
  EXPECT_EQ(Lex(q)[0].offset, q.find("SELECT"));
}

TEST(LexerTest, LineNumbers) {
  auto toks = Lex("a\nb\n\nc");
  EXPECT_EQ(toks[0].line, 1u);
  EXPECT_EQ(toks[1].line, 2u);
  EXPECT_EQ(toks[2].line, 4u);
}

TEST(LexerTest, ReservedWords) {
  EXPECT_TRUE(IsReservedWord("from"));
  EXPECT_TRUE(IsReservedWord("LIMIT"));
  EXPECT_TRUE(IsReservedWord("utc_timestamp"));
  EXPECT_FALSE(IsReservedWord("auto_increment_increment"));
  EXPECT_FALSE(IsReservedWord("dual_x"));
  EXPECT_FALSE(IsReservedWord("OFF"));
}

}  // namespace
}  // namespace shoal::sql
