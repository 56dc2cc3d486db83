// How the JSON functions read their arguments and report MySQL's JSON errors (3141, 3143,
// 3146, 3149, 3153, 3157, 3165). Internal to router/sql/eval.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "protocol/column.h"
#include "protocol/sql_error.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/json/json_modify.h"
#include "router/sql/json/json_parse.h"
#include "router/sql/json/json_path.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql::internal {

// 1582 for a JSON function given the wrong number of arguments for its pairs.
mysql::SqlError WrongJsonArgCount(absl::string_view name);

// `v`, an argument of type `type`, as a JSON value to put into a document (JSON_OBJECT's
// values, JSON_SET's): JSON as itself, NULL as null, numbers as numbers, `boolean` (a
// comparison, TRUE) as true or false, anything else as a JSON string of its text.
JsonValue JsonOfValue(const mysql::Value& v, const mysql::ColumnDefinition& type, bool boolean);

// Whether `e` is a condition: MySQL puts its value into JSON as true or false.
bool IsBooleanExpr(const Expr& e);

// `a` (of `x`) against `b` (of `y`), neither NULL, as MySQL compares when either operand is
// JSON: both as JSON values (the other converted as JsonOfValue, so a string is a JSON
// string), by JsonCompare. nullopt when neither is JSON.
std::optional<int> CompareAsJson(ExprEngine& engine, const mysql::Value& a, const mysql::Value& b,
                                 const Expr& x, const Expr& y);

// A call's arguments, read as JSON. Each reader answers nullopt for SQL NULL, and for an
// error, which it sets on the engine (so check call.engine().failed() where it matters).
class JsonArgs {
 public:
  explicit JsonArgs(EvalCall& call) : call_(call) {}

  // Whether argument `i` is typed JSON (a JSON column, a JSON function, CAST AS JSON).
  bool IsJson(size_t i);
  // Argument `i` as a document: JSON as itself, a string parsed as JSON text (3141), any
  // other type 3146.
  std::optional<JsonValue> Document(size_t i);
  // `text`, argument `i`'s, parsed as JSON text (3141, 3157).
  std::optional<JsonValue> ParseText(size_t i, absl::string_view text);
  // Argument `i` as a path (3143); `single`: one that selects at most one value (3149).
  std::optional<JsonPath> Path(size_t i, bool single = false);
  // Arguments `first`… as paths; nullopt when one is NULL or wrong.
  std::optional<std::vector<JsonPath>> Paths(size_t first);
  // Argument `i` as a value to put into a document (JsonOfValue).
  std::optional<JsonValue> Member(size_t i);
  // False, with MySQL's error set, unless `status` is kOk.
  bool Edited(JsonEditStatus status);
  // A changed document as the function's value; 3157 when it grew too deep.
  mysql::Value Result(const JsonValue& doc);

 private:
  std::string FunctionName() const;

  EvalCall& call_;
};

}  // namespace shoal::sql::internal
