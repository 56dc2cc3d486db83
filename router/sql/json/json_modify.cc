// See json_modify.h. Each function follows its Item_func_json_* counterpart in MySQL: one
// search for the target, and when that fails one for the parent, with the auto-wrapping that
// function uses.
#include "router/sql/json/json_modify.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "router/sql/json/json_seek.h"

namespace shoal::sql {
namespace {

absl::Span<const JsonPathLeg> Parent(absl::Span<const JsonPathLeg> legs) {
  return legs.subspan(0, legs.size() - 1);
}

// What `leg` (a member or a cell) selects in `v` without auto-wrapping, or nullptr.
const JsonValue* Step(const JsonValue& v, const JsonPathLeg& leg) {
  if (leg.type == JsonPathLegType::kMember) return v.is_object() ? v.Find(leg.member) : nullptr;
  if (!v.is_array() || !leg.first.Within(v.array().size())) return nullptr;
  return &v.array()[leg.first.Position(v.array().size())];
}

// MySQL's clone_without_autowrapping: the path without the legs that would only auto-wrap,
// judged against `doc` leg by leg. MySQL searches the kept prefix again for each such leg;
// following it along gives the same answer in one pass.
// REQUIRES: !path.CanMatchMany().
std::vector<JsonPathLeg> WithoutAutoWrap(const JsonValue& doc, const JsonPath& path) {
  std::vector<JsonPathLeg> legs;
  const JsonValue* at = &doc;  // what the kept legs select, if anything
  for (const JsonPathLeg& leg : path.legs()) {
    if (leg.IsAutoWrap() && at != nullptr && !at->is_array()) continue;
    legs.push_back(leg);
    if (at != nullptr) at = Step(*at, leg);
  }
  return legs;
}

// Puts `value` at the position `leg` ([N]) names in `parent`, wrapping a non-array parent
// into an array first.
void InsertIntoCell(JsonValue* parent, const JsonPathLeg& leg, JsonValue value) {
  if (!parent->is_array()) {
    JsonValue::Array wrapped;
    wrapped.push_back(std::move(*parent));
    *parent = JsonValue::MakeArray(std::move(wrapped));
  }
  JsonValue::Array& a = parent->array();
  size_t pos = std::min(leg.first.Position(a.size()), a.size());
  a.insert(a.begin() + static_cast<std::ptrdiff_t>(pos), std::move(value));
}

// What JSON_SET does where JSON_REPLACE does nothing.
enum class IfMissing : bool { kSkip, kAdd };

JsonEditStatus SetOrReplace(JsonValue* doc, const JsonPath& path, JsonValue value,
                            IfMissing if_missing) {
  if (path.CanMatchMany()) return JsonEditStatus::kWildcardPath;
  std::vector<JsonPathLeg> legs = WithoutAutoWrap(*doc, path);
  if (JsonValue* hit = JsonSeekFirst(doc, legs, JsonAutoWrap::kNo)) {
    *hit = std::move(value);
    return JsonEditStatus::kOk;
  }
  // Not found, so there is a last leg: '$' always selects the document.
  if (if_missing == IfMissing::kSkip) return JsonEditStatus::kOk;
  JsonValue* parent = JsonSeekFirst(doc, Parent(legs), JsonAutoWrap::kNo);
  if (parent == nullptr) return JsonEditStatus::kOk;
  const JsonPathLeg& leg = legs.back();
  if (leg.type == JsonPathLegType::kArrayCell) {
    // A non-array parent gets here only for [N] that does not auto-wrap (N > 0, last-N).
    InsertIntoCell(parent, leg, std::move(value));
  } else if (leg.type == JsonPathLegType::kMember && parent->is_object()) {
    parent->Put(leg.member, std::move(value));
  }
  return JsonEditStatus::kOk;
}

}  // namespace

JsonEditStatus JsonSet(JsonValue* doc, const JsonPath& path, JsonValue value) {
  return SetOrReplace(doc, path, std::move(value), IfMissing::kAdd);
}

JsonEditStatus JsonReplace(JsonValue* doc, const JsonPath& path, JsonValue value) {
  return SetOrReplace(doc, path, std::move(value), IfMissing::kSkip);
}

JsonEditStatus JsonInsert(JsonValue* doc, const JsonPath& path, JsonValue value) {
  if (path.CanMatchMany()) return JsonEditStatus::kWildcardPath;
  absl::Span<const JsonPathLeg> legs = path.legs();
  if (legs.empty() || JsonSeekFirst(doc, legs, JsonAutoWrap::kYes) != nullptr) {
    return JsonEditStatus::kOk;
  }
  JsonValue* parent = JsonSeekFirst(doc, Parent(legs), JsonAutoWrap::kYes);
  if (parent == nullptr) return JsonEditStatus::kOk;
  const JsonPathLeg& leg = legs.back();
  if (leg.type == JsonPathLegType::kArrayCell) {
    // [0] or [last] of a non-array selects it, so we get here only for other positions.
    if (parent->is_array() || !leg.IsAutoWrap()) InsertIntoCell(parent, leg, std::move(value));
  } else if (leg.type == JsonPathLegType::kMember && parent->is_object()) {
    parent->Put(leg.member, std::move(value));
  }
  return JsonEditStatus::kOk;
}

JsonEditStatus JsonArrayAppend(JsonValue* doc, const JsonPath& path, JsonValue value) {
  if (path.CanMatchMany()) return JsonEditStatus::kWildcardPath;
  JsonValue* hit = JsonSeekFirst(doc, path.legs(), JsonAutoWrap::kYes);
  if (hit == nullptr) return JsonEditStatus::kOk;
  if (!hit->is_array()) {
    JsonValue::Array wrapped;
    wrapped.push_back(std::move(*hit));
    *hit = JsonValue::MakeArray(std::move(wrapped));
  }
  hit->array().push_back(std::move(value));
  return JsonEditStatus::kOk;
}

JsonEditStatus JsonArrayInsert(JsonValue* doc, const JsonPath& path, JsonValue value) {
  if (path.CanMatchMany()) return JsonEditStatus::kWildcardPath;
  absl::Span<const JsonPathLeg> legs = path.legs();
  if (legs.empty() || legs.back().type != JsonPathLegType::kArrayCell) {
    return JsonEditStatus::kNotArrayCell;
  }
  JsonValue* parent = JsonSeekFirst(doc, Parent(legs), JsonAutoWrap::kNo);
  if (parent != nullptr && parent->is_array())
    InsertIntoCell(parent, legs.back(), std::move(value));
  return JsonEditStatus::kOk;
}

JsonEditStatus JsonRemove(JsonValue* doc, absl::Span<const JsonPath> paths) {
  for (const JsonPath& path : paths) {
    if (path.CanMatchMany()) return JsonEditStatus::kWildcardPath;
  }
  for (const JsonPath& path : paths) {
    if (path.empty()) return JsonEditStatus::kRootPath;
  }
  for (const JsonPath& path : paths) {
    std::vector<JsonPathLeg> legs = WithoutAutoWrap(*doc, path);
    if (legs.empty()) continue;  // '$[0]' of a scalar: the document itself stays
    JsonValue* parent = JsonSeekFirst(doc, Parent(legs), JsonAutoWrap::kNo);
    if (parent == nullptr) continue;
    const JsonPathLeg& leg = legs.back();
    if (parent->is_object() && leg.type == JsonPathLegType::kMember) {
      parent->Erase(leg.member);
    } else if (parent->is_array() && leg.type == JsonPathLegType::kArrayCell) {
      JsonValue::Array& a = parent->array();
      if (leg.first.Within(a.size())) {
        a.erase(a.begin() + static_cast<std::ptrdiff_t>(leg.first.Position(a.size())));
      }
    }
  }
  return JsonEditStatus::kOk;
}

}  // namespace shoal::sql
