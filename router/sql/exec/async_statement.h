// AsyncStatement: a table statement waiting for the data nodes. It is the Completion (or
// ScanReceiver) of the native operations it defined, or of the dictionary request it stopped
// for, and it owns itself: once the last of them has completed it delivers the statement's
// result to the session and deletes itself. Completions run inside the worker's Client::Poll,
// and so does what the result starts (the session's next statement): nothing in there waits.
//
// Lives on the session's worker thread. The session may go away first (the client hung up):
// it then calls Orphan(), and the statement frees itself without delivering when its
// operations are done — they cannot be recalled, and their completions point here.
#pragma once

#include <memory>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "engine/api/client.h"
#include "protocol/value.h"
#include "router/sql/eval/session.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/executor.h"

namespace shoal::sql {

class AsyncStatement {
 public:
  // Copies what the statement needs later from `ctx` (the parameters; the statement text's
  // owner); the rest of `ctx` need not outlive this call.
  explicit AsyncStatement(const internal::ExecContext& ctx);
  virtual ~AsyncStatement() = default;
  AsyncStatement(const AsyncStatement&) = delete;
  AsyncStatement& operator=(const AsyncStatement&) = delete;

  // The session is gone; `txn` (its open transaction, may be null) is rolled back once this
  // statement's operations are done. A parent waiting for this is orphaned too.
  void Orphan(std::shared_ptr<api::Transaction> txn);

 protected:
  // The statement is over: hands `result` to the session (with the bookkeeping every
  // statement gets) unless orphaned, then deletes this. REQUIRES: no operation of this
  // statement is still in flight.
  // A 1412 (the table changed under a cached definition) refreshes the dictionary and, for
  // an autocommit statement, runs it once more instead: nothing of it was applied.
  void Deliver(StatementResult result);

  // Like Deliver, after rolling back the session's whole transaction: for an error that left
  // it unusable (a statement that failed after some of its writes were applied, a lock wait
  // timeout, a lost data node). The session is then outside any transaction, as after NDB
  // aborts one.
  void DeliverAfterRollback(mysql::SqlError error);

  // An error from a statement that ran in the session's transaction (`in_session_txn`): the
  // whole transaction is rolled back when part of the statement was applied or the error
  // aborts transactions (AbortsTransaction); otherwise only the statement failed.
  void DeliverFailure(mysql::SqlError error, bool in_session_txn, bool partly_applied);

  // Commits `txn`, or rolls it back; `done` gets the answer, possibly before this returns —
  // so `this` may be gone afterwards.
  void EndTransaction(api::Transaction* txn, bool commit, api::Completion* done);

  // MySQL's implicit commit before a DDL statement: the session leaves its transaction, whose
  // native part (if any) commits, and then `go_on` runs — unless the commit failed (its error
  // is delivered) or the session went away meanwhile (this, orphaned, delivers to nobody).
  // `go_on` may run before this returns, so `this` may be gone afterwards. REQUIRES: not
  // orphaned.
  void CommitBeforeDdl(absl::AnyInvocable<void()> go_on);

  // Runs the statement again from the start in place of this one (after a stale table
  // definition or a dictionary fetch), delivers its result unless it is deferred again, and
  // deletes this. `keep_warnings`: how many diagnostics predate what the statement adds anew.
  // REQUIRES: not orphaned.
  void RunAgain(bool may_retry, size_t keep_warnings);

  // Null once orphaned.
  SessionState* state() const { return state_; }
  // The statement's context as at its start. REQUIRES: not orphaned.
  internal::ExecContext context() const;
  // The worker's data nodes: outlive every session.
  DataAccess* data() const { return data_; }

 private:
  SessionState* state_;
  DataAccess* data_;
  std::vector<mysql::Value> params_;
  absl::Time now_;
  std::shared_ptr<const PreparedStatement> owner_;
  const Statement* statement_;
  bool may_retry_;
  std::shared_ptr<const SubqueryResults> subqueries_;
  std::shared_ptr<const internal::DerivedTables> derived_tables_;
  std::shared_ptr<api::Transaction> abandoned_txn_;
  ParentStatement* parent_;

  class ImplicitCommit;  // CommitBeforeDdl's wait for the commit
};

// A statement that runs others for itself first (the subqueries over tables a statement
// needs: subqueries.h). Each child gets this as its ExecContext::parent; a deferred child's
// result then comes to StatementDone as it is (not to the session, not through
// FinishStatement), orphaned children included — the parent, orphaned with them, frees
// itself there. While a child runs it is the session's in_flight; the parent again after.
class ParentStatement : public AsyncStatement, public ResultSink {
 public:
  explicit ParentStatement(const internal::ExecContext& ctx);

  // A child's result. Orphaned, this frees itself; a stop for the dictionary master makes the
  // statement run again (WaitedForDictionary); anything else goes to ChildDone.
  void StatementDone(StatementResult result) final;

 protected:
  // Runs `select` as a child of this, with `ctx` (this one's context, with what the child
  // reads added) — with `without_union`, its UNION (if any) left aside; its result comes to
  // ChildDone, now or once the child is done.
  void RunChild(const SelectStmt& select, internal::ExecContext ctx, bool without_union = false);
  // A child's result: rows, or its error.
  virtual void ChildDone(StatementResult result) = 0;

  // A child (or what this ran after its children) stopped for the dictionary master
  // (SessionState::wanted). At the top, the whole statement runs again once it answered
  // (table_access.h), in place of this, which is deleted: true. Under a parent, false: the
  // stop goes up with the error it came with.
  bool WaitedForDictionary();

 private:
  size_t keep_warnings_;  // the diagnostics from before the statement began
};

// Sends the dictionary request a statement stopped for (SessionState::wanted, taken here) and
// returns Deferred: once answered, the statement runs again (AsyncStatement::RunAgain), so
// the session gets its result as from any deferred statement. `keep_warnings`: see RunAgain.
StatementResult WaitForDictionary(const internal::ExecContext& ctx, size_t keep_warnings);

}  // namespace shoal::sql
