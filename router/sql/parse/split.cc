// See split.h. The lexer already knows where strings and comments end, so splitting is a walk
// over its tokens looking for `;`.
#include "router/sql/parse/split.h"

#include "absl/strings/ascii.h"

namespace shoal::sql {

std::vector<absl::string_view> SplitStatements(absl::string_view query, BackslashEscapes escapes) {
  std::vector<absl::string_view> out;
  std::vector<Token> tokens = Lex(query, escapes);
  size_t start = 0;         // byte where the current statement begins
  bool has_tokens = false;  // the current statement holds something besides comments
  for (const Token& tok : tokens) {
    if (tok.kind == TokenKind::kSemicolon) {
      out.push_back(absl::StripAsciiWhitespace(query.substr(start, tok.offset - start)));
      start = tok.offset + 1;
      has_tokens = false;
    } else if (tok.kind == TokenKind::kEnd || tok.kind == TokenKind::kError) {
      if (has_tokens || tok.kind == TokenKind::kError || out.empty()) {
        absl::string_view rest = absl::StripAsciiWhitespace(query.substr(start));
        if (!rest.empty() || out.empty()) out.push_back(rest);
      }
    } else {
      has_tokens = true;
    }
  }
  return out;
}

}  // namespace shoal::sql
