#include "common/event_loop.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"

namespace shoal {
namespace {

TEST(EventLoopTest, PostFromOtherThreadsRunsOnTheLoopThread) {
  auto loop = EventLoop::Create();
  ASSERT_TRUE(loop.ok());
  std::atomic<int> ran{0};
  std::thread::id loop_thread;
  std::thread poster([&] {
    for (int i = 0; i < 100; ++i) {
      (*loop)->Post([&] {
        loop_thread = std::this_thread::get_id();
        if (++ran == 100) (*loop)->Stop();
      });
    }
  });
  (*loop)->Run();
  poster.join();
  EXPECT_EQ(ran, 100);
  EXPECT_EQ(loop_thread, std::this_thread::get_id());
}

TEST(EventLoopTest, RepeatingTimerFiresUntilCancelled) {
  auto loop = EventLoop::Create();
  ASSERT_TRUE(loop.ok());
  int fired = 0;
  Timer timer(loop->get(), [&] {
    if (++fired == 3) {
      timer.Cancel();
      (*loop)->Stop();
    }
  });
  timer.Start(absl::Milliseconds(1), Timer::Mode::kRepeat);
  (*loop)->Run();
  EXPECT_EQ(fired, 3);
  EXPECT_FALSE(timer.pending());
}

// A busy-polling loop runs what a blocking one runs — posted tasks, timers, events that come
// while it polls and after it went back to sleep — and stops when asked.
TEST(EventLoopTest, SpinningLoopRunsEverythingAndStops) {
  auto loop = EventLoop::Create();
  ASSERT_TRUE(loop.ok());
  std::atomic<int> posted{0};
  int fired = 0;
  Timer timer(loop->get(), [&] {
    (*loop)->NoteWork();  // keeps the loop polling for another spin
    if (++fired == 5) (*loop)->Stop();
  });
  timer.Start(absl::Milliseconds(2), Timer::Mode::kRepeat);
  std::thread poster([&] {
    for (int i = 0; i < 50; ++i) {
      (*loop)->Post([&] { ++posted; });
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  });
  (*loop)->Run(absl::Microseconds(500));
  poster.join();
  EXPECT_EQ(fired, 5);
  // Tasks posted after the stop run in the next Run; whatever ran before is all of them so far.
  EXPECT_GT(posted.load(), 0);
  (*loop)->Post([&] { (*loop)->Stop(); });
  (*loop)->Run(absl::Microseconds(500));
  EXPECT_EQ(posted.load(), 50);
}

}  // namespace
}  // namespace shoal
