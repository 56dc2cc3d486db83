// See executor.h. This file holds the entry points, the diagnostics bookkeeping, and the
// small statements (SELECT without tables, DO, USE, transactions, SQL-level prepared
// statements); SET and SHOW run in exec_set.cc and exec_show.cc.
#include "router/sql/exec/executor.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/api/client.h"
#include "protocol/constants.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/exec/aggregates.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/exec_sleep.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/subqueries.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/user_locks.h"
#include "router/sql/exec/view_expansion.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
namespace internal {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

absl::Time Now(const SessionState& state) {
  return state.server != nullptr && state.server->now ? state.server->now() : absl::Now();
}

mysql::SqlError NoTablesUsed() { return {1096, "HY000", "No tables used"}; }

bool ReadsDiagnostics(const Expr& e) {
  if (e.kind == ExprKind::kSysVar && (e.name == "warning_count" || e.name == "error_count")) {
    return true;
  }
  return std::any_of(e.args.begin(), e.args.end(),
                     [](const ExprPtr& a) { return ReadsDiagnostics(*a); });
}

// Diagnostic statements read the previous statement's warnings instead of clearing them.
bool IsDiagnostic(const Statement& stmt) {
  if (const auto* show = std::get_if<ShowStmt>(&stmt.node)) {
    return show->kind == ShowKind::kWarnings || show->kind == ShowKind::kErrors ||
           show->kind == ShowKind::kCountWarnings || show->kind == ShowKind::kCountErrors;
  }
  if (const auto* select = std::get_if<SelectStmt>(&stmt.node)) {
    return std::any_of(select->items.begin(), select->items.end(), [](const SelectItem& i) {
      return i.expr != nullptr && ReadsDiagnostics(*i.expr);
    });
  }
  return false;
}

// The result columns of a SELECT, typed before any row (prepare) or with bound parameters.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> SelectColumns(
    const SelectStmt& select, const EvalContext& ctx) {
  std::vector<mysql::ColumnDefinition> columns;
  for (const SelectItem& item : select.items) {
    if (item.expr == nullptr) return NoTablesUsed();
    auto typed = TypeOf(*item.expr, ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    mysql::ColumnDefinition col = std::get<mysql::ColumnDefinition>(std::move(typed));
    col.name = item.name;
    columns.push_back(std::move(col));
  }
  return columns;
}

StatementResult ExecuteDoNow(const DoStmt& stmt, const ExecContext& ctx) {
  EvalContext eval = ctx.Eval();
  absl::Duration sleep;
  eval.sleep = &sleep;
  std::vector<const Expr*> exprs;
  for (const ExprPtr& e : stmt.exprs) {
    auto v = Evaluate(*e, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    exprs.push_back(e.get());
  }
  return WaitBeforeDelivering(OkResult{}, sleep, IsOnlySleep(exprs), ctx);
}

StatementResult ExecuteDo(const DoStmt& stmt, const ExecContext& ctx) {
  return RunWithUserLocks(ctx, [&] { return ExecuteDoNow(stmt, ctx); });
}

StatementResult ExecuteUse(const UseStmt& stmt, const ExecContext& ctx) {
  if (auto err = CheckDatabaseForUse(stmt.database, *ctx.state)) return *err;
  ctx.state->database = stmt.database;
  return OkResult{};
}

StatementResult RunStatement(const Statement& stmt, const ExecContext& ctx);

StatementResult ExecutePrepare(const PrepareStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  std::string key = absl::AsciiStrToLower(stmt.name);
  std::string text = stmt.text;
  if (!stmt.from_var.empty()) {
    auto it = s->user_vars.find(absl::AsciiStrToLower(stmt.from_var));
    // MySQL prepares the text of the variable's value; an unset variable reads as "NULL".
    text = it == s->user_vars.end() ? "NULL" : ValueText(it->second);
  }
  s->sql_prepared.erase(key);  // MySQL drops the old statement even if the new one fails
  auto prepared = Prepare(text, *s);
  if (auto* err = std::get_if<mysql::SqlError>(&prepared)) return *err;
  s->sql_prepared[key] = std::move(std::get<std::unique_ptr<PreparedStatement>>(prepared));
  OkResult ok;
  ok.info = "Statement prepared";
  return ok;
}

StatementResult ExecuteExecute(const ExecuteStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  auto it = s->sql_prepared.find(absl::AsciiStrToLower(stmt.name));
  if (it == s->sql_prepared.end()) {
    return mysql::errors::UnknownStatementHandler(stmt.name, "EXECUTE");
  }
  std::shared_ptr<const PreparedStatement> ps = it->second;  // survives a DEALLOCATE inside
  if (static_cast<int>(stmt.using_vars.size()) != ps->param_count()) {
    return mysql::errors::WrongArguments("EXECUTE");
  }
  std::vector<mysql::Value> params;
  for (const std::string& var : stmt.using_vars) {
    auto v = s->user_vars.find(absl::AsciiStrToLower(var));
    params.push_back(v == s->user_vars.end() ? mysql::Value{} : v->second);
  }
  ExecContext inner = ctx;
  inner.params = params;
  inner.owner = ps;
  inner.statement = &ps->statement();
  return RunStatement(ps->statement(), inner);
}

StatementResult ExecuteDeallocate(const DeallocateStmt& stmt, const ExecContext& ctx) {
  if (ctx.state->sql_prepared.erase(absl::AsciiStrToLower(stmt.name)) == 0) {
    return mysql::errors::UnknownStatementHandler(stmt.name, "DEALLOCATE PREPARE");
  }
  return OkResult{};
}

}  // namespace

StatementResult RunStatementNode(const Statement& stmt, const ExecContext& ctx) {
  return std::visit(
      Overloaded{
          [&](const SelectStmt& s) {
            return s.into.empty() ? ExecuteSelect(s, ctx) : ExecuteSelectInto(s, ctx);
          },
          [&](const SetStmt& s) {
            StatementResult r = ExecuteSet(s, ctx);
            // SET autocommit = 1 inside a transaction commits it.
            if (auto* ok = std::get_if<OkResult>(&r);
                ok != nullptr && ctx.state->txn != nullptr && !ctx.state->in_transaction) {
              return EndNativeTransaction(ctx, true, *ok);
            }
            return r;
          },
          [&](const SetTransactionStmt& s) { return ExecuteSetTransaction(s, ctx); },
          [&](const ShowStmt& s) { return ExecuteShow(s, ctx); },
          [&](const UseStmt& s) { return ExecuteUse(s, ctx); },
          [&](const TransactionStmt& s) { return ExecuteTransaction(s, ctx); },
          [&](const PrepareStmt& s) { return ExecutePrepare(s, ctx); },
          [&](const ExecuteStmt& s) { return ExecuteExecute(s, ctx); },
          [&](const DeallocateStmt& s) { return ExecuteDeallocate(s, ctx); },
          [&](const DoStmt& s) { return ExecuteDo(s, ctx); },
          [&](const InsertStmt& s) { return ExecuteInsert(s, ctx); },
          [&](const UpdateStmt& s) { return ExecuteUpdate(s, ctx); },
          [&](const DeleteStmt& s) { return ExecuteDelete(s, ctx); },
          [&](const CreateTableStmt& s) { return ExecuteCreateTable(s, ctx); },
          [&](const CreateDatabaseStmt& s) { return ExecuteCreateDatabase(s, ctx); },
          [&](const DropDatabaseStmt& s) { return ExecuteDropDatabase(s, ctx); },
          [&](const DropTableStmt& s) { return ExecuteDropTable(s, ctx); },
          [&](const CreateIndexStmt& s) { return ExecuteCreateIndex(s, ctx); },
          [&](const DropIndexStmt& s) { return ExecuteDropIndex(s, ctx); },
          [&](const TruncateStmt& s) { return ExecuteTruncate(s, ctx); },
          [&](const TableMaintenanceStmt& s) { return ExecuteTableMaintenance(s, ctx); },
          [&](const ExplainStmt& s) { return ExecuteExplain(s, ctx); },
          [&](const LockTablesStmt& s) { return ExecuteLockTables(s, ctx); },
          [&](const UnlockTablesStmt& s) { return ExecuteUnlockTables(s, ctx); },
          [&](const AlterTableStmt& s) { return ExecuteAlterTable(s, ctx); },
          [&](const RenameTableStmt& s) { return ExecuteRenameTable(s, ctx); },
          [&](const LoadDataStmt& s) { return ExecuteLoadData(s, ctx); },
          [&](const KillStmt& s) { return ExecuteKill(s, ctx); },
          [&](const CreateViewStmt& s) { return ExecuteCreateView(s, ctx); },
          [&](const DropViewStmt& s) { return ExecuteDropView(s, ctx); },
          [&](const AccountStmt& s) { return ExecuteAccount(s, ctx); },
          [&](const GrantStmt& s) { return ExecuteGrant(s, ctx); },
          [&](const RoleStmt& s) { return ExecuteRole(s, ctx); },
          [&](const FlushStmt& s) { return ExecuteFlush(s, ctx); },
      },
      stmt.node);
}

namespace {

// 1792 for a statement that changes data (rows, schema, accounts) in a READ ONLY transaction
// (START TRANSACTION READ ONLY, or an autocommit statement under SET SESSION TRANSACTION READ
// ONLY), as MySQL's check of CF_CHANGES_DATA against tx_read_only.
std::optional<mysql::SqlError> CheckReadOnly(const Statement& stmt, const SessionState& state) {
  // What the statement is first: a read (every point select) looks up no variable.
  if (!ChangesData(stmt)) return std::nullopt;
  const bool read_only =
      state.in_transaction ? state.read_only_transaction : NextTransactionReadOnly(state);
  if (!read_only) return std::nullopt;
  return mysql::SqlError{1792, "25006", "Cannot execute statement in a READ ONLY transaction."};
}

// An autocommit statement over tables is a transaction of its own: it takes SET TRANSACTION's
// access mode for the next one, as MySQL ends its one-shot characteristics with the statement.
// (With autocommit off the transaction it begins takes it: BeginTransaction.)
void TakeNextTransaction(const Statement& stmt, SessionState* state) {
  if (!state->next_transaction_read_only || state->in_transaction || !state->autocommit) return;
  const auto* select = std::get_if<SelectStmt>(&stmt.node);
  if (ChangesData(stmt) || (select != nullptr && select->from)) {
    state->next_transaction_read_only.reset();
  }
}

StatementResult RunExpanded(const Statement& stmt, const ExecContext& ctx) {
  if (auto err = CheckToRun(stmt, *ctx.state)) return *err;
  if (auto err = CheckReadOnly(stmt, *ctx.state)) return *err;
  TakeNextTransaction(stmt, ctx.state);
  if (!stmt.has_subqueries) return RunStatementNode(stmt, ctx);
  return RunWithSubqueries(stmt, ctx);
}

// A statement whose views must be expanded again runs as parsed again from its text with the
// views expanded (view_expansion.h), a copy `original` keeps for as long as the dictionary stays.
StatementResult RunThroughViews(const PreparedStatement& original, const ExecContext& ctx) {
  const PreparedStatement::DictionaryStamp now = DictionaryStamp(*ctx.state);
  std::shared_ptr<const PreparedStatement>& expanded = original.reexpanded();
  if (expanded == nullptr || expanded->views_expanded_on() != now) {
    ParseOptions options = SessionParseOptions(*ctx.state);
    options.params = ParamMode::kAllowed;
    auto parsed = Parse(original.text(), options);
    if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
    Statement stmt = std::get<Statement>(std::move(parsed));
    if (auto err = ExpandViews(&stmt, *ctx.state)) return *err;
    expanded = std::make_shared<const PreparedStatement>(original.text(), std::move(stmt),
                                                         original.columns(), now);
  }
  ExecContext inner = ctx;
  inner.owner = expanded;
  inner.statement = &expanded->statement();
  return RunExpanded(expanded->statement(), inner);
}

StatementResult RunStatement(const Statement& stmt, const ExecContext& ctx) {
  // Views are expanded when a statement is parsed (ExecuteText, Prepare), and again from its
  // text here when the dictionary changed since (after a 1412, a view may have) or when it
  // named a view the dictionary of then did not have.
  const PreparedStatement* owner = ctx.owner.get();
  if (owner != nullptr && !owner->text().empty()) {
    if (const auto& on = owner->views_expanded_on()) {
      if (*on != DictionaryStamp(*ctx.state)) return RunThroughViews(*owner, ctx);
    } else if (NamesView(stmt, *ctx.state)) {
      return RunThroughViews(*owner, ctx);
    }
  }
  return RunExpanded(stmt, ctx);
}

// Expands the views `stmt` names, in place, when the dictionary at hand allows; otherwise (a
// view to wait for, or an error) leaves that for RunStatement, which reports it.
std::optional<PreparedStatement::DictionaryStamp> ExpandViewsNow(Statement* stmt,
                                                                 const SessionState& state) {
  if (!NamesView(*stmt, state)) return std::nullopt;
  std::shared_ptr<DictionaryFetch> wanted = state.wanted;
  if (ExpandViews(stmt, state).has_value()) {
    state.wanted = std::move(wanted);
    return std::nullopt;
  }
  return DictionaryStamp(state);
}

}  // namespace

StatementResult ExecuteSelect(const SelectStmt& select, const ExecContext& ctx) {
  if (select.recursive) return ExecuteRecursive(select, ctx);
  if (!select.unions.empty()) return ExecuteUnion(select, ctx);
  return ExecuteSingleSelect(select, ctx);
}

std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> SingleSelectColumns(
    const SelectStmt& select, const SessionState& state) {
  if (select.from) return TableSelectColumns(select, state);
  EvalContext ctx;
  ctx.state = &state;
  return SelectColumns(select, ctx);
}

// A SELECT without tables, evaluated now (GET_LOCK and its kin may stop it: user_locks.h).
StatementResult SelectWithoutTables(const SelectStmt& select, const ExecContext& ctx);

StatementResult ExecuteSingleSelect(const SelectStmt& select, const ExecContext& ctx) {
  if (select.from) return ExecuteTableSelect(select, ctx);
  // SELECT COUNT(*), without tables, aggregates over one row of no columns, as MySQL does.
  std::vector<const Expr*> aggregates;
  for (const SelectItem& item : select.items) {
    if (item.expr != nullptr) CollectAggregates(*item.expr, &aggregates);
  }
  if (!aggregates.empty()) return FinishSelect(select, FetchedRows{{}, {{}}, {}, {}}, ctx);
  // Only the statement itself can run again from the start, not a part of a UNION.
  const SelectStmt* top =
      ctx.statement == nullptr ? nullptr : std::get_if<SelectStmt>(&ctx.statement->node);
  if (top != &select) return SelectWithoutTables(select, ctx);
  return RunWithUserLocks(ctx, [&] { return SelectWithoutTables(select, ctx); });
}

StatementResult SelectWithoutTables(const SelectStmt& select, const ExecContext& ctx) {
  EvalContext eval = ctx.Eval();
  absl::Duration sleep;
  eval.sleep = &sleep;
  auto typed = SelectColumns(select, eval);
  if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
  mysql::ResultSet rs;
  rs.columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
  bool emit = true;
  if (select.where != nullptr) {
    eval.clause = "where clause";
    auto v = Evaluate(*select.where, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    emit = Truth(std::get<mysql::Value>(v)) == 1;
    eval.clause = "field list";
  }
  if (select.calc_found_rows) ctx.state->calc_found_rows = emit ? 1 : 0;
  if (select.limit) {
    uint64_t offset = 0, count = 0;
    if (auto err = EvalLimit(*select.limit, ctx, &offset, &count)) return *err;
    emit = emit && offset == 0 && count > 0;
  } else if (select.unions.empty()) {
    if (std::optional<uint64_t> limit = SelectLimitOf(select, ctx)) emit = emit && *limit > 0;
  }
  if (!emit) return WaitBeforeDelivering(std::move(rs), sleep, false, ctx);
  std::vector<mysql::Value> row;
  for (size_t i = 0; i < select.items.size(); ++i) {
    auto v = Evaluate(*select.items[i].expr, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    row.push_back(ConvertToColumn(std::get<mysql::Value>(v), rs.columns[i]));
  }
  rs.rows.push_back(std::move(row));
  const bool only_sleep = select.where == nullptr && select.items.size() == 1 &&
                          IsOnlySleep({select.items[0].expr.get()});
  return WaitBeforeDelivering(std::move(rs), sleep, only_sleep, ctx);
}

StatementResult RunStatementOrWait(const Statement& stmt, const ExecContext& ctx,
                                   size_t keep_warnings) {
  StatementResult result = RunStatement(stmt, ctx);
  if (ctx.state->wanted == nullptr) return result;
  // The statement stopped before doing anything (its result only carried the stop up).
  SHOAL_CHECK(!std::holds_alternative<Deferred>(result)) << "a statement waited and ran on";
  return WaitForDictionary(ctx, keep_warnings);
}

StatementResult FinishStatement(StatementResult result, SessionState* state) {
  state->row_count = -1;
  if (const auto* rows = std::get_if<mysql::ResultSet>(&result)) {
    state->found_rows = state->calc_found_rows.value_or(rows->rows.size());
  }
  state->calc_found_rows.reset();
  if (auto* err = std::get_if<mysql::SqlError>(&result)) {
    AddWarning(state, Diagnostic::Level::kError, err->code, err->message);
  } else if (auto* ok = std::get_if<OkResult>(&result)) {
    ok->warnings = WarningCount(*state);
    state->row_count = static_cast<int64_t>(ok->affected_rows);
  }
  return result;
}

std::optional<mysql::SqlError> EvalLimit(const Limit& limit, const ExecContext& ctx,
                                         uint64_t* offset, uint64_t* count) {
  auto value = [&](const ExprPtr& e, uint64_t* out) -> std::optional<mysql::SqlError> {
    *out = 0;
    if (e == nullptr) return std::nullopt;
    EvalContext eval = ctx.Eval();
    auto v = Evaluate(*e, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    const mysql::Value& val = std::get<mysql::Value>(v);
    if (const auto* u = std::get_if<uint64_t>(&val)) {
      *out = *u;
    } else if (const auto* i = std::get_if<int64_t>(&val); i != nullptr && *i >= 0) {
      *out = static_cast<uint64_t>(*i);
    } else {
      return mysql::errors::WrongArguments("LIMIT");
    }
    return std::nullopt;
  };
  if (auto err = value(limit.offset, offset)) return err;
  return value(limit.count, count);
}

std::optional<mysql::SqlError> CheckDatabaseForUse(absl::string_view database,
                                                   const SessionState& state) {
  if (database.empty() || database.size() > 64 || database.back() == ' ') {
    return mysql::SqlError{1102, "42000", absl::StrCat("Incorrect database name '", database, "'")};
  }
  if (state.data == nullptr) return std::nullopt;
  if (auto err = RequireCurrentDictionary(state)) return err;
  std::vector<std::string> known = ListDatabases(state);
  if (std::find(known.begin(), known.end(), database) != known.end()) return std::nullopt;
  // Another router may have just created it.
  if (auto err = WantRefresh(state)) return err;
  return mysql::errors::UnknownDatabase(database);
}

void BeginImplicitTransaction(SessionState* state) {
  if (!state->autocommit && !state->in_transaction) BeginTransaction(state);
}

bool SessionReadOnly(const SessionState& state) {
  const SysVarDef* def = FindSysVar("transaction_read_only");
  if (def == nullptr) return false;
  const mysql::Value v = SessionValue(*def, state);
  const int64_t* on = std::get_if<int64_t>(&v);
  return on != nullptr && *on != 0;
}

std::optional<uint64_t> SelectLimitOf(const SelectStmt& select, const ExecContext& ctx) {
  if (select.limit || ctx.parent != nullptr || ctx.statement == nullptr) return std::nullopt;
  const auto* top = std::get_if<SelectStmt>(&ctx.statement->node);
  if (top == nullptr) return std::nullopt;
  // A UNION's rows are limited once put together: by its ORDER BY/LIMIT part, or else whole.
  const bool own = &select == top ? top->union_tail == nullptr : &select == top->union_tail.get();
  if (!own) return std::nullopt;
  return ctx.state->select_limit;
}

ParseOptions SessionParseOptions(const SessionState& state) {
  ParseOptions options;
  options.escapes = state.no_backslash_escapes ? BackslashEscapes::kOff : BackslashEscapes::kOn;
  options.double_quotes = state.ansi_quotes ? DoubleQuotes::kIdentifier : DoubleQuotes::kString;
  options.pipes_as_concat = state.pipes_as_concat;
  return options;
}

bool NextTransactionReadOnly(const SessionState& state) {
  return state.next_transaction_read_only.value_or(SessionReadOnly(state));
}

void BeginTransaction(SessionState* state) {
  state->in_transaction = true;
  // As SET TRANSACTION or the session says, unless START TRANSACTION says otherwise
  // (ExecuteTransaction).
  state->read_only_transaction = NextTransactionReadOnly(*state);
  state->next_transaction_read_only.reset();
  state->savepoints.clear();
  state->undo.clear();
  state->undo_bytes = 0;
  state->transaction_writes = 0;
}

void NoteTransactionWrite(SessionState* state) {
  if (state->in_transaction) ++state->transaction_writes;
}

void AddWarning(SessionState* state, Diagnostic::Level level, uint16_t code, std::string message) {
  state->warnings.push_back({level, code, std::move(message)});
}

}  // namespace internal

std::variant<std::unique_ptr<PreparedStatement>, mysql::SqlError> Prepare(
    absl::string_view sql, const SessionState& state) {
  ParseOptions options = internal::SessionParseOptions(state);
  options.params = ParamMode::kAllowed;
  auto parsed = Parse(sql, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  Statement stmt = std::get<Statement>(std::move(parsed));
  // Expanded now to type its columns; again at an execution if the dictionary changed since.
  std::optional<PreparedStatement::DictionaryStamp> views;
  if (internal::NamesView(stmt, state)) {
    if (auto err = internal::ExpandViews(&stmt, state)) return *err;
    views = internal::DictionaryStamp(state);
  }
  // Checked now too, as MySQL: the result's columns tell of the tables.
  if (auto err = CheckPrivileges(stmt, state)) return *err;
  if (std::holds_alternative<PrepareStmt>(stmt.node) ||
      std::holds_alternative<ExecuteStmt>(stmt.node) ||
      std::holds_alternative<DeallocateStmt>(stmt.node) ||
      std::holds_alternative<UseStmt>(stmt.node) ||
      std::holds_alternative<LoadDataStmt>(stmt.node)) {
    return mysql::errors::UnsupportedPreparedStatement();
  }
  std::vector<mysql::ColumnDefinition> columns;
  if (const auto* select = std::get_if<SelectStmt>(&stmt.node); select && select->into.empty()) {
    auto typed = select->unions.empty() ? internal::SingleSelectColumns(*select, state)
                                        : internal::UnionColumns(*select, state);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
  } else if (const auto* show = std::get_if<ShowStmt>(&stmt.node)) {
    auto typed = internal::ShowColumns(*show, state);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
  } else if (std::holds_alternative<ExplainStmt>(stmt.node)) {
    columns = internal::ExplainColumns(state);
  }
  return std::make_unique<PreparedStatement>(std::string(sql), std::move(stmt), std::move(columns),
                                             views);
}

namespace {

StatementResult Run(const PreparedStatement& stmt, absl::Span<const mysql::Value> params,
                    SessionState* state, std::shared_ptr<const PreparedStatement> owner) {
  ++state->questions;
  if (!internal::IsDiagnostic(stmt.statement())) state->warnings.clear();
  if (static_cast<int>(params.size()) != stmt.param_count()) {
    return internal::FinishStatement(mysql::errors::WrongArguments("mysqld_stmt_execute"), state);
  }
  if (const auto* select = std::get_if<SelectStmt>(&stmt.statement().node);
      select != nullptr &&
      (select->calc_found_rows || (select->union_tail && select->union_tail->calc_found_rows))) {
    internal::AddWarning(state, Diagnostic::Level::kWarning, 1287,
                         "'SQL_CALC_FOUND_ROWS' is deprecated and will be removed in a future "
                         "release. Consider using two separate queries instead.");
  }
  internal::ExecContext ctx{state, params, internal::Now(*state), std::move(owner)};
  ctx.statement = &stmt.statement();
  state->dictionary_fetched = DictionaryFetched::kNo;
  state->auto_increment_read = nullptr;
  StatementResult result =
      internal::RunStatementOrWait(stmt.statement(), ctx, state->warnings.size());
  if (std::holds_alternative<Deferred>(result)) return result;
  return internal::FinishStatement(std::move(result), state);
}

}  // namespace

StatementResult Execute(std::shared_ptr<const PreparedStatement> stmt,
                        absl::Span<const mysql::Value> params, SessionState* state) {
  const PreparedStatement& run = *stmt;
  return Run(run, params, state, std::move(stmt));
}

StatementResult ExecuteText(absl::string_view one_statement, SessionState* state) {
  auto parsed = Parse(one_statement, internal::SessionParseOptions(*state));
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) {
    ++state->questions;
    state->warnings.clear();
    return internal::FinishStatement(*err, state);
  }
  // The text stays with the statement: should it name a view, it may be parsed again.
  Statement parsed_stmt = std::get<Statement>(std::move(parsed));
  std::optional<PreparedStatement::DictionaryStamp> views =
      internal::ExpandViewsNow(&parsed_stmt, *state);
  auto stmt =
      std::make_shared<const PreparedStatement>(std::string(one_statement), std::move(parsed_stmt),
                                                std::vector<mysql::ColumnDefinition>{}, views);
  return Run(*stmt, {}, state, stmt);
}

uint16_t StatusFlags(const SessionState& state) {
  uint16_t flags = 0;
  if (state.autocommit) flags |= mysql::status::kAutocommit;
  if (state.in_transaction) flags |= mysql::status::kInTrans;
  if (state.in_transaction && state.read_only_transaction) flags |= mysql::status::kInTransReadonly;
  if (state.no_backslash_escapes) flags |= mysql::status::kNoBackslashEscapes;
  return flags;
}

uint16_t WarningCount(const SessionState& state) {
  return static_cast<uint16_t>(std::min<size_t>(state.warnings.size(), 65535));
}

}  // namespace shoal::sql
