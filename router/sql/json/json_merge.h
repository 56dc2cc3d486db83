// Combining JSON documents as MySQL 8.0 does: JSON_MERGE_PRESERVE (alias JSON_MERGE) and
// JSON_MERGE_PATCH. The SQL functions fold these over their arguments left to right:
// JSON_MERGE_PATCH(a, b, c) = JsonMergePatch(JsonMergePatch(a, b), c).
#pragma once

#include "router/sql/json/json_value.h"

namespace shoal::sql {

// JSON_MERGE_PRESERVE of two documents: two objects merge key by key, the values of a key in
// both merging recursively; otherwise both sides become arrays (a non-array as its only
// element) and are concatenated: [1, 2] + 3 = [1, 2, 3], {"a": 1} + [2] = [{"a": 1}, 2].
JsonValue JsonMergePreserve(JsonValue left, JsonValue right);

// JSON_MERGE_PATCH of two documents (RFC 7396): a patch that is not an object replaces the
// target; otherwise the target (an empty object when it is not an object) gets each member
// of the patch: null removes the key, an object merges into the target's value for the key
// (an empty object when that is missing or not an object), anything else replaces it.
JsonValue JsonMergePatch(JsonValue target, JsonValue patch);

}  // namespace shoal::sql
