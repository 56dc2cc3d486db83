// CREATE and DROP of databases, tables and indexes; TRUNCATE; ANALYZE; EXPLAIN and DESCRIBE.
//
// The parser checks the grammar and keeps what Shoal acts on; what a definition means (types,
// lengths, keys, defaults) is judged by table_spec.cc. Options that change nothing for an
// in-memory NDB-style engine (row formats, tablespaces, statistics, key block sizes…) are
// accepted and dropped, as NDB drops InnoDB's. Constructs whose meaning Shoal cannot keep
// (foreign keys, generated columns, other partitionings…) answer 1235 rather than being
// silently ignored.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/charsets.h"
#include "router/sql/parse/parser_internal.h"

namespace shoal::sql::internal {

Match Matched(bool ok) { return ok ? Match::kYes : Match::kError; }

bool PeekAny(const Parser& p, std::initializer_list<absl::string_view> words, size_t ahead) {
  return std::any_of(words.begin(), words.end(),
                     [&](absl::string_view w) { return p.PeekKeyword(w, ahead); });
}

bool AcceptAny(Parser& p, std::initializer_list<absl::string_view> words) {
  if (!PeekAny(p, words)) return false;
  p.Advance();
  return true;
}

namespace {

// A statement MySQL has and Shoal does not: 1235 naming its first two words ("CREATE VIEW"),
// as Parser::UnsupportedStatement does. `p` is at the first word.
bool NotSupportedStatement(Parser& p) {
  const Token& next = p.Peek(1);
  if (next.kind != TokenKind::kIdent) return p.Fail(next);
  return p.NotSupported(
      absl::StrCat(absl::AsciiStrToUpper(p.Peek().text), " ", absl::AsciiStrToUpper(next.text)));
}

bool ParseNameList(Parser& p, std::vector<TableName>* out) {
  do {
    if (!p.ParseTableName(&out->emplace_back())) return false;
  } while (p.Accept(TokenKind::kComma));
  return true;
}

// An unsigned integer literal. Values past the type saturate, so that table_spec.cc reports
// them as too big, as MySQL does.
bool ParseUint(Parser& p, uint64_t* out) {
  const Token& t = p.Peek();
  if (t.kind != TokenKind::kInteger) return p.Fail();
  if (!absl::SimpleAtoi(t.text, out)) *out = std::numeric_limits<uint64_t>::max();
  p.Advance();
  return true;
}

bool ParseUint32(Parser& p, uint32_t* out) {
  uint64_t v = 0;
  if (!ParseUint(p, &v)) return false;
  *out = static_cast<uint32_t>(std::min<uint64_t>(v, std::numeric_limits<uint32_t>::max()));
  return true;
}

// [IF NOT EXISTS] and [IF EXISTS]; false only on a syntax error.
bool ParseIfNotExists(Parser& p, bool* out) {
  *out = p.AcceptKeyword("IF");
  return !*out || (p.ExpectKeyword("NOT") && p.ExpectKeyword("EXISTS"));
}

bool ParseIfExists(Parser& p, bool* out) {
  *out = p.AcceptKeyword("IF");
  return !*out || p.ExpectKeyword("EXISTS");
}

// `(…)` skipped whole, nested parentheses included.
bool SkipParenthesized(Parser& p) {
  if (!p.Expect(TokenKind::kLParen)) return false;
  for (int depth = 1; depth > 0;) {
    TokenKind k = p.Peek().kind;
    if (k == TokenKind::kEnd || k == TokenKind::kError) return p.Fail();
    depth += k == TokenKind::kLParen ? 1 : k == TokenKind::kRParen ? -1 : 0;
    p.Advance();
  }
  return true;
}

// The value of an option written `NAME [=] value`: one word, number or string.
bool SkipOptionValue(Parser& p) {
  p.Accept(TokenKind::kEq);
  TokenKind k = p.Peek().kind;
  if (k != TokenKind::kIdent && k != TokenKind::kQuotedIdent && k != TokenKind::kInteger &&
      k != TokenKind::kDecimal && k != TokenKind::kString) {
    return p.Fail();
  }
  p.Advance();
  return true;
}

// CHECK (expr) [[NOT] ENFORCED]: accepted and not enforced, as MySQL before 8.0.16 did,
// because ORMs emit them (Django's PositiveIntegerField).
bool SkipCheck(Parser& p) {
  p.Advance();  // CHECK
  if (!SkipParenthesized(p)) return false;
  if (p.PeekKeyword("NOT") && p.PeekKeyword("ENFORCED", 1)) p.Advance();
  p.AcceptKeyword("ENFORCED");
  return true;
}

// RESTRICT | CASCADE | SET NULL | SET DEFAULT | NO ACTION, after ON DELETE or ON UPDATE.
bool ParseReferenceAction(Parser& p, ForeignKeySpec::Action* out) {
  using Action = ForeignKeySpec::Action;
  if (p.AcceptKeyword("RESTRICT")) {
    *out = Action::kRestrict;
  } else if (p.AcceptKeyword("CASCADE")) {
    *out = Action::kCascade;
  } else if (p.AcceptKeyword("SET")) {
    if (p.AcceptKeyword("NULL")) {
      *out = Action::kSetNull;
    } else if (p.ExpectKeyword("DEFAULT")) {
      *out = Action::kSetDefault;
    } else {
      return false;
    }
  } else if (p.ExpectKeyword("NO") && p.ExpectKeyword("ACTION")) {
    *out = Action::kNoAction;
  } else {
    return false;
  }
  return true;
}

// REFERENCES t (cols) [MATCH FULL | PARTIAL | SIMPLE] [ON DELETE action] [ON UPDATE action],
// either order.
bool ParseReferences(Parser& p, ForeignKeySpec* out) {
  if (!p.ExpectKeyword("REFERENCES") || !p.ParseTableName(&out->parent) ||
      !p.Expect(TokenKind::kLParen)) {
    return false;
  }
  do {
    if (!p.ParseIdentifier(&out->parent_columns.emplace_back())) return false;
  } while (p.Accept(TokenKind::kComma));
  if (!p.Expect(TokenKind::kRParen)) return false;
  if (p.AcceptKeyword("MATCH") && !AcceptAny(p, {"FULL", "PARTIAL", "SIMPLE"})) return p.Fail();
  while (p.PeekKeyword("ON") && PeekAny(p, {"DELETE", "UPDATE"}, 1)) {
    p.Advance();  // ON
    const bool on_delete = p.PeekKeyword("DELETE");
    p.Advance();
    if (!ParseReferenceAction(p, on_delete ? &out->on_delete : &out->on_update)) return false;
  }
  return true;
}

// A column's inline REFERENCES t (cols) [MATCH …] [ON DELETE|UPDATE action]: MySQL parses
// and ignores it (only FOREIGN KEY clauses make constraints), and so does Shoal.
bool SkipReferences(Parser& p) {
  ForeignKeySpec ignored;
  return ParseReferences(p, &ignored);
}

// FOREIGN KEY [index_name] (cols) REFERENCES …, after [CONSTRAINT [name]].
bool ParseForeignKey(Parser& p, std::string name, ForeignKeySpec* out) {
  out->name = std::move(name);
  if (!p.ExpectKeyword("FOREIGN") || !p.ExpectKeyword("KEY")) return false;
  if (p.Peek().kind != TokenKind::kLParen && !p.ParseIdentifier(&out->index_name)) return false;
  if (!p.Expect(TokenKind::kLParen)) return false;
  do {
    if (!p.ParseIdentifier(&out->columns.emplace_back())) return false;
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen) && ParseReferences(p, out);
}

// ---------------------------------------------------------------------------------------
// Character sets and collations of tables and databases

// These are only names to Shoal (data is stored as given and compared as bytes), but they
// must be names MySQL knows. The parser has no way to raise 1115/1273, so an unknown name
// answers 1235 naming it.
bool ParseCharsetName(Parser& p, bool collation, std::string* collation_out) {
  std::string name;
  if (!p.ParseNameOrString(&name)) return false;
  if (absl::EqualsIgnoreCase(name, "DEFAULT")) return true;
  if (collation ? FindCollation(name) != nullptr : IsKnownCharset(name)) {
    if (collation && collation_out != nullptr) *collation_out = absl::AsciiStrToLower(name);
    // A charset without a COLLATE before it means its default collation, as in MySQL: so
    // ALTER TABLE t DEFAULT CHARSET=utf8mb4 makes a _bin table's default case-insensitive
    // again. A COLLATE after it still decides.
    if (!collation && collation_out != nullptr && collation_out->empty()) {
      *collation_out = std::string(FindCharset(name)->default_collation);
    }
    return true;
  }
  return p.NotSupported(absl::StrCat(collation ? "COLLATE " : "CHARACTER SET ", name));
}

// [DEFAULT] {CHARACTER SET | CHARSET} [=] x  |  [DEFAULT] COLLATE [=] x; a collation named
// goes to `*collation` (when given), or a charset's default one when none was named yet.
Match ParseCharsetOption(Parser& p, std::string* collation = nullptr) {
  size_t at = p.PeekKeyword("DEFAULT") ? 1 : 0;
  bool charset = p.PeekKeyword("CHARSET", at) ||
                 (p.PeekKeyword("CHARACTER", at) && p.PeekKeyword("SET", at + 1));
  if (!charset && !p.PeekKeyword("COLLATE", at)) return Match::kNo;
  if (at) p.Advance();  // DEFAULT
  bool two_words = p.PeekKeyword("CHARACTER");
  p.Advance();                 // CHARSET, CHARACTER or COLLATE
  if (two_words) p.Advance();  // SET
  p.Accept(TokenKind::kEq);
  return Matched(ParseCharsetName(p, !charset, collation));
}

// ---------------------------------------------------------------------------------------
// Column types

// What may follow a type's name.
enum class TypeArgs : uint8_t {
  kNone,
  kLength,          // [(n)]
  kRequiredLength,  // (n)
  kPrecision,       // [(p)] or [(p, s)]
  kValues,          // ('a', 'b', …)
};

struct TypeWord {
  absl::string_view word;
  absl::string_view name;  // canonical, as TypeSpec documents
  TypeArgs args;
};

// One-word type names and their synonyms.
constexpr TypeWord kTypeWords[] = {
    {"TINYINT", "TINYINT", TypeArgs::kLength},
    {"INT1", "TINYINT", TypeArgs::kLength},
    {"SMALLINT", "SMALLINT", TypeArgs::kLength},
    {"INT2", "SMALLINT", TypeArgs::kLength},
    {"MEDIUMINT", "MEDIUMINT", TypeArgs::kLength},
    {"MIDDLEINT", "MEDIUMINT", TypeArgs::kLength},
    {"INT3", "MEDIUMINT", TypeArgs::kLength},
    {"INT", "INT", TypeArgs::kLength},
    {"INTEGER", "INT", TypeArgs::kLength},
    {"INT4", "INT", TypeArgs::kLength},
    {"BIGINT", "BIGINT", TypeArgs::kLength},
    {"INT8", "BIGINT", TypeArgs::kLength},
    {"FLOAT", "FLOAT", TypeArgs::kPrecision},
    {"FLOAT4", "FLOAT", TypeArgs::kPrecision},
    {"FLOAT8", "DOUBLE", TypeArgs::kPrecision},
    {"REAL", "DOUBLE", TypeArgs::kPrecision},
    {"DECIMAL", "DECIMAL", TypeArgs::kPrecision},
    {"DEC", "DECIMAL", TypeArgs::kPrecision},
    {"NUMERIC", "DECIMAL", TypeArgs::kPrecision},
    {"FIXED", "DECIMAL", TypeArgs::kPrecision},
    {"BIT", "BIT", TypeArgs::kLength},
    {"VARCHAR", "VARCHAR", TypeArgs::kRequiredLength},
    {"VARCHARACTER", "VARCHAR", TypeArgs::kRequiredLength},
    {"BINARY", "BINARY", TypeArgs::kLength},
    {"VARBINARY", "VARBINARY", TypeArgs::kRequiredLength},
    {"TINYTEXT", "TINYTEXT", TypeArgs::kNone},
    {"TEXT", "TEXT", TypeArgs::kLength},
    {"MEDIUMTEXT", "MEDIUMTEXT", TypeArgs::kNone},
    {"LONGTEXT", "LONGTEXT", TypeArgs::kNone},
    {"TINYBLOB", "TINYBLOB", TypeArgs::kNone},
    {"BLOB", "BLOB", TypeArgs::kLength},
    {"MEDIUMBLOB", "MEDIUMBLOB", TypeArgs::kNone},
    {"LONGBLOB", "LONGBLOB", TypeArgs::kNone},
    {"DATE", "DATE", TypeArgs::kNone},
    {"TIME", "TIME", TypeArgs::kLength},
    {"DATETIME", "DATETIME", TypeArgs::kLength},
    {"TIMESTAMP", "TIMESTAMP", TypeArgs::kLength},
    {"YEAR", "YEAR", TypeArgs::kLength},
    {"ENUM", "ENUM", TypeArgs::kValues},
    {"SET", "SET", TypeArgs::kValues},
    {"JSON", "JSON", TypeArgs::kNone},
    {"GEOMETRY", "GEOMETRY", TypeArgs::kNone},
    {"POINT", "POINT", TypeArgs::kNone},
    {"LINESTRING", "LINESTRING", TypeArgs::kNone},
    {"POLYGON", "POLYGON", TypeArgs::kNone},
    {"MULTIPOINT", "MULTIPOINT", TypeArgs::kNone},
    {"MULTILINESTRING", "MULTILINESTRING", TypeArgs::kNone},
    {"MULTIPOLYGON", "MULTIPOLYGON", TypeArgs::kNone},
    {"GEOMETRYCOLLECTION", "GEOMETRYCOLLECTION", TypeArgs::kNone},
    {"GEOMCOLLECTION", "GEOMETRYCOLLECTION", TypeArgs::kNone},
};

bool IsNumericType(absl::string_view name) {
  for (absl::string_view n :
       {"TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL"}) {
    if (name == n) return true;
  }
  return false;
}

bool IsCharacterType(absl::string_view name) {
  for (absl::string_view n :
       {"CHAR", "VARCHAR", "TINYTEXT", "TEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET"}) {
    if (name == n) return true;
  }
  return false;
}

// The types spelled in more than one word, or that stand for a type plus attributes:
// CHAR VARYING, NATIONAL CHAR, NCHAR, NVARCHAR, DOUBLE PRECISION, LONG [VARCHAR|VARBINARY],
// BOOL, SERIAL. `word` is the first word, upper case, already consumed; it may be replaced
// by the word the synonym stands for.
Match ParseSpecialType(Parser& p, std::string* word, ColumnSpec* col, TypeArgs* args) {
  TypeSpec& type = col->type;
  if (*word == "NATIONAL" || *word == "NCHAR" || *word == "NVARCHAR") {
    type.charset = "utf8mb3";  // MySQL's national character set
    if (*word == "NATIONAL") {
      if (!PeekAny(p, {"CHAR", "CHARACTER", "VARCHAR", "VARCHARACTER"})) return Matched(p.Fail());
      *word = absl::AsciiStrToUpper(p.Advance().text);
    } else {
      *word = *word == "NVARCHAR" || p.AcceptKeyword("VARCHAR") ? "VARCHAR" : "CHAR";
    }
  }
  if (*word == "CHAR" || *word == "CHARACTER") {
    bool varying = p.AcceptKeyword("VARYING");
    type.name = varying ? "VARCHAR" : "CHAR";
    *args = varying ? TypeArgs::kRequiredLength : TypeArgs::kLength;
  } else if (*word == "DOUBLE") {
    p.AcceptKeyword("PRECISION");
    type.name = "DOUBLE";
    *args = TypeArgs::kPrecision;
  } else if (*word == "BOOL" || *word == "BOOLEAN") {
    type.name = "TINYINT";
    type.length = 1;
  } else if (*word == "LONG") {
    bool binary = p.AcceptKeyword("VARBINARY");
    if (!binary) AcceptAny(p, {"VARCHAR", "VARCHARACTER"});
    type.name = binary ? "MEDIUMBLOB" : "MEDIUMTEXT";
  } else if (*word == "SERIAL") {  // BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
    type.name = "BIGINT";
    type.is_unsigned = true;
    col->nullable = false;
    col->auto_increment = true;
    col->unique = true;
  } else {
    return Match::kNo;
  }
  return Match::kYes;
}

bool ParseTypeName(Parser& p, ColumnSpec* col, TypeArgs* args) {
  const Token& first = p.Peek();
  if (first.kind != TokenKind::kIdent) return p.Fail();
  std::string word = absl::AsciiStrToUpper(p.Advance().text);
  *args = TypeArgs::kNone;
  Match special = ParseSpecialType(p, &word, col, args);
  if (special != Match::kNo) return special == Match::kYes;
  for (const TypeWord& t : kTypeWords) {
    if (word == t.word) {
      col->type.name = std::string(t.name);
      *args = t.args;
      return true;
    }
  }
  return p.Fail(first);
}

// ENUM and SET members, as written (table_spec.cc judges them).
bool ParseMemberList(Parser& p, TypeSpec* type) {
  if (!p.Expect(TokenKind::kLParen)) return false;
  do {
    if (p.Peek().kind != TokenKind::kString) return p.Fail();
    type->members.push_back(p.Advance().value);
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

bool ParseTypeArgs(Parser& p, TypeArgs args, TypeSpec* type) {
  if (args == TypeArgs::kNone) return true;
  if (args == TypeArgs::kValues) return ParseMemberList(p, type);
  if (p.Peek().kind != TokenKind::kLParen) {
    return args == TypeArgs::kRequiredLength ? p.Fail() : true;  // VARCHAR needs its length
  }
  p.Advance();
  if (!ParseUint32(p, &type->length.emplace())) return false;
  if (args == TypeArgs::kPrecision && p.Accept(TokenKind::kComma)) {
    if (!ParseUint32(p, &type->scale.emplace())) return false;
  }
  return p.Expect(TokenKind::kRParen);
}

// UNSIGNED, SIGNED, ZEROFILL after numbers; CHARACTER SET and its shorthands (ASCII, UNICODE,
// BYTE = binary; BINARY = a binary collation, which every collation is in Shoal) after
// character types.
bool ParseTypeModifiers(Parser& p, TypeSpec* type) {
  bool numeric = IsNumericType(type->name);
  bool character = IsCharacterType(type->name);
  for (;;) {
    if (numeric && p.AcceptKeyword("UNSIGNED")) {
      type->is_unsigned = true;
    } else if (numeric && p.AcceptKeyword("ZEROFILL")) {
      type->zerofill = true;
    } else if (numeric && p.AcceptKeyword("SIGNED")) {
    } else if (character && (p.PeekKeyword("CHARSET") ||
                             (p.PeekKeyword("CHARACTER") && p.PeekKeyword("SET", 1)))) {
      bool two_words = p.PeekKeyword("CHARACTER");
      p.Advance();                 // CHARSET or CHARACTER
      if (two_words) p.Advance();  // SET
      if (!p.ParseNameOrString(&type->charset)) return false;
      type->charset = absl::AsciiStrToLower(type->charset);
    } else if (character && p.AcceptKeyword("ASCII")) {
      type->charset = "latin1";
    } else if (character && p.AcceptKeyword("UNICODE")) {
      type->charset = "ucs2";
    } else if (character && p.AcceptKeyword("BYTE")) {
      type->charset = "binary";
    } else if (!(character && p.AcceptKeyword("BINARY"))) {
      return true;
    }
  }
}

bool ParseColumnType(Parser& p, ColumnSpec* col) {
  TypeArgs args = TypeArgs::kNone;
  return ParseTypeName(p, col, &args) && ParseTypeArgs(p, args, &col->type) &&
         ParseTypeModifiers(p, &col->type);
}

// ---------------------------------------------------------------------------------------
// Column attributes

bool IsCurrentTimestamp(absl::string_view function) {
  return function == "CURRENT_TIMESTAMP" || function == "NOW" || function == "LOCALTIME" ||
         function == "LOCALTIMESTAMP";
}

// DEFAULT's operand: a literal, a signed number, NULL, TRUE/FALSE, CURRENT_TIMESTAMP or a
// synonym (with an optional precision), or (expr). A sign becomes kUnary kNeg over the number.
ExprPtr ParseDefault(Parser& p) {
  const Token& first = p.Peek();
  if (first.kind == TokenKind::kLParen) {
    p.Advance();
    ExprPtr e = p.ParseExpr();
    if (!e || !p.Expect(TokenKind::kRParen)) return nullptr;
    return e;
  }
  if (first.kind == TokenKind::kMinus || first.kind == TokenKind::kPlus) {
    p.Advance();
    TokenKind k = p.Peek().kind;
    if (k != TokenKind::kInteger && k != TokenKind::kDecimal && k != TokenKind::kFloat) {
      return p.Fail(), nullptr;
    }
    ExprPtr number = p.ParseLiteral();
    if (first.kind == TokenKind::kPlus) return number;
    ExprPtr e = MakeExpr(ExprKind::kUnary);
    e->unary_op = UnaryOp::kNeg;
    e->args.push_back(std::move(number));
    return e;
  }
  if (first.kind == TokenKind::kParam) return p.Fail(), nullptr;
  ExprPtr e = p.ParsePrimary();
  if (!e) return nullptr;
  if (e->kind == ExprKind::kLiteral) return e;
  if (e->kind == ExprKind::kFunction && IsCurrentTimestamp(e->name)) return e;
  return p.Fail(first), nullptr;
}

// ON UPDATE's operand: CURRENT_TIMESTAMP or a synonym, with an optional precision (the type
// check and the precision's are CREATE TABLE's, table_spec.cc).
ExprPtr ParseOnUpdate(Parser& p) {
  const Token& first = p.Peek();
  ExprPtr e = p.ParsePrimary();
  if (!e) return nullptr;
  if (e->kind == ExprKind::kFunction && IsCurrentTimestamp(e->name)) return e;
  return p.Fail(first), nullptr;
}

// The forms that need more than one word or a value; see ParseColumnAttribute.
Match ParseColumnAttributeWithValue(Parser& p, ColumnSpec* col) {
  if (p.AcceptKeyword("DEFAULT")) {
    col->default_value = ParseDefault(p);
    return Matched(col->default_value != nullptr);
  }
  if (p.AcceptKeyword("COMMENT")) {
    if (p.Peek().kind != TokenKind::kString) return Matched(p.Fail());
    col->comment = p.Advance().value;
    return Match::kYes;
  }
  if (p.AcceptKeyword("COLLATE")) {
    if (!p.ParseNameOrString(&col->type.collation)) return Match::kError;
    col->type.collation = absl::AsciiStrToLower(col->type.collation);
    return Match::kYes;
  }
  if (p.AcceptKeyword("COLUMN_FORMAT")) {
    return Matched(AcceptAny(p, {"FIXED", "DYNAMIC", "DEFAULT"}) || p.Fail());
  }
  if (p.AcceptKeyword("STORAGE")) return Matched(AcceptAny(p, {"DISK", "MEMORY"}) || p.Fail());
  if (AcceptAny(p, {"ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE"})) {
    return Matched(SkipOptionValue(p));
  }
  if (p.AcceptKeyword("SRID")) {
    uint64_t srid = 0;
    return Matched(ParseUint(p, &srid));
  }
  return Match::kNo;
}

// The constraint-like attributes: CHECK, CONSTRAINT [name] CHECK, REFERENCES.
Match ParseColumnConstraint(Parser& p) {
  if (p.PeekKeyword("CHECK")) return Matched(SkipCheck(p));
  if (p.PeekKeyword("REFERENCES")) return Matched(SkipReferences(p));
  if (!p.AcceptKeyword("CONSTRAINT")) return Match::kNo;
  std::string name;
  if (!p.PeekKeyword("CHECK") && !p.ParseIdentifier(&name)) return Match::kError;
  if (!p.PeekKeyword("CHECK")) return Matched(p.Fail());
  return Matched(SkipCheck(p));
}

// One attribute after a column's type; MySQL takes them in any order.
Match ParseColumnAttribute(Parser& p, ColumnSpec* col) {
  if (p.PeekKeyword("NOT") && p.PeekKeyword("NULL", 1)) {
    p.Advance();
    p.Advance();
    col->nullable = false;
  } else if (p.AcceptKeyword("NULL")) {
    col->nullable = true;
  } else if (p.AcceptKeyword("AUTO_INCREMENT")) {
    col->auto_increment = true;
  } else if (p.AcceptKeyword("PRIMARY")) {
    if (!p.ExpectKeyword("KEY")) return Match::kError;
    col->primary_key = true;
  } else if (p.AcceptKeyword("KEY")) {  // a column's KEY is its PRIMARY KEY
    col->primary_key = true;
  } else if (p.AcceptKeyword("UNIQUE")) {
    p.AcceptKeyword("KEY");
    col->unique = true;
  } else if (p.PeekKeyword("SERIAL") && p.PeekKeyword("DEFAULT", 1)) {
    p.Advance();
    p.Advance();
    if (!p.ExpectKeyword("VALUE")) return Match::kError;
    col->nullable = false;
    col->auto_increment = true;
    col->unique = true;
  } else if (p.AcceptKeyword("VISIBLE")) {
  } else if (p.PeekKeyword("NOT") && p.PeekKeyword("SECONDARY", 1)) {
    p.Advance();
    p.Advance();
  } else if (p.PeekKeyword("INVISIBLE")) {
    return Matched(p.NotSupported("INVISIBLE columns"));
  } else if (p.PeekKeyword("ON") && p.PeekKeyword("UPDATE", 1)) {
    p.Advance();
    p.Advance();
    return Matched((col->on_update = ParseOnUpdate(p)) != nullptr);
  } else if (PeekAny(p, {"GENERATED", "AS"})) {
    return Matched(p.NotSupported("generated columns"));
  } else if (Match m = ParseColumnAttributeWithValue(p, col); m != Match::kNo) {
    return m;
  } else {
    return ParseColumnConstraint(p);
  }
  return Match::kYes;
}

bool ParseColumnDefinition(Parser& p, ColumnSpec* col) {
  if (!p.ParseIdentifier(&col->name) || !ParseColumnType(p, col)) return false;
  for (;;) {
    Match m = ParseColumnAttribute(p, col);
    if (m != Match::kYes) return m == Match::kNo;
  }
}

// ---------------------------------------------------------------------------------------
// Indexes

// [USING {BTREE | HASH}]: every Shoal index is both (a hash primary key, ordered others).
Match ParseIndexType(Parser& p) {
  if (!p.AcceptKeyword("USING")) return Match::kNo;
  return Matched(AcceptAny(p, {"BTREE", "HASH"}) || p.Fail());
}

// Index options after the key parts; with `alter`, also CREATE/DROP INDEX's ALGORITHM [=] x
// and LOCK [=] x. All accepted and dropped.
bool ParseIndexOptions(Parser& p, bool alter) {
  for (;;) {
    Match m = ParseIndexType(p);
    if (m == Match::kError) return false;
    if (m == Match::kYes || AcceptAny(p, {"VISIBLE", "INVISIBLE"})) continue;
    if (AcceptAny(
            p, {"KEY_BLOCK_SIZE", "COMMENT", "ENGINE_ATTRIBUTE", "SECONDARY_ENGINE_ATTRIBUTE"}) ||
        (alter && AcceptAny(p, {"ALGORITHM", "LOCK"}))) {
      if (!SkipOptionValue(p)) return false;
    } else if (p.PeekKeyword("WITH") && p.PeekKeyword("PARSER", 1)) {
      p.Advance();
      p.Advance();
      std::string parser;
      if (!p.ParseIdentifier(&parser)) return false;
    } else {
      return true;
    }
  }
}

// (key_part, …), each `column [ASC | DESC]`. Prefix lengths and expressions answer 1235.
bool ParseKeyParts(Parser& p, std::vector<std::string>* out) {
  if (!p.Expect(TokenKind::kLParen)) return false;
  do {
    if (p.Peek().kind == TokenKind::kLParen) return p.NotSupported("functional key parts");
    if (!p.ParseIdentifier(&out->emplace_back())) return false;
    if (p.Peek().kind == TokenKind::kLParen) return p.NotSupported("key prefix lengths");
    if (!p.AcceptKeyword("ASC")) p.AcceptKeyword("DESC");
  } while (p.Accept(TokenKind::kComma));
  return p.Expect(TokenKind::kRParen);
}

// [name] [USING …] (key parts) [options], after PRIMARY KEY, UNIQUE [KEY] or KEY.
bool ParseIndexBody(Parser& p, IndexSpec* index) {
  if (p.Peek().kind != TokenKind::kLParen && !p.PeekKeyword("USING") &&
      !p.ParseIdentifier(&index->name)) {
    return false;
  }
  if (index->kind == IndexSpec::Kind::kPrimary) index->name.clear();  // always PRIMARY
  return ParseIndexType(p) != Match::kError && ParseKeyParts(p, &index->columns) &&
         ParseIndexOptions(p, false);
}

// [CONSTRAINT [symbol]] PRIMARY KEY | UNIQUE | FOREIGN KEY | CHECK, or KEY/INDEX, FULLTEXT,
// SPATIAL: the table elements that are not columns.
Match ParseTableConstraint(Parser& p, CreateTableStmt* out) {
  std::string symbol;
  bool constraint = p.AcceptKeyword("CONSTRAINT");
  if (constraint && !PeekAny(p, {"PRIMARY", "UNIQUE", "FOREIGN", "CHECK"}) &&
      !p.ParseIdentifier(&symbol)) {
    return Match::kError;
  }
  IndexSpec index;
  if (p.AcceptKeyword("PRIMARY")) {
    if (!p.ExpectKeyword("KEY")) return Match::kError;
    index.kind = IndexSpec::Kind::kPrimary;
  } else if (p.AcceptKeyword("UNIQUE")) {
    AcceptAny(p, {"INDEX", "KEY"});
    index.kind = IndexSpec::Kind::kUnique;
  } else if (p.PeekKeyword("FOREIGN")) {
    return Matched(ParseForeignKey(p, std::move(symbol), &out->foreign_keys.emplace_back()));
  } else if (p.PeekKeyword("CHECK")) {
    return Matched(SkipCheck(p));
  } else if (constraint) {
    return Matched(p.Fail());
  } else if (AcceptAny(p, {"INDEX", "KEY"})) {
    index.kind = IndexSpec::Kind::kIndex;
  } else if (PeekAny(p, {"FULLTEXT", "SPATIAL"})) {
    return Matched(p.NotSupported(absl::StrCat(absl::AsciiStrToUpper(p.Peek().text), " indexes")));
  } else {
    return Match::kNo;
  }
  if (!ParseIndexBody(p, &index)) return Match::kError;
  // MySQL names a unique key after its constraint when the key itself has no name.
  if (index.name.empty() && index.kind == IndexSpec::Kind::kUnique) index.name = symbol;
  out->indexes.push_back(std::move(index));
  return Match::kYes;
}

bool ParseTableElement(Parser& p, CreateTableStmt* out) {
  Match m = ParseTableConstraint(p, out);
  if (m != Match::kNo) return m == Match::kYes;
  return ParseColumnDefinition(p, &out->columns.emplace_back());
}

// ---------------------------------------------------------------------------------------
// Table options and partitioning

Match ParseTableOption(Parser& p, CreateTableStmt* out) {
  if (Match m = ParseCharsetOption(p, &out->collation); m != Match::kNo) return m;
  if (p.AcceptKeyword("ENGINE")) {
    p.Accept(TokenKind::kEq);
    if (!p.ParseNameOrString(&out->engine)) return Match::kError;
    out->engine = absl::AsciiStrToLower(out->engine);
  } else if (p.AcceptKeyword("AUTO_INCREMENT")) {
    p.Accept(TokenKind::kEq);
    if (!ParseUint(p, &out->auto_increment.emplace())) return Match::kError;
  } else if (p.AcceptKeyword("COMMENT")) {
    p.Accept(TokenKind::kEq);
    if (p.Peek().kind != TokenKind::kString) return Matched(p.Fail());
    out->comment = p.Advance().value;
  } else if (p.AcceptKeyword("TABLESPACE")) {  // [=] name [STORAGE DISK|MEMORY]
    std::string tablespace;
    p.Accept(TokenKind::kEq);
    if (!p.ParseNameOrString(&tablespace)) return Match::kError;
  } else if (p.AcceptKeyword("STORAGE")) {  // NDB's disk data: all of Shoal is in memory
    return Matched(AcceptAny(p, {"DISK", "MEMORY"}) || p.Fail());
  } else if (PeekAny(p, {"DATA", "INDEX"}) && p.PeekKeyword("DIRECTORY", 1)) {
    p.Advance();
    p.Advance();
    return Matched(SkipOptionValue(p));
  } else if (AcceptAny(p, {"ROW_FORMAT",
                           "MAX_ROWS",
                           "MIN_ROWS",
                           "AVG_ROW_LENGTH",
                           "KEY_BLOCK_SIZE",
                           "STATS_PERSISTENT",
                           "STATS_AUTO_RECALC",
                           "STATS_SAMPLE_PAGES",
                           "PACK_KEYS",
                           "CHECKSUM",
                           "TABLE_CHECKSUM",
                           "DELAY_KEY_WRITE",
                           "COMPRESSION",
                           "ENCRYPTION",
                           "INSERT_METHOD",
                           "CONNECTION",
                           "PASSWORD",
                           "ENGINE_ATTRIBUTE",
                           "SECONDARY_ENGINE_ATTRIBUTE",
                           "AUTOEXTEND_SIZE",
                           "SECONDARY_ENGINE"})) {
    return Matched(SkipOptionValue(p));
  } else {
    return Match::kNo;
  }
  return Match::kYes;
}

// Table options, separated by optional commas.
bool ParseTableOptions(Parser& p, CreateTableStmt* out) {
  for (bool first = true;; first = false) {
    bool comma = !first && p.Accept(TokenKind::kComma);
    Match m = ParseTableOption(p, out);
    if (m == Match::kError) return false;
    if (m == Match::kNo) return !comma || p.Fail();
  }
}

// PARTITION BY [LINEAR] KEY [ALGORITHM = {1|2}] ([columns]) [PARTITIONS n]. Shoal always
// partitions by a hash of the whole primary key (as NDB does by default), so the columns only
// have to parse; the count is kept. Other partitionings answer 1235.
bool ParsePartitioning(Parser& p, CreateTableStmt* out) {
  p.Advance();  // PARTITION
  if (!p.ExpectKeyword("BY")) return false;
  p.AcceptKeyword("LINEAR");
  if (!p.AcceptKeyword("KEY")) {
    if (p.Peek().kind != TokenKind::kIdent) return p.Fail();
    return p.NotSupported(absl::StrCat("PARTITION BY ", absl::AsciiStrToUpper(p.Peek().text)));
  }
  uint64_t n = 0;
  if (p.AcceptKeyword("ALGORITHM") && (!p.Expect(TokenKind::kEq) || !ParseUint(p, &n))) {
    return false;
  }
  if (!p.Expect(TokenKind::kLParen)) return false;
  if (!p.Accept(TokenKind::kRParen)) {
    std::vector<std::string> columns;
    do {
      if (!p.ParseIdentifier(&columns.emplace_back())) return false;
    } while (p.Accept(TokenKind::kComma));
    if (!p.Expect(TokenKind::kRParen)) return false;
  }
  if (p.AcceptKeyword("PARTITIONS")) {
    const Token& count = p.Peek();
    if (!ParseUint(p, &n)) return false;
    if (n == 0 || n > std::numeric_limits<uint32_t>::max()) return p.Fail(count);
    out->partitions = static_cast<uint32_t>(n);
  }
  if (p.PeekKeyword("SUBPARTITION")) return p.NotSupported("SUBPARTITION");
  if (p.Peek().kind == TokenKind::kLParen) return p.NotSupported("partition definitions");
  return true;
}

// ---------------------------------------------------------------------------------------
// Statements

bool StartsCreateQuery(const Parser& p, size_t ahead) {
  return PeekAny(p, {"SELECT", "WITH", "TABLE", "VALUES"}, ahead);
}

// After a CREATE TABLE's definitions and options: [IGNORE | REPLACE] [AS] query.
bool ParseCreateSelect(Parser& p, CreateTableStmt* out) {
  auto insert = std::make_unique<InsertStmt>();
  insert->table = out->table;
  if (p.AcceptKeyword("IGNORE")) {
    insert->ignore = true;
  } else if (p.AcceptKeyword("REPLACE")) {
    insert->replace = true;
  }
  p.AcceptKeyword("AS");
  if (p.PeekKeyword("TABLE") || p.PeekKeyword("VALUES")) {
    return p.NotSupported(absl::StrCat("CREATE TABLE ... ", absl::AsciiStrToUpper(p.Peek().text)));
  }
  if (!p.PeekKeyword("SELECT") && !p.PeekKeyword("WITH") && !p.StartsParenthesizedQuery(0)) {
    return p.Fail();
  }
  insert->select = std::make_unique<SelectStmt>();
  if (!p.ParseQuery(insert->select.get())) return false;
  out->insert_select = std::move(insert);
  return true;
}

// After CREATE: TABLE [IF NOT EXISTS] [db.]t (elements) [options] [partitioning], or
// TABLE [IF NOT EXISTS] [db.]t [(]LIKE [db.]source[)].
bool ParseCreateTable(Parser& p, CreateTableStmt* out) {
  p.Advance();  // TABLE
  if (!ParseIfNotExists(p, &out->if_not_exists) || !p.ParseTableName(&out->table)) {
    return false;
  }
  bool paren = p.Peek().kind == TokenKind::kLParen;
  if (p.PeekKeyword("LIKE") || (paren && p.PeekKeyword("LIKE", 1))) {
    if (paren) p.Advance();
    p.Advance();  // LIKE
    if (!p.ParseTableName(&out->like.emplace())) return false;
    return !paren || p.Expect(TokenKind::kRParen);
  }
  if (paren && !StartsCreateQuery(p, 1) && !p.StartsParenthesizedQuery(1)) {
    p.Advance();
    do {
      const size_t first = p.pos();
      const size_t columns = out->columns.size();
      if (!ParseTableElement(p, out)) return false;
      out->element_texts.push_back(
          {out->columns.size() > columns ? out->columns.back().name : "", p.SourceText(first)});
    } while (p.Accept(TokenKind::kComma));
    if (!p.Expect(TokenKind::kRParen)) return false;
  }
  const size_t options = p.pos();
  if (!ParseTableOptions(p, out)) return false;
  if (p.PeekKeyword("PARTITION") && !ParsePartitioning(p, out)) return false;
  if (p.pos() > options) out->options_text = p.SourceText(options);
  if (PeekAny(p, {"IGNORE", "REPLACE", "AS"}) || StartsCreateQuery(p, 0) ||
      p.Peek().kind == TokenKind::kLParen) {
    return ParseCreateSelect(p, out);
  }
  return true;
}

// After CREATE: DATABASE|SCHEMA [IF NOT EXISTS] name [options]. The options are accepted
// (character set and collation names are checked) and dropped.
bool ParseCreateDatabase(Parser& p, CreateDatabaseStmt* out) {
  p.Advance();  // DATABASE or SCHEMA
  if (!ParseIfNotExists(p, &out->if_not_exists) || !p.ParseIdentifier(&out->name)) return false;
  for (;;) {
    Match m = ParseCharsetOption(p);
    if (m == Match::kNo && (p.PeekKeyword("ENCRYPTION") ||
                            (p.PeekKeyword("DEFAULT") && p.PeekKeyword("ENCRYPTION", 1)))) {
      p.AcceptKeyword("DEFAULT");
      p.Advance();  // ENCRYPTION
      m = Matched(SkipOptionValue(p));
    }
    if (m != Match::kYes) return m == Match::kNo;
  }
}

// After CREATE: [UNIQUE] INDEX name [USING …] ON [db.]t (key parts) [options].
bool ParseCreateIndex(Parser& p, CreateIndexStmt* out) {
  out->index.kind = p.AcceptKeyword("UNIQUE") ? IndexSpec::Kind::kUnique : IndexSpec::Kind::kIndex;
  if (!p.ExpectKeyword("INDEX") || !p.ParseIdentifier(&out->index.name)) return false;
  return ParseIndexType(p) != Match::kError && p.ExpectKeyword("ON") &&
         p.ParseTableName(&out->table) && ParseKeyParts(p, &out->index.columns) &&
         ParseIndexOptions(p, true);
}

// After DROP: INDEX name ON [db.]t [ALGORITHM …] [LOCK …].
bool ParseDropIndex(Parser& p, DropIndexStmt* out) {
  p.Advance();  // INDEX
  if (!p.ParseIdentifier(&out->name)) return false;
  if (absl::EqualsIgnoreCase(out->name, "PRIMARY")) out->name = "PRIMARY";
  return p.ExpectKeyword("ON") && p.ParseTableName(&out->table) && ParseIndexOptions(p, true);
}

// After DROP: TABLE|TABLES [IF EXISTS] t, … [RESTRICT | CASCADE].
bool ParseDropTable(Parser& p, DropTableStmt* out) {
  p.Advance();  // TABLE or TABLES
  if (!ParseIfExists(p, &out->if_exists) || !ParseNameList(p, &out->tables)) return false;
  AcceptAny(p, {"RESTRICT", "CASCADE"});
  return true;
}

// After EXPLAIN: [FORMAT = TRADITIONAL] followed by the statement explained. The plan comes
// out in the traditional table form only.
bool ParseExplainFormat(Parser& p) {
  if (!p.AcceptKeyword("FORMAT")) return true;
  std::string format;
  const Token& name = p.Peek(1);
  if (!p.Expect(TokenKind::kEq) || !p.ParseNameOrString(&format)) return false;
  format = absl::AsciiStrToUpper(format);
  if (format == "TRADITIONAL") return true;
  if (format == "JSON" || format == "TREE") {
    return p.NotSupported(absl::StrCat("EXPLAIN FORMAT=", format));
  }
  return p.Fail(name);
}

}  // namespace

Match ParseAlterColumnDefinition(Parser& p, ColumnSpec* col) {
  return Matched(ParseColumnDefinition(p, col));
}
Match ParseAlterKeyDefinition(Parser& p, CreateTableStmt* out) {
  return ParseTableConstraint(p, out);
}
Match ParseAlterTableOption(Parser& p, CreateTableStmt* out) { return ParseTableOption(p, out); }
ExprPtr ParseAlterDefault(Parser& p) { return ParseDefault(p); }

bool Parser::ParseCreate(StatementNode* out) {
  if (PeekAny(*this, {"DATABASE", "SCHEMA"}, 1)) {
    Advance();
    return ParseCreateDatabase(*this, &out->emplace<CreateDatabaseStmt>());
  }
  if (PeekKeyword("TABLE", 1)) {
    Advance();
    return ParseCreateTable(*this, &out->emplace<CreateTableStmt>());
  }
  if (PeekKeyword("TEMPORARY", 1)) return NotSupported("CREATE TEMPORARY TABLE");
  if (IsViewDefinition(*this)) return ParseCreateView(&out->emplace<CreateViewStmt>());
  if (PeekAny(*this, {"INDEX", "UNIQUE"}, 1)) {
    Advance();
    return ParseCreateIndex(*this, &out->emplace<CreateIndexStmt>());
  }
  if (PeekAny(*this, {"FULLTEXT", "SPATIAL"}, 1)) {
    return NotSupported(absl::StrCat(absl::AsciiStrToUpper(Peek(1).text), " INDEX"));
  }
  return NotSupportedStatement(*this);
}

bool Parser::ParseDrop(StatementNode* out) {
  if (PeekAny(*this, {"DATABASE", "SCHEMA"}, 1)) {
    Advance();
    Advance();
    auto& drop = out->emplace<DropDatabaseStmt>();
    return ParseIfExists(*this, &drop.if_exists) && ParseIdentifier(&drop.name);
  }
  if (PeekAny(*this, {"TABLE", "TABLES"}, 1)) {
    Advance();
    return ParseDropTable(*this, &out->emplace<DropTableStmt>());
  }
  if (PeekKeyword("TEMPORARY", 1)) return NotSupported("DROP TEMPORARY TABLE");
  if (PeekKeyword("VIEW", 1)) return ParseDropView(&out->emplace<DropViewStmt>());
  if (PeekKeyword("INDEX", 1)) {
    Advance();
    return ParseDropIndex(*this, &out->emplace<DropIndexStmt>());
  }
  return NotSupportedStatement(*this);
}

bool Parser::ParseTruncate(TruncateStmt* out) {
  Advance();  // TRUNCATE
  AcceptKeyword("TABLE");
  return ParseTableName(&out->table);
}

// ANALYZE|OPTIMIZE|REPAIR [NO_WRITE_TO_BINLOG|LOCAL] TABLE t, …, and CHECK TABLE t, …, with
// the options each takes (which change nothing here).
bool Parser::ParseTableMaintenance(TableMaintenanceStmt* out) {
  using Op = TableMaintenanceStmt::Op;
  out->op = PeekKeyword("CHECK")      ? Op::kCheck
            : PeekKeyword("OPTIMIZE") ? Op::kOptimize
            : PeekKeyword("REPAIR")   ? Op::kRepair
                                      : Op::kAnalyze;
  Advance();
  if (out->op != Op::kCheck && !AcceptKeyword("NO_WRITE_TO_BINLOG")) AcceptKeyword("LOCAL");
  if (!AcceptKeyword("TABLES") && !ExpectKeyword("TABLE")) return false;
  if (!ParseNameList(*this, &out->tables)) return false;
  switch (out->op) {
    case Op::kAnalyze:
      if (PeekKeyword("UPDATE") || PeekKeyword("DROP")) return NotSupported("histograms");
      break;
    case Op::kCheck:
      while (AcceptKeyword("QUICK") || AcceptKeyword("FAST") || AcceptKeyword("MEDIUM") ||
             AcceptKeyword("EXTENDED") || AcceptKeyword("CHANGED") ||
             (AcceptKeyword("FOR") && ExpectKeyword("UPGRADE"))) {
      }
      break;
    case Op::kRepair:
      while (AcceptKeyword("QUICK") || AcceptKeyword("EXTENDED") || AcceptKeyword("USE_FRM")) {
      }
      break;
    case Op::kOptimize:
      break;
  }
  return true;
}

// EXPLAIN, DESCRIBE and DESC are one statement in MySQL: given a table they are SHOW COLUMNS
// (`DESCRIBE t [column | 'pattern']`); given a statement they explain it.
bool Parser::ParseExplain(StatementNode* out) {
  Advance();  // EXPLAIN, DESCRIBE or DESC
  bool statement = StartsCreateQuery(*this, 0) || Peek().kind == TokenKind::kLParen ||
                   PeekAny(*this, {"INSERT", "REPLACE", "UPDATE", "DELETE", "ANALYZE", "FOR"}) ||
                   (PeekKeyword("FORMAT") && Peek(1).kind == TokenKind::kEq);
  if (!statement) {
    auto& show = out->emplace<ShowStmt>();
    show.kind = ShowKind::kColumns;
    if (!ParseTableName(&show.table)) return false;
    TokenKind k = Peek().kind;
    if (k == TokenKind::kString) {
      show.like = Advance().value;
    } else if (k == TokenKind::kIdent || k == TokenKind::kQuotedIdent) {
      if (!ParseIdentifier(&show.like.emplace())) return false;
    }
    return true;
  }
  if (!ParseExplainFormat(*this)) return false;
  if (PeekKeyword("ANALYZE")) return NotSupported("EXPLAIN ANALYZE");
  if (PeekKeyword("FOR")) return NotSupported("EXPLAIN FOR CONNECTION");
  if (!StartsCreateQuery(*this, 0) && Peek().kind != TokenKind::kLParen &&
      !PeekAny(*this, {"INSERT", "REPLACE", "UPDATE", "DELETE"})) {
    return Fail();
  }
  auto inner = std::make_unique<Statement>();
  if (!ParseStatement(&inner->node)) return false;
  inner->param_count = param_count_;
  out->emplace<ExplainStmt>().statement = std::move(inner);
  return true;
}

}  // namespace shoal::sql::internal
