// The parser class behind Parse(), shared by the parse_*.cc files (one per statement group).
// Internal to router/sql: include only from parser .cc files and their tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "protocol/sql_error.h"
#include "router/sql/parse/ast.h"
#include "router/sql/parse/lexer.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {

class Parser;

// The result of a parse step that may not apply to the next tokens at all.
enum class Match : uint8_t { kNo, kYes, kError };
Match Matched(bool ok);
// Whether the token `ahead` is one of `words`; Accept: and takes it.
bool PeekAny(const Parser& p, std::initializer_list<absl::string_view> words, size_t ahead = 0);
bool AcceptAny(Parser& p, std::initializer_list<absl::string_view> words);
// 'user'@'host', user@host, CURRENT_USER[()] (parse_account.cc; SHOW GRANTS FOR uses it).
bool ParseAccountName(Parser& p, AccountName* out);
// Whether the GRANT or REVOKE ahead grants or revokes roles (no ON before TO or FROM).
bool IsRoleGrant(const Parser& p);
// Whether UNION, EXCEPT or INTERSECT comes next.
bool StartsSetOperation(const Parser& p);

// CREATE TABLE's pieces that ALTER TABLE reuses (parse_ddl.cc): a column definition; a key
// ([CONSTRAINT] PRIMARY KEY, UNIQUE, KEY/INDEX …) into out->indexes; one table option into
// `out`; a DEFAULT's operand.
Match ParseAlterColumnDefinition(Parser& p, ColumnSpec* col);
Match ParseAlterKeyDefinition(Parser& p, CreateTableStmt* out);
Match ParseAlterTableOption(Parser& p, CreateTableStmt* out);
ExprPtr ParseAlterDefault(Parser& p);

// One parse of one statement. Methods return false (or null) after recording the first
// error; callers just propagate. Not reusable.
class Parser {
 public:
  Parser(absl::string_view sql, const ParseOptions& options);
  std::variant<Statement, mysql::SqlError> Run();

  // --- token access (parser.cc)
  const Token& Peek(size_t ahead = 0) const;
  const Token& Advance();
  bool PeekKeyword(absl::string_view kw, size_t ahead = 0) const;
  bool Accept(TokenKind kind);
  bool AcceptKeyword(absl::string_view kw);
  bool Expect(TokenKind kind);
  bool ExpectKeyword(absl::string_view kw);
  // A syntax error at the current token (or `tok`). Always returns false.
  bool Fail();
  bool Fail(const Token& tok);
  // 1235 naming `what`. Always returns false.
  bool NotSupported(absl::string_view what);
  // `error` (a semantic one the parser finds, as MySQL's does). Always returns false.
  bool FailWith(mysql::SqlError error);
  // MySQL's parse error for a statement too big to parse ("memory exhausted"). Always false.
  bool Exhausted();

  // Bounds the recursion of nested expressions and subqueries, so that a statement of
  // thousands of `(` gets MySQL's "memory exhausted" parse error instead of overflowing the
  // stack. Construct one at every recursive entry point; when !ok() the error is recorded.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* parser);
    ~DepthGuard() { --parser_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    bool ok() const { return ok_; }

   private:
    Parser* parser_;
    bool ok_;
  };
  bool failed() const { return error_.has_value(); }
  // An identifier: unquoted and not reserved, or backquoted.
  bool ParseIdentifier(std::string* out);
  // A name where MySQL also takes strings and reserved words (charsets, collations).
  bool ParseNameOrString(std::string* out);
  // The SQL text from token `first` to the last consumed token, as written.
  std::string SourceText(size_t first) const;
  size_t pos() const { return pos_; }

  // --- statements (parse_select.cc, parse_set.cc, parse_show.cc, parse_misc.cc)
  // A query at SELECT or at WITH (common table expressions, parse_with.cc, in scope for it,
  // its UNION parts and its subqueries).
  bool ParseSelect(SelectStmt* out);
  bool ParseUnion(SelectStmt* first);
  // Parenthesized queries (parse_parenthesized.cc). Whether the `(` at `ahead` opens a query
  // rather than an expression or a group of joined tables.
  bool StartsParenthesizedQuery(size_t ahead) const;
  // A whole query: at SELECT, WITH or a `(` that opens a query, with set operations and the
  // ORDER BY and LIMIT after a parenthesized one.
  bool ParseQuery(SelectStmt* out);
  // `(` query `)`, nothing after it.
  bool ParseQueryInParens(SelectStmt* out);
  // A subquery or derived table `query` has SQL_CALC_FOUND_ROWS: 1234, as MySQL (only the
  // statement's own query counts rows for FOUND_ROWS()).
  bool RefuseNestedCalcFoundRows(const SelectStmt& query);
  // `query` as one operand of a set operation: itself, or a SELECT over it when it is a UNION.
  SelectStmt AsSetOperand(SelectStmt query);
  // [ORDER BY …] [LIMIT …] into `target`, a written ORDER BY replacing the one it had.
  bool ParseOrderAndLimit(SelectStmt* target);
  bool IntoAfterUnion(SelectStmt* first);
  // Common table expressions (parse_with.cc). At WITH: its tables, in scope until the query
  // they belong to ends (ParseSelect).
  bool ParseWith();
  // Whether `name` (unqualified) names a common table in scope.
  bool IsCommonTable(absl::string_view name) const;
  // `ref`, which names a common table, as a derived table of its query (parsed again for this
  // reference), named by the alias written or else the table's name. Inside a recursive common
  // table's own query, a reference to it is the rows of the round before (recursive_rows).
  bool ExpandCommonTable(TableRef* ref);
  // Windows (parse_window.cc). After OVER: a window's name, or a specification in
  // parentheses, which may build on a named window. Names are resolved when the SELECT ends
  // (ResolveWindows), since its WINDOW clause comes after the select list.
  bool ParseOver(Expr* fn);
  // After WINDOW: `name AS (specification)`, ….
  bool ParseWindowClause();
  // At the end of a SELECT: gives every OVER of it that names a window (those recorded since
  // WindowMarks()) its whole specification, checking the WINDOW clause as MySQL does (3579,
  // 3580, 3581, 3582, 3583, 3591). A SELECT nested in it has resolved its own.
  struct WindowMarks {
    size_t named = 0;
    size_t uses = 0;
  };
  WindowMarks window_marks() const { return {named_windows_.size(), window_uses_.size()}; }
  bool ResolveWindows(WindowMarks marks);
  bool ParseFrameBound(bool rows, bool descending, FrameBound* out);
  // Joins after a first table (parse_select.cc): `, t`, `JOIN t ON …`, … while they come.
  bool ParseJoins(std::vector<JoinClause>* joins);
  // The statement holds something computed before it runs (a derived table a join reads).
  void NoteComputedFirst() { has_subqueries_ = true; }
  bool ParseLimit(Limit* out);
  bool ParseSet(StatementNode* out);
  bool ParseShow(ShowStmt* out);
  bool ParseUse(UseStmt* out);
  bool ParseBegin(TransactionStmt* out);
  bool ParseStartTransaction(TransactionStmt* out);
  bool ParseCommitOrRollback(TransactionStmt* out);
  bool ParsePrepare(PrepareStmt* out);
  bool ParseExecute(ExecuteStmt* out);
  bool ParseDeallocate(DeallocateStmt* out);
  bool ParseDo(DoStmt* out);
  bool ParseKill(KillStmt* out);
  // DML (parse_dml.cc): INSERT and REPLACE, UPDATE, DELETE; ORDER BY lists.
  bool ParseInsert(InsertStmt* out);
  bool ParseUpdate(UpdateStmt* out);
  bool ParseDelete(DeleteStmt* out);
  bool ParseOrderBy(std::vector<OrderItem>* out);
  bool ParseTableName(TableName* out);
  // LOAD DATA (parse_load.cc).
  bool ParseLoadData(LoadDataStmt* out);
  // DDL (parse_ddl.cc): CREATE and DROP of databases, tables and indexes; TRUNCATE; ANALYZE;
  // EXPLAIN and DESCRIBE.
  bool ParseCreate(StatementNode* out);
  bool ParseDrop(StatementNode* out);
  bool ParseTruncate(TruncateStmt* out);
  bool ParseTableMaintenance(TableMaintenanceStmt* out);
  bool ParseExplain(StatementNode* out);
  // ALTER TABLE (parse_alter.cc); LOCK and UNLOCK TABLES (parse_lock.cc).
  bool ParseAlterTable(AlterTableStmt* out);
  bool ParseRenameTable(RenameTableStmt* out);
  // CREATE/ALTER VIEW and DROP VIEW (parse_view.cc); IsViewDefinition: whether the CREATE or
  // ALTER at the current token defines a view.
  bool ParseCreateView(CreateViewStmt* out);
  bool ParseDropView(DropViewStmt* out);
  bool ParseLockTables(LockTablesStmt* out);
  bool ParseUnlockTables(UnlockTablesStmt* out);
  // SAVEPOINT and RELEASE SAVEPOINT (parse_misc.cc).
  bool ParseSavepoint(TransactionStmt* out);
  // parse_account.cc: CREATE/ALTER/DROP/RENAME USER and SET PASSWORD (at their first word);
  // GRANT and REVOKE; FLUSH.
  bool ParseAccountStatement(AccountStmt* out);
  bool ParseGrant(GrantStmt* out);
  // CREATE/DROP ROLE, GRANT/REVOKE of roles, SET [DEFAULT] ROLE (at their first word).
  bool ParseRoleStatement(RoleStmt* out);
  bool ParseFlush(FlushStmt* out);
  bool ParseReleaseSavepoint(TransactionStmt* out);
  // One statement by its first keyword (parser.cc); EXPLAIN parses the statement it explains.
  bool ParseStatement(StatementNode* out);

  // --- expressions (parse_expr.cc), lowest precedence first
  ExprPtr ParseExpr();
  ExprPtr ParseXor();
  ExprPtr ParseAnd();
  ExprPtr ParseNot();
  ExprPtr ParsePredicate();
  // At ANY, SOME or ALL after comparison `op` with `left`: the quantified subquery.
  ExprPtr ParseQuantifiedRest(BinaryOp op, ExprPtr left);
  ExprPtr ParseBitOr();
  ExprPtr ParseBitAnd();
  ExprPtr ParseShift();
  ExprPtr ParseAdditive();
  ExprPtr ParseMultiplicative();
  ExprPtr ParseBitXor();
  ExprPtr ParseConcat();
  ExprPtr ParseUnary();
  // CASE … END, CAST(… AS type), CONVERT(…, type) and CONVERT(… USING charset)
  // (parse_case_cast.cc).
  ExprPtr ParseCase();
  ExprPtr ParseCast();
  bool ParseCastType(CastTarget* out);
  ExprPtr ParseTemporalLiteral();
  ExprPtr ParsePrimary();
  ExprPtr ParseLiteral();
  ExprPtr ParseSysVar();
  ExprPtr ParseIdentExpr();
  // After `(`, at SELECT: the subquery up to its `)`, as an expression of `kind`.
  ExprPtr ParseSubqueryRest(ExprKind kind);
  // At the `,` after a row's first element: the rest of the row up to its `)`.
  ExprPtr ParseRowRest(ExprPtr first);
  ExprPtr ParseFunctionArgs(std::string name);
  // `INTERVAL expr unit + operand` (parse_expr.cc).
  ExprPtr ParseLeadingInterval();
  ExprPtr ParseParam();

 private:
  bool UnsupportedStatement();

  absl::string_view sql_;
  ParseOptions options_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int param_count_ = 0;
  bool has_subqueries_ = false;
  int depth_ = 0;
  bool in_union_ = false;  // parsing a SELECT after UNION (ParseUnion)
  // The SELECT about to be parsed may have INTO: it is the statement's, or a part of its UNION.
  bool into_allowed_ = false;

  // A window specification as written: where its `(` is and how many `?` came before, so
  // that it can be parsed again for each window built on it, its parameters numbered as
  // the first time.
  struct WindowSource {
    size_t pos = 0;
    int params = 0;
  };
  struct NamedWindow {  // one of a WINDOW clause's
    std::string name;
    WindowSource source;
    std::string base;       // the window it builds on, if any
    size_t base_index = 0;  // where that is in named_windows_ (set by ResolveWindows)
    bool partitioned = false, ordered = false, framed = false;
  };
  struct WindowUse {  // an OVER that names a window
    Expr* fn;
    std::string name;
    std::optional<WindowSource> source;  // OVER (name …): its own specification
  };
  // `(` [base] [PARTITION BY …] [ORDER BY …] [frame] `)`; a RANGE frame's offsets follow the
  // window's order, which may be the one it inherits (`inherited_descending`).
  bool ParseWindowSpec(bool inherited_descending, std::string* base, WindowSpec* out);
  bool ParseWindowSpecAt(const WindowSource& source, bool inherited_descending, std::string* base,
                         WindowSpec* out);
  // Named window `index` (of those from `first` on) as a whole specification.
  bool NamedWindowSpec(size_t first, size_t index, WindowSpec* out);
  std::vector<NamedWindow> named_windows_;  // of the SELECTs being parsed, innermost last
  std::vector<WindowUse> window_uses_;

  bool ParseSelectBody(SelectStmt* out);
  struct CommonTable {
    std::string name;
    std::vector<std::string> columns;  // WITH name (a, b) AS …; empty: the query's names
    WindowSource query;                // its `(`
    // The common tables its query sees: those before it, and itself when it is recursive.
    size_t visible = 0;
    bool recursive = false;  // WITH RECURSIVE
    uint32_t number = 0;     // SelectStmt::common_table of its references
  };
  std::vector<CommonTable> common_tables_;  // in scope, outermost first
  int common_table_reads_ = 0;              // references expanded in this statement
  uint32_t common_tables_defined_ = 0;      // in this statement
  // A common table read once is a derived table like any other: only those read twice or more
  // must give every reference the same rows (SelectStmt::common_table).
  void ForgetCommonTablesReadOnce(Statement* stmt);
  // The recursive common tables whose query is being parsed (their index in common_tables_),
  // each with the references to itself found in it so far.
  struct Defining {
    size_t index = 0;
    int references = 0;
  };
  std::vector<Defining> defining_;
  // The query of `table`, common table `index` (ParseParenthesizedQuery), marked recursive when
  // it reads itself.
  bool ParseCommonTableQuery(const CommonTable& table, size_t index, SelectStmt* out);
  // Checks the shape of recursive common table `name`'s query, which reads itself `references`
  // times, and marks it (SelectStmt::recursive).
  bool MarkRecursive(const std::string& name, int references, SelectStmt* query);
  // `(` query `)`, the query's result columns renamed by `columns` when there are some.
  bool ParseParenthesizedQuery(const std::vector<std::string>& columns, SelectStmt* out);
  std::optional<mysql::SqlError> error_;
};

bool IsViewDefinition(const Parser& p);
ExprPtr MakeExpr(ExprKind kind);
// `(` name, … `)`: a derived table's or a common table's column names (parse_with.cc).
bool ParseColumnList(Parser& p, std::vector<std::string>* out);
// Names the result columns of `query` (its select list, the first SELECT's in a UNION) by
// `columns`, as MySQL does: 1353 for another count, 1060 for a name twice.
bool NameQueryColumns(Parser& p, const std::vector<std::string>& columns, SelectStmt* query);
// column = value, … (`:=` works too, as in MySQL): INSERT … SET, UPDATE, LOAD DATA … SET.
bool ParseAssignments(Parser& p, std::vector<Assignment>* out);

}  // namespace shoal::sql::internal
