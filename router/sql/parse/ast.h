// The syntax tree the parser builds and the executor runs. Plain data, owned by one
// Statement; no pointers into the SQL text survive parsing (names and literal texts are
// copied), so a prepared statement outlives the packet it came in.
//
// Each statement group has its own struct in the `StatementNode` variant, its own parse_*.cc
// and its own exec_*.cc.
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
  kDefault,     // DEFAULT as a value in INSERT … VALUES, INSERT … SET and UPDATE … SET
  kStar,        // `*` as the only argument of COUNT(*)
  kRow,         // (args[0], args[1], …) or ROW(…): two or more elements, each may be a row
  // Uncorrelated subqueries, computed before the statement runs (exec/subqueries.h).
  kSubquery,    // (SELECT …) as a value; subquery
  kInSubquery,  // args[0] [NOT] IN (SELECT …); subquery, negated
  kExists,      // EXISTS (SELECT …); subquery
  // args[0] binary_op {ANY | SOME | ALL} (SELECT …), binary_op one of <>, <, <=, >, >= (and = for
  // ALL): subquery, binary_op, all. `= ANY` is kInSubquery and `<> ALL` NOT kInSubquery, as in
  // MySQL, so that they run as semi-joins when correlated.
  kQuantified,
  // CASE [args[0]] WHEN … THEN … … [ELSE …] END: has_operand (args[0] is CASE's operand), then
  // WHEN/THEN pairs, then the ELSE value when has_else.
  kCase,
  // CAST(args[0] AS type), CONVERT(args[0], type), CONVERT(args[0] USING charset): cast.
  kCast,
  // INTERVAL args[0] unit: the second argument of DATE_ADD, DATE_SUB, ADDDATE, SUBDATE and
  // TIMESTAMPADD (`d + INTERVAL 1 DAY` is DATE_ADD(d, INTERVAL 1 DAY)); unit.
  kInterval,
  // args[0] COLLATE name: the value with collation `name` (lower-cased as written), for the
  // comparisons, sorts and groupings it takes part in.
  kCollate,
};

// The type of a CAST or CONVERT (MySQL's cast_type): SIGNED, UNSIGNED, CHAR, BINARY, DECIMAL,
// DATE, DATETIME, TIME, DOUBLE, FLOAT; length (CHAR(n), BINARY(n), DECIMAL(m)) and scale
// (DECIMAL(m, d); the fraction digits of DATETIME(n) and TIME(n)) when written.
struct CastTarget {
  std::string name;  // upper-cased; "CHAR" for CONVERT … USING (charset in `charset`)
  int length = -1;
  int scale = -1;
  std::string charset;  // CHAR … CHARACTER SET x, CONVERT … USING x
  // DATE 'text', TIME 'text', TIMESTAMP 'text' (a DATETIME): a literal, never NULL; text that
  // is not such a value is an error (1525), not a NULL with a warning.
  bool literal = false;
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
struct SelectStmt;
struct WindowSpec;

// One node; which fields mean something depends on `kind` (see ExprKind).
struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  LiteralKind literal = LiteralKind::kNull;
  UnaryOp unary_op = UnaryOp::kNeg;
  BinaryOp binary_op = BinaryOp::kAdd;
  VarScope scope = VarScope::kDefault;
  bool negated = false;
  bool truth = false;        // kIsBool: IS TRUE (true) or IS FALSE (false)
  bool has_parens = false;   // kFunction: written with (), e.g. CURRENT_USER vs CURRENT_USER()
  bool distinct = false;     // kFunction: an aggregate's DISTINCT, COUNT(DISTINCT x)
  bool has_operand = false;  // kCase: CASE x WHEN … (args[0] is x)
  bool has_else = false;     // kCase: the last argument is ELSE's
  bool all = false;          // kQuantified: ALL rather than ANY or SOME
  CastTarget cast;           // kCast
  int param_index = -1;      // kParam
  std::string text;          // kLiteral
  std::string charset;       // kLiteral strings: introducer (`_utf8mb4`, N'' = utf8mb3)
  std::string name;          // kSysVar, kUserVar, kAssignUser, kColumn, kFunction, kCollate
  std::string qualifier;     // kColumn: the table (or alias) written before the name, if any
  std::vector<ExprPtr> args;
  std::unique_ptr<SelectStmt> subquery;  // kSubquery, kInSubquery, kExists, kQuantified
  // GROUP_CONCAT(… ORDER BY x [DESC], … SEPARATOR 's'): the ORDER BY keys and whether each is
  // descending, and the separator (",", MySQL's default, when none is written).
  std::vector<ExprPtr> concat_order;
  std::vector<bool> concat_descending;
  std::string separator = ",";
  // kInterval, TIMESTAMPDIFF's first argument and EXTRACT's: the unit keyword, upper-cased ("DAY",
  // "HOUR_MINUTE"; SQL_TSI_ spellings folded).
  std::string unit;
  // A window function's OVER (…): ROW_NUMBER() OVER (PARTITION BY a ORDER BY b); null else.
  std::unique_ptr<WindowSpec> window;
};

// ---------------------------------------------------------------------------------------
// Statements

struct Limit {
  ExprPtr count;   // integer literal or `?`
  ExprPtr offset;  // may be null
};

// `*` and `t.*` have a null `expr` and the name "*"; `star_qualifier` tells them apart, so
// the executor knows whose columns to expand.
struct SelectItem {
  ExprPtr expr;      // null for `*` and `t.*`
  std::string name;  // the alias, or the expression text as written (MySQL's column name)
  bool has_alias = false;
  std::string star_qualifier;  // `t.*`: the table or alias (a database before it is dropped)
};

// [database.]table; database empty = the session's current one.
struct TableName {
  std::string database;
  std::string name;
};

struct OrderItem {
  ExprPtr expr;  // a column, an expression, or an integer literal naming a select item
  bool descending = false;
};

// A table FROM names: a base table, or a derived table `(SELECT …) AS alias`.
struct TableRef {
  TableName table;                      // empty name when `derived` is set
  std::string alias;                    // AS alias; empty if none
  std::unique_ptr<SelectStmt> derived;  // FROM (SELECT …) alias
  std::string index_hint;               // FORCE/USE INDEX (name): the name, upper-cased PRIMARY
  bool view = false;     // `derived` stands for a view the statement named (view_expansion.h)
  bool in_view = false;  // read by a view's SELECT: LOCK TABLES of the view covers it
};

// OVER ([PARTITION BY …] [ORDER BY …]): the rows a window function sees, in their order.
// One end of a window frame: UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or
// UNBOUNDED FOLLOWING.
struct FrameBound {
  enum class Kind : uint8_t {
    kUnboundedPreceding,
    kPreceding,
    kCurrentRow,
    kFollowing,
    kUnboundedFollowing
  };
  Kind kind = Kind::kCurrentRow;
  uint64_t offset = 0;  // ROWS n PRECEDING/FOLLOWING: rows
  // RANGE n | INTERVAL n unit PRECEDING/FOLLOWING: the bound's value as an expression over
  // the current row's ORDER BY value, which is parameter 0 (`? - 5`, DATE_ADD(?, INTERVAL 1
  // DAY); minus for PRECEDING in an ascending order, as MySQL reads it); null otherwise.
  ExprPtr value;
  bool interval = false;  // the offset is an INTERVAL (temporal ORDER BY values only)
};

// `ROWS|RANGE frame_start` or `ROWS|RANGE BETWEEN start AND end` (a lone start ends at the
// current row). RANGE bounds are values: CURRENT ROW its peers, n PRECEDING/FOLLOWING the rows
// whose ORDER BY value is within n of the current row's.
struct WindowFrame {
  bool rows = true;  // ROWS; false: RANGE
  FrameBound start;
  FrameBound end;
};

struct WindowSpec {
  std::vector<ExprPtr> partition_by;
  std::vector<OrderItem> order_by;
  std::optional<WindowFrame> frame;  // MySQL's default frame when absent
};

enum class LockMode : uint8_t { kNone, kForUpdate, kShare };  // FOR UPDATE, LOCK IN SHARE MODE
// What a locking read does at a row another transaction holds: waits, NOWAIT, SKIP LOCKED.
enum class LockWait : uint8_t { kWait, kNoWait, kSkipLocked };

// How a table joins the tables before it in FROM. A comma, CROSS JOIN and JOIN without ON
// are inner joins with no condition.
enum class JoinKind : uint8_t { kInner, kLeft, kRight };

// `[INNER|CROSS|LEFT [OUTER]|RIGHT [OUTER]] JOIN table [ON cond | USING (cols)]`, `, table`,
// `NATURAL [INNER|LEFT [OUTER]|RIGHT [OUTER]] JOIN table` or `STRAIGHT_JOIN table [ON cond]`: joins
// everything to its left (MySQL's left-deep order).
struct JoinClause {
  JoinKind kind = JoinKind::kInner;
  TableRef table;
  ExprPtr on;                              // null: no ON
  std::vector<std::string> using_columns;  // USING (a, b): ON left.a = right.a AND …
  bool straight = false;                   // STRAIGHT_JOIN: the tables before it stay first
  // NATURAL [LEFT|RIGHT] JOIN: USING the columns whose names both sides have (join_plan.cc).
  bool natural = false;
};

struct SelectStmt {
  bool distinct = false;
  std::vector<SelectItem> items;
  std::optional<TableRef> from;   // nullopt: no FROM (or FROM DUAL)
  std::vector<JoinClause> joins;  // the tables after `from`, in the order written
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  // GROUP BY … WITH ROLLUP: after each group, the groups of every shorter prefix of the GROUP
  // BY items (those past it NULL), down to the grand total (exec/rollup.h).
  bool rollup = false;
  ExprPtr having;
  std::vector<OrderItem> order_by;
  std::optional<Limit> limit;
  LockMode lock = LockMode::kNone;
  LockWait lock_wait = LockWait::kWait;
  // SQL_CALC_FOUND_ROWS: FOUND_ROWS() then counts the rows this SELECT finds before its LIMIT.
  // Set on the SELECT whose LIMIT it concerns: a UNION's `union_tail`, when it has one.
  bool calc_found_rows = false;
  // SELECT … INTO @a, @b: the user variables the one row sets (exec/exec_select_into.cc); only
  // the statement's own SELECT (a UNION's: written after its last) has them.
  std::vector<std::string> into;

  // SELECT … {UNION | INTERSECT | EXCEPT} [ALL | DISTINCT] SELECT …: the SELECTs after this
  // one, each with the operation that joins it to those before, in order (INTERSECT binds
  // tighter than the others). ORDER BY and LIMIT written after the last one order and limit the
  // whole: they are `union_tail`'s, a `SELECT *` over the result's rows (null when none were
  // written).
  enum class SetOp : uint8_t { kUnion, kIntersect, kExcept };
  struct UnionPart {
    std::unique_ptr<SelectStmt> select;
    SetOp op = SetOp::kUnion;
    bool all = false;  // ALL: duplicates kept (counted, for INTERSECT and EXCEPT)
  };
  std::vector<UnionPart> unions;
  std::unique_ptr<SelectStmt> union_tail;

  // A recursive common table's query (WITH RECURSIVE: parse_with.cc, exec_recursive.cc): the
  // SELECTs from `first_step` on (this one is 0) read the rows the round before made, each
  // through one derived table whose SELECT is `recursive_rows`.
  struct Recursive {
    std::string name;  // the common table's, for errors
    size_t first_step = 1;
  };
  std::optional<Recursive> recursive;
  // This (empty) SELECT stands for the rows a recursive common table's previous round made.
  bool recursive_rows = false;
  // A reference to a common table (WITH): the table's number in the statement, from 1. Every
  // reference owns its own parse, but their rows are computed once (MySQL materializes a
  // common table once), so that all of them read the same rows — RAND() included.
  uint32_t common_table = 0;
};

// Whether the derived table `derived` of `outer`'s FROM is computed before `outer` runs, its
// rows then read as a view's: when `outer` joins it to other tables, or when it is more than
// one SELECT over one table (no table, joins, a UNION, a derived table of its own), or a
// common table (computed once for all its references). A plain one runs on the data nodes with
// `outer` finished over its result instead.
inline bool DerivedRunsFirst(const SelectStmt& outer, const SelectStmt& derived) {
  return !outer.joins.empty() || !derived.from || derived.from->derived || !derived.joins.empty() ||
         !derived.unions.empty() || derived.common_table != 0;
}

// ---------------------------------------------------------------------------------------
// DML

// `column = value` in UPDATE … SET, INSERT … SET and ON DUPLICATE KEY UPDATE. `value` may be
// kDefault; in ON DUPLICATE KEY UPDATE, VALUES(col) is a kFunction named "VALUES".
struct Assignment {
  std::string column;
  std::string qualifier;  // the table (or alias) written before the column, if any
  ExprPtr value;
};

// INSERT/REPLACE [IGNORE] [INTO] t [(cols)] VALUES (…), (…) | SET a = 1, …
//   [ON DUPLICATE KEY UPDATE …]. The SET form becomes `columns` plus one row.
struct InsertStmt {
  TableName table;
  bool replace = false;
  bool ignore = false;
  std::vector<std::string> columns;        // empty: every column, in table order
  std::vector<std::vector<ExprPtr>> rows;  // VALUES () gives an empty row
  std::unique_ptr<SelectStmt> select;      // INSERT … SELECT: the rows it returns (`rows` empty)
  std::vector<Assignment> on_duplicate;
  // VALUES … AS new [(a, b, …)] (MySQL 8.0.19): ON DUPLICATE KEY UPDATE reads the row it would
  // have inserted as new.col, or by the column aliases, which name the inserted columns in
  // order (`columns`, or the table's when none is written).
  std::string row_alias;
  std::vector<std::string> column_aliases;
  // Through a view WITH CHECK OPTION (exec/view_writes.h): every row must satisfy `check`,
  // over the table's unqualified columns, or 1369 names `check_view` ("db.view").
  ExprPtr check;
  std::string check_view;
};

// LOAD DATA [LOCAL] INFILE 'file' [REPLACE|IGNORE] INTO TABLE t [CHARACTER SET cs]
//   [FIELDS …] [LINES …] [IGNORE n LINES] [(col_or_@var, …)] [SET col = expr, …].
// Terminators as written (string literals decoded); the executor checks them.
struct LoadDataStmt {
  struct Target {
    std::string name;
    bool user_var = false;  // @name: the field goes to a user variable, for SET
  };
  bool local = false;
  bool replace = false;
  bool ignore = false;
  std::string file;
  TableName table;
  std::string charset;  // empty: character_set_database
  std::string field_terminator = "\t";
  std::string enclosure;
  bool optionally_enclosed = false;
  std::string escape = "\\";
  std::string line_starting;
  std::string line_terminator = "\n";
  uint64_t ignore_lines = 0;
  std::vector<Target> targets;  // empty: every visible column, in table order
  std::vector<Assignment> set;
};

struct UpdateStmt {
  TableName table;
  std::string alias;
  bool ignore = false;
  std::vector<Assignment> set;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  std::optional<Limit> limit;
  std::vector<JoinClause> joins;  // UPDATE t1 JOIN t2 … SET …: the tables after `table`
};

// DELETE FROM t …, or the multi-table forms DELETE t1, t2 FROM t1 JOIN t2 … and DELETE FROM
// t1, t2 USING t1 JOIN t2 …: `targets` then names (by table or alias) the tables rows are
// deleted from, and `table`, `alias` and `joins` are what they are found in.
struct DeleteStmt {
  TableName table;
  std::string alias;
  bool ignore = false;
  ExprPtr where;
  std::vector<OrderItem> order_by;
  std::optional<Limit> limit;
  std::vector<TableName> targets;
  std::vector<JoinClause> joins;
};

// ---------------------------------------------------------------------------------------
// DDL

// A column's type as written. `name` is the canonical upper-case keyword: INTEGER → INT,
// BOOL/BOOLEAN → TINYINT (length 1), DEC/NUMERIC/FIXED → DECIMAL, REAL → DOUBLE,
// CHARACTER → CHAR, CHARACTER VARYING → VARCHAR; the others as MySQL spells them.
struct TypeSpec {
  std::string name;
  std::optional<uint32_t> length;  // (n), or the precision of (p, s)
  std::optional<uint32_t> scale;   // the s of (p, s)
  bool is_unsigned = false;
  bool zerofill = false;
  std::string charset;               // CHARACTER SET / CHARSET, lower-cased; empty if not given
  std::string collation;             // COLLATE, lower-cased; empty if not given
  std::vector<std::string> members;  // ENUM('a', 'b') and SET's members, as written
};

struct ColumnSpec {
  std::string name;
  TypeSpec type;
  std::optional<bool> nullable;  // NULL / NOT NULL as written
  ExprPtr default_value;         // DEFAULT literal, -literal, CURRENT_TIMESTAMP, (expr)
  // ON UPDATE CURRENT_TIMESTAMP or a synonym, as a kFunction with its precision argument, if
  // written; null if not.
  ExprPtr on_update;
  bool auto_increment = false;
  bool primary_key = false;  // PRIMARY KEY on the column itself
  bool unique = false;       // UNIQUE [KEY] on the column itself
  std::string comment;
};

struct IndexSpec {
  enum class Kind : uint8_t { kPrimary, kUnique, kIndex };
  Kind kind = Kind::kIndex;
  std::string name;                  // empty if not given
  std::vector<std::string> columns;  // in key order
};

// [CONSTRAINT [name]] FOREIGN KEY [index_name] (columns) REFERENCES parent (parent_columns)
// [ON DELETE action] [ON UPDATE action].
struct ForeignKeySpec {
  enum class Action : uint8_t { kDefault, kRestrict, kCascade, kSetNull, kNoAction, kSetDefault };
  std::string name;        // CONSTRAINT name; empty if not given
  std::string index_name;  // FOREIGN KEY index_name; empty if not given
  std::vector<std::string> columns;
  TableName parent;
  std::vector<std::string> parent_columns;
  Action on_delete = Action::kDefault;  // none given
  Action on_update = Action::kDefault;
};

struct CreateTableStmt {
  TableName table;
  bool if_not_exists = false;
  std::vector<ColumnSpec> columns;
  std::vector<IndexSpec> indexes;  // table-level PRIMARY KEY / UNIQUE / KEY / INDEX clauses
  std::vector<ForeignKeySpec> foreign_keys;
  std::string engine;                      // ENGINE = x, lower-cased; empty if not given
  std::optional<uint32_t> partitions;      // PARTITION BY KEY() PARTITIONS n
  std::optional<uint64_t> auto_increment;  // AUTO_INCREMENT = n
  std::string comment;
  std::string collation;  // [DEFAULT] COLLATE = x, lower-cased: the text columns' default
  // CREATE TABLE t LIKE source (or `(LIKE source)`): the source's definition, nothing else
  // written.
  std::optional<TableName> like;
  // CREATE TABLE … [IGNORE | REPLACE] [AS] query: its rows go in as INSERT [IGNORE] | REPLACE
  // INTO t query (no columns: the executor knows them once it typed the query); the table's
  // columns are those written, then the query's (exec/exec_create_select.cc), so the
  // definitions and options are kept as written too, to be read again with those columns.
  std::unique_ptr<InsertStmt> insert_select;
  // Each element of the `(…)` as written: `column` names the column it defines, empty for a key
  // or a constraint.
  struct ElementText {
    std::string column;
    std::string text;
  };
  std::vector<ElementText> element_texts;
  std::string options_text;  // table options and partitioning as written; may be empty
};

struct CreateDatabaseStmt {
  std::string name;
  bool if_not_exists = false;
};

struct DropDatabaseStmt {
  std::string name;
  bool if_exists = false;
};

struct DropTableStmt {
  std::vector<TableName> tables;
  bool if_exists = false;
};

// CREATE [OR REPLACE] [ALGORITHM = …] [DEFINER = …] [SQL SECURITY …] VIEW v [(columns)]
// AS SELECT … [WITH [CASCADED | LOCAL] CHECK OPTION], and ALTER VIEW (`alter`) with the same
// clauses. The SELECT is kept as written: the dictionary stores the text, and every statement
// that names the view parses it again (exec/view_expansion.h).
struct CreateViewStmt {
  enum class Security : uint8_t { kDefault, kDefiner, kInvoker };
  enum class CheckOption : uint8_t { kNone, kCascaded, kLocal };
  TableName view;
  std::vector<std::string> columns;  // its own column names; empty: the SELECT's
  std::string select_text;
  bool or_replace = false;
  bool alter = false;
  std::string algorithm;  // UNDEFINED, MERGE or TEMPTABLE, upper-cased; empty if not written
  // DEFINER = user@host: the user and host; CURRENT_USER or none written: empty.
  std::string definer_user, definer_host;
  Security security = Security::kDefault;
  CheckOption check_option = CheckOption::kNone;
};

// DROP VIEW [IF EXISTS] v, … [RESTRICT | CASCADE].
struct DropViewStmt {
  std::vector<TableName> views;
  bool if_exists = false;
};

struct CreateIndexStmt {
  TableName table;
  IndexSpec index;  // kind kUnique or kIndex; name always set
};

struct DropIndexStmt {
  TableName table;
  std::string name;  // "PRIMARY" for DROP INDEX `PRIMARY`
};

struct TruncateStmt {
  TableName table;
};

// ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE t, …: accepted, a status row per table.
// ALTER TABLE t {DISABLE|ENABLE} KEYS: what dumps wrap around a table's rows. Other ALTER
// TABLE forms answer 1235.
// One alteration of ALTER TABLE t alteration, …
struct AlterAction {
  enum class Kind : uint8_t {
    kAddColumn,     // column (placed by first/after)
    kChangeColumn,  // CHANGE name column / MODIFY column (name = column.name)
    kDropColumn,    // name
    kRenameColumn,  // name TO new_name
    kSetDefault,    // ALTER [COLUMN] name SET DEFAULT default_value
    kDropDefault,   // ALTER [COLUMN] name DROP DEFAULT
    kAddIndex,      // index (PRIMARY KEY, UNIQUE, KEY/INDEX)
    kDropIndex,     // name ("PRIMARY" for DROP PRIMARY KEY)
    kRenameIndex,   // name TO new_name
    kRenameTable,   // RENAME [TO | AS] new_table
    kTableOptions,  // options (ENGINE, COMMENT, AUTO_INCREMENT, charset …)
    kDisableKeys,
    kEnableKeys,
    kForce,           // FORCE: rebuild
    kAddForeignKey,   // foreign_key
    kDropForeignKey,  // name
  };
  Kind kind = Kind::kAddColumn;
  ColumnSpec column;
  std::string name;
  std::string new_name;
  bool first = false;  // FIRST
  std::string after;   // AFTER column; empty if not given
  IndexSpec index;
  ForeignKeySpec foreign_key;
  ExprPtr default_value;
  TableName new_table;
  CreateTableStmt options;  // only its engine, comment and auto_increment are used
};

// ALTER TABLE t alteration, … [ALGORITHM = …] [LOCK = …].
struct AlterTableStmt {
  enum class Algorithm : uint8_t { kDefault, kInstant, kInplace, kCopy };
  TableName table;
  std::vector<AlterAction> actions;
  Algorithm algorithm = Algorithm::kDefault;
};

// RENAME TABLE a TO b, c TO d, …
struct RenameTableStmt {
  std::vector<std::pair<TableName, TableName>> renames;
};

// ANALYZE, CHECK, OPTIMIZE and REPAIR TABLE: a status row per table, as mysqld gives for NDB.
struct TableMaintenanceStmt {
  enum class Op : uint8_t { kAnalyze, kCheck, kOptimize, kRepair };
  Op op = Op::kAnalyze;
  std::vector<TableName> tables;
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

// 'user'@'host' in account statements: host '%' when not written; CURRENT_USER the session's.
struct AccountName {
  std::string user;
  std::string host = "%";
  bool current_user = false;
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
  kColumns,      // SHOW [FULL] COLUMNS|FIELDS FROM t [FROM db], DESCRIBE t, DESC t
  kIndex,        // SHOW INDEX|INDEXES|KEYS FROM t [FROM db]
  kCreateTable,  // SHOW CREATE TABLE t
  kCreateView,   // SHOW CREATE VIEW v
  kCreateDatabase,
  // Stored programs Shoal does not have: their SHOW forms answer no rows, as MySQL does for
  // a database without any.
  kEvents,           // SHOW EVENTS [FROM db]
  kTriggers,         // SHOW [FULL] TRIGGERS [FROM db]
  kProcedureStatus,  // SHOW PROCEDURE STATUS
  kFunctionStatus,   // SHOW FUNCTION STATUS
  kTableStatus,      // SHOW TABLE STATUS [FROM db]
  kProcessList,      // SHOW [FULL] PROCESSLIST: information_schema.PROCESSLIST, renamed
  kGrants,           // SHOW GRANTS [FOR account]
  kCreateUser,       // SHOW CREATE USER account
};

struct ShowStmt {
  ShowKind kind = ShowKind::kVariables;
  VarScope scope = VarScope::kDefault;
  bool full = false;                // SHOW FULL TABLES
  bool if_not_exists = false;       // SHOW CREATE DATABASE IF NOT EXISTS
  std::string from_database;        // SHOW TABLES FROM db, SHOW COLUMNS FROM t FROM db
  TableName table;                  // SHOW COLUMNS/INDEX/CREATE TABLE; SHOW CREATE DATABASE name
  std::optional<std::string> like;  // LIKE 'pattern'
  ExprPtr where;                    // WHERE expr over the result's columns
  std::optional<Limit> limit;       // SHOW WARNINGS LIMIT …
  AccountName account;              // SHOW GRANTS FOR, SHOW CREATE USER (current_user if none)
};

struct UseStmt {
  std::string database;
};

struct TransactionStmt {
  enum class Action : uint8_t {
    kBegin,
    kCommit,
    kRollback,
    kSavepoint,            // SAVEPOINT name
    kRollbackToSavepoint,  // ROLLBACK [WORK] TO [SAVEPOINT] name
    kReleaseSavepoint,     // RELEASE SAVEPOINT name
  };
  Action action = Action::kBegin;
  // START TRANSACTION READ ONLY (true) or READ WRITE (false); neither: the session's
  // transaction_read_only.
  std::optional<bool> read_only;
  bool chain = false;     // COMMIT AND CHAIN
  std::string savepoint;  // the savepoint actions' name
};

// LOCK TABLES t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE}, …
struct TableLock {
  TableName table;
  std::string alias;
  bool write = false;
};
struct LockTablesStmt {
  std::vector<TableLock> tables;
};
struct UnlockTablesStmt {};

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

// KILL [CONNECTION | QUERY] id: a session of this router.
struct KillStmt {
  bool query = false;  // KILL QUERY: the statement it runs, not the connection
  ExprPtr id;
};

// One account of CREATE USER and ALTER USER, with its IDENTIFIED clause if written.
struct AccountSpec {
  AccountName name;
  bool identified = false;
  std::string plugin;                   // IDENTIFIED WITH plugin; empty when not written
  std::optional<std::string> password;  // BY 'password'
  std::optional<std::string> hash;      // AS 'hash', as mysql.user stores it
};

// CREATE USER, ALTER USER, DROP USER, RENAME USER and SET PASSWORD.
struct AccountStmt {
  enum class Kind : uint8_t { kCreate, kAlter, kDrop, kRename, kSetPassword };
  Kind kind = Kind::kCreate;
  bool if_flag = false;  // CREATE … IF NOT EXISTS, ALTER/DROP … IF EXISTS
  std::vector<AccountSpec> accounts;
  std::vector<AccountName> renamed_to;  // RENAME USER: accounts[i] TO renamed_to[i]
  // Options after the accounts; unset when not written.
  std::optional<bool> lock;             // ACCOUNT LOCK | UNLOCK
  std::optional<bool> password_expire;  // PASSWORD EXPIRE [DEFAULT | NEVER | INTERVAL n DAY]
  std::optional<uint32_t> max_user_connections;
  // WITH MAX_QUERIES_PER_HOUR, MAX_UPDATES_PER_HOUR, MAX_CONNECTIONS_PER_HOUR.
  std::optional<uint32_t> max_questions, max_updates, max_connections_per_hour;
  std::optional<uint32_t> failed_login_attempts;          // FAILED_LOGIN_ATTEMPTS n
  std::optional<int32_t> password_lock_days;              // PASSWORD_LOCK_TIME n | UNBOUNDED (-1)
  std::optional<std::vector<AccountName>> default_roles;  // DEFAULT ROLE r, … (CREATE/ALTER)
  // REQUIRE NONE | SSL | X509 | ISSUER '…' [AND] SUBJECT '…' [AND] CIPHER '…', as mysql.user
  // keeps it (ssl_type "", "ANY", "X509" or "SPECIFIED"; access/transport.h).
  struct TlsRequirement {
    std::string type;
    std::string issuer, subject, cipher;
  };
  std::optional<TlsRequirement> require;
};

// CREATE ROLE, DROP ROLE, GRANT role, … TO account, … [WITH ADMIN OPTION], REVOKE role, …
// FROM account, …, SET ROLE and SET DEFAULT ROLE … TO account, ….
struct RoleStmt {
  enum class Kind : uint8_t { kCreate, kDrop, kGrant, kRevoke, kSet, kSetDefault };
  // Which roles SET ROLE and SET DEFAULT ROLE name: those `roles` lists, none, all granted,
  // all but those listed (SET ROLE ALL EXCEPT), or the account's defaults (SET ROLE DEFAULT).
  enum class Which : uint8_t { kListed, kNone, kAll, kAllExcept, kDefault };
  Kind kind = Kind::kCreate;
  bool if_flag = false;  // CREATE ROLE IF NOT EXISTS, DROP ROLE IF EXISTS
  std::vector<AccountName> roles;
  std::vector<AccountName> accounts;  // GRANT … TO, REVOKE … FROM, SET DEFAULT ROLE … TO
  bool with_admin_option = false;
  Which which = Which::kListed;
};

// GRANT privileges ON what TO accounts [WITH GRANT OPTION], and REVOKE … FROM accounts.
struct GrantStmt {
  bool revoke = false;
  // Privilege names as written, upper-cased ("SELECT", "SHOW VIEW", "GRANT OPTION"); "ALL" for
  // ALL [PRIVILEGES].
  std::vector<std::string> privileges;
  // ON: *.* (`database` and `table` empty), db.* or * (`table` empty; * is the session's
  // database, `database` empty until then), db.t or t.
  bool global = false;
  bool current_database = false;  // ON * or ON t: the session's database
  std::string database;
  std::string table;
  std::vector<AccountName> accounts;
  bool with_grant_option = false;
  // REVOKE ALL [PRIVILEGES], GRANT OPTION FROM …: everything, at every level.
  bool revoke_everything = false;
};

// FLUSH PRIVILEGES and the other FLUSH forms that have nothing to do here.
struct FlushStmt {
  std::string what;  // upper-cased: "PRIVILEGES", "TABLES", …
};

struct Statement;

// EXPLAIN [FORMAT=…] SELECT|UPDATE|DELETE|INSERT|REPLACE: the native plan as rows.
struct ExplainStmt {
  std::unique_ptr<Statement> statement;
};

using StatementNode =
    std::variant<SelectStmt, SetStmt, SetTransactionStmt, ShowStmt, UseStmt, TransactionStmt,
                 PrepareStmt, ExecuteStmt, DeallocateStmt, DoStmt, InsertStmt, UpdateStmt,
                 DeleteStmt, CreateTableStmt, CreateDatabaseStmt, DropDatabaseStmt, DropTableStmt,
                 CreateIndexStmt, DropIndexStmt, TruncateStmt, TableMaintenanceStmt, ExplainStmt,
                 LockTablesStmt, UnlockTablesStmt, AlterTableStmt, RenameTableStmt, LoadDataStmt,
                 KillStmt, CreateViewStmt, DropViewStmt, AccountStmt, GrantStmt, RoleStmt,
                 FlushStmt>;

struct Statement {
  StatementNode node;
  int param_count = 0;  // number of `?`
  // Subqueries anywhere in it, or derived tables that joins read: computed before it runs.
  bool has_subqueries = false;
  // The views it names (not those named inside views), qualified, as they were expanded
  // (exec/view_expansion.h); `written_view` the one it writes through. Privileges are checked
  // on them: the tables they read are their definers' to read (exec/privilege_check.h).
  std::vector<TableName> views;
  std::optional<TableName> written_view;
};

}  // namespace shoal::sql
