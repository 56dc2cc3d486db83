// Multi-table UPDATE and DELETE: `UPDATE t1 JOIN t2 ON … SET t1.a = t2.b WHERE …`,
// `DELETE t1 FROM t1 JOIN t2 …`, `DELETE FROM t1 USING t1 JOIN t2 …`. The join runs first as a
// child SELECT (async_statement.h) reading, for every target table, its whole row (UPDATE) or
// its key (DELETE), and the SET values; then each target row found — once, however many joined
// rows name it; for UPDATE with the first one's values, as MySQL — is rewritten or deleted by
// key, all in one batch and one transaction: the session's, or one of the statement's own that
// the SELECT reads in too, so that what it read is locked until the writes commit. UPDATE
// sends each row the SET's values as an update program, so a row deleted meanwhile is not
// written back. A SET may not change a key column here (1235).
#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/async_statement.h"
#include "router/sql/exec/column_defaults.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/foreign_keys.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/semi_join.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using Values = std::vector<mysql::Value>;

ExprPtr Copy(const Expr& e) { return RequalifiedCopy(e, "", {}, ""); }

// `value` as `column` stores it (nullopt: NULL), with strict mode's conversion errors; a
// TIMESTAMP is read in the time zone `utc_offset` seconds east of UTC (the session's).
std::variant<std::optional<std::string>, mysql::SqlError> StoredField(
    const schema::ColumnDef& column, const mysql::Value& value, int utc_offset) {
  if (mysql::IsNull(value)) return std::optional<std::string>{};
  auto field = EncodeField(column, value, 1, utc_offset);
  if (auto* err = std::get_if<mysql::SqlError>(&field)) return *err;
  return std::optional<std::string>{std::get<std::string>(std::move(field))};
}

ExprPtr ColumnRef(const std::string& qualifier, const std::string& name) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kColumn;
  e->qualifier = qualifier;
  e->name = name;
  return e;
}

// A table rows are changed in: where its values sit in the joined SELECT's rows.
struct Target {
  std::string qualifier;  // its alias in the statement, else its name
  api::TablePtr table;
  size_t first = 0;                                 // its first column in the SELECT's row
  std::vector<std::pair<int, size_t>> assignments;  // UPDATE: table column, SET value's item
  bool foreign_keys = false;  // its rows' foreign keys are checked (foreign_keys.h)
};

// A target's row in the joined SELECT's `row`, packed, before the statement (`assignments`
// null) or after it; nullopt when a value does not fit (the write itself then fails).
std::optional<std::string> PackedRow(const Target& target, const Values& row,
                                     const std::vector<std::pair<int, size_t>>* assignments,
                                     int utc_offset) {
  const schema::TableDef& table = *target.table;
  schema::RowWriter writer;
  writer.BeginRow(static_cast<int>(table.columns.size()));
  for (size_t c = 0; c < table.columns.size(); ++c) {
    size_t item = target.first + c;
    if (assignments != nullptr) {
      for (const auto& [column, value] : *assignments) {
        if (column == static_cast<int>(c)) item = value;
      }
    }
    if (AppendField(table.columns[c], row[item], 1, &writer, {}, utc_offset)) return std::nullopt;
  }
  return std::string(writer.view());
}

class MultiModifyRun : public ParentStatement, public api::Completion {
 public:
  MultiModifyRun(const ExecContext& ctx, bool update, std::vector<Target> targets,
                 std::unique_ptr<SelectStmt> select)
      : ParentStatement(ctx),
        update_(update),
        targets_(std::move(targets)),
        select_(std::move(select)),
        session_txn_(StatementTransaction(ctx.state)),
        undo_(ctx.state),
        utc_offset_(SessionUtcOffset(*ctx.state)) {}

  // A statement that ended before its writes (the SELECT failed, the client went away) rolls
  // its own transaction back, releasing what the SELECT locked.
  ~MultiModifyRun() override {
    if (own_txn_ != nullptr && !ending_) RollbackInBackground(data(), std::move(own_txn_));
  }

  void Start() {
    ExecContext child = context();
    if (session_txn_ == nullptr) {  // a statement of its own: the SELECT locks in it
      own_txn_ = std::make_shared<api::Transaction>(data()->client().Begin());
      child.statement_txn = own_txn_;
    }
    RunChild(*select_, std::move(child));
  }

  // Writes.
  void Done(const api::Outcome& outcome) override {
    if (ending_) {
      if (!outcome.ok() && !error_) error_ = EngineError(outcome.code, outcome.message);
      return Finish();
    }
    if (outcome.ok()) {
      ++changed_;
    } else if (!outcome.not_found() && !error_) {
      error_ = EngineError(outcome.code, outcome.message);
    }
    if (--outstanding_ == 0) End();
  }

 private:
  void ChildDone(StatementResult result) override {
    auto* rows = std::get_if<mysql::ResultSet>(&result);
    if (rows == nullptr) return Deliver(std::move(result));  // its error
    txn_ = session_txn_ != nullptr ? session_txn_.get() : own_txn_.get();
    outstanding_ = 1;  // the loop below
    for (Target& target : targets_) {
      if (auto err = Apply(target, &rows->rows)) {
        error_ = std::move(err);
        break;
      }
    }
    data()->Flush();
    if (--outstanding_ == 0) End();
  }

  // Deletes or rewrites, by key, each of `target`'s rows the join found.
  std::optional<mysql::SqlError> Apply(const Target& target, std::vector<Values>* rows) {
    const schema::TableDef& table = *target.table;
    absl::flat_hash_set<std::string> seen;
    for (size_t r = 0; r < rows->size(); ++r) {
      Values& row = (*rows)[r];
      std::string key;
      bool null_key = false;
      for (int c : table.primary_key().columns) {
        const mysql::Value& v = row[target.first + c];
        std::optional<std::string> field = KeyField(table.columns[c], v);
        null_key = null_key || mysql::IsNull(v) || !field;
        if (field) key += *field;
      }
      // A LEFT JOIN's row without this table, or one already taken from an earlier row.
      if (null_key || !seen.insert(key).second) continue;
      ++matched_;
      if (!update_) {
        ++outstanding_;
        data()->client().Delete(table, key, this, txn_);
        if (target.foreign_keys) NoteChange(target, row, /*deleted=*/true);
        RecordBefore(target, key, row);
        continue;
      }
      // Changed when a stored field would differ, byte for byte, as MySQL counts it.
      schema::UpdateBuilder program;
      bool changes = false;
      for (const auto& [column, item] : target.assignments) {
        const schema::ColumnDef& def = table.columns[column];
        auto now = StoredField(def, row[target.first + column], utc_offset_);
        auto next = StoredField(def, row[item], utc_offset_);
        if (auto* err = std::get_if<mysql::SqlError>(&next)) return *err;
        if (auto* err = std::get_if<mysql::SqlError>(&now)) return *err;
        const auto& field = std::get<std::optional<std::string>>(next);
        changes = changes || field != std::get<std::optional<std::string>>(now);
        if (field) {
          program.SetField(def, column, *field);
        } else if (!def.nullable) {
          return mysql::SqlError{1048, "23000",
                                 absl::StrCat("Column '", def.name, "' cannot be null")};
        } else {
          program.SetNull(column);
        }
      }
      if (!changes) continue;
      if (auto err = AddOnUpdateSteps(target, &program)) return err;
      ++outstanding_;
      data()->client().Update(table, key, program.Finish(), this, txn_);
      if (target.foreign_keys) NoteChange(target, row, /*deleted=*/false);
      RecordBefore(target, key, row);
    }
    return std::nullopt;
  }

  // For savepoints: the row as the join read it (locked), before this statement.
  void RecordBefore(const Target& target, const std::string& key, const Values& row) {
    if (!undo_.on()) return;
    std::optional<std::string> before = PackedRow(target, row, nullptr, utc_offset_);
    if (!before) return undo_.Lose();
    undo_.Record(target.table, key, std::move(*before));
  }

  // A row written, for its target's foreign key checks.
  void NoteChange(const Target& target, const Values& row, bool deleted) {
    auto it = std::find_if(checks_.begin(), checks_.end(),
                           [&](const auto& c) { return c.first == target.table; });
    if (it == checks_.end()) it = checks_.insert(checks_.end(), {target.table, {}});
    std::optional<std::string> before = PackedRow(target, row, nullptr, utc_offset_);
    std::optional<std::string> after =
        deleted ? std::string() : PackedRow(target, row, &target.assignments, utc_offset_);
    if (before && after) it->second.push_back({std::move(*before), std::move(*after)});
  }

  // The foreign keys of each target's rows written, one target after the other, before the
  // commit.
  void CheckNext() {
    auto [table, changes] = std::move(checks_.back());
    checks_.pop_back();
    NoteCascades(state(), *table);
    CheckForeignKeys(data(), data()->client().dictionary(), txn_, std::move(table),
                     std::move(changes), [this](std::optional<mysql::SqlError> error) {
                       if (error && !error_) error_ = std::move(error);
                       End();
                     });
  }

  // MySQL's ON UPDATE CURRENT_TIMESTAMP for a row the assignments change (the row was read
  // locked, so the comparison above is the data node's too): the columns not assigned take
  // the statement's time.
  std::optional<mysql::SqlError> AddOnUpdateSteps(const Target& target,
                                                  schema::UpdateBuilder* program) {
    const schema::TableDef& table = *target.table;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const schema::ColumnDef& def = table.columns[c];
      if (!def.on_update_now) continue;
      bool assigned = std::any_of(target.assignments.begin(), target.assignments.end(),
                                  [&](const auto& a) { return a.first == static_cast<int>(c); });
      if (assigned) continue;
      auto field = EncodeField(def, CurrentTimeOf(def, context()), 1, utc_offset_);
      if (auto* err = std::get_if<mysql::SqlError>(&field)) return *err;
      program->SetField(def, static_cast<int>(c), std::get<std::string>(field));
    }
    return std::nullopt;
  }

  void End() {
    if (!error_ && !checks_.empty()) return CheckNext();
    if (own_txn_ == nullptr) return Finish();
    ending_ = true;
    EndTransaction(own_txn_.get(), !error_, this);
  }

  void Finish() {
    if (error_) return DeliverFailure(*error_, session_txn_ != nullptr, changed_ > 0);
    undo_.Keep(state());
    if (update_) return Deliver(UpdateResult(state(), matched_, changed_));
    OkResult ok;
    ok.affected_rows = changed_;
    Deliver(ok);
  }

  bool update_;
  std::vector<Target> targets_;
  std::unique_ptr<SelectStmt> select_;
  std::shared_ptr<api::Transaction> session_txn_;
  std::vector<std::pair<api::TablePtr, std::vector<RowChange>>> checks_;  // per target
  StatementUndo undo_;                         // for savepoints (savepoint_undo.h)
  const int utc_offset_;                       // the session's time zone, for TIMESTAMP values
  std::shared_ptr<api::Transaction> own_txn_;  // outside a SQL transaction: the statement's
  api::Transaction* txn_ = nullptr;
  int outstanding_ = 0;
  bool ending_ = false;
  uint64_t matched_ = 0, changed_ = 0;
  std::optional<mysql::SqlError> error_;
};

// The SELECT that finds the rows: the statement's FROM and WHERE, locking what it reads.
std::variant<std::unique_ptr<SelectStmt>, mysql::SqlError> JoinedSelect(
    const TableName& table, const std::string& alias, const std::vector<JoinClause>& joins,
    const Expr* where) {
  auto select = std::make_unique<SelectStmt>();
  TableRef& from = select->from.emplace();
  from.table = table;
  from.alias = alias;
  for (const JoinClause& join : joins) {
    if (join.table.derived) return mysql::errors::NotSupportedYet("derived tables here");
    JoinClause& copy = select->joins.emplace_back();
    copy.kind = join.kind;
    copy.table.table = join.table.table;
    copy.table.alias = join.table.alias;
    copy.using_columns = join.using_columns;
    copy.natural = join.natural;
    copy.straight = join.straight;
    if (join.on && !(copy.on = Copy(*join.on))) {
      return mysql::errors::NotSupportedYet("subqueries in a multi-table UPDATE or DELETE");
    }
  }
  if (where && !(select->where = Copy(*where))) {
    return mysql::errors::NotSupportedYet("subqueries in a multi-table UPDATE or DELETE");
  }
  select->lock = LockMode::kForUpdate;
  return select;
}

// The FROM item `name` (a table or its alias) names, as a target: 1109 when none does.
std::variant<Target, mysql::SqlError> FindTarget(const TableName& name, const SelectStmt& select,
                                                 const SessionState& state) {
  std::vector<const TableRef*> refs = {&*select.from};
  for (const JoinClause& join : select.joins) refs.push_back(&join.table);
  for (const TableRef* ref : refs) {
    const std::string& qualifier = ref->alias.empty() ? ref->table.name : ref->alias;
    if (!absl::EqualsIgnoreCase(qualifier, name.name)) continue;
    auto resolved = ResolveTableToWrite(ref->table, ref->alias, state);
    if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    api::TablePtr table = std::get<api::TablePtr>(std::move(resolved));
    if (table->has_hidden_key()) {
      return mysql::errors::NotSupportedYet("a table without a primary key as a target here");
    }
    const bool foreign_keys = ForeignKeysApply(*table, state);
    return Target{qualifier, std::move(table), 0, {}, foreign_keys};
  }
  return mysql::SqlError{1109, "42S02",
                         absl::StrCat("Unknown table '", name.name, "' in MULTI DELETE")};
}

// Adds every column of `target`'s table to the SELECT's list (its whole row, in table order).
void SelectRowOf(Target* target, SelectStmt* select) {
  target->first = select->items.size();
  for (const schema::ColumnDef& c : target->table->columns) {
    SelectItem& item = select->items.emplace_back();
    item.expr = ColumnRef(target->qualifier, c.name);
    item.name = c.name;
  }
}

StatementResult Run(const ExecContext& ctx, bool update, std::vector<Target> targets,
                    std::unique_ptr<SelectStmt> select) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  BeginImplicitTransaction(ctx.state);
  NoteTransactionWrite(ctx.state);
  auto* run = new MultiModifyRun(ctx, update, std::move(targets), std::move(select));
  run->Start();
  return Deferred{};
}

}  // namespace

StatementResult ExecuteMultiDelete(const DeleteStmt& stmt, const ExecContext& ctx) {
  auto joined = JoinedSelect(stmt.table, stmt.alias, stmt.joins, stmt.where.get());
  if (auto* err = std::get_if<mysql::SqlError>(&joined)) return *err;
  auto& select = std::get<std::unique_ptr<SelectStmt>>(joined);
  std::vector<Target> targets;
  for (const TableName& name : stmt.targets) {
    auto target = FindTarget(name, *select, *ctx.state);
    if (auto* err = std::get_if<mysql::SqlError>(&target)) return *err;
    targets.push_back(std::get<Target>(std::move(target)));
    SelectRowOf(&targets.back(), select.get());
  }
  return Run(ctx, /*update=*/false, std::move(targets), std::move(select));
}

StatementResult ExecuteMultiUpdate(const UpdateStmt& stmt, const ExecContext& ctx) {
  auto joined = JoinedSelect(stmt.table, stmt.alias, stmt.joins, stmt.where.get());
  if (auto* err = std::get_if<mysql::SqlError>(&joined)) return *err;
  auto& select = std::get<std::unique_ptr<SelectStmt>>(joined);
  std::vector<Target> targets;
  std::vector<std::pair<size_t, int>> assigned;  // per assignment: its target and column
  for (const Assignment& a : stmt.set) {
    // The table an unqualified column belongs to: the first that has it.
    std::optional<size_t> found;
    for (size_t t = 0; t < targets.size() && !found; ++t) {
      if (absl::EqualsIgnoreCase(targets[t].qualifier, a.qualifier) ||
          (a.qualifier.empty() && targets[t].table->FindColumn(a.column) >= 0)) {
        found = t;
      }
    }
    if (!found) {
      std::vector<TableName> names;
      if (!a.qualifier.empty()) {
        names.push_back({"", a.qualifier});
      } else {
        names.push_back(
            {"", select->from->alias.empty() ? select->from->table.name : select->from->alias});
        for (const JoinClause& j : select->joins) {
          names.push_back({"", j.table.alias.empty() ? j.table.table.name : j.table.alias});
        }
      }
      for (const TableName& name : names) {
        auto target = FindTarget(name, *select, *ctx.state);
        if (auto* t = std::get_if<Target>(&target);
            t != nullptr && (!a.qualifier.empty() || t->table->FindColumn(a.column) >= 0)) {
          targets.push_back(std::move(*t));
          found = targets.size() - 1;
          break;
        }
        if (auto* err = std::get_if<mysql::SqlError>(&target); err && !a.qualifier.empty()) {
          return mysql::errors::UnknownColumn(absl::StrCat(a.qualifier, ".", a.column),
                                              "field list");
        }
      }
    }
    std::string name = a.qualifier.empty() ? a.column : absl::StrCat(a.qualifier, ".", a.column);
    if (!found) return mysql::errors::UnknownColumn(name, "field list");
    const schema::TableDef& table = *targets[*found].table;
    int column = table.FindColumn(a.column);
    if (column < 0 || table.columns[column].hidden) {
      return mysql::errors::UnknownColumn(name, "field list");
    }
    const std::vector<int>& pk = table.primary_key().columns;
    if (std::find(pk.begin(), pk.end(), column) != pk.end()) {
      return mysql::errors::NotSupportedYet("changing a key column in a multi-table UPDATE");
    }
    if (a.value->kind == ExprKind::kDefault) {
      return mysql::errors::NotSupportedYet("DEFAULT in a multi-table UPDATE");
    }
    assigned.emplace_back(*found, column);
  }
  for (Target& target : targets) SelectRowOf(&target, select.get());
  for (size_t i = 0; i < stmt.set.size(); ++i) {
    ExprPtr value = Copy(*stmt.set[i].value);
    if (!value) return mysql::errors::NotSupportedYet("subqueries in a multi-table UPDATE");
    auto [t, column] = assigned[i];
    targets[t].assignments.emplace_back(column, select->items.size());
    SelectItem& item = select->items.emplace_back();
    item.expr = std::move(value);
    item.name = stmt.set[i].column;
  }
  return Run(ctx, /*update=*/true, std::move(targets), std::move(select));
}

}  // namespace shoal::sql::internal
