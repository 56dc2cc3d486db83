// BEGIN, COMMIT, ROLLBACK and savepoints. The SQL transaction's flags change at once; its
// native transaction (begun by its first table statement, see StatementTransaction) is
// committed or rolled back on every partition it touched before the client gets its OK (I7:
// an acknowledged commit is on the data nodes).
//
// Savepoints are kept, released and rolled back to as MySQL does; a native transaction cannot
// undo part of its changes (neither can NDB's), so ROLLBACK TO SAVEPOINT writes back what the
// router recorded of the rows written since (savepoint_undo.h).
#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

class EndTransactionRun : public AsyncStatement, public api::Completion {
 public:
  EndTransactionRun(const ExecContext& ctx, bool commit, OkResult ok)
      : AsyncStatement(ctx), commit_(commit), ok_(std::move(ok)), txn_(std::move(ctx.state->txn)) {
    ctx.state->txn = nullptr;
  }

  void Start() { EndTransaction(txn_.get(), commit_, this); }

  void Done(const api::Outcome& outcome) override {
    if (commit_ && !outcome.ok()) return Deliver(EngineError(outcome.code, outcome.message));
    Deliver(ok_);
  }

 private:
  bool commit_;
  OkResult ok_;
  std::shared_ptr<api::Transaction> txn_;
};

mysql::SqlError NoSuchSavepoint(absl::string_view name) {
  return {1305, "42000", absl::StrCat("SAVEPOINT ", name, " does not exist")};
}

// The savepoint named `name` (case-insensitive, as MySQL), or end().
std::vector<SessionState::Savepoint>::iterator FindSavepoint(SessionState* s,
                                                             absl::string_view name) {
  return std::find_if(
      s->savepoints.begin(), s->savepoints.end(),
      [&](const SessionState::Savepoint& p) { return absl::EqualsIgnoreCase(p.name, name); });
}

StatementResult RunSavepointAction(const TransactionStmt& stmt, SessionState* s) {
  // Savepoints live as long as their transaction; the next one clears them (BeginTransaction).
  auto found = s->in_transaction ? FindSavepoint(s, stmt.savepoint) : s->savepoints.end();
  switch (stmt.action) {
    case TransactionStmt::Action::kSavepoint:
      // Outside a transaction MySQL accepts it and keeps nothing.
      if (!s->in_transaction) return OkResult{};
      if (found != s->savepoints.end()) s->savepoints.erase(found);  // set again: moves
      s->savepoints.push_back({stmt.savepoint, s->transaction_writes, s->undo.size(), true});
      return OkResult{};
    case TransactionStmt::Action::kReleaseSavepoint:
      if (found == s->savepoints.end()) return NoSuchSavepoint(stmt.savepoint);
      s->savepoints.erase(found, s->savepoints.end());
      if (s->savepoints.empty()) {  // nothing left to roll back to
        s->undo.clear();
        s->undo_bytes = 0;
      }
      return OkResult{};
    default:
      break;
  }
  return OkResult{};
}

}  // namespace

StatementResult EndNativeTransaction(const ExecContext& ctx, bool commit, OkResult ok) {
  if (ctx.state->txn == nullptr || ctx.state->data == nullptr) return ok;
  auto* run = new EndTransactionRun(ctx, commit, std::move(ok));
  run->Start();
  return Deferred{};
}

StatementResult ExecuteTransaction(const TransactionStmt& stmt, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  switch (stmt.action) {
    case TransactionStmt::Action::kBegin: {
      // BEGIN inside a transaction commits it first (implicit commit), then starts anew.
      const bool read_only = stmt.read_only.value_or(NextTransactionReadOnly(*s));
      BeginTransaction(s);
      s->locked_tables.clear();  // and ends LOCK TABLES
      s->read_only_transaction = read_only;
      return EndNativeTransaction(ctx, true, OkResult{});
    }
    case TransactionStmt::Action::kCommit:
    case TransactionStmt::Action::kRollback:
      s->in_transaction = false;
      s->next_transaction_read_only.reset();  // SET TRANSACTION's lasts until one ends
      if (stmt.chain) BeginTransaction(s);
      if (!stmt.chain) s->read_only_transaction = false;
      return EndNativeTransaction(ctx, stmt.action == TransactionStmt::Action::kCommit, OkResult{});
    case TransactionStmt::Action::kRollbackToSavepoint:
      return RollbackToSavepoint(stmt.savepoint, ctx);
    case TransactionStmt::Action::kSavepoint:
    case TransactionStmt::Action::kReleaseSavepoint:
      return RunSavepointAction(stmt, s);
  }
  return OkResult{};
}

}  // namespace shoal::sql::internal
