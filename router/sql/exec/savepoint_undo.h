// ROLLBACK TO SAVEPOINT over writes (docs/architecture.md, "Savepoints"). A native
// transaction cannot undo part of its changes (nor can NDB's), so the router keeps the undo:
// while a savepoint is set, each statement records every row it writes as it was before
// (SessionState::undo), and a rollback to the savepoint writes back, in the same transaction,
// the first recorded image of each row written since — deleting the rows that were not there.
// Those rows stay locked by the transaction throughout, so nobody else changed them meanwhile.
// A write that cannot say what it replaced (REPLACE, LOAD DATA, a foreign key's cascade) makes
// the savepoints set before it unrestorable: a rollback to one answers 1235, as before.
#pragma once

#include <string>

#include "engine/api/cluster.h"
#include "router/sql/eval/session.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql::internal {

// Whether the session's writes are to be recorded now: a transaction with a savepoint.
inline bool RecordsUndo(const SessionState* state) {
  return state != nullptr && state->in_transaction && !state->savepoints.empty();
}

// Records that the row of `table` under `key` was `before` (packed; empty: no row) before
// this write. REQUIRES: RecordsUndo(state).
void RecordUndo(SessionState* state, const api::TablePtr& table, std::string key,
                std::string before);

// A write the undo cannot describe: no savepoint set so far may be rolled back to.
void LoseUndo(SessionState* state);

// ROLLBACK TO SAVEPOINT `name`: the rows written since put back as they were, then the later
// savepoints dropped (MySQL keeps `name`). 1305 for an unknown savepoint, 1235 when a write
// since could not be recorded; Deferred while the rows are written back.
StatementResult RollbackToSavepoint(const std::string& name, const ExecContext& ctx);

}  // namespace shoal::sql::internal
