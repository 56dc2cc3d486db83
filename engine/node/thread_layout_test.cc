#include "engine/node/thread_layout.h"

#include "engine/node/ldm/ldm.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

TEST(ThreadLayoutTest, OneThreadOnSmallMachines) {
  for (int cpus : {1, 2}) {
    ThreadLayout layout = ChooseThreadLayout(0, {}, cpus);
    EXPECT_EQ(layout.threads, 1) << cpus;
    EXPECT_EQ(layout.ldm_count, 1) << cpus;
  }
}

TEST(ThreadLayoutTest, AnLdmThreadPerCpuBeyondTheFirst) {
  ThreadLayout layout = ChooseThreadLayout(0, {}, 8);
  EXPECT_EQ(layout.threads, 8);
  EXPECT_EQ(layout.ldm_count, 7);
  EXPECT_EQ(ChooseThreadLayout(0, {}, 96).ldm_count, 32);  // capped
}

TEST(ThreadLayoutTest, TheCpuListComesBeforeTheMachine) {
  EXPECT_EQ(ChooseThreadLayout(0, {0, 1}, 64).threads, 1);
  EXPECT_EQ(ChooseThreadLayout(0, {0, 1, 2, 3}, 64).ldm_count, 3);
}

TEST(ThreadLayoutTest, AConfiguredCountIsTaken) {
  EXPECT_EQ(ChooseThreadLayout(1, {0, 1, 2, 3}, 64).threads, 1);
  ThreadLayout three = ChooseThreadLayout(3, {}, 2);  // more threads than CPUs: as told
  EXPECT_EQ(three.threads, 3);
  EXPECT_EQ(three.ldm_count, 2);
}

TEST(PartitionPlacementTest, EveryLdmIsPrimaryForSomePartitions) {
  // Two replicas, two LDMs: node 0 of the group is primary for even partitions (api/cluster.h);
  // they must not all land on one LDM.
  PartitionPlacement placement{1, 2, 0, 2, 0};
  int primaries_per_ldm[2] = {0, 0};
  for (uint32_t p = 0; p < 8; p += 2) ++primaries_per_ldm[placement.LdmOf(p)];
  EXPECT_EQ(primaries_per_ldm[0], 2);
  EXPECT_EQ(primaries_per_ldm[1], 2);
}

}  // namespace
}  // namespace shoal::node
