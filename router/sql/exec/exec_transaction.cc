// BEGIN, COMMIT and ROLLBACK. The SQL transaction's flags change at once; its native
// transaction (begun by its first table statement, see StatementTransaction) is committed or
// rolled back on every partition it touched before the client gets its OK (I7: an
// acknowledged commit is on the data nodes).
#include "engine/api/client.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
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
    case TransactionStmt::Action::kBegin:
      // BEGIN inside a transaction commits it first (implicit commit), then starts anew.
      s->in_transaction = true;
      s->read_only_transaction = stmt.read_only;
      return EndNativeTransaction(ctx, true, OkResult{});
    case TransactionStmt::Action::kCommit:
    case TransactionStmt::Action::kRollback:
      s->in_transaction = stmt.chain;
      if (!stmt.chain) s->read_only_transaction = false;
      return EndNativeTransaction(ctx, stmt.action == TransactionStmt::Action::kCommit, OkResult{});
  }
  return OkResult{};
}

}  // namespace shoal::sql::internal
