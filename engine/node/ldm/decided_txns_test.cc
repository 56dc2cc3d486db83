#include "engine/node/ldm/decided_txns.h"

#include <vector>

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

std::vector<storage::TxnId> Found(const DecidedTxns& decided, int tc, uint32_t table,
                                  uint32_t partition) {
  std::vector<storage::TxnId> found;
  decided.ForEachOf(tc, table, partition, [&](storage::TxnId txn) { found.push_back(txn); });
  return found;
}

TEST(DecidedTxnsTest, RemembersCommitsByTcAndPartitionForAMinute) {
  DecidedTxns decided;
  const absl::Time start = absl::FromUnixSeconds(1000);
  decided.Note(5, /*tc=*/3, Touched{nullptr, 1, 0}, start);
  decided.Note(5, 3, Touched{nullptr, 1, 2}, start);
  decided.Note(6, 4, Touched{nullptr, 1, 0}, start);
  EXPECT_EQ(Found(decided, 3, 1, 0), std::vector<storage::TxnId>{5});
  EXPECT_EQ(Found(decided, 3, 1, 2), std::vector<storage::TxnId>{5});
  EXPECT_TRUE(Found(decided, 3, 1, 1).empty());
  EXPECT_EQ(Found(decided, 4, 1, 0), std::vector<storage::TxnId>{6});
  // A later note forgets what is older than any takeover could ask about.
  decided.Note(7, 3, Touched{nullptr, 2, 0}, start + absl::Seconds(61));
  EXPECT_TRUE(Found(decided, 3, 1, 0).empty());
  EXPECT_EQ(Found(decided, 3, 2, 0), std::vector<storage::TxnId>{7});
}

}  // namespace
}  // namespace shoal::node
