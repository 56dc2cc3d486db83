// The MySQL lexer: turns one SQL text into tokens, the way MySQL 8.0's lexer does for the
// parts of the language Shoal speaks. Keywords are not told apart from identifiers here: a
// keyword is an unquoted identifier whose text the parser compares case-insensitively, so a
// new statement never needs a lexer change. Comments and optimizer hints are dropped;
// executable comments (`/*! … */`, `/*!80000 … */` for versions up to kServerVersionId) are
// lexed as SQL, as MySQL does.
//
// Tokens borrow from the input where they can (`text`); string-like literals carry their
// decoded bytes in `value`. Each token knows its byte offset and line so errors can quote the
// text from the failing token on, as MySQL's "near '…' at line N" does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace shoal::sql {

// The server version executable comments are compared with (`/*!80036 … */` applies).
inline constexpr int kServerVersionId = 80036;

enum class TokenKind : uint8_t {
  kEnd,          // end of input; always the last token
  kError,        // malformed input (unterminated string/comment, bad hex…); lexing stops
  kIdent,        // unquoted identifier or keyword; text is as written
  kQuotedIdent,  // `backquoted`; value is the unescaped name
  kString,       // '…' or "…"; value is decoded; introducer set for _cs'…' and N'…'
  kHex,          // X'4F' or 0x4F; value is the bytes
  kBit,          // b'01' or 0b01; value is the bytes (big-endian, minimal length)
  kInteger,      // digits only; text kept (may exceed 64 bits)
  kDecimal,      // 1.5, .5, 1.
  kFloat,        // 1e10, 1.5E-3
  kUserVar,      // @name, @'name', @`name`; value is the name
  kAtAt,         // @@ (the system variable prefix; scope and name follow as tokens)
  kParam,        // ?
  // Operators and punctuation.
  kEq,          // =
  kNullSafeEq,  // <=>
  kNe,          // != or <>
  kLt,
  kLe,
  kGt,
  kGe,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kOrOr,    // ||
  kAndAnd,  // &&
  kBang,    // !
  kTilde,
  kCaret,
  kAmp,
  kPipe,
  kShl,     // <<
  kShr,     // >>
  kAssign,  // :=
  kDot,
  kComma,
  kSemicolon,
  kLParen,
  kRParen,
  kArrow,        // -> (JSON_EXTRACT of a column)
  kDoubleArrow,  // ->> (JSON_UNQUOTE of that)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  absl::string_view text;  // the token as written (borrows the input)
  std::string value;       // decoded content of strings, quoted identifiers, hex, bit, @vars
  std::string introducer;  // charset of `_utf8mb4'…'` ("utf8mb4") or N'…' ("utf8mb3")
  uint32_t offset = 0;     // byte offset of the token in the input
  uint32_t line = 1;       // 1-based line of the token
};

enum class BackslashEscapes : uint8_t { kOn, kOff };  // kOff = sql_mode NO_BACKSLASH_ESCAPES
// What "…" is: a string, or (sql_mode ANSI_QUOTES) an identifier, as `…` is.
enum class DoubleQuotes : uint8_t { kString, kIdentifier };

// Lexes all of `sql`. The result always ends with kEnd, or with kError (whose text is the
// rest of the input from the malformed token). Tokens borrow `sql`; keep it alive.
std::vector<Token> Lex(absl::string_view sql, BackslashEscapes escapes = BackslashEscapes::kOn,
                       DoubleQuotes double_quotes = DoubleQuotes::kString);

// True when `tok` is the unquoted identifier `keyword` (ASCII, case-insensitive).
bool IsKeyword(const Token& tok, absl::string_view keyword);

// MySQL 8.0's reserved words that matter to our grammar: they cannot be bare identifiers or
// aliases without backquotes.
bool IsReservedWord(absl::string_view word);
// MySQL 8.0's reserved words, upper case and sorted (information_schema.KEYWORDS).
absl::Span<const char* const> ReservedWords();

}  // namespace shoal::sql
