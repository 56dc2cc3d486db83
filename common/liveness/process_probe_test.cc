#include "common/liveness/process_probe.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/liveness/fake_proc.h"
#include "gtest/gtest.h"

namespace shoal::liveness {
namespace {

TEST(ParseStatLineTest, ReadsStateCpuAndStartAfterTheLastParenthesis) {
  StatLine line;
  ASSERT_TRUE(ParseStatLine(StatText(77, 'R', 30, 12, 98765), &line));
  EXPECT_EQ(line.state, 'R');
  EXPECT_EQ(line.cpu_ticks, 42u);
  EXPECT_EQ(line.start_ticks, 98765u);
}

TEST(ParseStatLineTest, RefusesWhatIsNotAStatLine) {
  StatLine line;
  EXPECT_FALSE(ParseStatLine("", &line));
  EXPECT_FALSE(ParseStatLine("12 (x) R 1 2 3", &line));
  EXPECT_FALSE(ParseStatLine("12 (x)", &line));
  // utime is not a number
  EXPECT_FALSE(ParseStatLine(
      "1 (x) R 1 100 100 0 -1 4194560 500 0 0 0 zz 0 0 0 20 0 3 0 5 1 2 3 4 5", &line));
  // the state is not one letter
  EXPECT_FALSE(ParseStatLine(
      "1 (x) RR 1 100 100 0 -1 4194560 500 0 0 0 1 0 0 0 20 0 3 0 5 1 2 3 4 5", &line));
}

TEST(ProcessProbeTest, RunnableWithoutCpuBetweenTwoLooksIsStarved) {
  FakeProc proc;
  proc.Thread(10, 10, 'R', 500);
  proc.Thread(10, 11, 'S', 80);
  ProcessProbe probe(proc.root());
  EXPECT_EQ(probe.Look(Identity(10), kStart), Activity::kUnknown);  // no earlier look
  proc.Thread(10, 10, 'R', 501);                                    // one tick: still held back
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(500)), Activity::kStarved);
  proc.Thread(10, 10, 'R', 540);  // it ran
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Seconds(1)), Activity::kRunning);
}

TEST(ProcessProbeTest, AThreadThatBecameRunnableOnlyNowIsNotStarved) {
  FakeProc proc;
  proc.Thread(10, 10, 'S', 500);
  ProcessProbe probe(proc.root());
  probe.Look(Identity(10), kStart);
  proc.Thread(10, 10, 'R', 500);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(500)), Activity::kWaiting);
}

TEST(ProcessProbeTest, SleepingWithoutCpuIsWaiting) {
  FakeProc proc;
  proc.Thread(10, 10, 'S', 500);
  proc.Thread(10, 12, 'D', 7);
  ProcessProbe probe(proc.root());
  probe.Look(Identity(10), kStart);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(500)), Activity::kWaiting);
}

TEST(ProcessProbeTest, AStoppedThreadMakesTheProcessStoppedAtOnce) {
  FakeProc proc;
  proc.Thread(10, 10, 'T', 500);
  proc.Thread(10, 11, 'T', 9);
  ProcessProbe probe(proc.root());
  EXPECT_EQ(probe.Look(Identity(10), kStart), Activity::kStopped);
  proc.Thread(10, 10, 't', 500);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(1)), Activity::kStopped);
}

TEST(ProcessProbeTest, LooksTooCloseTogetherTellNothingAndKeepTheEarlierLook) {
  FakeProc proc;
  proc.Thread(10, 10, 'R', 500);
  ProcessProbe probe(proc.root());
  probe.Look(Identity(10), kStart);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(20)), Activity::kUnknown);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Milliseconds(60)), Activity::kStarved);
}

TEST(ProcessProbeTest, ALookFromAnotherSilenceIsOnlyABaseline) {
  FakeProc proc;
  proc.Thread(10, 10, 'R', 500);
  ProcessProbe probe(proc.root());
  probe.Look(Identity(10), kStart);
  // Long after, runnable again and not a tick more: too far apart to say it never ran.
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Minutes(5)), Activity::kUnknown);
  EXPECT_EQ(probe.Look(Identity(10), kStart + absl::Minutes(5) + absl::Milliseconds(500)),
            Activity::kStarved);
}

TEST(ProcessProbeTest, AnotherHostOrAReusedPidOrNoIdentityIsUnknown) {
  FakeProc proc;
  proc.Thread(10, 10, 'T', 500);
  ProcessProbe probe(proc.root());
  EXPECT_EQ(probe.Look({"another-boot", 10, 4242}, kStart), Activity::kUnknown);
  EXPECT_EQ(probe.Look(Identity(10, /*start=*/999), kStart), Activity::kUnknown);
  EXPECT_EQ(probe.Look(Identity(11), kStart), Activity::kUnknown);  // no such pid here
  EXPECT_EQ(probe.Look(ProcessIdentity{}, kStart), Activity::kUnknown);
}

TEST(ProcessProbeTest, APidReusedBetweenLooksStartsAfresh) {
  FakeProc proc;
  proc.Thread(10, 10, 'R', 500);
  ProcessProbe probe(proc.root());
  probe.Look(Identity(10), kStart);
  proc.Thread(10, 10, 'R', 500, /*start=*/7777);  // another process took pid 10
  EXPECT_EQ(probe.Look(Identity(10, 7777), kStart + absl::Seconds(1)), Activity::kUnknown);
  EXPECT_EQ(probe.Look(Identity(10, 7777), kStart + absl::Seconds(2)), Activity::kStarved);
}

TEST(ProcessIdentityTest, OfALiveProcessNotOfAZombieOrNothing) {
  FakeProc proc;
  proc.Thread(10, 10, 'S', 500);
  proc.Thread(11, 11, 'Z', 500);
  std::optional<ProcessIdentity> live = ProcessIdentity::Of(10, proc.root());
  ASSERT_TRUE(live.has_value());
  EXPECT_EQ(*live, Identity(10));
  EXPECT_FALSE(ProcessIdentity::Of(11, proc.root()).has_value());  // ended, not yet collected
  EXPECT_FALSE(ProcessIdentity::Of(12, proc.root()).has_value());
  EXPECT_FALSE(ProcessIdentity::Of(0, proc.root()).has_value());
}

TEST(ProcessIdentityTest, TextRoundTripsAndRefusesWhatIsNotAnIdentity) {
  const ProcessIdentity identity = Identity(4321, 987654);
  EXPECT_EQ(ProcessIdentity::FromText(identity.ToText() + "\n"), identity);
  EXPECT_FALSE(ProcessIdentity::FromText("").has_value());
  EXPECT_FALSE(ProcessIdentity::FromText("boot 12").has_value());
  EXPECT_FALSE(ProcessIdentity::FromText("boot x 12").has_value());
  EXPECT_FALSE(ProcessIdentity::FromText("boot -3 12").has_value());
  EXPECT_FALSE(ProcessIdentity::FromText("boot 3 12 extra").has_value());
}

// The real kernel: this process, and a child stopped, sleeping and spinning.
TEST(ProcessProbeRealTest, SelfHasAnIdentityTheProbeRecognises) {
  ProcessIdentity self = ProcessIdentity::Self();
  EXPECT_FALSE(self.boot_id.empty());
  EXPECT_EQ(self.pid, getpid());
  EXPECT_GT(self.start_ticks, 0u);
  ProcessProbe probe;
  EXPECT_EQ(probe.Look(self, absl::Now()), Activity::kUnknown);  // first look
  absl::Time until = absl::Now() + absl::Milliseconds(120);
  volatile uint64_t spin = 0;
  while (absl::Now() < until) spin = spin + 1;
  EXPECT_EQ(probe.Look(self, absl::Now()), Activity::kRunning);
}

class ChildTest : public ::testing::Test {
 protected:
  void TearDown() override { KillChild(); }
  void KillChild() {
    if (child_ > 0) {
      kill(child_, SIGKILL);
      waitpid(child_, nullptr, 0);
    }
    child_ = -1;
  }
  void Fork(bool spin) {
    child_ = fork();
    if (child_ == 0) {
      if (spin) {
        volatile uint64_t spins = 0;
        for (;;) spins = spins + 1;
      }
      for (;;) pause();
    }
    ASSERT_GT(child_, 0);
  }
  ProcessIdentity ChildIdentity() {
    ProcessIdentity id = ProcessIdentity::Self();
    id.pid = child_;
    StatLine line;
    std::ifstream in(absl::StrCat("/proc/", child_, "/stat"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(ParseStatLine(text, &line));
    id.start_ticks = line.start_ticks;
    return id;
  }
  pid_t child_ = -1;
};

TEST_F(ChildTest, AStoppedChildIsStopped) {
  ASSERT_NO_FATAL_FAILURE(Fork(/*spin=*/false));
  ASSERT_EQ(kill(child_, SIGSTOP), 0);
  ProcessProbe probe;
  ProcessIdentity child = ChildIdentity();
  absl::Time deadline = absl::Now() + absl::Seconds(5);
  Activity seen = Activity::kUnknown;
  while (seen != Activity::kStopped && absl::Now() < deadline) {
    seen = probe.Look(child, absl::Now());
    absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_EQ(seen, Activity::kStopped);
}

TEST_F(ChildTest, ASleepingChildIsWaitingAndASpinningOneRunning) {
  ASSERT_NO_FATAL_FAILURE(Fork(/*spin=*/false));
  ProcessProbe probe;
  ProcessIdentity sleeper = ChildIdentity();
  absl::SleepFor(absl::Milliseconds(50));  // let it reach pause()
  probe.Look(sleeper, absl::Now());
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_EQ(probe.Look(sleeper, absl::Now()), Activity::kWaiting);
  KillChild();
  ASSERT_NO_FATAL_FAILURE(Fork(/*spin=*/true));
  ProcessIdentity spinner = ChildIdentity();
  probe.Look(spinner, absl::Now());
  absl::SleepFor(absl::Milliseconds(200));
  EXPECT_EQ(probe.Look(spinner, absl::Now()), Activity::kRunning);
}

}  // namespace
}  // namespace shoal::liveness
