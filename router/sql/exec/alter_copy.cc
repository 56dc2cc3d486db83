// The copying ALTER TABLE's steps (alter_copy.h): create the copy, lock the table, scan and
// copy, put the copy in place — or, on any failure, drop the copy and unlock.
#include "router/sql/exec/alter_copy.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/api/client.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/insert_rows.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/turn_loop.h"

namespace shoal::sql::internal {
namespace {

class AlterCopyRun : public AsyncStatement, public api::ScanReceiver, public api::Completion {
 public:
  AlterCopyRun(const ExecContext& ctx, AlterPlan plan, api::TablePtr table)
      : AsyncStatement(ctx),
        plan_(std::move(plan)),
        source_(std::move(table)),
        batch_rows_(std::max<uint32_t>(ctx.state->server->load_data_batch_rows, 1)),
        window_(std::max<uint32_t>(ctx.state->server->load_data_batches_in_flight, 1)),
        check_foreign_keys_(plan_.new_foreign_keys > 0 && ForeignKeyChecksOn(*ctx.state)) {
    copy_name_ =
        absl::StrCat(schema::kAlterCopyPrefix, absl::Hex(absl::Uniform<uint64_t>(absl::BitGen())));
    for (size_t c = 0; c < source_->columns.size(); ++c) {
      all_columns_.push_back(static_cast<uint16_t>(c));
    }
  }

  // `this` may be gone when it returns.
  void Start() {
    SetProgress("altering table");
    CommitBeforeDdl([this] { CreateCopy(); });
  }

 private:
  enum class Step : uint8_t { kCopying, kReleasing };

  // One batch of copied rows: their inserts into the copy, then its own commit.
  struct Batch;
  struct RowOp : api::Completion {
    Batch* batch = nullptr;
    void Done(const api::Outcome& outcome) override;
  };
  struct Batch : api::Completion {
    AlterCopyRun* run = nullptr;
    std::vector<std::string> rows;
    std::vector<RowOp> ops;
    api::Transaction txn;
    int outstanding = 0;
    std::optional<mysql::SqlError> error;
    bool done = false;
    void OpFinished();
    void End();                                       // commits, or rolls back on an error
    void Done(const api::Outcome& outcome) override;  // the commit or rollback
  };

  // api::Completion: the end of the copy's locking transaction.
  void Done(const api::Outcome&) override {
    // kReleasing: the source's row locks are gone (whatever the answer: the table is dropped
    // or unlocked next, and a lost transaction's locks go with it).
    Finish();
  }

  void Ask(wire::DictReq request, absl::AnyInvocable<void(std::optional<mysql::SqlError>)> then) {
    data()->client().Dictionary(
        std::move(request), [then = std::move(then)](absl::StatusOr<wire::DictConf> conf) mutable {
          then(DictionaryAnswerError(conf));
        });
    data()->Flush();
  }

  void CreateCopy() {
    schema::TableDef copy = plan_.table;
    copy.database = source_->database;
    copy.name = copy_name_;
    copy.id = 0;
    copy.version = 0;
    wire::DictReq request;
    schema::AppendTableDef(copy, request.mutable_create_table()->mutable_table());
    Ask(std::move(request), [this](std::optional<mysql::SqlError> error) {
      if (error) return Deliver(*std::move(error));
      Lock();
    });
  }

  void Lock() {
    wire::DictReq request;
    wire::LockForAlter* lock = request.mutable_lock_for_alter();
    lock->set_database(source_->database);
    lock->set_name(source_->name);
    lock->set_temp_table(copy_name_);
    lock->set_version(source_->version);
    Ask(std::move(request), [this](std::optional<mysql::SqlError> error) {
      if (error) return DropCopy(*std::move(error));
      // The lock made new versions: the source's, and the copy's first.
      std::shared_ptr<const api::Dictionary> dictionary = data()->client().dictionary();
      api::TablePtr source, copy;
      if (dictionary != nullptr) {
        if (auto it = dictionary->by_id.find(source_->id); it != dictionary->by_id.end()) {
          source = it->second;
        }
        for (const auto& [id, table] : dictionary->by_id) {
          if (table->database == source_->database && table->name == copy_name_) copy = table;
        }
      }
      if (source == nullptr || copy == nullptr) {
        return Fail(mysql::errors::Internal("the ALTER TABLE copy vanished from the dictionary"));
      }
      source_ = std::move(source);
      copy_ = std::move(copy);
      given_.assign(copy_->columns.size(), false);
      auto_column_ = copy_->auto_increment_column();
      Scan();
    });
  }

  void Scan() {
    step_ = Step::kCopying;
    txn_ = data()->client().Begin();
    api::ScanRequest request;
    request.table = source_.get();
    request.columns = all_columns_;
    request.lock = api::Lock::kExclusive;
    request.txn = &txn_;
    scanning_ = true;
    data()->client().Scan(std::move(request), this);
    data()->Flush();
  }

  // api::ScanReceiver.
  void Row(absl::string_view row) override {
    ++read_;
    if (error_) return;
    pending_.emplace_back(row);
    if (pending_.size() >= batch_rows_) Pump();
  }
  void Done(uint16_t code, absl::string_view message) override {
    scanning_ = false;
    if (code != 0) Fail(EngineError(code, message));
    Pump();
  }
  // The scan runs ahead of the inserts no further than a window's worth of rows: the router
  // holds a bounded part of the table, whatever its size.
  bool Paused() const override { return pending_.size() >= 2 * batch_rows_ * window_; }
  bool Interrupted() const override {
    return error_.has_value() ||
           (state() != nullptr && state()->process != nullptr && state()->process->interrupted());
  }

  void Fail(mysql::SqlError error) {
    if (!error_) error_ = std::move(error);
    Pump();
  }

  // Everything that may move the copy on; reentrant calls (completions inside Flush) ask for
  // one more turn, so the end is taken only in the outermost call.
  void Pump() {
    if (!turns_.Run([this] { Work(); })) return;
    if (!scanning_ && in_flight_.empty() && !awaiting_values_ && step_ == Step::kCopying &&
        (error_ || pending_.empty())) {
      Release();
    }
  }

  void Work() {
    while (!in_flight_.empty() && in_flight_.front()->done) {
      Batch& batch = *in_flight_.front();
      if (batch.error && !error_) error_ = batch.error;
      if (!batch.error) copied_ += batch.rows.size();
      in_flight_.pop_front();
    }
    if (!error_ && state() != nullptr && state()->process != nullptr &&
        state()->process->interrupted()) {
      error_ = mysql::errors::QueryInterrupted();
    }
    if (error_) pending_.clear();
    bool sent = false;
    while (!error_ && !awaiting_values_ && in_flight_.size() < window_ &&
           (pending_.size() >= batch_rows_ || (!scanning_ && !pending_.empty()))) {
      if (!SendBatch()) break;
      sent = true;
    }
    // After an error too: the scan's next batch is where it sees Interrupted() and ends.
    if (scanning_ && (error_ || !Paused())) {
      data()->client().ResumeScan(this);
      sent = true;
    }
    if (sent) data()->Flush();
    SetProgress(absl::StrCat("copy to tmp table: ", copied_, " rows copied, ", read_, " read"));
  }

  // Converts up to a batch of pending rows and sends their inserts. False when the worker
  // lacks generated values (they are asked for) or a row failed.
  bool SendBatch() {
    if (state() == nullptr) {  // the client is gone: the ALTER ends without its change
      error_ = mysql::errors::QueryInterrupted();
      return false;
    }
    const ExecContext ctx = context();
    auto batch = std::make_unique<Batch>();
    batch->run = this;
    while (!pending_.empty() && batch->rows.size() < batch_rows_) {
      std::optional<std::string> packed = Convert(pending_.front(), ctx);
      if (!packed) break;
      batch->rows.push_back(*std::move(packed));
      pending_.pop_front();
    }
    if (batch->rows.empty()) return false;
    api::Client& client = data()->client();
    batch->txn = client.Begin();
    batch->ops.resize(batch->rows.size());
    batch->outstanding = 1;  // this loop: completions may run inside it
    Batch* raw = batch.get();
    in_flight_.push_back(std::move(batch));
    for (size_t i = 0; i < raw->rows.size(); ++i) {
      raw->ops[i].batch = raw;
      ++raw->outstanding;
      client.Insert(*copy_, raw->rows[i], &raw->ops[i], &raw->txn);
    }
    raw->OpFinished();
    return !error_ && !awaiting_values_;
  }

  // A source row as a row of the copy: each column from its source column with MySQL's
  // conversion, or its default or a generated value. nullopt (error_ or awaiting_values_ set)
  // when it cannot be made now.
  std::optional<std::string> Convert(absl::string_view row, const ExecContext& ctx) {
    values_.clear();
    if (!DecodeRow(*source_, all_columns_, row, &scratch_, &values_)) {
      error_ = mysql::errors::Internal("a data node sent a malformed row");
      return std::nullopt;
    }
    for (size_t c = 0; c < copy_->columns.size(); ++c) given_[c] = plan_.source[c] >= 0;
    if (auto_column_ >= 0 && given_[auto_column_] &&
        WantsGeneratedValue(values_[plan_.source[auto_column_]], true)) {
      given_[auto_column_] = false;
    }
    const int hidden = copy_->has_hidden_key() ? static_cast<int>(copy_->columns.size()) - 1 : -1;
    uint64_t next_id = 0;
    if (uint64_t needed = GeneratedValuesPerRow(*copy_, auto_column_ >= 0 && given_[auto_column_]);
        needed > 0) {
      std::optional<uint64_t> first = TakeAutoIncrement(*copy_, needed, data());
      if (!first) {
        ReserveValues();
        return std::nullopt;
      }
      next_id = *first;
    }
    const int row_number = static_cast<int>(std::min<uint64_t>(converted_ + 1, INT32_MAX));
    auto append = [&](int c, schema::RowWriter* out) -> std::optional<mysql::SqlError> {
      const mysql::Value& value = values_[plan_.source[c]];
      if (mysql::IsNull(value) && !copy_->columns[c].nullable) {
        return mysql::SqlError{1138, "22004", "Invalid use of NULL value"};
      }
      if (c == auto_column_ || c == hidden) NoteAutoValue(value);
      // A column kept as it was keeps its stored bytes: an ENUM's '' (position 0) has no text
      // that would convert back to it.
      if (SameStorage(source_->columns[plan_.source[c]], copy_->columns[c])) {
        out->Raw(copy_->columns[c], scratch_[plan_.source[c]]);
        return std::nullopt;
      }
      return AppendField(copy_->columns[c], value, row_number, out, source_->name);
    };
    uint64_t first_auto = 0;
    if (auto err = PackRow(*copy_, given_, append, ctx, &next_id, &first_auto, &writer_)) {
      error_ = *std::move(err);
      return std::nullopt;
    }
    if (next_id > 0) max_auto_ = std::max(max_auto_, next_id - 1);  // the generated ones
    ++converted_;
    return std::string(writer_.view());
  }

  static bool SameStorage(const schema::ColumnDef& a, const schema::ColumnDef& b) {
    return a.type == b.type && a.is_unsigned == b.is_unsigned && a.length == b.length &&
           a.precision == b.precision && a.scale == b.scale && a.elements == b.elements;
  }

  void NoteAutoValue(const mysql::Value& value) {
    if (const auto* u = std::get_if<uint64_t>(&value)) max_auto_ = std::max(max_auto_, *u);
    if (const auto* i = std::get_if<int64_t>(&value); i != nullptr && *i > 0) {
      max_auto_ = std::max(max_auto_, static_cast<uint64_t>(*i));
    }
  }

  void ReserveValues() {
    awaiting_values_ = true;
    auto fetch = std::make_shared<DictionaryFetch>(
        ReserveAutoIncrement(*copy_, 2ull * batch_rows_ * window_, data()));
    FetchDictionary(data(), std::move(fetch), [this](std::optional<mysql::SqlError> error) {
      awaiting_values_ = false;
      if (error && !error_) error_ = *error;
      Pump();
    });
  }

  // Every row is copied (or the copy failed): the source's row locks go first, then the
  // copy takes its place (or is dropped).
  void Release() {
    step_ = Step::kReleasing;
    EndTransaction(&txn_, /*commit=*/false, this);
  }

  void Finish() {
    if (error_) return Unlock(*std::move(error_));
    wire::DictReq request;
    wire::FinishAlter* finish = request.mutable_finish_alter();
    finish->set_database(source_->database);
    finish->set_name(source_->name);
    finish->set_commit(true);
    // After the largest value copied, or from AUTO_INCREMENT = n when that is larger.
    uint64_t next = max_auto_ < UINT64_MAX ? max_auto_ + 1 : max_auto_;
    finish->set_next_auto_increment(std::max(next, plan_.auto_increment.value_or(0)));
    // The same AUTO_INCREMENT column goes on from where the table's counter was, as in MySQL.
    const int old_auto = source_->auto_increment_column();
    finish->set_keep_counter(auto_column_ >= 0 && old_auto >= 0 &&
                             plan_.source[auto_column_] == old_auto);
    if (plan_.table.database != source_->database || plan_.table.name != source_->name) {
      finish->set_new_database(plan_.table.database);
      finish->set_new_name(plan_.table.name);
    }
    Ask(std::move(request), [this](std::optional<mysql::SqlError> error) {
      if (error) return Unlock(*std::move(error));
      OkResult ok;
      ok.affected_rows = copied_;
      ok.info = absl::StrCat("Records: ", copied_, "  Duplicates: 0  Warnings: 0");
      Deliver(std::move(ok));
    });
  }

  // Ends the ALTER without its change: the copy is dropped, the table unlocked.
  void Unlock(mysql::SqlError error) {
    wire::DictReq request;
    request.mutable_finish_alter()->set_database(source_->database);
    request.mutable_finish_alter()->set_name(source_->name);
    request.mutable_finish_alter()->set_commit(false);
    Ask(std::move(request),
        [this, error = std::move(error)](std::optional<mysql::SqlError>) mutable {
          // Failing that too, the master ends it when it sees this connection gone.
          Deliver(std::move(error));
        });
  }

  // The lock was refused: only the copy, empty, is left to drop.
  void DropCopy(mysql::SqlError error) {
    wire::DictReq request;
    request.mutable_drop_table()->set_database(source_->database);
    request.mutable_drop_table()->set_name(copy_name_);
    request.mutable_drop_table()->set_if_exists(true);
    Ask(std::move(request),
        [this, error = std::move(error)](std::optional<mysql::SqlError>) mutable {
          Deliver(std::move(error));
        });
  }

  void SetProgress(absl::string_view what) {
    if (state() != nullptr && state()->process != nullptr) state()->process->SetState(what);
  }

  AlterPlan plan_;
  api::TablePtr source_;
  api::TablePtr copy_;
  std::string copy_name_;
  const size_t batch_rows_;
  const size_t window_;
  const bool check_foreign_keys_;  // the ALTER adds foreign keys: each copied row is checked
  std::vector<uint16_t> all_columns_;
  Step step_ = Step::kCopying;
  api::Transaction txn_;  // the scan's: exclusive locks on the source's rows
  bool scanning_ = false;

  // Rows read and not yet converted (raw, over all_columns_), and the batches out.
  std::deque<std::string> pending_;
  std::deque<std::unique_ptr<Batch>> in_flight_;
  bool awaiting_values_ = false;
  TurnLoop turns_;
  std::optional<mysql::SqlError> error_;
  uint64_t read_ = 0, converted_ = 0, copied_ = 0, max_auto_ = 0;
  int auto_column_ = -1;

  // Conversion scratch, reused from row to row.
  std::vector<schema::Field> scratch_;
  std::vector<mysql::Value> values_;
  std::vector<bool> given_;
  schema::RowWriter writer_;
};

void AlterCopyRun::RowOp::Done(const api::Outcome& outcome) {
  if (!outcome.ok() && !batch->error) {
    // A duplicate names the key as the table's, not the hidden copy's.
    batch->error = EngineError(
        outcome.code, absl::StrReplaceAll(outcome.message, {{batch->run->copy_name_ + ".",
                                                             batch->run->source_->name + "."}}));
  }
  batch->OpFinished();
}

void AlterCopyRun::Batch::OpFinished() {
  if (--outstanding > 0) return;
  if (!error && run->check_foreign_keys_) {
    // The rows must satisfy the foreign keys the ALTER adds (foreign_keys.h), checked in the
    // batch's transaction before it commits.
    std::vector<RowChange> changes;
    changes.reserve(rows.size());
    for (std::string& row : rows) changes.push_back({"", std::move(row)});
    api::Client& client = run->data()->client();
    return CheckForeignKeys(run->data(), client.dictionary(), &txn, run->copy_, std::move(changes),
                            [this](std::optional<mysql::SqlError> err) {
                              if (err && !error) error = std::move(err);
                              End();
                            });
  }
  End();
}

void AlterCopyRun::Batch::End() {
  api::Client& client = run->data()->client();
  if (error) {
    client.Rollback(&txn, this);
  } else {
    client.Commit(&txn, this);
  }
  run->data()->Flush();
}

void AlterCopyRun::Batch::Done(const api::Outcome& outcome) {
  if (!outcome.ok() && !error) error = EngineError(outcome.code, outcome.message);
  done = true;
  run->Pump();
}

}  // namespace

StatementResult RunAlterCopy(AlterPlan plan, api::TablePtr table, const ExecContext& ctx) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  auto* run = new AlterCopyRun(ctx, std::move(plan), std::move(table));
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
