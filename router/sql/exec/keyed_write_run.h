// The shape of a write that must first read what its rows collide with: read (locked, in the
// session's transaction or the statement's own), write, check the written rows' foreign keys,
// then end the statement's own transaction. INSERT … ON DUPLICATE KEY UPDATE (exec_insert.cc)
// and REPLACE into a table with a unique secondary key (exec_replace.cc) are such writes;
// each says what it reads and writes, this runs the phases. Runs on the session's worker
// thread; owns itself (AsyncStatement).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine/api/client.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/savepoint_undo.h"

namespace shoal::sql::internal {

class KeyedWriteRun : public AsyncStatement, public api::Completion {
 public:
  // `foreign_keys`: the written rows' foreign keys are checked before the commit.
  KeyedWriteRun(const ExecContext& ctx, api::TablePtr table, bool foreign_keys);

  // A write sent with this as its completion, or the end of the own transaction.
  void Done(const api::Outcome& outcome) override;

 protected:
  enum class Phase { kRead, kWrite, kEnd };

  // Before the first read: a transaction of the statement's own when the session has none.
  void BeginOwnTransaction();
  api::Transaction* txn() { return session_txn_ != nullptr ? session_txn_.get() : &own_txn_; }
  bool in_session_txn() const { return session_txn_ != nullptr; }

  // One read or write answered (count it in `outstanding_` when sending): after the last read,
  // Write(); after the last write, the foreign keys of `changes_`, then the end.
  void OpDone();
  // Sends the writes (or ends, on an error), then calls OpDone once: phase kWrite.
  virtual void Write() = 0;
  // The statement is over (its own transaction ended): delivers its result.
  virtual void Finish() = 0;
  // Commits (or, after an error, rolls back) the own transaction, then Finish.
  void End();

  // The first error wins.
  void NoteError(mysql::SqlError error) {
    if (!error_) error_ = std::move(error);
  }

  api::TablePtr table_;
  const bool foreign_keys_;
  std::vector<RowChange> changes_;  // the writes, for the foreign key checks
  StatementUndo undo_;              // for savepoints (savepoint_undo.h)
  Phase phase_ = Phase::kRead;
  int outstanding_ = 0;
  std::optional<mysql::SqlError> error_;

 private:
  std::shared_ptr<api::Transaction> session_txn_;
  api::Transaction own_txn_;
};

}  // namespace shoal::sql::internal
