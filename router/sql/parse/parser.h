// The SQL parser: recursive descent over the lexer's tokens into the AST of ast.h. It answers
// exactly what MySQL 8.0 would for text it cannot run: 1064 (syntax error, with MySQL's
// "near '…' at line N" text), 1065 (empty query), 1235 (valid MySQL that Shoal does not run
// yet, named by construct).
#pragma once

#include <variant>

#include "absl/strings/string_view.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"
#include "router/sql/parse/lexer.h"

namespace shoal::sql {

// `?` placeholders are only legal in prepared statements (COM_STMT_PREPARE, SQL PREPARE).
enum class ParamMode : uint8_t { kForbidden, kAllowed };

// The session's sql_mode as it changes what text means (exec/executor.cc: SessionParseOptions).
struct ParseOptions {
  BackslashEscapes escapes = BackslashEscapes::kOn;
  ParamMode params = ParamMode::kForbidden;
  DoubleQuotes double_quotes = DoubleQuotes::kString;  // ANSI_QUOTES: kIdentifier
  // PIPES_AS_CONCAT: `a || b` is CONCAT(a, b), binding tighter than any binary operator (MySQL:
  // between ^ and the unary ones), instead of OR.
  bool pipes_as_concat = false;
};

// Parses one statement (an optional trailing `;` is allowed). The result borrows nothing.
std::variant<Statement, mysql::SqlError> Parse(absl::string_view sql, const ParseOptions& options);

// MySQL's quote of the text at a syntax error: `sql` from byte `offset` on, cut to 80
// characters (not bytes) as the server's "%-.80s" does.
std::string NearText(absl::string_view sql, size_t offset);

}  // namespace shoal::sql
