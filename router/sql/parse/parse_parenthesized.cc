// Queries in parentheses, as MySQL 8.0 takes them: `(SELECT …)` as a statement, as a part of a
// UNION, INTERSECT or EXCEPT, as a subquery and as a derived table, each with its own ORDER BY
// and LIMIT; an ORDER BY and LIMIT written after the `)` order and limit the query's result.
// Nothing new reaches the executor: a parenthesized query becomes the SELECT it holds, its
// ORDER BY and LIMIT merged with the outer ones where that means the same, and otherwise (a
// UNION standing as one operand of another, a LIMIT then an ORDER BY over it) a `SELECT *`
// over it as a derived table.
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// The token after the `)` that closes the `(` at `ahead`; 0 when it is never closed.
size_t AfterClosingParen(const Parser& p, size_t ahead) {
  int depth = 0;
  for (size_t i = ahead;; ++i) {
    const TokenKind kind = p.Peek(i).kind;
    if (kind == TokenKind::kEnd || kind == TokenKind::kError) return 0;
    if (kind == TokenKind::kLParen) {
      ++depth;
    } else if (kind == TokenKind::kRParen && --depth == 0) {
      return i + 1;
    }
  }
}

// A query in parentheses may be followed, inside the parentheses around it, by these only.
bool ContinuesQuery(const Parser& p, size_t ahead) {
  return p.Peek(ahead).kind == TokenKind::kRParen ||
         PeekAny(p, {"UNION", "EXCEPT", "INTERSECT", "ORDER", "LIMIT"}, ahead);
}

// `SELECT * FROM (query) AS <name>`: `query` as one SELECT, when it cannot merge into the
// SELECT or UNION around it. The name is never seen: nothing outside can qualify a column by it.
SelectStmt OverDerived(Parser& p, SelectStmt query) {
  SelectStmt outer;
  outer.items.emplace_back().name = "*";
  TableRef& from = outer.from.emplace();
  from.alias = "parenthesized_query";
  from.derived = std::make_unique<SelectStmt>(std::move(query));
  if (DerivedRunsFirst(outer, *from.derived)) p.NoteComputedFirst();
  return outer;
}

bool StartsOrderOrLimit(const Parser& p) {
  return p.PeekKeyword("ORDER") || p.PeekKeyword("LIMIT");
}

}  // namespace

bool StartsSetOperation(const Parser& p) {
  return p.PeekKeyword("UNION") || p.PeekKeyword("EXCEPT") || p.PeekKeyword("INTERSECT");
}

// `(` opens a query when SELECT or WITH follows it, or when it opens a `(` that does and that
// query continues as a query does (set operations, ORDER BY, LIMIT, `)`): `((SELECT 1) + 1)` is
// an expression, `((SELECT 1) UNION (SELECT 2))` a query. Innermost first.
bool Parser::StartsParenthesizedQuery(size_t ahead) const {
  // Deeper than any statement parses (DepthGuard): taken as a query, whose parse then stops
  // with MySQL's "memory exhausted" — without looking through every parenthesis for each.
  constexpr size_t kDeepest = 256;
  size_t inner = ahead;
  while (Peek(inner).kind == TokenKind::kLParen) {
    if (++inner - ahead > kDeepest) return true;
  }
  if (inner == ahead || (!PeekKeyword("SELECT", inner) && !PeekKeyword("WITH", inner))) {
    return false;
  }
  for (size_t open = inner - 1; open > ahead; --open) {
    const size_t after = AfterClosingParen(*this, open);
    if (after == 0 || !ContinuesQuery(*this, after)) return false;
  }
  return true;
}

bool Parser::ParseQuery(SelectStmt* out) {
  if (Peek().kind != TokenKind::kLParen) {
    if (!PeekKeyword("SELECT") && !PeekKeyword("WITH")) return Fail();
    return ParseSelect(out);
  }
  DepthGuard depth(this);
  if (!depth.ok()) return false;
  SelectStmt query;
  if (!ParseQueryInParens(&query)) return false;
  if (StartsSetOperation(*this)) {
    *out = AsSetOperand(std::move(query));
    return ParseUnion(out);
  }
  if (!StartsOrderOrLimit(*this)) {
    *out = std::move(query);
    return true;
  }
  // ORDER BY and LIMIT over the query's result: the query's own (its UNION's tail's) when it
  // has no LIMIT of its own, since an ORDER BY without LIMIT under another changes nothing.
  SelectStmt* own = query.unions.empty() ? &query : query.union_tail.get();
  if (!query.unions.empty() && own == nullptr) {
    query.union_tail = std::make_unique<SelectStmt>();
    query.union_tail->items.emplace_back().name = "*";
    own = query.union_tail.get();
  }
  // A SELECT without tables takes no ORDER BY of its own (ParseSelectBody): it goes over it.
  const bool merges = !own->limit && (own->from || !query.unions.empty() || PeekKeyword("LIMIT"));
  *out = merges ? std::move(query) : OverDerived(*this, std::move(query));
  SelectStmt* target = merges ? (out->unions.empty() ? out : out->union_tail.get()) : out;
  return ParseOrderAndLimit(target);
}

bool Parser::ParseOrderAndLimit(SelectStmt* target) {
  if (AcceptKeyword("ORDER")) {
    target->order_by.clear();
    if (!ExpectKeyword("BY") || !ParseOrderBy(&target->order_by)) return false;
  }
  if (AcceptKeyword("LIMIT") && !ParseLimit(&target->limit.emplace())) return false;
  return true;
}

bool Parser::RefuseNestedCalcFoundRows(const SelectStmt& query) {
  bool found =
      query.calc_found_rows || (query.union_tail != nullptr && query.union_tail->calc_found_rows);
  for (const SelectStmt::UnionPart& part : query.unions) {
    found = found || part.select->calc_found_rows;
  }
  if (!found) return true;
  return FailWith({1234, "42000", "Incorrect usage/placement of 'SQL_CALC_FOUND_ROWS'"});
}

bool Parser::ParseQueryInParens(SelectStmt* out) {
  // A query in parentheses is a query of its own, whatever UNION it stands in.
  const bool outer_union = in_union_;
  in_union_ = false;
  const bool ok = Expect(TokenKind::kLParen) && ParseQuery(out) && Expect(TokenKind::kRParen);
  in_union_ = outer_union;
  return ok;
}

SelectStmt Parser::AsSetOperand(SelectStmt query) {
  if (query.unions.empty()) return query;
  return OverDerived(*this, std::move(query));
}

}  // namespace shoal::sql::internal
