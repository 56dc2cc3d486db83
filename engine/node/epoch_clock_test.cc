#include "engine/node/epoch_clock.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

TEST(EpochClockTest, CommitsBelongToTheEpochTheyBeganIn) {
  EpochClock clock(5);
  EpochClock::Decider* decider = clock.AddDecider();
  uint64_t first = decider->Begin();
  EXPECT_EQ(first, 5u);
  clock.Advance(6);
  EXPECT_FALSE(clock.Drained(5));  // the commit of epoch 5 is still on its way
  uint64_t second = decider->Begin();
  EXPECT_EQ(second, 6u);
  decider->End(first);
  EXPECT_TRUE(clock.Drained(5));  // epoch 6's commit does not hold 5 back
  clock.Advance(4);               // never backwards
  EXPECT_EQ(clock.current(), 6u);
  decider->End(second);
}

// The handshake between Begin (deciding threads) and Advance + Drained (the round): once the
// round has seen epoch e drained, no thread is between a Begin that returned e or earlier and
// its End.
TEST(EpochClockTest, ADrainedEpochHasNoCommitInFlightOnAnyThread) {
  EpochClock clock(1);
  constexpr int kThreads = 3;
  std::vector<EpochClock::Decider*> deciders;
  for (int i = 0; i < kThreads; ++i) deciders.push_back(clock.AddDecider());
  std::atomic<uint64_t> holding[kThreads];
  for (auto& h : holding) h.store(0);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      while (!stop.load()) {
        uint64_t epoch = deciders[i]->Begin();
        holding[i].store(epoch);
        holding[i].store(0);
        deciders[i]->End(epoch);
      }
    });
  }
  for (uint64_t e = 1; e < 2000; ++e) {
    clock.Advance(e + 1);
    while (!clock.Drained(e)) std::this_thread::yield();
    for (int i = 0; i < kThreads; ++i) {
      uint64_t held = holding[i].load();
      ASSERT_TRUE(held == 0 || held > e)
          << "thread " << i << " holds epoch " << held << " after epoch " << e << " drained";
    }
  }
  stop.store(true);
  for (auto& t : threads) t.join();
}

}  // namespace
}  // namespace shoal::node
