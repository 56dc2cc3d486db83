#include "router/sql/exec/keyed_write_run.h"

#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {

KeyedWriteRun::KeyedWriteRun(const ExecContext& ctx, api::TablePtr table, bool foreign_keys)
    : AsyncStatement(ctx),
      table_(std::move(table)),
      foreign_keys_(foreign_keys),
      undo_(ctx.state),
      session_txn_(StatementTransaction(ctx.state)) {}

void KeyedWriteRun::BeginOwnTransaction() {
  if (session_txn_ == nullptr) own_txn_ = data()->client().Begin();
}

void KeyedWriteRun::Done(const api::Outcome& outcome) {
  if (!outcome.ok()) NoteError(EngineError(outcome.code, outcome.message));
  if (phase_ == Phase::kEnd) return Finish();
  OpDone();
}

void KeyedWriteRun::OpDone() {
  if (--outstanding_ > 0) return;
  if (phase_ == Phase::kRead) return Write();
  if (!changes_.empty() && !error_) {  // the foreign keys, before the commit
    NoteCascades(state(), *table_);
    ++outstanding_;
    return CheckForeignKeys(data(), data()->client().dictionary(), txn(), table_,
                            std::move(changes_), [this](std::optional<mysql::SqlError> error) {
                              changes_.clear();
                              if (error) NoteError(std::move(*error));
                              OpDone();
                            });
  }
  End();
}

void KeyedWriteRun::End() {
  if (session_txn_ != nullptr) return Finish();
  phase_ = Phase::kEnd;
  EndTransaction(&own_txn_, !error_, this);
}

}  // namespace shoal::sql::internal
