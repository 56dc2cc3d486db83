// The two-phase commit Participant: prepared transactions outlive their primary and TC, and a
// node taking over a TC learns what became of them.
#include "engine/node/ldm/ldm_test_fixture.h"

namespace shoal::node::ldm_test {
namespace {

TEST_F(TwoNodeGroupTest, PreparedTransactionOutlivesItsPrimaryAndItsTc) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;  // A coordinates, and fails
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 7, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  EXPECT_TRUE(Results(a_).count(1));
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  SetStarted(false, true);  // A (primary and TC) dies: B keeps the prepared transaction
  std::string row = Row(key, 9);
  Send(b_, wire::OpType::kWrite, key, 3, 0, {row});  // still locked by it
  EXPECT_TRUE(Results(b_).empty());

  // The node taking over asks B which of A's transactions it holds in this partition.
  Send(b_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  b_.results.Finish();
  absl::string_view body = wire::FirstFrame(b_.results.finished()).substr(wire::kFrameHeaderSize);
  wire::Result answer;
  ASSERT_EQ(wire::DecodeResult(&body, &answer), wire::DecodeStatus::kOk);
  b_.results.Clear();
  ASSERT_EQ(answer.tag, 4u);
  ASSERT_EQ(answer.sections[0].size(), 9u);
  EXPECT_EQ(wire::GetU64(answer.sections[0].data()), kTxn);
  EXPECT_EQ(answer.sections[0][8], 0) << "prepared, not committed";

  // Its outcome: commit. The write waiting for the lock goes through after it.
  Send(b_, wire::OpType::kCommit, key, 5, kTxn, {});
  EXPECT_EQ(Value(b_, key), 9);
}

// The TC prepares and commits a backup itself (kOnReplica), then asks the primary naming that
// backup done: the primary sends it nothing and answers at once. A takeover asking the backup
// learns the commit from it.
TEST_F(TwoNodeGroupTest, TcEndsTheBackupItselfAndThePrimarySkipsIt) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;     // A coordinates, and fails at the end
  std::string key = KeyOn(kNodeA, 1);  // primary A, backup B
  Insert(a_, key, 7, 1, kTxn);
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}}));
  std::string b_done;
  wire::AddReplicaDone(&b_done, kNodeB);

  Send(b_, wire::OpType::kPrepare, key, 2, kTxn, {""}, kTc, wire::kOnReplica);
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{2, wire::kResultOk}}));
  Send(a_, wire::OpType::kPrepare, key, 3, kTxn, {b_done}, kTc);
  a_.Flush();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{3, wire::kResultOk}}))
      << "answered without waiting for B";
  Pump();

  // A write to the row waits on both: the transaction holds it prepared.
  Send(b_, wire::OpType::kCommit, key, 4, kTxn, {"", ""}, kTc, wire::kOnReplica);
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  Send(a_, wire::OpType::kCommit, key, 5, kTxn, {"", b_done}, kTc);
  a_.Flush();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{5, wire::kResultOk}}));
  Pump();
  EXPECT_EQ(Value(a_, key), 7);
  EXPECT_EQ(Value(b_, key), 7);

  // The TC fails: B, asked, says the transaction committed there.
  SetStarted(false, true);
  Send(b_, wire::OpType::kTakeoverReq, key, 6, 0, {}, kTc);
  b_.results.Finish();
  absl::string_view body = wire::FirstFrame(b_.results.finished()).substr(wire::kFrameHeaderSize);
  wire::Result answer;
  ASSERT_EQ(wire::DecodeResult(&body, &answer), wire::DecodeStatus::kOk);
  b_.results.Clear();
  ASSERT_EQ(answer.sections[0].size(), 9u);
  EXPECT_EQ(answer.sections[0][8], 1) << "committed";
}

// A backup that holds nothing of the transaction (its primary only locked a row there, or
// rolled it back) refuses the TC: a record made then would outlive the transaction. The
// primary, not told that backup is done, prepares it itself, in order with what it sent.
TEST_F(TwoNodeGroupTest, BackupHoldingNothingLeavesItsPrepareToThePrimary) {
  constexpr uint64_t kTxn = 44;
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 3);
  Insert(a_, key, 5, 1, 0);
  Pump();
  std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  Send(a_, wire::OpType::kRead, key, 2, kTxn, {key, columns}, 0, wire::kLockExclusive);
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{1, wire::kResultOk}, {2, wire::kResultOk}}));
  Send(b_, wire::OpType::kPrepare, key, 3, kTxn, {""}, kTc, wire::kOnReplica);
  EXPECT_EQ(Results(b_), (std::map<uint64_t, uint16_t>{{3, wire::kErTemporary}}));
  Send(a_, wire::OpType::kPrepare, key, 4, kTxn, {""}, kTc);
  a_.Flush();
  EXPECT_TRUE(Results(a_).empty()) << "the primary waits for B, which it prepares itself";
  Pump();
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
  // The commit ends it on both, and the row is free.
  Send(a_, wire::OpType::kCommit, key, 5, kTxn, {"", ""}, kTc);
  Pump();
  EXPECT_EQ(Results(a_)[5], wire::kResultOk);
  std::string row = Row(key, 6);
  Send(a_, wire::OpType::kWrite, key, 6, 0, {row});
  Pump();
  EXPECT_EQ(Value(b_, key), 6);
}

// A client cannot end a backup's replica behind its primary: kOnReplica commits come only from
// data nodes (the data plane closes a client that sends one), and a backup that became the
// primary commits on every replica, as for any commit.
TEST_F(TwoNodeGroupTest, OnReplicaCommitAtAPrimaryCommitsEverywhere) {
  constexpr uint64_t kTxn = 43;
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 2);
  Insert(a_, key, 8, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {""}, kTc);
  Pump();
  Send(a_, wire::OpType::kCommit, key, 3, kTxn, {"", ""}, kTc, wire::kOnReplica);
  Pump();
  EXPECT_EQ(Results(a_)[3], wire::kResultOk);
  EXPECT_EQ(Value(b_, key), 8);
}

TEST_F(TwoNodeGroupTest, CommittedPreparedTransactionIsRemembered) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 7, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, key, 2, kTxn, {}, kTc);
  Pump();
  Send(a_, wire::OpType::kCommit, key, 3, kTxn, {});
  Pump();
  EXPECT_EQ(Results(a_)[3], wire::kResultOk);
  SetStarted(true, false);  // the TC fails after the commit
  Send(a_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  a_.results.Finish();
  absl::string_view body = wire::FirstFrame(a_.results.finished()).substr(wire::kFrameHeaderSize);
  wire::Result answer;
  ASSERT_EQ(wire::DecodeResult(&body, &answer), wire::DecodeStatus::kOk);
  a_.results.Clear();
  ASSERT_EQ(answer.sections[0].size(), 9u);
  EXPECT_EQ(answer.sections[0][8], 1) << "committed";
  EXPECT_EQ(Value(b_, key), 7);
}

TEST_F(TwoNodeGroupTest, TakeoverQueryWaitsUntilTheTcIsKnownDown) {
  constexpr uint16_t kTc = kNodeB;
  std::string key = KeyOn(kNodeA, 1);
  Send(a_, wire::OpType::kTakeoverReq, key, 4, 0, {}, kTc);
  EXPECT_TRUE(Results(a_).empty()) << "answered while the TC may still send a commit";
  GroupView view;
  view.self = kNodeA;
  view.members = {kNodeA, kNodeB};
  view.started = {true, false};
  view.down = {kNodeB};
  a_.ldm->SetGroup(view, &a_);
  EXPECT_EQ(Results(a_), (std::map<uint64_t, uint16_t>{{4, wire::kResultOk}}));
}

TEST_F(TwoNodeGroupTest, PrepareNeedsWhatTheTransactionHeldInThatPartition) {
  constexpr uint64_t kTxn = 42;
  constexpr uint16_t kTc = kNodeA;
  std::string in_q = KeyOn(kNodeA, 1);
  std::string in_p = in_q;
  for (int n = 2; PartitionOfKey(in_p) == PartitionOfKey(in_q); ++n) in_p = KeyOn(kNodeA, n);
  // It wrote in q; its writes in p were lost (rolled back when p's primary moved, say).
  Insert(a_, in_q, 1, 1, kTxn);
  Pump();
  Send(a_, wire::OpType::kPrepare, in_p, 2, kTxn, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_)[2], wire::kErTemporary);
  EXPECT_EQ(Value(b_, in_q), -1);

  // An operation that found nothing still makes the partition its: it may prepare there.
  constexpr uint64_t kTxn2 = 43;
  Send(a_, wire::OpType::kDelete, in_p, 3, kTxn2, {in_p});
  Insert(a_, in_q, 2, 4, kTxn2);
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{3, wire::kResultNotFound}, {4, wire::kResultOk}}));
  Send(a_, wire::OpType::kPrepare, in_p, 5, kTxn2, {}, kTc);
  Send(a_, wire::OpType::kPrepare, in_q, 6, kTxn2, {}, kTc);
  Pump();
  EXPECT_EQ(Results(a_),
            (std::map<uint64_t, uint16_t>{{5, wire::kResultOk}, {6, wire::kResultOk}}));
}

}  // namespace
}  // namespace shoal::node::ldm_test
