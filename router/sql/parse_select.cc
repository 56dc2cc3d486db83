// SELECT: the select list with aliases, FROM DUAL, WHERE and LIMIT. Tables, joins, GROUP BY
// and ORDER BY come with the storage engine; until then they answer 1235.
#include "absl/strings/ascii.h"
#include "router/sql/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// Select options MySQL accepts and that change nothing without tables.
bool IsIgnoredSelectOption(const Token& t) {
  static constexpr absl::string_view kOptions[] = {
      "ALL",           "DISTINCT",         "DISTINCTROW",        "HIGH_PRIORITY",
      "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT",     "SQL_BUFFER_RESULT",
      "SQL_NO_CACHE",  "SQL_CACHE",        "SQL_CALC_FOUND_ROWS"};
  for (absl::string_view o : kOptions) {
    if (IsKeyword(t, o)) return true;
  }
  return false;
}

}  // namespace

bool Parser::ParseSelect(SelectStmt* out) {
  Advance();  // SELECT
  while (IsIgnoredSelectOption(Peek())) Advance();
  do {
    SelectItem item;
    size_t first = pos();
    if (Accept(TokenKind::kStar)) {
      item.name = "*";
    } else {
      item.expr = ParseExpr();
      if (!item.expr) return false;
      // MySQL names a bare string literal column by its value, anything else by its text.
      item.name =
          item.expr->kind == ExprKind::kLiteral && item.expr->literal == LiteralKind::kString
              ? item.expr->text
              : SourceText(first);
    }
    const Token& t = Peek();
    if (AcceptKeyword("AS")) {
      if (!ParseNameOrString(&item.name)) return false;
      item.has_alias = true;
    } else if (t.kind == TokenKind::kQuotedIdent || t.kind == TokenKind::kString ||
               (t.kind == TokenKind::kIdent && !IsReservedWord(t.text))) {
      item.name = t.kind == TokenKind::kIdent ? std::string(t.text) : t.value;
      item.has_alias = true;
      Advance();
    }
    out->items.push_back(std::move(item));
  } while (Accept(TokenKind::kComma));

  if (AcceptKeyword("INTO")) return NotSupported("SELECT INTO");
  if (AcceptKeyword("FROM")) {
    TokenKind k = Peek().kind;
    if (k != TokenKind::kIdent && k != TokenKind::kQuotedIdent && k != TokenKind::kLParen) {
      return Fail();
    }
    if (!AcceptKeyword("DUAL")) return NotSupported("SELECT from tables");
  }
  if (AcceptKeyword("WHERE")) {
    out->where = ParseExpr();
    if (!out->where) return false;
  }
  if (PeekKeyword("GROUP") || PeekKeyword("HAVING") || PeekKeyword("ORDER") ||
      PeekKeyword("WINDOW")) {
    return NotSupported(absl::AsciiStrToUpper(Peek().text) + " without tables");
  }
  if (PeekKeyword("UNION") || PeekKeyword("EXCEPT") || PeekKeyword("INTERSECT")) {
    return NotSupported(absl::AsciiStrToUpper(Peek().text));
  }
  if (AcceptKeyword("LIMIT")) {
    out->limit.emplace();
    if (!ParseLimit(&*out->limit)) return false;
  }
  if (PeekKeyword("FOR") || PeekKeyword("LOCK")) return NotSupported("locking reads");
  return true;
}

// After LIMIT: `count`, `offset, count` or `count OFFSET offset`; each an integer or `?`.
bool Parser::ParseLimit(Limit* out) {
  auto value = [&]() -> ExprPtr {
    if (Peek().kind == TokenKind::kParam) return ParseParam();
    if (Peek().kind != TokenKind::kInteger) return Fail(), nullptr;
    return ParseLiteral();
  };
  out->count = value();
  if (!out->count) return false;
  if (Accept(TokenKind::kComma)) {
    out->offset = std::move(out->count);
    out->count = value();
  } else if (AcceptKeyword("OFFSET")) {
    out->offset = value();
    if (!out->offset) return false;
  }
  return out->count != nullptr;
}

}  // namespace shoal::sql::internal
