// SHOW: the forms drivers, ORMs, dump tools and the mysql CLI send (VARIABLES, STATUS,
// WARNINGS, ERRORS, ENGINES, COLLATION, CHARACTER SET, DATABASES, TABLES, COLUMNS, INDEX,
// CREATE TABLE, CREATE DATABASE, TABLE STATUS; EVENTS, TRIGGERS, PROCEDURE and FUNCTION
// STATUS). Other SHOW forms answer 1235.
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// COLUMNS and INDEX: FROM|IN [db.]t [FROM|IN db]. A database named twice is the second, as in
// MySQL; it lands in both `from_database` and `table.database`.
bool ParseShowFromTable(Parser& p, ShowStmt* out) {
  if (!p.AcceptKeyword("FROM") && !p.ExpectKeyword("IN")) return false;
  if (!p.ParseTableName(&out->table)) return false;
  if (p.AcceptKeyword("FROM") || p.AcceptKeyword("IN")) {
    if (!p.ParseIdentifier(&out->from_database)) return false;
    out->table.database = out->from_database;
  }
  return true;
}

bool PeekColumns(const Parser& p, size_t ahead) {
  return p.PeekKeyword("COLUMNS", ahead) || p.PeekKeyword("FIELDS", ahead);
}

// The forms about one table or database: [FULL] COLUMNS|FIELDS, INDEX|INDEXES|KEYS, CREATE
// TABLE, CREATE DATABASE|SCHEMA. 1 when parsed, 0 when not one of these, -1 on an error.
// Clears `*filter` (LIKE and WHERE) or `*like` for the forms that do not take them.
int ParseShowTableForm(Parser& p, ShowStmt* out, bool* filter, bool* like) {
  if (PeekColumns(p, 0) || (p.PeekKeyword("FULL") && PeekColumns(p, 1))) {
    out->full = p.AcceptKeyword("FULL");
    p.Advance();  // COLUMNS or FIELDS
    out->kind = ShowKind::kColumns;
    return ParseShowFromTable(p, out) ? 1 : -1;
  }
  if (p.AcceptKeyword("INDEX") || p.AcceptKeyword("INDEXES") || p.AcceptKeyword("KEYS")) {
    out->kind = ShowKind::kIndex;
    *like = false;
    return ParseShowFromTable(p, out) ? 1 : -1;
  }
  if (!p.PeekKeyword("CREATE")) return 0;
  if (p.PeekKeyword("TABLE", 1) || p.PeekKeyword("VIEW", 1)) {
    p.Advance();
    out->kind = p.AcceptKeyword("VIEW") ? ShowKind::kCreateView : ShowKind::kCreateTable;
    if (out->kind == ShowKind::kCreateTable) p.Advance();  // TABLE
    *filter = false;
    return p.ParseTableName(&out->table) ? 1 : -1;
  }
  if (!p.PeekKeyword("DATABASE", 1) && !p.PeekKeyword("SCHEMA", 1)) return 0;
  p.Advance();
  p.Advance();
  out->kind = ShowKind::kCreateDatabase;
  *filter = false;
  // IF NOT EXISTS only shapes the text: dump tools restore with it.
  if (p.AcceptKeyword("IF")) {
    if (!p.ExpectKeyword("NOT") || !p.ExpectKeyword("EXISTS")) return -1;
    out->if_not_exists = true;
  }
  return p.ParseIdentifier(&out->table.name) ? 1 : -1;
}

}  // namespace

bool Parser::ParseShow(ShowStmt* out) {
  Advance();  // SHOW
  if (AcceptKeyword("GLOBAL")) {
    out->scope = VarScope::kGlobal;
  } else if (AcceptKeyword("SESSION") || AcceptKeyword("LOCAL")) {
    out->scope = VarScope::kSession;
  }
  bool scoped = out->scope != VarScope::kDefault;
  bool filter = true;  // takes LIKE / WHERE
  bool like = true;    // SHOW INDEX takes WHERE only
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
  } else if (PeekKeyword("EVENTS") || PeekKeyword("TRIGGERS") ||
             (PeekKeyword("FULL") && PeekKeyword("TRIGGERS", 1))) {
    out->full = AcceptKeyword("FULL");
    out->kind = AcceptKeyword("EVENTS") ? ShowKind::kEvents : ShowKind::kTriggers;
    if (out->kind == ShowKind::kTriggers) Advance();  // TRIGGERS
    if (AcceptKeyword("FROM") || AcceptKeyword("IN")) {
      if (!ParseIdentifier(&out->from_database)) return false;
    }
  } else if (PeekKeyword("TABLE") && PeekKeyword("STATUS", 1)) {
    Advance();
    Advance();
    out->kind = ShowKind::kTableStatus;
    if (AcceptKeyword("FROM") || AcceptKeyword("IN")) {
      if (!ParseIdentifier(&out->from_database)) return false;
    }
  } else if (PeekKeyword("PROCESSLIST") || (PeekKeyword("FULL") && PeekKeyword("PROCESSLIST", 1))) {
    out->full = AcceptKeyword("FULL");
    Advance();  // PROCESSLIST
    out->kind = ShowKind::kProcessList;
    filter = false;  // MySQL takes neither LIKE nor WHERE here
  } else if ((PeekKeyword("PROCEDURE") || PeekKeyword("FUNCTION")) && PeekKeyword("STATUS", 1)) {
    out->kind = AcceptKeyword("PROCEDURE") ? ShowKind::kProcedureStatus : ShowKind::kFunctionStatus;
    if (out->kind == ShowKind::kFunctionStatus) Advance();  // FUNCTION
    Advance();                                              // STATUS
  } else if (AcceptKeyword("GRANTS")) {
    out->kind = ShowKind::kGrants;
    filter = false;
    out->account.current_user = true;
    if (AcceptKeyword("FOR")) {
      out->account.current_user = false;
      if (!ParseAccountName(*this, &out->account)) return false;
      if (PeekKeyword("USING")) return NotSupported("roles");
    }
  } else if (PeekKeyword("CREATE") && PeekKeyword("USER", 1)) {
    Advance();
    Advance();
    out->kind = ShowKind::kCreateUser;
    filter = false;
    if (!ParseAccountName(*this, &out->account)) return false;
  } else if (int m = ParseShowTableForm(*this, out, &filter, &like); m != 0) {
    if (m < 0) return false;
  } else {
    // SHOW CREATE TRIGGER, SHOW GRANTS…: named by their first words.
    std::string what = "SHOW";
    for (size_t i = 0; i < 2 && Peek(i).kind == TokenKind::kIdent; ++i) {
      absl::StrAppend(&what, " ", absl::AsciiStrToUpper(Peek(i).text));
      if (!IsKeyword(Peek(i), "CREATE") && !IsKeyword(Peek(i), "FULL")) break;
    }
    if (what == "SHOW") return Fail();
    return NotSupported(what);
  }
  if (filter) {
    if (like && AcceptKeyword("LIKE")) {
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
