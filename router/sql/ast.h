// The syntax tree the parser builds and the executor runs. Plain data, owned by one
// Statement; no pointers into the SQL text survive parsing (names and literal texts are
// copied), so a prepared statement outlives the packet it came in.
//
// Each statement group has its own struct in the `StatementNode` variant; adding INSERT or
// CREATE TABLE later means a new struct here, a new parse_*.cc and a new exec_*.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace shoal::sql {

// ---------------------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
  kLiteral,     // literal, text
  kParam,       // `?`; param_index
  kSysVar,      // @@[scope.]name; scope, name
  kUserVar,     // @name; name
  kAssignUser,  // @name := args[0]; name
  kColumn,      // [qualifier.]name (no tables yet: resolved only against SHOW rows)
  kFunction,    // name(args...); name upper-cased
  kUnary,       // unary_op args[0]
  kBinary,      // args[0] binary_op args[1]
  kIsNull,      // args[0] IS [NOT] NULL; negated
  kIsBool,      // args[0] IS [NOT] TRUE|FALSE; negated, truth
  kIn,          // args[0] [NOT] IN (args[1..]); negated
  kBetween,     // args[0] [NOT] BETWEEN args[1] AND args[2]; negated
  kLike,        // args[0] [NOT] LIKE args[1] [ESCAPE args[2]]; negated
};

enum class LiteralKind : uint8_t {
  kNull,
  kInteger,  // text: decimal digits (no sign), may exceed 64 bits
  kDecimal,  // text: "1.50"
  kFloat,    // text: "1e10"
  kString,   // text: the decoded bytes; charset: introducer or empty
  kHex,      // text: the bytes (X'4F', 0x4F)
  kBit,      // text: the bytes (b'01')
  kBool,     // TRUE/FALSE; text "1" or "0"
};

enum class VarScope : uint8_t { kDefault, kSession, kGlobal, kPersist, kPersistOnly };

enum class UnaryOp : uint8_t { kNeg, kNot, kBitNot };

enum class BinaryOp : uint8_t {
  kOr,
  kXor,
  kAnd,
  kEq,
  kNullSafeEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kBitOr,
  kBitAnd,
  kBitXor,
  kShl,
  kShr,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kIntDiv,
  kMod,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

// One node; which fields mean something depends on `kind` (see ExprKind).
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  LiteralKind literal = LiteralKind::kNull;
  UnaryOp unary_op = UnaryOp::kNeg;
  BinaryOp binary_op = BinaryOp::kAdd;
  VarScope scope = VarScope::kDefault;
  bool negated = false;
  bool truth = false;       // kIsBool: IS TRUE (true) or IS FALSE (false)
  bool has_parens = false;  // kFunction: written with (), e.g. CURRENT_USER vs CURRENT_USER()
  int param_index = -1;     // kParam
  std::string text;         // kLiteral
  std::string charset;      // kLiteral strings: introducer (`_utf8mb4`, N'' = utf8mb3)
  std::string name;         // kSysVar, kUserVar, kAssignUser, kColumn, kFunction
  std::string qualifier;    // kColumn: table
  std::vector<ExprPtr> args;
};

// ---------------------------------------------------------------------------------------
// Statements

struct Limit {
  ExprPtr count;   // integer literal or `?`
  ExprPtr offset;  // may be null
};

struct SelectItem {
  ExprPtr expr;      // null for `*`
  std::string name;  // the alias, or the expression text as written (MySQL's column name)
  bool has_alias = false;
};

// SELECT without tables today; FROM/GROUP BY/ORDER BY slot in here later.
struct SelectStmt {
  std::vector<SelectItem> items;
  ExprPtr where;
  std::optional<Limit> limit;
};

struct SetAssignment {
  enum class Kind : uint8_t { kSystemVar, kUserVar, kNames, kCharacterSet };
  Kind kind = Kind::kSystemVar;
  VarScope scope = VarScope::kDefault;
  std::string name;       // variable name (system: lower-cased)
  ExprPtr value;          // null = DEFAULT
  std::string charset;    // kNames/kCharacterSet; empty = DEFAULT
  std::string collation;  // kNames: COLLATE x, may be empty
};

struct SetStmt {
  std::vector<SetAssignment> assignments;
};

// SET [GLOBAL|SESSION] TRANSACTION ISOLATION LEVEL … | READ ONLY | READ WRITE
struct SetTransactionStmt {
  VarScope scope = VarScope::kDefault;  // kDefault: the next transaction only
  std::string isolation;                // "READ-COMMITTED" etc.; empty if not given
  std::optional<bool> read_only;
};

enum class ShowKind : uint8_t {
  kVariables,
  kStatus,
  kWarnings,
  kErrors,
  kCountWarnings,
  kCountErrors,
  kEngines,
  kCollation,
  kCharset,
  kDatabases,
  kTables,
};

struct ShowStmt {
  ShowKind kind = ShowKind::kVariables;
  VarScope scope = VarScope::kDefault;
  bool full = false;                // SHOW FULL TABLES
  std::string from_database;        // SHOW TABLES FROM db
  std::optional<std::string> like;  // LIKE 'pattern'
  ExprPtr where;                    // WHERE expr over the result's columns
  std::optional<Limit> limit;       // SHOW WARNINGS LIMIT …
};

struct UseStmt {
  std::string database;
};

struct TransactionStmt {
  enum class Action : uint8_t { kBegin, kCommit, kRollback };
  Action action = Action::kBegin;
  bool read_only = false;  // START TRANSACTION READ ONLY
  bool chain = false;      // COMMIT AND CHAIN
};

// PREPARE name FROM 'text' | @var
struct PrepareStmt {
  std::string name;
  std::string text;      // the literal text, when not from a variable
  std::string from_var;  // the user variable holding the text, when given
};

struct ExecuteStmt {
  std::string name;
  std::vector<std::string> using_vars;
};

struct DeallocateStmt {
  std::string name;
};

struct DoStmt {
  std::vector<ExprPtr> exprs;
};

using StatementNode =
    std::variant<SelectStmt, SetStmt, SetTransactionStmt, ShowStmt, UseStmt, TransactionStmt,
                 PrepareStmt, ExecuteStmt, DeallocateStmt, DoStmt>;

struct Statement {
  StatementNode node;
  int param_count = 0;  // number of `?`
};

}  // namespace shoal::sql
