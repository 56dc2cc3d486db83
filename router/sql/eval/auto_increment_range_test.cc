#include "router/sql/eval/auto_increment_range.h"

#include "gtest/gtest.h"

namespace shoal::sql {
namespace {

// Walks `range` over rows (0: a generated value, else that explicit value), playing the master
// (its counter `*master`) whenever the walk asks, as the executor does by running the statement
// again; returns the values the rows got and stores the range back.
std::vector<uint64_t> Walk(const std::vector<uint64_t>& rows, AutoIncrementRange* range,
                           uint64_t* master, int* round_trips = nullptr) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    AutoIncrementWalk walk(*range);
    std::vector<uint64_t> got;
    bool stopped = false;
    for (uint64_t v : rows) {
      if (v != 0) {
        walk.Explicit(v);
        got.push_back(v);
        continue;
      }
      std::optional<uint64_t> id = walk.Generate();
      if (!id) {
        stopped = true;
        break;
      }
      got.push_back(*id);
    }
    if (!stopped && !walk.NeedsMaster()) {
      *range = walk.range();
      return got;
    }
    // ReserveAutoIncrement{count = 4, at_least}: the master's rule.
    uint64_t first = std::max(*master, walk.at_least());
    *master = first + 4;
    range->Add(first, 4);
    if (round_trips != nullptr) ++*round_trips;
  }
  ADD_FAILURE() << "the walk never finished";
  return {};
}

TEST(AutoIncrementWalkTest, ExplicitValueMovesTheCounterAsMySql) {
  AutoIncrementRange range;
  uint64_t master = 1;
  EXPECT_EQ(Walk({3}, &range, &master), std::vector<uint64_t>({3}));
  EXPECT_GE(master, 4u);  // no router is handed 3 from now on
  EXPECT_EQ(Walk({0}, &range, &master), std::vector<uint64_t>({4}));
  EXPECT_EQ(Walk({0}, &range, &master), std::vector<uint64_t>({5}));
  EXPECT_EQ(Walk({0}, &range, &master), std::vector<uint64_t>({6}));
}

TEST(AutoIncrementWalkTest, ExplicitValueInsideTheHeldRangeNeedsNoRoundTrip) {
  AutoIncrementRange range;
  uint64_t master = 1;
  int trips = 0;
  EXPECT_EQ(Walk({0}, &range, &master, &trips), std::vector<uint64_t>({1}));  // holds 1..4
  EXPECT_EQ(Walk({3}, &range, &master, &trips), std::vector<uint64_t>({3}));
  EXPECT_EQ(Walk({2}, &range, &master, &trips), std::vector<uint64_t>({2}));  // below: no change
  EXPECT_EQ(Walk({0}, &range, &master, &trips), std::vector<uint64_t>({4}));
  EXPECT_EQ(trips, 1);
}

TEST(AutoIncrementWalkTest, MultiRowMixGivesMySqlValues) {
  AutoIncrementRange range;
  uint64_t master = 1;
  EXPECT_EQ(Walk({0, 10, 0, 0, 5, 0}, &range, &master),
            std::vector<uint64_t>({1, 10, 11, 12, 5, 13}));
  EXPECT_EQ(Walk({0, 1000, 0, 5000, 0}, &range, &master),
            std::vector<uint64_t>({14, 1000, 1001, 5000, 5001}));
  EXPECT_GE(master, 5002u);
}

TEST(AutoIncrementWalkTest, ExplicitValuesAloneRaiseTheMasterOncePerRange) {
  AutoIncrementRange range;
  uint64_t master = 1;
  int trips = 0;
  std::vector<uint64_t> rows;
  for (uint64_t v = 1; v <= 100; ++v) rows.push_back(v);
  EXPECT_EQ(Walk(rows, &range, &master, &trips), rows);  // a dump's multi-row INSERT
  EXPECT_EQ(trips, 1);
  EXPECT_GE(master, 101u);
  EXPECT_EQ(Walk({0}, &range, &master), std::vector<uint64_t>({101}));
}

TEST(AutoIncrementWalkTest, AnotherRoutersExplicitValueBelowTheCounterChangesNothing) {
  // Router A holds 1..4; router B stores 3: the master's counter is past it already, so B
  // learns nothing it must do, and A, which NDB does not tell either, goes on from 1.
  AutoIncrementRange a, b;
  uint64_t master = 1;
  EXPECT_EQ(Walk({0}, &a, &master), std::vector<uint64_t>({1}));
  EXPECT_EQ(Walk({3}, &b, &master), std::vector<uint64_t>({3}));
  EXPECT_EQ(Walk({0}, &b, &master), std::vector<uint64_t>({5}));  // B's range starts past A's
  // An explicit value above every range moves the master's counter for A too: its next range
  // starts past 50 (and past B's, 51..54).
  EXPECT_EQ(Walk({50}, &b, &master), std::vector<uint64_t>({50}));
  EXPECT_EQ(Walk({0, 0, 0, 0}, &a, &master), std::vector<uint64_t>({2, 3, 4, 55}));
}

TEST(AutoIncrementRangeTest, TakeSkipsSpansTooShort) {
  AutoIncrementRange range;
  range.Add(10, 2);
  range.Add(20, 8);
  EXPECT_EQ(range.end, 28u);
  EXPECT_EQ(range.Take(3), 20u);
  EXPECT_EQ(range.next, 23u);
  range.Trim();
  ASSERT_EQ(range.held.size(), 1u);
  EXPECT_EQ(range.Take(6), std::nullopt);
  EXPECT_EQ(range.Take(5), 23u);
  EXPECT_EQ(range.Take(1), std::nullopt);
}

}  // namespace
}  // namespace shoal::sql
