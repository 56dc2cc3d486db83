// The JSON reader: MySQL's values and types, and rapidjson's reasons and offsets for bad text.
// Offsets marked "MySQL" are from mysql-test's json_no_table.result (8.0) or MySQL's manual;
// the others follow rapidjson's reader as bundled with MySQL 8.0.
#include "router/sql/json/json_parse.h"

#include <gtest/gtest.h>

#include <string>

#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Canonical;
using testing::Json;
using Code = JsonParseErrorCode;

struct Bad {
  std::string text;
  Code code;
  size_t offset;
};

void ExpectError(const Bad& bad) {
  JsonParseResult r = ParseJson(bad.text);
  ASSERT_FALSE(r.ok()) << bad.text;
  EXPECT_EQ(r.error->code, bad.code) << bad.text << ": " << r.error->reason();
  EXPECT_EQ(r.error->offset, bad.offset) << bad.text << ": " << r.error->reason();
}

TEST(JsonParseTest, Scalars) {
  EXPECT_EQ(Json("null").type(), JsonType::kNull);
  EXPECT_EQ(Json("true").boolean(), true);
  EXPECT_EQ(Json(" false ").boolean(), false);
  EXPECT_EQ(Json("\"abc\"").string(), "abc");
  EXPECT_EQ(Json("1.5").dbl(), 1.5);
  EXPECT_EQ(Json("-12").integer(), -12);
}

TEST(JsonParseTest, IntegerTypes) {
  struct Case {
    const char* text;
    const char* type;
    const char* printed;
  };
  // MySQL: json_type('1'), ('-0') INTEGER, ('-0.0') DOUBLE, ('3.14') DOUBLE. Above 2^32-1
  // rapidjson reports a uint64 and MySQL keeps it as UNSIGNED INTEGER.
  const Case cases[] = {
      {"1", "INTEGER", "1"},
      {"-0", "INTEGER", "0"},
      {"-0.0", "DOUBLE", "-0.0"},
      {"3.14", "DOUBLE", "3.14"},
      {"1e2", "DOUBLE", "100.0"},
      {"4294967295", "INTEGER", "4294967295"},
      {"4294967296", "UNSIGNED INTEGER", "4294967296"},
      {"-2147483648", "INTEGER", "-2147483648"},
      {"-4294967296", "INTEGER", "-4294967296"},
      {"9223372036854775807", "UNSIGNED INTEGER", "9223372036854775807"},
      {"18446744073709551615", "UNSIGNED INTEGER", "18446744073709551615"},
      {"18446744073709551616", "DOUBLE", "1.8446744073709552e19"},
      {"-9223372036854775808", "INTEGER", "-9223372036854775808"},
      {"-9223372036854775809", "DOUBLE", "-9.223372036854776e18"},
      {"0.0", "DOUBLE", "0.0"},
  };
  for (const Case& c : cases) {
    JsonValue v = Json(c.text);
    EXPECT_EQ(JsonTypeName(v), c.type) << c.text;
    EXPECT_EQ(PrintJson(v), c.printed) << c.text;
  }
}

TEST(JsonParseTest, DoublesAtTheEdges) {
  // MySQL (Bug#21384048 and Bug#25518504 cases).
  EXPECT_EQ(Canonical("-1E-36181012216111515851075235238"), "-0.0");
  EXPECT_EQ(Canonical("1E-36181012216111515851075235238"), "0.0");
  EXPECT_EQ(Canonical("1E-325"), "0.0");
  EXPECT_EQ(Canonical("1E-324"), "0.0");
  EXPECT_EQ(Canonical("1E-323"), "1e-323");
  EXPECT_EQ(Canonical("1E+308"), "1e308");
  ExpectError({"1E+309", Code::kNumberTooBig, 0});
  ExpectError({"1E+36181012216111515851075235238", Code::kNumberTooBig, 0});
  ExpectError({"-1E+36181012216111515851075235238", Code::kNumberTooBig, 0});
  ExpectError({"2e308", Code::kNumberTooBig, 0});
  ExpectError({"-2e309", Code::kNumberTooBig, 0});
  // rapidjson refuses an exponent above 308 whatever the mantissa.
  ExpectError({"[1, 0e999]", Code::kNumberTooBig, 4});
  ExpectError({"1" + std::string(400, '0'), Code::kNumberTooBig, 0});
  EXPECT_EQ(Canonical("0.1"), "0.1");
  EXPECT_EQ(Canonical("123456789012345678901234567890"), "1.2345678901234568e29");
  EXPECT_EQ(Canonical("0." + std::string(400, '0') + "1e400"), "0.1");
}

TEST(JsonParseTest, Strings) {
  EXPECT_EQ(Json(R"("a\"b\\c\/d\b\f\n\r\t")").string(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(Json(R"("\u0041\u00e9\u20AC")").string(), "A\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(Json(R"("\ud83d\ude00")").string(), "\xF0\x9F\x98\x80");
  EXPECT_EQ(Json(R"("\u0000")").string(), std::string(1, '\0'));
  EXPECT_EQ(Json("\"\xC3\xA9\xF0\x9F\x98\x80\x7F\"").string(), "\xC3\xA9\xF0\x9F\x98\x80\x7F");
}

TEST(JsonParseTest, ObjectsKeepTheLastOfDuplicateKeysInMySqlOrder) {
  // MySQL (Bug#26238736) and the manual's normalization examples.
  EXPECT_EQ(Canonical(R"({"a": [1,2,3], "a": [4,5,6]})"), R"({"a": [4, 5, 6]})");
  EXPECT_EQ(Canonical(R"({"x": 17, "x": "red", "x": [3, 5, 7]})"), R"({"x": [3, 5, 7]})");
  EXPECT_EQ(Canonical(R"({"b":1,"a":2,"aa":3})"), R"({"a": 2, "b": 1, "aa": 3})");
  EXPECT_EQ(Canonical(R"({"key1": 1, "key2": "abc", "key1": "def"})"),
            R"({"key1": "def", "key2": "abc"})");
  EXPECT_EQ(Canonical(R"({"bb": 1, "ab": 2, "c": 3, "": 4})"),
            R"({"": 4, "c": 3, "ab": 2, "bb": 1})");
}

TEST(JsonParseTest, WhitespaceAndTheEnd) {
  EXPECT_EQ(Canonical(" \t\n\r[ 1 ,\t2 ]\r\n"), "[1, 2]");
  ExpectError({"\f1", Code::kValueInvalid, 0});  // only space, \t, \n, \r
  // rapidjson's stream reads NUL as the end: what follows a value after a NUL is ignored.
  EXPECT_EQ(Canonical(std::string("[1]\0garbage", 11)), "[1]");
  ExpectError({std::string(" \0 1", 4), Code::kDocumentEmpty, 1});
}

TEST(JsonParseTest, ErrorsAsMySqlReportsThem) {
  const Bad cases[] = {
      // MySQL: json_no_table.result and the manual.
      {"", Code::kDocumentEmpty, 0},
      {"abc", Code::kValueInvalid, 0},
      {"{ \"a\": tru }", Code::kValueInvalid, 10},
      {"not valid json!", Code::kValueInvalid, 1},
      {"{ \"a\" : [ }", Code::kValueInvalid, 10},
      {"[", Code::kValueInvalid, 1},
      {"2015-01-15", Code::kDocumentRootNotSingular, 4},
      {"[1,2", Code::kArrayMissCommaOrSquareBracket, 4},
      {"[1, 2", Code::kArrayMissCommaOrSquareBracket, 5},
      {"[ 1, { \"a\": true, \"b\": false, \"c\": null }, 5 ", Code::kArrayMissCommaOrSquareBracket,
       45},
      {"[\"incomplete\", \"array\", \"closing bracket\"", Code::kArrayMissCommaOrSquareBracket, 41},
      // rapidjson.
      {"   ", Code::kDocumentEmpty, 3},
      {"1 2", Code::kDocumentRootNotSingular, 2},
      {"{}}", Code::kDocumentRootNotSingular, 2},
      {"tru", Code::kValueInvalid, 3},
      {"nulx", Code::kValueInvalid, 3},
      {"falsy", Code::kValueInvalid, 4},
      {"TRUE", Code::kValueInvalid, 0},
      {"[1,]", Code::kValueInvalid, 3},
      {"-", Code::kValueInvalid, 1},
      {"-x", Code::kValueInvalid, 1},
      {"+1", Code::kValueInvalid, 0},
      {".5", Code::kValueInvalid, 0},
      {"01", Code::kDocumentRootNotSingular, 1},
      {"[01]", Code::kArrayMissCommaOrSquareBracket, 2},
      {"{1:2}", Code::kObjectMissName, 1},
      {"{\"a\":1,}", Code::kObjectMissName, 7},
      {"{ ", Code::kObjectMissName, 2},
      {"{\"a\" 1}", Code::kObjectMissColon, 5},
      {"{\"a\"", Code::kObjectMissColon, 4},
      {"{\"a\":1 \"b\":2}", Code::kObjectMissCommaOrCurlyBracket, 7},
      {"{\"a\":1", Code::kObjectMissCommaOrCurlyBracket, 6},
      {"[1 2]", Code::kArrayMissCommaOrSquareBracket, 3},
      {"\"\\u12G4\"", Code::kStringUnicodeEscapeInvalidHex, 1},
      {"[\"ab\\u00\"]", Code::kStringUnicodeEscapeInvalidHex, 4},
      {"\"\\uD800\"", Code::kStringUnicodeSurrogateInvalid, 1},
      {"\"x\\uD800\\u0041\"", Code::kStringUnicodeSurrogateInvalid, 2},
      {"\"\\uDC00\"", Code::kStringUnicodeSurrogateInvalid, 1},
      {"\"\\x\"", Code::kStringEscapeInvalid, 1},
      {"\"\\'\"", Code::kStringEscapeInvalid, 1},
      {"\"abc\\", Code::kStringEscapeInvalid, 4},
      {"\"abc", Code::kStringMissQuotationMark, 4},
      {"{\"time\": \"fail}", Code::kStringMissQuotationMark, 15},
      {std::string("\"a\0b\"", 5), Code::kStringMissQuotationMark, 2},
      {"\"a\tb\"", Code::kStringInvalidEncoding, 2},
      {"\"\x01\"", Code::kStringInvalidEncoding, 1},
      {"1.", Code::kNumberMissFraction, 2},
      {"1.e5", Code::kNumberMissFraction, 2},
      {"[-1.x]", Code::kNumberMissFraction, 4},
      {"1e", Code::kNumberMissExponent, 2},
      {"1e+", Code::kNumberMissExponent, 3},
      {"1E-x", Code::kNumberMissExponent, 3},
  };
  for (const Bad& bad : cases) ExpectError(bad);
}

TEST(JsonParseTest, InvalidUtf8InStrings) {
  const Bad cases[] = {
      {"\"\xFF\"", Code::kStringInvalidEncoding, 1},
      {"\"ab\xC3\"", Code::kStringInvalidEncoding, 3},
      {"\"ok\xE2\x82\"", Code::kStringInvalidEncoding, 3},
      {"\"\xC0\xAF\"", Code::kStringInvalidEncoding, 1},          // overlong
      {"\"\xED\xA0\x80\"", Code::kStringInvalidEncoding, 1},      // a surrogate
      {"\"\xF4\x90\x80\x80\"", Code::kStringInvalidEncoding, 1},  // above U+10FFFF
      {"{\"k\x80\": 1}", Code::kStringInvalidEncoding, 3},
  };
  for (const Bad& bad : cases) ExpectError(bad);
}

TEST(JsonParseTest, DepthLimit) {
  std::string ok = std::string(100, '[') + std::string(100, ']');
  EXPECT_EQ(JsonDepth(Json(ok)), 100);
  ExpectError({std::string(101, '[') + std::string(101, ']'), Code::kTooDeep, 100});
  // MySQL (Bug#21377136): REPEAT('[', 100000) and friends exceed the depth, not the stack.
  ExpectError({std::string(100000, '['), Code::kTooDeep, 100});
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  ExpectError({objects, Code::kTooDeep, 500});
  std::string mixed;
  for (int i = 0; i < 100000; ++i) mixed += "[{\"a\":";
  ExpectError({mixed, Code::kTooDeep, 300});  // the 101st opener is unit 50's [
  // A syntax error before the limit is reported as such.
  ExpectError({"[[x" + std::string(200, '['), Code::kValueInvalid, 2});
  EXPECT_TRUE(ParseJson(std::string(101, '[')).error->reason().empty());
}

TEST(JsonParseTest, Reasons) {
  EXPECT_EQ(ParseJson("").error->reason(), "The document is empty.");
  EXPECT_EQ(ParseJson("1 1").error->reason(),
            "The document root must not be followed by other values.");
  EXPECT_EQ(ParseJson("x").error->reason(), "Invalid value.");
  EXPECT_EQ(ParseJson("{1}").error->reason(), "Missing a name for object member.");
  EXPECT_EQ(ParseJson("{\"a\"}").error->reason(), "Missing a colon after a name of object member.");
  EXPECT_EQ(ParseJson("{\"a\":1]").error->reason(),
            "Missing a comma or '}' after an object member.");
  EXPECT_EQ(ParseJson("[1}").error->reason(), "Missing a comma or ']' after an array element.");
  EXPECT_EQ(ParseJson("\"\\u00x\"").error->reason(),
            "Incorrect hex digit after \\u escape in string.");
  EXPECT_EQ(ParseJson("\"\\udc00\"").error->reason(), "The surrogate pair in string is invalid.");
  EXPECT_EQ(ParseJson("\"\\a\"").error->reason(), "Invalid escape character in string.");
  EXPECT_EQ(ParseJson("\"").error->reason(), "Missing a closing quotation mark in string.");
  EXPECT_EQ(ParseJson("\"\n\"").error->reason(), "Invalid encoding in string.");
  EXPECT_EQ(ParseJson("1e400").error->reason(), "Number too big to be stored in double.");
  EXPECT_EQ(ParseJson("1.").error->reason(), "Miss fraction part in number.");
  EXPECT_EQ(ParseJson("1e").error->reason(), "Miss exponent in number.");
}

}  // namespace
}  // namespace shoal::sql
