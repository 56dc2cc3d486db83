// See foreign_key_definitions.h.
#include "router/sql/exec/foreign_key_definitions.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "router/sql/exec/table_spec.h"

namespace shoal::sql::internal {
namespace {

using mysql::SqlError;
using schema::ColumnDef;
using schema::ColumnType;
using schema::ForeignKeyDef;
using schema::TableDef;

bool IsText(ColumnType t) {
  return t == ColumnType::kChar || t == ColumnType::kVarChar || t == ColumnType::kText;
}
bool IsBytes(ColumnType t) {
  return t == ColumnType::kBinary || t == ColumnType::kVarBinary || t == ColumnType::kBlob;
}

// MySQL's rule: the same type and signedness; strings (or byte strings) of any length.
bool Compatible(const ColumnDef& child, const ColumnDef& parent) {
  if (IsText(child.type) && IsText(parent.type)) return true;
  if (IsBytes(child.type) && IsBytes(parent.type)) return true;
  return child.type == parent.type && child.is_unsigned == parent.is_unsigned &&
         (child.type != ColumnType::kDecimal ||
          (child.precision == parent.precision && child.scale == parent.scale));
}

std::optional<SqlError> CheckParent(const TableDef& child, const ForeignKeyDef& fk,
                                    const TableDef& parent) {
  std::vector<int> columns;
  for (const std::string& name : fk.parent_columns) {
    int c = parent.FindColumn(name);
    if (c < 0 || parent.columns[c].hidden) {
      return SqlError{3734, "HY000",
                      absl::StrCat("Failed to add the foreign key constraint. Missing column '",
                                   name, "' for constraint '", fk.name,
                                   "' in the referenced table '", parent.name, "'")};
    }
    columns.push_back(c);
  }
  if (!IndexBeginsWith(parent, columns)) {
    return SqlError{1822, "HY000",
                    absl::StrCat("Failed to add the foreign key constraint. Missing index for "
                                 "constraint '",
                                 fk.name, "' in the referenced table '", parent.name, "'")};
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnDef& a = child.columns[fk.columns[i]];
    const ColumnDef& b = parent.columns[columns[i]];
    if (!Compatible(a, b)) {
      return SqlError{
          3780, "HY000",
          absl::StrCat("Referencing column '", a.name, "' and referenced column '", b.name,
                       "' in foreign key constraint '", fk.name, "' are incompatible.")};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<SqlError> CheckReferencedAlter(const TableDef& before, const TableDef& after,
                                             const std::vector<int>& source, bool copy,
                                             const api::Dictionary& dictionary) {
  const std::vector<api::Dictionary::Reference>* references = dictionary.ReferencesTo(before);
  if (references == nullptr) return std::nullopt;
  for (const api::Dictionary::Reference& r : *references) {
    if (r.child->id == before.id) continue;  // its own keys are checked as defined
    const ForeignKeyDef& fk = r.child->foreign_keys[r.key];
    std::vector<int> old_columns, new_columns;
    for (size_t i = 0; i < fk.parent_columns.size(); ++i) {
      const std::string& name = fk.parent_columns[i];
      const int old = before.FindColumn(name);
      if (old < 0) continue;  // already broken (defined with the checks off)
      auto at = std::find(source.begin(), source.end(), old);
      if (at == source.end()) {
        return SqlError{
            1829, "HY000",
            absl::StrCat("Cannot drop column '", name, "': needed in a foreign key constraint '",
                         fk.name, "' of table '", r.child->name, "'")};
      }
      const int now = static_cast<int>(at - source.begin());
      const ColumnDef& column = after.columns[now];
      if (copy && column.name != before.columns[old].name) {
        return mysql::errors::NotSupportedYet(
            "renaming a column other tables' foreign keys reference in a copying ALTER TABLE");
      }
      if (!Compatible(r.child->columns[fk.columns[i]], column)) {
        return SqlError{
            3780, "HY000",
            absl::StrCat("Referencing column '", r.child->columns[fk.columns[i]].name,
                         "' and referenced column '", column.name, "' in foreign key constraint '",
                         fk.name, "' are incompatible.")};
      }
      old_columns.push_back(old);
      new_columns.push_back(now);
    }
    if (new_columns.size() == fk.parent_columns.size() && !IndexBeginsWith(after, new_columns)) {
      std::string index = "PRIMARY";
      for (const schema::IndexDef& i : before.indexes) {
        if (i.columns.size() >= old_columns.size() &&
            std::equal(old_columns.begin(), old_columns.end(), i.columns.begin())) {
          index = i.name;
          break;
        }
      }
      return SqlError{
          1553, "HY000",
          absl::StrCat("Cannot drop index '", index, "': needed in a foreign key constraint")};
    }
  }
  return std::nullopt;
}

std::optional<SqlError> CheckForeignKeyDefinitions(const TableDef& table,
                                                   const api::Dictionary& dictionary, bool checks,
                                                   size_t first_new) {
  for (size_t k = first_new; k < table.foreign_keys.size(); ++k) {
    const ForeignKeyDef& fk = table.foreign_keys[k];
    auto duplicate = SqlError{
        1826, "HY000", absl::StrCat("Duplicate foreign key constraint name '", fk.name, "'")};
    for (size_t j = 0; j < k; ++j) {
      if (table.foreign_keys[j].name == fk.name) return duplicate;
    }
    for (const auto& [name, other] : dictionary.by_name) {
      if (other->database != table.database || other->id == table.id) continue;
      for (const ForeignKeyDef& theirs : other->foreign_keys) {
        if (theirs.name == fk.name) return duplicate;
      }
    }
    auto reference = [](schema::ReferenceAction action) {
      return action == schema::ReferenceAction::kSetNull;
    };
    if (reference(fk.on_delete) || reference(fk.on_update)) {
      for (int c : fk.columns) {
        if (table.columns[c].nullable) continue;
        return SqlError{1830, "HY000",
                        absl::StrCat("Column '", table.columns[c].name,
                                     "' cannot be NOT NULL: needed in a foreign key constraint '",
                                     fk.name, "' SET NULL")};
      }
    }
    if (!checks) continue;
    const bool self = fk.parent_database == table.database && fk.parent_table == table.name;
    api::TablePtr parent = self ? nullptr : dictionary.Find(fk.parent_database, fk.parent_table);
    if (!self && parent == nullptr) {
      return SqlError{1824, "HY000",
                      absl::StrCat("Failed to open the referenced table '", fk.parent_table, "'")};
    }
    if (auto err = CheckParent(table, fk, self ? table : *parent)) return err;
  }
  return std::nullopt;
}

}  // namespace shoal::sql::internal
