#include "common/liveness/silence_detector.h"

#include <vector>

#include "common/liveness/fake_proc.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::liveness {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr absl::Duration kSilenceInterval = absl::Milliseconds(500);
constexpr absl::Duration kLimit = absl::Seconds(2);  // four intervals

// Drives a detector on a clock the test owns.
class SilenceDetectorTest : public ::testing::Test {
 protected:
  SilenceDetectorTest() : detector_(kSilenceInterval, now_) {}

  // Runs the check `n` times, on time; returns the last report.
  SilenceDetector::Report Run(int n = 1) {
    SilenceDetector::Report report;
    for (int i = 0; i < n; ++i) {
      now_ += kSilenceInterval;
      report = detector_.Check(now_, probe_);
    }
    return report;
  }
  // The detector is not scheduled for `d`, then runs its check.
  SilenceDetector::Report StallThenRun(absl::Duration d) {
    now_ += d;
    return detector_.Check(now_, probe_);
  }

  absl::Time now_ = kStart;
  SilenceDetector detector_;
  ProcessProbe* probe_ = nullptr;
};

TEST_F(SilenceDetectorTest, APeerHeardEveryIntervalNeverFails) {
  detector_.Watch(2, kLimit, now_);
  for (int i = 0; i < 40; ++i) {
    SilenceDetector::Report report = Run();
    EXPECT_THAT(report.failed, IsEmpty());
    detector_.Heard(2, now_);
  }
}

TEST_F(SilenceDetectorTest, ASilentPeerFailsOnceItsLimitIsCountedAndUntilHeard) {
  detector_.Watch(2, kLimit, now_);
  EXPECT_THAT(Run(3).failed, IsEmpty());
  EXPECT_THAT(Run().failed, ElementsAre(2));
  EXPECT_THAT(Run().failed, ElementsAre(2));  // reported again until its owner acts
  detector_.Heard(2, now_);
  EXPECT_THAT(Run().failed, IsEmpty());
  EXPECT_EQ(detector_.counted(2), kSilenceInterval);
}

TEST_F(SilenceDetectorTest, EachPeerHasItsOwnLimit) {
  detector_.Watch(2, kLimit, now_);
  detector_.Watch(4, 3 * kLimit, now_);  // a router: a longer window
  EXPECT_THAT(Run(4).failed, ElementsAre(2));
  EXPECT_THAT(Run(8).failed, ElementsAre(2, 4));
}

TEST_F(SilenceDetectorTest, TheObserversOwnStallIsNotHeldAgainstThePeers) {
  detector_.Watch(2, kLimit, now_);
  Run();
  // Five seconds unscheduled: only the allowance (two intervals) counts.
  SilenceDetector::Report report = StallThenRun(absl::Seconds(5));
  EXPECT_TRUE(report.tick.stalled);
  EXPECT_THAT(report.failed, IsEmpty());
  EXPECT_EQ(detector_.counted(2), 3 * kSilenceInterval);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_EQ(report.notes[0].peer, 2);
  EXPECT_EQ(report.notes[0].excuse, SilenceDetector::Excuse::kObserverStalled);
  EXPECT_EQ(report.notes[0].by_clock, absl::Seconds(5) + kSilenceInterval);
  EXPECT_THAT(SilenceDetector::Describe(report.notes[0]), ::testing::HasSubstr("stalled"));
  // The peer's messages, waiting since the stall, arrive: it was never failed.
  detector_.Heard(2, now_);
  EXPECT_THAT(Run(3).failed, IsEmpty());
  // A peer that stays silent after the observer resumed fails on the time counted.
  EXPECT_THAT(Run().failed, ElementsAre(2));
}

TEST_F(SilenceDetectorTest, ANoteIsGivenOncePerSilence) {
  detector_.Watch(2, kLimit, now_);
  EXPECT_EQ(StallThenRun(absl::Seconds(5)).notes.size(), 1u);
  EXPECT_THAT(StallThenRun(absl::Seconds(5)).notes, IsEmpty());
  detector_.Heard(2, now_);
  EXPECT_EQ(StallThenRun(absl::Seconds(5)).notes.size(), 1u);
}

TEST_F(SilenceDetectorTest, PeersCrossingTheLimitTogetherGetOneMoreWindow) {
  for (int id : {2, 3, 4}) detector_.Watch(id, kLimit, now_);
  Run();
  detector_.Heard(4, now_);  // heard one interval after the others
  SilenceDetector::Report report = Run(3);
  EXPECT_THAT(report.failed, IsEmpty());
  ASSERT_EQ(report.notes.size(), 2u);
  EXPECT_EQ(report.notes[0].excuse, SilenceDetector::Excuse::kTogether);
  EXPECT_THAT(report.notes[0].together, ElementsAre(2, 3));
  EXPECT_THAT(SilenceDetector::Describe(report.notes[0]),
              ::testing::HasSubstr("as node 3 fell silent at the same moment"));
  EXPECT_EQ(detector_.limit(2), 2 * kLimit);
  // Node 4 crosses alone one check later: no excuse for it.
  EXPECT_THAT(Run().failed, ElementsAre(4));
  // Still silent a whole window later: they fail after all.
  EXPECT_THAT(Run(3).failed, ElementsAre(2, 3, 4));
}

TEST_F(SilenceDetectorTest, AStarvedPeerOnThisHostIsNotCountedSilent) {
  FakeProc proc;
  ProcessProbe probe(proc.root());
  probe_ = &probe;
  proc.Thread(3, 3, 'R', 100);
  detector_.Watch(3, kLimit, now_, Identity(3));
  // Runnable throughout, never given the CPU: the first look only sets a baseline.
  SilenceDetector::Report report = Run(12);
  EXPECT_THAT(report.failed, IsEmpty());
  EXPECT_EQ(detector_.counted(3), kSilenceInterval);
  // Noted once, when its silence by the clock passed the limit.
  detector_.Heard(3, now_);
  proc.Thread(3, 3, 'S', 100);
  report = Run(3);
  EXPECT_THAT(report.failed, IsEmpty());
  // Asleep without CPU (hung, say): counted.
  EXPECT_THAT(Run().failed, ElementsAre(3));
}

TEST_F(SilenceDetectorTest, AStarvedPeerIsNotedAsStarved) {
  FakeProc proc;
  ProcessProbe probe(proc.root());
  probe_ = &probe;
  proc.Thread(3, 3, 'R', 100);
  detector_.Watch(3, kLimit, now_, Identity(3));
  std::vector<SilenceDetector::Note> notes;
  for (int i = 0; i < 6; ++i) {
    for (auto& note : Run().notes) notes.push_back(note);
  }
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].excuse, SilenceDetector::Excuse::kStarved);
  EXPECT_THAT(SilenceDetector::Describe(notes[0]), ::testing::HasSubstr("starved"));
}

TEST_F(SilenceDetectorTest, AStoppedPeerIsCountedSilent) {
  FakeProc proc;
  ProcessProbe probe(proc.root());
  probe_ = &probe;
  proc.Thread(3, 3, 'T', 100);
  detector_.Watch(3, kLimit, now_, Identity(3));
  EXPECT_THAT(Run(4).failed, ElementsAre(3));
}

TEST_F(SilenceDetectorTest, ForgottenPeersAreNotReported) {
  detector_.Watch(2, kLimit, now_);
  detector_.Forget(2);
  EXPECT_FALSE(detector_.watching(2));
  EXPECT_THAT(Run(10).failed, IsEmpty());
  detector_.Heard(2, now_);  // harmless
  EXPECT_FALSE(detector_.watching(2));
}

TEST_F(SilenceDetectorTest, WatchingAgainStartsAfresh) {
  detector_.Watch(2, kLimit, now_);
  Run(3);
  detector_.Watch(2, kLimit, now_);  // a new process took the slot
  EXPECT_THAT(Run(3).failed, IsEmpty());
  EXPECT_THAT(Run().failed, ElementsAre(2));
}

}  // namespace
}  // namespace shoal::liveness
