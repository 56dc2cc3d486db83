#include "engine/storage/row_layout.h"

namespace shoal::storage {

Layout::Layout(const schema::TableDef& table) : columns(table.columns) {
  const int n = static_cast<int>(columns.size());
  bitmap_bytes = (n + 7) / 8;
  fixed.resize(n);
  offset.resize(n);
  int32_t constant = bitmap_bytes;
  for (int i = 0; i < n; ++i) {
    fixed[i] = static_cast<int16_t>(schema::FixedSize(columns[i].type));
    offset[i] = constant;
    all.push_back(static_cast<uint16_t>(i));
    if (constant >= 0 && fixed[i] > 0 && !columns[i].nullable) {
      constant += fixed[i];
    } else {
      constant = -1;
    }
  }
  if (!table.indexes.empty()) {
    for (int c : table.indexes[0].columns) pk.push_back(static_cast<uint16_t>(c));
  }
  pk_folds_case = schema::AnyFoldsCase(columns, pk);
}

int WalkTo(const Layout& layout, const char* row, int col) {
  int pos = layout.bitmap_bytes;
  for (int j = 0; j < col; ++j) {
    if (IsNullAt(row, j)) continue;
    int fixed = layout.fixed[j];
    pos += fixed > 0 ? fixed : 2 + Load16(row + pos);
  }
  return pos;
}

void SplitStored(const Layout& layout, const char* row, schema::Field* out) {
  int pos = layout.bitmap_bytes;
  const int n = static_cast<int>(layout.fixed.size());
  for (int j = 0; j < n; ++j) {
    if (IsNullAt(row, j)) {
      out[j] = schema::Field{absl::string_view(), true};
      continue;
    }
    int fixed = layout.fixed[j];
    if (fixed > 0) {
      out[j] = schema::Field{absl::string_view(row + pos, fixed), false};
      pos += fixed;
    } else {
      uint16_t len = Load16(row + pos);
      out[j] = schema::Field{absl::string_view(row + pos + 2, len), false};
      pos += 2 + len;
    }
  }
}

bool ParseKeyPrefix(const Layout& layout, const std::vector<uint16_t>& columns,
                    absl::string_view in, schema::Field* out, int* n) {
  size_t pos = 0;
  int count = 0;
  while (pos < in.size()) {
    if (count == static_cast<int>(columns.size())) return false;
    int fixed = layout.fixed[columns[count]];
    size_t len = fixed;
    size_t start = pos;
    if (fixed == 0) {
      if (in.size() - pos < 2) return false;
      len = Load16(in.data() + pos);
      start = pos + 2;
    }
    if (in.size() - start < len) return false;
    out[count++] = schema::Field{in.substr(start, len), false};
    pos = start + len;
  }
  *n = count;
  return true;
}

void AppendKeyField(const Layout& layout, int col, absl::string_view bytes, std::string* out) {
  if (layout.fixed[col] > 0) {
    out->append(bytes.data(), bytes.size());
    return;
  }
  const size_t at = out->size();
  out->append(2, '\0');
  if (schema::FoldsCase(layout.columns[col])) {
    schema::AppendFoldedText(bytes, out);
  } else {
    out->append(bytes.data(), bytes.size());
  }
  const uint16_t len = static_cast<uint16_t>(out->size() - at - 2);
  std::memcpy(out->data() + at, &len, 2);
}

bool KeyFormOf(const Layout& layout, const std::vector<uint16_t>& columns, absl::string_view key,
               std::string* scratch, absl::string_view* form) {
  if (!schema::AnyFoldsCase(layout.columns, columns)) {
    *form = key;
    return true;
  }
  if (!schema::FoldKey(layout.columns, columns, key, scratch)) return false;
  *form = *scratch;
  return true;
}

}  // namespace shoal::storage
