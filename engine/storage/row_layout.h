// How a partition keeps one version of a row in memory, and fast access to the fields of the
// packed rows it stores (which were validated on the way in, so reading them needs no checks).
//
// A row version is one arena block: a 40-byte Row header, the packed primary key (in its
// collation form: a key column that folds case holds its folded text), then the packed full
// row (row.h, every column in table order; the values as written). The key comes first so that a
// row whose size changes in place never moves its key.
//
// A head is the current version of a row: the one the primary-key hash index points to, locked
// by `owner` while a transaction has touched it. The first change a transaction makes copies
// the committed row to a before-image block (`other`), which READ COMMITTED readers see until
// Commit frees it or Abort copies it back. Private to engine/storage.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"

namespace shoal::storage {

using TxnIdWord = uint64_t;

enum RowFlags : uint8_t {
  kBeforeImage = 1,  // a before-image block: `other` is its head
  kInserted = 2,     // head inserted by its uncommitted owner: no committed version
  kDeleted = 4,      // head deleted by its uncommitted owner: committed readers still see it
};

struct Row {
  union {
    TxnIdWord owner;      // head: the transaction holding its lock, 0 when unlocked
    uint64_t split_mask;  // before-image: bit i = it has its own entry in ordered index i
  };
  Row* other;          // head: its before-image or null; before-image: its head
  uint32_t size;       // bytes of the packed row
  uint32_t capacity;   // bytes available after the header (key + row)
  uint32_t txn_slot;   // head with an owner: position in the owner's touched list
  uint16_t key_size;   // bytes of the packed primary key
  uint8_t size_class;  // arena size class (RowArena)
  uint8_t flags;       // RowFlags
  // The epoch of the commit that made this version (docs/architecture.md, I8; 0: unknown, e.g.
  // a non-logged table): a node restarting from its own disk is sent only rows newer than it.
  uint64_t epoch;

  char* data() { return reinterpret_cast<char*>(this + 1); }
  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  absl::string_view key() const { return absl::string_view(data(), key_size); }
  const char* row_data() const { return data() + key_size; }
  absl::string_view row() const { return absl::string_view(row_data(), size); }
  bool is_before_image() const { return flags & kBeforeImage; }
  Row* head() { return is_before_image() ? other : this; }
};
static_assert(sizeof(Row) == 40, "row header size");

// Per-table facts about packed rows, computed once. Columns never change for a partition's life
// (SetTable refuses that), so a Layout outlives table versions; it copies what it needs.
struct Layout {
  explicit Layout(const schema::TableDef& table);

  std::vector<schema::ColumnDef> columns;
  std::vector<int16_t> fixed;   // schema::FixedSize per column (0: variable size)
  std::vector<int32_t> offset;  // constant offset when every earlier column is fixed and NOT
                                // NULL; -1 otherwise
  std::vector<uint16_t> all;    // 0 … n-1
  std::vector<uint16_t> pk;     // the primary key's columns
  int bitmap_bytes = 0;
  // A primary-key column folds case: keys are stored and found in their collation form
  // (schema/collation.h), never as sent.
  bool pk_folds_case = false;
};

inline uint16_t Load16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;  // little-endian hosts only (as the rest of the engine)
}

inline bool IsNullAt(const char* row, int col) { return (row[col >> 3] >> (col & 7)) & 1; }

// Byte offset of column `col` (not NULL) in a stored packed row.
int WalkTo(const Layout& layout, const char* row, int col);

// Field of column `col` of a stored (trusted) packed row.
inline schema::Field FieldAt(const Layout& layout, const char* row, int col) {
  if (IsNullAt(row, col)) return schema::Field{absl::string_view(), true};
  int off = layout.offset[col];
  if (off < 0) off = WalkTo(layout, row, col);
  int fixed = layout.fixed[col];
  if (fixed > 0) return schema::Field{absl::string_view(row + off, fixed), false};
  return schema::Field{absl::string_view(row + off + 2, Load16(row + off)), false};
}

// Splits a stored packed row into one Field per column (out has layout.columns.size()).
void SplitStored(const Layout& layout, const char* row, schema::Field* out);

// Parses a packed key over a prefix of `columns` (no bitmap): *n fields into out. False when
// malformed (truncated, too long, a variable field over 65535 bytes is impossible anyway).
bool ParseKeyPrefix(const Layout& layout, const std::vector<uint16_t>& columns,
                    absl::string_view in, schema::Field* out, int* n);

// Appends one non-NULL field in packed-key form (fixed bytes, or int<2> length | bytes), in its
// collation form: folded when the column folds case (schema/collation.h). What the primary
// key and unique hash indexes hold.
void AppendKeyField(const Layout& layout, int col, absl::string_view bytes, std::string* out);

// A packed key over `columns` as those indexes hold it: `key` itself when no column folds
// case, else its folded form in *scratch. False when `key` is malformed.
bool KeyFormOf(const Layout& layout, const std::vector<uint16_t>& columns, absl::string_view key,
               std::string* scratch, absl::string_view* form);

// Three-way comparison of two fields of `col`, NULL first (as MySQL orders indexes).
inline int CompareNullable(const Layout& layout, int col, const schema::Field& a,
                           const schema::Field& b) {
  if (a.null || b.null) return a.null == b.null ? 0 : (a.null ? -1 : 1);
  return schema::CompareField(layout.columns[col], a.bytes, b.bytes);
}

}  // namespace shoal::storage
