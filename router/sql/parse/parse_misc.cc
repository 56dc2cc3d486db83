// The small statements: USE, transactions (BEGIN, START TRANSACTION, COMMIT, ROLLBACK,
// savepoints), SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE) and DO.
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseUse(UseStmt* out) {
  Advance();  // USE
  return ParseIdentifier(&out->database);
}

bool Parser::ParseBegin(TransactionStmt* out) {
  Advance();  // BEGIN
  AcceptKeyword("WORK");
  out->action = TransactionStmt::Action::kBegin;
  return true;
}

bool Parser::ParseStartTransaction(TransactionStmt* out) {
  Advance();  // START
  if (!ExpectKeyword("TRANSACTION")) return false;
  out->action = TransactionStmt::Action::kBegin;
  if (Peek().kind != TokenKind::kIdent) return true;
  do {
    if (AcceptKeyword("READ")) {
      if (AcceptKeyword("ONLY")) {
        out->read_only = true;
      } else if (ExpectKeyword("WRITE")) {
        out->read_only = false;
      } else {
        return false;
      }
    } else if (AcceptKeyword("WITH")) {
      if (!ExpectKeyword("CONSISTENT") || !ExpectKeyword("SNAPSHOT")) return false;
    } else {
      return Fail();
    }
  } while (Accept(TokenKind::kComma));
  return true;
}

bool Parser::ParseCommitOrRollback(TransactionStmt* out) {
  out->action =
      PeekKeyword("COMMIT") ? TransactionStmt::Action::kCommit : TransactionStmt::Action::kRollback;
  Advance();
  AcceptKeyword("WORK");
  if (out->action == TransactionStmt::Action::kRollback && AcceptKeyword("TO")) {
    out->action = TransactionStmt::Action::kRollbackToSavepoint;
    AcceptKeyword("SAVEPOINT");
    return ParseIdentifier(&out->savepoint);
  }
  if (AcceptKeyword("AND")) {
    bool no = AcceptKeyword("NO");
    if (!ExpectKeyword("CHAIN")) return false;
    out->chain = !no;
  }
  if (PeekKeyword("RELEASE")) return NotSupported("RELEASE");
  if (PeekKeyword("NO") && PeekKeyword("RELEASE", 1)) {
    Advance();
    Advance();
  }
  return true;
}

bool Parser::ParseSavepoint(TransactionStmt* out) {
  Advance();  // SAVEPOINT
  out->action = TransactionStmt::Action::kSavepoint;
  return ParseIdentifier(&out->savepoint);
}

bool Parser::ParseReleaseSavepoint(TransactionStmt* out) {
  Advance();  // RELEASE
  Advance();  // SAVEPOINT
  out->action = TransactionStmt::Action::kReleaseSavepoint;
  return ParseIdentifier(&out->savepoint);
}

bool Parser::ParsePrepare(PrepareStmt* out) {
  Advance();  // PREPARE
  if (!ParseIdentifier(&out->name) || !ExpectKeyword("FROM")) return false;
  const Token& t = Peek();
  if (t.kind == TokenKind::kUserVar) {
    out->from_var = t.value;
  } else if (t.kind == TokenKind::kString) {
    out->text = t.value;
  } else {
    return Fail();
  }
  Advance();
  return true;
}

bool Parser::ParseExecute(ExecuteStmt* out) {
  Advance();  // EXECUTE
  if (!ParseIdentifier(&out->name)) return false;
  if (AcceptKeyword("USING")) {
    do {
      if (Peek().kind != TokenKind::kUserVar) return Fail();
      out->using_vars.push_back(Advance().value);
    } while (Accept(TokenKind::kComma));
  }
  return true;
}

bool Parser::ParseDeallocate(DeallocateStmt* out) {
  Advance();  // DEALLOCATE or DROP
  return ExpectKeyword("PREPARE") && ParseIdentifier(&out->name);
}

bool Parser::ParseKill(KillStmt* out) {
  Advance();  // KILL
  if (AcceptKeyword("QUERY")) {
    out->query = true;
  } else {
    AcceptKeyword("CONNECTION");
  }
  out->id = ParseExpr();
  return out->id != nullptr;
}

bool Parser::ParseDo(DoStmt* out) {
  Advance();  // DO
  do {
    ExprPtr e = ParseExpr();
    if (!e) return false;
    out->exprs.push_back(std::move(e));
  } while (Accept(TokenKind::kComma));
  return true;
}

}  // namespace shoal::sql::internal
