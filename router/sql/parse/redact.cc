#include "router/sql/parse/redact.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/lexer.h"

namespace shoal::sql {

namespace {

bool ContainsIgnoreCase(absl::string_view text, absl::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(), [](char a, char b) {
           return absl::ascii_toupper(static_cast<unsigned char>(a)) == b;
         }) != text.end();
}

}  // namespace

bool MayHoldSecrets(absl::string_view sql) {
  return ContainsIgnoreCase(sql, "IDENTIFIED") || ContainsIgnoreCase(sql, "PASSWORD");
}

std::string RedactSecrets(absl::string_view sql) {
  if (!MayHoldSecrets(sql)) return std::string(sql);  // most statements: not lexed
  std::vector<Token> tokens = Lex(sql, BackslashEscapes::kOn);
  std::string out;
  size_t copied = 0;
  const bool set_password =
      tokens.size() > 2 && IsKeyword(tokens[0], "SET") && IsKeyword(tokens[1], "PASSWORD");
  bool identified = false;  // after IDENTIFIED, until the next comma
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (IsKeyword(t, "IDENTIFIED")) identified = true;
    if (t.kind == TokenKind::kComma) identified = false;
    if (t.kind != TokenKind::kString || i == 0) continue;
    const Token& before = tokens[i - 1];
    bool secret =
        (identified &&
         (IsKeyword(before, "BY") || IsKeyword(before, "AS") || IsKeyword(before, "PASSWORD"))) ||
        (before.kind == TokenKind::kEq && set_password) ||
        (before.kind == TokenKind::kLParen && i >= 2 && IsKeyword(tokens[i - 2], "PASSWORD"));
    if (!secret) continue;
    absl::StrAppend(&out, sql.substr(copied, t.offset - copied), "<secret>");
    copied = t.offset + t.text.size();
  }
  if (copied == 0) return std::string(sql);
  absl::StrAppend(&out, sql.substr(copied));
  return out;
}

}  // namespace shoal::sql
