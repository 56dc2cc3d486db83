#include "common/control/start_progress.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::control {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

// A receiver on a fresh loop that records what it is told, and on which thread.
struct Recorder {
  Recorder()
      : loop(std::move(*EventLoop::Create())),
        receiver(std::make_unique<StartProgressReceiver>(
            loop.get(), StartProgressReceiver::Callbacks{
                            .on_report =
                                [this](const std::string& phase, int percent) {
                                  EXPECT_EQ(std::this_thread::get_id(), loop_thread);
                                  reports.emplace_back(phase, percent);
                                },
                            .on_done =
                                [this](absl::Status status) {
                                  EXPECT_EQ(std::this_thread::get_id(), loop_thread);
                                  done.push_back(std::move(status));
                                  loop->Stop();
                                }})) {}

  // Runs the start hook `hook` the way the node runtime does; returns whether it deferred.
  template <typename Hook>
  bool RunHook(Hook hook) {
    receiver->BeginStartHook();
    hook(receiver->handle());
    return receiver->EndStartHook();
  }
  // Runs the loop until on_done stops it.
  void RunUntilDone() { loop->Run(); }
  // Runs every task posted so far, then returns.
  void RunPosted() {
    loop->Post([this] { loop->Stop(); });
    loop->Run();
  }

  std::thread::id loop_thread = std::this_thread::get_id();
  std::unique_ptr<EventLoop> loop;
  std::unique_ptr<StartProgressReceiver> receiver;
  std::vector<std::pair<std::string, int>> reports;
  std::vector<absl::Status> done;
};

TEST(StartProgressTest, AHookThatDoesNotDeferStartsAtOnceAndLateCallsAreIgnored) {
  Recorder r;
  StartProgress progress;
  EXPECT_FALSE(r.RunHook([&](StartProgress p) { progress = p; }));
  progress.Done(absl::OkStatus());  // without Defer: ignored
  r.RunPosted();
  EXPECT_TRUE(r.done.empty());
}

TEST(StartProgressTest, ReportsFromAnotherThreadAreCoalescedAndDoneComesAfterTheLast) {
  Recorder r;
  StartProgress progress;
  ASSERT_TRUE(r.RunHook([&](StartProgress p) {
    p.Defer();
    progress = p;
  }));
  std::thread copier([progress] {
    for (int i = 0; i <= 1000; ++i) progress.Report("copying data", i / 10);
    progress.Done(absl::OkStatus());
    progress.Report("too late", 1);  // after Done: ignored
  });
  r.RunUntilDone();
  copier.join();
  r.RunPosted();
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_TRUE(r.done[0].ok());
  // At least the last report arrives; earlier ones may have been folded into it.
  ASSERT_FALSE(r.reports.empty());
  EXPECT_LE(r.reports.size(), 1001u);
  EXPECT_EQ(r.reports.back(), std::make_pair(std::string("copying data"), 100));
  for (size_t i = 1; i < r.reports.size(); ++i) {
    EXPECT_LE(r.reports[i - 1].second, r.reports[i].second);
  }
}

TEST(StartProgressTest, DoneInsideTheHookIsDeliveredAfterTheHookReturns) {
  Recorder r;
  EXPECT_TRUE(r.RunHook([&](StartProgress p) {
    p.Defer();
    p.Report("fetching dictionary", -1);
    p.Done(absl::OkStatus());
  }));
  EXPECT_TRUE(r.done.empty());  // nothing runs inside the hook
  r.RunUntilDone();
  EXPECT_THAT(r.reports, ElementsAre(Pair("fetching dictionary", -1)));
  ASSERT_EQ(r.done.size(), 1u);
}

TEST(StartProgressTest, OnlyTheFirstDoneCountsAndPercentIsClamped) {
  Recorder r;
  StartProgress progress;
  r.RunHook([&](StartProgress p) {
    p.Defer();
    progress = p;
  });
  progress.Report("copying data", 250);
  r.RunPosted();
  progress.Report("copying data", -7);
  r.RunPosted();
  progress.Done(absl::UnavailableError("no live replica of partition 7"));
  progress.Done(absl::OkStatus());
  r.RunUntilDone();
  r.RunPosted();
  EXPECT_THAT(r.reports, ElementsAre(Pair("copying data", 100), Pair("copying data", -1)));
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.done[0].message(), "no live replica of partition 7");
}

TEST(StartProgressTest, NothingIsDeliveredAfterDetachEvenIfAlreadyPosted) {
  Recorder r;
  StartProgress progress;
  r.RunHook([&](StartProgress p) {
    p.Defer();
    progress = p;
  });
  progress.Report("copying data", 10);
  progress.Done(absl::OkStatus());
  r.receiver->Detach();
  r.RunPosted();
  EXPECT_TRUE(r.reports.empty());
  EXPECT_TRUE(r.done.empty());
}

TEST(StartProgressTest, HandlesOutliveTheReceiverAndTheLoop) {
  auto r = std::make_unique<Recorder>();
  StartProgress progress;
  r->RunHook([&](StartProgress p) {
    p.Defer();
    progress = p;
  });
  // A thread keeps reporting while the runtime shuts down under it.
  std::atomic<bool> stop{false};
  std::atomic<int> reported{0};
  std::thread copier([progress, &stop, &reported] {
    for (int i = 0; !stop.load(); ++i) {
      progress.Report("copying data", i % 100);
      ++reported;
    }
    progress.Done(absl::OkStatus());
  });
  while (reported.load() < 100) std::this_thread::yield();
  r->receiver->Detach();
  r.reset();  // receiver and loop gone; tasks still queued die with the loop
  stop = true;
  copier.join();
  progress.Report("copying data", 1);
  progress.Done(absl::InternalError("ignored"));
  progress.Defer();  // detached: does nothing, rather than abort
  StartProgress unbound;
  unbound.Defer();
  unbound.Report("x", 1);
  unbound.Done(absl::OkStatus());
}

TEST(StartProgressDeathTest, DeferOutsideTheStartHookIsABug) {
  Recorder r;
  StartProgress progress;
  r.RunHook([&](StartProgress p) { progress = p; });
  EXPECT_DEATH(progress.Defer(), "outside the start hook");
}

}  // namespace
}  // namespace shoal::control
