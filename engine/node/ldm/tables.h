// The partitions an LDM owns, by table, following the dictionary: created, re-versioned,
// truncated and dropped as its deltas say.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/context.h"
#include "engine/storage/memory_budget.h"
#include "engine/storage/partition.h"

namespace shoal::node {

struct TableState {
  TablePtr def;
  bool logged = true;  // schema::Logged(*def), once per definition rather than per operation
  std::vector<std::unique_ptr<storage::Partition>> partitions;  // null where not owned
  // Definitions a partition still uses because it could not switch to a newer one (a new
  // unique index its rows break); kept alive as long as the table.
  std::vector<TablePtr> kept;
};

class LdmTables {
 public:
  // `redo` sees the commits of every partition of a logged table (schema::Logged).
  LdmTables(const PartitionPlacement* placement, storage::MemoryBudget* budget, RedoTap* redo)
      : placement_(placement), budget_(budget), redo_(redo) {}

  // What a dictionary delta changed here, for the roles that keep partition pointers.
  struct Changes {
    std::vector<uint32_t> forgotten;  // tables whose partitions are gone (dropped, truncated)
    std::vector<std::pair<uint32_t, uint32_t>> created;  // (table, partition) new and empty
  };
  // A truncation is logged under `epoch`.
  Changes Apply(const DictionaryDelta& delta, uint64_t epoch);

  // Empties partition `partition` (a restore that meets a TRUNCATE in the redo). False when it
  // is not here.
  bool Reset(uint32_t table_id, uint32_t partition);

  const TableState* Table(uint32_t table_id) const;
  storage::Partition* Find(uint32_t table_id, uint32_t partition) const;
  const absl::flat_hash_map<uint32_t, TableState>& all() const { return tables_; }
  uint64_t row_count() const;

 private:
  const PartitionPlacement* placement_;
  storage::MemoryBudget* budget_;
  RedoTap* redo_;
  absl::flat_hash_map<uint32_t, TableState> tables_;
};

}  // namespace shoal::node
