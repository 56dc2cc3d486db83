#include "router/sql/eval/process_list.h"

#include <thread>

#include "gtest/gtest.h"

namespace shoal::sql {
namespace {

TEST(ProcessListTest, RowsFollowTheirSessions) {
  ProcessList list;
  const absl::Time t0 = absl::FromUnixSeconds(1000);
  {
    ProcessList::Entry a(&list, 7, "localhost", nullptr);
    ProcessList::Entry b(&list, 3, "127.0.0.1:5000", nullptr);
    a.SetUser("root");
    a.End(t0, "shop");
    b.Begin("Query", "SELECT 1", t0);
    std::vector<ProcessList::Row> rows = list.Snapshot();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].id, 3u);  // by id
    EXPECT_EQ(rows[0].command, "Query");
    EXPECT_EQ(rows[0].info, "SELECT 1");
    EXPECT_EQ(rows[0].db, std::nullopt);
    EXPECT_EQ(rows[1].user, "root");
    EXPECT_EQ(rows[1].db, "shop");
    EXPECT_EQ(rows[1].command, "Sleep");
    EXPECT_EQ(rows[1].info, std::nullopt);  // an idle session runs no statement
    b.SetState("Loading: 10 rows read, 0 committed");
    b.End(t0 + absl::Seconds(1), "");
    rows = list.Snapshot();
    EXPECT_EQ(rows[0].command, "Sleep");
    EXPECT_EQ(rows[0].state, "");
    EXPECT_EQ(rows[0].since, t0 + absl::Seconds(1));
  }
  EXPECT_TRUE(list.Snapshot().empty());
}

TEST(ProcessListTest, KillInterruptsTheQueryAndClosesTheConnectionWhenAsked) {
  ProcessList list;
  int closed = 0;
  ProcessList::Entry e(&list, 5, "localhost", [&closed] { ++closed; });
  EXPECT_FALSE(list.Kill(6, true));
  EXPECT_TRUE(list.Kill(5, /*connection=*/false));
  EXPECT_TRUE(e.interrupted());
  EXPECT_EQ(closed, 0);
  e.Begin("Query", "SELECT 2", absl::Now());  // the next statement runs
  EXPECT_FALSE(e.interrupted());
  EXPECT_TRUE(list.Kill(5, /*connection=*/true));
  EXPECT_EQ(closed, 1);
}

// Sessions update their rows on their own threads while others list and kill.
TEST(ProcessListTest, SessionsAndReadersOnSeveralThreads) {
  ProcessList list;
  std::atomic<bool> stop{false};
  std::vector<std::thread> sessions;
  for (uint32_t id = 1; id <= 4; ++id) {
    sessions.emplace_back([&list, &stop, id] {
      while (!stop.load()) {
        ProcessList::Entry e(&list, id, "localhost", nullptr);
        for (int i = 0; i < 100; ++i) {
          e.Begin("Query", "SELECT something", absl::Now());
          e.End(absl::Now(), "db");
        }
      }
    });
  }
  for (int i = 0; i < 2000; ++i) {
    for (const ProcessList::Row& row : list.Snapshot()) EXPECT_LE(row.id, 4u);
    list.Kill(static_cast<uint32_t>(i % 5), false);
  }
  stop = true;
  for (std::thread& t : sessions) t.join();
}

}  // namespace
}  // namespace shoal::sql
