// Arbitrator from a node's own threads, through the real node runtime (RunManagedNodeOn) run
// in-process against a fake mgmd on a loopback port that this test plays by hand: answers reach
// the callback matched by lost node, no answer means false after the timeout, a lost connection
// means false at once, and StopNode (or a StopReq carrying an exit code) ends the node with
// that exit code.
#include "common/control/arbitrator.h"

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "common/config/config.h"
#include "common/control/blocking_connection.h"
#include "common/control/managed_node.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::control {
namespace {

using ::testing::HasSubstr;

constexpr int kNode = 2;
constexpr absl::Duration kWait = absl::Seconds(20);

// What a Done callback was given, and on which thread.
struct Answer {
  bool granted = false;
  std::string why;
  std::thread::id thread;
};

class ArbitratorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto listener = BlockingListener::Listen("127.0.0.1", 0);
    ASSERT_TRUE(listener.ok()) << listener.status();
    listener_ = std::make_unique<BlockingListener>(std::move(*listener));
  }

  void TearDown() override {
    if (node_thread_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(node_loop_mu_);
        if (node_loop_ != nullptr) node_loop_->Stop();  // a test that failed half-way
      }
      node_thread_.join();
    }
  }

  // Starts data node kNode in-process and plays the mgmd's side of its registration; returns
  // the node's Arbitrator, as its start hook got it.
  Arbitrator StartNode() {
    std::promise<Arbitrator> handed;
    std::future<Arbitrator> arbitrator = handed.get_future();
    EventLoop* loop = nullptr;
    {
      std::lock_guard<std::mutex> lock(node_loop_mu_);
      node_loop_ = std::move(*EventLoop::Create());
      loop = node_loop_.get();
    }
    ManagedNodeHooks hooks;
    hooks.start = [this, &handed](const ManagedNodeContext& context) {
      node_thread_id_ = std::this_thread::get_id();  // published by the promise
      handed.set_value(context.arbitrator);
      return absl::OkStatus();
    };
    node_thread_ = std::thread([this, loop, hooks = std::move(hooks)]() mutable {
      ManagedNodeOptions options;
      options.type = DATANODE;
      options.mgmd = {"127.0.0.1", listener_->port()};
      options.node_id = kNode;
      options.connect_timeout = absl::Seconds(10);
      options.set_log_identity = false;
      node_exit_code_ = RunManagedNodeOn(loop, options, std::move(hooks));
      {
        std::lock_guard<std::mutex> lock(node_loop_mu_);
        node_loop_.reset();
      }
      node_exited_ = true;
    });
    auto conn = listener_->Accept(kWait);
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return Arbitrator();
    node_ = std::make_unique<BlockingConnection>(std::move(*conn));
    ControlMessage req = Receive();
    EXPECT_TRUE(req.has_register_req()) << req.DebugString();
    ControlMessage conf;
    conf.mutable_register_conf()->set_node_id(kNode);
    conf.mutable_register_conf()->set_config_yaml(config::ToYaml(config::EmbeddedDefault(
        {.run_dir = "/tmp/shoal-arbitrator-test", .mgmd_port = listener_->port()})));
    EXPECT_TRUE(node_->Send(conf).ok());
    EXPECT_EQ(arbitrator.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    ControlMessage started = Receive();
    EXPECT_TRUE(started.has_node_started()) << started.DebugString();
    return arbitrator.get();
  }

  // The next message from the node other than a heartbeat.
  ControlMessage Receive(absl::Duration timeout = kWait) {
    absl::Time deadline = absl::Now() + timeout;
    while (true) {
      absl::StatusOr<ControlMessage> message = node_->Receive(deadline - absl::Now());
      if (!message.ok()) return ControlMessage();
      if (!message->has_heartbeat()) return *message;
    }
  }

  void Reply(int lost, bool granted, const std::string& reason) {
    ControlMessage message;
    message.mutable_arbitration_conf()->set_lost_node(lost);
    message.mutable_arbitration_conf()->set_granted(granted);
    message.mutable_arbitration_conf()->set_reason(reason);
    ASSERT_TRUE(node_->Send(message).ok());
  }

  // Asks; the returned future holds the answer.
  std::future<Answer> Ask(const Arbitrator& arbitrator, int lost, absl::Duration timeout) {
    auto promise = std::make_shared<std::promise<Answer>>();
    arbitrator.Arbitrate(lost, timeout, [promise](bool granted, std::string why) {
      promise->set_value({granted, std::move(why), std::this_thread::get_id()});
    });
    return promise->get_future();
  }

  static bool Ready(std::future<Answer>& answer, absl::Duration within = kWait) {
    return answer.wait_for(absl::ToChronoMilliseconds(within)) == std::future_status::ready;
  }

  // Waits for the node's thread to end; its exit code, or -1 if it did not end in time.
  int WaitForNodeExit() {
    absl::Time deadline = absl::Now() + kWait;
    while (!node_exited_.load() && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
    if (!node_exited_.load()) return -1;
    node_thread_.join();
    return node_exit_code_;
  }

  std::unique_ptr<BlockingListener> listener_;
  std::unique_ptr<BlockingConnection> node_;  // the mgmd's end of the node's connection
  std::mutex node_loop_mu_;
  std::unique_ptr<EventLoop> node_loop_ ABSL_GUARDED_BY(node_loop_mu_);
  std::thread node_thread_;
  std::thread::id node_thread_id_;  // the node's loop thread, set by its start hook
  std::atomic<int> node_exit_code_{-1};
  std::atomic<bool> node_exited_{false};
};

TEST_F(ArbitratorTest, NoAnswerMeansFalseAfterTheTimeout) {
  Arbitrator arbitrator = StartNode();
  absl::Time asked = absl::Now();
  std::future<Answer> answer = Ask(arbitrator, 3, absl::Milliseconds(300));
  ControlMessage req = Receive();
  ASSERT_TRUE(req.has_arbitration_req()) << req.DebugString();
  EXPECT_EQ(req.arbitration_req().lost_node(), 3u);
  ASSERT_TRUE(Ready(answer));
  absl::Duration waited = absl::Now() - asked;
  Answer got = answer.get();
  EXPECT_FALSE(got.granted);
  EXPECT_THAT(got.why, HasSubstr("no answer"));
  EXPECT_EQ(got.thread, node_thread_id_);
  EXPECT_GE(waited, absl::Milliseconds(300));
  // A late answer is ignored; the node goes on (stopping is its caller's decision).
  Reply(3, true, "too late");
  arbitrator.StopNode("lost arbitration", 3);
  EXPECT_EQ(WaitForNodeExit(), 3);
}

TEST_F(ArbitratorTest, TheTimeoutLeavesOutTimeTheNodesLoopWasStalled) {
  Arbitrator arbitrator = StartNode();
  absl::Time asked = absl::Now();
  std::future<Answer> answer = Ask(arbitrator, 3, absl::Seconds(1));
  ASSERT_TRUE(Receive().has_arbitration_req());
  {
    // The node's loop is not scheduled for 2 s (as under a busy neighbour): that is not time
    // the arbitrator failed to answer in.
    std::lock_guard<std::mutex> lock(node_loop_mu_);
    node_loop_->Post([] { absl::SleepFor(absl::Seconds(2)); });
  }
  ASSERT_TRUE(Ready(answer));
  absl::Duration waited = absl::Now() - asked;
  EXPECT_FALSE(answer.get().granted);
  // 2 s stalled, of which 200 ms count, then the rest of the 1 s timeout: 2.8 s. Counting the
  // stall would have answered as soon as it ended, at 2 s.
  EXPECT_GE(waited, absl::Milliseconds(2500)) << "the stall was counted against the arbitrator";
  arbitrator.StopNode("test over", 0);
  EXPECT_EQ(WaitForNodeExit(), 0);
}

TEST_F(ArbitratorTest, AnAnswerThatArrivedDuringAStallIsTakenNotTimedOut) {
  Arbitrator arbitrator = StartNode();
  std::future<Answer> answer = Ask(arbitrator, 3, absl::Milliseconds(500));
  ASSERT_TRUE(Receive().has_arbitration_req());
  {
    std::lock_guard<std::mutex> lock(node_loop_mu_);
    node_loop_->Post([] { absl::SleepFor(absl::Seconds(1)); });
  }
  absl::SleepFor(absl::Milliseconds(200));  // the loop sleeps now
  Reply(3, true, "node 3 was declared failed");
  ASSERT_TRUE(Ready(answer));
  EXPECT_TRUE(answer.get().granted);
  arbitrator.StopNode("test over", 0);
  EXPECT_EQ(WaitForNodeExit(), 0);
}

TEST_F(ArbitratorTest, ANoteFromAnyThreadReachesTheMgmdAsANodeEvent) {
  Arbitrator arbitrator = StartNode();
  std::thread([&] { arbitrator.Note("peer data node 3 silent for 4s, but it is starved"); }).join();
  ControlMessage event = Receive();
  ASSERT_TRUE(event.has_node_event()) << event.DebugString();
  EXPECT_EQ(event.node_event().severity(), "WARNING");
  EXPECT_EQ(event.node_event().text(), "peer data node 3 silent for 4s, but it is starved");
  arbitrator.StopNode("test over", 0);
  EXPECT_EQ(WaitForNodeExit(), 0);
  arbitrator.Note("after the end: dropped");  // harmless
}

TEST_F(ArbitratorTest, AnswersReachTheirCallbacksMatchedByLostNode) {
  Arbitrator arbitrator = StartNode();
  std::future<Answer> about3 = Ask(arbitrator, 3, kWait);
  std::future<Answer> about5 = Ask(arbitrator, 5, kWait);
  ControlMessage first = Receive();
  ControlMessage second = Receive();
  ASSERT_TRUE(first.has_arbitration_req() && second.has_arbitration_req());
  EXPECT_EQ(first.arbitration_req().lost_node(), 3u);
  EXPECT_EQ(second.arbitration_req().lost_node(), 5u);
  // A second question about node 3 while the first is out shares its answer.
  std::future<Answer> about3_again = Ask(arbitrator, 3, kWait);
  Reply(5, false, "node 2 is not started");
  ASSERT_TRUE(Ready(about5));
  EXPECT_FALSE(about3.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready);
  Reply(3, true, "node 3 was declared failed");
  ASSERT_TRUE(Ready(about3));
  ASSERT_TRUE(Ready(about3_again));
  Answer got5 = about5.get();
  EXPECT_FALSE(got5.granted);
  EXPECT_EQ(got5.why, "node 2 is not started");
  for (Answer got : {about3.get(), about3_again.get()}) {
    EXPECT_TRUE(got.granted);
    EXPECT_EQ(got.why, "node 3 was declared failed");
    EXPECT_EQ(got.thread, node_thread_id_);
  }
  // Only one request about node 3 went out: the next message is the stop notice.
  arbitrator.StopNode("test over", 0);
  ControlMessage stopping = Receive();
  EXPECT_TRUE(stopping.has_node_stopping()) << stopping.DebugString();
  EXPECT_EQ(WaitForNodeExit(), 0);
}

TEST_F(ArbitratorTest, ALostConnectionMeansFalseAtOnce) {
  Arbitrator arbitrator = StartNode();
  std::future<Answer> answer = Ask(arbitrator, 3, absl::Seconds(60));
  ASSERT_TRUE(Receive().has_arbitration_req());
  node_->Close();
  ASSERT_TRUE(Ready(answer, absl::Seconds(10)));
  Answer got = answer.get();
  EXPECT_FALSE(got.granted);
  EXPECT_THAT(got.why, HasSubstr("lost the connection to the management daemon"));
  // While the node has no mgmd, questions are answered at once.
  std::future<Answer> unconnected = Ask(arbitrator, 3, absl::Seconds(60));
  ASSERT_TRUE(Ready(unconnected, absl::Seconds(10)));
  EXPECT_THAT(unconnected.get().why, HasSubstr("no connection to the management daemon"));
  arbitrator.StopNode("no arbitrator", 1);
  EXPECT_EQ(WaitForNodeExit(), 1);
}

TEST_F(ArbitratorTest, AStopReqWithAnExitCodeEndsTheNodeWithIt) {
  Arbitrator arbitrator = StartNode();
  std::future<Answer> answer = Ask(arbitrator, 3, absl::Seconds(60));
  ASSERT_TRUE(Receive().has_arbitration_req());
  ControlMessage stop;
  stop.mutable_stop_req()->set_reason("lost arbitration to node 3");
  stop.mutable_stop_req()->set_exit_code(1);
  ASSERT_TRUE(node_->Send(stop).ok());
  // The outstanding question is answered false as the node stops.
  ASSERT_TRUE(Ready(answer, absl::Seconds(10)));
  EXPECT_FALSE(answer.get().granted);
  ControlMessage stopping = Receive();
  ASSERT_TRUE(stopping.has_node_stopping()) << stopping.DebugString();
  EXPECT_THAT(stopping.node_stopping().reason(), HasSubstr("lost arbitration to node 3"));
  node_->Close();
  EXPECT_EQ(WaitForNodeExit(), 1);
  // The runtime is gone: the handle answers false at once, on this thread, and StopNode does
  // nothing.
  std::future<Answer> late = Ask(arbitrator, 3, absl::Seconds(60));
  ASSERT_TRUE(Ready(late, absl::ZeroDuration()));
  Answer got = late.get();
  EXPECT_FALSE(got.granted);
  EXPECT_EQ(got.thread, std::this_thread::get_id());
  arbitrator.StopNode("after the end", 2);
}

TEST(ArbitratorHandleTest, AnUnboundHandleAnswersFalseAtOnce) {
  Arbitrator arbitrator;
  bool called = false;
  arbitrator.Arbitrate(3, absl::Seconds(1), [&](bool granted, std::string) {
    called = true;
    EXPECT_FALSE(granted);
  });
  EXPECT_TRUE(called);
  arbitrator.StopNode("nothing to stop", 1);
}

TEST(ArbitratorHandleTest, DetachAnswersQuestionsTheLoopNeverDelivered) {
  auto loop = std::move(*EventLoop::Create());
  int asked = 0;
  auto receiver = std::make_unique<ArbitratorReceiver>(
      loop.get(), ArbitratorReceiver::Callbacks{
                      .on_arbitrate = [&](int, absl::Duration, Arbitrator::Done) { ++asked; },
                      .on_stop = nullptr,
                      .on_note = nullptr});
  Arbitrator arbitrator = receiver->handle();
  std::thread asker([&] {
    arbitrator.Arbitrate(3, absl::Seconds(1), [](bool granted, std::string why) {
      EXPECT_FALSE(granted);
      EXPECT_THAT(why, HasSubstr("stopping"));
    });
  });
  asker.join();
  int answered = 0;
  arbitrator.Arbitrate(4, absl::Seconds(1), [&](bool, std::string) { ++answered; });
  receiver->Detach();  // the loop never ran
  EXPECT_EQ(answered, 1);
  EXPECT_EQ(asked, 0);
  loop->Post([&] { loop->Stop(); });
  loop->Run();  // the queued delivery finds the receiver detached
  EXPECT_EQ(asked, 0);
}

}  // namespace
}  // namespace shoal::control
