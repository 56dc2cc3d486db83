#include "common/liveness/running_clock.h"

#include "gtest/gtest.h"

namespace shoal::liveness {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1'000'000);
constexpr absl::Duration kInterval = absl::Milliseconds(100);

TEST(RunningClockTest, OnTimeTicksCountInFull) {
  RunningClock clock(kInterval, kStart);
  absl::Time now = kStart;
  for (int i = 0; i < 10; ++i) {
    now += kInterval;
    RunningClock::Tick tick = clock.Advance(now);
    EXPECT_EQ(tick.counted, kInterval);
    EXPECT_EQ(tick.lateness, absl::ZeroDuration());
    EXPECT_FALSE(tick.stalled);
  }
  EXPECT_EQ(clock.running(), absl::Seconds(1));
}

TEST(RunningClockTest, SomewhatLateTicksCountInFullAndReportTheirLateness) {
  RunningClock clock(kInterval, kStart);
  RunningClock::Tick tick = clock.Advance(kStart + absl::Milliseconds(180));
  EXPECT_EQ(tick.counted, absl::Milliseconds(180));
  EXPECT_EQ(tick.lateness, absl::Milliseconds(80));
  EXPECT_FALSE(tick.stalled);
}

TEST(RunningClockTest, AStallCountsOnlyTheAllowance) {
  RunningClock clock(kInterval, kStart);
  RunningClock::Tick tick = clock.Advance(kStart + absl::Seconds(5));
  EXPECT_TRUE(tick.stalled);
  EXPECT_EQ(tick.gap, absl::Seconds(5));
  EXPECT_EQ(tick.lateness, absl::Seconds(5) - kInterval);
  EXPECT_EQ(tick.counted, 2 * kInterval);
  EXPECT_EQ(clock.running(), 2 * kInterval);
}

TEST(RunningClockTest, AClockSteppingBackCountsNothing) {
  RunningClock clock(kInterval, kStart);
  RunningClock::Tick tick = clock.Advance(kStart - absl::Seconds(3));
  EXPECT_EQ(tick.counted, absl::ZeroDuration());
  EXPECT_FALSE(tick.stalled);
  // Time is measured from the latest instant seen, not from the earlier one.
  EXPECT_EQ(clock.Advance(kStart + kInterval).counted, kInterval);
}

}  // namespace
}  // namespace shoal::liveness
