#include "engine/storage/index.h"

namespace shoal::storage {

int CompareToProbe(const IndexInfo& info, const Row* row, const KeyProbe& probe) {
  const Layout& layout = *info.layout;
  const char* data = row->row_data();
  for (int i = 0; i < probe.n; ++i) {
    int col = info.cmp_columns[i];
    int c = CompareNullable(layout, col, FieldAt(layout, data, col), probe.fields[i]);
    if (c != 0) return c;
  }
  return -probe.tie;
}

int CompareToBound(const IndexInfo& info, const Row* row, const schema::Field* fields, int n,
                   bool* null_hit) {
  const Layout& layout = *info.layout;
  const char* data = row->row_data();
  *null_hit = false;
  for (int i = 0; i < n; ++i) {
    int col = info.cmp_columns[i];
    schema::Field f = FieldAt(layout, data, col);
    if (f.null) {
      *null_hit = true;
      return -1;
    }
    int c = schema::CompareField(layout.columns[col], f.bytes, fields[i].bytes);
    if (c != 0) return c;
  }
  return 0;
}

absl::weak_ordering IndexLess::operator()(const Row* a, const Row* b) const {
  const Layout& layout = *info->layout;
  const char* da = a->row_data();
  const char* db = b->row_data();
  for (uint16_t col : info->cmp_columns) {
    int c = CompareNullable(layout, col, FieldAt(layout, da, col), FieldAt(layout, db, col));
    if (c != 0) return Ordering(c);
  }
  return absl::weak_ordering::equivalent;
}

bool BuildIndexKey(const IndexInfo& info, const Row* row, std::string* out) {
  out->clear();
  const Layout& layout = *info.layout;
  const char* data = row->row_data();
  for (uint16_t col : info.columns) {
    schema::Field f = FieldAt(layout, data, col);
    if (f.null) return false;
    AppendKeyField(layout, col, f.bytes, out);
  }
  return true;
}

bool UniqueEq::operator()(const Row* a, const Row* b) const {
  if (a == b) return true;
  const Layout& layout = *info->layout;
  for (uint16_t col : info->columns) {
    schema::Field fa = FieldAt(layout, a->row_data(), col);
    schema::Field fb = FieldAt(layout, b->row_data(), col);
    if (fa.null || fb.null || fa.bytes != fb.bytes) return false;
  }
  return true;
}

bool UniqueEq::operator()(const Row* a, absl::string_view b) const {
  if (!BuildIndexKey(*info, a, &info->scratch_b)) return false;
  return info->scratch_b == b;
}

}  // namespace shoal::storage
