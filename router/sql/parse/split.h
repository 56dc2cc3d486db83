// Splitting a COM_QUERY text into statements at top-level `;` (CLIENT_MULTI_STATEMENTS).
#pragma once

#include <vector>

#include "absl/strings/string_view.h"
#include "router/sql/parse/lexer.h"

namespace shoal::sql {

// Returns the statements of `query` in order, each trimmed of surrounding whitespace and
// borrowing `query`. Semicolons inside strings, quoted identifiers and comments do not split.
// A trailing `;` (or only whitespace/comments after the last `;`) adds no statement, but an
// empty statement between two `;` is kept (empty), so the executor answers it with 1065 as
// MySQL does. Malformed text (an unterminated string) ends the split: the rest is one
// statement, whose parse then reports the error.
std::vector<absl::string_view> SplitStatements(absl::string_view query,
                                               BackslashEscapes escapes = BackslashEscapes::kOn);

}  // namespace shoal::sql
