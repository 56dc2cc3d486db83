#include "router/sql/async_statement.h"

#include <utility>

#include "router/sql/table_access.h"

namespace shoal::sql {

AsyncStatement::AsyncStatement(const internal::ExecContext& ctx)
    : state_(ctx.state),
      data_(ctx.state->data),
      params_(ctx.params.begin(), ctx.params.end()),
      now_(ctx.now),
      owner_(ctx.owner) {
  state_->in_flight = this;
}

internal::ExecContext AsyncStatement::context() const {
  return internal::ExecContext{state_, params_, now_, owner_};
}

void AsyncStatement::Deliver(StatementResult result) {
  if (SessionState* s = state_; s != nullptr) {
    s->in_flight = nullptr;
    s->sink->StatementDone(internal::FinishStatement(std::move(result), s));
  } else {
    RollbackInBackground(data_, std::move(abandoned_txn_));
  }
  delete this;
}

void AsyncStatement::DeliverAfterRollback(mysql::SqlError error) {
  if (state_ != nullptr && state_->txn != nullptr) {
    RollbackInBackground(data_, std::move(state_->txn));
    state_->txn = nullptr;
    state_->in_transaction = false;
    state_->read_only_transaction = false;
  }
  Deliver(std::move(error));
}

}  // namespace shoal::sql
