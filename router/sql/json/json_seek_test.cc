// JSON_EXTRACT, JSON_CONTAINS_PATH and the functions that read one value at a path
// (JSON_KEYS, JSON_LENGTH, JSON_DEPTH, JSON_TYPE). Expected values are MySQL 8.0's, from the
// reference manual and mysql-test's json_no_table.result.
#include "router/sql/json/json_seek.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Json;
using testing::Paths;
using testing::Text;

std::string Extract(absl::string_view doc, std::initializer_list<absl::string_view> paths) {
  return Text(JsonExtract(Json(doc), Paths(paths)));
}

bool ContainsPath(absl::string_view doc, JsonOneOrAll mode,
                  std::initializer_list<absl::string_view> paths) {
  return JsonContainsPath(Json(doc), mode, Paths(paths));
}

// JSON_KEYS(doc, path): the path is followed without auto-wrapping.
std::string Keys(absl::string_view doc, absl::string_view path) {
  JsonValue v = Json(doc);
  const JsonValue* at = JsonSeekFirst(v, testing::Path(path).legs(), JsonAutoWrap::kNo);
  return at == nullptr ? "NULL" : Text(JsonKeys(*at));
}

// JSON_LENGTH(doc, path): with auto-wrapping.
std::string Length(absl::string_view doc, absl::string_view path) {
  JsonValue v = Json(doc);
  const JsonValue* at = JsonSeekFirst(v, testing::Path(path).legs(), JsonAutoWrap::kYes);
  return at == nullptr ? "NULL" : std::to_string(JsonLength(*at));
}

TEST(JsonExtractTest, ManualExamples) {
  EXPECT_EQ(Extract(R"({"id": 14, "name": "Aztalan"})", {"$.name"}), R"("Aztalan")");
  EXPECT_EQ(Extract("[10, 20, [30, 40]]", {"$[1]"}), "20");
  EXPECT_EQ(Extract("[10, 20, [30, 40]]", {"$[1]", "$[0]"}), "[20, 10]");
  EXPECT_EQ(Extract("[10, 20, [30, 40]]", {"$[2][*]"}), "[30, 40]");
  const char* doc = R"([3, {"a": [5, 6], "b": 10}, [99, 100]])";
  EXPECT_EQ(Extract(doc, {"$[0]"}), "3");
  EXPECT_EQ(Extract(doc, {"$[1]"}), R"({"a": [5, 6], "b": 10})");
  EXPECT_EQ(Extract(doc, {"$[2]"}), "[99, 100]");
  EXPECT_EQ(Extract(doc, {"$[3]"}), "NULL");
  EXPECT_EQ(Extract(doc, {"$[1].a"}), "[5, 6]");
  EXPECT_EQ(Extract(doc, {"$[1].a[1]"}), "6");
  EXPECT_EQ(Extract(doc, {"$[1].b"}), "10");
  EXPECT_EQ(Extract(doc, {"$[2][0]"}), "99");
  EXPECT_EQ(Extract(R"({"a": 1, "b": 2, "c": [3, 4, 5]})", {"$.*"}), "[1, 2, [3, 4, 5]]");
  EXPECT_EQ(Extract(R"({"a": 1, "b": 2, "c": [3, 4, 5]})", {"$.c[*]"}), "[3, 4, 5]");
  EXPECT_EQ(Extract(R"({"a": {"b": 1}, "c": {"b": 2}})", {"$**.b"}), "[1, 2]");
  EXPECT_EQ(Extract("[1, 2, 3, 4, 5]", {"$[1 to 3]"}), "[2, 3, 4]");
  EXPECT_EQ(Extract("[1, 2, 3, 4, 5]", {"$[last]"}), "5");
  EXPECT_EQ(Extract("[1, 2, 3, 4, 5]", {"$[last-3 to last-1]"}), "[2, 3, 4]");
  EXPECT_EQ(Extract("[1, 2, 3, 4, 5]", {"$[3 to 10000]"}), "[4, 5]");
  EXPECT_EQ(Extract("[1, 2, 3, 4, 5]", {"$[2 to 2]"}), "[3]");
  EXPECT_EQ(Extract(R"({ "one potato" : 1 })", {R"($."one potato")"}), "1");
  EXPECT_EQ(Extract(R"({ "a.b" : 1 })", {R"($."a.b")"}), "1");
}

TEST(JsonExtractTest, MultiplePathsAndNormalization) {
  const char* doc = R"({"a": 1, "b": {"e": "foo", "b": 3}})";
  EXPECT_EQ(Extract(doc, {"$.a"}), "1");
  EXPECT_EQ(Extract(doc, {"$.*"}), R"([1, {"b": 3, "e": "foo"}])");
  EXPECT_EQ(Extract(doc, {"$.a", "$.b.e"}), R"([1, "foo"])");
  const char* dup = R"({ "a" : "foo", "b" : [ true, { "c" : 123, "c" : 456 } ] })";
  EXPECT_EQ(Extract(dup, {"$.b[ 1 ].c"}), "456");
  EXPECT_EQ(Extract(dup, {"$.a", "$.b[0]"}), R"(["foo", true])");
  EXPECT_EQ(Extract(dup, {"$.d", "$.b[0]"}), "[true]");
  EXPECT_EQ(Extract("[ { \"a\": 1 }, { \"a\": 2 } ]", {"$[*].b"}), "NULL");
  EXPECT_EQ(Extract("[ { \"a\": 1 }, { \"a\": 2 } ]", {"$[*].a"}), "[1, 2]");
  EXPECT_EQ(Extract("[ { \"a\": 1 }, { \"b\": 2 } ]", {"$[*].a"}), "[1]");
  EXPECT_EQ(Extract("[ { \"a\": [3,4] }, { \"b\": 2 } ]", {"$[*].a"}), "[[3, 4]]");
  EXPECT_EQ(Extract("[ { \"a\": [3,4] }, { \"b\": 2 } ]", {"$[0].a", "$[1].a"}), "[[3, 4]]");
  EXPECT_EQ(Extract(R"({"\"a\"": 1})", {R"($."a")"}), "NULL");
  EXPECT_EQ(Extract(R"({"\"a\"": 1})", {R"($."\"a\"")"}), "1");
}

TEST(JsonExtractTest, AutoWrapping) {
  const char* doc = R"({ "a" : "foo", "b" : [ true, { "c" : 123 } ] })";
  EXPECT_EQ(Extract(doc, {"$.b[ 1 ].c"}), "123");
  EXPECT_EQ(Extract(doc, {"$.b[ 1 ].c[ 0 ]"}), "123");
  EXPECT_EQ(Extract(doc, {"$.b[ 1 ].c[ 1 ]"}), "NULL");
  EXPECT_EQ(Extract(R"({"b": [true, {"c": {"not array": 4}}]})", {"$.b[ 1 ].c[ 0 ]"}),
            R"({"not array": 4})");
  EXPECT_EQ(Extract("[1]", {"$[0][0]"}), "1");
  EXPECT_EQ(Extract("[1]", {"$[last][last]"}), "1");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$[0]", "$.a[0]"}), R"([{"a": 1}, 1])");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$[0]", "$[0].a[0]"}), R"([{"a": 1}, 1])");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$[last]", "$.a[last]"}), R"([{"a": 1}, 1])");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$[0][0][0].a"}), "1");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$[last][last][last].a"}), "1");
  EXPECT_EQ(Extract("5", {"$.a"}), "NULL");
  EXPECT_EQ(Extract("5", {"$[1]"}), "NULL");
}

TEST(JsonExtractTest, EllipsisVisitsEachValueOnce) {
  EXPECT_EQ(Extract("[1]", {"$**[0]"}), "[1]");
  EXPECT_EQ(Extract("[1]", {"$**[last]"}), "[1]");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$**[0]"}), R"([{"a": 1}, 1])");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$**[last]"}), R"([{"a": 1}, 1])");
  EXPECT_EQ(Extract("{ \"a\": 1 }", {"$**.a"}), "[1]");
  EXPECT_EQ(Extract(R"([1, [[{"x": [{"a":{"b":{"c":42}}}]}]]])", {"$**.a.*"}), R"([{"c": 42}])");
  EXPECT_EQ(Extract(R"([1, [[{"x": [{"a":{"b":{"c":42}}}]}]]])", {"$[1][0][0].x[0].a.*"}),
            R"([{"c": 42}])");
  const char* nested = "[[0,1],[2,3],[4,[5,6]]]";
  EXPECT_EQ(Extract(nested, {"$**[0]"}), "[[0, 1], 0, 1, 2, 3, 4, 5, 6]");
  EXPECT_EQ(Extract(nested, {"$**[1]"}), "[[2, 3], 1, 3, [5, 6], 6]");
  EXPECT_EQ(Extract(nested, {"$**[2]"}), "[[4, [5, 6]]]");
  EXPECT_EQ(Extract(nested, {"$**[3]"}), "NULL");
  EXPECT_EQ(Extract(nested, {"$**[*]"}),
            "[[0, 1], [2, 3], [4, [5, 6]], 0, 1, 2, 3, 4, [5, 6], 5, 6]");
  EXPECT_EQ(Extract(R"([1,2,[3,4,[5,6,{"a":7}]]])", {"$**[*]**[0]"}),
            R"([1, 2, 3, 4, 5, 6, {"a": 7}, 7])");
  // j->'$**[last]' and friends of JSON_ARRAY(1, 2).
  EXPECT_EQ(Extract("[1, 2]", {"$**[last]"}), "[2, 1]");
  EXPECT_EQ(Extract("[1, 2]", {"$**[last-1]"}), "[1]");
  EXPECT_EQ(Extract("[1, 2]", {"$**[last-2]"}), "NULL");
}

TEST(JsonExtractTest, Ranges) {
  struct Case {
    const char* path;
    const char* result;
  };
  // WL#9831's tests on [1,2,3,4].
  const Case cases[] = {
      {"$[0 to 0]", "[1]"},
      {"$[1 to 1]", "[2]"},
      {"$[1 to 2]", "[2, 3]"},
      {"$[1 to 3]", "[2, 3, 4]"},
      {"$[1 to 4]", "[2, 3, 4]"},
      {"$[0 to 2]", "[1, 2, 3]"},
      {"$[0 to 4]", "[1, 2, 3, 4]"},
      {"$[99 to 100]", "NULL"},
      {"$[100 to 100]", "NULL"},
      {"$[last to last]", "[4]"},
      {"$[last-1 to last-1]", "[3]"},
      {"$[last-1 to last]", "[3, 4]"},
      {"$[last-3 to last-1]", "[1, 2, 3]"},
      {"$[last-4 to last]", "[1, 2, 3, 4]"},
      {"$[last-4 to 5]", "[1, 2, 3, 4]"},
      {"$[last to 2]", "NULL"},
      {"$[last-1 to 2]", "[3]"},
      {"$[last-1 to 3]", "[3, 4]"},
      {"$[last-100 to last-99]", "NULL"},
      {"$[last-100 to last-100]", "NULL"},
      {"$[1 to last-1]", "[2, 3]"},
      {"$[2 to last-2]", "NULL"},
      {"$**[1 to 2]", "[2, 3]"},
      {"$**[0 to 2]", "[1, 2, 3, 4]"},
      {"$**[99 to 100]", "NULL"},
      {"$**[last-1 to last]", "[3, 4, 1, 2]"},
      {"$**[last-3 to last-1]", "[1, 2, 3]"},
      {"$**[last to 2]", "[1, 2, 3, 4]"},
      {"$**[last-1 to 2]", "[3, 1, 2, 4]"},
      {"$**[last-1 to 3]", "[3, 4, 1, 2]"},
      {"$**[1 to last-1]", "[2, 3]"},
      {"$**[2 to last-2]", "NULL"},
      {"$[2][0 to 10]", "[3]"},
      {"$[2][0 to last-2]", "NULL"},
      {"$[2][0 to last]", "[3]"},
      {"$[2][1 to last]", "NULL"},
      {"$[2][last-2 to last]", "[3]"},
      {"$[2][last-2 to 0]", "[3]"},
      {"$[1 to 2][last]", "[2, 3]"},
      {"$[1 to 2][0 to 10]", "[2, 3]"},
      {"$[1 to 2][last-10 to last]", "[2, 3]"},
  };
  for (const Case& c : cases) EXPECT_EQ(Extract("[1,2,3,4]", {c.path}), c.result) << c.path;
  EXPECT_EQ(Extract("[]", {"$[0 to 1]"}), "NULL");
  EXPECT_EQ(Extract("[]", {"$[last-1 to last]"}), "NULL");
}

TEST(JsonSeekTest, ManyLegsNeedNoStack) {
  std::string path = "$";
  for (int i = 0; i < 200000; ++i) path += "[0]";
  EXPECT_EQ(Extract("7", {path}), "7");
  std::string ellipses = "$";
  for (int i = 0; i < 20000; ++i) ellipses += "**[0]";
  EXPECT_EQ(Extract("[[1]]", {ellipses}), "[1]");
  // Each ** could reach every value below by many routes; each is searched once.
  std::string deep = std::string(100, '[') + std::string(100, ']');
  std::string twenty = "$";
  for (int i = 0; i < 20; ++i) twenty += "**[0]";
  std::optional<JsonValue> found = JsonExtract(testing::Json(deep), Paths({twenty}));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->array().size(), 80u);  // the arrays 21 to 100 levels down
}

TEST(JsonContainsPathTest, OneOrAll) {
  // The manual.
  const char* doc = R"({"a": 1, "b": 2, "c": {"d": 4}})";
  EXPECT_TRUE(ContainsPath(doc, JsonOneOrAll::kOne, {"$.a", "$.e"}));
  EXPECT_FALSE(ContainsPath(doc, JsonOneOrAll::kAll, {"$.a", "$.e"}));
  EXPECT_TRUE(ContainsPath(doc, JsonOneOrAll::kOne, {"$.c.d"}));
  EXPECT_FALSE(ContainsPath(doc, JsonOneOrAll::kOne, {"$.a.d"}));
  // json_no_table.result.
  EXPECT_TRUE(ContainsPath("{ \"a\": true }", JsonOneOrAll::kAll, {"$"}));
  EXPECT_FALSE(ContainsPath("{ \"a\": true }", JsonOneOrAll::kAll, {"$.b", "$.a"}));
  EXPECT_TRUE(ContainsPath("{ \"a\": true }", JsonOneOrAll::kOne, {"$.b", "$.a"}));
  const char* deep =
      R"({ "a": true, "b": [ 1, 2, { "c": [ 4, 5, { "d": [ 6, 7, 8, 9, 10 ]} ] } ] })";
  EXPECT_TRUE(ContainsPath(deep, JsonOneOrAll::kAll, {"$**[4]"}));
  EXPECT_FALSE(ContainsPath(deep, JsonOneOrAll::kAll, {"$**[4]", "$**[5]"}));
  EXPECT_TRUE(ContainsPath(deep, JsonOneOrAll::kAll, {"$**.c[2]"}));
  EXPECT_FALSE(ContainsPath(deep, JsonOneOrAll::kAll, {"$**.c[3]"}));
  EXPECT_TRUE(ContainsPath(R"({"a":1, "b":2})", JsonOneOrAll::kOne, {"$.*"}));
  EXPECT_FALSE(ContainsPath("[1,2,3]", JsonOneOrAll::kOne, {"$.*"}));
  EXPECT_FALSE(ContainsPath("{}", JsonOneOrAll::kOne, {"$[*]"}));
  EXPECT_TRUE(ContainsPath("[1,2,3]", JsonOneOrAll::kAll, {"$**[*]"}));
  EXPECT_TRUE(
      ContainsPath(R"([1, [[{"x": [{"a":{"b":{"c":42}}}]}]]])", JsonOneOrAll::kAll, {"$**.a.*"}));
  EXPECT_FALSE(ContainsPath(R"({ "a": true, "b": [ 1, 2 ] })", JsonOneOrAll::kAll,
                            {"$**[1]", "$.b[0]", "$.c"}));
  EXPECT_TRUE(ContainsPath(R"({ "a": true, "b": [ 1, 2 ] })", JsonOneOrAll::kOne,
                           {"$.c", "$**[1]", "$.b[0]"}));
  EXPECT_FALSE(ContainsPath(R"({ "a" : 123, "b" : [ 123, 456 ] })", JsonOneOrAll::kAll,
                            {"$.a.c", "$.b[1]"}));
  EXPECT_TRUE(ContainsPath(R"({ "a" : 123, "b" : [ 123, { "c" : { "d" : true } } ] })",
                           JsonOneOrAll::kAll, {"$.b[1].c.d"}));
  EXPECT_TRUE(ContainsPath("[1,2]", JsonOneOrAll::kAll, {"$[0 to 2]"}));
  EXPECT_TRUE(ContainsPath("[1,2]", JsonOneOrAll::kAll, {"$**[0 to 2]"}));
}

TEST(JsonKeysTest, KeysAtAPath) {
  EXPECT_EQ(Text(JsonKeys(Json(R"({"a": 1, "b": {"c": 30}})"))), R"(["a", "b"])");
  EXPECT_EQ(Keys(R"({"a": 1, "b": {"c": 30}})", "$.b"), R"(["c"])");
  const char* doc = R"({"a": 1, "b": {"e": "foo", "b": 3}})";
  EXPECT_EQ(Keys(doc, "$"), R"(["a", "b"])");
  EXPECT_EQ(Keys(doc, "$.b"), R"(["b", "e"])");
  EXPECT_EQ(Keys(doc, "$.a"), "NULL");
  EXPECT_EQ(Keys(R"({ "a" : "foo", "b" : [ true, { "c" : {} } ] })", "$.b[1].c"), "[]");
  EXPECT_EQ(Keys(R"({ "a" : "foo", "b" : [ true, { "c" : {} } ] })", "$.a.b[2]"), "NULL");
  EXPECT_EQ(Keys(R"([ { "keyA": true }, { "keyB": false } ])", "$[1]"), R"(["keyB"])");
  EXPECT_EQ(Keys(R"({"a": 1})", "$[0]"), "NULL");  // no auto-wrapping for JSON_KEYS
  EXPECT_EQ(Text(JsonKeys(Json("[1]"))), "NULL");
}

TEST(JsonLengthTest, LengthDepthType) {
  EXPECT_EQ(JsonLength(Json(R"([1, 2, {"a": 3}])")), 3u);
  EXPECT_EQ(JsonLength(Json(R"({"a": 1, "b": {"c": 30}})")), 2u);
  EXPECT_EQ(Length(R"({"a": 1, "b": {"c": 30}})", "$.b"), "1");
  EXPECT_EQ(JsonLength(Json("\"abc\"")), 1u);
  EXPECT_EQ(JsonLength(Json("null")), 1u);
  EXPECT_EQ(JsonLength(Json("{}")), 0u);
  EXPECT_EQ(JsonLength(Json("[]")), 0u);
  EXPECT_EQ(Length("[ 1, [ 2, 3, 4 ], 5 ]", "$[1]"), "3");
  EXPECT_EQ(Length("[ 1, [ 2, 3, 4 ], 5 ]", "$[2][0]"), "1");
  EXPECT_EQ(Length("[ 1, [ 2, 3, 4 ], 5 ]", "$[2][1]"), "NULL");
  EXPECT_EQ(Length(R"({ "a" : 123, "b" : [ 123, 456, 789 ] })", "$.c"), "NULL");

  EXPECT_EQ(JsonDepth(Json("{}")), 1);
  EXPECT_EQ(JsonDepth(Json("[]")), 1);
  EXPECT_EQ(JsonDepth(Json("true")), 1);
  EXPECT_EQ(JsonDepth(Json("[10, 20]")), 2);
  EXPECT_EQ(JsonDepth(Json("[[], {}]")), 2);
  EXPECT_EQ(JsonDepth(Json(R"([10, {"a": 20}])")), 3);
  EXPECT_EQ(JsonDepth(Json("[[2], 3, [[[4]]]]")), 5);
  EXPECT_EQ(JsonDepth(Json(R"({"a": {"a1": [3]}, "b": {"b1": {"c": {"d": [5]}}}})")), 6);

  EXPECT_EQ(JsonTypeName(Json(R"({"a": 2})")), "OBJECT");
  EXPECT_EQ(JsonTypeName(Json("[1,2]")), "ARRAY");
  EXPECT_EQ(JsonTypeName(Json("\"scalar string\"")), "STRING");
  EXPECT_EQ(JsonTypeName(Json("true")), "BOOLEAN");
  EXPECT_EQ(JsonTypeName(Json("null")), "NULL");
  EXPECT_EQ(JsonTypeName(Json("32767")), "INTEGER");
  EXPECT_EQ(JsonTypeName(Json("3.14")), "DOUBLE");
}

}  // namespace
}  // namespace shoal::sql
