// Common table expressions: `WITH name [(column, …)] AS (query), … SELECT …`, as MySQL 8.0
// defines the non-recursive ones. A common table is in scope for the rest of its WITH, the
// query after it (its UNION parts and subqueries included), and nothing else; it hides a base
// table of its name, and its own query does not see it. Each reference becomes a derived table
// of the common table's query, parsed again from where it was written (as named windows are,
// parse_window.cc) in the scope of its definition, so every reference owns its expressions
// and its parameters keep their numbers. WITH RECURSIVE answers 1235.
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
  if (ok && !PeekKeyword("SELECT") && !PeekKeyword("WITH")) ok = Fail();
  ok = ok && ParseSelect(out) && Expect(TokenKind::kRParen);
  in_union_ = outer_union;
  return ok && (columns.empty() || NameQueryColumns(*this, columns, out));
}

bool Parser::ParseWith() {
  Advance();  // WITH
  if (PeekKeyword("RECURSIVE")) return NotSupported("WITH RECURSIVE");
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
    table.visible = common_tables_.size();
    SelectStmt query;  // parsed here for its syntax and its column list; again where used
    if (!ParseParenthesizedQuery(table.columns, &query)) return false;
    common_tables_.push_back(std::move(table));
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
  // Its query sees the common tables before it, as where it was written.
  std::vector<CommonTable> scope = common_tables_;
  const CommonTable table = scope[index];
  common_tables_.resize(table.visible);
  const size_t pos = pos_;
  const int params = param_count_;
  pos_ = table.query.pos;
  param_count_ = table.query.params;
  ref->derived = std::make_unique<SelectStmt>();
  const bool ok = ParseParenthesizedQuery(table.columns, ref->derived.get());
  pos_ = pos;
  param_count_ = params;
  common_tables_ = std::move(scope);
  if (ref->alias.empty()) ref->alias = table.name;
  ref->table = TableName{};
  return ok;
}

}  // namespace shoal::sql::internal
