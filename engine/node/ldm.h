// The LDM role (NDB's local data manager): owns a share of the partitions on this data node
// and runs the operations addressed to them (PartitionPlacement says which).
//
// Owned by one thread (ARCHITECTURE.md I4); everything reaches it through Execute() and the
// dictionary calls on that thread. Results go to a ReplySink, possibly later than Execute()
// returns: an operation that waits for a row lock is parked and answered when the lock is
// released or its wait times out (ER_LOCK_WAIT_TIMEOUT, 1205).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "engine/node/dictionary.h"
#include "engine/schema/row.h"
#include "engine/storage/memory_budget.h"
#include "engine/storage/partition.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

namespace shoal::node {

// Where results go: the kOpConf frame under construction for a client connection.
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  // A builder inside a kOpConf frame for connection `conn`, with room for another result;
  // nullptr when the connection is gone (the result is dropped).
  virtual wire::FrameBuilder* ReplyTo(uint32_t conn) = 0;
};

struct PartitionPlacement {
  int node_groups = 1;
  int replicas = 1;
  int node_group = 0;  // this node's
  int ldm_count = 1;
  int ldm_index = 0;  // this LDM's

  // Partitions of a node group take turns being primary on its replicas (api/cluster.h);
  // dealing them to LDMs in that same rhythm gives every LDM its share of the primaries.
  int LdmOf(uint32_t partition) const {
    return static_cast<int>((partition / node_groups / replicas) % ldm_count);
  }
  bool Owns(uint32_t partition) const {
    return static_cast<int>(partition % node_groups) == node_group && LdmOf(partition) == ldm_index;
  }
};

struct LdmStats {
  uint64_t ops = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t scans = 0;
  uint64_t lock_waits = 0;
  uint64_t lock_timeouts = 0;
  uint64_t errors = 0;
};

class Ldm {
 public:
  Ldm(PartitionPlacement placement, storage::MemoryBudget* budget,
      absl::Duration lock_wait_timeout);
  ~Ldm();

  // Follows the dictionary: creates, re-versions, truncates and drops partitions.
  void Apply(const DictionaryDelta& delta);

  // Runs one operation from connection `conn`. The transaction id the client chose is made
  // unique per connection here.
  void Execute(const wire::Op& op, uint32_t conn, ReplySink* sink);
  // Answers parked operations whose lock wait has run out. Call every few milliseconds.
  void ExpireLockWaits(absl::Time now, ReplySink* sink);
  bool has_parked() const { return !parked_.empty(); }
  // Aborts every transaction of a connection that went away.
  void ConnectionClosed(uint32_t conn, ReplySink* sink);

  const LdmStats& stats() const { return stats_; }
  uint64_t row_count() const;

 private:
  struct TableState {
    TablePtr def;
    std::vector<std::unique_ptr<storage::Partition>> partitions;  // null where not owned
    // Definitions a partition still uses because it could not switch to a newer one (a new
    // unique index its rows break); kept alive as long as the table.
    std::vector<TablePtr> kept;
  };
  struct Parked {
    std::string op;  // the operation's bytes
    uint32_t conn;
    storage::TxnId waiting_for;
    absl::Time deadline;
  };

  // Returns false when the operation hit a lock and was parked (no reply yet).
  bool Run(const wire::Op& op, uint32_t conn, ReplySink* sink, absl::Time deadline);
  void RunScan(const wire::Op& op, const TableState& table, storage::Partition* partition,
               storage::TxnId txn, wire::FrameBuilder* out);
  void Park(const wire::Op& op, uint32_t conn, storage::TxnId holder, absl::Time deadline);
  // Retries operations that waited for `txn`, in arrival order.
  void Unpark(storage::TxnId txn, ReplySink* sink);
  void Error(wire::FrameBuilder* out, uint64_t tag, uint16_t code, absl::string_view message);
  void Reply(wire::FrameBuilder* out, const storage::OpResult& result, const wire::Op& op,
             const schema::TableDef& table);

  PartitionPlacement placement_;
  storage::MemoryBudget* budget_;
  absl::Duration lock_wait_timeout_;
  absl::flat_hash_map<uint32_t, TableState> tables_;
  // Open transactions: the partitions each has touched, so commit, abort and a closed
  // connection reach all of them.
  absl::flat_hash_map<storage::TxnId, absl::flat_hash_set<storage::Partition*>> open_;
  std::deque<Parked> parked_;
  LdmStats stats_;
  schema::RowWriter row_;
  std::vector<uint16_t> columns_;
};

// Node-wide transaction id: the connection in the top 24 bits, the client's id below.
inline storage::TxnId NodeTxnId(uint32_t conn, uint64_t client_txn) {
  return client_txn == 0 ? storage::kAutocommit
                         : (uint64_t{conn} << 40) | (client_txn & ((uint64_t{1} << 40) - 1));
}

}  // namespace shoal::node
