#include "engine/node/ldm/decided_txns.h"

#include "absl/algorithm/container.h"

namespace shoal::node {
namespace {

// How long a committed prepared transaction is remembered: far longer than a takeover takes.
constexpr absl::Duration kDecidedMemory = absl::Seconds(60);

}  // namespace

void DecidedTxns::Note(storage::TxnId txn, int tc, const Touched& touched, absl::Time now) {
  while (!order_.empty() && now - order_.front().first > kDecidedMemory) {
    decided_.erase(order_.front().second);
    order_.pop_front();
  }
  auto [it, added] = decided_.try_emplace(txn);
  Decided& decided = it->second;
  if (added) order_.emplace_back(now, txn);
  decided.tc = tc;
  std::pair<uint32_t, uint32_t> partition(touched.table_id, touched.index);
  if (!absl::c_linear_search(decided.partitions, partition))
    decided.partitions.push_back(partition);
}

}  // namespace shoal::node
