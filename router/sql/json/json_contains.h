// JSON_CONTAINS as MySQL 8.0 decides it (contains_wr in item_json_func.cc).
#pragma once

#include "router/sql/json/json_value.h"

namespace shoal::sql {

// Whether `target` contains `candidate`:
//   * target an object: the candidate is an object each of whose members is in the target,
//     with a value the target's value contains;
//   * target an array: each element of the candidate (a non-array candidate counts as its
//     only element) is contained in it: an array element by some array in the target that
//     contains it, anything else by some target element equal to it or, when that element is
//     an array or object, containing it: [1, [2, 3]] contains 2 and [2], not [[2]];
//   * target a scalar: the candidate equals it (1 = 1.0).
// With a path (JSON_CONTAINS(target, candidate, path)) the caller tests the first value the
// path selects, with auto-wrapping (json_seek.h); none selected gives SQL NULL.
bool JsonContains(const JsonValue& target, const JsonValue& candidate);

}  // namespace shoal::sql
