// CREATE VIEW, ALTER VIEW and DROP VIEW.
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// user@host, or CURRENT_USER (the session's account: left empty).
bool ParseDefiner(Parser& p, CreateViewStmt* out) {
  if (p.AcceptKeyword("CURRENT_USER")) {
    if (p.Accept(TokenKind::kLParen) && !p.Expect(TokenKind::kRParen)) return false;
    return true;
  }
  if (!p.ParseNameOrString(&out->definer_user)) return false;
  out->definer_host = p.Peek().kind == TokenKind::kUserVar ? p.Advance().value : "%";
  return true;
}

// [ALGORITHM = …] [DEFINER = …] [SQL SECURITY …], each at most once, in that order.
bool ParseViewOptions(Parser& p, CreateViewStmt* out) {
  if (p.AcceptKeyword("ALGORITHM")) {
    if (!p.Expect(TokenKind::kEq)) return false;
    if (!PeekAny(p, {"UNDEFINED", "MERGE", "TEMPTABLE"})) return p.Fail();
    out->algorithm = absl::AsciiStrToUpper(p.Advance().text);
  }
  if (p.AcceptKeyword("DEFINER")) {
    if (!p.Expect(TokenKind::kEq) || !ParseDefiner(p, out)) return false;
  }
  if (p.AcceptKeyword("SQL")) {
    if (!p.ExpectKeyword("SECURITY")) return false;
    if (p.AcceptKeyword("DEFINER")) {
      out->security = CreateViewStmt::Security::kDefiner;
    } else if (p.AcceptKeyword("INVOKER")) {
      out->security = CreateViewStmt::Security::kInvoker;
    } else {
      return p.Fail();
    }
  }
  return true;
}

// VIEW v [(columns)] AS query [WITH [CASCADED | LOCAL] CHECK OPTION]
bool ParseViewBody(Parser& p, CreateViewStmt* out) {
  if (PeekAny(p, {"TRIGGER", "PROCEDURE", "FUNCTION", "EVENT"})) {
    return p.NotSupported(
        absl::StrCat(out->alter ? "ALTER " : "CREATE ", absl::AsciiStrToUpper(p.Peek().text)));
  }
  if (!p.ExpectKeyword("VIEW") || !p.ParseTableName(&out->view)) return false;
  if (p.Accept(TokenKind::kLParen)) {
    do {
      if (!p.ParseIdentifier(&out->columns.emplace_back())) return false;
    } while (p.Accept(TokenKind::kComma));
    if (!p.Expect(TokenKind::kRParen)) return false;
  }
  if (!p.ExpectKeyword("AS")) return false;
  // AS (SELECT …) too, or any query in parentheses, as MySQL 8.0 takes them: the text kept
  // is parsed again as a statement, which may start with one.
  if (!p.PeekKeyword("SELECT") && !p.PeekKeyword("WITH") && !p.StartsParenthesizedQuery(0)) {
    return p.Fail();
  }
  size_t first = p.pos();
  SelectStmt select;  // parsed here for its syntax only
  if (!p.ParseQuery(&select)) return false;
  out->select_text = p.SourceText(first);
  if (!p.AcceptKeyword("WITH")) return true;
  out->check_option = CreateViewStmt::CheckOption::kCascaded;
  if (p.AcceptKeyword("LOCAL")) {
    out->check_option = CreateViewStmt::CheckOption::kLocal;
  } else {
    p.AcceptKeyword("CASCADED");
  }
  return p.ExpectKeyword("CHECK") && p.ExpectKeyword("OPTION");
}

}  // namespace

bool IsViewDefinition(const Parser& p) {
  // After CREATE or ALTER: OR REPLACE, a view option, or VIEW itself.
  return PeekAny(p, {"VIEW", "ALGORITHM", "DEFINER"}, 1) ||
         (p.PeekKeyword("OR", 1) && p.PeekKeyword("REPLACE", 2)) ||
         (p.PeekKeyword("SQL", 1) && p.PeekKeyword("SECURITY", 2));
}

bool Parser::ParseCreateView(CreateViewStmt* out) {
  out->alter = PeekKeyword("ALTER");
  Advance();  // CREATE or ALTER
  if (!out->alter && AcceptKeyword("OR")) {
    if (!ExpectKeyword("REPLACE")) return false;
    out->or_replace = true;
  }
  return ParseViewOptions(*this, out) && ParseViewBody(*this, out);
}

bool Parser::ParseDropView(DropViewStmt* out) {
  Advance();  // DROP
  Advance();  // VIEW
  if (AcceptKeyword("IF")) {
    if (!ExpectKeyword("EXISTS")) return false;
    out->if_exists = true;
  }
  do {
    if (!ParseTableName(&out->views.emplace_back())) return false;
  } while (Accept(TokenKind::kComma));
  AcceptAny(*this, {"RESTRICT", "CASCADE"});
  return true;
}

}  // namespace shoal::sql::internal
