// See foreign_keys.h. The checks run in rounds: each round searches, all at once, for the
// parents of the round's new references and for the children of its removed or changed
// parent rows, and applies the constraints' actions to the children it finds; the child rows
// a cascade changed are the next round's changes, one level deeper.
#include "router/sql/exec/foreign_keys.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/eval/system_variables.h"
#include "router/sql/exec/access_plan.h"
#include "router/sql/exec/savepoint_undo.h"
#include "router/sql/exec/table_access.h"
#include "router/sql/exec/table_spec.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;
using schema::ForeignKeyDef;
using schema::ReferenceAction;
using schema::TableDef;

constexpr int kMaxCascadeDepth = 15;

std::vector<uint16_t> AllColumns(const TableDef& table) {
  std::vector<uint16_t> columns(table.columns.size());
  for (size_t c = 0; c < columns.size(); ++c) columns[c] = static_cast<uint16_t>(c);
  return columns;
}

// The fields of a packed row over every column of `table`; false when malformed.
bool SplitAll(const TableDef& table, absl::string_view row, std::vector<schema::Field>* fields) {
  fields->assign(table.columns.size(), {});
  size_t used = 0;
  return schema::SplitRow(table, AllColumns(table), row, fields->data(), &used);
}

// The fields of `columns` in `fields`, byte for byte the same (NULLs alike).
bool SameFields(const std::vector<schema::Field>& a, const std::vector<schema::Field>& b,
                const std::vector<int>& columns) {
  for (int c : columns) {
    if (a[c].null != b[c].null || (!a[c].null && a[c].bytes != b[c].bytes)) return false;
  }
  return true;
}

bool AnyNull(const std::vector<schema::Field>& fields, const std::vector<int>& columns) {
  return std::any_of(columns.begin(), columns.end(), [&](int c) { return fields[c].null; });
}

// `from`'s fields in `from_columns` as key fields of `to`'s `to_columns`, one by one; nullopt
// when a value cannot be one of the other column's (it then matches no row).
std::optional<std::vector<std::string>> Convert(const TableDef& from,
                                                const std::vector<int>& from_columns,
                                                const std::vector<schema::Field>& fields,
                                                const TableDef& to,
                                                const std::vector<int>& to_columns) {
  std::vector<std::string> out;
  for (size_t i = 0; i < from_columns.size(); ++i) {
    const int c = from_columns[i];
    std::optional<std::string> field =
        KeyField(to.columns[to_columns[i]], DecodeField(from.columns[c], fields[c]));
    if (!field) return std::nullopt;
    out.push_back(std::move(*field));
  }
  return out;
}

// The positions of a parent's referenced columns, named by the constraint; nullopt when one
// is not there (the parent changed with foreign_key_checks off).
std::optional<std::vector<int>> ParentColumns(const TableDef& parent, const ForeignKeyDef& fk) {
  std::vector<int> columns;
  for (const std::string& name : fk.parent_columns) {
    int c = parent.FindColumn(name);
    if (c < 0) return std::nullopt;
    columns.push_back(c);
  }
  return columns;
}

mysql::SqlError ChildRowError(const TableDef& child, const ForeignKeyDef& fk) {
  return {1452, "23000",
          absl::StrCat("Cannot add or update a child row: a foreign key constraint fails (",
                       QuoteIdentifier(child.database), ".", QuoteIdentifier(child.name), ", ",
                       ForeignKeyClause(child, fk), ")")};
}

mysql::SqlError ParentRowError(const TableDef& child, const ForeignKeyDef& fk) {
  return {1451, "23000",
          absl::StrCat("Cannot delete or update a parent row: a foreign key constraint fails (",
                       QuoteIdentifier(child.database), ".", QuoteIdentifier(child.name), ", ",
                       ForeignKeyClause(child, fk), ")")};
}

class ForeignKeyRun : public api::Completion {
 public:
  using Finished = absl::AnyInvocable<void(std::optional<mysql::SqlError>, MissingParents)>;

  ForeignKeyRun(DataAccess* data, std::shared_ptr<const api::Dictionary> dictionary,
                api::Transaction* txn, Finished done)
      : data_(data), dictionary_(std::move(dictionary)), txn_(txn), done_(std::move(done)) {}

  // Missing parents are noted per change of the first round instead of failing the run.
  void NoteMissingParents(size_t changes) { missing_.emplace(changes); }

  void Add(api::TablePtr table, std::vector<RowChange> changes, int depth) {
    if (!changes.empty()) pending_.push_back({std::move(table), std::move(changes), depth});
  }

  // Runs the rounds, then deletes itself and calls `done`.
  void Start() {
    if (dictionary_ == nullptr) NoteError(ClusterFailure());  // no dictionary to check against
    NextRound();
  }

  // A cascade's write.
  void Done(const api::Outcome& outcome) override {
    if (!outcome.ok() && !outcome.not_found())
      NoteError(EngineError(outcome.code, outcome.message));
    OperationDone();
  }

 private:
  struct Work {
    api::TablePtr table;
    std::vector<RowChange> changes;
    int depth;
  };

  // One search of `table` for the rows whose `columns` hold `fields` (key fields, in
  // `columns` order): a key read, an index scan, or, no index serving, a full scan.
  class Search : public api::Completion, public api::ScanReceiver {
   public:
    enum class Purpose { kParent, kChildren };

    Search(ForeignKeyRun* run, Purpose purpose, api::TablePtr table, std::vector<int> columns,
           std::vector<std::string> fields)
        : run_(run),
          purpose_(purpose),
          table_(std::move(table)),
          columns_(std::move(columns)),
          fields_(std::move(fields)) {}

    // For kParent: the child and constraint to name in 1452. For kChildren: the constraint,
    // the child table (table_) and the parent row's change.
    api::TablePtr child;
    const ForeignKeyDef* fk = nullptr;
    const TableDef* parent = nullptr;
    std::vector<int> parent_columns;
    RowChange change;
    size_t change_index = 0;  // in the first round's changes (FindMissingParents)
    int depth = 0;

    void Define() {
      const TableDef& t = *table_;
      std::vector<uint16_t> all = AllColumns(t);
      // The first index whose leading columns are `columns_`, in any order.
      for (size_t i = 0; i < t.indexes.size(); ++i) {
        const schema::IndexDef& index = t.indexes[i];
        if (index.columns.size() < columns_.size()) continue;
        std::string key;
        size_t matched = 0;
        for (; matched < columns_.size(); ++matched) {
          auto at = std::find(columns_.begin(), columns_.end(), index.columns[matched]);
          if (at == columns_.end()) break;
          key += fields_[at - columns_.begin()];
        }
        if (matched < columns_.size()) continue;
        if (i == 0 && index.columns.size() == columns_.size()) {
          run_->data_->client().Read(t, key, all, this, run_->txn_, api::Lock::kExclusive);
          return;
        }
        return Scan(static_cast<int>(i), key);
      }
      Scan(0, "");
    }

    // A key read's row, or its absence.
    void Done(const api::Outcome& outcome) override {
      if (outcome.ok()) {
        rows_.emplace_back(outcome.row);
      } else if (!outcome.not_found()) {
        run_->NoteError(EngineError(outcome.code, outcome.message));
      }
      run_->SearchDone(this);
    }
    void Row(absl::string_view row) override {
      if (Matches(row)) rows_.emplace_back(row);
    }
    void Done(uint16_t code, absl::string_view message) override {
      if (code != 0) run_->NoteError(EngineError(code, message));
      run_->SearchDone(this);
    }

    Purpose purpose() const { return purpose_; }
    const api::TablePtr& table() const { return table_; }
    const std::vector<std::string>& rows() const { return rows_; }

   private:
    void Scan(int index, std::string key) {
      api::ScanRequest request;
      request.table = table_.get();
      request.index = index;
      request.lower = key;
      request.upper = std::move(key);
      request.columns = AllColumns(*table_);
      request.lock = api::Lock::kExclusive;
      request.txn = run_->txn_;
      run_->data_->client().Scan(std::move(request), this);
    }

    // A scanned row holds the values searched for (a full scan returns every row).
    bool Matches(absl::string_view row) {
      std::vector<schema::Field> fields;
      if (!SplitAll(*table_, row, &fields)) return false;
      for (size_t i = 0; i < columns_.size(); ++i) {
        const schema::ColumnDef& column = table_->columns[columns_[i]];
        schema::Field wanted;
        size_t used = 0;
        if (fields[columns_[i]].null || !schema::ReadField(column, fields_[i], &wanted, &used) ||
            schema::CompareField(column, fields[columns_[i]].bytes, wanted.bytes) != 0) {
          return false;
        }
      }
      return true;
    }

    ForeignKeyRun* run_;
    Purpose purpose_;
    api::TablePtr table_;
    std::vector<int> columns_;
    std::vector<std::string> fields_;
    std::vector<std::string> rows_;
  };

  void NoteError(mysql::SqlError error) {
    if (!error_) error_ = std::move(error);
  }

  void MissingParent(size_t change, mysql::SqlError error) {
    if (!missing_) return NoteError(std::move(error));
    if (!(*missing_)[change]) (*missing_)[change] = std::move(error);
  }

  void NextRound() {
    if (error_ || pending_.empty()) return Finish();
    std::vector<Work> work = std::move(pending_);
    pending_.clear();
    searches_.clear();
    outstanding_ = 1;  // the definitions below; completions may run inside them
    for (const Work& w : work) {
      for (size_t i = 0; i < w.changes.size(); ++i) {
        SearchParents(w.table, w.changes[i], i);
        SearchChildren(w.table, w.changes[i], w.depth);
      }
    }
    data_->Flush();
    OperationDone();
  }

  void OperationDone() {
    if (--outstanding_ > 0) return;
    NextRound();
  }

  void Finish() {
    Finished done = std::move(done_);
    std::optional<mysql::SqlError> error = std::move(error_);
    MissingParents missing = missing_ ? std::move(*missing_) : MissingParents();
    delete this;
    done(std::move(error), std::move(missing));
  }

  void Define(std::unique_ptr<Search> search) {
    ++outstanding_;
    Search* s = search.get();
    searches_.push_back(std::move(search));
    s->Define();
  }

  // The parent of each reference `change` makes anew (a new row, or one whose referencing
  // columns changed, none of them NULL).
  void SearchParents(const api::TablePtr& child, const RowChange& change, size_t index) {
    if (child->foreign_keys.empty() || change.after.empty()) return;
    std::vector<schema::Field> after, before;
    if (!SplitAll(*child, change.after, &after) ||
        (!change.before.empty() && !SplitAll(*child, change.before, &before))) {
      return NoteError(mysql::errors::Internal("a malformed row"));
    }
    for (const ForeignKeyDef& fk : child->foreign_keys) {
      if (AnyNull(after, fk.columns)) continue;
      if (!before.empty() && SameFields(before, after, fk.columns)) continue;
      api::TablePtr parent = dictionary_->Find(fk.parent_database, fk.parent_table);
      std::optional<std::vector<int>> parent_columns;
      if (parent != nullptr) parent_columns = ParentColumns(*parent, fk);
      std::optional<std::vector<std::string>> fields;
      if (parent_columns) fields = Convert(*child, fk.columns, after, *parent, *parent_columns);
      if (!fields) {
        MissingParent(index, ChildRowError(*child, fk));
        continue;
      }
      auto search = std::make_unique<Search>(this, Search::Purpose::kParent, parent,
                                             std::move(*parent_columns), std::move(*fields));
      search->child = child;
      search->fk = &fk;
      search->change_index = index;
      Define(std::move(search));
    }
  }

  // The children, by every constraint that references `parent`, of a row `change` deletes or
  // whose referenced columns it changes (none of them NULL before).
  void SearchChildren(const api::TablePtr& parent, const RowChange& change, int depth) {
    if (change.before.empty()) return;
    const std::vector<api::Dictionary::Reference>* references = dictionary_->ReferencesTo(*parent);
    if (references == nullptr) return;
    std::vector<schema::Field> before, after;
    if (!SplitAll(*parent, change.before, &before) ||
        (!change.after.empty() && !SplitAll(*parent, change.after, &after))) {
      return NoteError(mysql::errors::Internal("a malformed row"));
    }
    for (const api::Dictionary::Reference& reference : *references) {
      const ForeignKeyDef& fk = reference.child->foreign_keys[reference.key];
      std::optional<std::vector<int>> parent_columns = ParentColumns(*parent, fk);
      if (!parent_columns || AnyNull(before, *parent_columns)) continue;
      if (!after.empty() && SameFields(before, after, *parent_columns)) continue;
      // A value no child column can hold has no children.
      std::optional<std::vector<std::string>> fields =
          Convert(*parent, *parent_columns, before, *reference.child, fk.columns);
      if (!fields) continue;
      auto search = std::make_unique<Search>(this, Search::Purpose::kChildren, reference.child,
                                             fk.columns, std::move(*fields));
      search->fk = &fk;
      search->parent = parent.get();
      search->parent_columns = std::move(*parent_columns);
      search->change = change;
      search->depth = depth;
      Define(std::move(search));
    }
  }

  void SearchDone(Search* search) {
    if (search->purpose() == Search::Purpose::kParent) {
      if (search->rows().empty()) {
        MissingParent(search->change_index, ChildRowError(*search->child, *search->fk));
      }
    } else if (!search->rows().empty() && !error_) {
      ApplyToChildren(*search);
    }
    OperationDone();
  }

  // What a parent row's deletion or change does to the children `search` found.
  void ApplyToChildren(const Search& search) {
    const ForeignKeyDef& fk = *search.fk;
    const TableDef& child = *search.table();
    const bool deleted = search.change.after.empty();
    const ReferenceAction action = deleted ? fk.on_delete : fk.on_update;
    if (action != ReferenceAction::kCascade && action != ReferenceAction::kSetNull) {
      return NoteError(ParentRowError(child, fk));
    }
    if (search.depth + 1 > kMaxCascadeDepth) {
      return NoteError({3008, "HY000",
                        absl::StrCat("Foreign key cascade delete/update exceeds max depth of ",
                                     kMaxCascadeDepth, ".")});
    }
    std::vector<schema::Field> parent_after;
    if (!deleted) SplitAll(*search.parent, search.change.after, &parent_after);
    std::vector<RowChange> changes;
    api::Client& client = data_->client();
    for (const std::string& row : search.rows()) {
      std::string key;
      if (!api::Client::KeyOfRow(child, row, &key)) {
        return NoteError(mysql::errors::Internal("a row without its key"));
      }
      if (deleted && action == ReferenceAction::kCascade) {
        ++outstanding_;
        client.Delete(child, key, this, txn_);
        changes.push_back({row, ""});
        continue;
      }
      std::vector<schema::Field> fields;
      if (!SplitAll(child, row, &fields)) {
        return NoteError(mysql::errors::Internal("a malformed row"));
      }
      // The new values of the referencing columns: NULL, or the parent's new ones. They go
      // as an update program of those columns alone, so that two keys of one child row
      // changed in one round (created_by and updated_by naming one user) both hold.
      schema::UpdateBuilder program;
      schema::RowWriter writer;  // the row as it will be, for the next round
      writer.BeginRow(static_cast<int>(child.columns.size()));
      for (size_t c = 0; c < child.columns.size(); ++c) {
        auto at = std::find(fk.columns.begin(), fk.columns.end(), static_cast<int>(c));
        if (at != fk.columns.end() && action == ReferenceAction::kSetNull) {
          writer.Null();
          program.SetNull(static_cast<int>(c));
        } else if (at != fk.columns.end()) {  // ON UPDATE CASCADE: the parent's new values
          const int p = search.parent_columns[at - fk.columns.begin()];
          Value value = DecodeField(search.parent->columns[p], parent_after[p]);
          if (auto err = AppendField(child.columns[c], value, 1, &writer)) return NoteError(*err);
          auto field = EncodeField(child.columns[c], value, 1);
          if (auto* err = std::get_if<mysql::SqlError>(&field)) return NoteError(*err);
          program.SetField(child.columns[c], static_cast<int>(c), std::get<std::string>(field));
        } else if (fields[c].null) {
          writer.Null();
        } else {
          writer.Raw(child.columns[c], fields[c]);
        }
      }
      std::string new_key;
      api::Client::KeyOfRow(child, writer.view(), &new_key);
      if (new_key == key) {
        ++outstanding_;
        client.Update(child, key, program.Finish(), this, txn_);
      } else {  // the child's key moves with the parent's
        outstanding_ += 2;
        client.Delete(child, key, this, txn_);
        client.Insert(child, writer.view(), this, txn_);
      }
      changes.push_back({row, std::string(writer.view())});
    }
    data_->Flush();
    Add(search.table(), std::move(changes), search.depth + 1);
  }

  DataAccess* data_;
  std::shared_ptr<const api::Dictionary> dictionary_;
  api::Transaction* txn_;
  Finished done_;
  std::vector<Work> pending_;
  std::vector<std::unique_ptr<Search>> searches_;
  int outstanding_ = 0;
  std::optional<mysql::SqlError> error_;
  std::optional<MissingParents> missing_;
};

}  // namespace

bool ForeignKeysApply(const schema::TableDef& table, const SessionState& state) {
  if (state.data == nullptr) return false;
  const std::shared_ptr<const api::Dictionary>& dictionary = state.data->client().dictionary();
  if (dictionary == nullptr || dictionary->referenced_by.empty()) return false;
  if (table.foreign_keys.empty() && dictionary->ReferencesTo(table) == nullptr) return false;
  return ForeignKeyChecksOn(state);
}

bool ForeignKeysApplyToInserts(const schema::TableDef& table, const SessionState& state,
                               bool replace) {
  return (replace || !table.foreign_keys.empty()) && ForeignKeysApply(table, state);
}

void NoteCascades(SessionState* state, const schema::TableDef& table) {
  if (!RecordsUndo(state) || state->data == nullptr) return;
  const std::shared_ptr<const api::Dictionary>& dictionary = state->data->client().dictionary();
  const std::vector<api::Dictionary::Reference>* references =
      dictionary == nullptr ? nullptr : dictionary->ReferencesTo(table);
  if (references == nullptr) return;
  for (const api::Dictionary::Reference& r : *references) {
    const ForeignKeyDef& fk = r.child->foreign_keys[r.key];
    auto cascades = [](ReferenceAction a) {
      return a == ReferenceAction::kCascade || a == ReferenceAction::kSetNull;
    };
    if (cascades(fk.on_delete) || cascades(fk.on_update)) return LoseUndo(state);
  }
}

bool ForeignKeyChecksOn(const SessionState& state) {
  const SysVarDef* def = FindSysVar("foreign_key_checks");
  if (def == nullptr) return true;
  Value value = SessionValue(*def, state);
  if (const auto* i = std::get_if<int64_t>(&value)) return *i != 0;
  if (const auto* u = std::get_if<uint64_t>(&value)) return *u != 0;
  return true;
}

void CheckForeignKeys(DataAccess* data, std::shared_ptr<const api::Dictionary> dictionary,
                      api::Transaction* txn, api::TablePtr table, std::vector<RowChange> changes,
                      absl::AnyInvocable<void(std::optional<mysql::SqlError>)> done) {
  auto* run = new ForeignKeyRun(
      data, std::move(dictionary), txn,
      [done = std::move(done)](std::optional<mysql::SqlError> error, MissingParents) mutable {
        done(std::move(error));
      });
  run->Add(std::move(table), std::move(changes), 0);
  run->Start();
}

void FindMissingParents(
    DataAccess* data, std::shared_ptr<const api::Dictionary> dictionary, api::Transaction* txn,
    api::TablePtr table, const std::vector<std::string>& rows,
    absl::AnyInvocable<void(std::optional<mysql::SqlError>, MissingParents)> done) {
  std::vector<RowChange> changes;
  changes.reserve(rows.size());
  for (const std::string& row : rows) changes.push_back({"", row});
  auto* run = new ForeignKeyRun(data, std::move(dictionary), txn, std::move(done));
  run->NoteMissingParents(changes.size());
  run->Add(std::move(table), std::move(changes), 0);
  run->Start();
}

}  // namespace shoal::sql::internal
