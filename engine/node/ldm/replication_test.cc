// Replication inside a node group through the LDMs' Replicator (primary side), ReplicaApply
// (backup side) and KeyOps: when writes and commits are answered, and what a lost node leaves.
#include "engine/node/ldm/ldm_test_fixture.h"

namespace shoal::node::ldm_test {
namespace {

TEST_F(TwoNodeGroupTest, AutocommitWriteIsAnsweredOnceTheBackupHasIt) {
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  EXPECT_TRUE(Results(a_).empty()) << "answered before the backup had it";
  EXPECT_EQ(Value(a_, key), -1) << "readers see a write before the backup has it";
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
  EXPECT_EQ(Value(b_, key), 10);

  Send(a_, wire::OpType::kDelete, key, 2, 0, {key});
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), -1);
}

TEST_F(TwoNodeGroupTest, ALockWaitLeavesOutTimeTheLdmWasNotScheduled) {
  a_.Restart(&budget_, absl::Seconds(1));
  DictionaryDelta delta;
  delta.created.push_back(table_);
  a_.ldm->Apply(delta);
  SetStartedOn(a_, true, true);
  constexpr uint64_t kHolder = 42;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 1, 1, kHolder);  // holds the row
  Pump();
  Send(a_, wire::OpType::kWrite, key, 2, 43, {Row(key, 2)});  // waits for it
  Pump();
  EXPECT_EQ(Results(a_).count(2), 0u);
  // The thread is not scheduled for ten seconds (the holder was not either): the wait goes on.
  absl::Time now = absl::Now() + absl::Seconds(10);
  a_.ldm->ExpireLockWaits(now, &a_);
  EXPECT_EQ(Results(a_).count(2), 0u) << "a stall ended the lock wait";
  // Then it runs on time: the rest of the second counts, and the wait ends with 1205.
  for (int step = 0; step < 7; ++step) {
    now += absl::Milliseconds(100);
    a_.ldm->ExpireLockWaits(now, &a_);
  }
  EXPECT_EQ(Results(a_).count(2), 0u) << "ended before its second";
  for (int step = 0; step < 3; ++step) {
    now += absl::Milliseconds(100);
    a_.ldm->ExpireLockWaits(now, &a_);
  }
  EXPECT_EQ(Results(a_)[2], wire::kErLockWaitTimeout);
}

TEST_F(TwoNodeGroupTest, WritesGoToTheirPrimaryOnly) {
  std::string key = KeyOn(kNodeB, 1);
  Insert(a_, key, 10, 1);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kErTemporary}}));
  Insert(b_, key, 10, 2);
  Pump();
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
}

TEST_F(TwoNodeGroupTest, TransactionCommitsOnTheBackupFirstAndRollsBackThere) {
  constexpr uint64_t kTxn = 42;
  std::string k1 = KeyOn(kNodeA, 1), k2 = KeyOn(kNodeA, 2);
  Insert(a_, k1, 1, 1, kTxn);
  Insert(a_, k2, 2, 2, kTxn);
  Pump();
  EXPECT_EQ(Results(a_).size(), 2u);
  EXPECT_EQ(Value(b_, k1), -1) << "uncommitted on the backup";
  Send(a_, wire::OpType::kCommit, k1, 3, kTxn, {});
  Pump(1);  // the first commit reaches the backup; its answer has not come back
  EXPECT_TRUE(Results(a_).empty());
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{3, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, k1), 1);
  EXPECT_EQ(Value(b_, k2), 2);

  constexpr uint64_t kTxn2 = 43;
  std::string k3 = KeyOn(kNodeA, 3);
  Insert(a_, k3, 3, 4, kTxn2);
  Pump();
  Send(a_, wire::OpType::kAbort, k3, 5, kTxn2, {});
  Pump();
  EXPECT_EQ(Value(b_, k3), -1);
  // The backup released the row: a new write to it goes through.
  Insert(a_, k3, 4, 6);
  Pump();
  EXPECT_EQ(Results(a_)[6], wire::kResultOk);
  EXPECT_EQ(Value(b_, k3), 4);
}

TEST_F(TwoNodeGroupTest, LosingTheBackupAnswersTheWritesItOwed) {
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  Drop();  // the backup died with the write
  EXPECT_TRUE(Results(a_).empty());
  SetStarted(true, false);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  EXPECT_EQ(Value(a_, key), 10);
  // Alone, the primary answers at once; and it is primary of the other partitions now.
  Insert(a_, KeyOn(kNodeB, 2), 20, 2);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
}

TEST_F(TwoNodeGroupTest, LosingThePrimaryRollsBackWhatItReplicatedUncommitted) {
  constexpr uint64_t kTxn = 42;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 1, 1, kTxn);
  Pump();
  SetStarted(false, true);  // A died before committing
  // B is primary now, and the row is free: the transaction's lock went with it.
  Insert(b_, key, 5, 2);
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  EXPECT_EQ(Value(b_, key), 5);
}

}  // namespace
}  // namespace shoal::node::ldm_test
