#include "engine/node/plane/ddl_queue.h"

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

wire::DictReq Req(uint64_t tag) {
  wire::DictReq req;
  req.set_tag(tag);
  return req;
}

TEST(DdlQueueTest, RunsRequestsOneAtATimeInArrivalOrder) {
  DdlQueue queue;
  queue.Push(/*conn=*/1, Req(10));
  queue.Push(/*conn=*/2, Req(20));
  queue.Push(/*conn=*/3, Req(30));

  // The first finishes at once (say it failed): the next one runs.
  DdlQueue::Ddl* ddl = queue.Next();
  ASSERT_NE(ddl, nullptr);
  EXPECT_EQ(ddl->conn, 1u);
  EXPECT_EQ(queue.Finish().req.tag(), 10u);

  ddl = queue.Next();
  ASSERT_NE(ddl, nullptr);
  EXPECT_EQ(ddl->conn, 2u);
  ddl->waiting_for = {5, 6};
  queue.Wait();
  EXPECT_TRUE(queue.in_flight());
  // While it waits for its peers, nothing else runs, whatever arrives.
  EXPECT_EQ(queue.Next(), nullptr);
  queue.Push(/*conn=*/4, Req(40));
  EXPECT_EQ(queue.Next(), nullptr);
  EXPECT_EQ(queue.size(), 3u);

  DdlQueue::Ddl done = queue.Finish();
  EXPECT_EQ(done.conn, 2u);
  EXPECT_FALSE(queue.in_flight());
  EXPECT_EQ(queue.Next()->conn, 3u);
  queue.Finish();
  EXPECT_EQ(queue.Next()->conn, 4u);
  queue.Finish();
  EXPECT_EQ(queue.Next(), nullptr);
}

TEST(DdlQueueTest, InFlightUntilEveryPeerConfirmedOrLeft) {
  DdlQueue queue;
  queue.Push(/*conn=*/1, Req(10));
  queue.Next()->waiting_for = {5, 6, 7};
  queue.Wait();

  EXPECT_FALSE(queue.Confirm(9));  // a peer it did not wait for
  EXPECT_FALSE(queue.Confirm(5));
  EXPECT_FALSE(queue.Confirm(5));  // twice: counted once
  EXPECT_FALSE(queue.Confirm(7));  // a peer that left counts the same
  EXPECT_TRUE(queue.in_flight());
  EXPECT_TRUE(queue.Confirm(6));
  EXPECT_TRUE(queue.in_flight());  // until the caller finishes it
  EXPECT_EQ(queue.Finish().conn, 1u);
  EXPECT_EQ(queue.size(), 0u);
}

TEST(DdlQueueTest, AConfirmationWithNothingInFlightIsIgnored) {
  DdlQueue queue;
  EXPECT_FALSE(queue.Confirm(5));
  queue.Push(/*conn=*/1, Req(10));
  EXPECT_FALSE(queue.Confirm(5));  // queued, not in flight
  ASSERT_NE(queue.Next(), nullptr);
  EXPECT_FALSE(queue.in_flight());
}

TEST(DdlQueueTest, AChangeOfTheAccountsWaitsForTheRoutersToSeeIt) {
  DdlQueue queue;
  queue.Push(/*conn=*/1, Req(10));
  DdlQueue::Ddl* ddl = queue.Next();
  ddl->waiting_for = {5};
  ddl->routers = {40, 41, 42};
  ddl->version = 7;
  ddl->routers_deadline = absl::Now() + absl::Hours(1);
  queue.Wait();

  EXPECT_FALSE(queue.RouterSaw(40, 6));  // an older version says nothing of this change
  EXPECT_FALSE(queue.RouterSaw(40, 7));
  EXPECT_FALSE(queue.Confirm(5));                   // the peer installed it; two routers left
  EXPECT_FALSE(queue.RouterSaw(41, 8));             // a newer version counts
  EXPECT_EQ(queue.ExpireRouters(absl::Now()), 0u);  // not yet due
  EXPECT_TRUE(queue.RouterSaw(42, UINT32_MAX));     // its connection closed
  EXPECT_TRUE(queue.waits_for_nobody());
  EXPECT_EQ(queue.Finish().conn, 1u);
}

TEST(DdlQueueTest, RoutersThatDoNotAnswerAreWaitedForUntilTheDeadline) {
  DdlQueue queue;
  queue.Push(/*conn=*/1, Req(10));
  DdlQueue::Ddl* ddl = queue.Next();
  ddl->routers = {40, 41};
  ddl->version = 7;
  const absl::Time deadline = absl::Now() + absl::Seconds(2);
  ddl->routers_deadline = deadline;
  queue.Wait();
  EXPECT_FALSE(queue.RouterSaw(40, 7));
  EXPECT_EQ(queue.ExpireRouters(deadline - absl::Milliseconds(1)), 0u);
  EXPECT_FALSE(queue.waits_for_nobody());
  EXPECT_EQ(queue.ExpireRouters(deadline), 1u);
  EXPECT_TRUE(queue.waits_for_nobody());
}

}  // namespace
}  // namespace shoal::node
