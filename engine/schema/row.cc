// Splitting, comparing and writing packed rows (layout in row.h). SplitRow, SplitKey and
// CompareField run for every row a data node touches, so they borrow, never allocate, and stay
// simple loops over the columns.
#include "engine/schema/row.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/schema/bytes.h"
#include "engine/schema/collation.h"

namespace shoal::schema {
namespace {

using internal::AppendLe;
using internal::FixedSizeOf;
using internal::LoadLe;

constexpr uint32_t kMaxVariableBytes = 65535;

// One non-NULL field at `p` with `avail` bytes left.
inline bool ReadFieldAt(const ColumnDef& column, const char* p, size_t avail,
                        absl::string_view* bytes, size_t* used) {
  size_t fixed = FixedSizeOf(static_cast<uint8_t>(column.type));
  if (fixed > 0) {
    if (avail < fixed) return false;
    *bytes = absl::string_view(p, fixed);
    *used = fixed;
    return true;
  }
  if (avail < 2) return false;
  size_t length = LoadLe<uint16_t>(p);
  if (length > avail - 2 || length > MaxValueBytes(column)) return false;
  *bytes = absl::string_view(p + 2, length);
  *used = 2 + length;
  return true;
}

template <typename T>
int Three(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

int CompareBytes(absl::string_view a, absl::string_view b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return Three(a.size(), b.size());
}

// A decimal's text split into sign and significant digits: "-0012.3400" is negative, "12"
// and "34". Zero in any spelling is non-negative with no digits.
struct DecimalParts {
  bool negative = false;
  absl::string_view integer;
  absl::string_view fraction;
};

DecimalParts SplitDecimal(absl::string_view s) {
  DecimalParts d;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    d.negative = s[0] == '-';
    s.remove_prefix(1);
  }
  size_t dot = s.find('.');
  d.integer = s.substr(0, dot);
  if (dot != absl::string_view::npos) d.fraction = s.substr(dot + 1);
  while (!d.integer.empty() && d.integer.front() == '0') d.integer.remove_prefix(1);
  while (!d.fraction.empty() && d.fraction.back() == '0') d.fraction.remove_suffix(1);
  if (d.integer.empty() && d.fraction.empty()) d.negative = false;
  return d;
}

// Numeric order of canonical decimal text, digit by digit (no rounding through double).
int CompareDecimal(absl::string_view a, absl::string_view b) {
  DecimalParts x = SplitDecimal(a);
  DecimalParts y = SplitDecimal(b);
  if (x.negative != y.negative) return x.negative ? -1 : 1;
  int magnitude = Three(x.integer.size(), y.integer.size());
  if (magnitude == 0) magnitude = CompareBytes(x.integer, y.integer);
  if (magnitude == 0) magnitude = CompareBytes(x.fraction, y.fraction);
  return x.negative ? -magnitude : magnitude;
}

}  // namespace

uint32_t MaxValueBytes(const ColumnDef& column) {
  uint64_t max;
  switch (column.type) {
    case ColumnType::kChar:
    case ColumnType::kVarChar:
      max = uint64_t{column.length} * 4;
      break;
    case ColumnType::kBinary:
    case ColumnType::kVarBinary:
      max = column.length;
      break;
    case ColumnType::kDecimal:
      max = uint64_t{column.precision} + 3;
      break;
    case ColumnType::kText:
    case ColumnType::kBlob:
    case ColumnType::kJson:
      max = kMaxVariableBytes;
      break;
    default:
      return FixedSize(column.type);
  }
  return static_cast<uint32_t>(std::min<uint64_t>(max, kMaxVariableBytes));
}

bool ReadField(const ColumnDef& column, absl::string_view in, Field* out, size_t* consumed) {
  out->null = false;
  return ReadFieldAt(column, in.data(), in.size(), &out->bytes, consumed);
}

std::string EncodeValue(const ColumnDef& column, absl::string_view value) {
  std::string out;
  if (FixedSize(column.type) == 0) {
    assert(value.size() <= kMaxVariableBytes);
    AppendLe(value.size(), 2, &out);
  }
  out.append(value.data(), value.size());
  return out;
}

bool SplitRow(const TableDef& table, absl::Span<const uint16_t> columns, absl::string_view in,
              Field* out, size_t* consumed) {
  const size_t n = columns.size();
  const size_t bitmap = (n + 7) / 8;
  if (in.size() < bitmap) return false;
  const auto* nulls = reinterpret_cast<const uint8_t*>(in.data());
  const size_t table_columns = table.columns.size();
  size_t pos = bitmap;
  for (size_t i = 0; i < n; ++i) {
    if (columns[i] >= table_columns) return false;
    if ((nulls[i >> 3] >> (i & 7)) & 1) {
      out[i].bytes = absl::string_view();
      out[i].null = true;
      continue;
    }
    size_t used;
    if (!ReadFieldAt(table.columns[columns[i]], in.data() + pos, in.size() - pos, &out[i].bytes,
                     &used)) {
      return false;
    }
    out[i].null = false;
    pos += used;
  }
  *consumed = pos;
  return true;
}

bool SplitKey(const TableDef& table, absl::Span<const uint16_t> columns, absl::string_view in,
              Field* out, size_t* consumed) {
  const size_t table_columns = table.columns.size();
  size_t pos = 0;
  for (size_t i = 0; i < columns.size(); ++i) {
    size_t used;
    if (columns[i] >= table_columns || !ReadFieldAt(table.columns[columns[i]], in.data() + pos,
                                                    in.size() - pos, &out[i].bytes, &used)) {
      return false;
    }
    out[i].null = false;
    pos += used;
  }
  *consumed = pos;
  return true;
}

bool KeyOfRow(const TableDef& table, int index, absl::string_view row, std::string* key) {
  if (index < 0 || static_cast<size_t>(index) >= table.indexes.size()) return false;
  // Per-thread scratch: a client computes the key of every row it writes.
  thread_local std::vector<uint16_t> all;
  thread_local std::vector<Field> fields;
  thread_local RowWriter writer;
  all.resize(table.columns.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  fields.resize(all.size());
  size_t consumed = 0;
  if (!SplitRow(table, all, row, fields.data(), &consumed) || consumed != row.size()) return false;
  writer.Clear();
  writer.BeginKey();
  for (int c : table.indexes[index].columns) {
    if (fields[c].null) return false;
    writer.Raw(table.columns[c], fields[c]);
  }
  key->assign(writer.view().data(), writer.view().size());
  return true;
}

int CompareField(const ColumnDef& column, absl::string_view a, absl::string_view b) {
  const size_t fixed = FixedSizeOf(static_cast<uint8_t>(column.type));
  if (fixed == 0) {
    if (column.type == ColumnType::kDecimal) return CompareDecimal(a, b);
    if (FoldsCase(column)) return CompareFoldedText(a, b);
    return CompareBytes(a, b);
  }
  // Sizes are right for anything SplitRow accepted; stay memory-safe if they are not.
  if (a.size() != fixed || b.size() != fixed) return CompareBytes(a, b);
  switch (column.type) {
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return Three(FieldDouble(column, a), FieldDouble(column, b));
    case ColumnType::kTinyInt:
    case ColumnType::kSmallInt:
    case ColumnType::kMediumInt:
    case ColumnType::kInt:
    case ColumnType::kBigInt:
      if (column.is_unsigned) return Three(FieldUint(column, a), FieldUint(column, b));
      return Three(FieldInt(column, a), FieldInt(column, b));
    case ColumnType::kEnum:
    case ColumnType::kSet:
    case ColumnType::kBit:
      return Three(FieldUint(column, a), FieldUint(column, b));
    default:
      return Three(FieldInt(column, a), FieldInt(column, b));
  }
}

int64_t FieldInt(const ColumnDef& column, absl::string_view bytes) {
  if ((column.is_unsigned && IsInteger(column.type)) || IsUnsignedStorage(column.type)) {
    return static_cast<int64_t>(FieldUint(column, bytes));
  }
  const char* p = bytes.data();
  switch (FixedSizeOf(static_cast<uint8_t>(column.type))) {
    case 1:
      return static_cast<int8_t>(LoadLe<uint8_t>(p));
    case 2:
      return static_cast<int16_t>(LoadLe<uint16_t>(p));
    case 4:
      return static_cast<int32_t>(LoadLe<uint32_t>(p));
    case 8:
      return static_cast<int64_t>(LoadLe<uint64_t>(p));
    default:
      return 0;
  }
}

uint64_t FieldUint(const ColumnDef& column, absl::string_view bytes) {
  const char* p = bytes.data();
  switch (FixedSizeOf(static_cast<uint8_t>(column.type))) {
    case 1:
      return LoadLe<uint8_t>(p);
    case 2:
      return LoadLe<uint16_t>(p);
    case 4:
      return LoadLe<uint32_t>(p);
    case 8:
      return LoadLe<uint64_t>(p);
    default:
      return 0;
  }
}

double FieldDouble(const ColumnDef& column, absl::string_view bytes) {
  switch (column.type) {
    case ColumnType::kFloat:
      return std::bit_cast<float>(LoadLe<uint32_t>(bytes.data()));
    case ColumnType::kDouble:
      return std::bit_cast<double>(LoadLe<uint64_t>(bytes.data()));
    case ColumnType::kDecimal: {
      double value = 0;
      return absl::SimpleAtod(bytes, &value) ? value : 0;
    }
    default:
      if ((column.is_unsigned && IsInteger(column.type)) || IsUnsignedStorage(column.type)) {
        return static_cast<double>(FieldUint(column, bytes));
      }
      return static_cast<double>(FieldInt(column, bytes));
  }
}

void RowWriter::BeginRow(int n) {
  bitmap_at_ = buffer_.size();
  buffer_.append(static_cast<size_t>(n + 7) / 8, '\0');
  column_ = 0;
  columns_ = n;
}

void RowWriter::BeginKey() {
  column_ = 0;
  columns_ = 0;
}

void RowWriter::Null() {
  assert(column_ < columns_);  // keys have no NULLs
  if (column_ < columns_)
    buffer_[bitmap_at_ + column_ / 8] |= static_cast<char>(1 << (column_ % 8));
  ++column_;
}

void RowWriter::Int(const ColumnDef& column, int64_t value) {
  int fixed = FixedSize(column.type);
  if (fixed == 0) {
    // Convenience for variable-size columns: the value as text (DECIMAL with its scale).
    std::string text = absl::StrCat(value);
    if (column.type == ColumnType::kDecimal && column.scale > 0) {
      text.push_back('.');
      text.append(column.scale, '0');
    }
    Bytes(text);
    return;
  }
  AppendLe(static_cast<uint64_t>(value), fixed, &buffer_);
  ++column_;
}

void RowWriter::Float(float value) {
  AppendLe(std::bit_cast<uint32_t>(value), 4, &buffer_);
  ++column_;
}

void RowWriter::Double(double value) {
  AppendLe(std::bit_cast<uint64_t>(value), 8, &buffer_);
  ++column_;
}

void RowWriter::Bytes(absl::string_view value) {
  assert(value.size() <= kMaxVariableBytes);
  // Truncating keeps the row well-formed should the REQUIRES be broken in a release build.
  size_t n = std::min<size_t>(value.size(), kMaxVariableBytes);
  AppendLe(n, 2, &buffer_);
  buffer_.append(value.data(), n);
  ++column_;
}

void RowWriter::Raw(const ColumnDef& column, const Field& field) {
  if (field.null) {
    Null();
  } else if (FixedSize(column.type) > 0) {
    buffer_.append(field.bytes.data(), field.bytes.size());
    ++column_;
  } else {
    Bytes(field.bytes);
  }
}

}  // namespace shoal::schema
