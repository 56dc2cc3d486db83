// See json_merge.h (MySQL's merge_doms and Json_object::merge_patch).
#include "router/sql/json/json_merge.h"

#include <string>
#include <utility>

namespace shoal::sql {
namespace {

JsonValue::Array AsArray(JsonValue v) {
  if (v.is_array()) return std::move(v.array());
  JsonValue::Array wrapped;
  wrapped.push_back(std::move(v));
  return wrapped;
}

}  // namespace

JsonValue JsonMergePreserve(JsonValue left, JsonValue right) {
  if (left.is_object() && right.is_object()) {
    for (JsonMember& m : right.TakeMembers()) {
      if (JsonValue* mine = left.Find(m.key)) {
        *mine = JsonMergePreserve(std::move(*mine), std::move(m.value));
      } else {
        left.Put(std::move(m.key), std::move(m.value));
      }
    }
    return left;
  }
  JsonValue::Array merged = AsArray(std::move(left));
  JsonValue::Array tail = AsArray(std::move(right));
  merged.reserve(merged.size() + tail.size());
  for (JsonValue& v : tail) merged.push_back(std::move(v));
  return JsonValue::MakeArray(std::move(merged));
}

JsonValue JsonMergePatch(JsonValue target, JsonValue patch) {
  if (!patch.is_object()) return patch;
  if (!target.is_object()) target = JsonValue::EmptyObject();
  for (JsonMember& m : patch.TakeMembers()) {
    if (m.value.is_null()) {
      target.Erase(m.key);
    } else if (!m.value.is_object()) {
      target.Put(std::move(m.key), std::move(m.value));
    } else {
      JsonValue* mine = target.Find(m.key);
      JsonValue base = mine != nullptr ? std::move(*mine) : JsonValue::EmptyObject();
      target.Put(std::move(m.key), JsonMergePatch(std::move(base), std::move(m.value)));
    }
  }
  return target;
}

}  // namespace shoal::sql
