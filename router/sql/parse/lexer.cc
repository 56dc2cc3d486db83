// See lexer.h. The scanner is one loop over bytes; each literal kind has a small helper that
// returns the end of the token or marks the input malformed.
#include "router/sql/parse/lexer.h"

#include <algorithm>
#include <array>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace shoal::sql {
namespace {

bool IsIdentChar(unsigned char c) {
  return absl::ascii_isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

bool IsHexDigit(char c) { return absl::ascii_isxdigit(static_cast<unsigned char>(c)); }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return absl::ascii_tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

// "4F" (odd lengths are left-padded with 0, as 0x literals are) -> bytes.
std::string DecodeHex(absl::string_view digits) {
  std::string out;
  size_t i = 0;
  if (digits.size() % 2 == 1) {
    out.push_back(static_cast<char>(HexValue(digits[0])));
    i = 1;
  }
  for (; i < digits.size(); i += 2) {  // an even count remains
    out.push_back(static_cast<char>(HexValue(digits[i]) * 16 + HexValue(digits[i + 1])));
  }
  return out;
}

// "0101" -> bytes, big-endian, as few bytes as hold the bits (empty for "").
std::string DecodeBits(absl::string_view bits) {
  std::string out;
  size_t lead = bits.size() % 8;
  size_t i = 0;
  auto take = [&](size_t n) {
    unsigned v = 0;
    for (size_t k = 0; k < n; ++k) v = v * 2 + (bits[i++] - '0');
    out.push_back(static_cast<char>(v));
  };
  if (lead != 0) take(lead);
  while (i < bits.size()) take(8);
  return out;
}

class Lexer {
 public:
  Lexer(absl::string_view sql, BackslashEscapes escapes, DoubleQuotes double_quotes)
      : sql_(sql), escapes_(escapes), double_quotes_(double_quotes) {}

  std::vector<Token> Run() {
    std::vector<Token> out;
    while (true) {
      Token tok = Next();
      bool stop = tok.kind == TokenKind::kEnd || tok.kind == TokenKind::kError;
      out.push_back(std::move(tok));
      if (stop) break;
    }
    return out;
  }

 private:
  char At(size_t i) const { return i < sql_.size() ? sql_[i] : '\0'; }
  bool AtEnd(size_t i) const { return i >= sql_.size(); }

  // Advances line_ to the line of byte `pos` (positions only ever grow).
  uint32_t LineOf(size_t pos) {
    for (; line_pos_ < pos && line_pos_ < sql_.size(); ++line_pos_) {
      if (sql_[line_pos_] == '\n') ++line_;
    }
    return line_;
  }

  Token Make(TokenKind kind, size_t start, size_t end) {
    Token t;
    t.kind = kind;
    t.text = sql_.substr(start, end - start);
    t.offset = static_cast<uint32_t>(start);
    t.line = LineOf(start);
    pos_ = end;
    return t;
  }

  Token Error(size_t start) { return Make(TokenKind::kError, start, sql_.size()); }

  // Skips whitespace and comments. Returns false (with *error_at set) on an unterminated
  // block comment.
  bool SkipSpaceAndComments(size_t* error_at) {
    while (!AtEnd(pos_)) {
      unsigned char c = sql_[pos_];
      if (absl::ascii_isspace(c)) {
        ++pos_;
      } else if (c == '#' || (c == '-' && At(pos_ + 1) == '-' &&
                              (AtEnd(pos_ + 2) || absl::ascii_isspace(At(pos_ + 2)) ||
                               absl::ascii_iscntrl(At(pos_ + 2))))) {
        while (!AtEnd(pos_) && sql_[pos_] != '\n') ++pos_;
      } else if (c == '*' && At(pos_ + 1) == '/' && in_exec_comment_) {
        in_exec_comment_ = false;
        pos_ += 2;
      } else if (c == '/' && At(pos_ + 1) == '*') {
        if (!SkipBlockComment(error_at)) return false;
      } else {
        break;
      }
    }
    return true;
  }

  // At "/*": an executable comment opens (its content is lexed as SQL) or the comment is
  // skipped whole, hints included.
  bool SkipBlockComment(size_t* error_at) {
    size_t start = pos_;
    if (At(pos_ + 2) == '!' && !in_exec_comment_) {
      size_t p = pos_ + 3;
      size_t digits = 0;
      while (digits < 5 && absl::ascii_isdigit(At(p + digits))) ++digits;
      int version = 0;
      if (digits == 5) {
        for (size_t k = 0; k < 5; ++k) version = version * 10 + (At(p + k) - '0');
        p += 5;
      }
      if (digits != 5 || version <= kServerVersionId) {
        in_exec_comment_ = true;
        pos_ = p;
        return true;
      }
    }
    size_t close = sql_.find("*/", pos_ + 2);
    if (close == absl::string_view::npos) {
      *error_at = start;
      return false;
    }
    pos_ = close + 2;
    return true;
  }

  Token Next() {
    size_t error_at = 0;
    if (!SkipSpaceAndComments(&error_at)) return Error(error_at);
    size_t start = pos_;
    if (AtEnd(pos_)) return Make(TokenKind::kEnd, start, start);
    char c = sql_[pos_];
    char n = At(pos_ + 1);
    switch (c) {
      case '"':
        if (double_quotes_ == DoubleQuotes::kIdentifier) return QuotedIdent(start);
        return QuotedString(start, start);
      case '\'':
        return QuotedString(start, start);
      case '`':
        return QuotedIdent(start);
      case '@':
        return Variable(start);
      case '?':
        return Make(TokenKind::kParam, start, start + 1);
      case '=':
        return Make(TokenKind::kEq, start, start + 1);
      case '<':
        if (n == '=' && At(pos_ + 2) == '>') return Make(TokenKind::kNullSafeEq, start, start + 3);
        if (n == '=') return Make(TokenKind::kLe, start, start + 2);
        if (n == '>') return Make(TokenKind::kNe, start, start + 2);
        if (n == '<') return Make(TokenKind::kShl, start, start + 2);
        return Make(TokenKind::kLt, start, start + 1);
      case '>':
        if (n == '=') return Make(TokenKind::kGe, start, start + 2);
        if (n == '>') return Make(TokenKind::kShr, start, start + 2);
        return Make(TokenKind::kGt, start, start + 1);
      case '!':
        if (n == '=') return Make(TokenKind::kNe, start, start + 2);
        return Make(TokenKind::kBang, start, start + 1);
      case '|':
        if (n == '|') return Make(TokenKind::kOrOr, start, start + 2);
        return Make(TokenKind::kPipe, start, start + 1);
      case '&':
        if (n == '&') return Make(TokenKind::kAndAnd, start, start + 2);
        return Make(TokenKind::kAmp, start, start + 1);
      case ':':
        if (n == '=') return Make(TokenKind::kAssign, start, start + 2);
        return Error(start);
      case '+':
        return Make(TokenKind::kPlus, start, start + 1);
      case '-':
        if (n == '>') {
          if (At(start + 2) == '>') return Make(TokenKind::kDoubleArrow, start, start + 3);
          return Make(TokenKind::kArrow, start, start + 2);
        }
        return Make(TokenKind::kMinus, start, start + 1);
      case '*':
        return Make(TokenKind::kStar, start, start + 1);
      case '/':
        return Make(TokenKind::kSlash, start, start + 1);
      case '%':
        return Make(TokenKind::kPercent, start, start + 1);
      case '~':
        return Make(TokenKind::kTilde, start, start + 1);
      case '^':
        return Make(TokenKind::kCaret, start, start + 1);
      case ',':
        return Make(TokenKind::kComma, start, start + 1);
      case ';':
        return Make(TokenKind::kSemicolon, start, start + 1);
      case '(':
        return Make(TokenKind::kLParen, start, start + 1);
      case ')':
        return Make(TokenKind::kRParen, start, start + 1);
      case '.':
        if (absl::ascii_isdigit(n)) return Number(start);
        return Make(TokenKind::kDot, start, start + 1);
      default:
        break;
    }
    if (n == '\'') {
      char lc = absl::ascii_tolower(static_cast<unsigned char>(c));
      if (lc == 'x') return HexString(start);
      if (lc == 'b') return BitString(start);
      if (lc == 'n') {
        Token t = QuotedString(start, start + 1);
        if (t.kind == TokenKind::kString) t.introducer = "utf8mb3";
        return t;
      }
    }
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) return Number(start);
    if (IsIdentChar(static_cast<unsigned char>(c))) return Identifier(start);
    return Error(start);
  }

  // A quoted string whose opening quote is at `quote_at` (`start` may be earlier, for N'…').
  Token QuotedString(size_t start, size_t quote_at) {
    char q = sql_[quote_at];
    std::string value;
    size_t p = quote_at + 1;
    while (true) {
      if (AtEnd(p)) return Error(start);
      char c = sql_[p];
      if (c == '\\' && escapes_ == BackslashEscapes::kOn && !AtEnd(p + 1)) {
        char e = sql_[p + 1];
        switch (e) {
          case '0':
            value.push_back('\0');
            break;
          case 'b':
            value.push_back('\b');
            break;
          case 'n':
            value.push_back('\n');
            break;
          case 'r':
            value.push_back('\r');
            break;
          case 't':
            value.push_back('\t');
            break;
          case 'Z':
            value.push_back('\x1a');
            break;
          case '%':
          case '_':  // kept escaped so LIKE patterns still see them as literals
            value.push_back('\\');
            value.push_back(e);
            break;
          default:
            value.push_back(e);
            break;
        }
        p += 2;
      } else if (c == q) {
        if (At(p + 1) == q) {
          value.push_back(q);
          p += 2;
        } else {
          ++p;
          break;
        }
      } else {
        value.push_back(c);
        ++p;
      }
    }
    Token t = Make(TokenKind::kString, start, p);
    t.value = std::move(value);
    return t;
  }

  // `…`, or "…" under ANSI_QUOTES: the quote doubled stands for itself.
  Token QuotedIdent(size_t start) {
    const char q = sql_[start];
    std::string value;
    size_t p = start + 1;
    while (true) {
      if (AtEnd(p)) return Error(start);
      if (sql_[p] == q) {
        if (At(p + 1) == q) {
          value.push_back(q);
          p += 2;
          continue;
        }
        ++p;
        break;
      }
      value.push_back(sql_[p++]);
    }
    Token t = Make(TokenKind::kQuotedIdent, start, p);
    t.value = std::move(value);
    return t;
  }

  Token Variable(size_t start) {
    if (At(start + 1) == '@') return Make(TokenKind::kAtAt, start, start + 2);
    char q = At(start + 1);
    if (q == '\'' || q == '"' || q == '`') {
      Token inner = q == '`' ? QuotedIdent(start + 1) : QuotedString(start + 1, start + 1);
      if (inner.kind == TokenKind::kError) return Error(start);
      Token t = Make(TokenKind::kUserVar, start, pos_);
      t.value = std::move(inner.value);
      return t;
    }
    size_t p = start + 1;
    while (!AtEnd(p) && (IsIdentChar(sql_[p]) || sql_[p] == '.')) ++p;
    if (p == start + 1) return Error(start);
    Token t = Make(TokenKind::kUserVar, start, p);
    t.value = std::string(sql_.substr(start + 1, p - start - 1));
    return t;
  }

  Token HexString(size_t start) {
    size_t p = start + 2;
    while (!AtEnd(p) && IsHexDigit(sql_[p])) ++p;
    if (At(p) != '\'') return Error(start);
    absl::string_view digits = sql_.substr(start + 2, p - start - 2);
    if (digits.size() % 2 != 0) return Error(start);
    Token t = Make(TokenKind::kHex, start, p + 1);
    t.value = DecodeHex(digits);
    return t;
  }

  Token BitString(size_t start) {
    size_t p = start + 2;
    while (!AtEnd(p) && (sql_[p] == '0' || sql_[p] == '1')) ++p;
    if (At(p) != '\'') return Error(start);
    Token t = Make(TokenKind::kBit, start, p + 1);
    t.value = DecodeBits(sql_.substr(start + 2, p - start - 2));
    return t;
  }

  size_t IdentEnd(size_t p) const {
    while (!AtEnd(p) && IsIdentChar(sql_[p])) ++p;
    return p;
  }

  Token Identifier(size_t start) { return Make(TokenKind::kIdent, start, IdentEnd(start)); }

  // Digits, decimals, floats, 0x/0b literals, and identifiers that start with digits (MySQL
  // allows `1abc` as a name).
  Token Number(size_t start) {
    if (sql_[start] == '0' && (At(start + 1) == 'x' || At(start + 1) == 'b')) {
      size_t end = IdentEnd(start);
      absl::string_view body = sql_.substr(start + 2, end - start - 2);
      bool hex = At(start + 1) == 'x';
      bool ok = !body.empty() && std::all_of(body.begin(), body.end(), [&](char c) {
        return hex ? IsHexDigit(c) : (c == '0' || c == '1');
      });
      if (ok) {
        Token t = Make(hex ? TokenKind::kHex : TokenKind::kBit, start, end);
        t.value = hex ? DecodeHex(body) : DecodeBits(body);
        return t;
      }
      return Make(TokenKind::kIdent, start, end);
    }
    size_t p = start;
    while (absl::ascii_isdigit(At(p))) ++p;
    TokenKind kind = TokenKind::kInteger;
    if (At(p) == '.') {
      kind = TokenKind::kDecimal;
      ++p;
      while (absl::ascii_isdigit(At(p))) ++p;
    }
    char e = At(p);
    if (e == 'e' || e == 'E') {
      size_t q = p + 1;
      if (At(q) == '+' || At(q) == '-') ++q;
      if (absl::ascii_isdigit(At(q))) {
        while (absl::ascii_isdigit(At(q))) ++q;
        return Make(TokenKind::kFloat, start, q);
      }
    }
    if (kind == TokenKind::kInteger && !AtEnd(p) && IsIdentChar(sql_[p])) {
      return Make(TokenKind::kIdent, start, IdentEnd(p));
    }
    return Make(kind, start, p);
  }

  absl::string_view sql_;
  BackslashEscapes escapes_;
  DoubleQuotes double_quotes_;
  size_t pos_ = 0;
  size_t line_pos_ = 0;
  uint32_t line_ = 1;
  bool in_exec_comment_ = false;
};

// Sorted, upper case: binary-searched by IsReservedWord.
constexpr std::array kReserved = {
    "ACCESSIBLE",
    "ADD",
    "ALL",
    "ALTER",
    "ANALYZE",
    "AND",
    "AS",
    "ASC",
    "BETWEEN",
    "BIGINT",
    "BINARY",
    "BLOB",
    "BOTH",
    "BY",
    "CALL",
    "CASCADE",
    "CASE",
    "CHANGE",
    "CHAR",
    "CHARACTER",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "CONDITION",
    "CONSTRAINT",
    "CONTINUE",
    "CONVERT",
    "CREATE",
    "CROSS",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "CURSOR",
    "DATABASE",
    "DATABASES",
    "DECIMAL",
    "DECLARE",
    "DEFAULT",
    "DELETE",
    "DESC",
    "DESCRIBE",
    "DISTINCT",
    "DIV",
    "DOUBLE",
    "DROP",
    "DUAL",
    "ELSE",
    "ELSEIF",
    "EXISTS",
    "EXPLAIN",
    "FALSE",
    "FETCH",
    "FLOAT",
    "FOR",
    "FORCE",
    "FOREIGN",
    "FROM",
    "FULLTEXT",
    "GRANT",
    "GROUP",
    "HAVING",
    "IF",
    "IGNORE",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INT",
    "INTEGER",
    "INTERVAL",
    "INTO",
    "IS",
    "JOIN",
    "KEY",
    "KEYS",
    "KILL",
    "LEADING",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LINES",
    "LOAD",
    "LOCALTIME",
    "LOCALTIMESTAMP",
    "LOCK",
    "MATCH",
    "MOD",
    "NATURAL",
    "NOT",
    "NULL",
    "NUMERIC",
    "ON",
    "OPTION",
    "OR",
    "ORDER",
    "OUTER",
    "OVER",
    "PARTITION",
    "PRIMARY",
    "PROCEDURE",
    "RANGE",
    "READ",
    "REAL",
    "REFERENCES",
    "REGEXP",
    "RENAME",
    "REPLACE",
    "REQUIRE",
    "RESTRICT",
    "RETURN",
    "REVOKE",
    "RIGHT",
    "RLIKE",
    "SCHEMA",
    "SCHEMAS",
    "SELECT",
    "SET",
    "SHOW",
    "SMALLINT",
    "SQL",
    "STRAIGHT_JOIN",
    "TABLE",
    "THEN",
    "TINYINT",
    "TO",
    "TRAILING",
    "TRIGGER",
    "TRUE",
    "UNION",
    "UNIQUE",
    "UNLOCK",
    "UNSIGNED",
    "UPDATE",
    "USAGE",
    "USE",
    "USING",
    "UTC_DATE",
    "UTC_TIME",
    "UTC_TIMESTAMP",
    "VALUES",
    "VARCHAR",
    "WHEN",
    "WHERE",
    "WHILE",
    "WINDOW",
    "WITH",
    "WRITE",
    "XOR",
    "ZEROFILL",
};

}  // namespace

std::vector<Token> Lex(absl::string_view sql, BackslashEscapes escapes,
                       DoubleQuotes double_quotes) {
  return Lexer(sql, escapes, double_quotes).Run();
}

bool IsKeyword(const Token& tok, absl::string_view keyword) {
  return tok.kind == TokenKind::kIdent && absl::EqualsIgnoreCase(tok.text, keyword);
}

absl::Span<const char* const> ReservedWords() { return kReserved; }

bool IsReservedWord(absl::string_view word) {
  std::string upper = absl::AsciiStrToUpper(word);
  return std::binary_search(kReserved.begin(), kReserved.end(), upper,
                            [](absl::string_view a, absl::string_view b) { return a < b; });
}

}  // namespace shoal::sql
