#include "router/sql/exec/async_statement.h"

#include <utility>

#include "engine/api/client.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql {
namespace {

constexpr uint16_t kErTableDefChanged = 1412;

wire::DictReq RefreshRequest() {
  wire::DictReq request;
  request.mutable_get_dictionary();
  return request;
}

// A statement waiting for the dictionary master's answer before it runs again.
class DictionaryWait : public AsyncStatement {
 public:
  DictionaryWait(const internal::ExecContext& ctx, size_t keep_warnings)
      : AsyncStatement(ctx), may_retry_(ctx.may_retry), keep_warnings_(keep_warnings) {}

  void Start(std::shared_ptr<DictionaryFetch> fetch) {
    DictionaryFetch* raw = fetch.get();
    FetchDictionary(data(), std::move(fetch), [this, raw](std::optional<mysql::SqlError> error) {
      // Orphaned: Deliver only rolls back what the session left open.
      if (error.has_value() || state() == nullptr) {
        return Deliver(error.has_value() ? *std::move(error) : mysql::SqlError{});
      }
      NoteFetched(*raw, state());
      RunAgain(may_retry_, keep_warnings_);
    });
  }

 private:
  bool may_retry_;
  size_t keep_warnings_;
};

}  // namespace

StatementResult WaitForDictionary(const internal::ExecContext& ctx, size_t keep_warnings) {
  std::shared_ptr<DictionaryFetch> fetch = std::move(ctx.state->wanted);
  ctx.state->wanted = nullptr;
  auto* wait = new DictionaryWait(ctx, keep_warnings);
  wait->Start(std::move(fetch));
  return Deferred{};
}

AsyncStatement::AsyncStatement(const internal::ExecContext& ctx)
    : state_(ctx.state),
      data_(ctx.state->data),
      params_(ctx.params.begin(), ctx.params.end()),
      now_(ctx.now),
      owner_(ctx.owner),
      statement_(ctx.statement),
      may_retry_(ctx.may_retry),
      subqueries_(ctx.subqueries),
      derived_tables_(ctx.derived_tables),
      parent_(ctx.parent) {
  state_->in_flight = this;
}

ParentStatement::ParentStatement(const internal::ExecContext& ctx)
    : AsyncStatement(ctx), keep_warnings_(ctx.state->warnings.size()) {}

void ParentStatement::StatementDone(StatementResult result) {
  if (state() == nullptr) return Deliver(OkResult{});  // orphaned: nobody reads it
  if (WaitedForDictionary()) return;
  ChildDone(std::move(result));
}

void ParentStatement::RunChild(const SelectStmt& select, internal::ExecContext ctx,
                               bool without_union) {
  ctx.parent = this;
  StatementResult result = without_union ? internal::ExecuteSingleSelect(select, ctx)
                                         : internal::ExecuteSelect(select, ctx);
  if (!std::holds_alternative<Deferred>(result)) StatementDone(std::move(result));
}

bool ParentStatement::WaitedForDictionary() {
  internal::ExecContext ctx = context();
  if (ctx.parent != nullptr || ctx.state == nullptr || ctx.state->wanted == nullptr) return false;
  (void)WaitForDictionary(ctx, keep_warnings_);
  delete this;
  return true;
}

void AsyncStatement::Orphan(std::shared_ptr<api::Transaction> txn) {
  state_ = nullptr;
  abandoned_txn_ = std::move(txn);
  if (parent_ != nullptr) parent_->Orphan(nullptr);
}

internal::ExecContext AsyncStatement::context() const {
  internal::ExecContext ctx{state_, params_, now_, owner_};
  ctx.statement = statement_;
  ctx.may_retry = may_retry_;
  ctx.subqueries = subqueries_;
  ctx.derived_tables = derived_tables_;
  ctx.parent = parent_;
  return ctx;
}

void AsyncStatement::Deliver(StatementResult result) {
  if (ParentStatement* parent = parent_; parent != nullptr) {
    // A stale definition (1412) goes up as it is: the parent runs the whole statement again.
    if (state_ != nullptr) {
      state_->in_flight = parent;
    } else {
      RollbackInBackground(data_, std::move(abandoned_txn_));
    }
    delete this;
    parent->StatementDone(std::move(result));
    return;
  }
  const auto* error = std::get_if<mysql::SqlError>(&result);
  if (error != nullptr && error->code == kErTableDefChanged) {
    if (state_ != nullptr && state_->txn == nullptr && statement_ != nullptr && may_retry_) {
      // Nothing of an autocommit statement was applied: run it once more on a refreshed
      // dictionary, in place of this one.
      internal::ExecContext ctx = context();
      ctx.may_retry = false;
      state_->in_flight = nullptr;
      DictionaryFetch refresh;
      refresh.request = RefreshRequest();
      (void)WantDictionary(*state_, std::move(refresh));
      (void)WaitForDictionary(ctx, state_->warnings.size());
      delete this;
      return;
    }
    data_->client().RefreshDictionary([](absl::StatusOr<wire::DictConf>) {});
    data_->Flush();
  }
  if (SessionState* s = state_; s != nullptr) {
    s->in_flight = nullptr;
    s->sink->StatementDone(internal::FinishStatement(std::move(result), s));
  } else {
    RollbackInBackground(data_, std::move(abandoned_txn_));
  }
  delete this;
}

void AsyncStatement::RunAgain(bool may_retry, size_t keep_warnings) {
  SessionState* s = state_;
  internal::ExecContext ctx = context();
  ctx.may_retry = may_retry;
  ctx.derived_tables = nullptr;  // the statement computes them again
  s->in_flight = nullptr;
  if (s->warnings.size() > keep_warnings) s->warnings.resize(keep_warnings);
  StatementResult again = internal::RunStatementOrWait(*statement_, ctx, keep_warnings);
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

// Owns the session's former transaction until its commit answers, then frees itself.
class AsyncStatement::ImplicitCommit : public api::Completion {
 public:
  ImplicitCommit(AsyncStatement* statement, std::shared_ptr<api::Transaction> txn,
                 absl::AnyInvocable<void()> go_on)
      : statement_(statement), txn_(std::move(txn)), go_on_(std::move(go_on)) {}

  api::Transaction* txn() const { return txn_.get(); }

  void Done(const api::Outcome& outcome) override {
    std::unique_ptr<ImplicitCommit> self(this);
    AsyncStatement* statement = statement_;
    if (statement->state() == nullptr) return statement->Deliver(OkResult{});  // orphaned
    if (!outcome.ok()) {
      return statement->Deliver(EngineError(outcome.code, outcome.message));
    }
    go_on_();
  }

 private:
  AsyncStatement* statement_;
  std::shared_ptr<api::Transaction> txn_;
  absl::AnyInvocable<void()> go_on_;
};

void AsyncStatement::CommitBeforeDdl(absl::AnyInvocable<void()> go_on) {
  SessionState* s = state_;
  s->in_transaction = false;
  s->read_only_transaction = false;
  if (s->txn == nullptr) return go_on();
  auto* commit = new ImplicitCommit(this, std::move(s->txn), std::move(go_on));
  s->txn = nullptr;
  EndTransaction(commit->txn(), /*commit=*/true, commit);
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
