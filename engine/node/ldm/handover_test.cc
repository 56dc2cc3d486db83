// Handover of primary roles to a restarted node: never two primaries of one partition.
#include "engine/node/ldm/ldm_test_fixture.h"

namespace shoal::node::ldm_test {
namespace {

TEST_F(TwoNodeGroupTest, RestartedNodeIsPrimaryOnlyOnceHandedOver) {
  SetStarted(true, false);
  RestartAndCopyB();
  constexpr uint64_t kLocker = 42;  // SELECT … FOR UPDATE on A: a lock A alone knows of
  constexpr uint64_t kWriter = 43;
  const std::string k1 = KeyOn(kNodeB, 1), k2 = KeyOn(kNodeB, 2), stays = KeyOn(kNodeA, 3);
  const std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  Insert(a_, k1, 1, 1);
  Send(a_, wire::OpType::kRead, k1, 2, kLocker, {k1, columns}, 0, wire::kLockExclusive);
  Insert(a_, k2, 2, 3, kWriter);
  Insert(a_, stays, 3, 9, kWriter);  // in a partition A keeps
  Pump();
  EXPECT_EQ(Results(a_).size(), 4u);

  // B learns first that it serves, and is k1's primary: it waits for A to hand over. (Else
  // B's transaction would lock k1 too, and both would update it from the same value.)
  constexpr uint64_t kOnB = 44;
  SetStartedOn(b_, true, true);
  Send(b_, wire::OpType::kRead, k1, 4, kOnB, {k1, columns}, 0, wire::kLockExclusive);
  Pump();
  EXPECT_TRUE(Results(b_).empty()) << "B acted as primary before A handed over";
  // A learns it: it rolls back what holds rows there, then hands over; B's read goes on.
  SetStartedOn(a_, true, true);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  Send(b_, wire::OpType::kWrite, k1, 5, kOnB, {Row(k1, 5)});
  Send(b_, wire::OpType::kCommit, k1, 6, kOnB, {});
  Pump();
  EXPECT_EQ(Results(b_),
            (std::map<uint64_t, uint16_t>{{5, wire::kResultOk}, {6, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, k1), 5);
  EXPECT_EQ(Value(b_, k1), 5);
  EXPECT_EQ(Value(a_, k2), -1);
  EXPECT_EQ(Value(b_, k2), -1);
  // Their clients learn it at their next operation, even where A is still primary (it would
  // run without what came before), or at the commit.
  EXPECT_EQ(Value(a_, stays), -1);
  Insert(a_, KeyOn(kNodeA, 4), 4, 10, kWriter);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{10, wire::kErTemporary}}));
  Send(a_, wire::OpType::kCommit, k1, 7, kLocker, {});
  Send(a_, wire::OpType::kCommit, k2, 8, kWriter, {});
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{7, wire::kErTemporary}, {8, wire::kErTemporary}}));
  EXPECT_EQ(Value(b_, k2), -1);
}

TEST_F(TwoNodeGroupTest, HandoverWaitEndsWhenTheFormerPrimaryFails) {
  SetStarted(true, false);
  RestartAndCopyB();
  const std::string key = KeyOn(kNodeB, 1);
  SetStartedOn(b_, true, true);
  Insert(b_, key, 3, 1);
  EXPECT_TRUE(Results(b_).empty());
  SetStartedOn(b_, false, true);  // A fails before it hands over
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), 3);
}

TEST_F(TwoNodeGroupTest, PreparedTransactionOutlivesTheHandover) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeB;
  SetStarted(true, false);
  RestartAndCopyB();
  const std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 7, 1, kTxn);
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_).size(), 2u);
  SetStarted(true, true);
  Pump();
  // The TC's commit reaches the new primary, which ends it on A too.
  Send(b_, wire::OpType::kCommit, key, 3, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{3, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 7);
  EXPECT_EQ(Value(b_, key), 7);
  Send(b_, wire::OpType::kWrite, key, 4, 0, {Row(key, 8)});
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 8);
  SetStarted(true, false);  // B, the TC, fails: A knows the transaction committed, and no more
  EXPECT_EQ(TakeoverAnswer(a_, key, kTc), (std::vector<std::pair<uint64_t, bool>>{{kTxn, true}}));
}

}  // namespace
}  // namespace shoal::node::ldm_test
