#include "router/sql/exec/insert_row_alias.h"

#include "absl/strings/str_cat.h"

namespace shoal::sql::internal {

std::variant<NewRowColumns, mysql::SqlError> NameNewRow(const InsertStmt& stmt,
                                                        const schema::TableDef& table) {
  NewRowColumns out;
  if (stmt.row_alias.empty()) return out;
  if (stmt.row_alias == table.name) {
    return mysql::SqlError{1066, "42000",
                           absl::StrCat("Not unique table/alias: '", stmt.row_alias, "'")};
  }
  out.alias = stmt.row_alias;
  // The inserted columns: the list written, or every column the table shows.
  std::vector<int> inserted;
  if (!stmt.columns.empty()) {
    for (const std::string& name : stmt.columns) inserted.push_back(table.FindColumn(name));
  } else {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (!table.columns[c].hidden) inserted.push_back(static_cast<int>(c));
    }
  }
  if (stmt.column_aliases.empty()) {
    for (int c : inserted) {
      if (c >= 0) out.columns.emplace_back(table.columns[c].name, c);
    }
    // Columns left to their defaults are part of the new row too.
    for (size_t c = 0; c < table.columns.size(); ++c) {
      bool listed = false;
      for (int i : inserted) listed |= i == static_cast<int>(c);
      if (!listed && !table.columns[c].hidden) {
        out.columns.emplace_back(table.columns[c].name, static_cast<int>(c));
      }
    }
    return out;
  }
  if (stmt.column_aliases.size() != inserted.size()) {
    return mysql::SqlError{1136, "21S01", "Column count doesn't match value count at row 1"};
  }
  for (size_t i = 0; i < inserted.size(); ++i) {
    if (inserted[i] >= 0) out.columns.emplace_back(stmt.column_aliases[i], inserted[i]);
  }
  return out;
}

}  // namespace shoal::sql::internal
