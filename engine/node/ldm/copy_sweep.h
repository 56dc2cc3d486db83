// Node restart from this node's own disk, the restarting side (docs/architecture.md,
// "Durability"): the node restored its partitions up to an epoch, and its copy source sends,
// per partition between two kCopyEdge, every committed row it holds — in full when it changed
// since that epoch (a kReplicaWrite of the copy), by key otherwise (kCopyKeep). A row of the
// partition that the copy did not name was deleted while this node was down; the edge that
// ends the partition deletes it here too.
//
// A partition's sweep is
//   open     from its kCopyEdge begin: every key a copy message names is noted;
//   closed   by its kCopyEdge end: committed rows not named are deleted (logged, in the copy's
//            epoch), and the notes forgotten.
// The copy sends one partition at a time, in order on one connection, so one is open at most.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/tables.h"
#include "engine/schema/row.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

class CopySweep {
 public:
  CopySweep(LdmContext* context, LdmTables* tables) : context_(context), tables_(tables) {}

  void Begin(const wire::CopyEdge& edge);
  void End(const wire::CopyEdge& edge);
  // Whether the copy of `partition` of `table_id` is open: its rows are to be noted.
  bool open(uint32_t table_id, uint32_t partition) const {
    return open_.has_value() && *open_ == std::make_pair(table_id, partition);
  }
  // The copy named the row with packed primary key `key` (as sent or in its collation form:
  // noted in that form, as the partition holds it).
  void Named(absl::string_view key);
  // A kReplicaWrite of the copy: its row names its key.
  void NamedRow(const schema::TableDef& table, absl::string_view row);

 private:
  LdmContext* context_;
  LdmTables* tables_;
  std::optional<std::pair<uint32_t, uint32_t>> open_;
  absl::flat_hash_set<std::string> named_;
  std::string key_;  // scratch
  std::string form_;
  schema::RowWriter scratch_;
};

}  // namespace shoal::node
