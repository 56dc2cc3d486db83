// See like.h. The pattern becomes an anchored regular expression: `%` -> `.*`, `_` -> `.`,
// everything else quoted. UTF-8 mode, so `_` is one character, as in MySQL. Case-insensitive
// matching is of forms (engine/schema/text_fold.h): each literal character of the pattern
// as its form, against the value's form, so that accents do not count either.
#include "router/sql/eval/like.h"

#include <re2/re2.h>

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "engine/schema/text_fold.h"

namespace shoal::sql {

LikeMatcher::LikeMatcher(absl::string_view pattern, char escape, Case c)
    : fold_(c == Case::kInsensitive) {
  std::string re = "(?s)";
  auto literal = [&](absl::string_view ch) {
    if (!fold_) {
      re += RE2::QuoteMeta(re2::StringPiece(ch.data(), ch.size()));
      return;
    }
    std::string form;
    schema::AppendFoldedText(ch, &form);
    re += RE2::QuoteMeta(re2::StringPiece(form.data(), form.size()));
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    char ch = pattern[i];
    if (ch == escape && i + 1 < pattern.size()) {
      const size_t len = Utf8StepLength(pattern.substr(i + 1));
      literal(pattern.substr(i + 1, len));
      i += len;
    } else if (ch == '%') {
      re += ".*";
    } else if (ch == '_') {
      re += ".";
    } else {
      // Whole UTF-8 characters, so RE2 sees valid text.
      const size_t len = Utf8StepLength(pattern.substr(i));
      literal(pattern.substr(i, len));
      i += len - 1;
    }
  }
  RE2::Options options;
  options.set_log_errors(false);
  re_ = std::make_unique<re2::RE2>(re, options);
}

LikeMatcher::~LikeMatcher() = default;

const LikeMatcher& LikeMatcher::Cached(absl::string_view pattern, char escape, Case c) {
  // Enough for the statements of a busy session; cleared whole when full.
  constexpr size_t kCachedPatterns = 32;
  thread_local absl::flat_hash_map<std::string, std::unique_ptr<LikeMatcher>> cache;
  std::string key =
      absl::StrCat(c == Case::kSensitive ? "s" : "i", std::string(1, escape), pattern);
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() >= kCachedPatterns) cache.clear();
    auto matcher = std::make_unique<LikeMatcher>(pattern, escape, c);
    it = cache.emplace(std::move(key), std::move(matcher)).first;
  }
  return *it->second;
}

bool LikeMatcher::Matches(absl::string_view value) const {
  if (!re_->ok()) return false;
  if (!fold_ || schema::IsOwnForm(value)) {
    return RE2::FullMatch(re2::StringPiece(value.data(), value.size()), *re_);
  }
  std::string form;
  schema::AppendFoldedText(value, &form);
  return RE2::FullMatch(re2::StringPiece(form.data(), form.size()), *re_);
}

}  // namespace shoal::sql
