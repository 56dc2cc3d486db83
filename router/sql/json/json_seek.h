// Finding what a JSON path selects in a document (MySQL's Json_dom::seek) and the read-only
// functions built on it: JSON_EXTRACT and JSON_CONTAINS_PATH.
//
// Auto-wrapping: with it, an array leg that can name the only element of a one-element array
// ([0], [last], a range including position 0) matches a non-array value itself, as if it were
// wrapped in an array: '$[0]' of 5 is 5, '$.a[0]' of {"a": {"b": 1}} is {"b": 1}. A member leg
// on a non-object matches nothing. Which MySQL functions auto-wrap:
//   JSON_EXTRACT, ->, ->>, JSON_CONTAINS_PATH, JSON_CONTAINS(doc, c, path),
//   JSON_LENGTH(doc, path), JSON_INSERT, JSON_ARRAY_APPEND: yes;
//   JSON_KEYS(doc, path), JSON_SET, JSON_REPLACE, JSON_REMOVE, JSON_ARRAY_INSERT: no (the
//   modifying ones drop legs that would only auto-wrap instead; see json_modify.h).
#pragma once

#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "router/sql/json/json_path.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql {

enum class JsonAutoWrap : bool { kNo, kYes };

// Every value `path` selects in `doc`, each once, in MySQL's order: depth first, array
// elements and members in stored order, and for ** the value itself before what is inside it.
// The pointers point into `doc` and are valid while it is not modified.
std::vector<const JsonValue*> JsonSeek(const JsonValue& doc, const JsonPath& path,
                                       JsonAutoWrap auto_wrap = JsonAutoWrap::kYes);

// The first value `path` selects, or nullptr. `legs` may be a prefix of a path's legs.
const JsonValue* JsonSeekFirst(const JsonValue& doc, absl::Span<const JsonPathLeg> legs,
                               JsonAutoWrap auto_wrap);
JsonValue* JsonSeekFirst(JsonValue* doc, absl::Span<const JsonPathLeg> legs,
                         JsonAutoWrap auto_wrap);

// JSON_EXTRACT(doc, path, ...): none (SQL NULL) when no path selects anything; the one value
// selected when there is one path and it cannot select more than one (no *, **, range);
// otherwise an array of everything selected, path after path.
std::optional<JsonValue> JsonExtract(const JsonValue& doc, absl::Span<const JsonPath> paths);

enum class JsonOneOrAll : bool { kOne, kAll };

// JSON_CONTAINS_PATH(doc, 'one'|'all', path, ...): whether one (or every) path selects
// something.
bool JsonContainsPath(const JsonValue& doc, JsonOneOrAll mode, absl::Span<const JsonPath> paths);

}  // namespace shoal::sql
