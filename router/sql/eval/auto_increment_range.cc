// AutoIncrementRange: see auto_increment_range.h.
#include "router/sql/eval/auto_increment_range.h"

#include <algorithm>

namespace shoal::sql {

void AutoIncrementRange::Add(uint64_t first, uint64_t count) {
  if (count == 0) return;
  Span span{first, first + count};
  end = std::max(end, span.end);
  auto at = std::lower_bound(held.begin(), held.end(), span,
                             [](const Span& a, const Span& b) { return a.first < b.first; });
  held.insert(at, span);
}

std::optional<uint64_t> AutoIncrementRange::Take(uint64_t count) {
  // A span too short for `count` is passed over (a gap, as MySQL's own counter may leave).
  for (const Span& span : held) {
    if (span.end <= next) continue;
    uint64_t first = std::max(next, span.first);
    if (span.end - first < count) continue;
    next = first + count;
    return first;
  }
  return std::nullopt;
}

void AutoIncrementRange::Trim() {
  held.erase(std::remove_if(held.begin(), held.end(),
                            [this](const Span& span) { return span.end <= next; }),
             held.end());
}

}  // namespace shoal::sql
