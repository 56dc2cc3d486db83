// MySQL 8.0's JSON modification functions, one (path, value) pair at a time: the SQL
// function applies its pairs left to right, each to the result of the one before, and stops
// at the first refused path. For MySQL's order of errors, parse each path (3143) just before
// applying it: JSON_SET('[]', '$[*]', 1, '$[', 2) fails with 3149, not 3143.
//
// A path that selects nothing, or whose parent does not exist or cannot take the new value,
// changes nothing and is not an error.
//
// What each does where the path selects nothing but its parent (the path without its last
// leg) exists:
//   last leg .name, parent an object    -> the member is added (JSON_SET, JSON_INSERT);
//   last leg [N], parent an array       -> the value goes in at N, which past the end
//                                          appends and last-N before the start prepends;
//   last leg [N], parent not an array   -> the parent becomes [parent] and the value goes
//                                          in as above ([1] appends, [last-1] prepends).
// JSON_SET and JSON_REPLACE first drop legs that would only auto-wrap (a [0] or [last] after
// a prefix that selects a non-array): JSON_SET('1', '$[0]', 4) replaces the 1.
#pragma once

#include <cstdint>

#include "absl/types/span.h"
#include "router/sql/json/json_path.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql {

// kOk: applied, or nothing to do. The others are MySQL errors, `doc` unchanged.
enum class JsonEditStatus : uint8_t {
  kOk,
  // 3149 ER_INVALID_JSON_PATH_WILDCARD: *, ** or a range in the path.
  kWildcardPath,
  // 3153 ER_JSON_VACUOUS_PATH "The path expression '$' is not allowed in this context."
  kRootPath,
  // 3165 ER_INVALID_JSON_PATH_ARRAY_CELL "A path expression is not a path to a cell in an
  // array." (JSON_ARRAY_INSERT)
  kNotArrayCell,
};

// JSON_SET: replaces what the path selects, or adds it.
[[nodiscard]] JsonEditStatus JsonSet(JsonValue* doc, const JsonPath& path, JsonValue value);
// JSON_INSERT: adds what the path does not select yet (with auto-wrapping, so '$[0]' of a
// scalar exists); '$' does nothing.
[[nodiscard]] JsonEditStatus JsonInsert(JsonValue* doc, const JsonPath& path, JsonValue value);
// JSON_REPLACE: replaces what the path selects; adds nothing.
[[nodiscard]] JsonEditStatus JsonReplace(JsonValue* doc, const JsonPath& path, JsonValue value);
// JSON_ARRAY_APPEND: appends to the array the path selects (with auto-wrapping), or makes a
// selected non-array value into [value-before, value].
[[nodiscard]] JsonEditStatus JsonArrayAppend(JsonValue* doc, const JsonPath& path, JsonValue value);
// JSON_ARRAY_INSERT: the path must end in [N]; inserts at N into the array its parent
// selects (no auto-wrapping), appending when N is past the end.
[[nodiscard]] JsonEditStatus JsonArrayInsert(JsonValue* doc, const JsonPath& path, JsonValue value);
// JSON_REMOVE(doc, path, ...): MySQL checks all paths for wildcards, then all for '$', before
// removing anything; then removes path after path, each from the result of the one before.
[[nodiscard]] JsonEditStatus JsonRemove(JsonValue* doc, absl::Span<const JsonPath> paths);

}  // namespace shoal::sql
