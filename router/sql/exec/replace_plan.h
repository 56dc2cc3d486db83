// REPLACE into a table with unique secondary indexes (docs/architecture.md, "Writes"). MySQL
// inserts each row and, while the insert fails on a duplicate in the primary key or in any
// unique index, deletes the row it collided with and tries again: a new row may take the
// place of several (one per key), and affected rows count each deleted row and each inserted
// one. A data node's Write replaces only what the primary key holds, so the router first reads,
// locked, what every row's keys hold (exec_replace.cc), then works out here, row after row as
// MySQL would, the deletes and writes that the statement amounts to. Applied in order in one
// transaction, no step of that sequence meets a duplicate: each sees the rows the steps before
// it left. Pure (no I/O); used on the session's worker thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "engine/schema/schema.h"

namespace shoal::sql::internal {

// Whether REPLACE into `table` must look for collisions on unique secondary keys first: a
// table without them needs only the data node's Write.
bool HasUniqueSecondaryIndex(const schema::TableDef& table);

// One native write of a REPLACE, in the order they are to be applied.
struct ReplaceStep {
  enum class Kind : uint8_t { kDelete, kWrite };
  Kind kind = Kind::kWrite;
  std::string row;  // kDelete: the row deleted (its primary key names it); kWrite: the new row
  // kWrite: what its primary key held just before (a stored row, or an earlier row of the
  // statement), which the write replaces; nullopt when nothing.
  std::optional<std::string> before;
};

// Owned by one REPLACE; keeps, by primary key, the rows its steps have left so far.
class ReplacePlanner {
 public:
  // REQUIRES: `table` outlives this.
  explicit ReplacePlanner(const schema::TableDef& table);

  // The unique secondary indexes (positions in table.indexes) whose keys the rows are read by.
  const std::vector<int>& unique_indexes() const { return unique_indexes_; }

  // A stored row (packed over every column) that a locked read of a row's primary or unique key
  // found. A row noted twice counts once. REQUIRES: before the first Add.
  void Stored(absl::string_view row);

  // The statement's next row: appends to `*steps` a delete of each other row it collides with
  // on a unique key (in index order), then its own write. REQUIRES: every row stored under the
  // row's primary key and unique keys was noted (Stored).
  void Add(absl::string_view row, std::vector<ReplaceStep>* steps);

 private:
  // A key of `index` of `row` in its collation form (keys a _ci collation holds equal are one);
  // nullopt for a row without one (a NULL in a unique key).
  std::optional<std::string> KeyForm(int index, absl::string_view row) const;
  // Adds `row` under primary key form `pk` to the unique keys, or takes its keys away.
  void Index(const std::string& pk, absl::string_view row);
  void Unindex(const std::string& pk, absl::string_view row);

  const schema::TableDef& table_;
  std::vector<int> unique_indexes_;
  // Primary key form → the row there now (nullopt: deleted by a step). Keys absent were empty
  // when read.
  absl::flat_hash_map<std::string, std::optional<std::string>> rows_;
  // Per unique index (as unique_indexes_): key form → primary key form of the row holding it.
  std::vector<absl::flat_hash_map<std::string, std::string>> holders_;
};

}  // namespace shoal::sql::internal
