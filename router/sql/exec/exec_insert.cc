// INSERT and REPLACE: every row is evaluated and packed in the router, then all of them go to
// their partitions' primaries in one batch (I1); REPLACE into a table with a unique secondary
// index reads what its rows collide with first (exec_replace.cc). A multi-row statement runs as
// one native transaction, so that a row that fails (a duplicate key, a full table) rolls the
// others back: the statement has no effect, as in MySQL.
#include <algorithm>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/load_data_values.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/column_defaults.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/insert_row_alias.h"
#include "router/sql/exec/insert_rows.h"
#include "router/sql/exec/keyed_write_run.h"
#include "router/sql/exec/replace_plan.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

// Values reserved per round trip to the dictionary master (NDB's default prefetch is 1; a
// larger batch saves the round trip for single-row inserts, at the price of gaps when a
// router restarts — which MySQL's own AUTO_INCREMENT also allows).
constexpr uint64_t kAutoIncrementBatch = 256;

mysql::SqlError ColumnCountMismatch(size_t row) {
  return {1136, "21S01", absl::StrCat("Column count doesn't match value count at row ", row)};
}

mysql::SqlError NoDefault(const schema::ColumnDef& column) {
  return {1364, "HY000", absl::StrCat("Field '", column.name, "' doesn't have a default value")};
}

}  // namespace

std::variant<std::vector<int>, mysql::SqlError> TargetColumns(const InsertStmt& stmt,
                                                              const schema::TableDef& table) {
  std::vector<int> columns;
  if (stmt.columns.empty()) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (!table.columns[i].hidden) columns.push_back(static_cast<int>(i));
    }
    return columns;
  }
  for (const std::string& name : stmt.columns) {
    int i = table.FindColumn(name);
    if (i < 0 || table.columns[i].hidden) return mysql::errors::UnknownColumn(name, "field list");
    if (std::find(columns.begin(), columns.end(), i) != columns.end()) {
      return mysql::SqlError{1110, "42000", absl::StrCat("Column '", name, "' specified twice")};
    }
    columns.push_back(i);
  }
  return columns;
}

namespace {

// Runs the batch of inserts and finishes the statement once every row has answered. Inside a
// SQL transaction the rows join it; otherwise a multi-row statement gets a transaction of its
// own, committed (or rolled back on the first failure) before the answer.
class InsertRun : public AsyncStatement, public api::Completion {
 public:
  // `records_info`: the OK carries "Records: …" (a multi-row INSERT, or INSERT … SELECT).
  // `warned`: warnings the rows got before (IGNORE left a row out for a view's CHECK OPTION,
  // or adjusted a value).
  InsertRun(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
            bool replace, bool ignore, uint64_t last_insert_id, bool records_info, uint64_t warned)
      : AsyncStatement(ctx),
        table_(std::move(table)),
        rows_(std::move(rows)),
        warned_(warned),
        records_info_(records_info),
        replace_(replace),
        ignore_(ignore),
        last_insert_id_(last_insert_id),
        session_txn_(StatementTransaction(ctx.state)),
        foreign_keys_(ForeignKeysApplyToInserts(*table_, *ctx.state, replace)),
        own_txn_used_(session_txn_ == nullptr && (rows_.size() > 1 || foreign_keys_)) {}

  void Start() {
    if (own_txn_used_) own_txn_ = data()->client().Begin();
    // INSERT IGNORE skips the rows whose parents are missing, so it looks for them first.
    if (foreign_keys_ && ignore_ && !table_->foreign_keys.empty()) {
      return FindMissingParents(
          data(), data()->client().dictionary(), txn(), table_, rows_,
          [this](std::optional<mysql::SqlError> error, MissingParents missing) {
            if (error) {
              error_ = std::move(error);
              outstanding_ = 1;
              return RowDone();  // ends the statement's own transaction, if any
            }
            SkipOrphans(missing);
            Write();
          });
    }
    Write();
  }

  void Done(const api::Outcome& outcome) override {
    if (ending_) {
      if (!outcome.ok() && !error_) error_ = EngineError(outcome.code, outcome.message);
      return Finish();
    }
    if (outcome.ok()) {
      inserted_ += outcome.replaced ? 2 : 1;  // MySQL: a replaced row is deleted and inserted
      replaced_ += outcome.replaced;
    } else if (ignore_ && outcome.code == 1062 && state() != nullptr) {
      AddWarning(state(), Diagnostic::Level::kWarning, outcome.code, std::string(outcome.message));
      ++duplicates_;
    } else if (!error_) {
      error_ = EngineError(outcome.code, outcome.message);
    }
    RowDone();
  }

 private:
  api::Transaction* txn() { return own_txn_used_ ? &own_txn_ : session_txn_.get(); }

  void Write() {
    DataAccess* data_access = data();
    api::Client& client = data_access->client();
    outstanding_ = 1;  // the loop below; completions may run inside it
    for (const std::string& row : rows_) {
      ++outstanding_;
      if (replace_) {
        client.Write(*table_, row, this, txn());
      } else {
        client.Insert(*table_, row, this, txn());
      }
    }
    // The parents of a plain INSERT's rows do not depend on those rows unless the table
    // references itself: they are looked up in the same batch as the inserts, a round trip
    // saved.
    if (foreign_keys_ && !replace_ && !ReferencesItself(*table_)) CheckForeignKeysOfRows();
    data_access->Flush();
    RowDone();
  }

  static bool ReferencesItself(const schema::TableDef& table) {
    return std::any_of(table.foreign_keys.begin(), table.foreign_keys.end(), [&](const auto& fk) {
      return fk.parent_database == table.database && fk.parent_table == table.name;
    });
  }

  // For savepoints: every row went in where none was, unless IGNORE skipped some (which, it
  // does not say) or REPLACE replaced some (what, it does not say).
  void RecordInserted() {
    StatementUndo undo(state());
    if (duplicates_ > 0 || replaced_ > 0) undo.Lose();
    for (const std::string& row : rows_) {
      std::string key;
      api::Client::KeyOfRow(*table_, row, &key);
      undo.Record(table_, std::move(key), "");
    }
    undo.Keep(state());
  }

  // Drops the rows `missing` marks, each with its 1452 as a warning.
  void SkipOrphans(const MissingParents& missing) {
    std::vector<std::string> kept;
    for (size_t r = 0; r < rows_.size(); ++r) {
      if (r < missing.size() && missing[r]) {
        if (state() != nullptr) {
          AddWarning(state(), Diagnostic::Level::kWarning, missing[r]->code, missing[r]->message);
        }
        ++skipped_;
        continue;
      }
      kept.push_back(std::move(rows_[r]));
    }
    rows_ = std::move(kept);
  }

  void RowDone() {
    if (--outstanding_ > 0) return;
    if (foreign_keys_ && !checked_ && !error_) return CheckForeignKeysOfRows();
    if (own_txn_used_) return EndOwnTransaction();
    Finish();
  }

  // After the writes, before the commit: the references the rows make, and, for REPLACE into a
  // table others reference, the children of the rows it replaced (as MySQL's REPLACE, a
  // delete and an insert, the key's old row is taken to reference what the new one does).
  void CheckForeignKeysOfRows() {
    checked_ = true;
    if (replace_) NoteCascades(state(), *table_);
    std::shared_ptr<const api::Dictionary> dictionary = data()->client().dictionary();
    const bool replaced =
        replace_ && dictionary != nullptr && dictionary->ReferencesTo(*table_) != nullptr;
    std::vector<RowChange> changes;
    for (const std::string& row : rows_) {
      if (replaced) changes.push_back({row, ""});
      changes.push_back({"", row});
    }
    ++outstanding_;
    CheckForeignKeys(data(), std::move(dictionary), txn(), table_, std::move(changes),
                     [this](std::optional<mysql::SqlError> error) {
                       if (error && !error_) error_ = std::move(error);
                       RowDone();
                     });
  }

  void EndOwnTransaction() {
    ending_ = true;
    EndTransaction(&own_txn_, !error_, this);
  }

  void Finish() {
    // Rows of the session's transaction that went in cannot be taken out alone.
    if (error_) return DeliverFailure(*error_, session_txn_ != nullptr, inserted_ > 0);
    if (RecordsUndo(state())) RecordInserted();
    // As MySQL: Duplicates counts the rows IGNORE skipped and those REPLACE replaced.
    Deliver(WriteOk({inserted_, last_insert_id_, rows_.size() + skipped_,
                     duplicates_ + skipped_ + replaced_, duplicates_ + skipped_ + warned_},
                    records_info_, state()));
  }

  api::TablePtr table_;
  std::vector<std::string> rows_;
  uint64_t warned_;
  bool records_info_;
  bool replace_, ignore_;
  uint64_t last_insert_id_;
  std::shared_ptr<api::Transaction> session_txn_;
  const bool foreign_keys_;  // the rows' foreign keys are checked (foreign_keys.h)
  const bool own_txn_used_;  // outside a SQL transaction: several rows, or checks, need one
  api::Transaction own_txn_;
  bool ending_ = false;
  bool checked_ = false;
  int outstanding_ = 0;
  uint64_t inserted_ = 0;
  uint64_t duplicates_ = 0;
  uint64_t skipped_ = 0;   // INSERT IGNORE's rows without their parent
  uint64_t replaced_ = 0;  // REPLACE's rows that were there
  std::optional<mysql::SqlError> error_;
};

// INSERT … ON DUPLICATE KEY UPDATE: every row's primary key is read with an exclusive lock
// (in the session's transaction or one of the statement's own); rows not there are inserted,
// the others rewritten with the assignments, where VALUES(col) is the value the row would
// have inserted. Affected rows as MySQL counts them: 1 per insert, 2 per changed row, 0 per
// unchanged one. A row that collides on a unique secondary key updates the row holding it.
class UpsertRun : public KeyedWriteRun {
 public:
  // `new_row` names the inserted row's columns for the assignments (NewRowColumns).
  UpsertRun(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
            const std::vector<Assignment>& assignments, NewRowColumns new_row,
            uint64_t last_insert_id, bool records_info)
      : KeyedWriteRun(ctx, table, ForeignKeysApply(*table, *ctx.state)),
        rows_(std::move(rows)),
        records_info_(records_info),
        assignments_(assignments),
        new_row_(std::move(new_row)),
        last_insert_id_(last_insert_id),
        utc_offset_(SessionUtcOffset(*ctx.state)) {
    for (size_t i = 0; i < table_->columns.size(); ++i) {
      all_columns_.push_back(static_cast<uint16_t>(i));
      row_columns_.push_back(ResultColumn(*table_, static_cast<int>(i),
                                          ResultCollationId(*ctx.state),
                                          ResultCharsetMaxLen(*ctx.state)));
    }
    // The stored row's columns, then the inserted row's under their alias names: unqualified
    // names find the stored row first, as ON DUPLICATE KEY UPDATE reads them.
    scope_columns_ = row_columns_;
    for (const auto& [name, column] : new_row_.columns) {
      mysql::ColumnDefinition def = row_columns_[column];
      def.table = new_row_.alias;
      def.name = name;
      scope_columns_.push_back(std::move(def));
    }
    for (size_t i = 1; i < table_->indexes.size(); ++i) {
      if (table_->indexes[i].unique) unique_indexes_.push_back(static_cast<int>(i));
    }
    existing_.resize(rows_.size() * (1 + unique_indexes_.size()));
  }

  // Each row's key is read, and each of its unique keys (NULLs have none): whatever the rows
  // collide with is locked and known before anything is written.
  void Start() {
    DataAccess* data_access = data();
    BeginOwnTransaction();
    outstanding_ = 1;
    for (size_t r = 0; r < rows_.size(); ++r) {
      std::string key;
      api::Client::KeyOfRow(*table_, rows_[r], &key);
      ++outstanding_;
      reads_.push_back(std::make_unique<ReadInto>(this, Slot(r, 0)));
      data_access->client().Read(*table_, key, all_columns_, reads_.back().get(), txn(),
                                 api::Lock::kExclusive);
      for (size_t u = 0; u < unique_indexes_.size(); ++u) {
        if (!schema::KeyOfRow(*table_, unique_indexes_[u], rows_[r], &key)) continue;
        ++outstanding_;
        reads_.push_back(std::make_unique<ReadInto>(this, Slot(r, u + 1)));
        data_access->client().ReadUnique(*table_, unique_indexes_[u], key, all_columns_,
                                         reads_.back().get(), txn(), api::Lock::kExclusive);
      }
    }
    data_access->Flush();
    OpDone();
  }

 private:
  // One read: remembers the row stored under a row's primary key (key 0) or its unique key u
  // (key u + 1).
  struct ReadInto : api::Completion {
    ReadInto(UpsertRun* owner, size_t index) : run(owner), slot(index) {}
    void Done(const api::Outcome& outcome) override {
      if (outcome.ok()) {
        run->existing_[slot] = std::string(outcome.row);
      } else if (!outcome.not_found() && !run->error_) {
        run->error_ = EngineError(outcome.code, outcome.message);
      }
      run->OpDone();
    }
    UpsertRun* run;
    size_t slot;
  };

  size_t Slot(size_t row, size_t key) const { return row * (1 + unique_indexes_.size()) + key; }

  std::vector<mysql::Value> Decode(const std::string& packed) {
    std::vector<schema::Field> fields(all_columns_.size());
    std::vector<mysql::Value> values;
    size_t used = 0;
    if (!schema::SplitRow(*table_, all_columns_, packed, fields.data(), &used)) return values;
    for (size_t c = 0; c < fields.size(); ++c) {
      values.push_back(fields[c].null ? mysql::Value{}
                                      : DecodeField(table_->columns[c], fields[c], utc_offset_));
    }
    return values;
  }

  // VALUES(col) calls in the assignments, with the value and type of `col` in `inserted`.
  void BindValuesCalls(const Expr& e, const std::vector<mysql::Value>& inserted,
                       absl::flat_hash_map<const Expr*, mysql::Value>* values,
                       absl::flat_hash_map<const Expr*, mysql::ColumnDefinition>* types) {
    if (e.kind == ExprKind::kFunction && e.name == "VALUES" && e.args.size() == 1) {
      int c = table_->FindColumn(e.args[0]->name);
      (*values)[&e] = c >= 0 ? inserted[c] : mysql::Value{};
      (*types)[&e] = c >= 0 ? row_columns_[c] : NullColumn();
      return;
    }
    for (const ExprPtr& a : e.args) BindValuesCalls(*a, inserted, values, types);
  }

  // The row as the assignments leave it, or an error.
  std::variant<std::string, mysql::SqlError> Updated(const std::string& stored,
                                                     const std::string& inserted, int row) {
    std::vector<mysql::Value> values = Decode(stored);
    std::vector<mysql::Value> new_values = Decode(inserted);
    if (values.size() != all_columns_.size() || new_values.size() != all_columns_.size()) {
      return mysql::errors::Internal("a malformed row");
    }
    ExecContext ctx = context();
    EvalContext eval = ctx.Eval();
    // Each assignment sees the ones before it (c = c + 1, d = c: d gets the new c).
    const size_t stored_width = values.size();
    for (const auto& [name, column] : new_row_.columns) values.push_back(new_values[column]);
    eval.row_columns = &scope_columns_;
    eval.row = &values;
    std::vector<bool> assigned(stored_width);
    for (const Assignment& a : assignments_) {
      int c = table_->FindColumn(a.column);
      if (c < 0 || table_->columns[c].hidden) {
        return mysql::errors::UnknownColumn(a.column, "field list");
      }
      assigned[c] = true;
      absl::flat_hash_map<const Expr*, mysql::Value> bound;
      absl::flat_hash_map<const Expr*, mysql::ColumnDefinition> bound_types;
      BindValuesCalls(*a.value, new_values, &bound, &bound_types);
      eval.aggregate_values = &bound;
      eval.aggregate_types = &bound_types;
      auto v = Evaluate(*a.value, &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      values[c] = std::get<mysql::Value>(std::move(v));
    }
    values.resize(stored_width);
    auto packed = Pack(values, row);
    if (auto* err = std::get_if<mysql::SqlError>(&packed)) return *err;
    // The update part follows UPDATE's ON UPDATE rule: only a row it changes moves.
    if (std::get<std::string>(packed) == stored || !HasOnUpdateNow(*table_)) return packed;
    TouchOnUpdateColumns(*table_, assigned, ctx, &values);
    return Pack(values, row);
  }

  std::variant<std::string, mysql::SqlError> Pack(const std::vector<mysql::Value>& values,
                                                  int row) {
    schema::RowWriter writer;
    writer.BeginRow(static_cast<int>(values.size()));
    for (size_t c = 0; c < values.size(); ++c) {
      if (auto err = AppendField(table_->columns[c], values[c], row, &writer, {}, utc_offset_)) {
        return *err;
      }
    }
    return std::string(writer.view());
  }

  // What row `r` collides with, as MySQL finds it: on the primary key, else on the first
  // unique key in index order; a row this statement already wrote (`pending`,
  // `pending_unique`) before what was stored. `stored` is null when nothing is there, and
  // `key` then the row's own primary key.
  struct Collision {
    std::string key;
    const std::string* stored = nullptr;
    bool pending = false;  // `stored` is a row of this statement's
  };
  // The packed key of index `index` of `row` in its collation form: rows of one statement
  // whose keys a _ci collation holds equal collide, as they would in the data nodes. Nullopt
  // when the row has no such key (a NULL in a unique key).
  std::optional<std::string> KeyFormOfRow(int index, const std::string& row) const {
    std::string key, form;
    if (!schema::KeyOfRow(*table_, index, row, &key)) return std::nullopt;
    absl::string_view folded = schema::KeyForm(*table_, index, key, &form);
    return folded.data() == key.data() ? std::move(key) : std::string(folded);
  }

  Collision CollisionOf(
      size_t r, const absl::flat_hash_map<std::string, std::string>& pending,
      const std::vector<absl::flat_hash_map<std::string, std::string>>& pending_unique) {
    Collision c;
    auto at_key = [&](const std::string* stored_row) {
      if (auto it = pending.find(c.key); it != pending.end()) {
        c.stored = &it->second;
        c.pending = true;
      } else {
        c.stored = stored_row;
      }
      return c;
    };
    c.key = KeyFormOfRow(0, rows_[r]).value_or("");
    const std::string own_key = c.key;
    const auto& by_key = existing_[Slot(r, 0)];
    if (pending.contains(c.key) || by_key) return at_key(by_key ? &*by_key : nullptr);
    for (size_t u = 0; u < unique_indexes_.size(); ++u) {
      std::optional<std::string> unique_key = KeyFormOfRow(unique_indexes_[u], rows_[r]);
      if (!unique_key) continue;
      if (auto it = pending_unique[u].find(*unique_key); it != pending_unique[u].end()) {
        c.key = it->second;
        return at_key(nullptr);
      }
      if (const auto& stored = existing_[Slot(r, u + 1)]) {
        c.key = KeyFormOfRow(0, *stored).value_or("");
        return at_key(&*stored);
      }
    }
    c.key = own_key;
    return c;
  }

  void Write() override {
    phase_ = Phase::kWrite;
    if (error_ || state() == nullptr) return End();
    DataAccess* data_access = data();
    outstanding_ = 1;
    // A key repeated within the statement updates what the earlier row made of it.
    absl::flat_hash_map<std::string, std::string> pending;  // key → row as it will be
    absl::flat_hash_map<std::string, std::string> before;   // key → row as it was, if any
    // Per unique index: its key in a pending row → that row's primary key.
    std::vector<absl::flat_hash_map<std::string, std::string>> pending_unique(
        unique_indexes_.size());
    auto note_unique_keys = [&](const std::string& key, const std::string& row) {
      for (size_t u = 0; u < unique_indexes_.size(); ++u) {
        if (std::optional<std::string> unique_key = KeyFormOfRow(unique_indexes_[u], row)) {
          pending_unique[u][*unique_key] = key;
        }
      }
    };
    std::vector<std::string> order;
    for (size_t r = 0; r < rows_.size(); ++r) {
      const Collision collision = CollisionOf(r, pending, pending_unique);
      const std::string& key = collision.key;
      if (collision.stored == nullptr) {
        pending[key] = rows_[r];
        note_unique_keys(key, rows_[r]);
        order.push_back(key);
        affected_ += 1;
        continue;
      }
      const std::string* stored = collision.stored;
      if (!collision.pending) before[key] = *stored;
      auto updated = Updated(*stored, rows_[r], static_cast<int>(r + 1));
      if (auto* err = std::get_if<mysql::SqlError>(&updated)) {
        error_ = *err;
        break;
      }
      std::string& next = std::get<std::string>(updated);
      if (next == *stored) continue;
      affected_ += 2;
      ++updated_;
      if (!collision.pending) order.push_back(key);
      note_unique_keys(key, next);
      pending[key] = std::move(next);
    }
    if (!error_) {
      for (const std::string& key : order) {
        ++outstanding_;
        data_access->client().Write(*table_, pending[key], this, txn());
        undo_.Record(table_, key, before[key]);
        if (foreign_keys_) changes_.push_back({std::move(before[key]), pending[key]});
      }
    }
    data_access->Flush();
    OpDone();
  }

  void Finish() override {
    if (error_) return DeliverFailure(*error_, in_session_txn(), true);
    undo_.Keep(state());
    Deliver(
        WriteOk({affected_, last_insert_id_, rows_.size(), updated_, 0}, records_info_, state()));
  }

  std::vector<std::string> rows_;
  bool records_info_;
  const std::vector<Assignment>& assignments_;  // the statement's: kept alive by the owner
  NewRowColumns new_row_;
  std::vector<mysql::ColumnDefinition> scope_columns_;  // row_columns_, then new_row_'s
  uint64_t last_insert_id_;
  std::vector<uint16_t> all_columns_;
  std::vector<mysql::ColumnDefinition> row_columns_;
  std::vector<int> unique_indexes_;  // positions in table_->indexes
  // Per row, what is stored under its primary key and under each of its unique keys (Slot).
  std::vector<std::optional<std::string>> existing_;
  std::vector<std::unique_ptr<ReadInto>> reads_;
  const int utc_offset_;  // the session's time zone, for TIMESTAMP values
  uint64_t affected_ = 0;
  uint64_t updated_ = 0;  // rows ON DUPLICATE KEY UPDATE changed (the info's "Duplicates")
};

}  // namespace

bool WantsGeneratedValue(const mysql::Value& v, bool given) {
  bool zero = (std::holds_alternative<int64_t>(v) && std::get<int64_t>(v) == 0) ||
              (std::holds_alternative<uint64_t>(v) && std::get<uint64_t>(v) == 0);
  return !given || mysql::IsNull(v) || zero;
}

uint64_t GeneratedValuesPerRow(const schema::TableDef& table, bool auto_given) {
  uint64_t n = table.has_hidden_key() ? 1 : 0;
  if (table.auto_increment_column() >= 0 && !auto_given) ++n;
  return n;
}

AutoIncrementRange& WorkerAutoIncrement(const schema::TableDef& table, DataAccess* data) {
  AutoIncrementRange& range = data->auto_increment[table.id];
  if (range.table_version != table.version) {
    range = AutoIncrementRange();
    range.table_version = table.version;
  }
  return range;
}

std::optional<uint64_t> TakeAutoIncrement(const schema::TableDef& table, uint64_t count,
                                          DataAccess* data) {
  return WorkerAutoIncrement(table, data).Take(count);
}

DictionaryFetch ReserveAutoIncrement(const schema::TableDef& table, uint64_t count,
                                     DataAccess* data, uint64_t at_least) {
  DictionaryFetch fetch;
  wire::ReserveAutoIncrement* reserve = fetch.request.mutable_reserve_auto_increment();
  reserve->set_table_id(table.id);
  reserve->set_count(std::max(count, kAutoIncrementBatch));
  reserve->set_at_least(at_least);
  fetch.apply = [data, id = table.id, version = table.version](
                    const absl::StatusOr<wire::DictConf>& conf) -> std::optional<mysql::SqlError> {
    if (!conf.ok()) return ClusterFailure();
    if (conf->error_code() != 0) return EngineError(conf->error_code(), conf->error_message());
    AutoIncrementRange& range = data->auto_increment[id];
    if (range.table_version != version) {
      range = AutoIncrementRange();
      range.table_version = version;
    }
    range.Add(conf->auto_increment_first(), conf->auto_increment_count());
    return std::nullopt;
  };
  return fetch;
}

std::optional<uint64_t> StoredAutoIncrement(const schema::TableDef& table,
                                            absl::string_view packed) {
  const int c = table.auto_increment_column();
  if (c < 0) return std::nullopt;
  std::vector<uint16_t> columns(static_cast<size_t>(c) + 1);
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<uint16_t>(i);
  std::vector<schema::Field> fields(columns.size());
  size_t consumed = 0;
  if (!schema::SplitRow(table, columns, packed, fields.data(), &consumed)) return std::nullopt;
  const schema::Field& f = fields[c];
  const schema::ColumnDef& column = table.columns[c];
  if (f.null) return std::nullopt;
  if (schema::IsInteger(column.type)) {
    if (column.is_unsigned) return schema::FieldUint(column, f.bytes);
    int64_t v = schema::FieldInt(column, f.bytes);
    if (v > 0) return static_cast<uint64_t>(v);
    return std::nullopt;
  }
  if (column.type == schema::ColumnType::kFloat || column.type == schema::ColumnType::kDouble) {
    double v = schema::FieldDouble(column, f.bytes);
    // Past 2^64 the counter is spent: the next generated value fails with 1467.
    if (v >= 18446744073709551615.0) return UINT64_MAX;
    if (v >= 1) return static_cast<uint64_t>(v);
  }
  return std::nullopt;
}

std::optional<mysql::SqlError> PackRow(const schema::TableDef& table,
                                       const std::vector<bool>& given, AppendGiven append,
                                       const ExecContext& ctx, uint64_t* next_id,
                                       uint64_t* first_auto, schema::RowWriter* out) {
  const int n = static_cast<int>(table.columns.size());
  const int auto_column = table.auto_increment_column();
  const bool hidden_key = table.has_hidden_key();
  out->Clear();
  out->BeginRow(n);
  for (int c = 0; c < n; ++c) {
    const schema::ColumnDef& column = table.columns[c];
    if ((c == auto_column && !given[c]) || (hidden_key && c == n - 1)) {
      if (c == auto_column && *first_auto == 0) *first_auto = *next_id;
      out->Int(column, static_cast<int64_t>((*next_id)++));
    } else if (given[c]) {
      if (auto err = append(c, out)) return err;
    } else if (column.default_now) {
      if (auto err = AppendField(column, CurrentTimeOf(column, ctx), 1, out, {},
                                 SessionUtcOffset(*ctx.state))) {
        return err;
      }
    } else if (column.default_value) {
      schema::Field field;
      size_t used = 0;
      if (!schema::ReadField(column, *column.default_value, &field, &used)) {
        return mysql::errors::Internal("a stored default does not fit its column");
      }
      out->Raw(column, field);
    } else if (column.nullable) {
      out->Null();
    } else {
      return NoDefault(column);
    }
  }
  return std::nullopt;
}

void RowsToInsert::Add(const schema::TableDef& table, const std::vector<int>& columns,
                       std::vector<std::optional<mysql::Value>> row) {
  const int auto_column = table.auto_increment_column();
  std::vector<mysql::Value>& v = values.emplace_back(table.columns.size());
  std::vector<bool>& g = given.emplace_back(table.columns.size(), false);
  for (size_t i = 0; i < row.size(); ++i) {
    if (!row[i]) continue;  // DEFAULT
    v[columns[i]] = std::move(*row[i]);
    g[columns[i]] = true;
  }
  if (auto_column >= 0 && WantsGeneratedValue(v[auto_column], g[auto_column])) {
    g[auto_column] = false;
    ++generated;
  }
}

namespace {

// WITH CHECK OPTION of the view an INSERT writes through (InsertStmt::check): each packed row,
// decoded, must satisfy the view's condition — 1369, or with IGNORE a warning and no row.
class ViewCheck {
 public:
  ViewCheck(const InsertStmt& stmt, const schema::TableDef& table, const ExecContext& ctx)
      : stmt_(stmt), table_(table), ctx_(ctx) {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      all_.push_back(static_cast<uint16_t>(c));
      columns_.push_back(ResultColumn(table, static_cast<int>(c), ResultCollationId(*ctx.state),
                                      ResultCharsetMaxLen(*ctx.state)));
    }
  }

  std::variant<bool, mysql::SqlError> Passes(absl::string_view packed) {
    values_.clear();
    if (!DecodeRow(table_, all_, packed, &scratch_, &values_, SessionUtcOffset(*ctx_.state))) {
      return mysql::SqlError{1105, "HY000", "a row to insert did not decode"};
    }
    EvalContext eval = ctx_.Eval();
    eval.row_columns = &columns_;
    eval.row = &values_;
    eval.clause = "where clause";
    auto v = Evaluate(*stmt_.check, &eval);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
    if (Truth(std::get<mysql::Value>(v)) == 1) return true;
    size_t dot = stmt_.check_view.find('.');
    mysql::SqlError failed{1369, "HY000",
                           absl::StrCat("CHECK OPTION failed '", stmt_.check_view.substr(0, dot),
                                        ".", stmt_.check_view.substr(dot + 1), "'")};
    if (!stmt_.ignore) return failed;
    AddWarning(ctx_.state, Diagnostic::Level::kWarning, failed.code, failed.message);
    return false;
  }

 private:
  const InsertStmt& stmt_;
  const schema::TableDef& table_;
  const ExecContext& ctx_;
  std::vector<uint16_t> all_;
  std::vector<mysql::ColumnDefinition> columns_;
  std::vector<schema::Field> scratch_;
  std::vector<mysql::Value> values_;
};

}  // namespace

OkResult WriteOk(const WriteCounts& counts, bool records_info, SessionState* state) {
  OkResult ok;
  ok.affected_rows = counts.affected;
  ok.last_insert_id = counts.last_insert_id;
  if (records_info) {
    ok.info = absl::StrCat("Records: ", counts.records, "  Duplicates: ", counts.duplicates,
                           "  Warnings: ", counts.warnings);
  }
  if (state != nullptr && counts.last_insert_id != 0) state->last_insert_id = counts.last_insert_id;
  return ok;
}

StatementResult InsertRows(const InsertStmt& stmt, api::TablePtr table, RowsToInsert rows,
                           const ExecContext& ctx) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  const size_t count = rows.values.size();
  uint64_t generated = rows.generated;
  uint64_t last_insert_id = 0;
  if (table->has_hidden_key()) generated += count;  // the hidden key takes from that counter
  const bool has_auto_column = table->auto_increment_column() >= 0;
  // The rows take their values in order, as MySQL's counter moves: a generated value after an
  // explicit one is above it (auto_increment_range.h). When the worker lacks values, the
  // statement stops to reserve them and runs again.
  std::optional<AutoIncrementWalk> walk;
  if (generated > 0 || has_auto_column) walk.emplace(WorkerAutoIncrement(*table, ctx.state->data));
  auto reserve = [&] {
    return WantDictionary(
        *ctx.state, ReserveAutoIncrement(*table, generated, ctx.state->data, walk->at_least()));
  };

  const bool records_info = count > 1 || stmt.select != nullptr;
  std::vector<std::string> packed;
  packed.reserve(count);
  schema::RowWriter writer;
  const int utc_offset = SessionUtcOffset(*ctx.state);
  std::optional<ViewCheck> check;
  if (stmt.check != nullptr) check.emplace(stmt, *table, ctx);
  uint64_t conversion_warnings = 0;
  for (size_t r = 0; r < count; ++r) {
    const int row = static_cast<int>(r + 1);
    const bool auto_given = has_auto_column && rows.given[r][table->auto_increment_column()];
    uint64_t next_id = 0;
    if (uint64_t needed = GeneratedValuesPerRow(*table, auto_given); needed > 0) {
      std::optional<uint64_t> first = walk->Generate(needed);
      if (!first) return reserve();
      next_id = *first;
    }
    // IGNORE stores what the column can hold, with a warning, as LOAD DATA does.
    auto append = [&](int c, schema::RowWriter* out) -> std::optional<mysql::SqlError> {
      if (!stmt.ignore) {
        return AppendField(table->columns[c], rows.values[r][c], row, out, table->name, utc_offset);
      }
      std::vector<Diagnostic> warnings;
      auto err = AppendLoadedValue(table->columns[c], rows.values[r][c], r + 1, utc_offset, out,
                                   &warnings, IgnoredBy::kInsert);
      for (const Diagnostic& w : warnings) AddWarning(ctx.state, w.level, w.code, w.message);
      conversion_warnings += warnings.size();
      return err;
    };
    if (auto err =
            PackRow(*table, rows.given[r], append, ctx, &next_id, &last_insert_id, &writer)) {
      return *err;
    }
    if (check) {
      auto passed = check->Passes(writer.view());
      if (auto* err = std::get_if<mysql::SqlError>(&passed)) return *err;
      if (!std::get<bool>(passed)) continue;  // INSERT IGNORE: skipped, with a warning
    }
    if (auto_given) {
      if (auto stored = StoredAutoIncrement(*table, writer.view())) walk->Explicit(*stored);
    }
    packed.emplace_back(writer.view());
  }
  if (walk) {
    // An explicit value past every value the master handed this worker: the master's counter
    // moves past it before the row is written, so no router is handed it afterwards.
    if (walk->NeedsMaster()) return reserve();
    ctx.state->data->auto_increment[table->id] = walk->range();
  }
  auto new_row = NameNewRow(stmt, *table);
  if (auto* err = std::get_if<mysql::SqlError>(&new_row)) return *err;
  BeginImplicitTransaction(ctx.state);
  NoteTransactionWrite(ctx.state);
  if (!stmt.on_duplicate.empty()) {
    if (stmt.replace) return mysql::errors::ParseError("ON DUPLICATE KEY UPDATE", 1);
    auto* upsert =
        new UpsertRun(ctx, std::move(table), std::move(packed), stmt.on_duplicate,
                      std::get<NewRowColumns>(std::move(new_row)), last_insert_id, records_info);
    upsert->Start();
    return Deferred{};
  }
  // Each row left out, and each value IGNORE adjusted, has its warning.
  const uint64_t left_out = count - packed.size();
  const uint64_t warned = left_out + conversion_warnings;
  if (packed.empty()) {  // IGNORE left every row out
    OkResult ok;
    if (records_info) {
      ok.info = absl::StrCat("Records: 0  Duplicates: 0  Warnings: ", warned);
    }
    return ok;
  }
  if (stmt.replace && HasUniqueSecondaryIndex(*table)) {
    StartReplace(ctx, std::move(table), std::move(packed), last_insert_id, records_info, warned);
    return Deferred{};
  }
  auto* run = new InsertRun(ctx, std::move(table), std::move(packed), stmt.replace, stmt.ignore,
                            last_insert_id, records_info, warned);
  run->Start();
  return Deferred{};
}

StatementResult ExecuteInsert(const InsertStmt& stmt, const ExecContext& ctx) {
  auto resolved = ResolveTableToWrite(stmt.table, "", *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  auto targets = TargetColumns(stmt, *table);
  if (auto* err = std::get_if<mysql::SqlError>(&targets)) return *err;
  std::vector<int>& columns = std::get<std::vector<int>>(targets);
  if (stmt.select) return ExecuteInsertSelect(stmt, std::move(table), std::move(columns), ctx);

  // Evaluate every value first: the auto-increment values needed are known only then.
  RowsToInsert rows;
  EvalContext eval = ctx.Eval();
  for (size_t r = 0; r < stmt.rows.size(); ++r) {
    const std::vector<ExprPtr>& row = stmt.rows[r];
    if (row.size() != columns.size() && !(row.empty() && stmt.columns.empty())) {
      return ColumnCountMismatch(r + 1);
    }
    std::vector<std::optional<mysql::Value>> values(row.size());
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i]->kind == ExprKind::kDefault) continue;
      int named = -1;
      if (auto d = DefaultCallValue(*row[i], *table, ctx, &named)) {
        // DEFAULT(c) in c's own place is DEFAULT (an AUTO_INCREMENT column's next value too).
        if (named == columns[i]) continue;
        if (auto* err = std::get_if<mysql::SqlError>(&*d)) return *err;
        values[i] = std::get<mysql::Value>(std::move(*d));
        continue;
      }
      auto v = Evaluate(*row[i], &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      values[i] = std::get<mysql::Value>(std::move(v));
    }
    rows.Add(*table, columns, std::move(values));
  }
  return InsertRows(stmt, std::move(table), std::move(rows), ctx);
}

}  // namespace shoal::sql::internal
