// LOAD DATA LOCAL INFILE: the client's file streams through the router into native insert
// batches. Bytes are cut into rows as packets arrive (load_data_format.h), each row converted
// as mysqld does under IGNORE (load_data_values.h) and packed like an INSERT's
// (insert_rows.h); rows go out in batches of `load_data_batch_rows`, each its own native
// transaction committed on its own — as NDB commits a big load in pieces — or, inside a SQL
// transaction, part of it. While `load_data_batches_in_flight` batches are out the statement
// takes no more of the file, so the session stops reading the client's socket: the memory a
// load holds is bounded by a few batches and a packet, whatever the file's size.
//
// Duplicates of a key are skipped with 1062 warnings (LOCAL implies IGNORE) or, with REPLACE,
// written over (Deleted counts them); into a table with a unique secondary index, REPLACE reads
// first what each batch's rows collide with, and deletes those rows (exec_replace.cc). Rows that
// fail otherwise fail the statement; the batches committed before stay, as with NDB. Warnings
// reach SHOW WARNINGS in row order.
//
// Server-side files (LOAD DATA without LOCAL) are refused as mysqld refuses them with
// secure_file_priv NULL: a router has no files of its clients to read.
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/load_data_format.h"
#include "router/sql/eval/load_data_values.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/column_defaults.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/insert_rows.h"
#include "router/sql/exec/replace_plan.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/turn_loop.h"

namespace shoal::sql::internal {
namespace {

// mysqld keeps at most max_error_count (1024 in 8.0) conditions per statement; the rest are
// only counted (the info line's Warnings).
constexpr size_t kMaxConditions = 1024;

mysql::SqlError SecureFilePriv() {
  return {1290, "HY000",
          "The MySQL server is running with the --secure-file-priv option so it cannot execute "
          "this statement"};
}

mysql::SqlError LocalInfileDisabled() {
  return {3948, "42000",
          "Loading local data is disabled; this must be enabled on both the client and server "
          "sides"};
}

mysql::SqlError WrongFieldTerminators() {
  return {1083, "42000", "Field separator argument is not what is expected; check the manual"};
}

std::variant<LoadDataFormat, mysql::SqlError> FormatOf(const LoadDataStmt& stmt) {
  if (stmt.enclosure.size() > 1 || stmt.escape.size() > 1) return WrongFieldTerminators();
  if (stmt.field_terminator.empty() && stmt.enclosure.empty()) {
    return mysql::errors::NotSupportedYet("LOAD DATA with fixed-size rows");
  }
  if (stmt.line_terminator.empty()) {
    return mysql::errors::NotSupportedYet("LOAD DATA with an empty LINES TERMINATED BY");
  }
  LoadDataFormat format;
  format.field_terminator = stmt.field_terminator;
  if (!stmt.enclosure.empty()) format.enclosure = stmt.enclosure[0];
  format.escape = stmt.escape.empty() ? std::nullopt : std::optional<char>(stmt.escape[0]);
  format.line_starting = stmt.line_starting;
  format.line_terminator = stmt.line_terminator;
  return format;
}

// Where each field of a row goes: a table column, or a user variable (by lower-case name).
struct Target {
  int column = -1;
  std::string user_var;
};

std::variant<std::vector<Target>, mysql::SqlError> TargetsOf(const LoadDataStmt& stmt,
                                                             const schema::TableDef& table) {
  std::vector<Target> targets;
  if (stmt.targets.empty()) {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (!table.columns[c].hidden) targets.push_back({static_cast<int>(c), ""});
    }
    return targets;
  }
  for (const LoadDataStmt::Target& t : stmt.targets) {
    if (t.user_var) {
      targets.push_back({-1, absl::AsciiStrToLower(t.name)});
      continue;
    }
    int c = table.FindColumn(t.name);
    if (c < 0 || table.columns[c].hidden) return mysql::errors::UnknownColumn(t.name, "field list");
    targets.push_back({c, ""});
  }
  return targets;
}

// The statement from the LocalInfileRequest to its OK: see the file comment.
class LoadDataRun : public AsyncStatement, public LocalInfile {
 public:
  LoadDataRun(const ExecContext& ctx, const LoadDataStmt& stmt, api::TablePtr table,
              std::vector<Target> targets, LoadDataFormat format)
      : AsyncStatement(ctx),
        stmt_(stmt),
        table_(std::move(table)),
        targets_(std::move(targets)),
        splitter_(std::move(format), ctx.state->server->max_allowed_packet),
        batch_rows_(std::max<uint32_t>(ctx.state->server->load_data_batch_rows, 1)),
        window_(std::max<uint32_t>(ctx.state->server->load_data_batches_in_flight, 1)),
        skip_lines_(stmt.ignore_lines),
        session_txn_(StatementTransaction(ctx.state)),
        rows_counter_(ctx.state->server->load_data_rows),
        bytes_counter_(ctx.state->server->load_data_bytes),
        foreign_keys_(ForeignKeysApplyToInserts(*table_, *ctx.state, stmt.replace)),
        replace_unique_(stmt.replace && HasUniqueSecondaryIndex(*table_)) {
    const size_t n = table_->columns.size();
    given_.resize(n);
    values_.resize(n);
    if (!stmt_.set.empty()) {
      for (size_t c = 0; c < n; ++c) {
        row_columns_.push_back(ResultColumn(*table_, static_cast<int>(c),
                                            ResultCollationId(*ctx.state),
                                            ResultCharsetMaxLen(*ctx.state)));
      }
    }
    const int auto_column = table_->auto_increment_column();
    generates_ = auto_column >= 0 || table_->has_hidden_key();
    ctx.state->local_infile = this;
  }

  const std::string& file_name() const override { return stmt_.file; }

  bool WantsData() const override {
    if (ended_) return false;
    if (error_ || state() == nullptr) return true;  // drained, for the connection's sake
    // With room in the window every whole row is taken at once: what the splitter holds then
    // is part of one row, which it bounds (max_allowed_packet).
    return !awaiting_values_ && in_flight_.size() < window_;
  }

  void Data(absl::string_view bytes) override {
    if (bytes_counter_ != nullptr) bytes_counter_->Increment(static_cast<int64_t>(bytes.size()));
    if (error_ || state() == nullptr) return;
    splitter_.Feed(bytes);
    Pump();
  }

  void End() override {
    ended_ = true;
    splitter_.Finish();
    Pump();
  }

  void Abandon() override {
    ended_ = true;
    if (!error_) error_ = mysql::SqlError{};  // produce nothing more
    Pump();
  }

 private:
  // One native batch: its rows' inserts (and REPLACE's rewrites), then its own commit.
  struct Batch;
  struct RowOp : api::Completion {
    Batch* batch = nullptr;
    size_t index = 0;        // in `rows`, or in `steps` for a step
    bool step = false;       // a step of a REPLACE planned for unique keys (replace_plan.h)
    bool rewriting = false;  // REPLACE: the insert met a duplicate, the row is written over
    bool written = false;
    void Done(const api::Outcome& outcome) override { batch->RowDone(this, outcome); }
  };
  struct Batch : api::Completion {
    LoadDataRun* run = nullptr;
    std::vector<std::string> rows;
    std::vector<uint64_t> row_numbers;
    std::vector<RowOp> ops;
    std::vector<ReplaceStep> steps;  // REPLACE into a table with unique secondary indexes
    // Conversion warnings, with the row they belong to; duplicates are added as they answer.
    std::vector<std::pair<uint64_t, Diagnostic>> warnings;
    api::Transaction txn;
    api::Transaction* used_txn = nullptr;
    int outstanding = 0;
    uint64_t copied = 0, deleted = 0;
    std::optional<mysql::SqlError> error;
    bool checked = false;  // its foreign keys, once its rows are written
    bool done = false;

    void RowDone(RowOp* op, const api::Outcome& outcome);
    void SkipOrphans(const MissingParents& missing);
    void Send();
    void SendSteps();
    void CheckForeignKeysOfRows();
    void Done(const api::Outcome& outcome) override;  // the commit or rollback
    void OpFinished();
  };

  // Everything that may change what the statement can do next; reentrant calls (a completion
  // inside Flush, the session feeding more input from ReadyForInput) only ask for one more
  // turn, so the statement finishes — and frees itself — only in the outermost call.
  void Pump() {
    if (!turns_.Run([this] { Work(); })) return;
    if (ended_ && in_flight_.empty() && !awaiting_values_ && (error_ || produced_all_)) Finish();
  }

  void Work() {
    Retire();
    // KILL QUERY: no batch after the ones out; the rest of the file is read and dropped.
    if (!error_ && state() != nullptr && state()->process != nullptr &&
        state()->process->interrupted()) {
      error_ = mysql::errors::QueryInterrupted();
    }
    bool defined = false;
    while (!error_ && !produced_all_ && !awaiting_values_ && in_flight_.size() < window_) {
      if (!Produce(&defined)) break;
    }
    if (defined) data()->Flush();
    bool wants = WantsData();
    if (wants && !wanted_ && state() != nullptr) {
      wanted_ = true;
      state()->sink->ReadyForInput();
      return;
    }
    wanted_ = wants;
  }

  // Takes rows from the input into the current batch and sends it when full (or the file is
  // over). False when nothing more can be done until more input or answers arrive.
  bool Produce(bool* defined) {
    while (skip_lines_ > 0) {
      LoadDataSplitter::Result skipped = splitter_.SkipLine();
      if (skipped == LoadDataSplitter::Result::kRow) {
        --skip_lines_;
        continue;
      }
      if (skipped == LoadDataSplitter::Result::kEnd) {
        skip_lines_ = 0;
        break;
      }
      if (skipped == LoadDataSplitter::Result::kTooLong) error_ = mysql::errors::PacketTooLarge();
      return false;
    }
    if (generates_ && !EnoughValues()) return false;
    LoadDataSplitter::Result next = splitter_.Next(&fields_);
    switch (next) {
      case LoadDataSplitter::Result::kRow:
        AddRow();
        if (current_ != nullptr && current_->rows.size() >= batch_rows_) {
          SendBatch();
          *defined = true;
        }
        return true;
      case LoadDataSplitter::Result::kTooLong:
        error_ = mysql::errors::PacketTooLarge();
        return false;
      case LoadDataSplitter::Result::kEnd:
        produced_all_ = true;
        if (current_ != nullptr) {
          SendBatch();
          *defined = true;
        }
        return false;
      case LoadDataSplitter::Result::kNeedMore:
        return false;
    }
    return false;
  }

  // Whether the worker holds the generated values the next row may take (two: the
  // AUTO_INCREMENT column and the hidden key); if not, asks the master for a batch's worth and
  // pauses until they are in.
  // An explicit value past every value the master handed the worker has it move its counter
  // past the value first (auto_increment_range.h): before the next row, so before the end.
  bool EnoughValues() {
    AutoIncrementRange& range = WorkerAutoIncrement(*table_, data());
    if (range.next <= range.end) {
      AutoIncrementRange looked = range;
      // Only looked: nothing else runs on this thread meanwhile.
      if (looked.Take(2)) return true;
    }
    awaiting_values_ = true;
    auto fetch = std::make_shared<DictionaryFetch>(
        ReserveAutoIncrement(*table_, 2ull * batch_rows_ * window_, data(), range.next));
    FetchDictionary(data(), std::move(fetch), [this](std::optional<mysql::SqlError> error) {
      awaiting_values_ = false;
      if (error && !error_) error_ = *error;
      Pump();
    });
    return false;
  }

  // Converts the row in `fields_` and packs it into the current batch.
  void AddRow() {
    const uint64_t row = ++records_;
    if (rows_counter_ != nullptr) rows_counter_->Increment();
    if (current_ == nullptr) {
      current_ = std::make_unique<Batch>();
      current_->run = this;
      current_->rows.reserve(batch_rows_);
    }
    std::vector<Diagnostic> warnings;
    const size_t n = table_->columns.size();
    std::fill(given_.begin(), given_.end(), false);
    for (size_t c = 0; c < n; ++c) values_[c] = mysql::Null{};
    std::vector<bool> missing(n, false);
    for (size_t i = 0; i < targets_.size(); ++i) {
      const Target& target = targets_[i];
      mysql::Value value = mysql::Null{};
      if (i < fields_.size() && !fields_[i].null) value = std::string(fields_[i].text);
      if (target.column < 0) {
        state()->user_vars[target.user_var] = std::move(value);
        continue;
      }
      given_[target.column] = true;
      values_[target.column] = std::move(value);
      if (i >= fields_.size()) missing[target.column] = true;
    }
    if (fields_.size() < targets_.size()) {
      for (size_t i = fields_.size(); i < targets_.size(); ++i) {
        warnings.push_back({Diagnostic::Level::kWarning, 1261,
                            absl::StrCat("Row ", row, " doesn't contain data for all columns")});
      }
    } else if (fields_.size() > targets_.size()) {
      warnings.push_back(
          {Diagnostic::Level::kWarning, 1262,
           absl::StrCat("Row ", row,
                        " was truncated; it contained more data than there were input columns")});
    }
    if (auto err = ApplySet(&missing)) return Fail(*err);
    const int auto_column = table_->auto_increment_column();
    if (auto_column >= 0 && given_[auto_column] && AsksForValue(auto_column, missing)) {
      given_[auto_column] = false;
    }
    uint64_t needed = GeneratedValuesPerRow(*table_, auto_column >= 0 && given_[auto_column]);
    uint64_t next_id = 0;
    if (needed > 0) next_id = *TakeAutoIncrement(*table_, needed, data());
    const ExecContext ctx = context();
    const int utc_offset = SessionUtcOffset(*ctx.state);
    auto append = [&](int c, schema::RowWriter* out) -> std::optional<mysql::SqlError> {
      const schema::ColumnDef& column = table_->columns[c];
      if (missing[c]) {
        // mysqld's one exception to a missing field's reset: a TIMESTAMP NOT NULL takes the
        // statement's time, whatever its default.
        if (column.type == schema::ColumnType::kTimestamp && !column.nullable) {
          return AppendField(column, CurrentTimeOf(column, ctx), static_cast<int>(row), out, {},
                             utc_offset);
        }
        return AppendMissingValue(column, row, out);
      }
      return AppendLoadedValue(column, values_[c], row, utc_offset, out, &warnings);
    };
    if (auto err = PackRow(*table_, given_, append, ctx, &next_id, &first_auto_, &writer_)) {
      return Fail(*err);
    }
    if (auto_column >= 0 && given_[auto_column]) {
      if (auto stored = StoredAutoIncrement(*table_, writer_.view())) {
        WorkerAutoIncrement(*table_, data()).Pass(*stored);
      }
    }
    current_->rows.emplace_back(writer_.view());
    current_->row_numbers.push_back(row);
    for (Diagnostic& w : warnings) current_->warnings.emplace_back(row, std::move(w));
  }

  // The AUTO_INCREMENT column's field asks for a generated value: missing, NULL or zero.
  bool AsksForValue(int column, const std::vector<bool>& missing) const {
    if (missing[column] || mysql::IsNull(values_[column])) return true;
    const auto* text = std::get_if<std::string>(&values_[column]);
    if (text == nullptr) return WantsGeneratedValue(values_[column], true);
    absl::string_view t = absl::StripAsciiWhitespace(*text);
    return t.empty() || t.find_first_not_of("0") == absl::string_view::npos;
  }

  // SET col = expr, …: each evaluated with the row's fields as the columns and the user
  // variables the row set.
  std::optional<mysql::SqlError> ApplySet(std::vector<bool>* missing) {
    if (stmt_.set.empty()) return std::nullopt;
    ExecContext ctx = context();
    EvalContext eval = ctx.Eval();
    eval.row_columns = &row_columns_;
    eval.row = &values_;
    for (const Assignment& a : stmt_.set) {
      int c = table_->FindColumn(a.column);
      if (c < 0 || table_->columns[c].hidden) {
        return mysql::errors::UnknownColumn(a.column, "field list");
      }
      (*missing)[c] = false;
      if (a.value->kind == ExprKind::kDefault) {
        given_[c] = false;
        continue;
      }
      auto v = Evaluate(*a.value, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      values_[c] = std::get<mysql::Value>(std::move(v));
      given_[c] = true;
    }
    return std::nullopt;
  }

  void Fail(mysql::SqlError error) {
    if (!error_) error_ = std::move(error);
  }

  void SendBatch() {
    std::unique_ptr<Batch> batch = std::move(current_);
    api::Client& client = data()->client();
    batch->used_txn = session_txn_ != nullptr ? session_txn_.get() : nullptr;
    if (batch->used_txn == nullptr) {
      batch->txn = client.Begin();
      batch->used_txn = &batch->txn;
    }
    Batch* raw = batch.get();
    in_flight_.push_back(std::move(batch));
    if (!foreign_keys_ || table_->foreign_keys.empty()) return raw->Send();
    raw->outstanding = 1;  // the search for parents
    FindMissingParents(data(), client.dictionary(), raw->used_txn, table_, raw->rows,
                       [raw](std::optional<mysql::SqlError> error, MissingParents missing) {
                         if (error) {
                           raw->error = std::move(error);
                           return raw->OpFinished();
                         }
                         raw->outstanding = 0;
                         raw->SkipOrphans(missing);
                         raw->Send();
                       });
  }

  // Takes the finished batches at the front, in order: their counts and warnings.
  void Retire() {
    while (!in_flight_.empty() && in_flight_.front()->done) {
      Batch& batch = *in_flight_.front();
      copied_ += batch.copied;
      deleted_ += batch.deleted;
      std::stable_sort(batch.warnings.begin(), batch.warnings.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [row, warning] : batch.warnings) {
        ++warning_count_;
        if (state() != nullptr && state()->warnings.size() < kMaxConditions) {
          state()->warnings.push_back(std::move(warning));
        }
      }
      if (batch.error && !error_) error_ = batch.error;
      if (batch.copied > 0) partly_applied_ = true;
      in_flight_.pop_front();
      if (state() != nullptr && state()->process != nullptr) {
        state()->process->SetState(
            absl::StrCat("Loading: ", records_, " rows read, ", copied_, " committed"));
      }
    }
  }

  void Finish() {
    if (error_) {
      if (state() == nullptr) return Deliver(*error_);
      return DeliverFailure(*error_, session_txn_ != nullptr, partly_applied_);
    }
    OkResult ok;
    ok.affected_rows = copied_ + deleted_;
    ok.last_insert_id = first_auto_;
    ok.info = absl::StrCat("Records: ", records_, "  Deleted: ", deleted_,
                           "  Skipped: ", records_ - copied_, "  Warnings: ", warning_count_);
    if (first_auto_ != 0) state()->last_insert_id = first_auto_;
    Deliver(ok);
  }

  const LoadDataStmt& stmt_;  // kept alive by the statement's owner
  api::TablePtr table_;
  std::vector<Target> targets_;
  LoadDataSplitter splitter_;
  const size_t batch_rows_;
  const size_t window_;
  uint64_t skip_lines_;
  std::shared_ptr<api::Transaction> session_txn_;
  Counter* rows_counter_;
  Counter* bytes_counter_;
  // The rows' foreign keys are checked (foreign_keys.h): per batch, rows without their parent
  // are skipped with warning 1452 (LOCAL: errors become warnings, as if IGNORE), and what the
  // batch wrote is checked before it commits.
  const bool foreign_keys_;
  const bool replace_unique_;  // REPLACE into a table with a unique secondary index
  bool generates_ = false;

  // The row being converted (reused from row to row).
  std::vector<LoadField> fields_;
  std::vector<bool> given_;
  std::vector<mysql::Value> values_;
  std::vector<mysql::ColumnDefinition> row_columns_;  // for SET expressions
  schema::RowWriter writer_;

  std::unique_ptr<Batch> current_;
  std::deque<std::unique_ptr<Batch>> in_flight_;
  bool ended_ = false;         // the file is over (End) or the session gone (Abandon)
  bool produced_all_ = false;  // every row of the file is in a batch
  bool awaiting_values_ = false;
  TurnLoop turns_;
  bool wanted_ = true;  // what WantsData said last: a change to true is told to the session
  bool partly_applied_ = false;
  std::optional<mysql::SqlError> error_;
  uint64_t records_ = 0, copied_ = 0, deleted_ = 0, warning_count_ = 0, first_auto_ = 0;
};

void LoadDataRun::Batch::RowDone(RowOp* op, const api::Outcome& outcome) {
  if (op->step) {
    const bool is_delete = steps[op->index].kind == ReplaceStep::Kind::kDelete;
    if (outcome.ok()) {
      op->written = true;
      if (is_delete || outcome.replaced) ++deleted;
      if (!is_delete) ++copied;
    } else if (!outcome.not_found() && !error) {
      error = EngineError(outcome.code, outcome.message);
    }
    return OpFinished();
  }
  if (outcome.ok()) {
    ++copied;
    op->written = true;
    if (op->rewriting) ++deleted;
  } else if (outcome.code == 1062 && !op->rewriting && run->stmt_.replace) {
    op->rewriting = true;
    ++outstanding;
    run->data()->client().Write(*run->table_, rows[op->index], op, used_txn);
    run->data()->Flush();
  } else if (outcome.code == 1062 && !op->rewriting) {
    warnings.emplace_back(
        row_numbers[op->index],
        Diagnostic{Diagnostic::Level::kWarning, outcome.code, std::string(outcome.message)});
  } else if (!error) {
    error = EngineError(outcome.code, outcome.message);
  }
  OpFinished();
}

void LoadDataRun::Batch::SkipOrphans(const MissingParents& missing) {
  std::vector<std::string> kept_rows;
  std::vector<uint64_t> kept_numbers;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (r < missing.size() && missing[r]) {
      warnings.emplace_back(row_numbers[r], Diagnostic{Diagnostic::Level::kWarning,
                                                       missing[r]->code, missing[r]->message});
      continue;
    }
    kept_rows.push_back(std::move(rows[r]));
    kept_numbers.push_back(row_numbers[r]);
  }
  rows = std::move(kept_rows);
  row_numbers = std::move(kept_numbers);
}

void LoadDataRun::Batch::Send() {
  if (run->replace_unique_) {
    outstanding = 1;  // the reads of what the rows collide with
    return PlanReplace(run->data(), used_txn, run->table_, &rows,
                       [this](std::variant<std::vector<ReplaceStep>, mysql::SqlError> planned) {
                         if (auto* err = std::get_if<mysql::SqlError>(&planned)) {
                           if (!error) error = std::move(*err);
                           return OpFinished();
                         }
                         steps = std::get<std::vector<ReplaceStep>>(std::move(planned));
                         SendSteps();
                       });
  }
  api::Client& client = run->data()->client();
  ops.resize(rows.size());
  outstanding = 1;  // the loop; completions may run inside it
  for (size_t i = 0; i < rows.size(); ++i) {
    RowOp& op = ops[i];
    op.batch = this;
    op.index = i;
    ++outstanding;
    client.Insert(*run->table_, rows[i], &op, used_txn);
  }
  OpFinished();
}

// The steps in their order, sent at once (`outstanding` was 1 for the reads).
void LoadDataRun::Batch::SendSteps() {
  api::Client& client = run->data()->client();
  ops.resize(steps.size());
  std::string key;
  for (size_t i = 0; i < steps.size(); ++i) {
    RowOp& op = ops[i];
    op.batch = this;
    op.index = i;
    op.step = true;
    ++outstanding;
    if (steps[i].kind == ReplaceStep::Kind::kDelete) {
      key.clear();
      api::Client::KeyOfRow(*run->table_, steps[i].row, &key);
      client.Delete(*run->table_, key, &op, used_txn);
    } else {
      client.Write(*run->table_, steps[i].row, &op, used_txn);
    }
  }
  run->data()->Flush();
  OpFinished();
}

// As InsertRun's: the references the rows make, and the children of rows REPLACE replaced.
void LoadDataRun::Batch::CheckForeignKeysOfRows() {
  checked = true;
  api::Client& client = run->data()->client();
  std::shared_ptr<const api::Dictionary> dictionary = client.dictionary();
  const bool referenced =
      dictionary != nullptr && dictionary->ReferencesTo(*run->table_) != nullptr;
  std::vector<RowChange> changes;
  for (const RowOp& op : ops) {
    if (!op.written) continue;
    if (op.step) {  // what a delete or a write took away, and what a write put
      const ReplaceStep& step = steps[op.index];
      if (step.kind == ReplaceStep::Kind::kDelete) {
        changes.push_back({step.row, ""});
        continue;
      }
      if (step.before) changes.push_back({*step.before, ""});
      changes.push_back({"", step.row});
      continue;
    }
    if (op.rewriting && referenced) changes.push_back({rows[op.index], ""});
    changes.push_back({"", rows[op.index]});
  }
  outstanding = 1;
  CheckForeignKeys(run->data(), std::move(dictionary), used_txn, run->table_, std::move(changes),
                   [this](std::optional<mysql::SqlError> err) {
                     if (err && !error) error = std::move(err);
                     OpFinished();
                   });
}

void LoadDataRun::Batch::OpFinished() {
  if (--outstanding > 0) return;
  if (run->foreign_keys_ && !checked && !error) return CheckForeignKeysOfRows();
  if (used_txn == &txn) {  // the batch's own transaction: commit it (or roll it back)
    api::Client& client = run->data()->client();
    if (error) {
      client.Rollback(&txn, this);
    } else {
      client.Commit(&txn, this);
    }
    run->data()->Flush();
    return;
  }
  done = true;
  run->Pump();
}

void LoadDataRun::Batch::Done(const api::Outcome& outcome) {
  if (!outcome.ok() && !error) error = EngineError(outcome.code, outcome.message);
  if (error) copied = deleted = 0;  // rolled back: none of it stays
  done = true;
  run->Pump();
}

}  // namespace

StatementResult ExecuteLoadData(const LoadDataStmt& stmt, const ExecContext& ctx) {
  if (!stmt.local) return SecureFilePriv();
  SessionState* s = ctx.state;
  if (!s->client_local_files || !s->server->local_infile->load(std::memory_order_relaxed)) {
    return LocalInfileDisabled();
  }
  auto format = FormatOf(stmt);
  if (auto* err = std::get_if<mysql::SqlError>(&format)) return *err;
  auto resolved = ResolveTableToWrite(stmt.table, "", *s);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  auto targets = TargetsOf(stmt, *table);
  if (auto* err = std::get_if<mysql::SqlError>(&targets)) return *err;
  for (const Assignment& a : stmt.set) {
    int c = table->FindColumn(a.column);
    if (c < 0 || table->columns[c].hidden) {
      return mysql::errors::UnknownColumn(a.column, "field list");
    }
  }
  if (auto err = RequireDataNodes(*s)) return *err;
  BeginImplicitTransaction(s);
  NoteTransactionWrite(s);
  if (RecordsUndo(s)) LoseUndo(s);  // its batches do not say what they replaced
  // Once the client has sent its file, the statement cannot run again from the start.
  ExecContext once = ctx;
  once.may_retry = false;
  new LoadDataRun(once, stmt, std::move(table), std::get<std::vector<Target>>(std::move(targets)),
                  std::get<LoadDataFormat>(std::move(format)));
  if (s->sink != nullptr) s->sink->ReadyForInput();
  return Deferred{};
}

}  // namespace shoal::sql::internal
