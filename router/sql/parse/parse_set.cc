// SET: system and user variable assignments (several, comma-separated), SET NAMES,
// SET CHARACTER SET, and SET TRANSACTION. Values stay expressions; the executor checks them
// against each variable's type.
#include "absl/strings/ascii.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// The scope keyword at `t`, if any.
bool ScopeKeyword(const Token& t, VarScope* scope) {
  if (IsKeyword(t, "SESSION") || IsKeyword(t, "LOCAL")) {
    *scope = VarScope::kSession;
  } else if (IsKeyword(t, "GLOBAL")) {
    *scope = VarScope::kGlobal;
  } else if (IsKeyword(t, "PERSIST")) {
    *scope = VarScope::kPersist;
  } else if (IsKeyword(t, "PERSIST_ONLY")) {
    *scope = VarScope::kPersistOnly;
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool Parser::ParseSet(StatementNode* out) {
  Advance();  // SET
  VarScope scope = VarScope::kDefault;
  if (ScopeKeyword(Peek(), &scope) && PeekKeyword("TRANSACTION", 1)) Advance();
  if (PeekKeyword("TRANSACTION")) {
    Advance();
    SetTransactionStmt txn;
    txn.scope = scope;
    do {
      if (AcceptKeyword("ISOLATION")) {
        if (!ExpectKeyword("LEVEL")) return false;
        if (AcceptKeyword("SERIALIZABLE")) {
          txn.isolation = "SERIALIZABLE";
        } else if (AcceptKeyword("REPEATABLE")) {
          if (!ExpectKeyword("READ")) return false;
          txn.isolation = "REPEATABLE-READ";
        } else if (AcceptKeyword("READ")) {
          if (AcceptKeyword("COMMITTED")) {
            txn.isolation = "READ-COMMITTED";
          } else if (ExpectKeyword("UNCOMMITTED")) {
            txn.isolation = "READ-UNCOMMITTED";
          } else {
            return false;
          }
        } else {
          return Fail();
        }
      } else if (AcceptKeyword("READ")) {
        if (AcceptKeyword("ONLY")) {
          txn.read_only = true;
        } else if (ExpectKeyword("WRITE")) {
          txn.read_only = false;
        } else {
          return false;
        }
      } else {
        return Fail();
      }
    } while (Accept(TokenKind::kComma));
    *out = std::move(txn);
    return true;
  }
  if (PeekKeyword("PASSWORD") || PeekKeyword("ROLE") ||
      (PeekKeyword("DEFAULT") && PeekKeyword("ROLE", 1))) {
    return NotSupported("SET " + absl::AsciiStrToUpper(Peek().text));
  }

  SetStmt set;
  scope = VarScope::kDefault;  // a scope keyword applies until the next one
  do {
    if (ScopeKeyword(Peek(), &scope)) Advance();
    SetAssignment a;
    a.scope = scope;
    if (AcceptKeyword("NAMES")) {
      a.kind = SetAssignment::Kind::kNames;
      if (!AcceptKeyword("DEFAULT")) {
        if (!ParseNameOrString(&a.charset)) return false;
        if (AcceptKeyword("COLLATE") && !AcceptKeyword("DEFAULT") &&
            !ParseNameOrString(&a.collation)) {
          return false;
        }
      }
      set.assignments.push_back(std::move(a));
      continue;
    }
    if ((PeekKeyword("CHARACTER") && PeekKeyword("SET", 1)) || PeekKeyword("CHARSET")) {
      if (AcceptKeyword("CHARACTER")) {
        Advance();  // SET
      } else {
        Advance();  // CHARSET
      }
      a.kind = SetAssignment::Kind::kCharacterSet;
      if (!AcceptKeyword("DEFAULT") && !ParseNameOrString(&a.charset)) return false;
      set.assignments.push_back(std::move(a));
      continue;
    }
    const Token& t = Peek();
    if (t.kind == TokenKind::kUserVar) {
      a.kind = SetAssignment::Kind::kUserVar;
      a.name = Advance().value;
    } else {
      a.kind = SetAssignment::Kind::kSystemVar;
      if (t.kind == TokenKind::kAtAt) {
        ExprPtr var = ParseSysVar();
        if (!var) return false;
        a.scope = var->scope == VarScope::kDefault ? VarScope::kSession : var->scope;
        a.name = std::move(var->name);
      } else if (t.kind == TokenKind::kIdent || t.kind == TokenKind::kQuotedIdent) {
        a.name = absl::AsciiStrToLower(t.kind == TokenKind::kIdent ? t.text : t.value);
        Advance();
        if (Accept(TokenKind::kDot)) {  // structured names (component.var) are not known
          std::string rest;
          if (!ParseNameOrString(&rest)) return false;
          a.name += "." + absl::AsciiStrToLower(rest);
        }
      } else {
        return Fail();
      }
    }
    if (!Accept(TokenKind::kEq) && !Expect(TokenKind::kAssign)) return false;
    if (a.kind == SetAssignment::Kind::kSystemVar && AcceptKeyword("DEFAULT")) {
      set.assignments.push_back(std::move(a));
      continue;
    }
    // ON, and bare words such as OFF or SYSTEM, are the string values they spell.
    const Token& v = Peek();
    TokenKind after = Peek(1).kind;
    bool ends =
        after == TokenKind::kComma || after == TokenKind::kEnd || after == TokenKind::kSemicolon;
    if (a.kind == SetAssignment::Kind::kSystemVar && v.kind == TokenKind::kIdent && ends &&
        (IsKeyword(v, "ON") || IsKeyword(v, "ALL") || IsKeyword(v, "BINARY") ||
         !IsReservedWord(v.text))) {
      a.value = MakeExpr(ExprKind::kLiteral);
      a.value->literal = LiteralKind::kString;
      a.value->text = std::string(v.text);
      Advance();
    } else {
      a.value = ParseExpr();
      if (!a.value) return false;
    }
    set.assignments.push_back(std::move(a));
  } while (Accept(TokenKind::kComma));
  *out = std::move(set);
  return true;
}

}  // namespace shoal::sql::internal
