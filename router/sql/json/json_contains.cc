// See json_contains.h. MySQL sorts both arrays to match elements in one pass; a plain search
// of the target per candidate element gives the same answers.
#include "router/sql/json/json_contains.h"

#include <algorithm>

namespace shoal::sql {
namespace {

bool ArrayHolds(const JsonValue::Array& target, const JsonValue& element) {
  return std::any_of(target.begin(), target.end(), [&](const JsonValue& t) {
    if (element.is_array()) return t.is_array() && JsonContains(t, element);
    if (t.is_array() || t.is_object()) return JsonContains(t, element);
    return JsonCompare(t, element) == 0;
  });
}

}  // namespace

bool JsonContains(const JsonValue& target, const JsonValue& candidate) {
  if (target.is_object()) {
    if (!candidate.is_object() || candidate.members().size() > target.members().size()) {
      return false;
    }
    return std::all_of(candidate.members().begin(), candidate.members().end(),
                       [&](const JsonMember& m) {
                         const JsonValue* mine = target.Find(m.key);
                         return mine != nullptr && JsonContains(*mine, m.value);
                       });
  }
  if (target.is_array()) {
    if (!candidate.is_array()) return ArrayHolds(target.array(), candidate);
    return std::all_of(candidate.array().begin(), candidate.array().end(),
                       [&](const JsonValue& e) { return ArrayHolds(target.array(), e); });
  }
  return JsonCompare(target, candidate) == 0;
}

}  // namespace shoal::sql
