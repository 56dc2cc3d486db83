// UPDATE and DELETE. Two ways to run one:
//   direct  — the WHERE clause is nothing but primary-key equalities (sysbench's
//             `UPDATE t SET k=k+1 WHERE id=?`, `DELETE FROM t WHERE id=?`): one key operation
//             per key, the new values as an interpreted update program (SET, ADD), no read
//             first — one round trip (several keys outside a SQL transaction: in one of the
//             statement's own, and its commit);
//   general — anything else: the rows are read with exclusive locks inside a native
//             transaction (key reads or a locking scan), the router checks WHERE, computes the
//             new rows, writes or deletes them by primary key, and commits.
#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/collation.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/column_defaults.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/row_pipeline.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;

// The interpreted update program for `set` (SetFitsProgram), with its values; nullopt when
// the general path must run it (or *error when a value is refused).
std::optional<std::string> DirectProgram(const schema::TableDef& table,
                                         const std::vector<Assignment>& set, const ExecContext& ctx,
                                         std::optional<mysql::SqlError>* error) {
  if (!SetFitsProgram(table, set)) return std::nullopt;
  const int utc_offset = SessionUtcOffset(*ctx.state);
  schema::UpdateBuilder program;
  std::vector<bool> assigned(table.columns.size());
  for (const Assignment& a : set) {
    int c = table.FindColumn(a.column);
    assigned[c] = true;
    const schema::ColumnDef& column = table.columns[c];
    const Expr& e = *a.value;
    if (e.kind == ExprKind::kBinary &&
        (e.binary_op == BinaryOp::kAdd || e.binary_op == BinaryOp::kSub) &&
        e.args[0]->kind == ExprKind::kColumn && table.FindColumn(e.args[0]->name) == c &&
        !HasColumn(*e.args[1]) && schema::IsInteger(column.type)) {
      EvalContext eval = ctx.Eval();
      auto v = Evaluate(*e.args[1], &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *error = *err, std::nullopt;
      const Value& delta = std::get<Value>(v);
      const auto* i = std::get_if<int64_t>(&delta);
      if (i == nullptr || (*i == INT64_MIN && e.binary_op == BinaryOp::kSub)) return std::nullopt;
      program.AddInt(c, e.binary_op == BinaryOp::kAdd ? *i : -*i);
      continue;
    }
    EvalContext eval = ctx.Eval();
    auto v = Evaluate(e, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *error = *err, std::nullopt;
    const Value& value = std::get<Value>(v);
    if (mysql::IsNull(value)) {
      if (!column.nullable) {
        *error = mysql::SqlError{1048, "23000",
                                 absl::StrCat("Column '", column.name, "' cannot be null")};
        return std::nullopt;
      }
      program.SetNull(c);
      continue;
    }
    auto field = EncodeField(column, value, 1, utc_offset);
    if (auto* err = std::get_if<mysql::SqlError>(&field)) return *error = *err, std::nullopt;
    program.SetField(column, c, std::get<std::string>(field));
  }
  // ON UPDATE CURRENT_TIMESTAMP: only the data node, which alone sees the row, knows whether
  // the assignments change it.
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const schema::ColumnDef& column = table.columns[c];
    if (!column.on_update_now || assigned[c]) continue;
    auto field = EncodeField(column, CurrentTimeOf(column, ctx), 1, utc_offset);
    if (auto* err = std::get_if<mysql::SqlError>(&field)) return *error = *err, std::nullopt;
    program.SetFieldIfChanged(static_cast<int>(c), std::get<std::string>(field));
  }
  return program.Finish();
}

enum class Verb { kUpdate, kDelete };

struct ModifySpec {
  Verb verb;
  const Expr* where;
  const std::vector<Assignment>* set;  // UPDATE only
  const std::vector<OrderItem>* order_by;
  const std::optional<Limit>* limit;
  bool ignore;
  absl::string_view alias;  // what qualifies the table's columns when not its name
};

// Whether IGNORE may skip a row of the statement: one refused by a unique key (an UPDATE that
// assigns a key column, or a key column ON UPDATE CURRENT_TIMESTAMP sets) or by a foreign key
// (`foreign_keys`). Otherwise it changes nothing, and the rows are written as without it.
bool IgnoreCanSkip(const schema::TableDef& table, const ModifySpec& spec, bool foreign_keys) {
  if (!spec.ignore) return false;
  if (foreign_keys) return true;
  if (spec.verb == Verb::kDelete) return false;
  for (const schema::IndexDef& index : table.indexes) {
    if (!index.unique) continue;
    for (int c : index.columns) {
      const schema::ColumnDef& column = table.columns[c];
      if (column.on_update_now) return true;
      for (const Assignment& a : *spec.set) {
        if (absl::EqualsIgnoreCase(a.column, column.name)) return true;
      }
    }
  }
  return false;
}

// Runs either path; one object per statement.
class ModifyRun : public AsyncStatement, public api::Completion, public api::ScanReceiver {
 public:
  ModifyRun(const ExecContext& ctx, ModifySpec spec, api::TablePtr table)
      : AsyncStatement(ctx),
        spec_(spec),
        table_(std::move(table)),
        session_txn_(StatementTransaction(ctx.state)),
        foreign_keys_(ForeignKeysApply(*table_, *ctx.state)),
        row_by_row_(IgnoreCanSkip(*table_, spec_, foreign_keys_)),
        undo_(ctx.state),
        utc_offset_(SessionUtcOffset(*ctx.state)) {
    for (size_t i = 0; i < table_->columns.size(); ++i)
      all_columns_.push_back(static_cast<uint16_t>(i));
    for (const schema::ColumnDef& c : table_->columns) {
      row_columns_.push_back(ResultColumn(*table_, static_cast<int>(&c - table_->columns.data()),
                                          ResultCollationId(*ctx.state),
                                          ResultCharsetMaxLen(*ctx.state)));
      if (!spec.alias.empty()) row_columns_.back().table = std::string(spec.alias);
    }
  }

  void StartDirect(const AccessPlan& plan, const std::string& program) {
    phase_ = Phase::kDirect;
    direct_ = true;
    DataAccess* data_access = data();
    // Several keys outside a SQL transaction are one statement all the same: a transaction of
    // its own, so that one refused (1062) leaves none of the others written.
    if (session_txn_ == nullptr && plan.keys.size() > 1) {
      own_txn_ = data_access->client().Begin();
      direct_own_txn_ = true;
    }
    api::Transaction* txn = session_txn_ != nullptr || direct_own_txn_ ? this->txn() : nullptr;
    outstanding_ = 1;  // the definitions below; completions may run inside them
    for (const std::string& key : plan.keys) {
      ++outstanding_;
      if (spec_.verb == Verb::kUpdate) {
        data_access->client().Update(*table_, key, program, this, txn);
      } else {
        data_access->client().Delete(*table_, key, this, txn);
      }
    }
    data_access->Flush();
    StepDone();
  }

  void StartGeneral(const AccessPlan& plan) {
    phase_ = Phase::kFetch;
    DataAccess* data_access = data();
    api::Client& client = data_access->client();
    if (session_txn_ == nullptr) own_txn_ = client.Begin();
    api::Transaction* txn = this->txn();
    outstanding_ = 1;
    if (plan.kind == AccessPlan::Kind::kKeyLookup ||
        plan.kind == AccessPlan::Kind::kBatchedLookup) {
      for (const std::string& key : plan.keys) {
        ++outstanding_;
        client.Read(*table_, key, all_columns_, this, txn, api::Lock::kExclusive);
      }
    } else {
      api::ScanRequest request;
      request.table = table_.get();
      request.columns = all_columns_;
      request.lock = api::Lock::kExclusive;
      request.txn = txn;
      request.filter = PushedFilter(*table_, spec_.where, context());
      DefineScans(plan, request, &client, this, &outstanding_);
    }
    data_access->Flush();
    StepDone();
  }

  void Done(const api::Outcome& outcome) override {
    switch (phase_) {
      case Phase::kDirect:
      case Phase::kWrite:
        if (outcome.ok()) {
          if (phase_ == Phase::kDirect) ++matched_direct_;
          // An update program that left the row as it was: matched, not changed.
          if (!outcome.unchanged) ++affected_;
        } else if (!outcome.not_found()) {
          NoteError(outcome.code, outcome.message);
        }
        return StepDone();
      case Phase::kFetch:
        if (outcome.ok()) {
          rows_.emplace_back(outcome.row);
        } else if (!outcome.not_found()) {
          NoteError(outcome.code, outcome.message);
        }
        return StepDone();
      case Phase::kRow:
      case Phase::kRevert:
        if (!outcome.ok() && !outcome.not_found() && !row_error_) {
          row_error_ = EngineError(outcome.code, outcome.message);
        }
        return StepDone();
      case Phase::kEnd:
        if (!outcome.ok()) NoteError(outcome.code, outcome.message);
        return Finish();
    }
  }

  void Row(absl::string_view row) override { rows_.emplace_back(row); }
  bool Interrupted() const override {
    return state() != nullptr && state()->process != nullptr && state()->process->interrupted();
  }
  void Done(uint16_t code, absl::string_view message) override {
    if (code != 0) NoteError(code, message);
    StepDone();
  }

 private:
  // kRow and kRevert: IGNORE's writes of one row, and their undoing (NextRow).
  enum class Phase { kDirect, kFetch, kWrite, kRow, kRevert, kEnd };

  // What one row's UPDATE or DELETE writes.
  struct RowWrite {
    std::string key;      // the row's key as read
    std::string before;   // the row as read, packed
    std::string after;    // as written; empty for DELETE
    std::string new_key;  // after's key
    bool moves = false;   // the key changes: the row is deleted, then inserted
  };

  api::Transaction* txn() { return session_txn_ != nullptr ? session_txn_.get() : &own_txn_; }

  void NoteError(uint16_t code, absl::string_view message) {
    if (!error_) error_ = EngineError(code, message);
  }

  // One operation (or the defining loop) of the current phase is done.
  void StepDone() {
    if (--outstanding_ > 0) return;
    switch (phase_) {
      case Phase::kDirect:
        return direct_own_txn_ ? End() : Finish();
      case Phase::kFetch:
        return Apply();
      case Phase::kWrite:
        if (!changes_.empty() && !error_) return CheckChanges();
        return End();
      case Phase::kRow:
        return RowWritten();
      case Phase::kRevert:
        if (row_error_ && !error_) error_ = row_error_;
        return NextRow();
      case Phase::kEnd:
        return;
    }
  }

  // The foreign keys of the rows written (foreign_keys.h), before the commit.
  void CheckChanges() {
    NoteCascades(state(), *table_);
    outstanding_ = 1;
    CheckForeignKeys(data(), data()->client().dictionary(), txn(), table_, std::move(changes_),
                     [this](std::optional<mysql::SqlError> error) {
                       changes_.clear();
                       if (error && !error_) error_ = std::move(error);
                       StepDone();
                     });
  }

  // The fetched rows that pass WHERE, in ORDER BY order, cut to LIMIT; then their writes.
  void Apply() {
    phase_ = Phase::kWrite;
    if (error_ || state() == nullptr) return End();
    outstanding_ = 1;  // the writes defined below; released at the end
    ExecContext ctx = context();
    std::vector<std::pair<std::vector<Value>, size_t>> matched;  // sort keys, row index
    std::vector<std::vector<Value>> values(rows_.size());
    std::vector<schema::Field> fields(all_columns_.size());
    for (size_t r = 0; r < rows_.size(); ++r) {
      size_t used = 0;
      if (!schema::SplitRow(*table_, all_columns_, rows_[r], fields.data(), &used)) {
        error_ = mysql::errors::Internal("a data node sent a malformed row");
        return End();
      }
      for (size_t c = 0; c < fields.size(); ++c) {
        values[r].push_back(
            fields[c].null ? Value{} : DecodeField(table_->columns[c], fields[c], utc_offset_));
      }
      EvalContext eval = ctx.Eval();
      eval.row_columns = &row_columns_;
      eval.row = &values[r];
      if (spec_.where != nullptr) {
        eval.clause = "where clause";
        auto v = Evaluate(*spec_.where, &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return Fail(*err);
        if (Truth(std::get<Value>(v)) != 1) continue;
      }
      std::vector<Value> keys;
      eval.clause = "order clause";
      for (const OrderItem& o : *spec_.order_by) {
        auto v = Evaluate(*o.expr, &eval);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return Fail(*err);
        keys.push_back(std::get<Value>(std::move(v)));
      }
      matched.emplace_back(std::move(keys), r);
    }
    std::stable_sort(matched.begin(), matched.end(), [&](const auto& a, const auto& b) {
      for (size_t i = 0; i < spec_.order_by->size(); ++i) {
        int c = CompareValues(a.first[i], b.first[i]);
        if (c != 0) return (*spec_.order_by)[i].descending ? c > 0 : c < 0;
      }
      return false;
    });
    if (spec_.limit->has_value()) {
      uint64_t offset = 0, count = 0;
      if (auto err = EvalLimit(**spec_.limit, ctx, &offset, &count)) return Fail(*err);
      if (matched.size() > count) matched.resize(count);
    }
    matched_ = matched.size();
    if (row_by_row_) {
      // Without ORDER BY, MySQL meets the rows in primary key order (InnoDB's scan): which of
      // two rows colliding with each other is skipped depends on it.
      if (spec_.order_by->empty()) {
        const std::vector<int>& pk = table_->primary_key().columns;
        std::stable_sort(matched.begin(), matched.end(), [&](const auto& a, const auto& b) {
          for (int c : pk) {
            int cmp = CompareValues(values[a.second][c], values[b.second][c]);
            if (cmp != 0) return cmp < 0;
          }
          return false;
        });
      }
      for (const auto& [keys, r] : matched) order_.push_back(r);
      values_ = std::move(values);
      outstanding_ = 0;
      return NextRow();
    }
    for (const auto& [keys, r] : matched) {
      RowWrite w;
      auto planned = PlanRow(rows_[r], values[r], ctx, &w);
      if (auto* err = std::get_if<mysql::SqlError>(&planned)) return Fail(*err);
      if (!std::get<bool>(planned)) continue;
      if (foreign_keys_) changes_.push_back({w.before, w.after});
      RecordUndo(w);
      SendRow(w);
      if (w.moves) --affected_;  // two operations, one row
    }
    DataAccess* data_access = data();
    data_access->Flush();
    StepDone();
  }

  // UPDATE IGNORE and DELETE IGNORE, as MySQL runs them: one row at a time, in order, each
  // written and its foreign keys checked before the next, so that a row colliding with one
  // written before it is the one skipped. A row refused with 1062 (its new key is another
  // row's) or 1451/1452 (a foreign key) is put back as it was and skipped with that warning;
  // any other error ends the statement.
  void NextRow() {
    phase_ = Phase::kRow;
    // A KILL QUERY, or a session gone, stops the rows here; its own transaction rolls back.
    if (!error_ && (state() == nullptr || Interrupted())) {
      error_ = mysql::errors::QueryInterrupted();
    }
    if (error_) return End();
    ExecContext ctx = context();
    while (next_row_ < order_.size()) {
      const size_t r = order_[next_row_++];
      row_ = RowWrite{};
      auto planned = PlanRow(rows_[r], values_[r], ctx, &row_);
      if (auto* err = std::get_if<mysql::SqlError>(&planned)) {
        error_ = *err;
        return End();
      }
      if (!std::get<bool>(planned)) continue;
      row_error_.reset();
      outstanding_ = 1;
      SendRow(row_);
      data()->Flush();
      return StepDone();
    }
    End();
  }

  // The current row's writes answered.
  void RowWritten() {
    if (state() == nullptr) return NextRow();  // orphaned: stops there
    if (row_error_) {
      if (row_error_->code != 1062 || spec_.verb != Verb::kUpdate) {
        error_ = row_error_;
        return End();
      }
      // A moved row's delete went through before its insert failed: the row is put back.
      return SkipRow(*row_error_, row_.moves, false);
    }
    if (!foreign_keys_) return KeepRow();
    if (!cascades_noted_) NoteCascades(state(), *table_);
    cascades_noted_ = true;
    CheckForeignKeys(data(), data()->client().dictionary(), txn(), table_,
                     {RowChange{row_.before, row_.after}},
                     [this](std::optional<mysql::SqlError> error) {
                       if (!error) return KeepRow();
                       if (error->code == 1451 || error->code == 1452) {
                         return SkipRow(*error, true, row_.moves);
                       }
                       error_ = std::move(error);
                       End();
                     });
  }

  void KeepRow() {
    ++affected_;
    RecordUndo(row_);
    NextRow();
  }

  // Warns of `error`, then puts the row back as it was: its old form written again
  // (`restore`), its new one deleted when its key moved (`remove_new`).
  void SkipRow(const mysql::SqlError& error, bool restore, bool remove_new) {
    if (state() != nullptr) {
      AddWarning(state(), Diagnostic::Level::kWarning, error.code, error.message);
    }
    phase_ = Phase::kRevert;
    row_error_.reset();
    outstanding_ = 1;
    if (restore) {
      api::Client& client = data()->client();
      if (remove_new) {
        ++outstanding_;
        client.Delete(*table_, row_.new_key, this, txn());
      }
      ++outstanding_;
      client.Write(*table_, row_.before, this, txn());
      data()->Flush();
    }
    StepDone();
  }

  // What the statement writes for one row, into *w: true, or false when an UPDATE changes
  // none of its values.
  std::variant<bool, mysql::SqlError> PlanRow(const std::string& packed,
                                              const std::vector<Value>& old, const ExecContext& ctx,
                                              RowWrite* w) {
    if (!api::Client::KeyOfRow(*table_, packed, &w->key)) {
      return mysql::errors::Internal("a row without its key");
    }
    w->before = packed;
    if (spec_.verb == Verb::kDelete) return true;
    std::vector<Value> updated = old;
    std::vector<bool> assigned(table_->columns.size());
    EvalContext eval = ctx.Eval();
    eval.row_columns = &row_columns_;
    eval.row = &updated;  // MySQL: later assignments see earlier ones
    for (const Assignment& a : *spec_.set) {
      int c = table_->FindColumn(a.column);
      if (c < 0 || table_->columns[c].hidden)
        return mysql::errors::UnknownColumn(a.column, "field list");
      assigned[c] = true;
      if (a.value->kind == ExprKind::kDefault) {
        auto v = DefaultValueOf(table_->columns[c], ctx);
        if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
        updated[c] = std::get<Value>(std::move(v));
        continue;
      }
      int named = -1;
      if (auto v = DefaultCallValue(*a.value, *table_, ctx, &named)) {
        if (auto* err = std::get_if<mysql::SqlError>(&*v)) return *err;
        updated[c] = std::get<Value>(std::move(*v));
        continue;
      }
      auto v = Evaluate(*a.value, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      updated[c] = std::get<Value>(std::move(v));
    }
    schema::RowWriter writer;
    if (auto err = Pack(updated, old, packed, &writer)) return *err;
    if (writer.view() == absl::string_view(packed)) return false;  // nothing changes
    if (HasOnUpdateNow(*table_)) {
      TouchOnUpdateColumns(*table_, assigned, ctx, &updated);
      if (auto err = Pack(updated, old, packed, &writer)) return *err;
    }
    w->after = std::string(writer.view());
    api::Client::KeyOfRow(*table_, w->after, &w->new_key);
    // A key that changes only as its collation ignores ('ada' → 'ADA') names the same row: it
    // is rewritten in place, as MySQL updates it.
    std::string new_form, old_form;
    w->moves = schema::KeyForm(*table_, 0, w->new_key, &new_form) !=
               schema::KeyForm(*table_, 0, w->key, &old_form);
    return true;
  }

  // For savepoints: what `w` overwrites.
  void RecordUndo(const RowWrite& w) {
    if (w.moves) undo_.Record(table_, w.new_key, "");
    undo_.Record(table_, w.key, w.before);
  }

  // Sends `w`'s operations, each counted in outstanding_.
  void SendRow(const RowWrite& w) {
    api::Client& client = data()->client();
    if (spec_.verb == Verb::kDelete) {
      ++outstanding_;
      client.Delete(*table_, w.key, this, txn());
    } else if (w.moves) {
      // The key moves: the row goes to its new partition.
      outstanding_ += 2;
      client.Delete(*table_, w.key, this, txn());
      client.Insert(*table_, w.after, this, txn());
    } else {
      ++outstanding_;
      client.Write(*table_, w.after, this, txn());
    }
  }

  // `row` packed; a value as it was in `old` keeps its stored bytes from `packed` (an ENUM's
  // '' has no text that converts back to it).
  std::optional<mysql::SqlError> Pack(const std::vector<Value>& row, const std::vector<Value>& old,
                                      absl::string_view packed, schema::RowWriter* out) {
    old_fields_.resize(all_columns_.size());
    size_t used = 0;
    const bool split = schema::SplitRow(*table_, all_columns_, packed, old_fields_.data(), &used);
    out->Clear();
    out->BeginRow(static_cast<int>(table_->columns.size()));
    for (size_t c = 0; c < row.size(); ++c) {
      if (split && row[c] == old[c]) {
        out->Raw(table_->columns[c], old_fields_[c]);
        continue;
      }
      if (auto err = AppendField(table_->columns[c], row[c], 1, out, table_->name, utc_offset_)) {
        return err;
      }
    }
    return std::nullopt;
  }

  // An error while defining the writes: the ones defined finish first.
  void Fail(mysql::SqlError error) {
    if (!error_) error_ = std::move(error);
    DataAccess* data_access = data();
    data_access->Flush();
    StepDone();
  }

  // Ends the statement's own transaction; the session's stays open for its COMMIT.
  void End() {
    if (session_txn_ != nullptr) return Finish();
    phase_ = Phase::kEnd;
    EndTransaction(&own_txn_, !error_, this);
  }

  void Finish() {
    if (error_) return DeliverFailure(*error_, session_txn_ != nullptr, affected_ > 0);
    undo_.Keep(state());
    const uint64_t changed = static_cast<uint64_t>(std::max<int64_t>(0, affected_));
    if (spec_.verb == Verb::kUpdate) {
      const uint64_t matched = direct_ ? matched_direct_ : matched_;
      return Deliver(UpdateResult(state(), matched, changed));
    }
    OkResult ok;
    ok.affected_rows = changed;
    Deliver(ok);
  }

  ModifySpec spec_;
  api::TablePtr table_;
  std::vector<uint16_t> all_columns_;
  std::vector<schema::Field> old_fields_;  // Pack's split of the row it rewrites
  std::vector<mysql::ColumnDefinition> row_columns_;
  std::shared_ptr<api::Transaction> session_txn_;
  const bool foreign_keys_;         // the rows' foreign keys are checked (foreign_keys.h)
  const bool row_by_row_;           // IGNORE may skip rows: one at a time (NextRow)
  std::vector<RowChange> changes_;  // the rows written, for those checks
  StatementUndo undo_;              // for savepoints (savepoint_undo.h)
  const int utc_offset_;            // the session's time zone, for TIMESTAMP values
  api::Transaction own_txn_;
  Phase phase_ = Phase::kDirect;
  int outstanding_ = 0;
  int64_t affected_ = 0;
  uint64_t matched_ = 0;
  uint64_t matched_direct_ = 0;  // the direct path's rows found (changed or not)
  bool direct_ = false;          // the direct path ran
  bool direct_own_txn_ = false;  // … in a transaction of the statement's own
  std::vector<std::string> rows_;
  std::optional<mysql::SqlError> error_;
  // IGNORE's rows (NextRow): their order, decoded values, the next one and the current one.
  std::vector<size_t> order_;
  std::vector<std::vector<Value>> values_;
  size_t next_row_ = 0;
  RowWrite row_;
  std::optional<mysql::SqlError> row_error_;  // the first refusal of the row's writes
  bool cascades_noted_ = false;
};

// sql_safe_updates: an UPDATE or DELETE without LIMIT must find its rows through a key (a key
// lookup or an index range, as MySQL's range optimizer must find a usable index), not a scan.
// A WHERE that selects nothing (kNothing) is let through, as MySQL's impossible WHERE is. The
// message ends in the first warning of the statement, MySQL's reason why no index served; Shoal
// has none, so the format's "%s" is empty.
std::optional<mysql::SqlError> CheckSafeUpdate(const AccessPlan& plan, const ModifySpec& spec,
                                               const SessionState& state) {
  if (plan.kind != AccessPlan::Kind::kFullScan || spec.limit->has_value()) return std::nullopt;
  if (!SessionBoolVar(state, "sql_safe_updates")) return std::nullopt;
  return mysql::SqlError{1175, "HY000",
                         "You are using safe update mode and you tried to update a table without "
                         "a WHERE that uses a KEY column. "};
}

StatementResult RunModify(const TableName& name, ModifySpec spec, const ExecContext& ctx) {
  auto resolved = ResolveTableToWrite(name, spec.alias, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  // As MySQL's resolver, before any row: a plan may read none to evaluate WHERE on.
  if (spec.where != nullptr) {
    if (auto err = CheckRowOperands(*spec.where)) return *err;
  }
  AccessPlan plan = PlanAccess(*table, spec.where, ctx);
  if (auto err = CheckSafeUpdate(plan, spec, *ctx.state)) return *err;
  BeginImplicitTransaction(ctx.state);
  NoteTransactionWrite(ctx.state);
  if (plan.kind == AccessPlan::Kind::kNothing) {
    OkResult ok;
    if (spec.verb == Verb::kUpdate) ok = UpdateResult(ctx.state, 0, 0);
    return ok;
  }
  // Foreign keys and savepoints need each row as it was: the general path reads it first.
  // IGNORE that may skip rows takes them one by one (ModifyRun::NextRow).
  const bool foreign_keys = ForeignKeysApply(*table, *ctx.state);
  bool direct = WhereIsKeyOnly(*table, spec.where, plan) && spec.order_by->empty() &&
                !IgnoreCanSkip(*table, spec, foreign_keys) && !foreign_keys &&
                !RecordsUndo(ctx.state);
  std::optional<std::string> program;
  if (direct && spec.verb == Verb::kUpdate) {
    std::optional<mysql::SqlError> error;
    program = DirectProgram(*table, *spec.set, ctx, &error);
    if (error) return *error;
    direct = program.has_value();
  }
  if (direct && spec.limit->has_value()) {
    uint64_t offset = 0, count = 0;
    if (auto err = EvalLimit(**spec.limit, ctx, &offset, &count)) return *err;
    if (count < plan.keys.size()) direct = false;
  }
  auto* run = new ModifyRun(ctx, spec, std::move(table));
  if (direct) {
    run->StartDirect(plan, program.value_or(""));
  } else {
    run->StartGeneral(plan);
  }
  return Deferred{};
}

}  // namespace

StatementResult ExecuteUpdate(const UpdateStmt& stmt, const ExecContext& ctx) {
  if (!stmt.joins.empty()) return ExecuteMultiUpdate(stmt, ctx);
  return RunModify(stmt.table,
                   {Verb::kUpdate, stmt.where.get(), &stmt.set, &stmt.order_by, &stmt.limit,
                    stmt.ignore, stmt.alias},
                   ctx);
}

StatementResult ExecuteDelete(const DeleteStmt& stmt, const ExecContext& ctx) {
  if (!stmt.targets.empty()) return ExecuteMultiDelete(stmt, ctx);
  return RunModify(stmt.table,
                   {Verb::kDelete, stmt.where.get(), nullptr, &stmt.order_by, &stmt.limit,
                    stmt.ignore, stmt.alias},
                   ctx);
}

OkResult UpdateResult(const SessionState* state, uint64_t matched, uint64_t changed) {
  OkResult ok;
  ok.affected_rows = state != nullptr && state->client_found_rows ? matched : changed;
  ok.info = absl::StrCat("Rows matched: ", matched, "  Changed: ", changed,
                         "  Warnings: ", state != nullptr ? state->warnings.size() : 0);
  return ok;
}

}  // namespace shoal::sql::internal
