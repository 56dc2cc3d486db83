// JSON_MERGE_PRESERVE, JSON_MERGE_PATCH, JSON_CONTAINS and JSON comparison. Expected values
// are MySQL 8.0's, from the reference manual and mysql-test's json_no_table.result.
#include "router/sql/json/json_merge.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "router/sql/json/json_contains.h"
#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Json;

std::string Preserve(std::initializer_list<absl::string_view> docs) {
  auto it = docs.begin();
  JsonValue result = Json(*it);
  for (++it; it != docs.end(); ++it) result = JsonMergePreserve(std::move(result), Json(*it));
  return PrintJson(result);
}

std::string Patch(std::initializer_list<absl::string_view> docs) {
  auto it = docs.begin();
  JsonValue result = Json(*it);
  for (++it; it != docs.end(); ++it) result = JsonMergePatch(std::move(result), Json(*it));
  return PrintJson(result);
}

bool Contains(absl::string_view target, absl::string_view candidate) {
  return JsonContains(Json(target), Json(candidate));
}

TEST(JsonMergePreserveTest, Manual) {
  EXPECT_EQ(Preserve({"[1, 2]", "[true, false]"}), "[1, 2, true, false]");
  EXPECT_EQ(Preserve({R"({"name": "x"})", R"({"id": 47})"}), R"({"id": 47, "name": "x"})");
  EXPECT_EQ(Preserve({"1", "true"}), "[1, true]");
  EXPECT_EQ(Preserve({"[1, 2]", R"({"id": 47})"}), R"([1, 2, {"id": 47}])");
  EXPECT_EQ(Preserve({R"({ "a": 1, "b": 2 })", R"({ "a": 3, "c": 4 })"}),
            R"({"a": [1, 3], "b": 2, "c": 4})");
  EXPECT_EQ(Preserve({R"({ "a": 1, "b": 2 })", R"({ "a": 3, "c": 4 })", R"({ "a": 5, "d": 6 })"}),
            R"({"a": [1, 3, 5], "b": 2, "c": 4, "d": 6})");
}

TEST(JsonMergePreserveTest, MySqlTests) {
  EXPECT_EQ(Preserve({"1", "2"}), "[1, 2]");
  EXPECT_EQ(Preserve({"1", "[2, 3]"}), "[1, 2, 3]");
  EXPECT_EQ(Preserve({"[1, 2]", "3"}), "[1, 2, 3]");
  EXPECT_EQ(Preserve({"1", R"({ "a": 2 })"}), R"([1, {"a": 2}])");
  EXPECT_EQ(Preserve({R"({ "a": 2 })", "1"}), R"([{"a": 2}, 1])");
  EXPECT_EQ(Preserve({R"({ "a": 2 })", "[1, 2]"}), R"([{"a": 2}, 1, 2])");
  EXPECT_EQ(Preserve({R"({"a": 1, "b": 2 })", R"({"b": [3, 4], "d": 4 })"}),
            R"({"a": 1, "b": [2, 3, 4], "d": 4})");
  EXPECT_EQ(Preserve({R"({"a": 1, "b": [2, 3] })", R"({"b": 4, "d": 4 })"}),
            R"({"a": 1, "b": [2, 3, 4], "d": 4})");
  EXPECT_EQ(Preserve({R"({"b": {"e": 7, "f": 8}, "d": 4 })", R"({"a": 1, "b": 2 })"}),
            R"({"a": 1, "b": [{"e": 7, "f": 8}, 2], "d": 4})");
  EXPECT_EQ(
      Preserve({R"({"b": {"e": 7, "f": 8}, "d": 4 })", R"({ "a": 1, "b": {"e": 20, "g": 21 } })"}),
      R"({"a": 1, "b": {"e": [7, 20], "f": 8, "g": 21}, "d": 4})");
  EXPECT_EQ(Preserve({"[1, 2 ]", "3", "[4, 5]"}), "[1, 2, 3, 4, 5]");
  EXPECT_EQ(Preserve({R"({ "a": true, "b": { "c": 3, "d": 4 }, "e": [ 1, 2 ] })",
                      R"({ "d": false, "b": { "g": 3, "d": 5 }, "f": [ 1, 2 ] })",
                      R"({ "m": true, "b": { "h": 8, "d": 4 }, "e": [ 3, 4 ] })"}),
            R"({"a": true, "b": {"c": 3, "d": [4, 5, 4], "g": 3, "h": 8}, "d": false, )"
            R"("e": [1, 2, 3, 4], "f": [1, 2], "m": true})");
  EXPECT_EQ(Preserve({R"({ "a" : "foo", "b" : [ true, { "c" : 123 } ] })", R"({ "b": "bar" })"}),
            R"({"a": "foo", "b": [true, {"c": 123}, "bar"]})");
  EXPECT_EQ(Preserve({R"({ "a" : { "b" : 1 } })", R"({ "a" : { "c" : 1 } })"}),
            R"({"a": {"b": 1, "c": 1}})");
  EXPECT_EQ(Preserve({"{}", "{}"}), "{}");
}

TEST(JsonMergePatchTest, Manual) {
  EXPECT_EQ(Patch({"[1, 2]", "[true, false]"}), "[true, false]");
  EXPECT_EQ(Patch({R"({"name": "x"})", R"({"id": 47})"}), R"({"id": 47, "name": "x"})");
  EXPECT_EQ(Patch({"1", "true"}), "true");
  EXPECT_EQ(Patch({"[1, 2]", R"({"id": 47})"}), R"({"id": 47})");
  EXPECT_EQ(Patch({R"({ "a": 1, "b":2 })", R"({ "a": 3, "c":4 })"}), R"({"a": 3, "b": 2, "c": 4})");
  EXPECT_EQ(Patch({R"({ "a": 1, "b":2 })", R"({ "a": 3, "c":4 })", R"({ "a": 5, "d":6 })"}),
            R"({"a": 5, "b": 2, "c": 4, "d": 6})");
  EXPECT_EQ(Patch({R"({"a":1, "b":2})", R"({"b":null})"}), R"({"a": 1})");
  EXPECT_EQ(Patch({R"({"a":{"x":1}})", R"({"a":{"y":2}})"}), R"({"a": {"x": 1, "y": 2}})");
}

TEST(JsonMergePatchTest, Rfc7396) {
  // RFC 7396's appendix A, as MySQL prints the results.
  EXPECT_EQ(Patch({R"({"a":"b"})", R"({"a":"c"})"}), R"({"a": "c"})");
  EXPECT_EQ(Patch({R"({"a":"b"})", R"({"b":"c"})"}), R"({"a": "b", "b": "c"})");
  EXPECT_EQ(Patch({R"({"a":"b"})", R"({"a":null})"}), "{}");
  EXPECT_EQ(Patch({R"({"a":"b","b":"c"})", R"({"a":null})"}), R"({"b": "c"})");
  EXPECT_EQ(Patch({R"({"a":["b"]})", R"({"a":"c"})"}), R"({"a": "c"})");
  EXPECT_EQ(Patch({R"({"a":"c"})", R"({"a":["b"]})"}), R"({"a": ["b"]})");
  EXPECT_EQ(Patch({R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})"}), R"({"a": {"b": "d"}})");
  EXPECT_EQ(Patch({R"({"a":[{"b":"c"}]})", R"({"a":[1]})"}), R"({"a": [1]})");
  EXPECT_EQ(Patch({R"(["a","b"])", R"(["c","d"])"}), R"(["c", "d"])");
  EXPECT_EQ(Patch({R"({"a":"b"})", R"(["c"])"}), R"(["c"])");
  EXPECT_EQ(Patch({R"({"a":"foo"})", "null"}), "null");
  EXPECT_EQ(Patch({R"({"a":"foo"})", R"("bar")"}), R"("bar")");
  EXPECT_EQ(Patch({R"({"e":null})", R"({"a":1})"}), R"({"a": 1, "e": null})");
  EXPECT_EQ(Patch({"[1,2]", R"({"a":"b","c":null})"}), R"({"a": "b"})");
  EXPECT_EQ(Patch({"{}", R"({"a":{"bb":{"ccc":null}}})"}), R"({"a": {"bb": {}}})");
}

TEST(JsonContainsTest, Manual) {
  const char* j = R"({"a": 1, "b": 2, "c": {"d": 4}})";
  JsonValue doc = Json(j);
  EXPECT_TRUE(JsonContains(*doc.Find("a"), Json("1")));   // JSON_CONTAINS(@j, '1', '$.a')
  EXPECT_FALSE(JsonContains(*doc.Find("b"), Json("1")));  // '$.b'
  EXPECT_FALSE(JsonContains(*doc.Find("a"), Json(R"({"d": 4})")));
  EXPECT_TRUE(JsonContains(*doc.Find("c"), Json(R"({"d": 4})")));
}

TEST(JsonContainsTest, MySqlTests) {
  EXPECT_FALSE(Contains("3.14", "3"));
  EXPECT_FALSE(Contains(R"({"a": {"b": 7}})", R"({"b": 7})"));
  EXPECT_TRUE(Contains(R"({"b": 7})", R"({"b": 7})"));
  EXPECT_TRUE(Contains("[1,[2.0, 3.0]]", "[2.0]"));
  EXPECT_TRUE(Contains("[1, 2, [3, [4, 5]], 6, 7]", "5"));
  EXPECT_FALSE(Contains(R"({"a": 1, "b": 2})", R"("a")"));
  EXPECT_FALSE(Contains("[1]", "[1,2]"));
  EXPECT_TRUE(Contains("null", "null"));
  EXPECT_TRUE(Contains(R"({"a": 1, "b": 2})", R"({"a": 1})"));
  EXPECT_TRUE(Contains("[1, 2, 3]", "[1, 3]"));
  EXPECT_TRUE(Contains("[1, 2, 3]", "3"));
  EXPECT_TRUE(Contains(R"({"person": {"id": 1, "country": "norway"}})",
                       R"({"person": {"country": "norway"}})"));
  EXPECT_TRUE(Contains("[1,3,5]", "[5,3,1,5]"));
  EXPECT_TRUE(Contains(R"([{"b": 4, "a":7}])", R"([{"a":7},{"b":4}])"));
  EXPECT_TRUE(Contains(R"([{"b": 4, "a":7}, 5])", R"([5, {"a":7, "b":4}])"));
  EXPECT_TRUE(Contains(R"([{"b": 4, "a":7}, 5.0])", R"([5, {"a":7.0E0, "b":4}])"));
  EXPECT_FALSE(Contains(R"({"customer": "cust3"})", R"({"customer": "cust1"})"));
  EXPECT_TRUE(Contains("[null,1,[2,3],true,false]", "[null,1,[3],false]"));
  EXPECT_FALSE(Contains("[null,1,[2,3],true,false]", "[null,1,[4],false]"));
  EXPECT_FALSE(Contains("[true,false]", "[[true]]"));
  EXPECT_FALSE(Contains("[1,2]", "[[1]]"));
  EXPECT_TRUE(Contains("{}", "{}"));
  EXPECT_FALSE(Contains("{}", R"({"a":1})"));
  EXPECT_FALSE(Contains(R"({"a":1})", R"({"a":1,"b":2})"));
  EXPECT_TRUE(Contains("[1, 4, 6]", "[1, 6]"));
  EXPECT_FALSE(Contains("[3.14]", "[3]"));
  // Bug#21293089.
  EXPECT_FALSE(Contains("[]", R"({"a" : 1})"));
  EXPECT_FALSE(Contains("[]", "[1, 2, 3, 4, 5]"));
  EXPECT_FALSE(Contains("[]", R"({"a" : [1, 2, 3, 4, 5]})"));
  EXPECT_TRUE(Contains("[]", "[]"));
  // A path that selects the target: JSON_CONTAINS('{ "keyA": [1, 2, 3] ... }', '[2]', '$.keyA').
  EXPECT_TRUE(Contains("[1, 2, 3]", "[2]"));
  EXPECT_FALSE(Contains("[4, 5, 6]", "[2]"));
  EXPECT_FALSE(Contains("1", "[1]"));
  EXPECT_TRUE(Contains(R"([{"a": 1, "b": 2}])", R"({"a": 1})"));
}

TEST(JsonCompareTest, MySqlOrder) {
  // MySQL: CAST(0.0e0 AS JSON) = -0.0e0 and friends; numbers of every type compare by value.
  EXPECT_EQ(Json("0.0"), Json("-0.0"));
  EXPECT_EQ(Json("0"), Json("-0.0"));
  EXPECT_EQ(Json("1"), Json("1.0"));
  EXPECT_EQ(Json("4294967296"), Json("4294967296.0"));
  EXPECT_EQ(JsonValue::Unsigned(5), JsonValue::Integer(5));
  EXPECT_NE(JsonValue::Unsigned(9007199254740993u), JsonValue::Double(9007199254740992.0));
  EXPECT_LT(
      JsonCompare(JsonValue::Integer(9007199254740992), JsonValue::Double(9007199254740993.5)), 0);
  EXPECT_LT(JsonCompare(JsonValue::Integer(-1), JsonValue::Unsigned(0)), 0);
  EXPECT_GT(JsonCompare(Json("18446744073709551615"), Json("1.8e19")), 0);
  // Across types: NULL < numbers < STRING < OBJECT < ARRAY < BOOLEAN.
  const char* ordered[] = {"null", "-1e300", "3", "\"\"", "\"a\"", "{}", "[]", "false", "true"};
  for (size_t i = 0; i + 1 < std::size(ordered); ++i) {
    EXPECT_LT(JsonCompare(Json(ordered[i]), Json(ordered[i + 1])), 0) << ordered[i];
    EXPECT_GT(JsonCompare(Json(ordered[i + 1]), Json(ordered[i])), 0) << ordered[i];
  }
  EXPECT_LT(JsonCompare(Json("[1, 2]"), Json("[1, 2, 0]")), 0);
  EXPECT_LT(JsonCompare(Json("[1, 2]"), Json("[1, 3]")), 0);
  EXPECT_LT(JsonCompare(Json(R"({"a": 9})"), Json(R"({"a": 1, "b": 1})")), 0);
  EXPECT_EQ(Json(R"({"a": 1, "b": [1.0]})"), Json(R"({"b": [1], "a": 1.0})"));
  EXPECT_LT(JsonCompare(Json(R"("ab")"), Json(R"("b")")), 0);
}

}  // namespace
}  // namespace shoal::sql
