// See json_seek.h. The search is MySQL's recursive one (find_child_doms) run on an explicit
// stack, successors pushed in reverse so they come off in MySQL's order: a path of many legs
// ('$[0][0][0]...' on a scalar, '$**[0]**[0]...') then costs heap, not call stack.
//
// ** can reach one value more than once (after another **, or followed by a leg that
// auto-wraps); MySQL reports each value once, at its first sighting, and so does this. A value
// reached again at the same leg can only find what its first visit found, so it is not
// searched again: without that, '$**[0]**[0]...' on nested arrays takes exponential time.
#include "router/sql/json/json_seek.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_set>
#include <utility>

namespace shoal::sql {
namespace {

struct Frame {
  const JsonValue* value;
  size_t leg;  // the next leg to match

  bool operator==(const Frame& o) const { return value == o.value && leg == o.leg; }
};

struct FrameHash {
  size_t operator()(const Frame& f) const {
    return std::hash<const void*>()(f.value) * 31 + std::hash<size_t>()(f.leg);
  }
};

std::vector<const JsonValue*> Seek(const JsonValue& doc, absl::Span<const JsonPathLeg> legs,
                                   JsonAutoWrap auto_wrap, size_t limit) {
  const bool wrap = auto_wrap == JsonAutoWrap::kYes;
  const bool dedupe = std::any_of(legs.begin(), legs.end(), [](const JsonPathLeg& leg) {
    return leg.type == JsonPathLegType::kEllipsis;
  });
  std::unordered_set<Frame, FrameHash> visited;  // with dedupe: frames taken off the stack
  std::vector<const JsonValue*> hits;
  std::vector<Frame> stack = {{&doc, 0}};
  std::vector<Frame> next;
  while (!stack.empty() && hits.size() < limit) {
    Frame f = stack.back();
    stack.pop_back();
    if (dedupe && !visited.insert(f).second) continue;
    const JsonValue& v = *f.value;
    if (f.leg == legs.size()) {
      hits.push_back(&v);
      continue;
    }
    const JsonPathLeg& leg = legs[f.leg];
    const size_t after = f.leg + 1;
    next.clear();
    switch (leg.type) {
      case JsonPathLegType::kMember:
        if (v.is_object()) {
          if (const JsonValue* child = v.Find(leg.member)) next.push_back({child, after});
        }
        break;
      case JsonPathLegType::kMemberWildcard:
        if (v.is_object()) {
          for (const JsonMember& m : v.members()) next.push_back({&m.value, after});
        }
        break;
      case JsonPathLegType::kArrayCell:
        if (v.is_array()) {
          size_t size = v.array().size();
          if (leg.first.Within(size)) next.push_back({&v.array()[leg.first.Position(size)], after});
        } else if (wrap && leg.IsAutoWrap()) {
          next.push_back({&v, after});
        }
        break;
      case JsonPathLegType::kArrayRange:
      case JsonPathLegType::kArrayWildcard:
        if (v.is_array()) {
          auto [begin, end] = leg.Positions(v.array().size());
          for (size_t i = begin; i < end; ++i) next.push_back({&v.array()[i], after});
        } else if (wrap && leg.IsAutoWrap()) {
          next.push_back({&v, after});
        }
        break;
      case JsonPathLegType::kEllipsis:
        next.push_back({&v, after});
        if (v.is_array()) {
          for (const JsonValue& e : v.array()) next.push_back({&e, f.leg});
        } else if (v.is_object()) {
          for (const JsonMember& m : v.members()) next.push_back({&m.value, f.leg});
        }
        break;
    }
    stack.insert(stack.end(), next.rbegin(), next.rend());
  }
  return hits;
}

}  // namespace

std::vector<const JsonValue*> JsonSeek(const JsonValue& doc, const JsonPath& path,
                                       JsonAutoWrap auto_wrap) {
  return Seek(doc, path.legs(), auto_wrap, std::numeric_limits<size_t>::max());
}

const JsonValue* JsonSeekFirst(const JsonValue& doc, absl::Span<const JsonPathLeg> legs,
                               JsonAutoWrap auto_wrap) {
  std::vector<const JsonValue*> hits = Seek(doc, legs, auto_wrap, 1);
  return hits.empty() ? nullptr : hits.front();
}

JsonValue* JsonSeekFirst(JsonValue* doc, absl::Span<const JsonPathLeg> legs,
                         JsonAutoWrap auto_wrap) {
  // The hit is part of *doc, which the caller may modify.
  return const_cast<JsonValue*>(
      JsonSeekFirst(*static_cast<const JsonValue*>(doc), legs, auto_wrap));
}

std::optional<JsonValue> JsonExtract(const JsonValue& doc, absl::Span<const JsonPath> paths) {
  bool many = paths.size() > 1;
  std::vector<const JsonValue*> hits;
  for (const JsonPath& path : paths) {
    many = many || path.CanMatchMany();
    std::vector<const JsonValue*> more = JsonSeek(doc, path, JsonAutoWrap::kYes);
    hits.insert(hits.end(), more.begin(), more.end());
  }
  if (hits.empty()) return std::nullopt;
  if (!many) return *hits.front();
  JsonValue::Array all;
  all.reserve(hits.size());
  for (const JsonValue* hit : hits) all.push_back(*hit);
  return JsonValue::MakeArray(std::move(all));
}

bool JsonContainsPath(const JsonValue& doc, JsonOneOrAll mode, absl::Span<const JsonPath> paths) {
  for (const JsonPath& path : paths) {
    bool found = JsonSeekFirst(doc, path.legs(), JsonAutoWrap::kYes) != nullptr;
    if (found && mode == JsonOneOrAll::kOne) return true;
    if (!found && mode == JsonOneOrAll::kAll) return false;
  }
  return mode == JsonOneOrAll::kAll;
}

}  // namespace shoal::sql
