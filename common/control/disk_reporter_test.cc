#include "common/control/disk_reporter.h"

#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::control {
namespace {

using ::testing::ElementsAre;

// A receiver on a fresh loop that records what it is told, and on which thread.
struct Recorder {
  Recorder()
      : loop(std::move(*EventLoop::Create())),
        receiver(std::make_unique<DiskReporterReceiver>(loop.get(), [this](const DiskReport& r) {
          EXPECT_EQ(std::this_thread::get_id(), loop_thread);
          reports.push_back(r);
        })) {}

  // Runs every task posted so far, then returns.
  void RunPosted() {
    loop->Post([this] { loop->Stop(); });
    loop->Run();
  }

  std::thread::id loop_thread = std::this_thread::get_id();
  std::unique_ptr<EventLoop> loop;
  std::unique_ptr<DiskReporterReceiver> receiver;
  std::vector<DiskReport> reports;
};

TEST(DiskReporterTest, ReportsArriveOnTheLoopThreadLatestLast) {
  Recorder r;
  DiskReporter disk = r.receiver->handle();
  disk.Report(5, 6, 1);
  r.RunPosted();
  disk.Report(7, 7, 1);
  disk.Report(8, 9, 2);  // before the loop turns: folded into one delivery
  r.RunPosted();
  EXPECT_THAT(r.reports, ElementsAre(DiskReport{5, 6, 1}, DiskReport{8, 9, 2}));
}

TEST(DiskReporterTest, ReportsFromAnotherThreadAreCoalesced) {
  Recorder r;
  DiskReporter disk = r.receiver->handle();
  std::thread redo([disk] {
    for (uint64_t epoch = 1; epoch <= 1000; ++epoch) disk.Report(epoch, epoch, 1);
  });
  redo.join();
  r.RunPosted();
  ASSERT_FALSE(r.reports.empty());
  EXPECT_LE(r.reports.size(), 1000u);
  EXPECT_EQ(r.reports.back(), (DiskReport{1000, 1000, 1}));
}

TEST(DiskReporterTest, NothingIsDeliveredAfterDetachEvenIfAlreadyPosted) {
  Recorder r;
  DiskReporter disk = r.receiver->handle();
  disk.Report(5, 6, 1);
  r.receiver->Detach();
  disk.Report(7, 7, 1);
  r.RunPosted();
  EXPECT_TRUE(r.reports.empty());
}

TEST(DiskReporterTest, HandlesOutliveTheReceiverAndTheLoop) {
  auto r = std::make_unique<Recorder>();
  DiskReporter disk = r->receiver->handle();
  std::atomic<bool> stop{false};
  std::atomic<int> reported{0};
  std::thread redo([disk, &stop, &reported] {
    for (uint64_t epoch = 1; !stop.load(); ++epoch) {
      disk.Report(epoch, epoch, 1);
      ++reported;
    }
  });
  while (reported.load() < 100) std::this_thread::yield();
  r->receiver->Detach();
  r.reset();  // receiver and loop gone; tasks still queued die with the loop
  stop = true;
  redo.join();
  disk.Report(1, 1, 1);
  DiskReporter unbound;
  unbound.Report(1, 1, 1);
}

}  // namespace
}  // namespace shoal::control
