#include "router/sql/async_statement.h"

#include <utility>

#include "engine/api/client.h"
#include "router/sql/table_access.h"

namespace shoal::sql {
namespace {

constexpr uint16_t kErTableDefChanged = 1412;

}  // namespace

AsyncStatement::AsyncStatement(const internal::ExecContext& ctx)
    : state_(ctx.state),
      data_(ctx.state->data),
      params_(ctx.params.begin(), ctx.params.end()),
      now_(ctx.now),
      owner_(ctx.owner),
      statement_(ctx.statement),
      may_retry_(ctx.may_retry) {
  state_->in_flight = this;
}

internal::ExecContext AsyncStatement::context() const {
  internal::ExecContext ctx{state_, params_, now_, owner_};
  ctx.statement = statement_;
  ctx.may_retry = may_retry_;
  return ctx;
}

void AsyncStatement::Deliver(StatementResult result) {
  const auto* error = std::get_if<mysql::SqlError>(&result);
  if (error != nullptr && error->code == kErTableDefChanged) {
    // Completions run inside the client's Poll(), which a dictionary refresh would enter
    // again: refresh (and retry) from the worker's loop.
    if (state_ != nullptr && state_->txn == nullptr && statement_ != nullptr && may_retry_) {
      data_->Defer([this] { RunAgainWithFreshDictionary(); });
      return;
    }
    DataAccess* data = data_;
    data->Defer([data] { (void)data->client().RefreshDictionary(); });
  }
  if (SessionState* s = state_; s != nullptr) {
    s->in_flight = nullptr;
    s->sink->StatementDone(internal::FinishStatement(std::move(result), s));
  } else {
    RollbackInBackground(data_, std::move(abandoned_txn_));
  }
  delete this;
}

void AsyncStatement::RunAgainWithFreshDictionary() {
  (void)data_->client().RefreshDictionary();
  SessionState* s = state_;
  if (s == nullptr) {  // the session went away meanwhile
    RollbackInBackground(data_, std::move(abandoned_txn_));
    delete this;
    return;
  }
  internal::ExecContext ctx = context();
  ctx.may_retry = false;
  s->in_flight = nullptr;
  StatementResult again = internal::RunAgain(*statement_, ctx);
  if (!std::holds_alternative<Deferred>(again)) {
    s->sink->StatementDone(internal::FinishStatement(std::move(again), s));
  }
  delete this;
}

void AsyncStatement::DeliverFailure(mysql::SqlError error, bool in_session_txn,
                                    bool partly_applied) {
  if (in_session_txn && (partly_applied || AbortsTransaction(error.code))) {
    return DeliverAfterRollback(std::move(error));
  }
  Deliver(std::move(error));
}

void AsyncStatement::EndTransaction(api::Transaction* txn, bool commit, api::Completion* done) {
  DataAccess* data_access = data_;
  if (commit) {
    data_access->client().Commit(txn, done);
  } else {
    data_access->client().Rollback(txn, done);
  }
  data_access->Flush();
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
