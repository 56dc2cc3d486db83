// SQL LIKE patterns (`%`, `_`, an escape character), matched with RE2; case-insensitive
// matching also ignores accents, as the _ci collations compare (engine/schema/text_fold.h).
#pragma once

#include <memory>
#include <string>

#include "absl/strings/string_view.h"

namespace re2 {
class RE2;
}

namespace shoal::sql {

// Compiles one pattern; reuse it for every row. Not thread-safe to construct concurrently
// with use, but Matches is const and safe from any thread.
class LikeMatcher {
 public:
  enum class Case : uint8_t { kSensitive, kInsensitive };
  LikeMatcher(absl::string_view pattern, char escape, Case c);
  // The matcher for these arguments from this thread's cache, compiled on first use: a
  // pattern over many rows is compiled once. Valid until the thread's next call.
  static const LikeMatcher& Cached(absl::string_view pattern, char escape, Case c);
  ~LikeMatcher();
  LikeMatcher(const LikeMatcher&) = delete;
  LikeMatcher& operator=(const LikeMatcher&) = delete;

  bool Matches(absl::string_view value) const;

 private:
  bool fold_;  // Case::kInsensitive: patterns and values are matched as their forms
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace shoal::sql
