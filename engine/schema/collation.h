// How text compares: MySQL 8.0's default utf8mb4_0900_ai_ci as Shoal models it — case and
// accents folded in every script (text_fold.h), trailing spaces significant (NO PAD) — or
// binary (_bin) byte order.
//
// Keys follow their columns' collations (docs/architecture.md, "Collations and keys"): a key
// column that folds case makes 'Ada', 'ADA' and 'ada' one key, found by any of them and
// refused a second time. Such a key has a collation form (FoldKey): the packed key with each
// folding field folded. Keys the collation holds equal share it, so it is what a key hashes
// as (partition, hash index) and what a data node stores as the row's key; the row itself
// keeps the value as written. Folding is idempotent: the form of a form is itself.
//
// This is the router's `=` and `<` on text (expr_eval.cc), so that what a key lookup or an
// index range finds is what the router's check of the WHERE accepts. (The router's ORDER BY,
// GROUP BY and DISTINCT also ignore trailing spaces, as MariaDB's PAD SPACE collations.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/schema/schema.h"
#include "engine/schema/text_fold.h"

namespace shoal::schema {

// Whether values of `column` compare case-insensitively: a CHAR, VARCHAR or TEXT column of a
// _ci collation.
inline bool FoldsCase(const ColumnDef& column) {
  return column.collation == Collation::kCaseInsensitive &&
         (column.type == ColumnType::kChar || column.type == ColumnType::kVarChar ||
          column.type == ColumnType::kText);
}

// Whether index `index` of `table` (0: the primary key) has a column that folds case, so
// that its keys have a collation form different from their bytes.
bool IndexFoldsCase(const TableDef& table, int index);
// The same over a table's columns and an index's column positions.
bool AnyFoldsCase(absl::Span<const ColumnDef> columns, absl::Span<const uint16_t> key_columns);

// The collation form of packed key `key` over `key_columns` (positions in `columns`) or a
// prefix of them (a range's bound), into *out: each field of a folding column folded
// (AppendFoldedText, its int<2> length updated), the others as they are. False, *out
// unspecified, when `key` is malformed.
bool FoldKey(absl::Span<const ColumnDef> columns, absl::Span<const uint16_t> key_columns,
             absl::string_view key, std::string* out);

// `key` of index `index` as its collation form: `key` itself when the index folds nothing
// (no copy), else its form built in *scratch. A malformed key is returned as it is.
absl::string_view KeyForm(const TableDef& table, int index, absl::string_view key,
                          std::string* scratch);

}  // namespace shoal::schema
