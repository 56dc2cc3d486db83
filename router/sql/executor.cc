// See executor.h. This file holds the entry points, the diagnostics bookkeeping, and the
// small statements (SELECT without tables, DO, USE, transactions, SQL-level prepared
// statements); SET and SHOW run in exec_set.cc and exec_show.cc.
#include "router/sql/executor.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "protocol/constants.h"
#include "router/sql/exec_internal.h"
#include "router/sql/parser.h"
#include "router/sql/value_util.h"

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

StatementResult ExecuteSelect(const SelectStmt& select, const ExecContext& ctx) {
  EvalContext eval = ctx.Eval();
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
  if (select.limit) {
    uint64_t offset = 0, count = 0;
    if (auto err = EvalLimit(*select.limit, ctx, &offset, &count)) return *err;
    emit = emit && offset == 0 && count > 0;
  }
  if (!emit) return rs;
  std::vector<mysql::Value> row;
  for (size_t i = 0; i < select.items.size(); ++i) {
    auto v = Evaluate(*select.items[i].expr, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    row.push_back(ConvertToColumn(std::get<mysql::Value>(v), rs.columns[i]));
  }
  rs.rows.push_back(std::move(row));
  return rs;
}

StatementResult ExecuteDo(const DoStmt& stmt, const ExecContext& ctx) {
  EvalContext eval = ctx.Eval();
  for (const ExprPtr& e : stmt.exprs) {
    auto v = Evaluate(*e, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
  }
  return OkResult{};
}

StatementResult ExecuteUse(const UseStmt& stmt, const ExecContext& ctx) {
  if (auto err = CheckDatabaseForUse(stmt.database, *ctx.state)) return *err;
  ctx.state->database = stmt.database;
  return OkResult{};
}

// Today transactions only move the status flags; the transaction coordinator hooks in here.
StatementResult ExecuteTransaction(const TransactionStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  switch (stmt.action) {
    case TransactionStmt::Action::kBegin:
      // BEGIN inside a transaction commits it first (implicit commit), then starts anew.
      s->in_transaction = true;
      s->read_only_transaction = stmt.read_only;
      break;
    case TransactionStmt::Action::kCommit:
    case TransactionStmt::Action::kRollback:
      s->in_transaction = stmt.chain;
      if (!stmt.chain) s->read_only_transaction = false;
      break;
  }
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
  return RunStatement(ps->statement(), inner);
}

StatementResult ExecuteDeallocate(const DeallocateStmt& stmt, const ExecContext& ctx) {
  if (ctx.state->sql_prepared.erase(absl::AsciiStrToLower(stmt.name)) == 0) {
    return mysql::errors::UnknownStatementHandler(stmt.name, "DEALLOCATE PREPARE");
  }
  return OkResult{};
}

StatementResult RunStatement(const Statement& stmt, const ExecContext& ctx) {
  return std::visit(Overloaded{
                        [&](const SelectStmt& s) { return ExecuteSelect(s, ctx); },
                        [&](const SetStmt& s) { return ExecuteSet(s, ctx); },
                        [&](const SetTransactionStmt& s) { return ExecuteSetTransaction(s, ctx); },
                        [&](const ShowStmt& s) { return ExecuteShow(s, ctx); },
                        [&](const UseStmt& s) { return ExecuteUse(s, ctx); },
                        [&](const TransactionStmt& s) { return ExecuteTransaction(s, ctx); },
                        [&](const PrepareStmt& s) { return ExecutePrepare(s, ctx); },
                        [&](const ExecuteStmt& s) { return ExecuteExecute(s, ctx); },
                        [&](const DeallocateStmt& s) { return ExecuteDeallocate(s, ctx); },
                        [&](const DoStmt& s) { return ExecuteDo(s, ctx); },
                        [&](const auto&) -> StatementResult {
                          return mysql::errors::NotSupportedYet("table statements");
                        },
                    },
                    stmt.node);
}

// Statement bookkeeping shared by every path: count it, reset or keep the diagnostics,
// record an error in them, and fill the OK packet's warning count.
StatementResult Finish(StatementResult result, SessionState* state) {
  if (auto* err = std::get_if<mysql::SqlError>(&result)) {
    AddWarning(state, Diagnostic::Level::kError, err->code, err->message);
  } else if (auto* ok = std::get_if<OkResult>(&result)) {
    ok->warnings = WarningCount(*state);
  }
  return result;
}

}  // namespace

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
                                                   const SessionState& /*state*/) {
  if (database.empty() || database.size() > 64 || database.back() == ' ') {
    return mysql::SqlError{1102, "42000", absl::StrCat("Incorrect database name '", database, "'")};
  }
  return std::nullopt;
}

void BeginImplicitTransaction(SessionState* state) {
  if (!state->autocommit && !state->in_transaction) state->in_transaction = true;
}

void AddWarning(SessionState* state, Diagnostic::Level level, uint16_t code, std::string message) {
  state->warnings.push_back({level, code, std::move(message)});
}

}  // namespace internal

std::variant<std::unique_ptr<PreparedStatement>, mysql::SqlError> Prepare(
    absl::string_view sql, const SessionState& state) {
  ParseOptions options;
  options.params = ParamMode::kAllowed;
  options.escapes = state.no_backslash_escapes ? BackslashEscapes::kOff : BackslashEscapes::kOn;
  auto parsed = Parse(sql, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return *err;
  Statement stmt = std::get<Statement>(std::move(parsed));
  if (std::holds_alternative<PrepareStmt>(stmt.node) ||
      std::holds_alternative<ExecuteStmt>(stmt.node) ||
      std::holds_alternative<DeallocateStmt>(stmt.node) ||
      std::holds_alternative<UseStmt>(stmt.node)) {
    return mysql::errors::UnsupportedPreparedStatement();
  }
  std::vector<mysql::ColumnDefinition> columns;
  if (const auto* select = std::get_if<SelectStmt>(&stmt.node)) {
    EvalContext ctx;
    ctx.state = &state;
    auto typed = internal::SelectColumns(*select, ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
  } else if (const auto* show = std::get_if<ShowStmt>(&stmt.node)) {
    auto typed = internal::ShowColumns(*show, state);
    if (auto* err = std::get_if<mysql::SqlError>(&typed)) return *err;
    columns = std::get<std::vector<mysql::ColumnDefinition>>(std::move(typed));
  }
  return std::make_unique<PreparedStatement>(std::string(sql), std::move(stmt), std::move(columns));
}

StatementResult Execute(const PreparedStatement& stmt, absl::Span<const mysql::Value> params,
                        SessionState* state) {
  ++state->questions;
  if (!internal::IsDiagnostic(stmt.statement())) state->warnings.clear();
  if (static_cast<int>(params.size()) != stmt.param_count()) {
    return internal::Finish(mysql::errors::WrongArguments("mysqld_stmt_execute"), state);
  }
  internal::ExecContext ctx{state, params, internal::Now(*state)};
  return internal::Finish(internal::RunStatement(stmt.statement(), ctx), state);
}

StatementResult ExecuteText(absl::string_view one_statement, SessionState* state) {
  ParseOptions options;
  options.escapes = state->no_backslash_escapes ? BackslashEscapes::kOff : BackslashEscapes::kOn;
  auto parsed = Parse(one_statement, options);
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) {
    ++state->questions;
    state->warnings.clear();
    return internal::Finish(*err, state);
  }
  PreparedStatement stmt(std::string(), std::get<Statement>(std::move(parsed)), {});
  return Execute(stmt, {}, state);
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
