// MySQL's canonical JSON text: separators, key order, string escapes and doubles.
// Outputs marked "MySQL" are from mysql-test's json_no_table.result (8.0) or the manual; the
// doubles without that mark follow my_gcvt's rule (see json_print.h).
#include "router/sql/json/json_print.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Canonical;
using testing::Json;

TEST(JsonPrintTest, Containers) {
  EXPECT_EQ(Canonical("[1,2,\"a\"]"), "[1, 2, \"a\"]");
  EXPECT_EQ(Canonical("{\"a\":1,\"b\":[true,null]}"), "{\"a\": 1, \"b\": [true, null]}");
  EXPECT_EQ(Canonical("[ ]"), "[]");
  EXPECT_EQ(Canonical("{ }"), "{}");
  EXPECT_EQ(Canonical("[[],{},[[]]]"), "[[], {}, [[]]]");
  // MySQL.
  EXPECT_EQ(Canonical("{ \"a\" : \"foo\", \"b\" : [ true, { \"c\" : 123 } ] }"),
            "{\"a\": \"foo\", \"b\": [true, {\"c\": 123}]}");
}

TEST(JsonPrintTest, Doubles) {
  struct Case {
    double d;
    const char* text;
  };
  const Case cases[] = {
      // MySQL (Bug#27028889, Bug#21384048, casts).
      {0.0, "0.0"},
      {-0.0, "-0.0"},
      {1.0, "1.0"},
      {-1.0, "-1.0"},
      {3.14, "3.14"},
      {999999999999999.0, "999999999999999.0"},
      {-999999999999999.0, "-999999999999999.0"},
      {1e15, "1e15"},
      {-1e15, "-1e15"},
      {1e200, "1e200"},
      {-1e200, "-1e200"},
      {1e308, "1e308"},
      {1e-323, "1e-323"},
      // my_gcvt's rule.
      {1.5, "1.5"},
      {100.0, "100.0"},
      {0.1, "0.1"},
      {1e20, "1e20"},
      {123456789012345680000.0, "1.2345678901234568e20"},
      {1e-7, "0.0000001"},
      {1.5e-7, "0.00000015"},
      {1e-15, "0.000000000000001"},
      {1e-16, "1e-16"},
      {-2.5e100, "-2.5e100"},
      {-2.5e-100, "-2.5e-100"},
      {1e14, "100000000000000.0"},
      {1234567890123456.8, "1234567890123456.8"},
      {12345678901234567890.0, "1.2345678901234567e19"},
      {0.30000000000000004, "0.30000000000000004"},
      {std::numeric_limits<double>::max(), "1.7976931348623157e308"},
      {std::numeric_limits<double>::denorm_min(), "5e-324"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FormatJsonDouble(c.d), c.text) << c.d;
    EXPECT_EQ(PrintJson(JsonValue::Double(c.d)), c.text);
  }
}

TEST(JsonPrintTest, Integers) {
  EXPECT_EQ(PrintJson(JsonValue::Integer(std::numeric_limits<int64_t>::min())),
            "-9223372036854775808");
  EXPECT_EQ(PrintJson(JsonValue::Unsigned(std::numeric_limits<uint64_t>::max())),
            "18446744073709551615");
}

TEST(JsonPrintTest, Quote) {
  // MySQL: JSON_QUOTE('"'), JSON_QUOTE(JSON_QUOTE(JSON_QUOTE('abc'))), JSON_QUOTE of newlines.
  EXPECT_EQ(QuoteJsonString("\""), "\"\\\"\"");
  EXPECT_EQ(QuoteJsonString(QuoteJsonString(QuoteJsonString("abc"))),
            "\"\\\"\\\\\\\"abc\\\\\\\"\\\"\"");
  EXPECT_EQ(QuoteJsonString("\n\n"), "\"\\n\\n\"");
  EXPECT_EQ(QuoteJsonString("\xE6\x88\x91"), "\"\xE6\x88\x91\"");
  // Control characters: the five short escapes, else \u00xx in lowercase; / and DEL stay.
  EXPECT_EQ(QuoteJsonString("a\\b/c\b\f\n\r\t"), "\"a\\\\b/c\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(QuoteJsonString(std::string("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\x7f\"");
  EXPECT_EQ(QuoteJsonString(""), "\"\"");
}

TEST(JsonPrintTest, StringsAndKeysAreEscaped) {
  JsonValue obj = JsonValue::EmptyObject();
  obj.Put("a\"b", JsonValue::String("\t"));
  EXPECT_EQ(PrintJson(obj), "{\"a\\\"b\": \"\\t\"}");
  EXPECT_EQ(Canonical(R"("\u001F\u0000")"), R"("\u001f\u0000")");
}

TEST(JsonPrintTest, Unquoted) {
  // MySQL: JSON_UNQUOTE of a JSON string gives its bytes, of anything else its text.
  EXPECT_EQ(JsonUnquotedText(Json(R"("a\"b\n")")), "a\"b\n");
  EXPECT_EQ(JsonUnquotedText(Json(R"({"abc": "foo"})")), R"({"abc": "foo"})");
  EXPECT_EQ(JsonUnquotedText(Json(R"(["a", "b", "c"])")), R"(["a", "b", "c"])");
  EXPECT_EQ(JsonUnquotedText(Json("1.0")), "1.0");
  EXPECT_EQ(JsonUnquotedText(Json("null")), "null");
}

TEST(JsonPrintTest, PrintParsesBack) {
  const char* docs[] = {
      R"({"a": [1, 2.5, -0.0, 1e-7, "x\u0001y"], "bb": {"": null}, "c": true})",
      R"([18446744073709551615, -9223372036854775808, 4294967296, 1e300, 0.1])",
  };
  for (const char* doc : docs) {
    JsonValue v = Json(doc);
    std::string text = PrintJson(v);
    JsonValue again = Json(text);
    EXPECT_EQ(again, v) << text;
    EXPECT_EQ(PrintJson(again), text);
  }
}

}  // namespace
}  // namespace shoal::sql
