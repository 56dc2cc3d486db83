// Expressions, by MySQL's precedence (lowest first): OR/||, XOR, AND/&&, NOT, predicates
// (comparisons, IS, IN, BETWEEN, LIKE), |, &, << >>, + -, * / DIV % MOD, ^, || (PIPES_AS_CONCAT),
// unary - ~ !, primaries. Each level is one function; all are left-associative.
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "router/sql/parse/charsets.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {
namespace {

ExprPtr Binary(BinaryOp op, ExprPtr left, ExprPtr right) {
  ExprPtr e = MakeExpr(ExprKind::kBinary);
  e->binary_op = op;
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  return e;
}

ExprPtr Literal(LiteralKind kind, std::string text) {
  ExprPtr e = MakeExpr(ExprKind::kLiteral);
  e->literal = kind;
  e->text = std::move(text);
  return e;
}

// Functions MySQL lets you call without parentheses.
bool IsNiladicKeyword(absl::string_view word) {
  static constexpr absl::string_view kNames[] = {
      "CURRENT_USER",   "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "LOCALTIME",
      "LOCALTIMESTAMP", "UTC_DATE",          "UTC_TIME",     "UTC_TIMESTAMP"};
  for (absl::string_view n : kNames) {
    if (absl::EqualsIgnoreCase(word, n)) return true;
  }
  return false;
}

// Expression forms that are valid MySQL but not evaluated by Shoal yet.
bool IsUnsupportedExprKeyword(absl::string_view word) {
  static constexpr absl::string_view kNames[] = {"MATCH"};
  for (absl::string_view n : kNames) {
    if (absl::EqualsIgnoreCase(word, n)) return true;
  }
  return false;
}

// MySQL's interval units (its `interval` rule), the simple ones first: TIMESTAMPADD and
// TIMESTAMPDIFF take only those (`interval_time_stamp`).
constexpr absl::string_view kIntervalUnits[] = {"MICROSECOND",
                                                "SECOND",
                                                "MINUTE",
                                                "HOUR",
                                                "DAY",
                                                "WEEK",
                                                "MONTH",
                                                "QUARTER",
                                                "YEAR",
                                                "SECOND_MICROSECOND",
                                                "MINUTE_MICROSECOND",
                                                "MINUTE_SECOND",
                                                "HOUR_MICROSECOND",
                                                "HOUR_SECOND",
                                                "HOUR_MINUTE",
                                                "DAY_MICROSECOND",
                                                "DAY_SECOND",
                                                "DAY_MINUTE",
                                                "DAY_HOUR",
                                                "YEAR_MONTH"};
constexpr size_t kSimpleUnits = 9;

// The unit keyword at the current token, upper-cased into `unit` (SQL_TSI_DAY is DAY, as
// MySQL's lexer makes it); a syntax error when it is not one.
bool ParseIntervalUnit(Parser& p, bool simple_only, std::string* unit) {
  if (p.Peek().kind != TokenKind::kIdent) return p.Fail();
  std::string word = absl::AsciiStrToUpper(p.Peek().text);
  if (absl::StartsWith(word, "SQL_TSI_")) word.erase(0, 8);
  const size_t count = simple_only ? kSimpleUnits : std::size(kIntervalUnits);
  for (size_t i = 0; i < count; ++i) {
    if (word == kIntervalUnits[i]) {
      *unit = std::move(word);
      p.Advance();
      return true;
    }
  }
  return p.Fail();
}

// After INTERVAL: `expr unit`, as a kInterval node.
ExprPtr ParseIntervalRest(Parser& p) {
  ExprPtr value = p.ParseExpr();
  if (!value) return nullptr;
  ExprPtr e = MakeExpr(ExprKind::kInterval);
  if (!ParseIntervalUnit(p, false, &e->unit)) return nullptr;
  e->args.push_back(std::move(value));
  return e;
}

// DATE_ADD(date, interval) or DATE_SUB: what `date + INTERVAL …` and `date - INTERVAL …` are,
// as in MySQL (one Item_date_add_interval for all of them).
ExprPtr DateArithCall(absl::string_view name, ExprPtr date, ExprPtr interval) {
  ExprPtr e = MakeExpr(ExprKind::kFunction);
  e->name = std::string(name);
  e->has_parens = true;
  e->args.push_back(std::move(date));
  e->args.push_back(std::move(interval));
  return e;
}

// After `DATE_ADD(`, `DATE_SUB(`, `ADDDATE(` or `SUBDATE(`: `date, INTERVAL expr unit)`; the
// last two also take `date, days)`, a DAY interval.
bool ParseDateArithArgs(Parser& p, Expr* fn) {
  ExprPtr date = p.ParseExpr();
  if (!date || !p.Expect(TokenKind::kComma)) return false;
  ExprPtr interval;
  if (p.AcceptKeyword("INTERVAL")) {
    interval = ParseIntervalRest(p);
  } else if (fn->name == "ADDDATE" || fn->name == "SUBDATE") {
    ExprPtr days = p.ParseExpr();
    if (!days) return false;
    interval = MakeExpr(ExprKind::kInterval);
    interval->unit = "DAY";
    interval->args.push_back(std::move(days));
  } else {
    return p.Fail();
  }
  if (!interval || !p.Expect(TokenKind::kRParen)) return false;
  fn->args.push_back(std::move(date));
  fn->args.push_back(std::move(interval));
  return true;
}

// After `TIMESTAMPADD(` or `TIMESTAMPDIFF(`: `unit, a, b)`. TIMESTAMPADD(unit, n, date) becomes
// (date, INTERVAL n unit), as MySQL builds it; TIMESTAMPDIFF keeps (a, b) with its unit.
bool ParseTimestampArgs(Parser& p, Expr* fn) {
  std::string unit;
  if (!ParseIntervalUnit(p, true, &unit) || !p.Expect(TokenKind::kComma)) return false;
  ExprPtr first = p.ParseExpr();
  if (!first || !p.Expect(TokenKind::kComma)) return false;
  ExprPtr second = p.ParseExpr();
  if (!second || !p.Expect(TokenKind::kRParen)) return false;
  if (fn->name == "TIMESTAMPDIFF") {
    fn->unit = std::move(unit);
    fn->args.push_back(std::move(first));
    fn->args.push_back(std::move(second));
    return true;
  }
  ExprPtr interval = MakeExpr(ExprKind::kInterval);
  interval->unit = std::move(unit);
  interval->args.push_back(std::move(first));
  fn->args.push_back(std::move(second));
  fn->args.push_back(std::move(interval));
  return true;
}

// After `EXTRACT(`: `unit FROM expr)`, any interval unit, compound ones included; the unit in
// `unit`, as TIMESTAMPDIFF keeps its own.
bool ParseExtractArgs(Parser& p, Expr* fn) {
  if (!ParseIntervalUnit(p, false, &fn->unit) || !p.ExpectKeyword("FROM")) return false;
  ExprPtr value = p.ParseExpr();
  if (!value || !p.Expect(TokenKind::kRParen)) return false;
  fn->args.push_back(std::move(value));
  return true;
}

// After `POSITION(`: `substr IN str)`, which is LOCATE(substr, str) as MySQL builds it. The
// substring is a bit_expr, as in MySQL's grammar, so that its IN is not taken for a predicate.
bool ParsePositionArgs(Parser& p, Expr* fn) {
  ExprPtr needle = p.ParseBitOr();
  if (!needle || !p.ExpectKeyword("IN")) return false;
  ExprPtr haystack = p.ParseExpr();
  if (!haystack || !p.Expect(TokenKind::kRParen)) return false;
  fn->name = "LOCATE";
  fn->args.push_back(std::move(needle));
  fn->args.push_back(std::move(haystack));
  return true;
}

// [[db.]table.]column. The qualifier keeps only the table: a statement names one table, so
// the database adds nothing to resolve. After a dot even reserved words are names, as in
// MySQL's lexer.
ExprPtr ParseColumnRef(Parser& p) {
  ExprPtr e = MakeExpr(ExprKind::kColumn);
  if (!p.ParseIdentifier(&e->name)) return nullptr;
  for (int dots = 0; dots < 2 && p.Peek().kind == TokenKind::kDot; ++dots) {
    p.Advance();
    const Token& t = p.Peek();
    if (t.kind != TokenKind::kIdent && t.kind != TokenKind::kQuotedIdent) return p.Fail(), nullptr;
    e->qualifier =
        std::exchange(e->name, t.kind == TokenKind::kIdent ? std::string(t.text) : t.value);
    p.Advance();
  }
  return e;
}

// `column->'path'` is JSON_EXTRACT(column, 'path'); `column->>'path'` is JSON_UNQUOTE of it.
// MySQL takes them after a column only, with a string for the path.
ExprPtr ParseJsonArrow(Parser& p, ExprPtr column) {
  if (column == nullptr) return column;
  const TokenKind arrow = p.Peek().kind;
  if (arrow != TokenKind::kArrow && arrow != TokenKind::kDoubleArrow) return column;
  p.Advance();
  if (p.Peek().kind != TokenKind::kString) return p.Fail(), nullptr;
  ExprPtr extract = MakeExpr(ExprKind::kFunction);
  extract->name = "JSON_EXTRACT";
  extract->args.push_back(std::move(column));
  extract->args.push_back(p.ParseLiteral());
  if (extract->args.back() == nullptr) return nullptr;
  if (arrow == TokenKind::kArrow) return extract;
  ExprPtr unquote = MakeExpr(ExprKind::kFunction);
  unquote->name = "JSON_UNQUOTE";
  unquote->args.push_back(std::move(extract));
  return unquote;
}

// TRIM([{BOTH | LEADING | TRAILING} [remstr] FROM] str) and TRIM([remstr FROM] str): the
// string, then remstr if given; the side in `unit` (empty: both).
bool ParseTrimArgs(Parser& p, Expr* fn) {
  bool side = false;
  for (const char* word : {"BOTH", "LEADING", "TRAILING"}) {
    if (p.AcceptKeyword(word)) {
      fn->unit = word;
      side = true;
      break;
    }
  }
  if (side && p.AcceptKeyword("FROM")) {
    ExprPtr str = p.ParseExpr();
    if (!str) return false;
    fn->args.push_back(std::move(str));
    return p.Expect(TokenKind::kRParen);
  }
  ExprPtr first = p.ParseExpr();
  if (!first) return false;
  if (p.AcceptKeyword("FROM")) {
    ExprPtr str = p.ParseExpr();
    if (!str) return false;
    fn->args.push_back(std::move(str));
  } else if (side) {
    return p.Fail();
  }
  fn->args.push_back(std::move(first));
  return p.Expect(TokenKind::kRParen);
}

// Aggregates whose argument MySQL's grammar lets start with ALL; COUNT also takes `*`.
bool TakesAll(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
      "AVG", "BIT_AND", "BIT_OR",     "BIT_XOR",     "COUNT",    "MAX",     "MIN",     "SUM",
      "STD", "STDDEV",  "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP"};
  for (absl::string_view n : kNames) {
    if (name == n) return true;
  }
  return false;
}

bool TakesDistinct(absl::string_view name) {
  return name == "AVG" || name == "COUNT" || name == "GROUP_CONCAT" || name == "MAX" ||
         name == "MIN" || name == "SUM";
}

bool IsAggregate(absl::string_view name) {
  return name == "GROUP_CONCAT" || name == "JSON_ARRAYAGG" || TakesAll(name);
}

// expr, … up to and including `)`.
bool ParseArgList(Parser& p, Expr* fn) {
  do {
    ExprPtr arg = p.ParseExpr();
    if (!arg) return false;
    fn->args.push_back(std::move(arg));
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

// After `name(` of an aggregate (`name` upper-cased): [ALL | DISTINCT] args `)`, or COUNT's
// `*`. Only COUNT(DISTINCT …) and GROUP_CONCAT take several arguments; a modifier a function
// does not take is left for the argument parser to reject where MySQL does.
bool ParseAggregateArgs(Parser& p, Expr* fn) {
  if (TakesDistinct(fn->name) && p.AcceptKeyword("DISTINCT")) {
    fn->distinct = true;
  } else if (TakesAll(fn->name)) {
    p.AcceptKeyword("ALL");
  }
  if (fn->name == "COUNT" && !fn->distinct && p.Accept(TokenKind::kStar)) {
    fn->args.push_back(MakeExpr(ExprKind::kStar));
    return p.Expect(TokenKind::kRParen);
  }
  bool several = fn->name == "GROUP_CONCAT" || (fn->name == "COUNT" && fn->distinct);
  do {
    ExprPtr arg = p.ParseExpr();
    if (!arg) return false;
    fn->args.push_back(std::move(arg));
  } while (several && p.Accept(TokenKind::kComma));
  if (fn->name == "GROUP_CONCAT" && p.AcceptKeyword("ORDER")) {
    if (!p.ExpectKeyword("BY")) return false;
    do {
      ExprPtr key = p.ParseExpr();
      if (!key) return false;
      fn->concat_order.push_back(std::move(key));
      fn->concat_descending.push_back(p.AcceptKeyword("DESC"));
      if (!fn->concat_descending.back()) p.AcceptKeyword("ASC");
    } while (p.Accept(TokenKind::kComma));
  }
  if (fn->name == "GROUP_CONCAT" && p.AcceptKeyword("SEPARATOR")) {
    if (p.Peek().kind != TokenKind::kString) return p.Fail();
    fn->separator = p.Advance().value;
  }
  if (fn->name == "JSON_ARRAYAGG") {
    // Each row's value goes into the array as JSON_ARRAY puts it into one (JSON as itself,
    // NULL as null, a condition as true or false, text quoted): the aggregate joins the
    // members of a one-member JSON_ARRAY per row (exec/aggregates.cc).
    ExprPtr member = MakeExpr(ExprKind::kFunction);
    member->name = "JSON_ARRAY";
    member->args.push_back(std::move(fn->args[0]));
    fn->args[0] = std::move(member);
  }
  return p.Expect(TokenKind::kRParen);
}

}  // namespace

ExprPtr Parser::ParseExpr() {
  DepthGuard depth(this);
  if (!depth.ok()) return nullptr;
  ExprPtr left = ParseXor();
  while (left &&
         (PeekKeyword("OR") || (Peek().kind == TokenKind::kOrOr && !options_.pipes_as_concat))) {
    Advance();
    ExprPtr right = ParseXor();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kOr, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseXor() {
  ExprPtr left = ParseAnd();
  while (left && AcceptKeyword("XOR")) {
    ExprPtr right = ParseAnd();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kXor, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseAnd() {
  ExprPtr left = ParseNot();
  while (left && (PeekKeyword("AND") || Peek().kind == TokenKind::kAndAnd)) {
    Advance();
    ExprPtr right = ParseNot();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kAnd, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseNot() {
  DepthGuard depth(this);
  if (!depth.ok()) return nullptr;
  if (AcceptKeyword("NOT")) {
    ExprPtr inner = ParseNot();
    if (!inner) return nullptr;
    ExprPtr e = MakeExpr(ExprKind::kUnary);
    e->unary_op = UnaryOp::kNot;
    e->args.push_back(std::move(inner));
    return e;
  }
  return ParsePredicate();
}

ExprPtr Parser::ParsePredicate() {
  ExprPtr left = ParseBitOr();
  while (left) {
    BinaryOp op;
    switch (Peek().kind) {
      case TokenKind::kEq:
        op = BinaryOp::kEq;
        break;
      case TokenKind::kNullSafeEq:
        op = BinaryOp::kNullSafeEq;
        break;
      case TokenKind::kNe:
        op = BinaryOp::kNe;
        break;
      case TokenKind::kLt:
        op = BinaryOp::kLt;
        break;
      case TokenKind::kLe:
        op = BinaryOp::kLe;
        break;
      case TokenKind::kGt:
        op = BinaryOp::kGt;
        break;
      case TokenKind::kGe:
        op = BinaryOp::kGe;
        break;
      default:
        op = BinaryOp::kOr;
        break;  // not a comparison
    }
    if (op != BinaryOp::kOr) {
      Advance();
      if (PeekKeyword("ANY") || PeekKeyword("ALL") || PeekKeyword("SOME")) {
        left = ParseQuantifiedRest(op, std::move(left));
        continue;
      }
      ExprPtr right = ParseBitOr();
      if (!right) return nullptr;
      left = Binary(op, std::move(left), std::move(right));
      continue;
    }
    if (AcceptKeyword("IS")) {
      bool negated = AcceptKeyword("NOT");
      ExprPtr e;
      if (AcceptKeyword("NULL") || AcceptKeyword("UNKNOWN")) {
        e = MakeExpr(ExprKind::kIsNull);
      } else if (PeekKeyword("TRUE") || PeekKeyword("FALSE")) {
        e = MakeExpr(ExprKind::kIsBool);
        e->truth = PeekKeyword("TRUE");
        Advance();
      } else {
        return Fail(), nullptr;
      }
      e->negated = negated;
      e->args.push_back(std::move(left));
      left = std::move(e);
      continue;
    }
    bool negated = false;
    if (PeekKeyword("NOT") &&
        (PeekKeyword("IN", 1) || PeekKeyword("BETWEEN", 1) || PeekKeyword("LIKE", 1) ||
         PeekKeyword("REGEXP", 1) || PeekKeyword("RLIKE", 1))) {
      Advance();
      negated = true;
    }
    if (AcceptKeyword("IN")) {
      const bool subquery = StartsParenthesizedQuery(0);
      if (!Expect(TokenKind::kLParen)) return nullptr;
      if (subquery) {
        ExprPtr e = ParseSubqueryRest(ExprKind::kInSubquery);
        if (!e) return nullptr;
        e->negated = negated;
        e->args.push_back(std::move(left));
        left = std::move(e);
        continue;
      }
      ExprPtr e = MakeExpr(ExprKind::kIn);
      e->negated = negated;
      e->args.push_back(std::move(left));
      do {
        ExprPtr item = ParseExpr();
        if (!item) return nullptr;
        e->args.push_back(std::move(item));
      } while (Accept(TokenKind::kComma));
      if (!Expect(TokenKind::kRParen)) return nullptr;
      left = std::move(e);
    } else if (AcceptKeyword("BETWEEN")) {
      ExprPtr low = ParseBitOr();
      if (!low || !ExpectKeyword("AND")) return nullptr;
      ExprPtr high = ParseBitOr();
      if (!high) return nullptr;
      ExprPtr e = MakeExpr(ExprKind::kBetween);
      e->negated = negated;
      e->args.push_back(std::move(left));
      e->args.push_back(std::move(low));
      e->args.push_back(std::move(high));
      left = std::move(e);
    } else if (AcceptKeyword("LIKE")) {
      ExprPtr pattern = ParseBitOr();
      if (!pattern) return nullptr;
      ExprPtr e = MakeExpr(ExprKind::kLike);
      e->negated = negated;
      e->args.push_back(std::move(left));
      e->args.push_back(std::move(pattern));
      if (AcceptKeyword("ESCAPE")) {
        ExprPtr escape = ParsePrimary();
        if (!escape) return nullptr;
        e->args.push_back(std::move(escape));
      }
      left = std::move(e);
    } else if (AcceptKeyword("REGEXP") || AcceptKeyword("RLIKE")) {
      // REGEXP_LIKE(left, pattern), under NOT when negated.
      ExprPtr pattern = ParseBitOr();
      if (!pattern) return nullptr;
      ExprPtr e = MakeExpr(ExprKind::kFunction);
      e->name = "REGEXP_LIKE";
      e->has_parens = true;
      e->args.push_back(std::move(left));
      e->args.push_back(std::move(pattern));
      if (negated) {
        ExprPtr n = MakeExpr(ExprKind::kUnary);
        n->unary_op = UnaryOp::kNot;
        n->args.push_back(std::move(e));
        e = std::move(n);
      }
      left = std::move(e);
    } else if (PeekKeyword("SOUNDS") || PeekKeyword("MEMBER")) {
      return NotSupported(absl::AsciiStrToUpper(Peek().text)), nullptr;
    } else {
      if (negated) return Fail(), nullptr;
      break;
    }
  }
  return left;
}

// At ANY, SOME or ALL after comparison `op`: `(SELECT …)`, MySQL's all_or_any rule. = ANY is
// IN and <> ALL is NOT IN (MySQL rewrites them so too); <=> takes no quantifier.
ExprPtr Parser::ParseQuantifiedRest(BinaryOp op, ExprPtr left) {
  const bool all = PeekKeyword("ALL");
  if (op == BinaryOp::kNullSafeEq) return Fail(), nullptr;
  Advance();
  const bool subquery = StartsParenthesizedQuery(0);
  if (!Expect(TokenKind::kLParen)) return nullptr;
  if (!subquery) return Fail(), nullptr;
  const bool in = (op == BinaryOp::kEq && !all) || (op == BinaryOp::kNe && all);
  ExprPtr e = ParseSubqueryRest(in ? ExprKind::kInSubquery : ExprKind::kQuantified);
  if (!e) return nullptr;
  e->negated = in && all;
  e->binary_op = op;
  e->all = all;
  e->args.push_back(std::move(left));
  return e;
}

ExprPtr Parser::ParseBitOr() {
  ExprPtr left = ParseBitAnd();
  while (left && Accept(TokenKind::kPipe)) {
    ExprPtr right = ParseBitAnd();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kBitOr, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseBitAnd() {
  ExprPtr left = ParseShift();
  while (left && Accept(TokenKind::kAmp)) {
    ExprPtr right = ParseShift();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kBitAnd, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseShift() {
  ExprPtr left = ParseAdditive();
  while (left && (Peek().kind == TokenKind::kShl || Peek().kind == TokenKind::kShr)) {
    BinaryOp op = Advance().kind == TokenKind::kShl ? BinaryOp::kShl : BinaryOp::kShr;
    ExprPtr right = ParseAdditive();
    if (!right) return nullptr;
    left = Binary(op, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseAdditive() {
  ExprPtr left = ParseMultiplicative();
  while (left && (Peek().kind == TokenKind::kPlus || Peek().kind == TokenKind::kMinus)) {
    BinaryOp op = Advance().kind == TokenKind::kPlus ? BinaryOp::kAdd : BinaryOp::kSub;
    if (AcceptKeyword("INTERVAL")) {
      ExprPtr interval = ParseIntervalRest(*this);
      if (!interval) return nullptr;
      left = DateArithCall(op == BinaryOp::kAdd ? "DATE_ADD" : "DATE_SUB", std::move(left),
                           std::move(interval));
      continue;
    }
    ExprPtr right = ParseMultiplicative();
    if (!right) return nullptr;
    left = Binary(op, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseMultiplicative() {
  ExprPtr left = ParseBitXor();
  while (left) {
    BinaryOp op;
    if (Peek().kind == TokenKind::kStar) {
      op = BinaryOp::kMul;
    } else if (Peek().kind == TokenKind::kSlash) {
      op = BinaryOp::kDiv;
    } else if (Peek().kind == TokenKind::kPercent || PeekKeyword("MOD")) {
      op = BinaryOp::kMod;
    } else if (PeekKeyword("DIV")) {
      op = BinaryOp::kIntDiv;
    } else {
      break;
    }
    Advance();
    ExprPtr right = ParseBitXor();
    if (!right) return nullptr;
    left = Binary(op, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseBitXor() {
  ExprPtr left = ParseConcat();
  while (left && Accept(TokenKind::kCaret)) {
    ExprPtr right = ParseConcat();
    if (!right) return nullptr;
    left = Binary(BinaryOp::kBitXor, std::move(left), std::move(right));
  }
  return left;
}

// `a || b || c` under PIPES_AS_CONCAT: CONCAT(a, b, c).
ExprPtr Parser::ParseConcat() {
  ExprPtr left = ParseUnary();
  if (!left || !options_.pipes_as_concat || Peek().kind != TokenKind::kOrOr) return left;
  ExprPtr concat = MakeExpr(ExprKind::kFunction);
  concat->name = "CONCAT";
  concat->has_parens = true;
  concat->args.push_back(std::move(left));
  while (Accept(TokenKind::kOrOr)) {
    ExprPtr right = ParseUnary();
    if (!right) return nullptr;
    concat->args.push_back(std::move(right));
  }
  return concat;
}

ExprPtr Parser::ParseUnary() {
  DepthGuard depth(this);
  if (!depth.ok()) return nullptr;
  TokenKind k = Peek().kind;
  if (k == TokenKind::kPlus) {
    Advance();
    return ParseUnary();
  }
  if (k == TokenKind::kMinus || k == TokenKind::kTilde || k == TokenKind::kBang) {
    Advance();
    ExprPtr inner = ParseUnary();
    if (!inner) return nullptr;
    ExprPtr e = MakeExpr(ExprKind::kUnary);
    e->unary_op = k == TokenKind::kMinus   ? UnaryOp::kNeg
                  : k == TokenKind::kTilde ? UnaryOp::kBitNot
                                           : UnaryOp::kNot;
    e->args.push_back(std::move(inner));
    return e;
  }
  ExprPtr e = ParsePrimary();
  // `primary COLLATE name`, MySQL's simple_expr rule: tighter than any operator.
  while (e && AcceptKeyword("COLLATE")) {
    ExprPtr collate = MakeExpr(ExprKind::kCollate);
    if (!ParseNameOrString(&collate->name)) return nullptr;
    collate->name = absl::AsciiStrToLower(collate->name);
    collate->args.push_back(std::move(e));
    e = std::move(collate);
  }
  return e;
}

ExprPtr Parser::ParsePrimary() {
  const Token& t = Peek();
  switch (t.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kFloat:
    case TokenKind::kString:
    case TokenKind::kHex:
    case TokenKind::kBit:
      return ParseLiteral();
    case TokenKind::kAtAt:
      return ParseSysVar();
    case TokenKind::kParam:
      return ParseParam();
    case TokenKind::kUserVar: {
      std::string name = Advance().value;
      if (Accept(TokenKind::kAssign)) {
        ExprPtr value = ParseExpr();
        if (!value) return nullptr;
        ExprPtr e = MakeExpr(ExprKind::kAssignUser);
        e->name = std::move(name);
        e->args.push_back(std::move(value));
        return e;
      }
      ExprPtr e = MakeExpr(ExprKind::kUserVar);
      e->name = std::move(name);
      return e;
    }
    case TokenKind::kLParen: {
      const bool subquery = StartsParenthesizedQuery(0);
      Advance();
      if (subquery) return ParseSubqueryRest(ExprKind::kSubquery);
      ExprPtr inner = ParseExpr();
      if (!inner) return nullptr;
      if (Peek().kind == TokenKind::kComma) return ParseRowRest(std::move(inner));
      if (!Expect(TokenKind::kRParen)) return nullptr;
      return inner;
    }
    case TokenKind::kIdent:
    case TokenKind::kQuotedIdent:
      return ParseIdentExpr();
    default:
      return Fail(), nullptr;
  }
}

ExprPtr Parser::ParseLiteral() {
  const Token& t = Advance();
  switch (t.kind) {
    case TokenKind::kInteger:
      return Literal(LiteralKind::kInteger, std::string(t.text));
    case TokenKind::kDecimal:
      return Literal(LiteralKind::kDecimal, std::string(t.text));
    case TokenKind::kFloat:
      return Literal(LiteralKind::kFloat, std::string(t.text));
    case TokenKind::kHex:
      return Literal(LiteralKind::kHex, t.value);
    case TokenKind::kBit:
      return Literal(LiteralKind::kBit, t.value);
    default:
      break;
  }
  // Adjacent string literals concatenate: 'a' 'b' is 'ab'.
  ExprPtr e = Literal(LiteralKind::kString, t.value);
  e->charset = t.introducer;
  while (Peek().kind == TokenKind::kString && Peek().introducer.empty()) {
    e->text += Advance().value;
  }
  return e;
}

ExprPtr Parser::ParseSysVar() {
  Advance();  // @@
  ExprPtr e = MakeExpr(ExprKind::kSysVar);
  const Token& first = Peek();
  if (first.kind != TokenKind::kIdent && first.kind != TokenKind::kQuotedIdent) {
    return Fail(), nullptr;
  }
  if (Peek(1).kind == TokenKind::kDot && first.kind == TokenKind::kIdent) {
    if (PeekKeyword("SESSION") || PeekKeyword("LOCAL")) {
      e->scope = VarScope::kSession;
    } else if (PeekKeyword("GLOBAL")) {
      e->scope = VarScope::kGlobal;
    } else {
      return Fail(Peek(1)), nullptr;  // structured component variables: not supported
    }
    Advance();
    Advance();
  }
  const Token& name = Peek();
  if (name.kind == TokenKind::kIdent) {
    e->name = absl::AsciiStrToLower(name.text);
  } else if (name.kind == TokenKind::kQuotedIdent) {
    e->name = absl::AsciiStrToLower(name.value);
  } else {
    return Fail(), nullptr;
  }
  Advance();
  return e;
}

ExprPtr Parser::ParseParam() {
  if (options_.params == ParamMode::kForbidden) return Fail(), nullptr;
  Advance();
  ExprPtr e = MakeExpr(ExprKind::kParam);
  e->param_index = param_count_++;
  return e;
}

ExprPtr Parser::ParseRowRest(ExprPtr first) {
  ExprPtr row = MakeExpr(ExprKind::kRow);
  row->args.push_back(std::move(first));
  while (Accept(TokenKind::kComma)) {
    ExprPtr element = ParseExpr();
    if (!element) return nullptr;
    row->args.push_back(std::move(element));
  }
  if (!Expect(TokenKind::kRParen)) return nullptr;
  return row;
}

ExprPtr Parser::ParseSubqueryRest(ExprKind kind) {
  DepthGuard guard(this);
  if (!guard.ok()) return nullptr;
  has_subqueries_ = true;
  ExprPtr e = MakeExpr(kind);
  e->subquery = std::make_unique<SelectStmt>();
  if (!ParseQuery(e->subquery.get()) || !RefuseNestedCalcFoundRows(*e->subquery) ||
      !Expect(TokenKind::kRParen)) {
    return nullptr;
  }
  return e;
}

ExprPtr Parser::ParseIdentExpr() {
  const Token& t = Peek();
  if (t.kind == TokenKind::kIdent) {
    if (PeekKeyword("NULL")) return Advance(), Literal(LiteralKind::kNull, "NULL");
    if (PeekKeyword("TRUE")) return Advance(), Literal(LiteralKind::kBool, "1");
    if (PeekKeyword("FALSE")) return Advance(), Literal(LiteralKind::kBool, "0");
    TokenKind next = Peek(1).kind;
    if (t.text.size() > 1 && t.text[0] == '_' && IsKnownCharset(t.text.substr(1)) &&
        (next == TokenKind::kString || next == TokenKind::kHex || next == TokenKind::kBit)) {
      std::string charset = absl::AsciiStrToLower(t.text.substr(1));
      Advance();
      ExprPtr e = ParseLiteral();
      e->literal = LiteralKind::kString;
      e->charset = std::move(charset);
      return e;
    }
    // ROW is reserved: only its constructor, which MySQL's grammar gives two elements at least.
    if (PeekKeyword("ROW")) {
      if (next != TokenKind::kLParen) return Fail(), nullptr;
      Advance();
      Advance();
      ExprPtr first = ParseExpr();
      if (!first) return nullptr;
      if (Peek().kind != TokenKind::kComma) return Fail(), nullptr;
      return ParseRowRest(std::move(first));
    }
    if (PeekKeyword("EXISTS") && next == TokenKind::kLParen && StartsParenthesizedQuery(1)) {
      Advance();
      Advance();
      return ParseSubqueryRest(ExprKind::kExists);
    }
    if (PeekKeyword("CASE")) return ParseCase();
    if ((PeekKeyword("CAST") || PeekKeyword("CONVERT")) && next == TokenKind::kLParen) {
      return ParseCast();
    }
    if (PeekKeyword("INTERVAL")) return ParseLeadingInterval();
    if (PeekKeyword("BINARY")) {
      // BINARY expr is CAST(expr AS BINARY): a binary string, compared and matched byte for
      // byte (Django's case-sensitive lookups send `LIKE BINARY`).
      Advance();
      ExprPtr operand = ParseUnary();
      if (!operand) return nullptr;
      ExprPtr e = MakeExpr(ExprKind::kCast);
      e->cast.name = "BINARY";
      e->args.push_back(std::move(operand));
      return e;
    }
    if (IsUnsupportedExprKeyword(t.text))
      return NotSupported(absl::AsciiStrToUpper(t.text)), nullptr;
    if (next == TokenKind::kString &&
        (PeekKeyword("DATE") || PeekKeyword("TIME") || PeekKeyword("TIMESTAMP"))) {
      return ParseTemporalLiteral();
    }
    if (next == TokenKind::kLParen) {
      std::string name = absl::AsciiStrToUpper(t.text);
      Advance();
      return ParseFunctionArgs(std::move(name));
    }
    if (IsNiladicKeyword(t.text)) {
      ExprPtr e = MakeExpr(ExprKind::kFunction);
      e->name = absl::AsciiStrToUpper(Advance().text);
      return e;
    }
  }
  return ParseJsonArrow(*this, ParseColumnRef(*this));
}

// DATE 'text', TIME 'text' or TIMESTAMP 'text': a CAST of the text marked as a literal, with
// as many fractional digits as the text has.
ExprPtr Parser::ParseTemporalLiteral() {
  std::string type = absl::AsciiStrToUpper(Advance().text);
  ExprPtr text = ParseLiteral();
  if (!text) return nullptr;
  ExprPtr e = MakeExpr(ExprKind::kCast);
  e->cast.name = type == "TIMESTAMP" ? "DATETIME" : type;
  e->cast.literal = true;
  if (type != "DATE") {
    const std::string& value = text->text;
    const size_t dot = value.rfind('.');
    int digits = 0;
    if (dot != std::string::npos) {
      while (dot + 1 + digits < value.size() && absl::ascii_isdigit(value[dot + 1 + digits])) {
        ++digits;
      }
    }
    e->cast.scale = std::min(digits, 6);
  }
  e->args.push_back(std::move(text));
  return e;
}

// `INTERVAL expr unit + operand`, MySQL's simple_expr form: DATE_ADD(operand, interval). The
// rule binds tighter than any operator, so the operand is a unary expression. INTERVAL(n, …),
// the function, is not evaluated yet.
ExprPtr Parser::ParseLeadingInterval() {
  Advance();  // INTERVAL
  ExprPtr value = ParseExpr();
  if (!value) return nullptr;
  if (value->kind == ExprKind::kRow) {
    return NotSupported("INTERVAL"), nullptr;
  }
  ExprPtr interval = MakeExpr(ExprKind::kInterval);
  if (!ParseIntervalUnit(*this, false, &interval->unit) || !Expect(TokenKind::kPlus)) {
    return nullptr;
  }
  interval->args.push_back(std::move(value));
  ExprPtr date = ParseUnary();
  if (!date) return nullptr;
  return DateArithCall("DATE_ADD", std::move(date), std::move(interval));
}

ExprPtr Parser::ParseFunctionArgs(std::string name) {
  Advance();  // (
  ExprPtr e = MakeExpr(ExprKind::kFunction);
  e->name = std::move(name);
  e->has_parens = true;
  if (e->name == "VALUES") {
    ExprPtr column = ParseColumnRef(*this);
    if (!column || !Expect(TokenKind::kRParen)) return nullptr;
    e->args.push_back(std::move(column));
    return e;
  }
  if (e->name == "DATE_ADD" || e->name == "DATE_SUB" || e->name == "ADDDATE" ||
      e->name == "SUBDATE") {
    return ParseDateArithArgs(*this, e.get()) ? std::move(e) : nullptr;
  }
  if (e->name == "TIMESTAMPADD" || e->name == "TIMESTAMPDIFF") {
    return ParseTimestampArgs(*this, e.get()) ? std::move(e) : nullptr;
  }
  if (e->name == "EXTRACT") return ParseExtractArgs(*this, e.get()) ? std::move(e) : nullptr;
  if (e->name == "POSITION") return ParsePositionArgs(*this, e.get()) ? std::move(e) : nullptr;
  if (e->name == "TRIM") return ParseTrimArgs(*this, e.get()) ? std::move(e) : nullptr;
  if (e->name == "IF") {
    // IF is grammar in MySQL, not a function: exactly three arguments, else a syntax error.
    for (int i = 0; i < 3; ++i) {
      ExprPtr arg = ParseExpr();
      if (!arg || !Expect(i < 2 ? TokenKind::kComma : TokenKind::kRParen)) return nullptr;
      e->args.push_back(std::move(arg));
    }
    return e;
  }
  bool ok = IsAggregate(e->name) ? ParseAggregateArgs(*this, e.get())
                                 : Accept(TokenKind::kRParen) || ParseArgList(*this, e.get());
  if (!ok) return nullptr;
  if (AcceptKeyword("OVER") && !ParseOver(e.get())) return nullptr;
  return e;
}

// A frame's bound after ROWS/RANGE [BETWEEN] or AND. A ROWS offset is a non-negative integer
// literal; a RANGE one a non-negative number or INTERVAL n unit, made into the bound's value
// over the ORDER BY value (`descending`: the window's order, in which PRECEDING adds).
bool Parser::ParseFrameBound(bool rows, bool descending, FrameBound* out) {
  using Kind = FrameBound::Kind;
  if (AcceptKeyword("CURRENT")) {
    out->kind = Kind::kCurrentRow;
    return ExpectKeyword("ROW");
  }
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) {
      out->kind = Kind::kUnboundedPreceding;
      return true;
    }
    out->kind = Kind::kUnboundedFollowing;
    return ExpectKeyword("FOLLOWING");
  }
  ExprPtr offset;
  if (rows) {
    if (Peek().kind != TokenKind::kInteger || !absl::SimpleAtoi(Peek().text, &out->offset)) {
      return Fail();
    }
    Advance();
  } else if (AcceptKeyword("INTERVAL")) {
    if (!(offset = ParseIntervalRest(*this))) return false;
    out->interval = true;
  } else {
    const TokenKind k = Peek().kind;
    if (k != TokenKind::kInteger && k != TokenKind::kDecimal && k != TokenKind::kFloat) {
      return Fail();
    }
    offset = ParseLiteral();
  }
  if (AcceptKeyword("PRECEDING")) {
    out->kind = Kind::kPreceding;
  } else if (ExpectKeyword("FOLLOWING")) {
    out->kind = Kind::kFollowing;
  } else {
    return false;
  }
  if (offset != nullptr) {
    ExprPtr current = MakeExpr(ExprKind::kParam);
    current->param_index = 0;
    const bool add = (out->kind == Kind::kFollowing) != descending;
    out->value =
        out->interval
            ? DateArithCall(add ? "DATE_ADD" : "DATE_SUB", std::move(current), std::move(offset))
            : Binary(add ? BinaryOp::kAdd : BinaryOp::kSub, std::move(current), std::move(offset));
  }
  return true;
}

}  // namespace shoal::sql::internal
