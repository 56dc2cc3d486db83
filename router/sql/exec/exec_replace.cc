// REPLACE into a table with unique secondary indexes (replace_plan.h). Three batches, whatever
// the number of rows: every row's primary key and unique keys are read with exclusive locks;
// the router works out which rows the statement deletes and which it writes; those deletes and
// writes go in one batch, in order; then the foreign keys are checked and the statement's own
// transaction (outside a SQL one) is committed. What the rows collide with stays locked from
// the read to the end, so the plan holds when it is applied.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/row.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/insert_rows.h"
#include "router/sql/exec/keyed_write_run.h"
#include "router/sql/exec/replace_plan.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

// PlanReplace's reads: owns itself, and goes once the last has answered.
class CollisionReads {
 public:
  CollisionReads(DataAccess* data, api::Transaction* txn, api::TablePtr table,
                 const std::vector<std::string>* rows, ReplacePlanned done)
      : data_(data), txn_(txn), table_(std::move(table)), rows_(rows), done_(std::move(done)) {
    for (size_t c = 0; c < table_->columns.size(); ++c) {
      all_columns_.push_back(static_cast<uint16_t>(c));
    }
  }

  void Start() {
    ReplacePlanner planner(*table_);
    outstanding_ = 1;  // the loop below; completions may run inside it
    std::string key;
    for (const std::string& row : *rows_) {
      if (!api::Client::KeyOfRow(*table_, row, &key)) continue;  // the write will refuse it
      Read(0, key);
      for (int index : planner.unique_indexes()) {
        if (schema::KeyOfRow(*table_, index, row, &key)) Read(index, key);
      }
    }
    data_->Flush();
    ReadDone();
  }

 private:
  // One read: a row found goes to found_.
  struct ReadInto : api::Completion {
    explicit ReadInto(CollisionReads* owner) : reads(owner) {}
    void Done(const api::Outcome& outcome) override {
      if (outcome.ok()) {
        reads->found_.emplace_back(outcome.row);
      } else if (!outcome.not_found() && !reads->error_) {
        reads->error_ = EngineError(outcome.code, outcome.message);
      }
      reads->ReadDone();
    }
    CollisionReads* reads;
  };

  void Read(int index, const std::string& key) {
    ++outstanding_;
    reads_.push_back(std::make_unique<ReadInto>(this));
    api::Client& client = data_->client();
    if (index == 0) {
      client.Read(*table_, key, all_columns_, reads_.back().get(), txn_, api::Lock::kExclusive);
    } else {
      client.ReadUnique(*table_, index, key, all_columns_, reads_.back().get(), txn_,
                        api::Lock::kExclusive);
    }
  }

  void ReadDone() {
    if (--outstanding_ > 0) return;
    std::variant<std::vector<ReplaceStep>, mysql::SqlError> result;
    if (error_) {
      result = std::move(*error_);
    } else {
      ReplacePlanner planner(*table_);
      for (const std::string& row : found_) planner.Stored(row);
      std::vector<ReplaceStep> steps;
      for (const std::string& row : *rows_) planner.Add(row, &steps);
      result = std::move(steps);
    }
    ReplacePlanned done = std::move(done_);
    delete this;
    done(std::move(result));
  }

  DataAccess* data_;
  api::Transaction* txn_;
  api::TablePtr table_;
  const std::vector<std::string>* rows_;
  ReplacePlanned done_;
  std::vector<uint16_t> all_columns_;
  std::vector<std::unique_ptr<ReadInto>> reads_;
  std::vector<std::string> found_;  // the rows the reads found
  int outstanding_ = 0;
  std::optional<mysql::SqlError> error_;
};

// The read phase is the plan's reads; the steps' writes answer to StepInto.
class ReplaceRun : public KeyedWriteRun {
 public:
  ReplaceRun(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
             uint64_t last_insert_id, bool records_info, uint64_t warned)
      : KeyedWriteRun(ctx, table, ForeignKeysApplyToInserts(*table, *ctx.state, /*replace=*/true)),
        rows_(std::move(rows)),
        last_insert_id_(last_insert_id),
        records_info_(records_info),
        warned_(warned) {}

  void Start() {
    BeginOwnTransaction();
    outstanding_ = 1;
    PlanReplace(data(), txn(), table_, &rows_,
                [this](std::variant<std::vector<ReplaceStep>, mysql::SqlError> planned) {
                  if (auto* err = std::get_if<mysql::SqlError>(&planned)) {
                    NoteError(std::move(*err));
                  } else {
                    steps_planned_ = std::get<std::vector<ReplaceStep>>(std::move(planned));
                  }
                  OpDone();
                });
  }

 private:
  // One step of the plan, counted as MySQL counts REPLACE: a row deleted or replaced is one
  // affected row and one of the info's Duplicates, an inserted row one affected row.
  struct StepInto : api::Completion {
    StepInto(ReplaceRun* owner, bool is_delete, bool planned_replace)
        : run(owner), deletes(is_delete), replaces(planned_replace) {}
    void Done(const api::Outcome& outcome) override {
      if (outcome.ok()) {
        const bool removed = deletes || outcome.replaced;
        run->affected_ += deletes ? 1 : 1 + outcome.replaced;
        run->duplicates_ += removed;
        // A row nobody held when it was read, committed before the write: the undo cannot
        // say what the write replaced.
        if (!deletes && outcome.replaced && !replaces) run->undo_.Lose();
      } else if (!outcome.not_found() && !run->error_) {
        run->error_ = EngineError(outcome.code, outcome.message);
      }
      run->OpDone();
    }
    ReplaceRun* run;
    bool deletes;   // a delete, else a write
    bool replaces;  // a write the plan saw a row under
  };

  // Sends the steps in order: on one partition (a table with a unique index has one) the data
  // node applies them in that order.
  void Write() override {
    phase_ = Phase::kWrite;
    if (error_ || state() == nullptr) return End();
    std::vector<ReplaceStep> steps = std::move(steps_planned_);
    DataAccess* data_access = data();
    api::Client& client = data_access->client();
    outstanding_ = 1;
    wrote_ = true;
    std::string key;
    for (ReplaceStep& step : steps) {
      key.clear();
      api::Client::KeyOfRow(*table_, step.row, &key);
      const bool is_delete = step.kind == ReplaceStep::Kind::kDelete;
      steps_.push_back(std::make_unique<StepInto>(this, is_delete, step.before.has_value()));
      ++outstanding_;
      if (is_delete) {
        client.Delete(*table_, key, steps_.back().get(), txn());
        undo_.Record(table_, key, step.row);
        if (foreign_keys_) changes_.push_back({std::move(step.row), ""});
        continue;
      }
      client.Write(*table_, step.row, steps_.back().get(), txn());
      undo_.Record(table_, key, step.before.value_or(""));
      // As MySQL's, a replaced row is deleted: its children see a delete, then an insert.
      if (foreign_keys_ && step.before) changes_.push_back({std::move(*step.before), ""});
      if (foreign_keys_) changes_.push_back({"", std::move(step.row)});
    }
    data_access->Flush();
    OpDone();
  }

  void Finish() override {
    // Rows of the session's transaction that went in cannot be taken out alone.
    if (error_) return DeliverFailure(*error_, in_session_txn(), wrote_);
    undo_.Keep(state());
    Deliver(WriteOk({affected_, last_insert_id_, rows_.size(), duplicates_, warned_}, records_info_,
                    state()));
  }

  std::vector<std::string> rows_;
  uint64_t last_insert_id_;
  bool records_info_;
  uint64_t warned_;  // warnings the rows got before (values adjusted, rows a view left out)
  std::vector<ReplaceStep> steps_planned_;
  std::vector<std::unique_ptr<StepInto>> steps_;
  bool wrote_ = false;  // the steps were sent
  uint64_t affected_ = 0;
  uint64_t duplicates_ = 0;  // rows deleted or replaced
};

}  // namespace

void PlanReplace(DataAccess* data, api::Transaction* txn, api::TablePtr table,
                 const std::vector<std::string>* rows, ReplacePlanned done) {
  (new CollisionReads(data, txn, std::move(table), rows, std::move(done)))->Start();
}

void StartReplace(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
                  uint64_t last_insert_id, bool records_info, uint64_t warned) {
  auto* run =
      new ReplaceRun(ctx, std::move(table), std::move(rows), last_insert_id, records_info, warned);
  run->Start();
}

}  // namespace shoal::sql::internal
