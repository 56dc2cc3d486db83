// What the parser tests share: parse or fail with a test failure otherwise, and MySQL's texts
// for 1064 and 1235. Include from tests only.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::testing {

inline Statement MustParse(absl::string_view sql, ParamMode params = ParamMode::kForbidden) {
  ParseOptions options;
  options.params = params;
  auto r = Parse(sql, options);
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << sql << ": " << err->code << " " << err->message;
    return Statement{};
  }
  return std::get<Statement>(std::move(r));
}

inline mysql::SqlError MustFail(absl::string_view sql, ParamMode params = ParamMode::kForbidden) {
  ParseOptions options;
  options.params = params;
  auto r = Parse(sql, options);
  if (!std::holds_alternative<mysql::SqlError>(r)) {
    ADD_FAILURE() << sql << " parsed";
    return {};
  }
  return std::get<mysql::SqlError>(r);
}

// The statement `sql` parses to, which must be a T.
template <typename T>
T MustParseAs(absl::string_view sql, ParamMode params = ParamMode::kForbidden) {
  Statement s = MustParse(sql, params);
  if (!std::holds_alternative<T>(s.node)) {
    ADD_FAILURE() << sql << ": parsed as another statement kind";
    return T{};
  }
  return std::get<T>(std::move(s.node));
}

// 1064's text for a syntax error at `near` on `line`.
inline std::string Syntax(absl::string_view near, int line = 1) {
  return absl::StrCat(
      "You have an error in your SQL syntax; check the manual that corresponds to your MySQL "
      "server version for the right syntax to use near '",
      near, "' at line ", line);
}

// 1235's text naming `what`.
inline std::string NotYet(absl::string_view what) {
  return absl::StrCat("This version of MySQL doesn't yet support '", what, "'");
}

}  // namespace shoal::sql::testing
