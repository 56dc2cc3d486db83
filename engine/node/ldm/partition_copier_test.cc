// The PartitionCopier: a restarted node gets every partition, the writes made meanwhile, and
// the prepared transactions' versions.
#include "engine/node/ldm/ldm_test_fixture.h"

namespace shoal::node::ldm_test {
namespace {

TEST_F(TwoNodeGroupTest, CopyBringsARestartedNodeUpToDateWhileWritesGoOn) {
  SetStarted(true, false);
  constexpr uint64_t kTxn = 42;
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back(KeyOn(i % 2 ? kNodeB : kNodeA, i + 1));
  for (int i = 0; i < 40; ++i) Insert(a_, keys[i], i, i + 1);
  Insert(a_, KeyOn(kNodeA, 100), 100, 100, kTxn);  // open while the copy runs
  Send(a_, wire::OpType::kDelete, keys[0], 101, kTxn, {keys[0]});
  EXPECT_EQ(Results(a_).size(), 42u);

  // B restarts empty and asks for a copy; A copies a partition per step.
  b_.Restart(&budget_);
  DictionaryDelta delta;
  delta.created.push_back(table_);
  b_.ldm->Apply(delta);
  GroupView view;
  view.self = kNodeB;
  view.members = {kNodeA, kNodeB};
  view.started = {true, false};
  b_.ldm->SetGroup(view, &b_);
  a_.ldm->StartCopy(kNodeB, ConnTo(kNodeB), 1, /*rows_per_step=*/1);  // a partition a step
  ASSERT_TRUE(a_.ldm->CopyStep(&a_));
  Pump();
  // A write during the copy: to a copied partition it is forwarded, else copied later.
  for (int i = 1; i < 40; ++i) Send(a_, wire::OpType::kDelete, keys[i], 200 + i, 0, {keys[i]});
  for (int i = 1; i < 40; ++i) Insert(a_, keys[i], 1000 + i, 300 + i);
  while (a_.ldm->CopyStep(&a_)) Pump();
  Pump();
  EXPECT_FALSE(a_.ldm->copying());
  Send(a_, wire::OpType::kCommit, keys[0], 400, kTxn, {});
  Pump();
  EXPECT_EQ(Results(a_)[400], wire::kResultOk);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(Value(b_, keys[i]), Value(a_, keys[i])) << i;
  }
  EXPECT_EQ(Value(b_, keys[0]), -1);
  EXPECT_EQ(Value(b_, keys[5]), 1005);
  EXPECT_EQ(Value(b_, KeyOn(kNodeA, 100)), 100);
  EXPECT_EQ(b_.ldm->row_count(), a_.ldm->row_count());
}

TEST_F(TwoNodeGroupTest, CopyCarriesPreparedTransactions) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;
  SetStarted(true, false);
  const std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 7, 1, kTxn);
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  EXPECT_EQ(Results(a_).size(), 2u);
  RestartAndCopyB();
  SetStarted(true, true);
  Pump();
  SetStarted(false, true);  // A, its primary until now and its TC, fails
  EXPECT_EQ(TakeoverAnswer(b_, key, kTc), (std::vector<std::pair<uint64_t, bool>>{{kTxn, false}}))
      << "B must keep the prepared transaction for the node taking over";
  Send(b_, wire::OpType::kCommit, key, 3, kTxn, {}, kTc);
  EXPECT_EQ(Value(b_, key), 7);
}

}  // namespace
}  // namespace shoal::node::ldm_test
