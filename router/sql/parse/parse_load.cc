// LOAD DATA, as MySQL 8.0's grammar has it. The FIELDS and LINES sub-clauses take their parts
// in any order, as mysqld's parser does; what the terminators may be is the executor's
// business (1083), not the grammar's. LOAD XML and LOAD INDEX answer 1235.
#include <string>

#include "absl/strings/numbers.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// 'text' or X'hex': what MySQL's text_string takes for the terminators and the file name.
bool ParseTextString(Parser& p, std::string* out) {
  const Token& t = p.Peek();
  if (t.kind != TokenKind::kString && t.kind != TokenKind::kHex) return p.Fail();
  *out = t.value;
  p.Advance();
  return true;
}

// {FIELDS|COLUMNS} [TERMINATED BY 's'] [[OPTIONALLY] ENCLOSED BY 'c'] [ESCAPED BY 'c'],
// after the keyword; at least one part.
bool ParseFieldsClause(Parser& p, LoadDataStmt* out) {
  bool any = false;
  for (;;) {
    if (p.AcceptKeyword("TERMINATED")) {
      if (!p.ExpectKeyword("BY") || !ParseTextString(p, &out->field_terminator)) return false;
    } else if (p.PeekKeyword("OPTIONALLY") || p.PeekKeyword("ENCLOSED")) {
      out->optionally_enclosed = p.AcceptKeyword("OPTIONALLY");
      if (!p.ExpectKeyword("ENCLOSED") || !p.ExpectKeyword("BY") ||
          !ParseTextString(p, &out->enclosure)) {
        return false;
      }
    } else if (p.AcceptKeyword("ESCAPED")) {
      if (!p.ExpectKeyword("BY") || !ParseTextString(p, &out->escape)) return false;
    } else {
      return any || p.Fail();
    }
    any = true;
  }
}

// LINES [STARTING BY 's'] [TERMINATED BY 's'], after the keyword; at least one part.
bool ParseLinesClause(Parser& p, LoadDataStmt* out) {
  bool any = false;
  for (;;) {
    if (p.AcceptKeyword("STARTING")) {
      if (!p.ExpectKeyword("BY") || !ParseTextString(p, &out->line_starting)) return false;
    } else if (p.AcceptKeyword("TERMINATED")) {
      if (!p.ExpectKeyword("BY") || !ParseTextString(p, &out->line_terminator)) return false;
    } else {
      return any || p.Fail();
    }
    any = true;
  }
}

// (col_or_@var, …); `()` names nothing, as MySQL allows.
bool ParseTargets(Parser& p, LoadDataStmt* out) {
  if (!p.Expect(TokenKind::kLParen)) return false;
  if (p.Accept(TokenKind::kRParen)) return true;
  do {
    LoadDataStmt::Target& target = out->targets.emplace_back();
    if (p.Peek().kind == TokenKind::kUserVar) {
      target.user_var = true;
      target.name = p.Peek().value;
      p.Advance();
    } else if (!p.ParseIdentifier(&target.name)) {
      return false;
    }
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

}  // namespace

bool Parser::ParseLoadData(LoadDataStmt* out) {
  Advance();  // LOAD
  Advance();  // DATA
  if (!AcceptKeyword("LOW_PRIORITY")) AcceptKeyword("CONCURRENT");
  out->local = AcceptKeyword("LOCAL");
  if (!ExpectKeyword("INFILE") || !ParseTextString(*this, &out->file)) return false;
  if (AcceptKeyword("REPLACE")) {
    out->replace = true;
  } else {
    out->ignore = AcceptKeyword("IGNORE");
  }
  if (!ExpectKeyword("INTO") || !ExpectKeyword("TABLE") || !ParseTableName(&out->table)) {
    return false;
  }
  if (PeekKeyword("PARTITION")) return NotSupported("PARTITION");
  if (AcceptKeyword("CHARACTER") || PeekKeyword("CHARSET")) {
    if (!AcceptKeyword("CHARSET") && !ExpectKeyword("SET")) return false;
    if (!ParseNameOrString(&out->charset)) return false;
  }
  if (AcceptKeyword("FIELDS") || AcceptKeyword("COLUMNS")) {
    if (!ParseFieldsClause(*this, out)) return false;
  }
  if (AcceptKeyword("LINES")) {
    if (!ParseLinesClause(*this, out)) return false;
  }
  if (AcceptKeyword("IGNORE")) {
    const Token& n = Peek();
    if (n.kind != TokenKind::kInteger || !absl::SimpleAtoi(n.text, &out->ignore_lines)) {
      return Fail();
    }
    Advance();
    if (!AcceptKeyword("LINES") && !ExpectKeyword("ROWS")) return false;
  }
  if (Peek().kind == TokenKind::kLParen && !ParseTargets(*this, out)) return false;
  if (AcceptKeyword("SET") && !ParseAssignments(*this, &out->set)) return false;
  return true;
}

}  // namespace shoal::sql::internal
