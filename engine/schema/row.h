// The packed row format: how column values travel in native frames and rest in storage.
//
// A packed row covers an ordered set of columns of one table (all of them, the primary key,
// or any subset named in a frame):
//
//   null bitmap: ceil(n / 8) bytes, bit i (byte i / 8, bit i % 8) set = column i is NULL
//   then, for every column that is not NULL, in order:
//     fixed-size types (schema::FixedSize > 0): that many bytes, little-endian
//     variable-size types: int<2> length | length bytes
//
// A packed key is the same without the null bitmap (key columns are never NULL); it is what
// the primary-key hash index stores and what KeyHash partitions on. Ordered indexes compare
// typed values (CompareField), so integers order numerically and strings byte-wise (binary
// collation; MySQL's case-insensitive collations are not modelled yet).
#pragma once

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/schema/schema.h"

namespace shoal::schema {

// One column's bytes inside a packed row; `bytes` excludes the int<2> length of variable types.
struct Field {
  absl::string_view bytes;
  bool null = false;
};

// Splits a packed row over `columns` (positions in table.columns) into fields. Returns false
// when `in` is malformed (too short, a length too long for the column). On success
// `*consumed` is the row's size; `out[i]` borrows from `in`.
// REQUIRES: out has columns.size() elements.
bool SplitRow(const TableDef& table, absl::Span<const uint16_t> columns, absl::string_view in,
              Field* out, size_t* consumed);
// The same for a packed key over `columns` (no null bitmap).
bool SplitKey(const TableDef& table, absl::Span<const uint16_t> columns, absl::string_view in,
              Field* out, size_t* consumed);

// The packed key of index `index` (a position in table.indexes; 0 is the primary key) taken
// from a packed row over all of table.columns: what a client partitions a write on and what a
// data node names in ER_DUP_ENTRY. False, leaving `*key` as it was, if `index` is out of
// range, `row` is malformed or has bytes past its last column, or a key column is NULL (a row
// with no entry in that unique index).
bool KeyOfRow(const TableDef& table, int index, absl::string_view row, std::string* key);

// Reads one non-NULL field of `column` from the front of `in` (fixed bytes, or int<2> length |
// bytes) with SplitRow's checks. On success `out->bytes` borrows from `in`.
bool ReadField(const ColumnDef& column, absl::string_view in, Field* out, size_t* consumed);
// The most bytes a value of `column` may have: FixedSize for the fixed-size types; CHAR and
// VARCHAR 4 per character (utf8mb4), BINARY and VARBINARY `length`, TEXT and BLOB 65535,
// DECIMAL precision + 3 (sign, point, leading zero); never more than 65535.
uint32_t MaxValueBytes(const ColumnDef& column);
// Packs one non-NULL value as a field of `column` (variable-size types get the int<2> length):
// the form of ColumnDef::default_value and of filter and update operands.
// REQUIRES: value.size() == FixedSize for fixed-size types, <= 65535 otherwise.
std::string EncodeValue(const ColumnDef& column, absl::string_view value);

// Three-way comparison of two non-NULL values of `column`.
int CompareField(const ColumnDef& column, absl::string_view a, absl::string_view b);

// Typed views of a non-NULL field (REQUIRES: bytes.size() matches the type).
int64_t FieldInt(const ColumnDef& column, absl::string_view bytes);    // signed types, dates, times
uint64_t FieldUint(const ColumnDef& column, absl::string_view bytes);  // unsigned integers
double FieldDouble(const ColumnDef& column, absl::string_view bytes);  // FLOAT, DOUBLE, DECIMAL

// Appends packed rows and keys. Reuse one writer: Clear() keeps the capacity.
class RowWriter {
 public:
  // Starts a packed row of `n` columns (writes the zeroed null bitmap).
  void BeginRow(int n);
  // Starts a packed key (no bitmap).
  void BeginKey();
  void Null();                                       // marks the next column NULL
  void Int(const ColumnDef& column, int64_t value);  // integers, DATE, TIME, DATETIME…
  // (On a variable-size column Int writes the value as text; DECIMAL gets `scale` zeros.)
  void Float(float value);
  void Double(double value);
  void Bytes(absl::string_view value);  // any variable-size type
  // Appends a field already in packed form (for copying between rows).
  void Raw(const ColumnDef& column, const Field& field);

  absl::string_view view() const { return buffer_; }
  std::string& buffer() { return buffer_; }
  void Clear() { buffer_.clear(); }

 private:
  std::string buffer_;
  size_t bitmap_at_ = 0;
  int column_ = 0;
  int columns_ = 0;  // 0 when writing a key
};

}  // namespace shoal::schema
