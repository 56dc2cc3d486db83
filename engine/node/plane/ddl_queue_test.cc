#include "engine/node/plane/ddl_queue.h"

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

}  // namespace
}  // namespace shoal::node
