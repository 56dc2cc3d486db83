// ROLLBACK TO SAVEPOINT over writes (docs/architecture.md, "Savepoints"). A native
// transaction cannot undo part of its changes (nor can NDB's), so the router keeps the undo:
// while a savepoint is set, each statement records every row it writes as it was before
// (SessionState::undo), and a rollback to the savepoint writes back, in the same transaction,
// the first recorded image of each row written since — deleting the rows that were not there.
// Those rows stay locked by the transaction throughout, so nobody else changed them meanwhile.
// A write that cannot say what it replaced (REPLACE into a table without a unique secondary
// index, LOAD DATA, a foreign key's cascade) makes the savepoints set before it unrestorable:
// a rollback to one answers 1235, as before. So does an undo grown past kMaxUndoBytes (a
// router's memory is not the place for a huge transaction's before-images): it is then
// dropped.
#pragma once

#include <string>

#include "engine/api/cluster.h"
#include "router/sql/eval/session.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

inline constexpr size_t kMaxUndoBytes = size_t{64} << 20;

// Whether the session's writes are to be recorded now: a transaction with a savepoint.
inline bool RecordsUndo(const SessionState* state) {
  return state != nullptr && state->in_transaction && !state->savepoints.empty();
}

// A write the undo cannot describe: no savepoint set so far may be rolled back to.
void LoseUndo(SessionState* state);

// The undo one statement gathers as it writes, handed to the session only once the statement
// has succeeded: a statement that fails and leaves the transaction open applied nothing (one
// that applied part of its writes rolls the transaction back whole), so its records must never
// be played back — a key it failed to move to holds another's row.
class StatementUndo {
 public:
  explicit StatementUndo(const SessionState* state) : on_(RecordsUndo(state)) {}

  bool on() const { return on_; }
  // The row of `table` under `key` was `before` (packed; empty: none) before this statement.
  void Record(const api::TablePtr& table, std::string key, std::string before) {
    if (on_) records_.push_back({table, std::move(key), std::move(before)});
  }
  // A write of this statement the undo cannot describe.
  void Lose() { lost_ = true; }
  // The statement succeeded: its records join the session's (null: the session is gone).
  void Keep(SessionState* state);

 private:
  bool on_;
  bool lost_ = false;
  std::vector<SessionState::UndoRecord> records_;
};

// ROLLBACK TO SAVEPOINT `name`: the rows written since put back as they were, then the later
// savepoints dropped (MySQL keeps `name`). 1305 for an unknown savepoint, 1235 when a write
// since could not be recorded; Deferred while the rows are written back.
StatementResult RollbackToSavepoint(const std::string& name, const ExecContext& ctx);

}  // namespace shoal::sql::internal
