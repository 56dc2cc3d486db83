#include "mgmd/console/command.h"

#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::console {
namespace {

using control::ConsoleReq;
using ::testing::HasSubstr;

ConsoleReq Parsed(absl::string_view line) {
  absl::StatusOr<Command> c = ParseCommand(line);
  EXPECT_TRUE(c.ok()) << line << ": " << c.status();
  EXPECT_EQ(c->kind, Command::Kind::kRemote);
  return c->request;
}

std::string ErrorOf(absl::string_view line) {
  absl::StatusOr<Command> c = ParseCommand(line);
  EXPECT_FALSE(c.ok()) << line;
  return std::string(c.status().message());
}

TEST(CommandTest, ParsesEveryCommandCaseInsensitively) {
  EXPECT_EQ(Parsed("SHOW").verb(), ConsoleReq::SHOW);
  EXPECT_EQ(Parsed("  show ;").verb(), ConsoleReq::SHOW);
  EXPECT_EQ(Parsed("all status").verb(), ConsoleReq::STATUS);
  EXPECT_EQ(Parsed("all status").node_id(), 0u);
  ConsoleReq stop = Parsed("3 stop");
  EXPECT_EQ(stop.verb(), ConsoleReq::STOP);
  EXPECT_EQ(stop.node_id(), 3u);
  EXPECT_EQ(Parsed("3 START").verb(), ConsoleReq::START);
  EXPECT_EQ(Parsed("4 Restart").verb(), ConsoleReq::RESTART);
  EXPECT_FALSE(stop.force());
  EXPECT_TRUE(Parsed("3 stop -f").force());
  EXPECT_EQ(Parsed("3 STOP -F;").verb(), ConsoleReq::STOP);
  EXPECT_TRUE(Parsed("4 restart -f").force());
  EXPECT_EQ(Parsed("2 STATUS").node_id(), 2u);
  EXPECT_EQ(Parsed("shutdown").verb(), ConsoleReq::SHUTDOWN);
  EXPECT_EQ(Parsed("clusterlog").verb(), ConsoleReq::CLUSTERLOG);
  EXPECT_EQ(ParseCommand("help")->kind, Command::Kind::kHelp);
  EXPECT_EQ(ParseCommand("quit")->kind, Command::Kind::kQuit);
  EXPECT_EQ(ParseCommand("   ")->kind, Command::Kind::kEmpty);
}

TEST(CommandTest, ReportMemoryUsageIsAStatusPrintedAsTheReport) {
  for (auto [line, node] : {std::pair{"ALL REPORT MEMORYUSAGE", 0u},
                            {"all report memory;", 0u},
                            {"2 Report MemoryUsage", 2u}}) {
    absl::StatusOr<Command> c = ParseCommand(line);
    ASSERT_TRUE(c.ok()) << line << ": " << c.status();
    EXPECT_EQ(c->kind, Command::Kind::kRemote);
    EXPECT_EQ(c->report, Command::Report::kMemoryUsage) << line;
    EXPECT_EQ(c->request.verb(), ConsoleReq::STATUS);
    EXPECT_EQ(c->request.node_id(), node) << line;
  }
  EXPECT_EQ(ParseCommand("2 STATUS")->report, Command::Report::kNone);
  EXPECT_EQ(ParseCommand("all report threads")->report, Command::Report::kThreads);
  EXPECT_EQ(ParseCommand("3 REPORT THREADS")->request.node_id(), 3u);
  EXPECT_THAT(ErrorOf("all report eventlog"), HasSubstr("Unknown report 'EVENTLOG'"));
  EXPECT_THAT(ErrorOf("0 report memory"), HasSubstr("'0' is not a node id"));
  EXPECT_THAT(ErrorOf("x report memory"), HasSubstr("Unknown command"));
}

TEST(CommandTest, BackupsStartWaitingAsAskedAndAbortById) {
  EXPECT_EQ(Parsed("start backup").verb(), ConsoleReq::START_BACKUP);
  EXPECT_EQ(Parsed("START BACKUP;").wait(), ConsoleReq::WAIT_COMPLETED);
  EXPECT_EQ(Parsed("start backup wait completed").wait(), ConsoleReq::WAIT_COMPLETED);
  EXPECT_EQ(Parsed("Start Backup Wait Started").wait(), ConsoleReq::WAIT_STARTED);
  EXPECT_EQ(Parsed("start backup nowait").wait(), ConsoleReq::NOWAIT);
  ConsoleReq abort = Parsed("abort backup 12");
  EXPECT_EQ(abort.verb(), ConsoleReq::ABORT_BACKUP);
  EXPECT_EQ(abort.backup_id(), 12u);
  EXPECT_THAT(ErrorOf("start backup later"), HasSubstr("NOWAIT, WAIT STARTED or WAIT COMPLETED"));
  EXPECT_THAT(ErrorOf("abort backup"), HasSubstr("ABORT BACKUP <id>"));
  EXPECT_THAT(ErrorOf("abort backup x"), HasSubstr("ABORT BACKUP <id>"));
  EXPECT_THAT(ErrorOf("show backup"), HasSubstr("Unknown command"));
  EXPECT_EQ(Parsed("show backups;").verb(), ConsoleReq::SHOW_BACKUPS);
}

TEST(CommandTest, ExplainsWhatIsWrong) {
  EXPECT_THAT(ErrorOf("frobnicate"), HasSubstr("Unknown command 'frobnicate'; type HELP"));
  EXPECT_THAT(ErrorOf("3 dance"), HasSubstr("Unknown command 'DANCE' for node 3"));
  EXPECT_THAT(ErrorOf("0 stop"), HasSubstr("'0' is not a node id: ids are 1 to 255"));
  EXPECT_THAT(ErrorOf("300 stop"), HasSubstr("'300' is not a node id"));
  EXPECT_THAT(ErrorOf("x stop"), HasSubstr("'X' is not a node id"));
  EXPECT_THAT(ErrorOf("all stop"), HasSubstr("use SHUTDOWN"));
  EXPECT_THAT(ErrorOf("show me"), HasSubstr("Unknown command"));
  EXPECT_THAT(ErrorOf("3 start -f"), HasSubstr("-f goes with STOP and RESTART only"));
  EXPECT_THAT(ErrorOf("3 stop -x"), HasSubstr("Unknown command"));
}

TEST(CommandTest, HelpSaysStatusShowsAStartingNodesProgress) {
  EXPECT_THAT(kHelpText, HasSubstr("ALL STATUS"));
  EXPECT_THAT(kHelpText, HasSubstr("'starting for 12s (copying data, 42% done)'"));
}

}  // namespace
}  // namespace shoal::console
