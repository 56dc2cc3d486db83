// INSERT and REPLACE: every row is evaluated and packed in the router, then all of them go to
// their partitions' primaries in one batch (I1). A multi-row statement runs as one native
// transaction, so that a row that fails (a duplicate key, a full table) rolls the others back:
// the statement has no effect, as in MySQL.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "engine/api/client.h"
#include "engine/schema/row.h"
#include "router/sql/async_statement.h"
#include "router/sql/exec_internal.h"
#include "router/sql/field_codec.h"
#include "router/sql/table_access.h"

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

// The next `count` auto-increment values for `table`, from this thread's reserved range when
// it has them.
std::variant<uint64_t, mysql::SqlError> NextAutoIncrement(const schema::TableDef& table,
                                                          uint64_t count, SessionState* state) {
  DataAccess::AutoIncrementRange& range = state->data->auto_increment[table.id];
  if (range.table_version != table.version) range = {table.version, 0, 0};  // TRUNCATE resets
  if (range.end - range.next < count) {
    wire::DictReq request;
    wire::ReserveAutoIncrement* reserve = request.mutable_reserve_auto_increment();
    reserve->set_table_id(table.id);
    reserve->set_count(std::max(count, kAutoIncrementBatch));
    absl::StatusOr<wire::DictConf> conf = state->data->client().Dictionary(std::move(request));
    if (!conf.ok()) {
      return EngineError(1297, "Got temporary error 4009 'Cluster Failure' from NDBCLUSTER");
    }
    if (conf->error_code() != 0) return EngineError(conf->error_code(), conf->error_message());
    range.next = conf->auto_increment_first();
    range.end = range.next + conf->auto_increment_count();
  }
  uint64_t first = range.next;
  range.next += count;
  return first;
}

// The table columns an INSERT gives values for, in the order of its value lists.
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

// Runs the batch of inserts and finishes the statement once every row has answered. Inside a
// SQL transaction the rows join it; otherwise a multi-row statement gets a transaction of its
// own, committed (or rolled back on the first failure) before the answer.
class InsertRun : public AsyncStatement, public api::Completion {
 public:
  InsertRun(const ExecContext& ctx, api::TablePtr table, std::vector<std::string> rows,
            bool replace, bool ignore, uint64_t last_insert_id)
      : AsyncStatement(ctx),
        table_(std::move(table)),
        rows_(std::move(rows)),
        replace_(replace),
        ignore_(ignore),
        last_insert_id_(last_insert_id),
        session_txn_(StatementTransaction(ctx.state)) {}

  void Start() {
    DataAccess* data_access = data();
    api::Client& client = data_access->client();
    api::Transaction* txn = session_txn_.get();
    if (txn == nullptr && rows_.size() > 1) {
      own_txn_ = client.Begin();
      txn = &own_txn_;
    }
    outstanding_ = 1;  // the loop below; completions may run inside it
    for (const std::string& row : rows_) {
      ++outstanding_;
      if (replace_) {
        client.Write(*table_, row, this, txn);
      } else {
        client.Insert(*table_, row, this, txn);
      }
    }
    data_access->Flush();
    RowDone();
  }

  void Done(const api::Outcome& outcome) override {
    if (ending_) {
      if (!outcome.ok() && !error_) error_ = EngineError(outcome.code, outcome.message);
      return Finish();
    }
    if (outcome.ok()) {
      ++inserted_;
    } else if (ignore_ && outcome.code == 1062 && state() != nullptr) {
      AddWarning(state(), Diagnostic::Level::kWarning, outcome.code, std::string(outcome.message));
      ++duplicates_;
    } else if (!error_) {
      error_ = EngineError(outcome.code, outcome.message);
    }
    RowDone();
  }

 private:
  void RowDone() {
    if (--outstanding_ > 0) return;
    if (session_txn_ == nullptr && rows_.size() > 1) return EndOwnTransaction();
    Finish();
  }

  void EndOwnTransaction() {
    ending_ = true;
    DataAccess* data_access = data();  // `this` may be gone when Commit returns
    if (error_) {
      data_access->client().Rollback(&own_txn_, this);
    } else {
      data_access->client().Commit(&own_txn_, this);
    }
    data_access->Flush();
  }

  void Finish() {
    if (error_) {
      // Some rows of the session's transaction went in and others did not: the statement
      // cannot be undone alone.
      if (session_txn_ != nullptr && (inserted_ > 0 || AbortsTransaction(error_->code))) {
        return DeliverAfterRollback(*error_);
      }
      return Deliver(*error_);
    }
    OkResult ok;
    ok.affected_rows = inserted_;
    ok.last_insert_id = last_insert_id_;
    if (rows_.size() > 1) {
      ok.info = absl::StrCat("Records: ", rows_.size(), "  Duplicates: ", duplicates_,
                             "  Warnings: ", duplicates_);
    }
    if (state() != nullptr && last_insert_id_ != 0) state()->last_insert_id = last_insert_id_;
    Deliver(ok);
  }

  api::TablePtr table_;
  std::vector<std::string> rows_;
  bool replace_, ignore_;
  uint64_t last_insert_id_;
  std::shared_ptr<api::Transaction> session_txn_;
  api::Transaction own_txn_;
  bool ending_ = false;
  int outstanding_ = 0;
  uint64_t inserted_ = 0;
  uint64_t duplicates_ = 0;
  std::optional<mysql::SqlError> error_;
};

}  // namespace

StatementResult ExecuteInsert(const InsertStmt& stmt, const ExecContext& ctx) {
  if (!stmt.on_duplicate.empty()) return mysql::errors::NotSupportedYet("ON DUPLICATE KEY UPDATE");
  auto resolved = ResolveTable(stmt.table, *ctx.state);
  if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
  api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
  auto targets = TargetColumns(stmt, *table);
  if (auto* err = std::get_if<mysql::SqlError>(&targets)) return *err;
  const std::vector<int>& columns = std::get<std::vector<int>>(targets);
  const int auto_column = table->auto_increment_column();
  const int n = static_cast<int>(table->columns.size());

  // Evaluate every value first: the auto-increment values needed are known only then.
  std::vector<std::vector<mysql::Value>> values(stmt.rows.size());
  std::vector<std::vector<bool>> given(stmt.rows.size());
  uint64_t generated = 0;
  EvalContext eval = ctx.Eval();
  for (size_t r = 0; r < stmt.rows.size(); ++r) {
    const std::vector<ExprPtr>& row = stmt.rows[r];
    if (row.size() != columns.size() && !(row.empty() && stmt.columns.empty())) {
      return ColumnCountMismatch(r + 1);
    }
    values[r].assign(n, mysql::Value{});
    given[r].assign(n, false);
    for (size_t i = 0; i < row.size(); ++i) {
      if (row[i]->kind == ExprKind::kDefault) continue;
      auto v = Evaluate(*row[i], &eval);
      if (auto* err = std::get_if<mysql::SqlError>(&v)) return *err;
      values[r][columns[i]] = std::get<mysql::Value>(std::move(v));
      given[r][columns[i]] = true;
    }
    if (auto_column >= 0) {
      const mysql::Value& v = values[r][auto_column];
      bool zero = (std::holds_alternative<int64_t>(v) && std::get<int64_t>(v) == 0) ||
                  (std::holds_alternative<uint64_t>(v) && std::get<uint64_t>(v) == 0);
      if (!given[r][auto_column] || mysql::IsNull(v) || zero) {
        given[r][auto_column] = false;
        ++generated;
      }
    }
  }
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  const bool hidden_key = table->has_hidden_key();
  uint64_t last_insert_id = 0;
  if (hidden_key) generated += stmt.rows.size();  // the hidden key takes from the same counter
  uint64_t next_id = 0;
  if (generated > 0) {
    auto first = NextAutoIncrement(*table, generated, ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&first)) return *err;
    next_id = std::get<uint64_t>(first);
  }

  std::vector<std::string> packed(stmt.rows.size());
  schema::RowWriter writer;
  for (size_t r = 0; r < stmt.rows.size(); ++r) {
    writer.Clear();
    writer.BeginRow(n);
    for (int c = 0; c < n; ++c) {
      const schema::ColumnDef& column = table->columns[c];
      if ((c == auto_column && !given[r][c]) || (hidden_key && c == n - 1)) {
        if (c == auto_column && last_insert_id == 0) last_insert_id = next_id;
        writer.Int(column, static_cast<int64_t>(next_id++));
      } else if (given[r][c]) {
        if (auto err = AppendField(column, values[r][c], static_cast<int>(r + 1), &writer)) {
          return *err;
        }
      } else if (column.default_value) {
        schema::Field field;
        size_t used = 0;
        if (!schema::ReadField(column, *column.default_value, &field, &used)) {
          return mysql::errors::Internal("a stored default does not fit its column");
        }
        writer.Raw(column, field);
      } else if (column.nullable) {
        writer.Null();
      } else {
        return NoDefault(column);
      }
    }
    packed[r] = std::string(writer.view());
  }
  BeginImplicitTransaction(ctx.state);
  auto* run = new InsertRun(ctx, std::move(table), std::move(packed), stmt.replace,
                            stmt.ignore, last_insert_id);
  run->Start();
  return Deferred{};
}

}  // namespace shoal::sql::internal
