#include "engine/node/plane/ceiling_raises.h"

#include "gtest/gtest.h"

namespace shoal::node {
namespace {

wire::DictConf Conf(uint64_t tag) {
  wire::DictConf conf;
  conf.set_tag(tag);
  return conf;
}

TEST(CeilingRaisesTest, AnswersWaitUntilEveryPeerConfirmedTheirRaise) {
  CeilingRaises raises;
  const uint64_t a = raises.Start(/*table_id=*/7, {2, 3});
  const uint64_t b = raises.Start(/*table_id=*/8, {2, 3});
  EXPECT_LT(a, b);
  EXPECT_EQ(raises.Unconfirmed(7), a);
  EXPECT_EQ(raises.Unconfirmed(8), b);
  EXPECT_EQ(raises.Unconfirmed(9), 0u);
  wire::DictConf conf = Conf(11);
  ASSERT_TRUE(raises.Hold(a, /*conn=*/1, &conf));
  conf = Conf(12);
  ASSERT_TRUE(raises.Hold(b, /*conn=*/2, &conf));
  conf = Conf(13);
  EXPECT_FALSE(raises.Hold(99, 3, &conf));

  EXPECT_TRUE(raises.Confirm(2, a).empty());
  // Node 3 confirms b: a, sent before it, is installed there too.
  std::vector<CeilingRaises::Held> held = raises.Confirm(3, b);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].conn, 1u);
  EXPECT_EQ(held[0].conf.tag(), 11u);
  EXPECT_EQ(raises.Unconfirmed(7), 0u);
  EXPECT_EQ(raises.in_flight(), 1u);
  // Node 2 leaves: nothing waits for it any more.
  held = raises.Confirm(2, CeilingRaises::kEveryRaise);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].conf.tag(), 12u);
  EXPECT_EQ(raises.in_flight(), 0u);
}

TEST(CeilingRaisesTest, ALateConfirmationOfANumberNotInFlightChangesNothing) {
  CeilingRaises raises;
  const uint64_t a = raises.Start(7, {2});
  EXPECT_TRUE(raises.Confirm(2, 0).empty());  // the full resend to a new peer (tag 0)
  EXPECT_EQ(raises.Unconfirmed(7), a);
  EXPECT_TRUE(raises.Confirm(3, a).empty());  // not a peer it went to
  EXPECT_EQ(raises.in_flight(), 1u);
}

}  // namespace
}  // namespace shoal::node
