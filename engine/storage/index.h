// The indexes of a partition, over row versions (row_layout.h):
//   * PkIndex: hash of the packed primary key -> head, one entry per row.
//   * OrderedIndex: a btree per TableDef index (the primary key's included), ordered by the
//     index's columns (NULL first) and then, for secondary indexes, by the primary key. It
//     holds every version a reader may need: the head, and a before-image whose key differs
//     from its head's (Row::split_mask), so READ COMMITTED scans see committed rows in place.
//     Each entry carries its first column as a 64-bit prefix that orders as the column does
//     (IndexEntry), so most comparisons never read the rows.
//   * UniqueIndex: hash of a unique secondary index's packed key -> a head whose current row
//     has that key (rows with a NULL in the key are absent). Only a hint for fast ReadUnique:
//     the ordered index is the authority, and duplicate checks use it.
// Private to engine/storage; single-threaded like the partition.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/types/compare.h"
#include "engine/storage/row_layout.h"

namespace shoal::storage {

struct PkHash {
  using is_transparent = void;
  size_t operator()(absl::string_view key) const { return absl::Hash<absl::string_view>()(key); }
  size_t operator()(const Row* row) const { return (*this)(row->key()); }
};
struct PkEq {
  using is_transparent = void;
  static absl::string_view K(absl::string_view key) { return key; }
  static absl::string_view K(const Row* row) { return row->key(); }
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    return K(a) == K(b);
  }
};
using PkIndex = absl::flat_hash_set<Row*, PkHash, PkEq>;

// How an ordered index's first column becomes an entry's prefix (see IndexEntry).
enum class PrefixKind : uint8_t {
  kNone,      // DECIMAL, FLOAT, DOUBLE: every prefix 0, rows decide
  kSigned,    // signed integers, dates and times: the value with its sign bit flipped
  kUnsigned,  // unsigned integers, ENUM positions and SET bits: the value
  kBytes,     // strings and binaries: the first 8 bytes, big-endian, zero-padded
  kFolded,    // text that folds case: the same over its folded text (schema::AppendFoldedText)
};

// What an ordered index compares. Owned (stably, by address) by the partition's index state.
struct IndexInfo {
  const Layout* layout = nullptr;
  std::vector<uint16_t> columns;      // the index's columns
  std::vector<uint16_t> cmp_columns;  // columns, then the primary key's for secondary indexes
  bool unique = false;
  bool primary = false;
  PrefixKind prefix_kind = PrefixKind::kNone;
  mutable std::string scratch_a;  // key building for the unique hash
  mutable std::string scratch_b;

  // Sets prefix_kind from the first column's type; call once columns are set.
  void ChoosePrefix();
};

// An ordered index's entry. A btree of bare row pointers reads both rows for every comparison,
// each a cache miss somewhere in the arena: inserting into a large index was a third of a data
// node's CPU. The prefix orders as the first column does wherever two prefixes differ (NULL is
// 0, before any value), so only equal prefixes need the rows.
struct IndexEntry {
  uint64_t prefix;
  Row* row;
  operator Row*() const { return row; }  // NOLINT: entries stand for their rows
};

// The entry of `row` in the index `info` describes.
IndexEntry EntryOf(const IndexInfo& info, Row* row);

// A position to compare rows against: fields over the first `n` cmp_columns; when the
// entry's first n fields equal them, the probe orders as `tie` says (-1: before those
// entries, +1: after them, 0: equal).
struct KeyProbe {
  const schema::Field* fields;
  int n;
  int tie;
};

// Three-way comparison of a stored row version against a probe (the probe's prefix only).
int CompareToProbe(const IndexInfo& info, const Row* row, const KeyProbe& probe);
// Compares the first `n` cmp_columns of `row` with `fields` (no NULLs in fields). `*null_hit`
// is set when a NULL of the row decided it (SQL: the comparison is unknown).
int CompareToBound(const IndexInfo& info, const Row* row, const schema::Field* fields, int n,
                   bool* null_hit);

struct IndexLess {
  using is_transparent = void;
  const IndexInfo* info;
  absl::weak_ordering operator()(const IndexEntry& a, const IndexEntry& b) const {
    if (a.prefix != b.prefix) {
      return a.prefix < b.prefix ? absl::weak_ordering::less : absl::weak_ordering::greater;
    }
    return (*this)(a.row, b.row);
  }
  absl::weak_ordering operator()(const Row* a, const Row* b) const;
  absl::weak_ordering operator()(const Row* a, const KeyProbe& b) const {
    return Ordering(CompareToProbe(*info, a, b));
  }
  absl::weak_ordering operator()(const KeyProbe& a, const Row* b) const {
    return Ordering(-CompareToProbe(*info, b, a));
  }
  static absl::weak_ordering Ordering(int c) {
    return c < 0 ? absl::weak_ordering::less
                 : (c > 0 ? absl::weak_ordering::greater : absl::weak_ordering::equivalent);
  }
};
using OrderedIndex = absl::btree_set<IndexEntry, IndexLess>;

// Packed key of the index's columns of a stored row in its collation form (AppendKeyField),
// into *out; false when one is NULL.
bool BuildIndexKey(const IndexInfo& info, const Row* row, std::string* out);

struct UniqueHash {
  using is_transparent = void;
  const IndexInfo* info;
  size_t operator()(absl::string_view key) const { return absl::Hash<absl::string_view>()(key); }
  size_t operator()(const Row* row) const {
    BuildIndexKey(*info, row, &info->scratch_a);
    return (*this)(absl::string_view(info->scratch_a));
  }
};
struct UniqueEq {
  using is_transparent = void;
  const IndexInfo* info;
  bool operator()(const Row* a, const Row* b) const;
  bool operator()(const Row* a, absl::string_view b) const;
  bool operator()(absl::string_view a, const Row* b) const { return (*this)(b, a); }
  bool operator()(absl::string_view a, absl::string_view b) const { return a == b; }
};
using UniqueIndex = absl::flat_hash_set<Row*, UniqueHash, UniqueEq>;

}  // namespace shoal::storage
