#include "common/event_loop.h"

#include <atomic>
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

}  // namespace
}  // namespace shoal
