// JSON_SET, JSON_INSERT, JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_APPEND and JSON_ARRAY_INSERT.
// Expected results are MySQL 8.0's, from the reference manual and mysql-test's
// json_no_table.result. Values are written as JSON text: '4' is the number, '"4"' the string
// (what MySQL makes of the SQL string '4').
#include "router/sql/json/json_modify.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Json;
using testing::Path;

using Edit = JsonEditStatus (*)(JsonValue*, const JsonPath&, JsonValue);

// The function applied to each (path, value) pair in turn; "error N" for MySQL's error N.
std::string Apply(Edit edit, absl::string_view doc,
                  std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  JsonValue v = Json(doc);
  for (const auto& [path, value] : args) {
    switch (edit(&v, Path(path), Json(value))) {
      case JsonEditStatus::kOk:
        break;
      case JsonEditStatus::kWildcardPath:
        return "error 3149";
      case JsonEditStatus::kRootPath:
        return "error 3153";
      case JsonEditStatus::kNotArrayCell:
        return "error 3165";
    }
  }
  return PrintJson(v);
}

std::string Set(absl::string_view doc,
                std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  return Apply(&JsonSet, doc, args);
}
std::string Insert(absl::string_view doc,
                   std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  return Apply(&JsonInsert, doc, args);
}
std::string Replace(absl::string_view doc,
                    std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  return Apply(&JsonReplace, doc, args);
}
std::string Append(absl::string_view doc,
                   std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  return Apply(&JsonArrayAppend, doc, args);
}
std::string ArrayInsert(
    absl::string_view doc,
    std::initializer_list<std::pair<absl::string_view, absl::string_view>> args) {
  return Apply(&JsonArrayInsert, doc, args);
}

std::string Remove(absl::string_view doc, std::initializer_list<absl::string_view> paths) {
  JsonValue v = Json(doc);
  switch (JsonRemove(&v, testing::Paths(paths))) {
    case JsonEditStatus::kOk:
      return PrintJson(v);
    case JsonEditStatus::kWildcardPath:
      return "error 3149";
    case JsonEditStatus::kRootPath:
      return "error 3153";
    case JsonEditStatus::kNotArrayCell:
      return "error 3165";
  }
  return "";
}

TEST(JsonModifyTest, ManualSetInsertReplace) {
  const char* j = R"({ "a": 1, "b": [2, 3]})";
  EXPECT_EQ(Insert(j, {{"$.a", "10"}, {"$.c", R"("[true, false]")"}}),
            R"({"a": 1, "b": [2, 3], "c": "[true, false]"})");
  EXPECT_EQ(Set(j, {{"$.a", "10"}, {"$.c", R"("[true, false]")"}}),
            R"({"a": 10, "b": [2, 3], "c": "[true, false]"})");
  EXPECT_EQ(Replace(j, {{"$.a", "10"}, {"$.c", R"("[true, false]")"}}),
            R"({"a": 10, "b": [2, 3]})");
  EXPECT_EQ(Insert(j, {{"$.a", "10"}, {"$.c", "[true, false]"}}),
            R"({"a": 1, "b": [2, 3], "c": [true, false]})");
  EXPECT_EQ(Set(R"("x")", {{"$[0]", R"("a")"}}), R"("a")");
  EXPECT_EQ(Replace(R"("Sakila")", {{"$[last]", "10"}}), "10");
}

TEST(JsonModifyTest, Set) {
  EXPECT_EQ(Set("[1,2,3]", {{"$[3]", "null"}}), "[1, 2, 3, null]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[2]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[3]", "4"}}), "[1, 2, 3, 4]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[10]", "4"}}), "[1, 2, 3, 4]");
  EXPECT_EQ(Set("[]", {{"$[0]", "1"}}), "[1]");
  EXPECT_EQ(Set("[]", {{"$[1]", "1"}}), "[1]");
  EXPECT_EQ(Set("[]", {{"$[last]", "1"}}), "[1]");
  EXPECT_EQ(Set("[]", {{"$[last-1]", "1"}}), "[1]");
  EXPECT_EQ(Set(R"({"c":4})", {{"$.c", "5"}}), R"({"c": 5})");
  EXPECT_EQ(Set(R"({"c":4})", {{"$.a", "5"}}), R"({"a": 5, "c": 4})");
  EXPECT_EQ(Set("1", {{"$", "4"}}), "4");
  EXPECT_EQ(Set("1", {{"$[0]", "4"}}), "4");
  EXPECT_EQ(Set("1", {{"$[1]", "4"}}), "[1, 4]");
  EXPECT_EQ(Set("1", {{"$[10]", R"("4")"}, {"$[11]", "5"}}), R"([1, "4", 5])");
  EXPECT_EQ(Set("1", {{"$[last]", "4"}}), "4");
  EXPECT_EQ(Set("1", {{"$[last-1]", "4"}}), "[4, 1]");
  EXPECT_EQ(Set("1", {{"$[last-10]", R"("4")"}, {"$[last-11]", "5"}}), R"([5, "4", 1])");
  EXPECT_EQ(Set("[1,2,3]", {{"$[2][0]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[2][2]", "4"}}), "[1, 2, [3, 4]]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[2][last]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Set("[1,2,3]", {{"$[2][last-2]", "4"}}), "[1, 2, [4, 3]]");
  EXPECT_EQ(Set(R"({"a": 3})", {{"$.a[0]", "4"}}), R"({"a": 4})");
  EXPECT_EQ(Set(R"({"a": 3})", {{"$.a[1]", "4"}, {"$.a[2]", R"("5")"}}), R"({"a": [3, 4, "5"]})");
  EXPECT_EQ(Set(R"({"a": 3})", {{"$.a[last]", "4"}}), R"({"a": 4})");
  EXPECT_EQ(Set(R"({"a": 3})", {{"$.a[last-1]", "4"}, {"$.a[last-2]", R"("5")"}}),
            R"({"a": ["5", 4, 3]})");
  EXPECT_EQ(Set(R"({ "a" : "foo", "b" : [ 1, 2, 3 ] })", {{"$.a", "{}"}}),
            R"({"a": {}, "b": [1, 2, 3]})");
  EXPECT_EQ(Set(R"({ "a" : "foo"})", {{"$.a", R"({"b": false})"}, {"$.a.c", "true"}}),
            R"({"a": {"b": false, "c": true}})");
  EXPECT_EQ(Set("1", {{"$[3]", "2"}}), "[1, 2]");
  EXPECT_EQ(Set(R"([{"a": [1, 2, 3]}])", {{"$[0].a", "123"}}), R"([{"a": 123}])");
  EXPECT_EQ(Set(R"({ "keyA": [1, 2], "keyB": [3, 4] })", {{"$.keyB[2]", "5"}}),
            R"({"keyA": [1, 2], "keyB": [3, 4, 5]})");
  EXPECT_EQ(Set(R"({"a": 1})", {{"$.b.c", "1"}}), R"({"a": 1})");  // no parent: nothing
  EXPECT_EQ(Set("[1,2,3]", {{"$[*]", "4"}}), "error 3149");
  EXPECT_EQ(Set("[1,2,3]", {{"$[1 to 2]", "4"}}), "error 3149");
  EXPECT_EQ(Set(R"({"a": {"b": [3]}})", {{"$**[1]", "6"}}), "error 3149");
}

TEST(JsonModifyTest, SetAndReplaceThroughAutoWrapping) {
  // MySQL Bug#21442624.
  struct Case {
    const char* doc;
    const char* path;
    const char* set;
    const char* replace;
  };
  const Case cases[] = {
      {"1", "$", "100", "100"},
      {"1", "$[0]", "100", "100"},
      {"1", "$[0][0]", "100", "100"},
      {"1", "$[0][0][0]", "100", "100"},
      {"[]", "$", "100", "100"},
      {"[]", "$[0]", "[100]", "[]"},
      {"[]", "$[0][0]", "[]", "[]"},
      {"[]", "$[0][0][0]", "[]", "[]"},
      {"[1]", "$", "100", "100"},
      {"[1]", "$[0]", "[100]", "[100]"},
      {"[1]", "$[0][0]", "[100]", "[100]"},
      {"[1]", "$[0][0][0]", "[100]", "[100]"},
      {"[[1]]", "$", "100", "100"},
      {"[[1]]", "$[0]", "[100]", "[100]"},
      {"[[1]]", "$[0][0]", "[[100]]", "[[100]]"},
      {"[[1]]", "$[0][0][0]", "[[100]]", "[[100]]"},
      {"[[[1]]]", "$[0][0][0]", "[[[100]]]", "[[[100]]]"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Set(c.doc, {{c.path, "100"}}), c.set) << c.doc << " " << c.path;
    EXPECT_EQ(Replace(c.doc, {{c.path, "100"}}), c.replace) << c.doc << " " << c.path;
  }
}

TEST(JsonModifyTest, Replace) {
  EXPECT_EQ(Replace("[1,2,3]", {{"$[2]", "null"}}), "[1, 2, null]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[2]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[3]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[10]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[last]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[last-1]", "4"}}), "[1, 4, 3]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[last-10]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Replace(R"({"c":4})", {{"$.c", "5"}}), R"({"c": 5})");
  EXPECT_EQ(Replace(R"({"c":4})", {{"$.a", "5"}}), R"({"c": 4})");
  EXPECT_EQ(Replace("1", {{"$", "4"}}), "4");
  EXPECT_EQ(Replace("1", {{"$[0]", "4"}}), "4");
  EXPECT_EQ(Replace("1", {{"$[1]", "4"}}), "1");
  EXPECT_EQ(Replace("1", {{"$[10]", R"("4")"}, {"$[11]", "5"}}), "1");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[2][0]", "4"}}), "[1, 2, 4]");
  EXPECT_EQ(Replace("[1,2,3]", {{"$[2][2]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Replace(R"({"a": 3})", {{"$.a[0]", "4"}}), R"({"a": 4})");
  EXPECT_EQ(Replace(R"({"a": 3})", {{"$.a[1]", "4"}, {"$.a[2]", R"("5")"}}), R"({"a": 3})");
  EXPECT_EQ(Replace(R"({ "a" : "foo", "b" : [ 1, 2, 3 ] })", {{"$.a[0]", "true"}}),
            R"({"a": true, "b": [1, 2, 3]})");
  EXPECT_EQ(Replace(R"({ "a" : "foo", "b" : [ 1, 2, 3 ] })", {{"$.b[5]", "true"}}),
            R"({"a": "foo", "b": [1, 2, 3]})");
  EXPECT_EQ(Replace("[1,2,3]", {{"$**.a", "4"}}), "error 3149");
}

TEST(JsonModifyTest, Insert) {
  EXPECT_EQ(Insert("[1,2,3]", {{"$[3]", "null"}}), "[1, 2, 3, null]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[0]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[2]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[3]", "4"}}), "[1, 2, 3, 4]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[10]", "4"}}), "[1, 2, 3, 4]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[last]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[last-2]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[last-3]", "4"}}), "[4, 1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[last-10]", "4"}}), "[4, 1, 2, 3]");
  EXPECT_EQ(Insert("[]", {{"$[0]", "1"}}), "[1]");
  EXPECT_EQ(Insert("[]", {{"$[1]", "1"}}), "[1]");
  EXPECT_EQ(Insert("[]", {{"$[last]", "1"}}), "[1]");
  EXPECT_EQ(Insert("[]", {{"$[last-1]", "1"}}), "[1]");
  EXPECT_EQ(Insert(R"({"c":4})", {{"$.c", "4"}}), R"({"c": 4})");
  EXPECT_EQ(Insert(R"({"c":4})", {{"$.a", "4"}}), R"({"a": 4, "c": 4})");
  EXPECT_EQ(Insert("1", {{"$", "4"}}), "1");
  EXPECT_EQ(Insert("1", {{"$[0]", "4"}}), "1");
  EXPECT_EQ(Insert("1", {{"$[1]", "4"}}), "[1, 4]");
  EXPECT_EQ(Insert("1", {{"$[10]", R"("4")"}, {"$[11]", "5"}}), R"([1, "4", 5])");
  EXPECT_EQ(Insert("1", {{"$[last]", "4"}}), "1");
  EXPECT_EQ(Insert("1", {{"$[last-1]", "4"}}), "[4, 1]");
  EXPECT_EQ(Insert("1", {{"$[last-10]", R"("4")"}, {"$[last-11]", "5"}}), R"([5, "4", 1])");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[2][0]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[2][1]", "4"}}), "[1, 2, [3, 4]]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[2][last]", "4"}}), "[1, 2, 3]");
  EXPECT_EQ(Insert("[1,2,3]", {{"$[2][last-1]", "4"}}), "[1, 2, [4, 3]]");
  EXPECT_EQ(Insert(R"({"a": 3})", {{"$.a[1]", "4"}, {"$.a[2]", R"("5")"}}),
            R"({"a": [3, 4, "5"]})");
  EXPECT_EQ(Insert(R"({"a": 3})", {{"$.a[last-1]", "4"}, {"$.a[last-2]", R"("5")"}}),
            R"({"a": ["5", 4, 3]})");
  EXPECT_EQ(Insert(R"({"a": 3})", {{"$[1]", "6"}}), R"([{"a": 3}, 6])");
  EXPECT_EQ(Insert(R"({ "a" : "foo", "b" : [ 1, 2, 3 ] })", {{"$.a[1]", "true"}}),
            R"({"a": ["foo", true], "b": [1, 2, 3]})");
  EXPECT_EQ(Insert(R"({ "a" : "foo"})", {{"$.b", "true"}, {"$.b", "false"}}),
            R"({"a": "foo", "b": true})");
  // MySQL Bug#26022576 and Bug#26649978.
  EXPECT_EQ(Insert(R"({"a":1})", {{"$.a[1]", "123"}}), R"({"a": [1, 123]})");
  EXPECT_EQ(Insert(R"({"a":1})", {{"$[0].a[1]", "123"}}), R"({"a": [1, 123]})");
  EXPECT_EQ(Insert(R"({"a":1})", {{"$.a[0][1]", "123"}}), R"({"a": [1, 123]})");
  EXPECT_EQ(Insert(R"({"a":1})", {{"$[0][1]", "2"}}), R"([{"a": 1}, 2])");
  EXPECT_EQ(Insert(R"({"a":1})", {{"$[0][0][1]", "2"}}), R"([{"a": 1}, 2])");
  EXPECT_EQ(Insert(R"({"a":1})", {{"$[last][1]", "2"}}), R"([{"a": 1}, 2])");
  EXPECT_EQ(Insert("[]", {{"$.a.*[1]", "6"}}), "error 3149");
  EXPECT_EQ(Insert("[]", {{"$[1 to 2]", "6"}}), "error 3149");
}

TEST(JsonModifyTest, Remove) {
  EXPECT_EQ(Remove(R"(["a", ["b", "c"], "d"])", {"$[1]"}), R"(["a", "d"])");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[0]"}), "[2, 3]");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[1]"}), "[1, 3]");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[2]"}), "[1, 2]");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[3]"}), "[1, 2, 3]");
  EXPECT_EQ(Remove("[1,2,3]", {"$[last]"}), "[1, 2]");
  EXPECT_EQ(Remove("[1,2,3]", {"$[last-1]"}), "[1, 3]");
  EXPECT_EQ(Remove("[1,2,3]", {"$[last-2]"}), "[2, 3]");
  EXPECT_EQ(Remove("[1,2,3]", {"$[last-3]"}), "[1, 2, 3]");
  EXPECT_EQ(Remove(R"([ 1, { "a": true, "b": false, "c": null }, 5 ])", {"$[1]"}), "[1, 5]");
  EXPECT_EQ(Remove(R"([ { "a": true }, { "b": false }, { "c": null }, { "a": null } ])",
                   {"$[0].a", "$[2].c"}),
            R"([{}, {"b": false}, {}, {"a": null}])");
  EXPECT_EQ(Remove(R"({"id": 123, "name": "systemQA", "array": [1, 2, 3]})", {"$[0]"}),
            R"({"id": 123, "name": "systemQA", "array": [1, 2, 3]})");
  EXPECT_EQ(Remove(R"({"a" : "foo", "b" : [true, {"c" : 123}]})", {"$.b[ 1 ]"}),
            R"({"a": "foo", "b": [true]})");
  EXPECT_EQ(Remove(R"({ "a" : "foo", "b" : [ true, { "c" : 123, "c" : 456 } ] })", {"$.b[ 1 ].c"}),
            R"({"a": "foo", "b": [true, {}]})");
  EXPECT_EQ(Remove(R"({ "a" : "foo", "b" : [ true, { "c" : 123, "d" : 456 } ] })", {"$.b[ 1 ].e"}),
            R"({"a": "foo", "b": [true, {"c": 123, "d": 456}]})");
  EXPECT_EQ(Remove("123", {"$.a"}), "123");
  EXPECT_EQ(Remove(R"({ "keyA": [ "foot" ], "keyB": [ "food" ] })", {"$.keyA"}),
            R"({"keyB": ["food"]})");
  EXPECT_EQ(Remove(R"({"a": [1, 2]})", {"$.a[0][0]"}), R"({"a": [2]})");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$"}), "error 3153");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$", "$[2]"}), "error 3153");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[1]", "$"}), "error 3153");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[*]"}), "error 3149");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$[2]", "$**[2]"}), "error 3149");
  EXPECT_EQ(Remove("[ 1, 2, 3 ]", {"$", "$[*]"}), "error 3149");  // wildcards are checked first
}

TEST(JsonModifyTest, ArrayAppend) {
  const char* j = R"(["a", ["b", "c"], "d"])";
  EXPECT_EQ(Append(j, {{"$[1]", "1"}}), R"(["a", ["b", "c", 1], "d"])");
  EXPECT_EQ(Append(j, {{"$[0]", "2"}}), R"([["a", 2], ["b", "c"], "d"])");
  EXPECT_EQ(Append(j, {{"$[1][0]", "3"}}), R"(["a", [["b", 3], "c"], "d"])");
  const char* k = R"({"a": 1, "b": [2, 3], "c": 4})";
  EXPECT_EQ(Append(k, {{"$.b", R"("x")"}}), R"({"a": 1, "b": [2, 3, "x"], "c": 4})");
  EXPECT_EQ(Append(k, {{"$.c", R"("y")"}}), R"({"a": 1, "b": [2, 3], "c": [4, "y"]})");
  EXPECT_EQ(Append(R"({"a": 1})", {{"$", R"("z")"}}), R"([{"a": 1}, "z"])");
  EXPECT_EQ(Append("[1,2,3]", {{"$", "null"}}), "[1, 2, 3, null]");
  EXPECT_EQ(Append("1", {{"$", "3"}}), "[1, 3]");
  EXPECT_EQ(Append("1", {{"$[0]", "3"}}), "[1, 3]");
  EXPECT_EQ(Append("3", {{"$[0][0][0][0]", "100"}}), "[3, 100]");
  EXPECT_EQ(Append(R"({"a":1})", {{"$[0]", "100"}}), R"([{"a": 1}, 100])");
  EXPECT_EQ(
      Append(R"({"a": "foo", "b": "bar", "c": "wibble"})", {{"$.b", "4"}, {"$.c", R"("grape")"}}),
      R"({"a": "foo", "b": ["bar", 4], "c": ["wibble", "grape"]})");
  EXPECT_EQ(Append(R"({"a": 1})", {{"$.b", "2"}}), R"({"a": 1})");
  EXPECT_EQ(Append(R"({"a": {"b": [3]}})", {{"$**[0]", "6"}}), "error 3149");
  EXPECT_EQ(Append("1", {{"$[0 to 1]", "3"}}), "error 3149");
}

TEST(JsonModifyTest, ArrayInsert) {
  const char* j = R"(["a", {"b": [1, 2]}, [3, 4]])";
  EXPECT_EQ(ArrayInsert(j, {{"$[1]", R"("x")"}}), R"(["a", "x", {"b": [1, 2]}, [3, 4]])");
  EXPECT_EQ(ArrayInsert(j, {{"$[100]", R"("x")"}}), R"(["a", {"b": [1, 2]}, [3, 4], "x"])");
  EXPECT_EQ(ArrayInsert(j, {{"$[1].b[0]", R"("x")"}}), R"(["a", {"b": ["x", 1, 2]}, [3, 4]])");
  EXPECT_EQ(ArrayInsert(j, {{"$[2][1]", R"("y")"}}), R"(["a", {"b": [1, 2]}, [3, "y", 4]])");
  EXPECT_EQ(ArrayInsert(j, {{"$[0]", R"("x")"}, {"$[2][1]", R"("y")"}}),
            R"(["x", "a", {"b": [1, 2]}, [3, 4]])");
  EXPECT_EQ(ArrayInsert("[1,2,3]", {{"$[3]", "null"}}), "[1, 2, 3, null]");
  EXPECT_EQ(ArrayInsert("true", {{"$", "1"}}), "error 3165");
  EXPECT_EQ(ArrayInsert("true", {{"$.a", "1"}}), "error 3165");
  EXPECT_EQ(ArrayInsert("true", {{"$.a[1].b", "1"}}), "error 3165");
  EXPECT_EQ(ArrayInsert("true", {{"$[0]", "false"}}), "true");
  EXPECT_EQ(ArrayInsert("true", {{"$[1]", "false"}}), "true");
  EXPECT_EQ(ArrayInsert(R"({ "a": true })", {{"$.a[0]", "false"}}), R"({"a": true})");
  EXPECT_EQ(ArrayInsert("[]", {{"$[0]", "false"}}), "[false]");
  EXPECT_EQ(ArrayInsert("[]", {{"$[last]", "false"}}), "[false]");
  EXPECT_EQ(ArrayInsert("[]", {{"$[last-1]", "false"}}), "[false]");
  EXPECT_EQ(ArrayInsert("[true]", {{"$[0]", "false"}}), "[false, true]");
  EXPECT_EQ(ArrayInsert("[true]", {{"$[1]", "false"}}), "[true, false]");
  EXPECT_EQ(ArrayInsert("[true]", {{"$[2]", "false"}}), "[true, false]");
  EXPECT_EQ(ArrayInsert(R"({ "a": [true] })", {{"$.a[last]", "false"}}), R"({"a": [false, true]})");
  struct Case {
    const char* path;
    const char* result;
  };
  const Case cases[] = {
      {"$[0]", "[false, 1, 2, 3, 4]"},      {"$[1]", "[1, false, 2, 3, 4]"},
      {"$[2]", "[1, 2, false, 3, 4]"},      {"$[3]", "[1, 2, 3, false, 4]"},
      {"$[4]", "[1, 2, 3, 4, false]"},      {"$[5]", "[1, 2, 3, 4, false]"},
      {"$[last]", "[1, 2, 3, false, 4]"},   {"$[last-1]", "[1, 2, false, 3, 4]"},
      {"$[last-2]", "[1, false, 2, 3, 4]"}, {"$[last-3]", "[false, 1, 2, 3, 4]"},
      {"$[last-4]", "[false, 1, 2, 3, 4]"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ArrayInsert("[1, 2, 3, 4]", {{c.path, "false"}}), c.result) << c.path;
  }
  EXPECT_EQ(ArrayInsert(R"({ "a": [1, 2, 3, 4] })", {{"$.b[0]", "false"}}),
            R"({"a": [1, 2, 3, 4]})");
  EXPECT_EQ(ArrayInsert(R"("a")", {{"$[0]", "true"}}), R"("a")");
  EXPECT_EQ(ArrayInsert(R"([ "a" ])", {{"$[0][0]", "true"}}), R"(["a"])");
  EXPECT_EQ(ArrayInsert("[ 1, 2, 3 ]", {{"$[1]", "true"}, {"$[1]", "false"}}),
            "[1, false, true, 2, 3]");
  EXPECT_EQ(
      ArrayInsert("[ 1, 2, 3 ]", {{"$[1]", R"([ "a", "b", "c", "d" ])"}, {"$[1][2]", "false"}}),
      R"([1, ["a", "b", false, "c", "d"], 2, 3])");
  EXPECT_EQ(ArrayInsert("[]", {{"$[*]", "1"}}), "error 3149");
}

TEST(JsonModifyTest, LongPathsTakeLinearTime) {
  std::string path = "$";
  for (int i = 0; i < 200000; ++i) path += "[0]";
  EXPECT_EQ(Set("1", {{path, "2"}}), "2");
  EXPECT_EQ(Replace("[1]", {{path, "2"}}), "[2]");
  EXPECT_EQ(Insert("1", {{path, "2"}}), "1");
  EXPECT_EQ(Append("1", {{path, "2"}}), "[1, 2]");
  EXPECT_EQ(Remove("[1]", {path}), "[]");
}

}  // namespace
}  // namespace shoal::sql
