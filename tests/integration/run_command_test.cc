// The README's run command (scripts/run.sh) brings the default cluster up, and Ctrl-C — SIGINT
// to the whole foreground process group, as a terminal sends it — leaves nothing running.
#include <sys/wait.h>

#include <csignal>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;

TEST(RunCommandTest, StartsTheClusterInABoxAndCtrlCLeavesNothingBehind) {
  std::string run_dir = MakeTempDir("shoal-run");
  int port = FreePort();
  Subprocess run = Subprocess::Start({"/bin/bash", SourceDir() + "/scripts/run.sh", "--run-dir",
                                      run_dir, "--port", std::to_string(port), "--base-port",
                                      std::to_string(FreePort(2)), "--metrics-base-port", "0"},
                                     run_dir + "/run.out");
  std::string mgm = BinDir() + "/shoal-mgm";
  std::string connect = absl::StrCat("127.0.0.1:", port);
  CommandResult show;
  // The script may have to configure and (re)build first.
  bool up = WaitUntil(
      [&] {
        show = RunCommand({mgm, "-c", connect, "-e", "SHOW"});
        size_t started = 0;
        for (size_t at = show.out.find("started"); at != std::string::npos;
             at = show.out.find("started", at + 1)) {
          ++started;
        }
        return started == 5;
      },
      absl::Minutes(10));
  ASSERT_TRUE(up) << show.out << show.err << ReadFile(run_dir + "/run.out");
  EXPECT_THAT(ReadFile(run_dir + "/run.out"),
              HasSubstr(absl::StrCat("mariadb -S ", run_dir, "/router-4.sock -u root")));

  std::vector<int> pids;
  for (const std::string& line :
       {std::string("id=2"), std::string("id=3"), std::string("id=4"), std::string("id=5")}) {
    size_t at = show.out.find(line);
    ASSERT_NE(at, std::string::npos);
    size_t pid_at = show.out.find("pid ", at);
    pids.push_back(std::stoi(show.out.substr(pid_at + 4)));
  }

  run.SignalGroup(SIGINT);
  std::optional<int> status = run.Wait(absl::Seconds(20));
  ASSERT_TRUE(status.has_value()) << "the run command did not stop on Ctrl-C";
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
  for (int pid : pids) EXPECT_FALSE(ProcessAlive(pid)) << "pid " << pid << " left running";
  std::filesystem::remove_all(run_dir);
}

}  // namespace
}  // namespace shoal::testing
