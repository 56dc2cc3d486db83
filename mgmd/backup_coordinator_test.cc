#include "mgmd/backup_coordinator.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::mgmd {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A coordinator over the embedded cluster (data nodes 2 and 3, one node group), recording what
// it asks the server to do.
class BackupCoordinatorTest : public ::testing::Test {
 protected:
  BackupCoordinatorTest()
      : membership_(config::EmbeddedDefault({.run_dir = "/tmp/x"}), absl::Now()),
        backups_(&membership_, 1, Hooks()) {}

  BackupCoordinator::Hooks Hooks() {
    BackupCoordinator::Hooks hooks;
    hooks.log = [this](const std::string& severity, const std::string& text) {
      log_.push_back(severity + " " + text);
    };
    hooks.publish = [this] { ++published_; };
    hooks.reply = [this](uint64_t connection, const control::ConsoleRep& rep) {
      replies_.push_back({connection, rep});
    };
    return hooks;
  }

  void StartDataNodes() {
    membership_.SetState(2, control::STARTED, absl::Now());
    membership_.SetState(3, control::STARTED, absl::Now());
  }

  static control::BackupReport Report(uint32_t id, control::BackupReport::State state,
                                      uint64_t epoch = 0) {
    control::BackupReport report;
    report.set_id(id);
    report.set_state(state);
    report.set_current_epoch(epoch);
    report.set_data_rows(100);
    report.set_log_records(7);
    return report;
  }

  Membership membership_;
  BackupCoordinator backups_;
  std::vector<std::string> log_;
  int published_ = 0;
  std::vector<std::pair<uint64_t, control::ConsoleRep>> replies_;
};

TEST_F(BackupCoordinatorTest, StopEpochIsTheLatestNotedAndCompletionAnswersTheWaiters) {
  StartDataNodes();
  EXPECT_FALSE(backups_.Start(7, control::ConsoleReq::WAIT_COMPLETED).has_value());
  EXPECT_FALSE(backups_.Start(8, control::ConsoleReq::WAIT_STARTED)->ok());  // one at a time
  ASSERT_TRUE(backups_.run().has_value());
  EXPECT_EQ(backups_.run()->id(), 1u);
  EXPECT_THAT(backups_.run()->nodes(), ElementsAre(2u, 3u));
  EXPECT_EQ(backups_.run()->stop_epoch(), 0u);

  backups_.OnReport(2, Report(1, control::BackupReport::NOTED, 40));
  EXPECT_EQ(backups_.run()->stop_epoch(), 0u);  // node 3 has not noted it yet
  backups_.OnReport(3, Report(1, control::BackupReport::NOTED, 41));
  EXPECT_EQ(backups_.run()->stop_epoch(), 41u);

  backups_.OnReport(2, Report(1, control::BackupReport::DONE));
  EXPECT_TRUE(replies_.empty());
  backups_.OnReport(3, Report(1, control::BackupReport::DONE));
  EXPECT_FALSE(backups_.run().has_value());
  ASSERT_EQ(replies_.size(), 1u);
  EXPECT_EQ(replies_[0].first, 7u);
  EXPECT_TRUE(replies_[0].second.ok());
  // One part per node group counts: the replicas hold the same rows.
  EXPECT_THAT(replies_[0].second.message(), HasSubstr("StopGCP: 41"));
  EXPECT_THAT(replies_[0].second.message(), HasSubstr("#Records: 100 #LogRecords: 7"));
  EXPECT_THAT(log_.back(), HasSubstr("Backup 1 started from node 1 completed"));
}

TEST_F(BackupCoordinatorTest, WaitStartedAnswersOnceTheStopEpochIsKnown) {
  StartDataNodes();
  EXPECT_FALSE(backups_.Start(7, control::ConsoleReq::WAIT_STARTED).has_value());
  backups_.OnReport(2, Report(1, control::BackupReport::NOTED, 5));
  EXPECT_TRUE(replies_.empty());
  backups_.OnReport(3, Report(1, control::BackupReport::NOTED, 5));
  ASSERT_EQ(replies_.size(), 1u);
  EXPECT_EQ(replies_[0].second.message(), "Backup 1 started from node 1");
}

TEST_F(BackupCoordinatorTest, ANodeThatFailsOrLeavesAbortsTheBackup) {
  StartDataNodes();
  backups_.Start(7, control::ConsoleReq::WAIT_COMPLETED);
  backups_.OnReport(2, Report(1, control::BackupReport::NOTED, 5));
  control::BackupReport failed = Report(1, control::BackupReport::FAILED);
  failed.set_error("disk full");
  backups_.OnReport(3, failed);
  EXPECT_FALSE(backups_.run().has_value());
  ASSERT_EQ(replies_.size(), 1u);
  EXPECT_FALSE(replies_[0].second.ok());
  EXPECT_THAT(replies_[0].second.error(), HasSubstr("Backup 1 failed: data node 3: disk full"));

  backups_.Start(9, control::ConsoleReq::WAIT_COMPLETED);
  EXPECT_EQ(backups_.run()->id(), 2u);
  membership_.SetState(3, control::NOT_CONNECTED, absl::Now());
  backups_.OnNodeState(3, control::NOT_CONNECTED);
  EXPECT_FALSE(backups_.run().has_value());
  EXPECT_THAT(replies_.back().second.error(), HasSubstr("data node 3 is NOT_CONNECTED"));
}

TEST_F(BackupCoordinatorTest, RefusesWithoutEveryNodeGroupAndWhileOneRuns) {
  auto rep = backups_.Start(7, control::ConsoleReq::WAIT_COMPLETED);
  ASSERT_TRUE(rep.has_value());
  EXPECT_THAT(rep->error(), HasSubstr("the cluster is not started"));
  membership_.SetState(2, control::STARTED, absl::Now());  // node 3 down: group 0 still serves
  EXPECT_FALSE(backups_.Start(7, control::ConsoleReq::WAIT_COMPLETED).has_value());
  EXPECT_THAT(backups_.run()->nodes(), ElementsAre(2u));
  rep = backups_.Start(8, control::ConsoleReq::NOWAIT);
  EXPECT_THAT(rep->error(), HasSubstr("Backup 1 is running"));
  EXPECT_THAT(backups_.Abort(3).error(), HasSubstr("Backup 3 is not running"));
  EXPECT_TRUE(backups_.Abort(1).ok());
  EXPECT_FALSE(backups_.run().has_value());
}

TEST_F(BackupCoordinatorTest, ShowBackupsListsThePartsAndWhetherEveryNodeGroupHasOne) {
  EXPECT_EQ(backups_.ShowBackups(), "No backups on the connected data nodes");
  StartDataNodes();
  auto held = [](uint32_t id, const std::string& path) {
    control::BackupPart part;
    part.set_id(id);
    part.set_stop_epoch(id * 10);
    part.set_bytes(1000);
    part.set_path(path);
    return part;
  };
  control::BackupReport two;
  *two.add_held() = held(1, "/d2/backups/BACKUP-1");
  *two.add_held() = held(2, "/d2/backups/BACKUP-2");
  backups_.OnReport(2, two);
  control::BackupReport three;
  *three.add_held() = held(2, "/d3/backups/BACKUP-2");
  backups_.OnReport(3, three);
  const std::string text = backups_.ShowBackups();
  EXPECT_THAT(text, HasSubstr("Backup 2: stop epoch 20"));
  EXPECT_THAT(text, HasSubstr("  node 2 (node group 0): /d2/backups/BACKUP-2, 1000 bytes\n"
                              "  node 3 (node group 0): /d3/backups/BACKUP-2, 1000 bytes"));
  EXPECT_LT(text.find("Backup 2"), text.find("Backup 1"));  // newest first
  EXPECT_THAT(text, HasSubstr("every node group has a part"));
  backups_.OnNodeState(2, control::NOT_CONNECTED);
  EXPECT_THAT(backups_.ShowBackups(), Not(HasSubstr("Backup 1")));
}

TEST_F(BackupCoordinatorTest, IdsGoOnAboveWhatTheDataNodesHold) {
  StartDataNodes();
  control::BackupReport idle;
  idle.set_last_id(41);
  backups_.OnReport(2, idle);
  EXPECT_EQ(backups_.Start(7, control::ConsoleReq::NOWAIT)->message(),
            "Backup 42 started from node 1");
}

}  // namespace
}  // namespace shoal::mgmd
