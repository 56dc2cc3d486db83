// Arbitration (I5) at an in-process mgmd on a loopback port, asked by data nodes this test plays
// by hand over the control protocol (and once by the real node runtime): the first of two
// started nodes to ask wins, the other is declared failed — the view that says so reaches the
// winner before its grant — and told to stop; its own question comes too late and is refused;
// a question about a node that is down is granted at once; a node that is not started is
// refused.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/blocking_connection.h"
#include "common/control/managed_node.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mgmd/console/client.h"
#include "mgmd/mgmd_server.h"
#include "tests/testutil/process.h"

namespace shoal::mgmd {
namespace {

using control::BlockingConnection;
using control::ClusterView;
using control::ConsoleRep;
using control::ConsoleReq;
using control::ControlMessage;
using control::NodeState;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr absl::Duration kWait = absl::Seconds(20);

NodeState StateOf(const ClusterView& view, int node_id) {
  for (const auto& node : view.nodes()) {
    if (static_cast<int>(node.node_id()) == node_id) return node.state();
  }
  return control::NODE_STATE_UNSPECIFIED;
}

// A node played by the test: a blocking connection to the mgmd, and the last view it got.
class FakeNode {
 public:
  FakeNode(BlockingConnection conn, int id) : conn_(std::move(conn)), id_(id) {}

  int id() const { return id_; }
  const ClusterView& view() const { return view_; }

  void Send(const ControlMessage& message) { ASSERT_TRUE(conn_.Send(message).ok()); }

  // The next message other than a view (views are kept in view()); an empty message when the
  // connection closed or nothing came in time.
  ControlMessage Next(absl::Duration timeout = kWait) {
    absl::Time deadline = absl::Now() + timeout;
    while (true) {
      ControlMessage message = Receive(deadline);
      if (!message.has_cluster_view()) return message;
    }
  }

  // Reads views until one shows `node_id` in `state`.
  bool WaitForState(int node_id, NodeState state) {
    absl::Time deadline = absl::Now() + kWait;
    while (StateOf(view_, node_id) != state) {
      ControlMessage message = Receive(deadline);
      if (message.body_case() == ControlMessage::BODY_NOT_SET) return false;
      if (!message.has_cluster_view()) ADD_FAILURE() << "unexpected " << message.DebugString();
    }
    return true;
  }

  // Asks about `lost` and returns the answer; `view_at_answer` gets the view the node had when
  // the answer came.
  control::ArbitrationConf Arbitrate(int lost, ClusterView* view_at_answer = nullptr) {
    ControlMessage req;
    req.mutable_arbitration_req()->set_lost_node(static_cast<uint32_t>(lost));
    Send(req);
    ControlMessage answer = Next();
    EXPECT_TRUE(answer.has_arbitration_conf()) << answer.DebugString();
    EXPECT_EQ(answer.arbitration_conf().lost_node(), static_cast<uint32_t>(lost));
    if (view_at_answer != nullptr) *view_at_answer = view_;
    return answer.arbitration_conf();
  }

  bool closed() const { return closed_; }

 private:
  // One message (a view is also kept in view_); empty when none came by `deadline`.
  ControlMessage Receive(absl::Time deadline) {
    absl::StatusOr<ControlMessage> message = conn_.Receive(deadline - absl::Now());
    if (!message.ok()) {
      closed_ = absl::IsUnavailable(message.status());
      return ControlMessage();
    }
    if (message->has_cluster_view()) view_ = message->cluster_view();
    if (message->has_register_conf()) view_ = message->register_conf().view();
    return *std::move(message);
  }

  BlockingConnection conn_;
  int id_;
  ClusterView view_;
  bool closed_ = false;
};

class ArbitrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = shoal::testing::MakeTempDir("shoal-arb");
    config::ClusterConfig config =
        config::EmbeddedDefault({.run_dir = run_dir_, .mgmd_port = 0, .metrics_base_port = 0});
    config.cluster.heartbeat_interval = absl::Milliseconds(50);
    config.cluster.missed_heartbeats = 400;  // the played nodes do not heartbeat
    mgmd_loop_ = std::move(*EventLoop::Create());
    MgmdServer::Options options;
    options.config = config;
    options.bind_host = "127.0.0.1";
    auto server = MgmdServer::Create(mgmd_loop_.get(), std::move(options), &mgmd_metrics_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    mgmd_port_ = server_->port();
    mgmd_thread_ = std::thread([this] { mgmd_loop_->Run(); });
  }

  void TearDown() override {
    if (node_thread_.joinable()) {
      {
        std::lock_guard<std::mutex> lock(node_loop_mu_);
        if (node_loop_ != nullptr) node_loop_->Stop();  // a test that failed half-way
      }
      node_thread_.join();
    }
    nodes_.clear();
    if (mgmd_thread_.joinable()) {
      mgmd_loop_->Post([this] { server_->Shutdown("test over", [this] { mgmd_loop_->Stop(); }); });
      mgmd_thread_.join();
    }
    server_.reset();
    std::filesystem::remove_all(run_dir_);
  }

  // Registers a played node of `type` as `id` (with `pid` as its process), and reports it
  // started when `start`. Null when the mgmd refused it.
  FakeNode* Join(int id, bool start = true, control::NodeType type = control::DATANODE, int pid = 0,
                 uint64_t start_ticks = 0) {
    auto conn = BlockingConnection::Connect("127.0.0.1", mgmd_port_, absl::Seconds(5));
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return nullptr;
    ControlMessage req;
    req.mutable_register_req()->set_type(type);
    req.mutable_register_req()->set_requested_node_id(static_cast<uint32_t>(id));
    req.mutable_register_req()->set_version(SHOAL_VERSION);
    req.mutable_register_req()->set_pid(pid != 0 ? pid : next_pid_++);
    req.mutable_register_req()->set_start_ticks(start_ticks);
    EXPECT_TRUE(conn->Send(req).ok());
    auto node = std::make_unique<FakeNode>(std::move(*conn), id);
    ControlMessage reply = node->Next();
    if (!reply.has_register_conf()) {
      EXPECT_TRUE(reply.has_register_ref()) << reply.DebugString();
      last_refusal_ = reply.register_ref().message();
      return nullptr;
    }
    if (start) {
      ControlMessage started;
      started.mutable_node_started();
      node->Send(started);
      EXPECT_TRUE(node->WaitForState(id, control::STARTED));
    }
    nodes_.push_back(std::move(node));
    return nodes_.back().get();
  }

  ConsoleRep Console(ConsoleReq::Verb verb, int node_id = 0) {
    auto client = console::ConsoleClient::Connect("127.0.0.1", mgmd_port_, absl::Seconds(5));
    if (!client.ok()) {
      ADD_FAILURE() << client.status();
      return ConsoleRep();
    }
    ConsoleReq req;
    req.set_verb(verb);
    req.set_node_id(static_cast<uint32_t>(node_id));
    absl::StatusOr<ConsoleRep> rep = client->Call(req, kWait);
    if (!rep.ok()) {
      ADD_FAILURE() << rep.status();
      return ConsoleRep();
    }
    return *rep;
  }

  // The cluster log as "SEVERITY Node N: text" lines.
  std::string ClusterLog() {
    std::string out;
    ConsoleRep rep = Console(ConsoleReq::CLUSTERLOG);
    for (const auto& event : rep.events()) {
      absl::StrAppend(&out, event.severity(), " Node ", event.node_id(), ": ", event.text(), "\n");
    }
    return out;
  }

  NodeState MgmdState(int node_id) { return StateOf(Console(ConsoleReq::SHOW).view(), node_id); }

  std::string run_dir_;
  MetricsRegistry mgmd_metrics_;
  std::unique_ptr<EventLoop> mgmd_loop_;
  std::unique_ptr<MgmdServer> server_;
  int mgmd_port_ = 0;
  std::thread mgmd_thread_;
  std::vector<std::unique_ptr<FakeNode>> nodes_;
  int next_pid_ = 1'000'000;  // not a real process's: nothing here is supervised
  std::string last_refusal_;
  // The real node runtime, for the one test that runs it.
  std::mutex node_loop_mu_;
  std::unique_ptr<EventLoop> node_loop_ ABSL_GUARDED_BY(node_loop_mu_);
  std::thread node_thread_;
};

TEST_F(ArbitrationTest, TheFirstToAskWinsAndTheLoserIsFailedBeforeTheGrant) {
  FakeNode* a = Join(2);
  FakeNode* b = Join(3, /*start=*/true, control::DATANODE, /*pid=*/4242);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(a->WaitForState(3, control::STARTED));
  uint64_t version = a->view().version();

  ClusterView view_at_grant;
  control::ArbitrationConf conf = a->Arbitrate(3, &view_at_grant);
  EXPECT_TRUE(conf.granted());
  EXPECT_THAT(conf.reason(), HasSubstr("node 3 was declared failed"));
  // The grant came after the view in which node 3 no longer serves.
  EXPECT_GT(view_at_grant.version(), version);
  EXPECT_EQ(StateOf(view_at_grant, 3), control::NOT_CONNECTED);
  EXPECT_EQ(StateOf(view_at_grant, 2), control::STARTED);

  // The loser hears that it must stop, with an error exit code, and is let go.
  ControlMessage stop = b->Next();
  ASSERT_TRUE(stop.has_stop_req()) << stop.DebugString();
  EXPECT_THAT(stop.stop_req().reason(), HasSubstr("lost arbitration to node 2"));
  EXPECT_EQ(stop.stop_req().exit_code(), 1);
  EXPECT_EQ(b->Next().body_case(), ControlMessage::BODY_NOT_SET);
  EXPECT_TRUE(b->closed());
  EXPECT_EQ(MgmdState(3), control::NOT_CONNECTED);

  std::string log = ClusterLog();
  EXPECT_THAT(log, HasSubstr("INFO Node 2: cannot reach node 3; asks for arbitration\n"));
  EXPECT_THAT(log, HasSubstr("ALERT Node 3: lost by node 2; arbitration chose node 2\n"));
  EXPECT_THAT(log, HasSubstr("INFO Node 2: arbitration: may go on serving without node 3 ("));

  // The loser's own question comes too late: it no longer counts as started. Its process may
  // not come back as it is...
  EXPECT_EQ(Join(3, /*start=*/false, control::DATANODE, /*pid=*/4242), nullptr);
  EXPECT_THAT(last_refusal_, HasSubstr("lost arbitration"));
  // ...and a restarted one — here under the same pid, as a container's pid 1 started again,
  // told apart by its start time — is starting, so it is refused, and node 2 keeps serving.
  FakeNode* b_again = Join(3, /*start=*/false, control::DATANODE, /*pid=*/4242, /*start_ticks=*/77);
  ASSERT_NE(b_again, nullptr);
  control::ArbitrationConf late = b_again->Arbitrate(2);
  EXPECT_FALSE(late.granted());
  EXPECT_THAT(late.reason(), HasSubstr("node 3 is not started"));
  EXPECT_EQ(MgmdState(2), control::STARTED);
  EXPECT_THAT(ClusterLog(), HasSubstr("WARNING Node 3: arbitration refused: may not go on serving "
                                      "without node 2 (node 3 is not started (it is 'starting'))"));
  // Node 2 asking again (say, a second thread of it) is granted: node 3 does not serve.
  EXPECT_TRUE(a->Arbitrate(3).granted());
}

// What a node's own failure detector reports (NodeEvent) goes into the cluster log under its
// id: one line, bounded, still valid UTF-8 where it was cut, with a severity the log knows.
TEST_F(ArbitrationTest, ANodesEventGoesIntoTheClusterLogAsOneBoundedLine) {
  FakeNode* node = Join(2);
  ASSERT_NE(node, nullptr);
  std::string long_text = "peer data node 3 silent\nfor 4s ";  // 31 bytes
  for (int i = 0; i < 400; ++i) long_text += "\xC3\xA9";       // "é", two bytes each
  ControlMessage event;
  event.mutable_node_event()->set_severity("WARNING");
  event.mutable_node_event()->set_text(long_text);
  node->Send(event);
  ControlMessage odd;
  odd.mutable_node_event()->set_severity("PANIC");
  odd.mutable_node_event()->set_text("odd severity");
  node->Send(odd);
  ASSERT_TRUE(shoal::testing::WaitUntil(
      [&] { return ClusterLog().find("odd severity") != std::string::npos; }, kWait));
  ConsoleRep rep = Console(ConsoleReq::CLUSTERLOG);  // decodes: the texts are valid UTF-8
  const control::ClusterEvent* warning = nullptr;
  const control::ClusterEvent* info = nullptr;
  for (const auto& e : rep.events()) {
    if (absl::StartsWith(e.text(), "peer data node 3")) warning = &e;
    if (e.text() == "odd severity") info = &e;
  }
  ASSERT_NE(warning, nullptr);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(warning->severity(), "WARNING");
  EXPECT_EQ(warning->node_id(), 2u);
  EXPECT_EQ(warning->text().substr(0, 30), "peer data node 3 silent for 4s");
  EXPECT_LE(warning->text().size(), 512u);
  EXPECT_EQ(warning->text().size() % 2, 1u) << "cut inside a character";  // 31 + 2n
  EXPECT_EQ(info->severity(), "INFO");
}

TEST_F(ArbitrationTest, AQuestionAboutANodeThatIsDownIsGrantedAtOnce) {
  FakeNode* a = Join(2);
  ASSERT_NE(a, nullptr);
  uint64_t version = a->view().version();
  ClusterView view_at_grant;
  control::ArbitrationConf conf = a->Arbitrate(3, &view_at_grant);
  EXPECT_TRUE(conf.granted());
  EXPECT_THAT(conf.reason(), HasSubstr("node 3 is not serving (it is 'not connected')"));
  EXPECT_EQ(view_at_grant.version(), version);  // nothing changed
  EXPECT_THAT(ClusterLog(), Not(HasSubstr("ALERT")));

  // A node still starting (copying its data) does not serve either.
  FakeNode* b = Join(3, /*start=*/false);
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(a->Arbitrate(3).granted());
  EXPECT_EQ(MgmdState(3), control::STARTING);
}

TEST_F(ArbitrationTest, ANodeThatIsNotStartedIsRefused) {
  FakeNode* b = Join(3);
  FakeNode* a = Join(2, /*start=*/false);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  control::ArbitrationConf conf = a->Arbitrate(3);
  EXPECT_FALSE(conf.granted());
  EXPECT_THAT(conf.reason(), HasSubstr("node 2 is not started (it is 'starting')"));
  EXPECT_EQ(MgmdState(3), control::STARTED);

  // Only data nodes arbitrate, and only about data nodes.
  FakeNode* router = Join(4, /*start=*/true, control::ROUTER);
  ASSERT_NE(router, nullptr);
  EXPECT_FALSE(router->Arbitrate(3).granted());
  EXPECT_FALSE(b->Arbitrate(4).granted());
  EXPECT_FALSE(b->Arbitrate(99).granted());
  EXPECT_FALSE(b->Arbitrate(3).granted());
  EXPECT_EQ(MgmdState(3), control::STARTED);
  EXPECT_THAT(ClusterLog(), Not(HasSubstr("ALERT")));
}

// The real node runtime asks, through the Arbitrator its start hook got: the answer reaches
// the callback on the loop thread, after the on_view hook has seen the loser not serving.
TEST_F(ArbitrationTest, TheNodeRuntimeHearsTheGrantAfterTheView) {
  FakeNode* b = Join(3);
  ASSERT_NE(b, nullptr);
  // Shared with the node's thread, which may outlive this body if an assertion fails.
  auto handed = std::make_shared<std::promise<control::Arbitrator>>();
  auto seen_state = std::make_shared<std::atomic<NodeState>>(control::NODE_STATE_UNSPECIFIED);
  auto exit_code = std::make_shared<std::promise<int>>();
  control::ManagedNodeHooks hooks;
  hooks.start = [handed](const control::ManagedNodeContext& context) {
    handed->set_value(context.arbitrator);
    return absl::OkStatus();
  };
  // Node 3's state in each view, as the node's loop thread sees it.
  hooks.on_view = [seen_state](const ClusterView& view) { *seen_state = StateOf(view, 3); };
  EventLoop* loop = nullptr;
  {
    std::lock_guard<std::mutex> lock(node_loop_mu_);
    node_loop_ = std::move(*EventLoop::Create());
    loop = node_loop_.get();
  }
  node_thread_ = std::thread([this, loop, exit_code, hooks = std::move(hooks)]() mutable {
    control::ManagedNodeOptions options;
    options.type = control::DATANODE;
    options.mgmd = {"127.0.0.1", mgmd_port_};
    options.node_id = 2;
    options.connect_timeout = absl::Seconds(10);
    options.set_log_identity = false;
    int code = control::RunManagedNodeOn(loop, options, std::move(hooks));
    {
      std::lock_guard<std::mutex> lock(node_loop_mu_);
      node_loop_.reset();
    }
    exit_code->set_value(code);
  });
  std::future<control::Arbitrator> arbitrator_future = handed->get_future();
  ASSERT_EQ(arbitrator_future.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  control::Arbitrator arbitrator = arbitrator_future.get();
  ASSERT_TRUE(shoal::testing::WaitUntil(
      [&] { return MgmdState(2) == control::STARTED && *seen_state == control::STARTED; }, kWait));

  auto answer = std::make_shared<std::promise<std::pair<bool, NodeState>>>();
  arbitrator.Arbitrate(3, absl::Seconds(10), [answer, seen_state](bool granted, std::string why) {
    EXPECT_THAT(why, HasSubstr("node 3 was declared failed"));
    answer->set_value({granted, seen_state->load()});
  });
  std::future<std::pair<bool, NodeState>> got = answer->get_future();
  ASSERT_EQ(got.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  auto [granted, state_when_granted] = got.get();
  EXPECT_TRUE(granted);
  EXPECT_EQ(state_when_granted, control::NOT_CONNECTED);
  EXPECT_TRUE(b->Next().has_stop_req());

  arbitrator.StopNode("test over", 0);
  std::future<int> code = exit_code->get_future();
  ASSERT_EQ(code.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  EXPECT_EQ(code.get(), 0);
  node_thread_.join();
}

}  // namespace
}  // namespace shoal::mgmd
