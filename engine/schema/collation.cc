#include "engine/schema/collation.h"

#include <algorithm>

#include "engine/schema/row.h"

namespace shoal::schema {

bool AnyFoldsCase(absl::Span<const ColumnDef> columns, absl::Span<const uint16_t> key_columns) {
  return std::any_of(key_columns.begin(), key_columns.end(),
                     [&](uint16_t c) { return c < columns.size() && FoldsCase(columns[c]); });
}

bool IndexFoldsCase(const TableDef& table, int index) {
  if (index < 0 || index >= static_cast<int>(table.indexes.size())) return false;
  for (int c : table.indexes[index].columns) {
    if (c >= 0 && c < static_cast<int>(table.columns.size()) && FoldsCase(table.columns[c])) {
      return true;
    }
  }
  return false;
}

bool FoldKey(absl::Span<const ColumnDef> columns, absl::Span<const uint16_t> key_columns,
             absl::string_view key, std::string* out) {
  out->clear();
  for (uint16_t c : key_columns) {
    if (key.empty()) break;  // a prefix: a range's bound
    if (c >= columns.size()) return false;
    Field field;
    size_t consumed = 0;
    if (!ReadField(columns[c], key, &field, &consumed)) return false;
    if (FoldsCase(columns[c])) {
      const size_t at = out->size();
      out->append(2, '\0');
      AppendFoldedText(field.bytes, out);
      // Folding never lengthens: the length still fits its int<2>.
      const size_t length = out->size() - at - 2;
      (*out)[at] = static_cast<char>(length & 0xff);
      (*out)[at + 1] = static_cast<char>(length >> 8);
    } else {
      out->append(key.data(), consumed);
    }
    key.remove_prefix(consumed);
  }
  return key.empty();
}

absl::string_view KeyForm(const TableDef& table, int index, absl::string_view key,
                          std::string* scratch) {
  if (!IndexFoldsCase(table, index)) return key;
  const std::vector<int>& positions = table.indexes[index].columns;
  uint16_t key_columns[64];
  if (positions.size() > std::size(key_columns)) return key;
  for (size_t i = 0; i < positions.size(); ++i)
    key_columns[i] = static_cast<uint16_t>(positions[i]);
  if (!FoldKey(table.columns, absl::MakeConstSpan(key_columns, positions.size()), key, scratch)) {
    return key;
  }
  return *scratch;
}

}  // namespace shoal::schema
