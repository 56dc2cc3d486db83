// Shared pieces of the executor files (executor.cc, exec_set.cc, exec_show.cc): one file per
// statement group, all running against one SessionState on the session's thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "absl/types/span.h"
#include "router/sql/executor.h"
#include "router/sql/expr_eval.h"

namespace shoal::sql::internal {

// One statement's run: its session, parameter values and clock reading.
struct ExecContext {
  SessionState* state = nullptr;
  absl::Span<const mysql::Value> params;
  absl::Time now;

  EvalContext Eval() const {
    EvalContext c;
    c.state = state;
    c.mutable_state = state;
    c.params = params;
    c.params_bound = true;
    c.now = now;
    c.warnings = &state->warnings;
    return c;
  }
};

StatementResult ExecuteSet(const SetStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteSetTransaction(const SetTransactionStmt& stmt, const ExecContext& ctx);
StatementResult ExecuteShow(const ShowStmt& stmt, const ExecContext& ctx);
// SHOW's result columns, known before it runs (for Prepare); errors as ExecuteShow would.
std::variant<std::vector<mysql::ColumnDefinition>, mysql::SqlError> ShowColumns(
    const ShowStmt& stmt, const SessionState& state);

// LIMIT's offset and row count (literals or bound parameters).
std::optional<mysql::SqlError> EvalLimit(const Limit& limit, const ExecContext& ctx,
                                         uint64_t* offset, uint64_t* count);

// The databases SHOW DATABASES lists. No dictionary yet: the system schemas and the session's
// current database. The dictionary replaces this function.
std::vector<std::string> ListDatabases(const SessionState& state);
// The tables SHOW TABLES lists for `database`. No dictionary yet: none. The dictionary
// replaces this function.
std::vector<std::string> ListTables(const SessionState& state, absl::string_view database);
// Whether USE may select `database`. No dictionary yet: any well-formed name (1102 for an
// empty or over-long one). The dictionary adds 1049 Unknown database here.
std::optional<mysql::SqlError> CheckDatabaseForUse(absl::string_view database,
                                                   const SessionState& state);

// With autocommit off, the first statement that touches a transactional table opens a
// transaction (MySQL sets IN_TRANS only then: `SET autocommit=0; SELECT 1` stays outside a
// transaction). Table statements call this; none exist yet.
void BeginImplicitTransaction(SessionState* state);

// Adds a diagnostic to the current statement's list.
void AddWarning(SessionState* state, Diagnostic::Level level, uint16_t code, std::string message);

}  // namespace shoal::sql::internal
