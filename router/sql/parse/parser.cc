// See parser.h. This file holds the token helpers, the error texts and the dispatch on a
// statement's first keyword; each statement group parses in its own parse_*.cc.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "router/sql/parse/ast_walk.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql {
namespace internal {

ExprPtr MakeExpr(ExprKind kind) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  return e;
}

Parser::Parser(absl::string_view sql, const ParseOptions& options)
    : sql_(sql), options_(options), tokens_(Lex(sql, options.escapes, options.double_quotes)) {}

const Token& Parser::Peek(size_t ahead) const {
  size_t i = std::min(pos_ + ahead, tokens_.size() - 1);  // the last token is kEnd/kError
  return tokens_[i];
}

const Token& Parser::Advance() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::PeekKeyword(absl::string_view kw, size_t ahead) const {
  return IsKeyword(Peek(ahead), kw);
}

bool Parser::Accept(TokenKind kind) {
  if (Peek().kind != kind) return false;
  Advance();
  return true;
}

bool Parser::AcceptKeyword(absl::string_view kw) {
  if (!PeekKeyword(kw)) return false;
  Advance();
  return true;
}

bool Parser::Expect(TokenKind kind) { return Accept(kind) || Fail(); }

bool Parser::ExpectKeyword(absl::string_view kw) { return AcceptKeyword(kw) || Fail(); }

bool Parser::Fail() { return Fail(Peek()); }

bool Parser::Fail(const Token& tok) {
  if (!error_) {
    size_t offset = tok.kind == TokenKind::kEnd ? sql_.size() : tok.offset;
    error_ = mysql::errors::ParseError(NearText(sql_, offset), static_cast<int>(tok.line));
  }
  return false;
}

Parser::DepthGuard::DepthGuard(Parser* parser) : parser_(parser) {
  // Deep enough for any real statement; shallow enough for a worker's stack under ASan.
  constexpr int kMaxDepth = 200;
  ok_ = ++parser_->depth_ <= kMaxDepth;
  if (!ok_) parser_->Exhausted();
}

bool Parser::Exhausted() {
  if (!error_) {
    const Token& tok = Peek();
    size_t offset = tok.kind == TokenKind::kEnd ? sql_.size() : tok.offset;
    error_ = mysql::SqlError{
        1064, "42000",
        absl::StrCat("memory exhausted near '", NearText(sql_, offset), "' at line ", tok.line)};
  }
  return false;
}

bool Parser::NotSupported(absl::string_view what) {
  if (!error_) error_ = mysql::errors::NotSupportedYet(what);
  return false;
}

bool Parser::FailWith(mysql::SqlError error) {
  if (!error_) error_ = std::move(error);
  return false;
}

bool Parser::ParseIdentifier(std::string* out) {
  const Token& t = Peek();
  if (t.kind == TokenKind::kQuotedIdent) {
    *out = t.value;
  } else if (t.kind == TokenKind::kIdent && !IsReservedWord(t.text)) {
    *out = std::string(t.text);
  } else {
    return Fail();
  }
  Advance();
  return true;
}

bool Parser::ParseNameOrString(std::string* out) {
  const Token& t = Peek();
  if (t.kind == TokenKind::kQuotedIdent || t.kind == TokenKind::kString) {
    *out = t.value;
  } else if (t.kind == TokenKind::kIdent) {
    *out = std::string(t.text);
  } else {
    return Fail();
  }
  Advance();
  return true;
}

std::string Parser::SourceText(size_t first) const {
  if (pos_ == 0 || first >= pos_) return "";
  const Token& last = tokens_[pos_ - 1];
  size_t begin = tokens_[first].offset;
  size_t end = last.offset + last.text.size();
  return std::string(sql_.substr(begin, end - begin));
}

std::variant<Statement, mysql::SqlError> Parser::Run() {
  if (Peek().kind == TokenKind::kEnd) return mysql::errors::EmptyQuery();
  Statement stmt;
  if (ParseStatement(&stmt.node)) {
    Accept(TokenKind::kSemicolon);
    if (Peek().kind != TokenKind::kEnd) Fail();
  }
  if (error_) return *error_;
  stmt.param_count = param_count_;
  stmt.has_subqueries = has_subqueries_;
  if (common_tables_defined_ > 0) ForgetCommonTablesReadOnce(&stmt);
  return stmt;
}

void Parser::ForgetCommonTablesReadOnce(Statement* stmt) {
  absl::flat_hash_map<uint32_t, std::vector<SelectStmt*>> references;
  WalkStatement(
      *stmt,
      [&](TableRef& table) {
        if (table.derived && table.derived->common_table != 0) {
          references[table.derived->common_table].push_back(table.derived.get());
        }
      },
      [](Expr&) {});
  for (auto& [number, selects] : references) {
    if (selects.size() == 1) selects[0]->common_table = 0;
  }
}

bool Parser::ParseStatement(StatementNode* out) {
  const Token& t = Peek();
  if (t.kind == TokenKind::kLParen && StartsParenthesizedQuery(0)) {
    *out = SelectStmt{};
    return ParseQuery(&std::get<SelectStmt>(*out));
  }
  if (t.kind != TokenKind::kIdent) return Fail();
  auto as = [&]<typename T>(bool (Parser::*parse)(T*)) {
    *out = T{};
    return (this->*parse)(&std::get<T>(*out));
  };
  if (PeekKeyword("SELECT") || PeekKeyword("WITH")) {
    into_allowed_ = true;
    return as(&Parser::ParseSelect);
  }
  if (PeekKeyword("SET") && PeekKeyword("PASSWORD", 1)) return as(&Parser::ParseAccountStatement);
  if (PeekKeyword("SET") &&
      (PeekKeyword("ROLE", 1) || (PeekKeyword("DEFAULT", 1) && PeekKeyword("ROLE", 2)))) {
    return as(&Parser::ParseRoleStatement);
  }
  if (PeekKeyword("SET")) return ParseSet(out);
  if (PeekKeyword("SHOW")) return as(&Parser::ParseShow);
  if (PeekKeyword("USE")) return as(&Parser::ParseUse);
  if (PeekKeyword("BEGIN")) return as(&Parser::ParseBegin);
  if (PeekKeyword("START")) return as(&Parser::ParseStartTransaction);
  if (PeekKeyword("COMMIT") || PeekKeyword("ROLLBACK")) return as(&Parser::ParseCommitOrRollback);
  if (PeekKeyword("PREPARE")) return as(&Parser::ParsePrepare);
  if (PeekKeyword("EXECUTE")) return as(&Parser::ParseExecute);
  if (PeekKeyword("DEALLOCATE") || (PeekKeyword("DROP") && PeekKeyword("PREPARE", 1))) {
    return as(&Parser::ParseDeallocate);
  }
  if (PeekKeyword("DO")) return as(&Parser::ParseDo);
  if (PeekKeyword("KILL")) return as(&Parser::ParseKill);
  if (PeekKeyword("INSERT") || PeekKeyword("REPLACE")) return as(&Parser::ParseInsert);
  if (PeekKeyword("UPDATE")) return as(&Parser::ParseUpdate);
  if (PeekKeyword("DELETE")) return as(&Parser::ParseDelete);
  if (PeekAny(*this, {"CREATE", "ALTER", "DROP", "RENAME"}) && PeekKeyword("USER", 1)) {
    return as(&Parser::ParseAccountStatement);
  }
  if (PeekAny(*this, {"CREATE", "DROP"}) && PeekKeyword("ROLE", 1)) {
    return as(&Parser::ParseRoleStatement);
  }
  if (PeekKeyword("GRANT") || PeekKeyword("REVOKE")) {
    return IsRoleGrant(*this) ? as(&Parser::ParseRoleStatement) : as(&Parser::ParseGrant);
  }
  if (PeekKeyword("FLUSH")) return as(&Parser::ParseFlush);
  if (PeekKeyword("CREATE")) return ParseCreate(out);
  if (PeekKeyword("DROP")) return ParseDrop(out);
  if (PeekKeyword("TRUNCATE")) return as(&Parser::ParseTruncate);
  if (PeekKeyword("LOAD") && PeekKeyword("DATA", 1)) return as(&Parser::ParseLoadData);
  if (PeekAny(*this, {"ANALYZE", "OPTIMIZE", "REPAIR"}) ||
      (PeekKeyword("CHECK") && PeekAny(*this, {"TABLE", "TABLES"}, 1))) {
    return as(&Parser::ParseTableMaintenance);
  }
  if (PeekKeyword("EXPLAIN") || PeekKeyword("DESCRIBE") || PeekKeyword("DESC")) {
    return ParseExplain(out);
  }
  if (PeekKeyword("ALTER") && PeekKeyword("TABLE", 1)) return as(&Parser::ParseAlterTable);
  if (PeekKeyword("ALTER") && IsViewDefinition(*this)) return as(&Parser::ParseCreateView);
  if (PeekKeyword("RENAME") && PeekKeyword("TABLE", 1)) return as(&Parser::ParseRenameTable);
  if (PeekKeyword("LOCK") && (PeekKeyword("TABLES", 1) || PeekKeyword("TABLE", 1))) {
    return as(&Parser::ParseLockTables);
  }
  if (PeekKeyword("UNLOCK") && (PeekKeyword("TABLES", 1) || PeekKeyword("TABLE", 1))) {
    return as(&Parser::ParseUnlockTables);
  }
  if (PeekKeyword("SAVEPOINT")) return as(&Parser::ParseSavepoint);
  if (PeekKeyword("RELEASE") && PeekKeyword("SAVEPOINT", 1)) {
    return as(&Parser::ParseReleaseSavepoint);
  }
  return UnsupportedStatement();
}

// Statements MySQL has and Shoal does not run yet: 1235 naming the construct, so clients see
// "not yet" rather than a syntax error. One or two leading words name it ("CREATE TABLE").
bool Parser::UnsupportedStatement() {
  static constexpr absl::string_view kTwoWord[] = {"CREATE", "DROP", "ALTER",  "LOCK", "UNLOCK",
                                                   "FLUSH",  "LOAD", "RENAME", "CHECK"};
  static constexpr absl::string_view kOneWord[] = {
      "INSERT",  "REPLACE",  "UPDATE",  "DELETE", "TRUNCATE", "EXPLAIN",   "DESCRIBE",
      "DESC",    "CHECKSUM", "GRANT",   "REVOKE", "CALL",     "HANDLER",   "SAVEPOINT",
      "RELEASE", "XA",       "TABLE",   "VALUES", "INSTALL",  "UNINSTALL", "RESET",
      "PURGE",   "CHANGE",   "IMPORT",  "CLONE",  "HELP",     "SIGNAL",    "RESIGNAL",
      "GET",     "SHUTDOWN", "RESTART", "BINLOG", "CACHE"};
  for (absl::string_view kw : kTwoWord) {
    if (PeekKeyword(kw)) {
      const Token& next = Peek(1);
      std::string what = absl::AsciiStrToUpper(kw);
      if (next.kind == TokenKind::kIdent) {
        absl::StrAppend(&what, " ", absl::AsciiStrToUpper(next.text));
      }
      return NotSupported(what);
    }
  }
  for (absl::string_view kw : kOneWord) {
    if (PeekKeyword(kw)) return NotSupported(absl::AsciiStrToUpper(kw));
  }
  return Fail();
}

}  // namespace internal

std::string NearText(absl::string_view sql, size_t offset) {
  absl::string_view rest = offset < sql.size() ? sql.substr(offset) : absl::string_view();
  return std::string(Utf8FirstChars(rest, 80));
}

std::variant<Statement, mysql::SqlError> Parse(absl::string_view sql, const ParseOptions& options) {
  return internal::Parser(sql, options).Run();
}

}  // namespace shoal::sql
