// CASE … END and CAST / CONVERT: MySQL 8.0's grammar for them.
//
//   CASE [operand] WHEN x THEN y [WHEN x THEN y]… [ELSE z] END
//   CAST(expr AS cast_type)   CONVERT(expr, cast_type)   CONVERT(expr USING charset)
//   cast_type: SIGNED [INTEGER] | UNSIGNED [INTEGER] | CHAR[(n)] [CHARACTER SET x | ASCII |
//              UNICODE] | NCHAR[(n)] | BINARY[(n)] | DECIMAL[(m[, d])] | DATE | DATETIME[(n)]
//              | TIME[(n)] | DOUBLE | FLOAT[(n)] | REAL | YEAR | JSON
// YEAR and JSON parse and answer 1235 (Shoal has no such result types yet).
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

// `(n)` or `(m, d)` after a type name; -1 for what is not written.
bool ParseTypeLength(Parser& p, int* length, int* scale) {
  if (!p.Accept(TokenKind::kLParen)) return true;
  auto number = [&p](int* out) {
    const Token& t = p.Peek();
    if (t.kind != TokenKind::kInteger || !absl::SimpleAtoi(t.text, out)) return p.Fail();
    p.Advance();
    return true;
  };
  if (!number(length)) return false;
  if (scale != nullptr && p.Accept(TokenKind::kComma) && !number(scale)) return false;
  return p.Expect(TokenKind::kRParen);
}

}  // namespace

ExprPtr Parser::ParseCase() {
  Advance();  // CASE
  ExprPtr e = MakeExpr(ExprKind::kCase);
  if (!PeekKeyword("WHEN")) {
    e->has_operand = true;
    ExprPtr operand = ParseExpr();
    if (!operand) return nullptr;
    e->args.push_back(std::move(operand));
  }
  if (!PeekKeyword("WHEN")) return Fail(), nullptr;
  while (AcceptKeyword("WHEN")) {
    ExprPtr when = ParseExpr();
    if (!when || !ExpectKeyword("THEN")) return nullptr;
    ExprPtr then = ParseExpr();
    if (!then) return nullptr;
    e->args.push_back(std::move(when));
    e->args.push_back(std::move(then));
  }
  if (AcceptKeyword("ELSE")) {
    ExprPtr otherwise = ParseExpr();
    if (!otherwise) return nullptr;
    e->has_else = true;
    e->args.push_back(std::move(otherwise));
  }
  if (!ExpectKeyword("END")) return nullptr;
  return e;
}

ExprPtr Parser::ParseCast() {
  const bool convert = PeekKeyword("CONVERT");
  Advance();  // CAST or CONVERT
  Advance();  // (
  ExprPtr e = MakeExpr(ExprKind::kCast);
  ExprPtr value = ParseExpr();
  if (!value) return nullptr;
  e->args.push_back(std::move(value));
  if (convert && AcceptKeyword("USING")) {
    e->cast.name = "CHAR";
    if (!ParseIdentifier(&e->cast.charset)) return nullptr;
    e->cast.charset = absl::AsciiStrToLower(e->cast.charset);
  } else {
    if (convert ? !Expect(TokenKind::kComma) : !ExpectKeyword("AS")) return nullptr;
    if (!ParseCastType(&e->cast)) return nullptr;
  }
  if (!Expect(TokenKind::kRParen)) return nullptr;
  return e;
}

bool Parser::ParseCastType(CastTarget* out) {
  const Token& t = Peek();
  if (t.kind != TokenKind::kIdent) return Fail();
  std::string name = absl::AsciiStrToUpper(t.text);
  Advance();
  if (name == "SIGNED" || name == "UNSIGNED") {
    if (!AcceptKeyword("INTEGER")) AcceptKeyword("INT");
  } else if (name == "CHAR" || name == "NCHAR" || name == "BINARY") {
    if (!ParseTypeLength(*this, &out->length, nullptr)) return false;
    if (name == "NCHAR") {
      name = "CHAR";
      out->charset = "utf8mb3";
    } else if (name == "CHAR") {
      if (AcceptKeyword("ASCII")) {
        out->charset = "latin1";
      } else if (AcceptKeyword("UNICODE")) {
        out->charset = "ucs2";
      } else if (AcceptKeyword("CHARSET") || (AcceptKeyword("CHARACTER") && ExpectKeyword("SET"))) {
        if (!ParseIdentifier(&out->charset)) return false;
        out->charset = absl::AsciiStrToLower(out->charset);
      } else if (error_) {
        return false;
      }
    }
  } else if (name == "DECIMAL" || name == "DEC" || name == "NUMERIC" || name == "FIXED") {
    name = "DECIMAL";
    if (!ParseTypeLength(*this, &out->length, &out->scale)) return false;
  } else if (name == "DATETIME" || name == "TIME") {
    if (!ParseTypeLength(*this, &out->scale, nullptr)) return false;
  } else if (name == "FLOAT") {
    if (!ParseTypeLength(*this, &out->length, nullptr)) return false;
    if (out->length > 24) name = "DOUBLE";  // FLOAT(25..53) is a DOUBLE, as in MySQL
  } else if (name == "DOUBLE" || name == "REAL") {
    name = "DOUBLE";
    AcceptKeyword("PRECISION");
  } else if (name == "DATE") {
  } else if (name == "JSON") {
  } else if (name == "YEAR") {
    return NotSupported(absl::StrCat("CAST AS ", name));
  } else {
    return Fail();
  }
  out->name = std::move(name);
  return true;
}

}  // namespace shoal::sql::internal
