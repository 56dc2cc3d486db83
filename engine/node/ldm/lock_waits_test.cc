#include "engine/node/ldm/lock_waits.h"

#include <string>

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

// A parked operation's bytes are all LockWaits keeps of it.
wire::Op OpWithTag(std::string* bytes, uint64_t tag) {
  *bytes = "op" + std::to_string(tag);
  wire::Op op;
  op.header.tag = tag;
  op.bytes = *bytes;
  return op;
}

TEST(LockWaitsTest, ReadyGivesTheHolderSWaitersInArrivalOrder) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(2), start);
  std::string b1, b2, b3;
  absl::Time deadline = waits.LockNow(start) + absl::Seconds(2);
  waits.Park(OpWithTag(&b1, 1), 7, /*holder=*/50, deadline);
  waits.Park(OpWithTag(&b2, 2), 8, /*holder=*/60, deadline);
  waits.Park(OpWithTag(&b3, 3), 9, /*holder=*/50, deadline);
  std::vector<LockWaits::Parked> ready = waits.Ready(50);
  ASSERT_EQ(ready.size(), 2u);
  EXPECT_EQ(ready[0].op, "op1");
  EXPECT_EQ(ready[0].conn, 7u);
  EXPECT_EQ(ready[1].op, "op3");
  EXPECT_TRUE(waits.Ready(50).empty());
  EXPECT_FALSE(waits.empty());
  waits.DropConnection(8);
  EXPECT_TRUE(waits.empty());
}

TEST(LockWaitsTest, AnEndedTransactionsOwnWaitsAreTakenOut) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(2), start);
  std::string b1, b2, b3;
  absl::Time deadline = waits.LockNow(start) + absl::Seconds(2);
  wire::Op scan = OpWithTag(&b1, 1);
  scan.header.txn = 70;  // a scan batch of transaction 70, behind 50
  waits.Park(scan, 7, /*holder=*/50, deadline);
  wire::Op other = OpWithTag(&b2, 2);
  other.header.txn = 71;
  waits.Park(other, 7, /*holder=*/50, deadline);
  waits.Park(OpWithTag(&b3, 3), 7, /*holder=*/50, deadline);  // autocommit
  EXPECT_TRUE(waits.OfEnded(0).empty());  // autocommit is no transaction that ends
  std::vector<LockWaits::Parked> ended = waits.OfEnded(70);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].op, "op1");
  EXPECT_EQ(ended[0].own, 70u);
  // When 50 ends, only the others are run again.
  EXPECT_EQ(waits.Ready(50).size(), 2u);
}

TEST(LockWaitsTest, AWaitEndsAfterItsTimeoutOfRunningTime) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(1), start);
  std::string bytes;
  absl::Time now = start;
  auto step = [&](absl::Duration d) {
    now += d;
    return waits.Expired(now, [](storage::TxnId) { return true; });
  };
  waits.Park(OpWithTag(&bytes, 1), 7, 50, waits.LockNow(now) + absl::Seconds(1));
  for (int i = 0; i < 7; ++i) EXPECT_TRUE(step(absl::Milliseconds(100)).empty());
  // Ten seconds in which the thread did not run count as two steps (200 ms), not as ten seconds.
  EXPECT_TRUE(step(absl::Seconds(10)).empty());
  EXPECT_EQ(step(absl::Milliseconds(100)).size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(LockWaitsTest, AWaitCountsNoTimeWhileItsHolderIsNotHeardFrom) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(1), start);
  std::string b1, b2;
  absl::Time now = start;
  bool heard = true;
  auto step = [&](absl::Duration d) {
    now += d;
    // Holder 50 is stalled when `heard` is false; holder 60 is always heard from.
    return waits.Expired(now, [&](storage::TxnId holder) { return holder != 50 || heard; });
  };
  waits.Park(OpWithTag(&b1, 1), 7, 50, waits.LockNow(now) + absl::Seconds(1));
  waits.Park(OpWithTag(&b2, 2), 8, 60, waits.LockNow(now) + absl::Seconds(1));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(step(absl::Milliseconds(100)).empty());
  // Holder 50's client is starved for three seconds while this thread runs: its waiter's
  // deadline moves out; the other waiter times out as before.
  heard = false;
  std::vector<LockWaits::Parked> expired;
  for (int i = 0; i < 30; ++i) {
    for (LockWaits::Parked& p : step(absl::Milliseconds(100))) expired.push_back(std::move(p));
  }
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].op, "op2");
  heard = true;
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(step(absl::Milliseconds(100)).empty());
  expired = step(absl::Milliseconds(100));
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].op, "op1");
}

TEST(LockWaitsTest, AHolderSilentForGoodPausesAWaitForAtMostMaxPause) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(1), start);
  std::string bytes;
  absl::Time now = start;
  waits.Park(OpWithTag(&bytes, 1), 7, 50, waits.LockNow(now) + absl::Seconds(1));
  auto never_heard = [](storage::TxnId) { return false; };
  absl::Duration waited;
  std::vector<LockWaits::Parked> expired;
  while (expired.empty() && waited < absl::Minutes(5)) {
    now += absl::Milliseconds(100);
    waited += absl::Milliseconds(100);
    expired = waits.Expired(now, never_heard);
  }
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_GE(waited, LockWaits::kMaxPause + absl::Seconds(1));
  EXPECT_LE(waited, LockWaits::kMaxPause + absl::Seconds(1) + absl::Milliseconds(200));
}

TEST(LockWaitsTest, MaxPauseBoundsEachSilenceNotTheirSum) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(1), start);
  std::string bytes;
  absl::Time now = start;
  waits.Park(OpWithTag(&bytes, 1), 7, 50, waits.LockNow(now) + absl::Seconds(1));
  bool heard = false;
  auto step = [&](absl::Duration d) {
    now += d;
    return waits.Expired(now, [&](storage::TxnId) { return heard; });
  };
  // A holder starved in bursts (as a busy neighbour does it): three silences of 25 s, heard
  // for 100 ms between them, 75 s of pause in all; the wait counts only the 200 ms heard.
  for (int burst = 0; burst < 3; ++burst) {
    heard = false;
    for (int i = 0; i < 250; ++i) ASSERT_TRUE(step(absl::Milliseconds(100)).empty());
    heard = true;
    if (burst < 2) {
      ASSERT_TRUE(step(absl::Milliseconds(100)).empty());
    }
  }
  // Then heard throughout: the rest of its second runs out.
  std::vector<LockWaits::Parked> expired;
  absl::Duration heard_for;
  while (expired.empty() && heard_for < absl::Seconds(5)) {
    heard_for += absl::Milliseconds(100);
    expired = step(absl::Milliseconds(100));
  }
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_GE(heard_for, absl::Milliseconds(700));
  EXPECT_LE(heard_for, absl::Milliseconds(900));
}

TEST(LockWaitsTest, ARetriedOperationKeepsItsDeadline) {
  const absl::Time start = absl::FromUnixSeconds(1000);
  LockWaits waits(absl::Seconds(1), start);
  absl::Time first = waits.DeadlineFor(absl::InfiniteFuture());
  EXPECT_GT(first, waits.LockNow(start));
  EXPECT_EQ(waits.DeadlineFor(first), first);
}

}  // namespace
}  // namespace shoal::node
