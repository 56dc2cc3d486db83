// Shorthands for the JSON library's tests: documents and paths from text, results as text.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "router/sql/json/json_parse.h"
#include "router/sql/json/json_path.h"
#include "router/sql/json/json_print.h"
#include "router/sql/json/json_value.h"

namespace shoal::sql::testing {

// REQUIRES: `text` is valid JSON (the test fails otherwise).
inline JsonValue Json(absl::string_view text) {
  JsonParseResult r = ParseJson(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error->reason());
  return r.value;
}

// REQUIRES: `text` is a valid path (the test fails otherwise).
inline JsonPath Path(absl::string_view text) {
  JsonPathParseResult r = ParseJsonPath(text);
  EXPECT_TRUE(r.ok()) << text << " fails at " << r.error_position.value_or(0);
  return r.path;
}

inline std::vector<JsonPath> Paths(std::initializer_list<absl::string_view> texts) {
  std::vector<JsonPath> paths;
  for (absl::string_view t : texts) paths.push_back(Path(t));
  return paths;
}

// "NULL" for none, as the mysql client shows SQL NULL.
inline std::string Text(const std::optional<JsonValue>& v) {
  return v.has_value() ? PrintJson(*v) : "NULL";
}

// The canonical text of a document given as text.
inline std::string Canonical(absl::string_view text) { return PrintJson(Json(text)); }

}  // namespace shoal::sql::testing
