// Prepared transactions committed here, remembered for a while: a node that takes over a
// failed TC asks each partition what became of the TC's transactions (Participant), and a
// commit that reached a partition before the TC failed must be found committed.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/storage/partition.h"

namespace shoal::node {

class DecidedTxns {
 public:
  // Notes that `txn`, prepared by `tc`, committed in `touched` (and forgets what is older than
  // a takeover could ever ask about).
  void Note(storage::TxnId txn, int tc, const Touched& touched, absl::Time now = absl::Now());
  // Calls `found(txn)` for each remembered commit of `tc` in partition (table, index).
  template <typename Found>
  void ForEachOf(int tc, uint32_t table_id, uint32_t index, Found found) const {
    std::pair<uint32_t, uint32_t> partition(table_id, index);
    for (const auto& [txn, decided] : decided_) {
      if (decided.tc != tc) continue;
      for (const auto& p : decided.partitions) {
        if (p == partition) {
          found(txn);
          break;
        }
      }
    }
  }

 private:
  struct Decided {
    int tc = 0;
    std::vector<std::pair<uint32_t, uint32_t>> partitions;  // (table, partition)
  };
  absl::flat_hash_map<storage::TxnId, Decided> decided_;
  std::deque<std::pair<absl::Time, storage::TxnId>> order_;  // oldest first
};

}  // namespace shoal::node
