#include "engine/node/plane/user_lock_table.h"

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

using Acquired = UserLockTable::Acquired;
using Holder = UserLockTable::Holder;

const Holder kA{1, 100};
const Holder kB{1, 101};
const Holder kC{2, 200};
const absl::Time kT0 = absl::FromUnixSeconds(1000);

TEST(UserLockTableTest, GrantsAFreeLockAndCountsEachAcquisition) {
  UserLockTable table;
  EXPECT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.HolderOf("x"), 100u);
  EXPECT_EQ(table.Release("x", kA), true);
  EXPECT_EQ(table.HolderOf("x"), 100u);  // acquired twice: still held
  EXPECT_EQ(table.Release("x", kA), true);
  EXPECT_EQ(table.HolderOf("x"), std::nullopt);
  EXPECT_EQ(table.Release("x", kA), std::nullopt);
  EXPECT_EQ(table.held(), 0u);
}

TEST(UserLockTableTest, OnlyTheHolderReleases) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, false, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("x", kB, false, kT0), Acquired::kBusy);
  EXPECT_EQ(table.Release("x", kB), false);
  EXPECT_EQ(table.HolderOf("x"), 100u);
  // The same session id behind another connection is another session.
  EXPECT_EQ(table.Release("x", Holder{9, 100}), false);
}

TEST(UserLockTableTest, ReleaseAllCountsRecursion) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, false, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("x", kA, false, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("y", kA, false, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("z", kB, false, kT0), Acquired::kGranted);
  EXPECT_EQ(table.ReleaseAll(kA), 3u);
  EXPECT_EQ(table.HolderOf("x"), std::nullopt);
  EXPECT_EQ(table.HolderOf("z"), 101u);
  EXPECT_EQ(table.ReleaseAll(kA), 0u);
}

TEST(UserLockTableTest, WaitersAreGrantedInTheirOrder) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("x", kB, true, kT0), Acquired::kBusy);
  EXPECT_EQ(table.Acquire("x", kC, true, kT0 + absl::Milliseconds(1)), Acquired::kBusy);
  ASSERT_EQ(table.Release("x", kA), true);
  // Free, but kept for B, the first waiter: C asking first does not get it.
  const absl::Time later = kT0 + absl::Milliseconds(20);
  EXPECT_EQ(table.Acquire("x", kC, true, later), Acquired::kBusy);
  EXPECT_EQ(table.Acquire("x", kA, false, later), Acquired::kBusy);
  EXPECT_EQ(table.Acquire("x", kB, true, later), Acquired::kGranted);
  ASSERT_EQ(table.Release("x", kB), true);
  EXPECT_EQ(table.Acquire("x", kC, true, later), Acquired::kGranted);
}

TEST(UserLockTableTest, AWaiterThatStopsAskingLosesItsPlace) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("x", kB, true, kT0), Acquired::kBusy);
  ASSERT_EQ(table.Release("x", kA), true);
  EXPECT_EQ(table.Acquire("x", kC, true, kT0 + UserLockTable::kWaiterTtl), Acquired::kGranted);
}

TEST(UserLockTableTest, ACancelledWaiterLeavesTheQueue) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("x", kB, true, kT0), Acquired::kBusy);
  table.Cancel("x", kB);
  ASSERT_EQ(table.Release("x", kA), true);
  EXPECT_EQ(table.Acquire("x", kC, false, kT0), Acquired::kGranted);
}

TEST(UserLockTableTest, RefusesAWaitThatWouldCloseACycle) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("a", kA, true, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("b", kB, true, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("c", kC, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("b", kA, true, kT0), Acquired::kBusy);  // A waits for B
  EXPECT_EQ(table.Acquire("c", kB, true, kT0), Acquired::kBusy);  // B waits for C
  EXPECT_EQ(table.Acquire("a", kC, true, kT0), Acquired::kDeadlock);
  // C is not queued: A's wait goes on, and C may still release.
  EXPECT_EQ(table.Release("c", kC), true);
  EXPECT_EQ(table.Acquire("c", kB, true, kT0), Acquired::kGranted);
  // A wait that ended long ago makes no cycle.
  EXPECT_EQ(table.Acquire("a", kB, true, kT0 + absl::Seconds(1)), Acquired::kBusy);
}

TEST(UserLockTableTest, AClosedConnectionFreesItsSessionsLocksAndWaits) {
  UserLockTable table;
  ASSERT_EQ(table.Acquire("x", kA, true, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("y", kB, true, kT0), Acquired::kGranted);
  ASSERT_EQ(table.Acquire("z", kC, true, kT0), Acquired::kGranted);
  EXPECT_EQ(table.Acquire("z", kA, true, kT0), Acquired::kBusy);
  table.ConnectionGone(1);
  EXPECT_EQ(table.HolderOf("x"), std::nullopt);
  EXPECT_EQ(table.HolderOf("y"), std::nullopt);
  EXPECT_EQ(table.HolderOf("z"), 200u);
  ASSERT_EQ(table.Release("z", kC), true);
  EXPECT_EQ(table.held(), 0u);
  EXPECT_EQ(table.Acquire("z", kB, false, kT0), Acquired::kGranted);
}

TEST(UserLockTableTest, ReassertTakesBackWhatIsFreeOnly) {
  UserLockTable table;
  EXPECT_TRUE(table.Reassert("x", kA, 2));
  EXPECT_EQ(table.HolderOf("x"), 100u);
  EXPECT_TRUE(table.Reassert("x", kA, 1));  // at least: a later acquisition stays counted
  ASSERT_EQ(table.Release("x", kA), true);
  ASSERT_EQ(table.Release("x", kA), true);
  EXPECT_EQ(table.Release("x", kA), std::nullopt);
  ASSERT_EQ(table.Acquire("y", kB, false, kT0), Acquired::kGranted);
  EXPECT_FALSE(table.Reassert("y", kA, 1));
  EXPECT_EQ(table.HolderOf("y"), 101u);
}

}  // namespace
}  // namespace shoal::node
