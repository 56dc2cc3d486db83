// SELECT: options, the select list with aliases and `*`/`t.*`, FROM tables and derived tables
// joined left to right (or DUAL, or nothing), WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and
// the locking clause; UNION, INTERSECT and EXCEPT (parenthesized parts: parse_parenthesized.cc).
// Parenthesized joins but at the left of FROM answer 1235; so do GROUP BY, HAVING and ORDER BY
// without a table, which the executor does not run, and SELECT INTO OUTFILE or DUMPFILE.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// Select options MySQL accepts and that change nothing here (DISTINCT is kept).
bool IsIgnoredSelectOption(const Token& t) {
  static constexpr absl::string_view kOptions[] = {"ALL",
                                                   "HIGH_PRIORITY",
                                                   "STRAIGHT_JOIN",
                                                   "SQL_SMALL_RESULT",
                                                   "SQL_BIG_RESULT",
                                                   "SQL_BUFFER_RESULT",
                                                   "SQL_NO_CACHE",
                                                   "SQL_CACHE"};
  for (absl::string_view o : kOptions) {
    if (IsKeyword(t, o)) return true;
  }
  return false;
}

// Options in any order, as MySQL takes them.
void ParseSelectOptions(Parser& p, SelectStmt* out) {
  for (;;) {
    if (p.AcceptKeyword("DISTINCT") || p.AcceptKeyword("DISTINCTROW")) {
      out->distinct = true;
    } else if (p.AcceptKeyword("SQL_CALC_FOUND_ROWS")) {
      out->calc_found_rows = true;
    } else if (IsIgnoredSelectOption(p.Peek())) {
      p.Advance();
    } else {
      return;
    }
  }
}

bool IsName(const Token& t) {
  return t.kind == TokenKind::kIdent || t.kind == TokenKind::kQuotedIdent;
}

// An unquoted word that may be an alias without AS. MySQL 8.0.31 reserves EXCEPT and
// INTERSECT, which the lexer's list predates; without them `SELECT 1 EXCEPT …` would alias.
bool IsBareAlias(const Token& t) {
  if (t.kind == TokenKind::kQuotedIdent) return true;
  return t.kind == TokenKind::kIdent && !IsReservedWord(t.text) && !IsKeyword(t, "EXCEPT") &&
         !IsKeyword(t, "INTERSECT");
}

bool StartsJoin(const Parser& p) {
  static constexpr absl::string_view kWords[] = {"JOIN",  "INNER",         "CROSS",  "LEFT",
                                                 "RIGHT", "STRAIGHT_JOIN", "NATURAL"};
  if (p.Peek().kind == TokenKind::kComma) return true;
  for (absl::string_view w : kWords) {
    if (p.PeekKeyword(w)) return true;
  }
  return false;
}

// `t.*` or `db.t.*`, which only the select list allows.
bool IsQualifiedStar(const Parser& p) {
  if (!IsName(p.Peek()) || p.Peek(1).kind != TokenKind::kDot) return false;
  if (p.Peek(2).kind == TokenKind::kStar) return true;
  return IsName(p.Peek(2)) && p.Peek(3).kind == TokenKind::kDot &&
         p.Peek(4).kind == TokenKind::kStar;
}

// REQUIRES: IsQualifiedStar(p).
bool ParseQualifiedStar(Parser& p, SelectItem* item) {
  item->name = "*";
  if (!p.ParseIdentifier(&item->star_qualifier)) return false;  // reserved words need ``
  p.Advance();                                                  // .
  if (p.Peek().kind != TokenKind::kStar) {  // the first name was the database: drop it
    const Token& table = p.Advance();
    item->star_qualifier = table.kind == TokenKind::kIdent ? std::string(table.text) : table.value;
    p.Advance();  // .
  }
  p.Advance();  // *
  return true;
}

// One select item: `*` (first only, as in MySQL), `[db.]t.*`, or expr [[AS] alias].
bool ParseSelectItem(Parser& p, bool first, SelectItem* item) {
  if (first && p.Accept(TokenKind::kStar)) {
    item->name = "*";
    return true;
  }
  if (IsQualifiedStar(p)) return ParseQualifiedStar(p, item);
  size_t start = p.pos();
  item->expr = p.ParseExpr();
  if (!item->expr) return false;
  // MySQL names a bare string literal column by its value, anything else by its text.
  item->name = item->expr->kind == ExprKind::kLiteral && item->expr->literal == LiteralKind::kString
                   ? item->expr->text
                   : p.SourceText(start);
  const Token& t = p.Peek();
  if (p.AcceptKeyword("AS")) {
    item->has_alias = true;
    return p.ParseNameOrString(&item->name);
  }
  if (t.kind == TokenKind::kString || IsBareAlias(t)) {
    item->name = t.kind == TokenKind::kIdent ? std::string(t.text) : t.value;
    item->has_alias = true;
    p.Advance();
  }
  return true;
}

// A table alias: identifiers only (no strings), AS optional.
bool ParseTableAlias(Parser& p, std::string* alias) {
  if (p.AcceptKeyword("AS") || IsBareAlias(p.Peek())) return p.ParseIdentifier(alias);
  return true;
}

// An index name in a hint; PRIMARY (reserved, and case-insensitive as index names are) is
// upper-cased so the executor compares one spelling.
bool ParseIndexName(Parser& p, std::string* name) {
  if (p.AcceptKeyword("PRIMARY")) {
    *name = "PRIMARY";
    return true;
  }
  if (!p.ParseIdentifier(name)) return false;
  if (absl::EqualsIgnoreCase(*name, "PRIMARY")) *name = "PRIMARY";
  return true;
}

// {USE|FORCE|IGNORE} {INDEX|KEY} [FOR {JOIN|ORDER BY|GROUP BY}] (name, …), repeated. Only
// the first name of the first USE/FORCE hint is kept: one table has one access path; IGNORE
// changes no result.
bool ParseIndexHints(Parser& p, std::string* hint) {
  while (p.PeekKeyword("USE") || p.PeekKeyword("FORCE") || p.PeekKeyword("IGNORE")) {
    bool is_use = p.PeekKeyword("USE");
    bool keep = !p.PeekKeyword("IGNORE") && hint->empty();
    p.Advance();
    if (!p.AcceptKeyword("INDEX") && !p.ExpectKeyword("KEY")) return false;
    if (p.AcceptKeyword("FOR") && !p.AcceptKeyword("JOIN")) {
      if (!p.AcceptKeyword("ORDER") && !p.ExpectKeyword("GROUP")) return false;
      if (!p.ExpectKeyword("BY")) return false;
    }
    if (!p.Expect(TokenKind::kLParen)) return false;
    if (is_use && p.Accept(TokenKind::kRParen)) continue;  // USE INDEX (): no index
    do {
      std::string name;
      if (!ParseIndexName(p, &name)) return false;
      if (keep && hint->empty()) *hint = std::move(name);
    } while (p.Accept(TokenKind::kComma));
    if (!p.Expect(TokenKind::kRParen)) return false;
  }
  return true;
}

// [db.]t [PARTITION (…)] [[AS] alias] [index hints]
bool ParseBaseTable(Parser& p, TableRef* ref) {
  if ((p.PeekKeyword("LATERAL") || p.PeekKeyword("JSON_TABLE")) &&
      p.Peek(1).kind == TokenKind::kLParen) {
    return p.NotSupported(absl::AsciiStrToUpper(p.Peek().text));
  }
  if (!p.ParseTableName(&ref->table)) return false;
  if (p.PeekKeyword("PARTITION")) return p.NotSupported("PARTITION");
  if (ref->table.database.empty() && p.IsCommonTable(ref->table.name)) {
    return ParseTableAlias(p, &ref->alias) && p.ExpandCommonTable(ref);
  }
  return ParseTableAlias(p, &ref->alias) && ParseIndexHints(p, &ref->index_hint);
}

// (SELECT …) [AS] alias [(column, …)]. A missing alias is left for ParseSelect to answer 1248.
bool ParseDerivedTable(Parser& p, TableRef* ref) {
  if (!p.StartsParenthesizedQuery(0)) {
    bool query = p.PeekKeyword("VALUES", 1) || p.PeekKeyword("TABLE", 1);
    return p.NotSupported(query ? absl::AsciiStrToUpper(p.Peek(1).text) + " in a derived table"
                                : "parenthesized table references");
  }
  ref->derived = std::make_unique<SelectStmt>();
  if (!p.ParseQueryInParens(ref->derived.get())) return false;
  if (!p.RefuseNestedCalcFoundRows(*ref->derived)) return false;
  if (!ParseTableAlias(p, &ref->alias)) return false;
  if (p.Peek().kind != TokenKind::kLParen) return true;
  std::vector<std::string> columns;
  return ParseColumnList(p, &columns) && NameQueryColumns(p, columns, ref->derived.get());
}

bool ParseTableRef(Parser& p, TableRef* ref) {
  return p.Peek().kind == TokenKind::kLParen ? ParseDerivedTable(p, ref) : ParseBaseTable(p, ref);
}

// One join after the tables before it (StartsJoin is true).
bool ParseJoin(Parser& p, JoinClause* join) {
  if (p.Accept(TokenKind::kComma)) return ParseTableRef(p, &join->table);
  join->natural = p.AcceptKeyword("NATURAL");
  bool outer = false;
  if (!join->natural && p.AcceptKeyword("STRAIGHT_JOIN")) {
    join->straight = true;
  } else {
    if (p.AcceptKeyword("LEFT")) {
      join->kind = JoinKind::kLeft;
      outer = true;
    } else if (p.AcceptKeyword("RIGHT")) {
      join->kind = JoinKind::kRight;
      outer = true;
    } else if (!p.AcceptKeyword("INNER") && !join->natural) {
      p.AcceptKeyword("CROSS");
    }
    if (outer) p.AcceptKeyword("OUTER");
    if (!p.ExpectKeyword("JOIN")) return false;
  }
  if (!ParseTableRef(p, &join->table)) return false;
  if (join->natural) return true;  // its condition is the columns both sides name
  if (p.AcceptKeyword("ON")) return (join->on = p.ParseExpr()) != nullptr;
  if (!join->straight && p.AcceptKeyword("USING")) return ParseColumnList(p, &join->using_columns);
  return !outer || p.Fail();  // an outer join needs its condition
}

// After FROM: DUAL (no table), or tables and derived tables joined left to right. Derived
// tables computed first (DerivedRunsFirst) count as subqueries for Statement::has_subqueries.
// The first table of FROM and the joins after it, or a parenthesized group of them at the left
// of the joins that follow: `(a JOIN b ON …) JOIN c ON …`, as MySQL and MariaDB print a view's
// joins, is that join unparenthesized (joins are left-deep). A group elsewhere answers 1235.
bool ParseTablesAndJoins(Parser& p, SelectStmt* select) {
  if (p.Peek().kind == TokenKind::kLParen && !p.StartsParenthesizedQuery(0) &&
      !PeekAny(p, {"VALUES", "TABLE"}, 1)) {
    Parser::DepthGuard depth(&p);
    if (!depth.ok()) return false;
    p.Advance();  // (
    if (!ParseTablesAndJoins(p, select) || !p.Expect(TokenKind::kRParen)) return false;
  } else if (!ParseTableRef(p, &select->from.emplace())) {
    return false;
  }
  while (StartsJoin(p)) {
    if (!ParseJoin(p, &select->joins.emplace_back())) return false;
  }
  return true;
}

bool ParseFrom(Parser& p, SelectStmt* select) {
  if (p.AcceptKeyword("DUAL")) return true;
  if (!ParseTablesAndJoins(p, select)) return false;
  const TableRef& from = *select->from;
  bool first = (from.derived && DerivedRunsFirst(*select, *from.derived)) ||
               std::any_of(select->joins.begin(), select->joins.end(),
                           [](const JoinClause& join) { return join.table.derived != nullptr; });
  if (first) p.NoteComputedFirst();
  return true;
}

// After GROUP: BY expr, … [WITH ROLLUP].
bool ParseGroupBy(Parser& p, SelectStmt* select) {
  if (!p.ExpectKeyword("BY")) return false;
  do {
    ExprPtr e = p.ParseExpr();
    if (!e) return false;
    select->group_by.push_back(std::move(e));
  } while (p.Accept(TokenKind::kComma));
  if (!p.AcceptKeyword("WITH")) return true;
  select->rollup = true;
  return p.ExpectKeyword("ROLLUP");
}

// At INTO: @a, @b, … into `into`. `allowed`: the SELECT is the statement's own (or a part of
// its UNION), else 3954 as in MySQL 8.0; a name without @ would be a stored program's variable
// (1327).
bool ParseInto(Parser& p, bool allowed, std::vector<std::string>* into) {
  if (!allowed || !into->empty()) {
    return p.FailWith({3954, "HY000",
                       "Misplaced INTO clause, INTO is not allowed inside subqueries, and must be "
                       "placed at end of UNION clauses."});
  }
  p.Advance();  // INTO
  if (p.PeekKeyword("OUTFILE") || p.PeekKeyword("DUMPFILE")) {
    return p.NotSupported("SELECT INTO OUTFILE");
  }
  do {
    if (p.Peek().kind == TokenKind::kIdent) {
      return p.FailWith({1327, "42000", absl::StrCat("Undeclared variable: ", p.Peek().text)});
    }
    if (p.Peek().kind != TokenKind::kUserVar) return p.Fail();
    into->push_back(p.Advance().value);
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// FOR UPDATE | FOR SHARE [OF t, …] | LOCK IN SHARE MODE, or nothing. OF's tables are only
// read: every table the statement reads is locked, a superset of what OF asks for (Hibernate
// writes OF with the statement's one table). Then NOWAIT or SKIP LOCKED (job queues: Laravel's,
// Symfony Messenger's and Rails' Solid Queue take their next job with SKIP LOCKED).
bool ParseLockingClause(Parser& p, LockMode* lock, LockWait* wait) {
  if (p.AcceptKeyword("LOCK")) {
    *lock = LockMode::kShare;
    return p.ExpectKeyword("IN") && p.ExpectKeyword("SHARE") && p.ExpectKeyword("MODE");
  }
  if (!p.AcceptKeyword("FOR")) return true;
  if (p.AcceptKeyword("UPDATE")) {
    *lock = LockMode::kForUpdate;
  } else if (p.AcceptKeyword("SHARE")) {
    *lock = LockMode::kShare;
  } else {
    return p.Fail();
  }
  if (p.AcceptKeyword("OF")) {
    do {
      std::string table;
      if (!p.ParseIdentifier(&table)) return false;
    } while (p.Accept(TokenKind::kComma));
  }
  if (p.AcceptKeyword("NOWAIT")) {
    *wait = LockWait::kNoWait;
  } else if (p.PeekKeyword("SKIP") && p.PeekKeyword("LOCKED", 1)) {
    p.Advance();
    p.Advance();
    *wait = LockWait::kSkipLocked;
  }
  return true;
}

}  // namespace

bool Parser::ParseSelect(SelectStmt* out) {
  DepthGuard depth(this);
  if (!depth.ok()) return false;
  const size_t scope = common_tables_.size();
  const bool into_allowed = into_allowed_;
  into_allowed_ = false;  // not in the common tables' SELECTs
  bool ok = !PeekKeyword("WITH") || ParseWith();
  into_allowed_ = into_allowed;
  ok = ok && ParseSelectBody(out);
  common_tables_.resize(scope);
  return ok;
}

bool Parser::ParseSelectBody(SelectStmt* out) {
  Advance();  // SELECT
  const bool into_allowed = into_allowed_;
  into_allowed_ = false;  // not in the SELECTs nested in this one
  const WindowMarks windows = window_marks();
  ParseSelectOptions(*this, out);
  do {
    bool first = out->items.empty();
    if (!ParseSelectItem(*this, first, &out->items.emplace_back())) return false;
  } while (Accept(TokenKind::kComma));

  if (PeekKeyword("INTO") && !ParseInto(*this, into_allowed, &out->into)) return false;
  if (AcceptKeyword("FROM")) {
    if (!ParseFrom(*this, out)) return false;
    bool unnamed = out->from && out->from->derived && out->from->alias.empty();
    for (const JoinClause& join : out->joins) {
      unnamed = unnamed || (join.table.derived && join.table.alias.empty());
    }
    if (unnamed) {
      if (!error_) error_ = mysql::errors::DerivedTableNeedsAlias();
      return false;
    }
  }
  if (AcceptKeyword("WHERE") && !(out->where = ParseExpr())) return false;
  // A UNION's last SELECT is followed by the union's own ORDER BY, which it may well have.
  if (!out->from &&
      (PeekKeyword("GROUP") || PeekKeyword("HAVING") || (PeekKeyword("ORDER") && !in_union_))) {
    return NotSupported(absl::AsciiStrToUpper(Peek().text) + " without tables");
  }
  if (AcceptKeyword("GROUP") && !ParseGroupBy(*this, out)) return false;
  if (AcceptKeyword("HAVING") && !(out->having = ParseExpr())) return false;
  if (AcceptKeyword("WINDOW") && !ParseWindowClause()) return false;
  // A UNION's ORDER BY is the whole union's: it has no windows of this SELECT's.
  if (StartsSetOperation(*this)) {
    if (!ResolveWindows(windows)) return false;
    into_allowed_ = into_allowed;
    const bool parsed = ParseUnion(out);
    into_allowed_ = false;
    // The union's LIMIT is its tail's, so is what SQL_CALC_FOUND_ROWS counts before it.
    if (parsed && out->calc_found_rows && out->union_tail) {
      out->calc_found_rows = false;
      out->union_tail->calc_found_rows = true;
    }
    // A part's own UNION is flattened into this one's (ParseUnion): the outermost looks.
    return parsed && (in_union_ || IntoAfterUnion(out));
  }
  if (AcceptKeyword("ORDER") && !(ExpectKeyword("BY") && ParseOrderBy(&out->order_by))) {
    return false;
  }
  if (AcceptKeyword("LIMIT") && !ParseLimit(&out->limit.emplace())) return false;
  if (PeekKeyword("INTO") && !ParseInto(*this, into_allowed, &out->into)) return false;
  if (!ParseLockingClause(*this, &out->lock, &out->lock_wait)) return false;
  if (PeekKeyword("INTO") && !ParseInto(*this, into_allowed, &out->into)) return false;
  return ResolveWindows(windows);
}

// A UNION's INTO is written after its last SELECT and sets the variables from the whole; one
// anywhere else is misplaced (3954).
bool Parser::IntoAfterUnion(SelectStmt* first) {
  for (size_t i = 0; i < first->unions.size(); ++i) {
    std::vector<std::string>& into = first->unions[i].select->into;
    if (into.empty() && first->into.empty()) continue;
    if (i + 1 < first->unions.size() || !first->into.empty()) {
      return FailWith({3954, "HY000",
                       "Misplaced INTO clause, INTO is not allowed inside subqueries, and must be "
                       "placed at end of UNION clauses."});
    }
    first->into = std::move(into);
    into.clear();
  }
  return true;
}

// At UNION after a SELECT's HAVING: the SELECTs after it, and the ORDER BY and LIMIT after the
// last, which apply to the whole. The next SELECT is parsed whole — its own UNION included, so
// the chain nests to the right — and then flattened into `first`.
bool Parser::ParseJoins(std::vector<JoinClause>* joins) {
  while (StartsJoin(*this)) {
    if (!ParseJoin(*this, &joins->emplace_back())) return false;
  }
  return true;
}

bool Parser::ParseUnion(SelectStmt* first) {
  while (StartsSetOperation(*this)) {
    SelectStmt::UnionPart& part = first->unions.emplace_back();
    using SetOp = SelectStmt::SetOp;
    part.op = PeekKeyword("INTERSECT") ? SetOp::kIntersect
              : PeekKeyword("EXCEPT")  ? SetOp::kExcept
                                       : SetOp::kUnion;
    Advance();
    part.all = AcceptKeyword("ALL");
    if (!part.all) AcceptKeyword("DISTINCT");
    part.select = std::make_unique<SelectStmt>();
    if (Peek().kind == TokenKind::kLParen) {
      // `(SELECT … ORDER BY … LIMIT …)`: its own ORDER BY and LIMIT stay its own; those after
      // the `)` that ends the union are the whole union's.
      SelectStmt query;
      if (!ParseQueryInParens(&query)) return false;
      *part.select = AsSetOperand(std::move(query));
      if (StartsSetOperation(*this) || (!PeekKeyword("ORDER") && !PeekKeyword("LIMIT"))) continue;
      first->union_tail = std::make_unique<SelectStmt>();
      first->union_tail->items.emplace_back().name = "*";
      return ParseOrderAndLimit(first->union_tail.get());
    }
    if (!PeekKeyword("SELECT")) return Fail();
    bool outer_union = in_union_;
    in_union_ = true;
    bool parsed = ParseSelect(part.select.get());
    in_union_ = outer_union;
    if (!parsed) return false;
    SelectStmt& next = *part.select;
    if (!next.unions.empty()) {
      for (SelectStmt::UnionPart& more : next.unions) first->unions.push_back(std::move(more));
      next.unions.clear();
      first->union_tail = std::move(next.union_tail);
      return true;
    }
    if (!next.order_by.empty() || next.limit) {
      first->union_tail = std::make_unique<SelectStmt>();
      first->union_tail->items.emplace_back().name = "*";
      first->union_tail->order_by = std::move(next.order_by);
      first->union_tail->limit = std::move(next.limit);
      next.order_by.clear();
      next.limit.reset();
    }
  }
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
