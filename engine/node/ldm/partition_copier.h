// Node restart, the copying side: every partition of this LDM goes to a data node that
// restarts, whole partitions per step, with the row versions open transactions hold and which
// of those are prepared. A copy is
//   started    by the restarting node's kCopyReq (Start), with every partition to do;
//   stepping   while partitions remain (Step); partitions created meanwhile join the list, and
//              writes to partitions already sent follow them (Targets: the copy target);
//   complete   when all are sent (kCopyDone with kCopyComplete); writes keep going to the
//              node as a copy target until the view has it started, when the copy ends
//              (ViewChanged) and it gets writes as a backup;
//   dropped    when the node leaves or its connection closes.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/schema/row.h"

namespace shoal::node {

class PartitionCopier {
 public:
  PartitionCopier(LdmContext* context, const LdmTables* tables, const TxnTable* txns)
      : context_(context), tables_(tables), txns_(txns) {}

  // Copies to data node `node`, whose request came on connection `conn`, whole partitions per
  // Step() until one has taken the step past `rows_per_step` rows; `ldm_count` LDMs of this
  // node copy. With `since_epoch`, the node restored its own disk up to it: committed rows no
  // newer go by key only, each logged partition framed by kCopyEdge (CopySweep, its side).
  void Start(int node, uint32_t conn, int ldm_count, uint64_t rows_per_step,
             uint64_t since_epoch = 0);
  // Copies the next partitions; false when there is nothing (more) to copy.
  bool Step(ReplySink* sink);
  bool copying() const { return copy_.has_value() && !copy_->complete; }
  // A partition created while a copy runs is copied too (its rows may be written before).
  void Created(uint32_t table_id, uint32_t partition);

  // The connection to the node being copied to when it must get the writes to `partition`:
  // it has the partition already and is not yet a started backup; nullopt otherwise.
  std::optional<uint32_t> TargetFor(uint32_t table_id, uint32_t partition) const;

  // The view changed: a node we copied to that serves now gets writes as a backup instead.
  void ViewChanged();
  void NodeLost(int node);
  void ConnectionClosed(uint32_t conn);

 private:
  struct Copy {
    int node = 0;
    uint32_t conn = 0;
    int ldm_count = 1;
    uint64_t rows_per_step = 0;
    uint64_t since_epoch = 0;
    uint64_t copied_before = 0;  // the LDM's counters when it started, for its log line
    uint64_t kept_before = 0;
    std::deque<std::pair<uint32_t, uint32_t>> todo;  // (table, partition) not copied yet
    absl::flat_hash_set<std::pair<uint32_t, uint32_t>> done;
    uint32_t total = 0;
    bool complete = false;
  };

  // Sends the partition's rows, the versions open transactions hold, and which of those are
  // prepared.
  void CopyPartition(uint32_t table_id, uint32_t p, ReplySink* sink);
  void SendProgress(ReplySink* sink);

  LdmContext* context_;
  const LdmTables* tables_;
  const TxnTable* txns_;
  std::optional<Copy> copy_;
  schema::RowWriter row_;
};

}  // namespace shoal::node
