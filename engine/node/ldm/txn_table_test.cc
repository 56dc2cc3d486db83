#include "engine/node/ldm/txn_table.h"

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

// Partition pointers are only compared here, never followed.
storage::Partition* FakePartition(uintptr_t n) { return reinterpret_cast<storage::Partition*>(n); }

TEST(TxnTableTest, TouchAddsEachPartitionOnce) {
  TxnTable txns;
  Touched p1{FakePartition(8), 1, 0};
  txns.Touch(5, 7, p1);
  txns.Touch(5, 7, p1);
  txns.Touch(5, 7, Touched{FakePartition(16), 1, 1});
  ASSERT_NE(txns.Primary(5), nullptr);
  EXPECT_EQ(txns.Primary(5)->touched.size(), 2u);
  EXPECT_EQ(txns.Primary(5)->conn, 7u);
  EXPECT_EQ(txns.Primary(5)->state, TxnState::kActive);
  EXPECT_EQ(txns.Replica(5), nullptr);
}

TEST(TxnTableTest, AdoptMovesTheReplicaRecordWithItsPreparedState) {
  TxnTable txns;
  txns.Touch(5, 7, Touched{FakePartition(8), 1, 0});
  TxnRecord& replica = txns.AddReplica(5);
  replica.source = 3;
  replica.Prepare(/*by_tc=*/4);
  replica.Add(Touched{FakePartition(16), 1, 1});
  replica.Add(Touched{FakePartition(8), 1, 0});
  txns.Adopt(5);
  EXPECT_EQ(txns.Replica(5), nullptr);
  const TxnRecord* adopted = txns.Primary(5);
  ASSERT_NE(adopted, nullptr);
  EXPECT_TRUE(adopted->prepared());
  EXPECT_EQ(adopted->tc, 4);
  EXPECT_EQ(adopted->touched.size(), 2u);
  EXPECT_TRUE(adopted->HoldsPartition(1, 1));

  // An active replica record leaves the primary record's state as it was.
  txns.AddReplica(6).Add(Touched{FakePartition(8), 1, 0});
  txns.Adopt(6);
  EXPECT_EQ(txns.Primary(6)->state, TxnState::kActive);
  txns.Adopt(99);  // nothing replicated: nothing happens
  EXPECT_EQ(txns.Primary(99), nullptr);
}

TEST(TxnTableTest, ALostConnectionEndsOnlyItsUnpreparedTransactions) {
  TxnTable txns;
  txns.Touch(1, 7, Touched{FakePartition(8), 1, 0});
  txns.Touch(2, 7, Touched{FakePartition(8), 1, 0});
  txns.Primary(2)->Prepare(4);
  txns.Touch(3, 8, Touched{FakePartition(8), 1, 0});
  TxnRecord& replica = txns.AddReplica(9);
  replica.conn = 7;
  EXPECT_EQ(txns.UnpreparedPrimariesOf(7), std::vector<storage::TxnId>{1});
  EXPECT_EQ(txns.UnpreparedReplicasOf(7), std::vector<storage::TxnId>{9});
}

TEST(TxnTableTest, DoomedSaysWhyUntilForgiven) {
  TxnTable txns;
  EXPECT_FALSE(txns.any_doomed());
  txns.Doom(5, "the primary of partition 2 moved to data node 3");
  ASSERT_NE(txns.DoomedWhy(5), nullptr);
  EXPECT_EQ(*txns.DoomedWhy(5), "the primary of partition 2 moved to data node 3");
  EXPECT_EQ(txns.DoomedWhy(6), nullptr);
  txns.Forgive(5);
  EXPECT_FALSE(txns.any_doomed());
}

TEST(TxnTableTest, ADroppedTableLeavesNoPartitionBehind) {
  TxnTable txns;
  txns.Touch(5, 7, Touched{FakePartition(8), 1, 0});
  txns.Touch(5, 7, Touched{FakePartition(16), 2, 0});
  txns.AddReplica(6).Add(Touched{FakePartition(24), 1, 3});
  txns.ForgetTable(1);
  ASSERT_EQ(txns.Primary(5)->touched.size(), 1u);
  EXPECT_EQ(txns.Primary(5)->touched[0].table_id, 2u);
  EXPECT_TRUE(txns.Replica(6)->touched.empty());
}

}  // namespace
}  // namespace shoal::node
