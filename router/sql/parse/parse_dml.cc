// INSERT and REPLACE, UPDATE, DELETE, and the pieces SELECT shares with them (table names,
// ORDER BY), and INSERT's row alias (VALUES … AS new(a, b) ON DUPLICATE KEY UPDATE). PARTITION
// answers 1235.
//
// A multi-row INSERT is the bulk-load path (sysbench prepare sends 1000 rows a statement),
// so rows are parsed in one pass with no lookahead beyond a token or two.
#include <initializer_list>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

bool AcceptAnyKeyword(Parser& p, std::initializer_list<absl::string_view> words) {
  for (absl::string_view w : words) {
    if (p.AcceptKeyword(w)) return true;
  }
  return false;
}

bool IsName(const Token& t) {
  return t.kind == TokenKind::kIdent || t.kind == TokenKind::kQuotedIdent;
}

// After a dot MySQL's lexer takes any word as a name, reserved or not.
bool ParseNameAfterDot(Parser& p, std::string* out) {
  const Token& t = p.Peek();
  if (!IsName(t)) return p.Fail();
  *out = t.kind == TokenKind::kIdent ? std::string(t.text) : t.value;
  p.Advance();
  return true;
}

// [[db.]t.]column, keeping only the column: the statement names one table.
bool ParseColumnName(Parser& p, std::string* column, std::string* qualifier = nullptr) {
  if (!p.ParseIdentifier(column)) return false;
  for (int dots = 0; dots < 2 && p.Accept(TokenKind::kDot); ++dots) {
    if (qualifier != nullptr) *qualifier = *column;
    if (!ParseNameAfterDot(p, column)) return false;
  }
  return true;
}

// A table alias: an identifier, AS optional. EXCEPT and INTERSECT are reserved in MySQL
// 8.0.31, which the lexer's list predates.
bool ParseTableAlias(Parser& p, std::string* alias) {
  const Token& t = p.Peek();
  bool bare = t.kind == TokenKind::kQuotedIdent ||
              (t.kind == TokenKind::kIdent && !IsReservedWord(t.text) && !IsKeyword(t, "EXCEPT") &&
               !IsKeyword(t, "INTERSECT"));
  if (p.AcceptKeyword("AS") || bare) return p.ParseIdentifier(alias);
  return true;
}

// A value in VALUES, SET or ON DUPLICATE KEY UPDATE: an expression, or DEFAULT on its own
// (DEFAULT(col) is a function).
ExprPtr ParseValue(Parser& p) {
  if (p.PeekKeyword("DEFAULT") && p.Peek(1).kind != TokenKind::kLParen) {
    p.Advance();
    return MakeExpr(ExprKind::kDefault);
  }
  return p.ParseExpr();
}

// (value, …), (…) … after VALUES. `()` is an empty row (every column takes its default).
bool ParseRows(Parser& p, std::vector<std::vector<ExprPtr>>* rows) {
  if (p.PeekKeyword("ROW")) return p.NotSupported("VALUES ROW()");
  do {
    if (!p.Expect(TokenKind::kLParen)) return false;
    size_t width = rows->empty() ? 0 : rows->front().size();
    std::vector<ExprPtr>& row = rows->emplace_back();
    if (p.Accept(TokenKind::kRParen)) continue;
    row.reserve(width);
    do {
      ExprPtr value = ParseValue(p);
      if (!value) return false;
      row.push_back(std::move(value));
    } while (p.Accept(TokenKind::kComma));
    if (!p.Expect(TokenKind::kRParen)) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// `(` SELECT …, SELECT …, TABLE t, WITH …: INSERT's query forms.
bool StartsInsertQuery(const Parser& p, size_t ahead) {
  return p.PeekKeyword("SELECT", ahead) || p.PeekKeyword("WITH", ahead) ||
         p.PeekKeyword("TABLE", ahead) || p.Peek(ahead).kind == TokenKind::kLParen;
}

// INSERT … SET a = 1, b = DEFAULT: the same as (a, b) VALUES (1, DEFAULT).
bool ParseInsertSet(Parser& p, InsertStmt* out) {
  std::vector<Assignment> set;
  if (!ParseAssignments(p, &set)) return false;
  std::vector<ExprPtr>& row = out->rows.emplace_back();
  for (Assignment& a : set) {
    out->columns.push_back(std::move(a.column));
    row.push_back(std::move(a.value));
  }
  return true;
}

// After VALUES … or SET … AS: new [(a, b, …)]. A column alias written twice is 1060, as a
// derived table's.
bool ParseInsertRowAlias(Parser& p, InsertStmt* out) {
  if (!p.ParseIdentifier(&out->row_alias)) return false;
  if (!p.Accept(TokenKind::kLParen)) return true;
  do {
    std::string name;
    if (!p.ParseIdentifier(&name)) return false;
    for (const std::string& seen : out->column_aliases) {
      if (absl::EqualsIgnoreCase(seen, name)) {
        return p.FailWith(
            mysql::SqlError{1060, "42S21", absl::StrCat("Duplicate column name '", name, "'")});
      }
    }
    out->column_aliases.push_back(std::move(name));
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

// After the table: SET …, or [(columns)] VALUES|VALUE rows.
bool ParseInsertSource(Parser& p, InsertStmt* out) {
  if (p.AcceptKeyword("SET")) return ParseInsertSet(p, out);
  if (p.Peek().kind == TokenKind::kLParen && !StartsInsertQuery(p, 1)) {
    p.Advance();
    if (!p.Accept(TokenKind::kRParen)) {
      do {
        if (!ParseColumnName(p, &out->columns.emplace_back())) return false;
      } while (p.Accept(TokenKind::kComma));
      if (!p.Expect(TokenKind::kRParen)) return false;
    }
  }
  if (p.AcceptKeyword("VALUES") || p.AcceptKeyword("VALUE")) return ParseRows(p, &out->rows);
  if (p.PeekKeyword("SELECT") || p.PeekKeyword("WITH") || p.StartsParenthesizedQuery(0)) {
    out->select = std::make_unique<SelectStmt>();
    return p.ParseQuery(out->select.get());
  }
  if (!StartsInsertQuery(p, 0)) return p.Fail();
  return p.NotSupported(out->replace ? "REPLACE ... (SELECT …)" : "INSERT ... (SELECT …)");
}

// t1[.*], t2[.*] …: the tables a multi-table DELETE deletes from.
bool ParseDeleteTargets(Parser& p, std::vector<TableName>* targets) {
  do {
    if (!p.ParseTableName(&targets->emplace_back())) return false;
    if (p.Accept(TokenKind::kDot) && !p.Expect(TokenKind::kStar)) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// The tables a multi-table DELETE finds its rows in (a base table first, then joins), and its
// WHERE; ORDER BY and LIMIT are not allowed there, as in MySQL.
bool ParseMultiDeleteTables(Parser& p, DeleteStmt* out) {
  if (!p.ParseTableName(&out->table) || !ParseTableAlias(p, &out->alias)) return false;
  if (!p.ParseJoins(&out->joins)) return false;
  if (p.AcceptKeyword("WHERE") && !(out->where = p.ParseExpr())) return false;
  if (p.PeekKeyword("ORDER") || p.PeekKeyword("LIMIT")) {
    return p.NotSupported("ORDER BY or LIMIT in a multi-table DELETE");
  }
  return true;
}

// LIMIT row_count: UPDATE and DELETE take no offset.
bool ParseRowCount(Parser& p, std::optional<Limit>* limit) {
  if (!p.AcceptKeyword("LIMIT")) return true;
  TokenKind k = p.Peek().kind;
  if (k != TokenKind::kParam && k != TokenKind::kInteger) return p.Fail();
  limit->emplace().count = k == TokenKind::kParam ? p.ParseParam() : p.ParseLiteral();
  return (*limit)->count != nullptr;
}

// [WHERE expr] [ORDER BY …] [LIMIT n]: the tail of single-table UPDATE and DELETE.
bool ParseWhereOrderLimit(Parser& p, ExprPtr* where, std::vector<OrderItem>* order_by,
                          std::optional<Limit>* limit) {
  if (p.AcceptKeyword("WHERE") && !(*where = p.ParseExpr())) return false;
  if (p.AcceptKeyword("ORDER") && !(p.ExpectKeyword("BY") && p.ParseOrderBy(order_by))) {
    return false;
  }
  return ParseRowCount(p, limit);
}

// What follows a table in UPDATE t1, t2 … / UPDATE t1 JOIN t2 ….
bool StartsJoin(const Parser& p) {
  static constexpr absl::string_view kWords[] = {"JOIN",  "INNER",         "CROSS",  "LEFT",
                                                 "RIGHT", "STRAIGHT_JOIN", "NATURAL"};
  if (p.Peek().kind == TokenKind::kComma) return true;
  for (absl::string_view w : kWords) {
    if (p.PeekKeyword(w)) return true;
  }
  return false;
}

}  // namespace

// column = value, … (`:=` works too, as in MySQL).
bool ParseAssignments(Parser& p, std::vector<Assignment>* out) {
  do {
    Assignment& a = out->emplace_back();
    if (!ParseColumnName(p, &a.column, &a.qualifier)) return false;
    if (!p.Accept(TokenKind::kEq) && !p.Expect(TokenKind::kAssign)) return false;
    a.value = ParseValue(p);
    if (!a.value) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// INSERT [LOW_PRIORITY|DELAYED|HIGH_PRIORITY] [IGNORE] [INTO] t source [ON DUPLICATE KEY
// UPDATE …]; REPLACE [LOW_PRIORITY|DELAYED] [INTO] t source.
bool Parser::ParseInsert(InsertStmt* out) {
  out->replace = PeekKeyword("REPLACE");
  Advance();
  if (out->replace) {
    AcceptAnyKeyword(*this, {"LOW_PRIORITY", "DELAYED"});
  } else {
    AcceptAnyKeyword(*this, {"LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY"});
    out->ignore = AcceptKeyword("IGNORE");
  }
  AcceptKeyword("INTO");
  if (!ParseTableName(&out->table)) return false;
  if (PeekKeyword("PARTITION")) return NotSupported("PARTITION");
  if (!ParseInsertSource(*this, out)) return false;
  if (AcceptKeyword("AS")) {
    // A query's rows are named by its own select list, and REPLACE has nothing to read them
    // in: the alias is for INSERT's VALUES and SET.
    if (out->select != nullptr || out->replace) return Fail();
    if (!ParseInsertRowAlias(*this, out)) return false;
  }
  if (out->replace || !AcceptKeyword("ON")) return true;
  return ExpectKeyword("DUPLICATE") && ExpectKeyword("KEY") && ExpectKeyword("UPDATE") &&
         ParseAssignments(*this, &out->on_duplicate);
}

// UPDATE [LOW_PRIORITY] [IGNORE] t [[AS] alias] SET … [WHERE …] [ORDER BY …] [LIMIT n]
bool Parser::ParseUpdate(UpdateStmt* out) {
  Advance();  // UPDATE
  AcceptKeyword("LOW_PRIORITY");
  out->ignore = AcceptKeyword("IGNORE");
  if (Peek().kind == TokenKind::kLParen) return NotSupported("UPDATE with several tables");
  if (!ParseTableName(&out->table)) return false;
  if (PeekKeyword("PARTITION")) return NotSupported("PARTITION");
  if (!ParseTableAlias(*this, &out->alias)) return false;
  if (PeekKeyword("USE") || PeekKeyword("FORCE") || PeekKeyword("IGNORE")) {
    return NotSupported("index hints in UPDATE");
  }
  if (StartsJoin(*this) && !ParseJoins(&out->joins)) return false;
  if (!ExpectKeyword("SET") || !ParseAssignments(*this, &out->set)) return false;
  if (!ParseWhereOrderLimit(*this, &out->where, &out->order_by, &out->limit)) return false;
  if (!out->joins.empty() && (!out->order_by.empty() || out->limit)) {
    return NotSupported("ORDER BY or LIMIT in a multi-table UPDATE");
  }
  return true;
}

// DELETE [LOW_PRIORITY] [QUICK] [IGNORE] FROM t [[AS] alias] [WHERE …] [ORDER BY …]
// [LIMIT n]. The multi-table forms (DELETE t1 FROM …, DELETE FROM t1 USING …) answer 1235.
bool Parser::ParseDelete(DeleteStmt* out) {
  Advance();  // DELETE
  for (;;) {  // the options come in any order
    if (AcceptKeyword("IGNORE")) {
      out->ignore = true;
    } else if (!AcceptAnyKeyword(*this, {"LOW_PRIORITY", "QUICK"})) {
      break;
    }
  }
  if (!PeekKeyword("FROM")) {  // DELETE t1[.*], … FROM tables …
    if (!IsName(Peek()) || !ParseDeleteTargets(*this, &out->targets)) return Fail();
    return ExpectKeyword("FROM") && ParseMultiDeleteTables(*this, out);
  }
  Advance();  // FROM
  if (!ParseTableName(&out->table)) return false;
  if (Peek().kind == TokenKind::kDot || Peek().kind == TokenKind::kComma || PeekKeyword("USING")) {
    // DELETE FROM t1[.*], … USING tables …
    out->targets.push_back(std::move(out->table));
    out->table = {};
    if (Accept(TokenKind::kDot) && !Expect(TokenKind::kStar)) return false;
    if (Accept(TokenKind::kComma) && !ParseDeleteTargets(*this, &out->targets)) return false;
    return ExpectKeyword("USING") && ParseMultiDeleteTables(*this, out);
  }
  if (!ParseTableAlias(*this, &out->alias)) return false;
  if (PeekKeyword("PARTITION")) return NotSupported("PARTITION");
  return ParseWhereOrderLimit(*this, &out->where, &out->order_by, &out->limit);
}

// After ORDER BY: expr [ASC|DESC], …. An integer literal stays a literal: the executor
// reads it as a select-list position.
bool Parser::ParseOrderBy(std::vector<OrderItem>* out) {
  do {
    OrderItem& item = out->emplace_back();
    item.expr = ParseExpr();
    if (!item.expr) return false;
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
  } while (Accept(TokenKind::kComma));
  return true;
}

// [db.]name. A dot followed by `*` is left unread, for DELETE's `t.*` to report.
bool Parser::ParseTableName(TableName* out) {
  if (!ParseIdentifier(&out->name)) return false;
  if (Peek().kind != TokenKind::kDot || Peek(1).kind == TokenKind::kStar) return true;
  Advance();
  out->database = std::move(out->name);
  return ParseNameAfterDot(*this, &out->name);
}

}  // namespace shoal::sql::internal
