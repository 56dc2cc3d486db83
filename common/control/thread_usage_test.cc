// ThreadSampler: a thread that spins shows its CPU under the name it gave itself; the stat
// parser takes names with spaces and parentheses whole and refuses what is not a stat line.
#include "common/control/thread_usage.h"

#include <pthread.h>

#include <atomic>
#include <thread>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace shoal::control {
namespace {

TEST(ThreadUsageTest, ParsesAStatLine) {
  std::string name;
  uint64_t user = 0, system = 0;
  ASSERT_TRUE(ParseThreadStat("4245 (data (plane) x) R 1 2 3 4 5 6 7 8 9 10 250 31 0 0 20 0 1 0 5",
                              &name, &user, &system));
  EXPECT_EQ(name, "data (plane) x");
  EXPECT_EQ(user, 250u);
  EXPECT_EQ(system, 31u);
  EXPECT_FALSE(ParseThreadStat("", &name, &user, &system));
  EXPECT_FALSE(ParseThreadStat("12 (short) R 1 2", &name, &user, &system));
  EXPECT_FALSE(ParseThreadStat("12 (x) R 1 2 3 4 5 6 7 8 9 10 abc 1", &name, &user, &system));
}

TEST(ThreadUsageTest, ASpinningThreadShowsItsCpuUnderItsName) {
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    pthread_setname_np(pthread_self(), "test-spinner");
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  ThreadSampler sampler;
  std::vector<ThreadUsage> first = sampler.Sample(absl::Now());
  absl::SleepFor(absl::Milliseconds(300));
  std::vector<ThreadUsage> second = sampler.Sample(absl::Now());
  stop = true;
  spinner.join();
  const ThreadUsage* spinning = nullptr;
  for (const ThreadUsage& t : second) {
    if (t.name() == "test-spinner") spinning = &t;
  }
  ASSERT_NE(spinning, nullptr);
  EXPECT_GT(spinning->user_percent() + spinning->system_percent(), 20.0f);
  EXPECT_LE(spinning->user_percent() + spinning->system_percent(), 110.0f);
  EXPECT_GE(second.size(), 2u);                                          // this thread too
  for (const ThreadUsage& t : first) EXPECT_EQ(t.user_percent(), 0.0f);  // nothing to compare yet
}

}  // namespace
}  // namespace shoal::control
