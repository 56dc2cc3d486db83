#include "engine/node/plane/copy_progress.h"

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

wire::CopyDone Report(uint32_t ldm, uint32_t ldm_count, uint64_t sent, uint64_t total,
                      bool complete = false) {
  wire::CopyDone report;
  report.from_node = 2;
  report.ldm = ldm;
  report.ldm_count = ldm_count;
  report.sent = sent;
  report.total = total;
  report.complete = complete;
  return report;
}

TEST(CopyProgressTest, OneLdmGivesItsShareSent) {
  CopyProgress progress;
  EXPECT_EQ(progress.Update(Report(0, 1, 0, 4)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 0);
  EXPECT_EQ(progress.Update(Report(0, 1, 1, 4)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 25);
  EXPECT_EQ(progress.Update(Report(0, 1, 1, 4)), CopyProgress::Step::kNone);  // no change
  // All sent but not yet complete: 99, never 100 before the end.
  EXPECT_EQ(progress.Update(Report(0, 1, 4, 4)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 99);
  EXPECT_EQ(progress.Update(Report(0, 1, 4, 4, /*complete=*/true)), CopyProgress::Step::kComplete);
}

TEST(CopyProgressTest, LdmsNotHeardFromCountAsNotStarted) {
  CopyProgress progress;
  // LDM 0 of 2 is half way; LDM 1 has said nothing: a quarter of it all.
  EXPECT_EQ(progress.Update(Report(0, 2, 1, 2)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 25);
  // LDM 1 starts with nothing sent of 2: 1 of 4 sent, both heard.
  EXPECT_EQ(progress.Update(Report(1, 2, 0, 2)), CopyProgress::Step::kNone);
  EXPECT_EQ(progress.percent(), 25);
  EXPECT_EQ(progress.Update(Report(1, 2, 2, 2, /*complete=*/true)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 75);
  EXPECT_EQ(progress.Update(Report(0, 2, 2, 2, /*complete=*/true)), CopyProgress::Step::kComplete);
}

TEST(CopyProgressTest, NothingToCopyIsZeroUntilComplete) {
  CopyProgress progress;
  EXPECT_EQ(progress.Update(Report(0, 2, 0, 0, /*complete=*/true)), CopyProgress::Step::kPercent);
  EXPECT_EQ(progress.percent(), 0);
  EXPECT_EQ(progress.Update(Report(1, 2, 0, 0, /*complete=*/true)), CopyProgress::Step::kComplete);
}

TEST(CopyProgressTest, IgnoresAnImplausibleLdmCount) {
  CopyProgress progress;
  EXPECT_EQ(progress.Update(Report(0, 257, 1, 2)), CopyProgress::Step::kNone);
  EXPECT_EQ(progress.percent(), -1);
}

}  // namespace
}  // namespace shoal::node
