// LOCK TABLES and UNLOCK TABLES, which dump tools send around every table they read or load.
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {

bool Parser::ParseLockTables(LockTablesStmt* out) {
  Advance();  // LOCK
  if (!AcceptKeyword("TABLES") && !ExpectKeyword("TABLE")) return false;
  do {
    TableLock lock;
    if (!ParseTableName(&lock.table)) return false;
    if (AcceptKeyword("AS")) {
      if (!ParseIdentifier(&lock.alias)) return false;
    } else if (Peek().kind == TokenKind::kQuotedIdent ||
               (Peek().kind == TokenKind::kIdent && !PeekKeyword("READ") && !PeekKeyword("WRITE") &&
                !PeekKeyword("LOW_PRIORITY"))) {
      if (!ParseIdentifier(&lock.alias)) return false;
    }
    if (AcceptKeyword("READ")) {
      AcceptKeyword("LOCAL");
    } else {
      AcceptKeyword("LOW_PRIORITY");
      if (!ExpectKeyword("WRITE")) return false;
      lock.write = true;
    }
    out->tables.push_back(std::move(lock));
  } while (Accept(TokenKind::kComma));
  return true;
}

bool Parser::ParseUnlockTables(UnlockTablesStmt*) {
  Advance();  // UNLOCK
  return AcceptKeyword("TABLES") || ExpectKeyword("TABLE");
}

}  // namespace shoal::sql::internal
