#include "engine/storage/index.h"

#include <algorithm>

#include "engine/schema/row.h"

namespace shoal::storage {
namespace {

// Bytes compare unsigned, then shorter first: a shorter string's zero padding never puts it
// after a longer one it equals so far.
uint64_t BytesPrefix(absl::string_view bytes) {
  uint64_t prefix = 0;
  const size_t n = std::min<size_t>(bytes.size(), 8);
  for (size_t i = 0; i < n; ++i) prefix |= uint64_t{static_cast<uint8_t>(bytes[i])} << (56 - 8 * i);
  return prefix;
}

}  // namespace

void IndexInfo::ChoosePrefix() {
  const schema::ColumnDef& first = layout->columns[cmp_columns[0]];
  using schema::ColumnType;
  if (first.type == ColumnType::kDecimal || first.type == ColumnType::kFloat ||
      first.type == ColumnType::kDouble) {
    prefix_kind = PrefixKind::kNone;
  } else if (schema::FoldsCase(first)) {
    prefix_kind = PrefixKind::kFolded;
  } else if (schema::FixedSize(first.type) == 0) {
    prefix_kind = PrefixKind::kBytes;
  } else if ((first.is_unsigned && schema::IsInteger(first.type)) ||
             schema::IsUnsignedStorage(first.type)) {
    prefix_kind = PrefixKind::kUnsigned;
  } else {
    prefix_kind = PrefixKind::kSigned;
  }
}

IndexEntry EntryOf(const IndexInfo& info, Row* row) {
  IndexEntry entry{0, row};
  if (info.prefix_kind == PrefixKind::kNone) return entry;
  const int col = info.cmp_columns[0];
  schema::Field f = FieldAt(*info.layout, row->row_data(), col);
  if (f.null) return entry;
  const schema::ColumnDef& column = info.layout->columns[col];
  switch (info.prefix_kind) {
    case PrefixKind::kSigned:
      entry.prefix = static_cast<uint64_t>(schema::FieldInt(column, f.bytes)) ^ (uint64_t{1} << 63);
      break;
    case PrefixKind::kUnsigned:
      entry.prefix = schema::FieldUint(column, f.bytes);
      break;
    case PrefixKind::kBytes:
      entry.prefix = BytesPrefix(f.bytes);
      break;
    case PrefixKind::kFolded: {
      // CompareFoldedText orders folded texts by their bytes, shorter first.
      char folded[8];
      entry.prefix =
          BytesPrefix(absl::string_view(folded, schema::FoldedPrefix(f.bytes, folded, 8)));
      break;
    }
    case PrefixKind::kNone:
      break;
  }
  return entry;
}

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
    if (fa.null || fb.null) return false;
    if (schema::FoldsCase(layout.columns[col]) ? schema::CompareFoldedText(fa.bytes, fb.bytes) != 0
                                               : fa.bytes != fb.bytes) {
      return false;
    }
  }
  return true;
}

bool UniqueEq::operator()(const Row* a, absl::string_view b) const {
  if (!BuildIndexKey(*info, a, &info->scratch_b)) return false;
  return info->scratch_b == b;
}

}  // namespace shoal::storage
