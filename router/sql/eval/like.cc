// See like.h. The pattern becomes an anchored regular expression: `%` -> `.*`, `_` -> `.`,
// everything else quoted. UTF-8 mode, so `_` is one character, as in MySQL.
#include "router/sql/eval/like.h"

#include <re2/re2.h>

#include "common/utf8.h"

namespace shoal::sql {

LikeMatcher::LikeMatcher(absl::string_view pattern, char escape, Case c) {
  std::string re = "(?s)";
  for (size_t i = 0; i < pattern.size(); ++i) {
    char ch = pattern[i];
    if (ch == escape && i + 1 < pattern.size()) {
      re += RE2::QuoteMeta(re2::StringPiece(&pattern[i + 1], 1));
      ++i;
    } else if (ch == '%') {
      re += ".*";
    } else if (ch == '_') {
      re += ".";
    } else {
      // Quote whole UTF-8 characters so RE2 sees valid text.
      const size_t len = Utf8StepLength(pattern.substr(i));
      re += RE2::QuoteMeta(re2::StringPiece(&pattern[i], len));
      i += len - 1;
    }
  }
  RE2::Options options;
  options.set_case_sensitive(c == Case::kSensitive);
  options.set_log_errors(false);
  re_ = std::make_unique<re2::RE2>(re, options);
}

LikeMatcher::~LikeMatcher() = default;

bool LikeMatcher::Matches(absl::string_view value) const {
  if (!re_->ok()) return false;
  return RE2::FullMatch(re2::StringPiece(value.data(), value.size()), *re_);
}

}  // namespace shoal::sql
