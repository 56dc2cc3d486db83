// Common table expressions: `WITH [RECURSIVE] name [(column, …)] AS (query), … SELECT …`, as
// MySQL 8.0 defines them. A common table is in scope for the rest of its WITH, the query after
// it (its UNION parts and subqueries included), and nothing else; it hides a base table of its
// name, and its own query does not see it — unless it is recursive. Each reference becomes a
// derived table of the common table's query, parsed again from where it was written (as named
// windows are, parse_window.cc) in the scope of its definition, so every reference owns its
// expressions and its parameters keep their numbers; the references share a number
// (SelectStmt::common_table), and the executor computes their rows once.
//
// A recursive one's query is non-recursive SELECTs, then SELECTs that read the table itself —
// once each, in their FROM or a join, not inside a subquery — joined by UNION [ALL]; there
// the reference is the rows the round before made (SelectStmt::recursive_rows), and the rounds
// are run by the executor (exec_recursive.cc).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {

bool ParseColumnList(Parser& p, std::vector<std::string>* out) {
  if (!p.Expect(TokenKind::kLParen)) return false;
  do {
    if (!p.ParseIdentifier(&out->emplace_back())) return false;
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

bool NameQueryColumns(Parser& p, const std::vector<std::string>& columns, SelectStmt* query) {
  for (size_t i = 0; i < columns.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (absl::EqualsIgnoreCase(columns[i], columns[j])) {
        return p.FailWith(mysql::SqlError{
            1060, "42S21", absl::StrCat("Duplicate column name '", columns[i], "'")});
      }
    }
  }
  for (const SelectItem& item : query->items) {
    if (item.expr == nullptr) return p.NotSupported("a column list over *");
  }
  if (query->items.size() != columns.size()) {
    return p.FailWith(mysql::SqlError{
        1353, "HY000",
        "In definition of view, derived table or common table expression, SELECT list and "
        "column names list have different column counts"});
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    query->items[i].name = columns[i];
    query->items[i].has_alias = true;
  }
  return true;
}

bool Parser::ParseParenthesizedQuery(const std::vector<std::string>& columns, SelectStmt* out) {
  // A query in parentheses is a query of its own, whatever UNION it stands in.
  const bool outer_union = in_union_;
  in_union_ = false;
  bool ok = Expect(TokenKind::kLParen);
  ok = ok && ParseQuery(out) && RefuseNestedCalcFoundRows(*out) && Expect(TokenKind::kRParen);
  in_union_ = outer_union;
  return ok && (columns.empty() || NameQueryColumns(*this, columns, out));
}

bool Parser::ParseWith() {
  Advance();  // WITH
  const bool recursive = AcceptKeyword("RECURSIVE");
  // Names are looked up by walking the scope: more common tables than this in scope at once
  // would make a statement's parse quadratic in its length, and are refused as too big.
  constexpr size_t kMaxInScope = 1024;
  const size_t first = common_tables_.size();
  do {
    if (common_tables_.size() >= kMaxInScope) return Exhausted();
    CommonTable table;
    if (!ParseIdentifier(&table.name)) return false;
    for (size_t i = first; i < common_tables_.size(); ++i) {
      if (common_tables_[i].name == table.name) {
        return FailWith(mysql::SqlError{
            1066, "42000", absl::StrCat("Not unique table/alias: '", table.name, "'")});
      }
    }
    if (Peek().kind == TokenKind::kLParen && !ParseColumnList(*this, &table.columns)) return false;
    if (!ExpectKeyword("AS")) return false;
    table.query = {pos_, param_count_};
    table.recursive = recursive;
    table.number = ++common_tables_defined_;
    const size_t index = common_tables_.size();
    table.visible = recursive ? index + 1 : index;
    if (recursive) common_tables_.push_back(table);
    SelectStmt query;  // parsed here for its syntax and its column list; again where used
    if (!ParseCommonTableQuery(table, index, &query)) return false;
    if (!recursive) common_tables_.push_back(std::move(table));
  } while (Accept(TokenKind::kComma));
  if (PeekKeyword("SELECT")) return true;
  if (PeekAny(*this, {"UPDATE", "DELETE", "INSERT", "REPLACE", "TABLE", "VALUES"})) {
    return NotSupported(absl::StrCat("WITH … ", absl::AsciiStrToUpper(Peek().text)));
  }
  return Fail();
}

bool Parser::IsCommonTable(absl::string_view name) const {
  for (const CommonTable& table : common_tables_) {
    if (table.name == name) return true;
  }
  return false;
}

bool Parser::ExpandCommonTable(TableRef* ref) {
  // Common tables read twice by the next one, and so on, double at each step: a statement
  // that would expand into more than this many is refused as too big.
  constexpr int kMaxReads = 4096;
  if (++common_table_reads_ > kMaxReads) return Exhausted();
  // The innermost of that name (IsCommonTable found one).
  size_t index = common_tables_.size() - 1;
  while (common_tables_[index].name != ref->table.name) --index;
  for (auto it = defining_.rbegin(); it != defining_.rend(); ++it) {
    if (it->index != index) continue;
    // Its own query reading it: the rows of the round before.
    ++it->references;
    ref->derived = std::make_unique<SelectStmt>();
    ref->derived->recursive_rows = true;
    if (ref->alias.empty()) ref->alias = ref->table.name;
    ref->table = TableName{};
    return true;
  }
  // Its query sees the common tables before it, as where it was written.
  std::vector<CommonTable> scope = common_tables_;
  const CommonTable table = scope[index];
  common_tables_.resize(table.visible);
  // Nor does it see into the recursive queries being defined around the reference.
  std::vector<Defining> defining = std::move(defining_);
  defining_.clear();
  const size_t pos = pos_;
  const int params = param_count_;
  pos_ = table.query.pos;
  param_count_ = table.query.params;
  ref->derived = std::make_unique<SelectStmt>();
  ref->derived->common_table = table.number;
  const bool ok = ParseCommonTableQuery(table, index, ref->derived.get());
  pos_ = pos;
  param_count_ = params;
  common_tables_ = std::move(scope);
  defining_ = std::move(defining);
  if (ref->alias.empty()) ref->alias = table.name;
  ref->table = TableName{};
  return ok;
}

bool Parser::ParseCommonTableQuery(const CommonTable& table, size_t index, SelectStmt* out) {
  if (!table.recursive) return ParseParenthesizedQuery(table.columns, out);
  defining_.push_back({index, 0});
  const bool ok = ParseParenthesizedQuery(table.columns, out);
  const int references = defining_.back().references;
  defining_.pop_back();
  return ok && (references == 0 || MarkRecursive(table.name, references, out));
}

namespace {

bool ReadsRoundBefore(const TableRef& ref) { return ref.derived && ref.derived->recursive_rows; }

// How often `select` reads the round before in its FROM and joins; `joined_wrong` says whether
// one is the right side of a LEFT JOIN or the left side of a RIGHT JOIN.
int RoundReads(const SelectStmt& select, bool* joined_wrong) {
  int reads = select.from && ReadsRoundBefore(*select.from) ? 1 : 0;
  for (const JoinClause& join : select.joins) {
    const bool here = ReadsRoundBefore(join.table);
    if ((join.kind == JoinKind::kLeft && here) || (join.kind == JoinKind::kRight && reads > 0)) {
      *joined_wrong = true;
    }
    reads += here ? 1 : 0;
  }
  return reads;
}

}  // namespace

bool Parser::MarkRecursive(const std::string& name, int references, SelectStmt* query) {
  auto refuse = [&](uint16_t code, absl::string_view text) {
    return FailWith(mysql::SqlError{code, "HY000", std::string(text)});
  };
  const std::string quoted = absl::StrCat("'", name, "'");
  if (query->unions.empty()) {
    return refuse(3573, absl::StrCat("Recursive Common Table Expression ", quoted,
                                     " should contain a UNION"));
  }
  std::vector<const SelectStmt*> selects = {query};
  for (const SelectStmt::UnionPart& part : query->unions) selects.push_back(part.select.get());
  const std::string in_block =
      absl::StrCat("In recursive query block of Recursive Common Table Expression ", quoted);
  size_t first_step = 0;
  int found = 0;
  bool joined_wrong = false;
  bool anchor_after_step = false;
  for (size_t i = 0; i < selects.size(); ++i) {
    const int reads = RoundReads(*selects[i], &joined_wrong);
    if (reads > 1) {
      return refuse(3577, absl::StrCat(in_block,
                                       ", the recursive table must be referenced only "
                                       "once, and not in any subquery"));
    }
    if (reads > 0 && first_step == 0) first_step = i;
    anchor_after_step = anchor_after_step || (reads == 0 && first_step != 0);
    found += reads;
  }
  if (found < references) {  // the others are inside a subquery or a derived table
    return refuse(3577, absl::StrCat(in_block,
                                     ", the recursive table must be referenced only "
                                     "once, and not in any subquery"));
  }
  if (RoundReads(*query, &joined_wrong) > 0 || anchor_after_step) {
    return refuse(3574, absl::StrCat("Recursive Common Table Expression ", quoted,
                                     " should have one or more non-recursive query blocks "
                                     "followed by one or more recursive ones"));
  }
  if (joined_wrong) {
    return refuse(3576, absl::StrCat(in_block,
                                     ", the recursive table must neither be in the right argument "
                                     "of a LEFT JOIN, nor be forced to be non-first with join "
                                     "order hints"));
  }
  for (const SelectStmt::UnionPart& part : query->unions) {
    if (part.op != SelectStmt::SetOp::kUnion) {
      return NotSupported("INTERSECT or EXCEPT in a recursive common table expression");
    }
  }
  for (size_t i = first_step; i < selects.size(); ++i) {
    const SelectStmt& step = *selects[i];
    if (!step.order_by.empty() || step.limit || step.distinct) {
      return NotSupported(
          "ORDER BY / LIMIT / SELECT DISTINCT in recursive query block of Common Table "
          "Expression");
    }
  }
  if (query->union_tail && !query->union_tail->order_by.empty()) {
    return NotSupported("ORDER BY over UNION in recursive Common Table Expression");
  }
  // LIMIT (MySQL 8.0.19) stops the rounds once that many rows are made (exec_recursive.cc).
  query->recursive = SelectStmt::Recursive{name, first_step};
  return true;
}

}  // namespace shoal::sql::internal
