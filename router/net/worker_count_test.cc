#include "router/net/worker_count.h"

#include <gtest/gtest.h>

namespace shoal::router {
namespace {

TEST(ChooseWorkerCountTest, ConfiguredCountWins) {
  EXPECT_EQ(ChooseWorkerCount(3, {}, 2), 3);
  EXPECT_EQ(ChooseWorkerCount(2, {0, 1, 2, 3}, 64), 2);
}

TEST(ChooseWorkerCountTest, PinnedRouterRunsOneWorkerPerCpu) {
  EXPECT_EQ(ChooseWorkerCount(0, {4, 5, 6, 7}, 8), 4);
  EXPECT_EQ(ChooseWorkerCount(0, {0}, 128), 1);
}

TEST(ChooseWorkerCountTest, UnpinnedRouterTakesAQuarterOfTheMachine) {
  EXPECT_EQ(ChooseWorkerCount(0, {}, 1), 1);
  EXPECT_EQ(ChooseWorkerCount(0, {}, 2), 1);
  EXPECT_EQ(ChooseWorkerCount(0, {}, 8), 2);
  EXPECT_EQ(ChooseWorkerCount(0, {}, 128), 32);
}

}  // namespace
}  // namespace shoal::router
