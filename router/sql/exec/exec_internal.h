// Shared pieces of the executor files (executor.cc, exec_set.cc, exec_show.cc): one file per
// statement group, all running against one SessionState on the session's thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "engine/api/client.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/exec/executor.h"
#include "router/sql/exec/fetched_columns.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
class ParentStatement;
}  // namespace shoal::sql

namespace shoal::sql::internal {

// The result of each derived table `(SELECT …) alias` that a join reads, by its SELECT; those
// of the statement this one runs for (a recursive common table's rounds) through `outer`.
struct DerivedTables {
  absl::flat_hash_map<const SelectStmt*, mysql::ResultSet> results;
  // A common table's number (SelectStmt::common_table) → the reference computed for all.
  absl::flat_hash_map<uint32_t, const SelectStmt*> common_tables;
  std::shared_ptr<const DerivedTables> outer;

  // Null when neither this nor an outer one has `select`'s.
  const mysql::ResultSet* Find(const SelectStmt* select) const {
    for (const DerivedTables* d = this; d != nullptr; d = d->outer.get()) {
      auto it = d->results.find(select);
      if (it != d->results.end()) return &it->second;
      if (select->common_table == 0) continue;
      if (auto computed = d->common_tables.find(select->common_table);
          computed != d->common_tables.end()) {
        it = d->results.find(computed->second);
        if (it != d->results.end()) return &it->second;
      }
    }
    return nullptr;
  }
};

// One statement's run: its session, parameter values and clock reading.
struct ExecContext {
  SessionState* state = nullptr;
  absl::Span<const mysql::Value> params;
  absl::Time now;
  // Owns the statement when nothing else does (COM_QUERY text): a deferred statement keeps
  // it alive until it finishes.
  std::shared_ptr<const PreparedStatement> owner;
  // The statement being run, and whether it may run again after a stale dictionary (1412).
  const Statement* statement = nullptr;
  bool may_retry = true;
  // The statement's subqueries, computed before it runs (subqueries.h); null if it has none.
  std::shared_ptr<const SubqueryResults> subqueries = nullptr;
  // Set when this runs for another statement (a subquery over tables): a deferred result goes
  // to the parent (async_statement.h), not to the session.
  ParentStatement* parent = nullptr;
  // The transaction a child SELECT reads in when its parent writes what it reads (a
  // multi-table UPDATE or DELETE outside a SQL transaction): its reads then lock. Null: the
  // session's (StatementTransaction).
  std::shared_ptr<api::Transaction> statement_txn = nullptr;
  // The rows of the derived tables its joins read, computed before it runs (subqueries.h).
  std::shared_ptr<const DerivedTables> derived_tables = nullptr;

  EvalContext Eval() const {
    EvalContext c;
    c.state = state;
    c.mutable_state = state;
    c.params = params;
    c.params_bound = true;
    c.now = now;
    c.warnings = &state->warnings;
    c.subqueries = subqueries.get();
    c.stored_number = &StoredMemberNumber;
    return c;
  }
};

StatementResult ExecuteSet(const SetStmt& stmt, const ExecContext& ctx);
// SELECT, with or without tables (executor.cc; exec_select.cc for tables), UNIONs included.
StatementResult ExecuteSelect(const SelectStmt& select, const ExecContext& ctx);
// One SELECT, its UNION (if any) left aside, and its result columns.
StatementResult ExecuteSingleSelect(const SelectStmt& select, const ExecContext& ctx);
// SELECT … INTO @a, …: its SELECT, then the variables set from its row (exec_select_into.cc).
StatementResult ExecuteSelectInto(const SelectStmt& select, const ExecContext& ctx);
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> SingleSelectColumns(
    const SelectStmt& select, const SessionState& state);
// SELECT … UNION … (exec_union.cc), and its result columns (a recursive common table's: its
// non-recursive SELECTs').
StatementResult ExecuteUnion(const SelectStmt& select, const ExecContext& ctx);
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> UnionColumns(
    const SelectStmt& select, const SessionState& state);
// The columns of a union of SELECTs with these columns: the first one's names, each position's
// types aggregated as MySQL does; 1222 when their counts differ.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> UnitedColumns(
    const std::vector<std::vector<mysql::ColumnDefinition>>& parts, const SessionState& state);
// A row of such a union as its columns' collations compare it: equal rows, equal keys.
std::string UnionRowKey(const std::vector<mysql::Value>& row,
                        const std::vector<mysql::ColumnDefinition>& columns);
// A recursive common table's rows (exec_recursive.cc), and its columns over those of its
// non-recursive SELECTs: their union's, every one nullable (a round may make NULLs).
StatementResult ExecuteRecursive(const SelectStmt& query, const ExecContext& ctx);
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> RecursiveTableColumns(
    const std::vector<std::vector<mysql::ColumnDefinition>>& anchors, const SessionState& state);
// Table statements (exec_ddl.cc, exec_insert.cc, exec_select.cc, exec_modify.cc).
StatementResult ExecuteCreateDatabase(const CreateDatabaseStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteDropDatabase(const DropDatabaseStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteCreateTable(const CreateTableStmt& stmt, const ExecContext& ctx);
// CREATE TABLE … SELECT into `database` (exec_create_select.cc).
StatementResult ExecuteCreateTableSelect(const CreateTableStmt& stmt, const std::string& database,
                                         const ExecContext& ctx);
StatementResult ExecuteDropTable(const DropTableStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteCreateIndex(const CreateIndexStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteDropIndex(const DropIndexStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteTruncate(const TruncateStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteTableMaintenance(const TableMaintenanceStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteInsert(const InsertStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteLoadData(const LoadDataStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteTableSelect(const SelectStmt& stmt, const ExecContext& ctx);
// A SELECT whose FROM joins several tables (exec_join.cc), and its result columns.
StatementResult ExecuteJoinSelect(const SelectStmt& stmt, const ExecContext& ctx);
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> JoinSelectColumns(
    const SelectStmt& select, const SessionState& state);
// A table SELECT's result columns, for COM_STMT_PREPARE.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> TableSelectColumns(
    const SelectStmt& select, const SessionState& state);
StatementResult ExecuteUpdate(const UpdateStmt& stmt, const ExecContext& ctx);
// UPDATE over joined tables, DELETE t1, t2 FROM … (exec_multi_modify.cc).
StatementResult ExecuteMultiUpdate(const UpdateStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteMultiDelete(const DeleteStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteDelete(const DeleteStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteTransaction(const TransactionStmt& stmt, const ExecContext& ctx);
// Commits (or rolls back) the session's native transaction, if it has one, then answers `ok`.
StatementResult EndNativeTransaction(const ExecContext& ctx, bool commit, OkResult ok);
StatementResult ExecuteSetTransaction(const SetTransactionStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteShow(const ShowStmt& stmt, const ExecContext& ctx);
// SHOW's result columns, known before it runs (for Prepare); errors as ExecuteShow would.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> ShowColumns(
    const ShowStmt& stmt, const SessionState& state);

// LIMIT's offset and row count (literals or bound parameters).
std::optional<mysql::SqlError> EvalLimit(const Limit& limit, const ExecContext& ctx,
                                         uint64_t* offset, uint64_t* count);

// The databases SHOW DATABASES lists: the system schemas and the dictionary's (without a
// cluster, the session's current database). These read the worker's dictionary as it is:
// callers call RequireCurrentDictionary (table_access.h) first.
std::vector<std::string> ListDatabases(const SessionState& state);
// ListDatabases as the session's account may see them (SHOW DATABASES, information_schema).
std::vector<std::string> VisibleDatabases(const SessionState& state);
// The tables and views SHOW TABLES lists for `database`, sorted.
std::vector<std::string> ListTables(const SessionState& state, absl::string_view database);
// Whether USE may select `database`: 1102 for an empty or over-long name, 1049 for one the
// dictionary does not have (without a cluster, any well-formed name).
std::optional<mysql::SqlError> CheckDatabaseForUse(absl::string_view database,
                                                   const SessionState& state);

// With autocommit off, the first statement that touches a transactional table opens a
// transaction (MySQL sets IN_TRANS only then: `SET autocommit=0; SELECT 1` stays outside a
// transaction). Table statements call this; none exist yet.
void BeginImplicitTransaction(SessionState* state);
// Opens the SQL transaction (BEGIN, or the implicit one above): no savepoints, no writes yet.
void BeginTransaction(SessionState* state);
// The session's transaction_read_only: its transactions (and autocommit statements) are read
// only unless START TRANSACTION says READ WRITE.
bool SessionReadOnly(const SessionState& state);
// The access mode the next transaction gets: SET TRANSACTION's for it, else the session's.
bool NextTransactionReadOnly(const SessionState& state);
// sql_select_limit, where it applies to `select`: the statement's own SELECT without a LIMIT
// (for a UNION, its rows put together), not a subquery, a derived table, a UNION's part, nor
// the SELECT of INSERT … SELECT. nullopt: no limit (the variable's default).
std::optional<uint64_t> SelectLimitOf(const SelectStmt& select, const ExecContext& ctx);
// How the session's statements are read: its sql_mode's NO_BACKSLASH_ESCAPES, ANSI_QUOTES and
// PIPES_AS_CONCAT.
ParseOptions SessionParseOptions(const SessionState& state);
// INSERT, UPDATE and DELETE call this before they run: ROLLBACK TO SAVEPOINT needs to know
// whether anything may have changed since the savepoint.
void NoteTransactionWrite(SessionState* state);

// LOCK TABLES and UNLOCK TABLES (exec_lock.cc), ALTER TABLE (exec_alter.cc).
StatementResult ExecuteLockTables(const LockTablesStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteUnlockTables(const UnlockTablesStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteKill(const KillStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteAlterTable(const AlterTableStmt& stmt, const ExecContext& ctx);
// Under LOCK TABLES, whether a statement may read (or, with `write`, change) the named table,
// written with `alias` (empty: none): 1100 for one the session did not lock under that name,
// 1099 for a write to one it locked READ.
std::optional<mysql::SqlError> CheckTableLock(const TableName& name, absl::string_view alias,
                                              const SessionState& state, bool write);
// The same for a table a SELECT reads; one a view reads is covered by the view's lock.
std::optional<mysql::SqlError> CheckTableLock(const TableRef& ref, const SessionState& state);
// ResolveTable for a statement that writes the table: CheckTableLock's rules, then a wait while
// a copying ALTER TABLE rebuilds it (AwaitAlter).
std::variant<api::TablePtr, mysql::SqlError> ResolveTableToWrite(const TableName& name,
                                                                 absl::string_view alias,
                                                                 const SessionState& state);
StatementResult ExecuteRenameTable(const RenameTableStmt& stmt, const ExecContext& ctx);
// CREATE/ALTER VIEW and DROP VIEW (exec_view.cc).
StatementResult ExecuteCreateView(const CreateViewStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteDropView(const DropViewStmt& stmt, const ExecContext& ctx);
// Accounts and privileges (exec_account.cc): CREATE/ALTER/DROP/RENAME USER and SET PASSWORD,
// GRANT and REVOKE, FLUSH; SHOW GRANTS and SHOW CREATE USER's column title and rows.
StatementResult ExecuteAccount(const AccountStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteGrant(const GrantStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteFlush(const FlushStmt& stmt, const ExecContext& ctx);
// CREATE/DROP ROLE, GRANT/REVOKE of roles, SET [DEFAULT] ROLE (exec_role.cc).
StatementResult ExecuteRole(const RoleStmt& stmt, const ExecContext& ctx);
std::string AccountColumnTitle(const ShowStmt& stmt, const SessionState& state);
std::variant<std::vector<std::vector<mysql::Value>>, mysql::SqlError> AccountRows(
    const ShowStmt& stmt, const SessionState& state);

// An UPDATE's OK: affected rows are those changed, or with CLIENT_FOUND_ROWS those matched;
// the info line MySQL gives either way. `state` may be null (the session went away).
OkResult UpdateResult(const SessionState* state, uint64_t matched, uint64_t changed);

// DDL through the dictionary master (exec_ddl.cc): commits the session's open transaction,
// then sends `requests` one after the other; the first error is the statement's. `finish`
// makes the OK from the session (null once it went away) and the last confirmation.
using DdlFinish = absl::AnyInvocable<OkResult(SessionState* state, const wire::DictConf& last)>;
StatementResult RunDictionary(std::vector<wire::DictReq> requests, const ExecContext& ctx,
                              DdlFinish finish);
StatementResult RunDictionary(wire::DictReq request, const ExecContext& ctx, OkResult ok);

// Runs `stmt`. One that stops to wait for the dictionary master (SessionState::wanted) gets
// its request sent and Deferred returned: it runs again, from the start, once answered.
// `keep_warnings`: the diagnostics from before the statement, which a run again keeps (what
// the statement adds, it adds anew).
// Runs `stmt` itself, its subqueries already computed (executor.cc).
StatementResult RunStatementNode(const Statement& stmt, const ExecContext& ctx);
StatementResult RunStatementOrWait(const Statement& stmt, const ExecContext& ctx,
                                   size_t keep_warnings);

// Statement bookkeeping shared by every path, deferred ones included: record an error in the
// diagnostics and fill the OK packet's warning count.
StatementResult FinishStatement(StatementResult result, SessionState* state);

// Adds a diagnostic to the current statement's list.
void AddWarning(SessionState* state, Diagnostic::Level level, uint16_t code, std::string message);

// EXPLAIN (exec_explain.cc): the plan of the inner statement as MySQL's traditional table.
StatementResult ExecuteExplain(const ExplainStmt& stmt, const ExecContext& ctx);
// EXPLAIN's twelve result columns, for COM_STMT_PREPARE.
std::vector<mysql::ColumnDefinition> ExplainColumns(const SessionState& state);

// One column of COM_FIELD_LIST's answer: its definition, and the text mysqld appends to it —
// the default a new row gets (nullopt: NULL; a NOT NULL column without a default shows the
// zero of its type, as mysqld's empty record holds).
struct FieldListColumn {
  mysql::ColumnDefinition definition;
  std::optional<std::string> default_text;
};
// COM_FIELD_LIST: the visible columns of `table` in the session's database whose names match
// `wildcard` (a LIKE pattern, case-insensitive; empty matches all), in table order. 1046
// without a database, 1146 for an unknown table (always without a cluster).
std::variant<std::vector<FieldListColumn>, mysql::SqlError> ListFields(absl::string_view table,
                                                                       absl::string_view wildcard,
                                                                       const SessionState& state);

}  // namespace shoal::sql::internal
