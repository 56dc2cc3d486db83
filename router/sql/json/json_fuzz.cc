// Fuzz target: the JSON reader, the path reader and the JSON functions must not crash on any
// bytes, and what they produce must read back: a parsed document prints to text that parses
// to an equal document printing the same text; a parsed path prints to text that parses to the
// same path; a modified document (if not too deep for MySQL) prints and parses back too.
//
// Input: the whole input is first read as a document. Then byte 0 (mod the size) gives the
// length of a path taken from the bytes after it; the bytes after the path are a document,
// which the path is applied to by every function.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "router/sql/json/json_contains.h"
#include "router/sql/json/json_merge.h"
#include "router/sql/json/json_modify.h"
#include "router/sql/json/json_parse.h"
#include "router/sql/json/json_path.h"
#include "router/sql/json/json_print.h"
#include "router/sql/json/json_seek.h"
#include "router/sql/json/json_value.h"

namespace {

using namespace shoal::sql;  // NOLINT: a fuzz target, not a library

void Check(bool ok) {
  if (!ok) std::abort();
}

int SignOf(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

// A document that may have grown by modification prints and parses back, when MySQL would
// still hold it.
void CheckPrintsBack(const JsonValue& v) {
  if (JsonDepth(v) > kJsonMaxDepth) return;
  std::string text = PrintJson(v);
  JsonParseResult again = ParseJson(text);
  Check(again.ok());
  Check(JsonCompare(again.value, v) == 0);
  Check(PrintJson(again.value) == text);
}

void CheckDocument(absl::string_view text) {
  JsonParseResult r = ParseJson(text);
  if (!r.ok()) {
    Check(r.error->offset <= text.size());
    return;
  }
  Check(JsonDepth(r.value) <= kJsonMaxDepth);
  CheckPrintsBack(r.value);
  Check(JsonContains(r.value, r.value));
}

void Exercise(const JsonValue& doc, const JsonPath& path) {
  std::vector<const JsonValue*> hits = JsonSeek(doc, path, JsonAutoWrap::kYes);
  std::vector<const JsonValue*> plain = JsonSeek(doc, path, JsonAutoWrap::kNo);
  Check(plain.size() <= hits.size());  // auto-wrapping only adds matches
  for (const JsonValue* hit : hits) {
    Check(JsonCompare(*hit, *hit) == 0);
    Check(SignOf(JsonCompare(*hit, doc)) == -SignOf(JsonCompare(doc, *hit)));
  }
  const JsonPath paths[] = {path};
  std::optional<JsonValue> extracted = JsonExtract(doc, paths);
  Check(extracted.has_value() == !hits.empty());
  Check(JsonContainsPath(doc, JsonOneOrAll::kOne, paths) == !hits.empty());
  if (extracted.has_value()) CheckPrintsBack(*extracted);

  using Edit = JsonEditStatus (*)(JsonValue*, const JsonPath&, JsonValue);
  const Edit edits[] = {&JsonSet, &JsonInsert, &JsonReplace, &JsonArrayAppend, &JsonArrayInsert};
  for (Edit edit : edits) {
    JsonValue copy = doc;
    JsonEditStatus status = edit(&copy, path, JsonValue::Integer(7));
    if (status != JsonEditStatus::kOk) {
      Check(JsonCompare(copy, doc) == 0);
      continue;
    }
    Check(!path.CanMatchMany());
    CheckPrintsBack(copy);
  }
  JsonValue copy = doc;
  if (JsonRemove(&copy, paths) == JsonEditStatus::kOk) CheckPrintsBack(copy);
  if (JsonDepth(doc) < kJsonMaxDepth) {
    CheckPrintsBack(JsonMergePreserve(doc, doc));
    CheckPrintsBack(JsonMergePatch(doc, doc));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  CheckDocument(in);
  if (size < 2) return 0;
  size_t path_size = data[0] % size;
  absl::string_view path_text = in.substr(1, path_size);
  absl::string_view doc_text = in.substr(1 + path_text.size());
  JsonPathParseResult path = ParseJsonPath(path_text);
  if (!path.ok()) {
    Check(*path.error_position <= path_text.size());
    return 0;
  }
  JsonPathParseResult again = ParseJsonPath(path.path.ToString());
  Check(again.ok() && again.path == path.path);
  JsonParseResult doc = ParseJson(doc_text);
  if (doc.ok()) Exercise(doc.value, path.path);
  return 0;
}
