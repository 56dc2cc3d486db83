// SHOW: the forms drivers and the mysql CLI send (VARIABLES, STATUS, WARNINGS, ERRORS,
// ENGINES, COLLATION, CHARACTER SET, DATABASES, TABLES). Other SHOW forms answer 1235.
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseShow(ShowStmt* out) {
  Advance();  // SHOW
  if (AcceptKeyword("GLOBAL")) {
    out->scope = VarScope::kGlobal;
  } else if (AcceptKeyword("SESSION") || AcceptKeyword("LOCAL")) {
    out->scope = VarScope::kSession;
  }
  bool scoped = out->scope != VarScope::kDefault;
  bool filter = true;  // takes LIKE / WHERE
  if (AcceptKeyword("VARIABLES")) {
    out->kind = ShowKind::kVariables;
  } else if (AcceptKeyword("STATUS")) {
    out->kind = ShowKind::kStatus;
  } else if (scoped) {
    return Fail();
  } else if (AcceptKeyword("WARNINGS") || AcceptKeyword("ERRORS")) {
    out->kind = IsKeyword(tokens_[pos_ - 1], "ERRORS") ? ShowKind::kErrors : ShowKind::kWarnings;
    filter = false;
    if (AcceptKeyword("LIMIT")) {
      out->limit.emplace();
      if (!ParseLimit(&*out->limit)) return false;
    }
  } else if (PeekKeyword("COUNT") && Peek(1).kind == TokenKind::kLParen) {
    Advance();
    Advance();
    if (!Expect(TokenKind::kStar) || !Expect(TokenKind::kRParen)) return false;
    if (AcceptKeyword("WARNINGS")) {
      out->kind = ShowKind::kCountWarnings;
    } else if (ExpectKeyword("ERRORS")) {
      out->kind = ShowKind::kCountErrors;
    } else {
      return false;
    }
    filter = false;
  } else if (AcceptKeyword("ENGINES") || (PeekKeyword("STORAGE") && PeekKeyword("ENGINES", 1))) {
    if (AcceptKeyword("STORAGE")) Advance();
    out->kind = ShowKind::kEngines;
    filter = false;
  } else if (AcceptKeyword("COLLATION")) {
    out->kind = ShowKind::kCollation;
  } else if (AcceptKeyword("CHARSET")) {
    out->kind = ShowKind::kCharset;
  } else if (PeekKeyword("CHARACTER") && PeekKeyword("SET", 1)) {
    Advance();
    Advance();
    out->kind = ShowKind::kCharset;
  } else if (AcceptKeyword("DATABASES") || AcceptKeyword("SCHEMAS")) {
    out->kind = ShowKind::kDatabases;
  } else if (PeekKeyword("TABLES") || (PeekKeyword("FULL") && PeekKeyword("TABLES", 1))) {
    out->full = AcceptKeyword("FULL");
    Advance();  // TABLES
    out->kind = ShowKind::kTables;
    if (AcceptKeyword("FROM") || AcceptKeyword("IN")) {
      if (!ParseIdentifier(&out->from_database)) return false;
    }
  } else {
    // SHOW CREATE TABLE, SHOW COLUMNS, SHOW PROCESSLIST…: named by their first words.
    std::string what = "SHOW";
    for (size_t i = 0; i < 2 && Peek(i).kind == TokenKind::kIdent; ++i) {
      absl::StrAppend(&what, " ", absl::AsciiStrToUpper(Peek(i).text));
      if (!IsKeyword(Peek(i), "CREATE") && !IsKeyword(Peek(i), "FULL")) break;
    }
    if (what == "SHOW") return Fail();
    return NotSupported(what);
  }
  if (filter) {
    if (AcceptKeyword("LIKE")) {
      if (Peek().kind != TokenKind::kString) return Fail();
      out->like = Advance().value;
    } else if (AcceptKeyword("WHERE")) {
      out->where = ParseExpr();
      if (!out->where) return false;
    }
  }
  return true;
}

}  // namespace shoal::sql::internal
