// A node whose redo cannot be written (its writer unhealthy: a full disk) refuses what would
// commit a change to a logged table, on either replica, with NDB's temporary error 410; reads,
// non-logged tables and everything once the writer is healthy again go on.
#include "absl/strings/match.h"
#include "engine/node/ldm/ldm_test_fixture.h"

namespace shoal::node::ldm_test {
namespace {

class RedoRefusalTest : public TwoNodeGroupTest {
 protected:
  static void ExpectRefused(const std::pair<uint16_t, std::string>& answer) {
    EXPECT_EQ(answer.first, wire::kErTemporary);
    EXPECT_EQ(answer.second,
              "Got temporary error 410 'REDO log files overloaded (disk full: write redo/r1: No "
              "space left on device)' from NDBCLUSTER");
  }
};

TEST_F(RedoRefusalTest, ThePrimaryRefusesAutocommitWritesAndServesReads) {
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  Pump();
  ASSERT_EQ(Results(a_)[1], wire::kResultOk);

  a_.redo_healthy = false;
  Send(a_, wire::OpType::kWrite, key, 2, 0, {Row(key, 20)});
  Insert(a_, KeyOn(kNodeA, 2), 30, 3);
  Send(a_, wire::OpType::kDelete, key, 4, 0, {key});
  auto answers = Answers(a_);  // at once: nothing went to the backup
  EXPECT_TRUE(network_.messages.empty());
  ASSERT_EQ(answers.size(), 3u);
  for (const auto& [tag, answer] : answers) ExpectRefused(answer);
  EXPECT_EQ(Value(a_, key), 10);
  EXPECT_EQ(Value(b_, key), 10);

  a_.redo_healthy = true;  // space again
  Send(a_, wire::OpType::kWrite, key, 5, 0, {Row(key, 20)});
  Pump();
  EXPECT_EQ(Results(a_)[5], wire::kResultOk);
  EXPECT_EQ(Value(b_, key), 20);
}

TEST_F(RedoRefusalTest, ABackupWhoseRedoCannotBeWrittenRefusesToo) {
  std::string key = KeyOn(kNodeA, 1);
  b_.redo_healthy = false;
  Insert(a_, key, 10, 1);
  Pump();
  auto answers = Answers(a_);
  ASSERT_EQ(answers.count(1), 1u);
  ExpectRefused(answers[1]);
  EXPECT_EQ(Value(a_, key), -1) << "the primary kept a write its backup refused";
  EXPECT_EQ(Value(b_, key), -1);
}

TEST_F(RedoRefusalTest, ACommitOfATransactionThatWroteIsRefusedAndRolledBack) {
  constexpr uint64_t kWriter = 42;
  constexpr uint64_t kReader = 43;
  std::string key = KeyOn(kNodeA, 1);
  std::string other = KeyOn(kNodeA, 2);
  Insert(a_, key, 10, 1, kWriter);
  Pump();
  ASSERT_EQ(Results(a_)[1], wire::kResultOk);
  // Another transaction that only locked a row.
  std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  Send(a_, wire::OpType::kRead, other, 2, kReader, {other, columns}, 0, wire::kLockExclusive);
  Pump();
  Results(a_);

  a_.redo_healthy = false;
  Send(a_, wire::OpType::kCommit, key, 3, kWriter, {});
  Send(a_, wire::OpType::kCommit, other, 4, kReader, {});
  Pump();
  auto answers = Answers(a_);
  ASSERT_EQ(answers.count(3), 1u);
  ExpectRefused(answers[3]);
  EXPECT_EQ(answers[4].first, wire::kResultOk) << answers[4].second;
  a_.redo_healthy = true;
  EXPECT_EQ(Value(a_, key), -1);
  EXPECT_EQ(Value(b_, key), -1);
  // Its lock went with it.
  Insert(a_, key, 11, 5);
  Pump();
  EXPECT_EQ(Results(a_)[5], wire::kResultOk);
}

TEST_F(RedoRefusalTest, NonLoggedTablesTakeWrites) {
  auto nolog = std::make_shared<schema::TableDef>(*table_);
  nolog->id = 2;
  nolog->name = "scratch";
  nolog->comment = "NDB_TABLE=NOLOGGING=1";
  DictionaryDelta delta;
  delta.created.push_back(nolog);
  a_.ldm->Apply(delta);
  b_.ldm->Apply(delta);
  table_ = nolog;
  a_.redo_healthy = false;
  b_.redo_healthy = false;
  std::string key = KeyOn(kNodeA, 1);
  Insert(a_, key, 10, 1);
  Pump();
  EXPECT_EQ(Results(a_)[1], wire::kResultOk);
  EXPECT_EQ(Value(b_, key), 10);
}

}  // namespace
}  // namespace shoal::node::ldm_test
