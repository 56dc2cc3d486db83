// ALTER TABLE's alterations applied, in order, to a working copy of the definition in which
// keys name their columns (so that columns may move, go or be renamed under them), then
// turned back into a TableDef with CREATE TABLE's checks.
#include "router/sql/exec/alter_definition.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "router/sql/exec/table_spec.h"

namespace shoal::sql {
namespace {

using mysql::SqlError;
using schema::ColumnDef;
using schema::IndexDef;
using schema::TableDef;

struct WorkColumn {
  ColumnDef def;
  int source = -1;
};

struct WorkIndex {
  std::string name;
  bool unique = false;
  bool primary = false;
  bool for_foreign_key = false;
  std::vector<std::string> columns;
};

struct WorkForeignKey {
  schema::ForeignKeyDef def;  // but for its columns
  std::vector<std::string> columns;
  bool added = false;
};

SqlError CantDrop(absl::string_view name) {
  return {1091, "42000", absl::StrCat("Can't DROP '", name, "'; check that column/key exists")};
}

SqlError DuplicateColumn(absl::string_view name) {
  return {1060, "42S21", absl::StrCat("Duplicate column name '", name, "'")};
}

SqlError DuplicateKey(absl::string_view name) {
  return {1061, "42000", absl::StrCat("Duplicate key name '", name, "'")};
}

class Alteration {
 public:
  explicit Alteration(const TableDef& table) : old_(table) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].hidden) continue;
      columns_.push_back({table.columns[i], static_cast<int>(i)});
    }
    for (const IndexDef& index : table.indexes) {
      if (index.columns.size() == 1 && table.columns[index.columns[0]].hidden) continue;
      WorkIndex& w = indexes_.emplace_back();
      w.name = index.name;
      w.unique = index.unique;
      w.primary = index.primary;
      w.for_foreign_key = index.for_foreign_key;
      for (int c : index.columns) w.columns.push_back(table.columns[c].name);
    }
    for (const schema::ForeignKeyDef& fk : table.foreign_keys) {
      WorkForeignKey& w = foreign_keys_.emplace_back();
      w.def = fk;
      w.def.columns.clear();
      for (int c : fk.columns) w.columns.push_back(table.columns[c].name);
    }
    plan_.table = table;
  }

  std::optional<SqlError> Apply(const AlterAction& a, const std::string& database) {
    using Kind = AlterAction::Kind;
    switch (a.kind) {
      case Kind::kAddColumn:
        return AddColumn(a);
      case Kind::kChangeColumn:
        return ChangeColumn(a);
      case Kind::kDropColumn:
        return DropColumn(a.name);
      case Kind::kRenameColumn:
        return RenameColumn(a.name, a.new_name);
      case Kind::kSetDefault:
      case Kind::kDropDefault: {
        int c = FindColumn(a.name);
        if (c < 0) return UnknownColumn(a.name);
        columns_[c].def.default_value.reset();
        columns_[c].def.default_now = false;
        if (a.kind == Kind::kDropDefault) return std::nullopt;
        return SetColumnDefault(*a.default_value, InPrimaryKey(columns_[c].def.name),
                                &columns_[c].def);
      }
      case Kind::kAddIndex:
        return AddIndex(a.index);
      case Kind::kDropIndex:
        return DropIndex(a.name);
      case Kind::kRenameIndex:
        return RenameIndex(a.name, a.new_name);
      case Kind::kRenameTable: {
        std::string db = a.new_table.database.empty() ? database : a.new_table.database;
        if (db.empty()) return mysql::errors::NoDatabaseSelected();
        plan_.table.database = db;
        plan_.table.name = a.new_table.name;
        return std::nullopt;
      }
      case Kind::kTableOptions:
        if (!a.options.engine.empty() && !IsShoalEngineName(a.options.engine)) {
          return SqlError{1286, "42000",
                          absl::StrCat("Unknown storage engine '", a.options.engine, "'")};
        }
        if (!a.options.comment.empty()) plan_.table.comment = a.options.comment;
        // COLLATE = x: the default of text columns defined from now on; those there keep
        // theirs, as in MySQL.
        if (!a.options.collation.empty()) {
          plan_.table.collation = TableCollation(a.options.collation);
        }
        if (a.options.auto_increment.has_value()) plan_.auto_increment = a.options.auto_increment;
        return std::nullopt;
      case Kind::kDisableKeys:
      case Kind::kEnableKeys:
        plan_.disable_or_enable_keys = true;
        return std::nullopt;
      case Kind::kForce:
        force_copy_ = true;
        return std::nullopt;
      case Kind::kAddForeignKey:
        return AddForeignKey(a.foreign_key);
      case Kind::kDropForeignKey:
        return DropForeignKey(a.name);
    }
    return std::nullopt;
  }

  std::variant<AlterPlan, SqlError> Finish(AlterTableStmt::Algorithm algorithm) {
    if (columns_.empty()) {
      return SqlError{1090, "42000",
                      "You can't delete all columns with ALTER TABLE; use DROP TABLE instead"};
    }
    TableDef& table = plan_.table;
    table.columns.clear();
    table.indexes.clear();
    plan_.source.clear();
    for (const WorkColumn& c : columns_) {
      table.columns.push_back(c.def);
      plan_.source.push_back(c.source);
    }
    for (const WorkIndex& w : indexes_) {
      IndexDef& index = table.indexes.emplace_back();
      index.name = w.primary ? "PRIMARY" : w.name;
      index.unique = w.unique;
      index.primary = w.primary;
      index.for_foreign_key = w.for_foreign_key;
      for (const std::string& name : w.columns) index.columns.push_back(FindColumn(name));
    }
    table.foreign_keys.clear();
    for (const WorkForeignKey& w : foreign_keys_) {
      schema::ForeignKeyDef& fk = table.foreign_keys.emplace_back(w.def);
      for (const std::string& name : w.columns) fk.columns.push_back(FindColumn(name));
      plan_.new_foreign_keys += w.added;
    }
    SortIndexesAsMysql(&table);  // the primary key first, as ValidateAndComplete wants
    if (absl::Status s = schema::ValidateAndComplete(&table); !s.ok())
      return SqlErrorFromSchemaStatus(s);
    SortIndexesAsMysql(&table);
    // The hidden key of a table without a primary key keeps its values across a copy.
    if (table.has_hidden_key()) plan_.source.push_back(old_.has_hidden_key() ? Hidden() : -1);
    plan_.way = Decide();
    if (plan_.way == AlterPlan::Way::kCopy && (algorithm == AlterTableStmt::Algorithm::kInstant ||
                                               algorithm == AlterTableStmt::Algorithm::kInplace)) {
      std::string asked = algorithm == AlterTableStmt::Algorithm::kInstant ? "ALGORITHM=INSTANT"
                                                                           : "ALGORITHM=INPLACE";
      return SqlError{1846, "0A000",
                      absl::StrCat(asked,
                                   " is not supported. Reason: the rows must be copied into the "
                                   "new definition. Try ALGORITHM=COPY.")};
    }
    if (plan_.way == AlterPlan::Way::kCopy) {
      // Until unique keys are tables of their own, a table with one is one partition
      // (engine/node/dictionary.cc).
      bool unique = std::any_of(table.indexes.begin(), table.indexes.end(),
                                [](const IndexDef& i) { return i.unique && !i.primary; });
      if (unique) table.partitions = 1;
    }
    return std::move(plan_);
  }

 private:
  AlterPlan::Way Decide() const {
    const TableDef& table = plan_.table;
    std::string before, after;
    schema::AppendTableDef(old_, &before);
    schema::AppendTableDef(table, &after);
    if (!force_copy_ && before == after) return AlterPlan::Way::kNothing;
    bool same_places = true;
    for (size_t i = 0; i < plan_.source.size(); ++i) {
      same_places &= plan_.source[i] == static_cast<int>(i);
    }
    bool new_unique =
        std::any_of(table.indexes.begin(), table.indexes.end(), [&](const IndexDef& i) {
          if (!i.unique || i.primary) return false;
          return std::none_of(old_.indexes.begin(), old_.indexes.end(), [&](const IndexDef& o) {
            return o.unique && o.columns == i.columns;
          });
        });
    if (!force_copy_ && same_places && !new_unique && schema::StoredAlike(old_, table)) {
      return AlterPlan::Way::kInPlace;
    }
    return AlterPlan::Way::kCopy;
  }

  int Hidden() const { return static_cast<int>(old_.columns.size()) - 1; }

  int FindColumn(absl::string_view name) const {
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (absl::EqualsIgnoreCase(columns_[i].def.name, name)) return static_cast<int>(i);
    }
    return -1;
  }

  int FindIndex(absl::string_view name) const {
    for (size_t i = 0; i < indexes_.size(); ++i) {
      absl::string_view own =
          indexes_[i].primary ? absl::string_view("PRIMARY") : absl::string_view(indexes_[i].name);
      if (absl::EqualsIgnoreCase(own, name)) return static_cast<int>(i);
    }
    return -1;
  }

  bool HasPrimaryKey() const {
    return std::any_of(indexes_.begin(), indexes_.end(),
                       [](const WorkIndex& i) { return i.primary; });
  }

  bool InPrimaryKey(absl::string_view column) const {
    for (const WorkIndex& index : indexes_) {
      if (!index.primary) continue;
      for (const std::string& c : index.columns) {
        if (absl::EqualsIgnoreCase(c, column)) return true;
      }
    }
    return false;
  }

  SqlError UnknownColumn(absl::string_view name) const {
    return mysql::errors::UnknownColumn(name, old_.name);
  }

  // FIRST or AFTER: where a column defined now goes (the end when neither).
  std::variant<size_t, SqlError> Placement(const AlterAction& a) const {
    if (a.first) return size_t{0};
    if (a.after.empty()) return columns_.size();
    int after = FindColumn(a.after);
    if (after < 0) return UnknownColumn(a.after);
    return static_cast<size_t>(after) + 1;
  }

  std::optional<SqlError> AddColumn(const AlterAction& a) {
    if (FindColumn(a.column.name) >= 0) return DuplicateColumn(a.column.name);
    auto def = ColumnDefFromSpec(a.column, a.column.primary_key);
    if (auto* e = std::get_if<SqlError>(&def)) return *e;
    TakeTableCollation(a.column, plan_.table.collation, &std::get<ColumnDef>(def));
    auto at = Placement(a);
    if (auto* e = std::get_if<SqlError>(&at)) return *e;
    columns_.insert(columns_.begin() + std::get<size_t>(at),
                    WorkColumn{std::get<ColumnDef>(std::move(def)), -1});
    return ColumnKeys(a.column);
  }

  // A column's own PRIMARY KEY or UNIQUE, as CREATE TABLE makes them.
  std::optional<SqlError> ColumnKeys(const ColumnSpec& spec) {
    if (spec.primary_key) {
      IndexSpec key;
      key.kind = IndexSpec::Kind::kPrimary;
      key.columns = {spec.name};
      if (auto e = AddIndex(key)) return e;
    }
    if (spec.unique) {
      IndexSpec key;
      key.kind = IndexSpec::Kind::kUnique;
      key.columns = {spec.name};
      if (auto e = AddIndex(key)) return e;
    }
    return std::nullopt;
  }

  std::optional<SqlError> ChangeColumn(const AlterAction& a) {
    int c = FindColumn(a.name);
    if (c < 0) return UnknownColumn(a.name);
    int other = FindColumn(a.column.name);
    if (other >= 0 && other != c) return DuplicateColumn(a.column.name);
    auto def = ColumnDefFromSpec(a.column, a.column.primary_key || InPrimaryKey(a.name));
    if (auto* e = std::get_if<SqlError>(&def)) return *e;
    TakeTableCollation(a.column, plan_.table.collation, &std::get<ColumnDef>(def));
    WorkColumn column{std::get<ColumnDef>(std::move(def)), columns_[c].source};
    RenameInKeys(a.name, a.column.name);
    columns_.erase(columns_.begin() + c);
    auto at = Placement(a);
    if (auto* e = std::get_if<SqlError>(&at)) return *e;
    size_t place = a.first || !a.after.empty() ? std::get<size_t>(at) : static_cast<size_t>(c);
    columns_.insert(columns_.begin() + place, std::move(column));
    return ColumnKeys(a.column);
  }

  std::optional<SqlError> DropColumn(const std::string& name) {
    int c = FindColumn(name);
    if (c < 0) return CantDrop(name);
    for (const WorkForeignKey& fk : foreign_keys_) {
      if (!NamesColumn(fk.columns, name)) continue;
      return SqlError{1828, "HY000",
                      absl::StrCat("Cannot drop column '", columns_[c].def.name,
                                   "': needed in a foreign key constraint '", fk.def.name, "'")};
    }
    columns_.erase(columns_.begin() + c);
    // As MySQL: the column leaves every key it was part of; a key left empty goes.
    for (WorkIndex& index : indexes_) {
      std::erase_if(index.columns,
                    [&](const std::string& k) { return absl::EqualsIgnoreCase(k, name); });
    }
    std::erase_if(indexes_, [](const WorkIndex& i) { return i.columns.empty(); });
    return std::nullopt;
  }

  std::optional<SqlError> RenameColumn(const std::string& from, const std::string& to) {
    int c = FindColumn(from);
    if (c < 0) return UnknownColumn(from);
    int other = FindColumn(to);
    if (other >= 0 && other != c) return DuplicateColumn(to);
    RenameInKeys(from, to);
    columns_[c].def.name = to;
    return std::nullopt;
  }

  void RenameInKeys(absl::string_view from, const std::string& to) {
    for (WorkIndex& index : indexes_) {
      for (std::string& k : index.columns) {
        if (absl::EqualsIgnoreCase(k, from)) k = to;
      }
    }
    for (WorkForeignKey& fk : foreign_keys_) {
      for (std::string& k : fk.columns) {
        if (absl::EqualsIgnoreCase(k, from)) k = to;
      }
    }
  }

  static bool NamesColumn(const std::vector<std::string>& columns, absl::string_view name) {
    return std::any_of(columns.begin(), columns.end(),
                       [&](const std::string& c) { return absl::EqualsIgnoreCase(c, name); });
  }

  // Whether index `i` is the only one a foreign key's child columns can use.
  const WorkForeignKey* NeedsIndex(size_t i) const {
    for (const WorkForeignKey& fk : foreign_keys_) {
      if (!Begins(indexes_[i], fk.columns)) continue;
      bool other = false;
      for (size_t j = 0; j < indexes_.size(); ++j)
        other |= j != i && Begins(indexes_[j], fk.columns);
      if (!other) return &fk;
    }
    return nullptr;
  }

  static bool Begins(const WorkIndex& index, const std::vector<std::string>& columns) {
    if (index.columns.size() < columns.size()) return false;
    for (size_t k = 0; k < columns.size(); ++k) {
      if (!absl::EqualsIgnoreCase(index.columns[k], columns[k])) return false;
    }
    return true;
  }

  std::optional<SqlError> AddForeignKey(const ForeignKeySpec& spec) {
    int last_number = 0;
    for (const WorkForeignKey& fk : foreign_keys_) {
      // MySQL numbers a new unnamed constraint past the highest <table>_ibfk_<n>.
      std::string prefix = absl::StrCat(old_.name, "_ibfk_");
      int n = 0;
      if (absl::StartsWith(fk.def.name, prefix) &&
          absl::SimpleAtoi(absl::string_view(fk.def.name).substr(prefix.size()), &n)) {
        last_number = std::max(last_number, n);
      }
    }
    auto def = ForeignKeyFromSpec(spec, old_.name, old_.database, &last_number);
    if (auto* e = std::get_if<SqlError>(&def)) return *e;
    WorkForeignKey fk;
    fk.def = std::get<schema::ForeignKeyDef>(std::move(def));
    fk.added = true;
    for (const std::string& name : spec.columns) {
      int c = FindColumn(name);
      if (c < 0) {
        return SqlError{1072, "42000",
                        absl::StrCat("Key column '", name, "' doesn't exist in table")};
      }
      fk.columns.push_back(columns_[c].def.name);
    }
    bool indexed = std::any_of(indexes_.begin(), indexes_.end(),
                               [&](const WorkIndex& i) { return Begins(i, fk.columns); });
    if (!indexed) {
      WorkIndex index;
      index.name = ForeignKeyIndexName(spec);
      if (index.name.empty()) index.name = FreeKeyName(fk.columns[0]);
      if (FindIndex(index.name) >= 0) return DuplicateKey(index.name);
      index.columns = fk.columns;
      index.for_foreign_key = true;
      indexes_.push_back(std::move(index));
    }
    foreign_keys_.push_back(std::move(fk));
    return std::nullopt;
  }

  std::optional<SqlError> DropForeignKey(const std::string& name) {
    auto it = std::find_if(foreign_keys_.begin(), foreign_keys_.end(),
                           [&](const WorkForeignKey& fk) { return fk.def.name == name; });
    if (it == foreign_keys_.end()) {
      return SqlError{1091, "42000",
                      absl::StrCat("Can't DROP '", name, "'; check that column/key exists")};
    }
    foreign_keys_.erase(it);  // its index stays, as in MySQL
    return std::nullopt;
  }

  std::optional<SqlError> AddIndex(const IndexSpec& spec) {
    WorkIndex index;
    index.primary = spec.kind == IndexSpec::Kind::kPrimary;
    index.unique = spec.kind != IndexSpec::Kind::kIndex;
    index.name = spec.name;
    if (index.primary && HasPrimaryKey()) {
      return SqlError{1068, "42000", "Multiple primary key defined"};
    }
    if (!index.primary && !index.name.empty() && FindIndex(index.name) >= 0) {
      return DuplicateKey(index.name);
    }
    for (const std::string& name : spec.columns) {
      int c = FindColumn(name);
      if (c < 0) {
        return SqlError{1072, "42000",
                        absl::StrCat("Key column '", name, "' doesn't exist in table")};
      }
      // A primary key's columns become NOT NULL, as in MySQL.
      if (index.primary) columns_[c].def.nullable = false;
      index.columns.push_back(columns_[c].def.name);
    }
    if (index.name.empty() && !index.primary) index.name = FreeKeyName(index.columns[0]);
    // An index made for a foreign key goes once this one can serve the key (as in MySQL).
    std::erase_if(indexes_, [&](const WorkIndex& made) {
      return made.for_foreign_key && Begins(index, made.columns);
    });
    indexes_.push_back(std::move(index));
    return std::nullopt;
  }

  // MySQL names an unnamed key after its first column: c, then c_2, c_3, … when taken.
  std::string FreeKeyName(const std::string& column) const {
    if (FindIndex(column) < 0 && !absl::EqualsIgnoreCase(column, "PRIMARY")) return column;
    for (int n = 2;; ++n) {
      std::string name = absl::StrCat(column, "_", n);
      if (FindIndex(name) < 0) return name;
    }
  }

  std::optional<SqlError> DropIndex(const std::string& name) {
    int i = FindIndex(name);
    if (i < 0) return CantDrop(name);
    if (NeedsIndex(static_cast<size_t>(i)) != nullptr) {
      return SqlError{1553, "HY000",
                      absl::StrCat("Cannot drop index '", indexes_[i].name,
                                   "': needed in a foreign key constraint")};
    }
    indexes_.erase(indexes_.begin() + i);
    return std::nullopt;
  }

  std::optional<SqlError> RenameIndex(const std::string& from, const std::string& to) {
    if (absl::EqualsIgnoreCase(from, "PRIMARY") || absl::EqualsIgnoreCase(to, "PRIMARY")) {
      return SqlError{1280, "42000",
                      absl::StrCat("Incorrect index name '",
                                   absl::EqualsIgnoreCase(from, "PRIMARY") ? from : to, "'")};
    }
    int i = FindIndex(from);
    if (i < 0) {
      return SqlError{1176, "42000",
                      absl::StrCat("Key '", from, "' doesn't exist in table '", old_.name, "'")};
    }
    int other = FindIndex(to);
    if (other >= 0 && other != i) return DuplicateKey(to);
    indexes_[i].name = to;
    return std::nullopt;
  }

  const TableDef& old_;
  std::vector<WorkColumn> columns_;
  std::vector<WorkIndex> indexes_;
  std::vector<WorkForeignKey> foreign_keys_;
  AlterPlan plan_;
  bool force_copy_ = false;
};

}  // namespace

std::variant<AlterPlan, mysql::SqlError> PlanAlter(const schema::TableDef& table,
                                                   const AlterTableStmt& stmt,
                                                   const std::string& database) {
  Alteration alteration(table);
  for (const AlterAction& action : stmt.actions) {
    if (auto error = alteration.Apply(action, database)) return *std::move(error);
  }
  return alteration.Finish(stmt.algorithm);
}

}  // namespace shoal::sql
