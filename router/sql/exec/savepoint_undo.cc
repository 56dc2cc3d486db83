// See savepoint_undo.h.
#include "router/sql/exec/savepoint_undo.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/collation.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/replace_plan.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

// Writes back the first recorded image of each row, all in one batch of the session's
// transaction; the savepoint's bookkeeping changes only once every row is back.
class UndoRun : public AsyncStatement, public api::Completion {
 public:
  UndoRun(const ExecContext& ctx, size_t savepoint) : AsyncStatement(ctx), savepoint_(savepoint) {}

  void Start() {
    SessionState* s = state();
    const size_t from = s->savepoints[savepoint_].undo;
    absl::flat_hash_set<std::pair<uint32_t, std::string>> restored;  // by collation form
    std::string form;
    api::Client& client = data()->client();
    api::Transaction* txn = s->txn.get();
    outstanding_ = 1;  // the loops below; completions may run inside them
    std::vector<const SessionState::UndoRecord*> firsts;
    for (size_t i = from; i < s->undo.size(); ++i) {
      const SessionState::UndoRecord& r = s->undo[i];
      if (!restored.emplace(r.table->id, schema::KeyForm(*r.table, 0, r.key, &form)).second) {
        continue;  // a later image
      }
      firsts.push_back(&r);
    }
    // Rows written back in any order may meet, on a unique secondary key, a row not yet back
    // (two rows that swapped keys): in such a table every row goes first, then the images
    // come back, in the same batch and in that order, into keys nobody holds.
    for (const SessionState::UndoRecord* r : firsts) {
      if (!r->before.empty() && !HasUniqueSecondaryIndex(*r->table)) continue;
      ++outstanding_;
      client.Delete(*r->table, r->key, this, txn);
    }
    for (const SessionState::UndoRecord* r : firsts) {
      if (r->before.empty()) continue;
      ++outstanding_;
      client.Write(*r->table, r->before, this, txn);
    }
    data()->Flush();
    Done(api::Outcome{});
  }

  void Done(const api::Outcome& outcome) override {
    if (!outcome.ok() && !outcome.not_found() && !error_) {
      error_ = EngineError(outcome.code, outcome.message);
    }
    if (--outstanding_ > 0) return;
    // Part of the undo may be written back: the transaction is not what either side of the
    // rollback left, so it goes whole.
    if (error_) return DeliverAfterRollback(*error_);
    if (SessionState* s = state()) {
      SessionState::Savepoint& kept = s->savepoints[savepoint_];
      for (size_t i = kept.undo; i < s->undo.size(); ++i) {
        s->undo_bytes -= s->undo[i].key.size() + s->undo[i].before.size();
      }
      s->undo.resize(kept.undo);
      s->transaction_writes = kept.writes;
      s->savepoints.resize(savepoint_ + 1);  // it stays, later ones go
    }
    Deliver(OkResult{});
  }

 private:
  size_t savepoint_;
  int outstanding_ = 0;
  std::optional<mysql::SqlError> error_;
};

}  // namespace

void StatementUndo::Keep(SessionState* state) {
  if (!on_ || state == nullptr || !RecordsUndo(state)) return;
  if (lost_) return LoseUndo(state);
  for (SessionState::UndoRecord& r : records_) {
    state->undo_bytes += r.key.size() + r.before.size();
    state->undo.push_back(std::move(r));
  }
  records_.clear();
  if (state->undo_bytes > kMaxUndoBytes) {
    // Every savepoint so far is unrestorable, so none will read the log: it goes, and the
    // savepoints set from now on start it anew.
    LoseUndo(state);
    state->undo.clear();
    state->undo_bytes = 0;
  }
}

void LoseUndo(SessionState* state) {
  for (SessionState::Savepoint& savepoint : state->savepoints) savepoint.restorable = false;
}

StatementResult RollbackToSavepoint(const std::string& name, const ExecContext& ctx) {
  SessionState* s = ctx.state;
  auto found = s->in_transaction ? std::find_if(s->savepoints.begin(), s->savepoints.end(),
                                                [&](const SessionState::Savepoint& p) {
                                                  return absl::EqualsIgnoreCase(p.name, name);
                                                })
                                 : s->savepoints.end();
  if (found == s->savepoints.end()) {
    return mysql::SqlError{1305, "42000", absl::StrCat("SAVEPOINT ", name, " does not exist")};
  }
  if (found->writes == s->transaction_writes) {
    s->transaction_writes = found->writes;
    s->savepoints.erase(found + 1, s->savepoints.end());
    return OkResult{};
  }
  if (!found->restorable) {
    return mysql::errors::NotSupportedYet(
        "ROLLBACK TO SAVEPOINT after a write it cannot undo (REPLACE, LOAD DATA, a cascade)");
  }
  if (s->txn == nullptr || s->data == nullptr) return OkResult{};  // nothing was written
  auto* run = new UndoRun(ctx, static_cast<size_t>(found - s->savepoints.begin()));
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
