#include "mgmd/failure_detector.h"

#include <string>
#include <vector>

#include "common/config/config.h"
#include "common/liveness/fake_proc.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::mgmd {
namespace {

using liveness::FakeProc;
using liveness::kStart;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr absl::Duration kTick = FailureDetector::kCheckInterval;

// The embedded default (data nodes 2 and 3 in node group 0, routers 4 and 5; 500 ms × 4 for
// data nodes, 1500 ms × 4 for routers), every node registered and started, on a clock and a
// /proc the test owns.
class FailureDetectorTest : public ::testing::Test {
 protected:
  FailureDetectorTest()
      : config_(config::EmbeddedDefault({.run_dir = "/tmp/x"})),
        membership_(config_, now_),
        detector_(config_.cluster, now_, proc_.root()) {
    for (int id : {2, 3, 4, 5}) Register(id);
  }

  void Register(int id, liveness::ProcessIdentity identity = {}) {
    NodeSlot* slot = membership_.Find(id);
    slot->identity = identity;
    slot->pid = identity.pid;
    membership_.SetState(id, control::STARTED, now_);
    detector_.Watch(*slot, now_);
  }
  // Runs the check every kTick for `d`, the nodes in `heard` heartbeating meanwhile; returns
  // every node failed and every warning on the way.
  struct Seen {
    std::vector<int> failed;
    std::vector<std::string> warnings;
  };
  Seen RunFor(absl::Duration d, const std::vector<int>& heard = {}) {
    Seen seen;
    for (absl::Time end = now_ + d; now_ < end;) {
      now_ += kTick;
      for (int id : heard) detector_.Heard(id, now_);
      Collect(detector_.Check(now_, membership_), &seen);
    }
    return seen;
  }
  // The mgmd is not scheduled for `d`, then checks.
  Seen StallThenCheck(absl::Duration d) {
    Seen seen;
    now_ += d;
    Collect(detector_.Check(now_, membership_), &seen);
    return seen;
  }
  void Collect(const FailureDetector::Verdict& verdict, Seen* seen) {
    for (int id : verdict.failed) {
      seen->failed.push_back(id);
      // The server declares it failed: not connected, no longer watched.
      membership_.SetState(id, control::NOT_CONNECTED, now_);
      detector_.Forget(id);
    }
    for (const auto& [id, text] : verdict.warnings) {
      seen->warnings.push_back(absl::StrCat(id, ": ", text));
    }
  }

  absl::Time now_ = kStart;
  FakeProc proc_;
  config::ClusterConfig config_;
  Membership membership_;
  FailureDetector detector_;
};

TEST_F(FailureDetectorTest, NodesThatHeartbeatAreNeverFailed) {
  Seen seen = RunFor(absl::Seconds(30), {2, 3, 4, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  EXPECT_THAT(seen.warnings, IsEmpty());
}

TEST_F(FailureDetectorTest, ASilentDataNodeWithALiveReplicaFailsAfterItsWindow) {
  Seen seen = RunFor(absl::Milliseconds(1900), {3, 4, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  seen = RunFor(absl::Milliseconds(200), {3, 4, 5});
  EXPECT_THAT(seen.failed, ElementsAre(2));
  EXPECT_THAT(seen.warnings, IsEmpty());
}

TEST_F(FailureDetectorTest, RoutersHaveTheirLongerWindow) {
  Seen seen = RunFor(absl::Milliseconds(5900), {2, 3, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  EXPECT_THAT(RunFor(absl::Milliseconds(200), {2, 3, 5}).failed, ElementsAre(4));
}

TEST_F(FailureDetectorTest, TheLastLiveReplicaIsNeverFailedOnSilence) {
  membership_.SetState(3, control::NOT_CONNECTED, now_);  // its peer is down
  detector_.Forget(3);
  Seen seen = RunFor(absl::Seconds(60), {4, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  ASSERT_EQ(seen.warnings.size(), 1u);  // said once per silence
  EXPECT_THAT(seen.warnings[0], HasSubstr("2: silent for 2s, but it is the last live replica of "
                                          "node group 0: not declared failed"));
  // Once the other replica serves again, the silent one is failed like any other.
  Register(3);
  seen = RunFor(absl::Milliseconds(200), {3, 4, 5});
  EXPECT_THAT(seen.failed, ElementsAre(2));
}

TEST_F(FailureDetectorTest, AStartingReplicaDoesNotMakeTheServingOneExpendable) {
  membership_.SetState(3, control::STARTING, now_);  // copying its partitions from node 2
  EXPECT_THAT(RunFor(absl::Seconds(10), {3, 4, 5}).failed, IsEmpty());
}

TEST_F(FailureDetectorTest, ReplicasSilentTogetherAreNeitherFailed) {
  // Both data nodes stop answering (SIGSTOP of both, say): failing either would leave the
  // group to the other, which is no more alive. They get one more window, then stay.
  Seen seen = RunFor(absl::Seconds(30), {4, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  ASSERT_EQ(seen.warnings.size(), 4u);
  EXPECT_THAT(seen.warnings[0], HasSubstr("2: silent for 2s (2s counted), as node 3 fell silent "
                                          "at the same moment"));
  EXPECT_THAT(seen.warnings[2], HasSubstr("2: silent for 4s, but it is the last live replica"));
  EXPECT_THAT(seen.warnings[3], HasSubstr("3: silent for 4s, but it is the last live replica"));
  // One answers: the other, still silent, is failed now.
  EXPECT_THAT(RunFor(kTick, {3, 4, 5}).failed, ElementsAre(2));
}

TEST_F(FailureDetectorTest, NodesSilentTogetherAreFailedOneWindowLater) {
  Seen seen = RunFor(absl::Seconds(2), {2, 3});  // both routers: 6 s windows
  seen = RunFor(absl::Seconds(4), {2, 3});
  EXPECT_THAT(seen.failed, IsEmpty());
  EXPECT_EQ(seen.warnings.size(), 2u);
  EXPECT_THAT(RunFor(absl::Seconds(6), {2, 3}).failed, ElementsAre(4, 5));
}

TEST_F(FailureDetectorTest, TheMgmdsOwnStallIsNotCounted) {
  RunFor(absl::Seconds(1), {2, 3, 4, 5});
  // Stopped for ten seconds (SIGSTOP, a busy neighbour): then the heartbeats waiting on the
  // sockets are read, and nobody was failed.
  Seen seen = StallThenCheck(absl::Seconds(10));
  EXPECT_THAT(seen.failed, IsEmpty());
  EXPECT_EQ(seen.warnings.size(), 4u);
  EXPECT_THAT(seen.warnings[0], HasSubstr("the observer itself was stalled"));
  EXPECT_THAT(RunFor(absl::Seconds(5), {2, 3, 4, 5}).failed, IsEmpty());
}

TEST_F(FailureDetectorTest, ANodeStarvedOnThisHostIsNotCountedSilentButAStoppedOneIs) {
  proc_.Thread(4242, 4242, 'R', 10);
  proc_.Thread(4243, 4243, 'R', 10);
  Register(2, liveness::Identity(4242));
  Register(3, liveness::Identity(4243));
  // Node 2 is runnable but never scheduled for 10 s; node 3 runs and heartbeats.
  Seen seen = RunFor(absl::Seconds(10), {3, 4, 5});
  EXPECT_THAT(seen.failed, IsEmpty());
  ASSERT_EQ(seen.warnings.size(), 1u);
  EXPECT_THAT(seen.warnings[0], HasSubstr("2: silent for 2s"));
  EXPECT_THAT(seen.warnings[0], HasSubstr("starved"));
  // Then it is stopped (SIGSTOP): now its silence counts.
  proc_.Thread(4242, 4242, 'T', 10);
  EXPECT_THAT(RunFor(absl::Milliseconds(2100), {3, 4, 5}).failed, ElementsAre(2));
}

}  // namespace
}  // namespace shoal::mgmd
