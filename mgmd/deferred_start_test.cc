// A node whose start hook defers "started" (as a data node copying its partitions will), run
// in-process by the real node runtime (RunManagedNodeOn) against an in-process mgmd on a
// loopback port, and watched through the console protocol: its progress shows in STATUS and
// the cluster log, "started" comes with Done(OK), Done(error) stops it with exit code 1, and a
// STOP while it is still starting stops it cleanly while its threads keep reporting. A deferred
// start that reports its disk hears the system restart decision through on_view.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/managed_node.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mgmd/console/client.h"
#include "mgmd/console/format.h"
#include "mgmd/mgmd_server.h"
#include "tests/testutil/process.h"

namespace shoal::mgmd {
namespace {

using control::ConsoleRep;
using control::ConsoleReq;
using control::ManagedNodeContext;
using control::ManagedNodeHooks;
using control::StartProgress;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kNode = 2;  // data node 2 of the cluster in a box
constexpr absl::Duration kWait = absl::Seconds(20);

class DeferredStartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    run_dir_ = shoal::testing::MakeTempDir("shoal-defer");
    config::ClusterConfig config =
        config::EmbeddedDefault({.run_dir = run_dir_, .mgmd_port = 0, .metrics_base_port = 0});
    config.cluster.heartbeat_interval = absl::Milliseconds(50);
    config.cluster.missed_heartbeats = 200;  // a slow test machine is not a failed node
    // Data node 3 never comes: a system restart goes on without it after this.
    config.cluster.start_partial_timeout = absl::Milliseconds(300);
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
    if (mgmd_thread_.joinable()) {
      mgmd_loop_->Post([this] { server_->Shutdown("test over", [this] { mgmd_loop_->Stop(); }); });
      mgmd_thread_.join();
    }
    server_.reset();
    std::filesystem::remove_all(run_dir_);
  }

  // Runs data node kNode in-process, on a thread and loop of its own.
  void StartNode(ManagedNodeHooks hooks) {
    EventLoop* loop = nullptr;
    {
      std::lock_guard<std::mutex> lock(node_loop_mu_);
      node_loop_ = std::move(*EventLoop::Create());
      loop = node_loop_.get();
    }
    node_thread_ = std::thread([this, loop, hooks = std::move(hooks)]() mutable {
      control::ManagedNodeOptions options;
      options.type = control::DATANODE;
      options.mgmd = {"127.0.0.1", mgmd_port_};
      options.node_id = kNode;
      options.connect_timeout = absl::Seconds(10);
      options.set_log_identity = false;
      node_exit_code_ = control::RunManagedNodeOn(loop, options, std::move(hooks));
      {
        // Its sockets close only as the loop goes (libevent finalizes them there), as they
        // would when a real node's process exits.
        std::lock_guard<std::mutex> lock(node_loop_mu_);
        node_loop_.reset();
      }
      node_exited_ = true;
    });
  }

  // Waits for the node's thread to end; its exit code, or -1 if it did not end in time.
  int WaitForNodeExit() {
    if (!shoal::testing::WaitUntil([this] { return node_exited_.load(); }, kWait)) return -1;
    node_thread_.join();
    return node_exit_code_;
  }

  // `force`: STOP even the last live replica (here the only data node).
  ConsoleRep Console(ConsoleReq::Verb verb, int node_id = 0, bool force = false) {
    auto client = console::ConsoleClient::Connect("127.0.0.1", mgmd_port_, absl::Seconds(5));
    if (!client.ok()) {
      ADD_FAILURE() << client.status();
      return ConsoleRep();
    }
    ConsoleReq req;
    req.set_verb(verb);
    req.set_node_id(static_cast<uint32_t>(node_id));
    req.set_force(force);
    absl::StatusOr<ConsoleRep> rep = client->Call(req, kWait);
    if (!rep.ok()) {
      ADD_FAILURE() << rep.status();
      return ConsoleRep();
    }
    return *rep;
  }

  // `N STATUS` as shoal-mgm prints it.
  std::string Status() {
    return console::FormatStatus(Console(ConsoleReq::STATUS, kNode).view(), kNode, absl::Now());
  }

  bool WaitForStatus(const std::string& text) {
    return shoal::testing::WaitUntil([&] { return absl::StrContains(Status(), text); }, kWait);
  }

  std::string ClusterLog() {
    std::string out;
    ConsoleRep rep = Console(ConsoleReq::CLUSTERLOG);
    for (const auto& event : rep.events()) {
      absl::StrAppend(&out, "Node ", event.node_id(), ": ", event.text(), "\n");
    }
    return out;
  }

  const control::NodeStatus& NodeOf(const control::ClusterView& view) {
    for (const auto& node : view.nodes()) {
      if (node.node_id() == kNode) return node;
    }
    ADD_FAILURE() << "no node " << kNode << " in the view";
    return view.nodes(0);
  }

  // A start hook that defers and hands its StartProgress to the test.
  ManagedNodeHooks DeferringHooks() {
    ManagedNodeHooks hooks;
    hooks.start = [this](const ManagedNodeContext& context) {
      context.start_progress.Defer();
      *context.data_port = 4242;
      progress_promise_.set_value(context.start_progress);
      return absl::OkStatus();
    };
    hooks.stop = [this] { stop_hook_ran_ = true; };
    return hooks;
  }

  StartProgress TakeProgress() {
    std::future<StartProgress> future = progress_promise_.get_future();
    EXPECT_EQ(future.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    return future.get();
  }

  std::string run_dir_;
  MetricsRegistry mgmd_metrics_;
  std::unique_ptr<EventLoop> mgmd_loop_;
  std::unique_ptr<MgmdServer> server_;
  int mgmd_port_ = 0;
  std::thread mgmd_thread_;
  std::mutex node_loop_mu_;
  std::unique_ptr<EventLoop> node_loop_ ABSL_GUARDED_BY(node_loop_mu_);
  std::thread node_thread_;
  std::atomic<int> node_exit_code_{-1};
  std::atomic<bool> node_exited_{false};
  std::atomic<bool> stop_hook_ran_{false};
  std::promise<StartProgress> progress_promise_;
  std::thread copier_;  // StopWhileStarting…'s copy thread, joined by its stop hook
  std::atomic<bool> stop_copier_{false};
};

TEST_F(DeferredStartTest, ProgressShowsInStatusUntilDoneStartsTheNode) {
  StartNode(DeferringHooks());
  StartProgress progress = TakeProgress();
  ASSERT_TRUE(WaitForStatus("Node 2: datanode, starting for")) << Status();
  EXPECT_THAT(Status(), Not(HasSubstr("(")));  // no progress reported yet

  progress.Report("copying data", 42);
  ASSERT_TRUE(WaitForStatus(" (copying data, 42% done), shoal-")) << Status();
  uint64_t version = Console(ConsoleReq::SHOW).view().version();
  // A new percent reaches the console with the next heartbeat, without a new view.
  progress.Report("copying data", 80);
  ASSERT_TRUE(WaitForStatus("(copying data, 80% done)")) << Status();
  EXPECT_EQ(Console(ConsoleReq::SHOW).view().version(), version);
  progress.Report("catching up", -1);
  ASSERT_TRUE(WaitForStatus(" (catching up), ")) << Status();
  EXPECT_GT(Console(ConsoleReq::SHOW).view().version(), version);
  std::string log = ClusterLog();
  EXPECT_THAT(log, HasSubstr("Node 2: start phase: copying data\n"));
  EXPECT_THAT(log, HasSubstr("Node 2: start phase: catching up\n"));
  EXPECT_THAT(log, Not(HasSubstr("Data node started")));

  progress.Done(absl::OkStatus());
  ASSERT_TRUE(WaitForStatus("Node 2: datanode, started for")) << Status();
  control::ClusterView view = Console(ConsoleReq::SHOW).view();
  EXPECT_EQ(NodeOf(view).start_phase(), "");
  EXPECT_EQ(NodeOf(view).data_port(), 4242u);  // set by the hook, sent with NodeStarted
  EXPECT_THAT(ClusterLog(), HasSubstr("Node 2: Data node started\n"));

  // The only data node: its stop must be forced.
  EXPECT_THAT(Console(ConsoleReq::STOP, kNode).error(), HasSubstr("last live replica"));
  ConsoleRep stop = Console(ConsoleReq::STOP, kNode, /*force=*/true);
  EXPECT_TRUE(stop.ok()) << stop.error();
  EXPECT_EQ(WaitForNodeExit(), 0);
  EXPECT_TRUE(stop_hook_ran_);
  // The node runtime is gone: the handle does nothing.
  progress.Report("copying data", 1);
  progress.Done(absl::OkStatus());
}

TEST_F(DeferredStartTest, DoneWithAnErrorStopsTheNodeWithExitCode1) {
  StartNode(DeferringHooks());
  StartProgress progress = TakeProgress();
  progress.Report("copying data", 10);
  ASSERT_TRUE(WaitForStatus("(copying data, 10% done)")) << Status();
  progress.Done(absl::UnavailableError("no live replica of partition 7"));
  EXPECT_EQ(WaitForNodeExit(), 1);
  EXPECT_TRUE(stop_hook_ran_);  // the hook's threads get stopped
  ASSERT_TRUE(WaitForStatus("Node 2: datanode, not connected")) << Status();
  EXPECT_THAT(ClusterLog(), HasSubstr("Node 2: stopping: start-up failed\n"));
  EXPECT_EQ(NodeOf(Console(ConsoleReq::SHOW).view()).start_phase(), "");
}

TEST_F(DeferredStartTest, StopWhileStartingStopsCleanlyWhileAThreadKeepsReporting) {
  ManagedNodeHooks hooks;
  hooks.start = [this](const ManagedNodeContext& context) {
    context.start_progress.Defer();
    // The copy thread reports as fast as it can and never finishes on its own.
    copier_ = std::thread([this, progress = context.start_progress] {
      for (int i = 0; !stop_copier_.load(); ++i) progress.Report("copying data", i % 100);
    });
    return absl::OkStatus();
  };
  hooks.stop = [this] {
    stop_copier_ = true;
    copier_.join();
  };
  StartNode(std::move(hooks));
  ASSERT_TRUE(WaitForStatus("(copying data, ")) << Status();
  ConsoleRep stop = Console(ConsoleReq::STOP, kNode);
  EXPECT_TRUE(stop.ok()) << stop.error();
  EXPECT_EQ(WaitForNodeExit(), 0);
  EXPECT_FALSE(copier_.joinable());
  EXPECT_THAT(Status(), HasSubstr("Node 2: datanode, not connected"));
}

TEST_F(DeferredStartTest, ADeferredStartHearsTheSystemRestartDecisionInOnView) {
  // Shared with the node's thread, which a failed assertion leaves running until TearDown.
  struct Seen {
    std::promise<control::DiskReporter> disk_promise;
    std::atomic<bool> decided{false};
    std::atomic<uint64_t> decided_epoch{0};
    std::atomic<int> views_while_deferred{0};
    std::atomic<bool> done_called{false};
  };
  auto seen = std::make_shared<Seen>();
  ManagedNodeHooks hooks = DeferringHooks();
  hooks.start = [this, seen](const ManagedNodeContext& context) {
    context.start_progress.Defer();
    context.disk.Report(1234, 1240, 1000);  // from the hook: the first report goes out at once
    seen->disk_promise.set_value(context.disk);
    progress_promise_.set_value(context.start_progress);
    return absl::OkStatus();
  };
  hooks.on_view = [seen](const control::ClusterView& view) {
    if (!seen->done_called) ++seen->views_while_deferred;
    if (view.system_restart().decided()) seen->decided_epoch = view.system_restart().epoch();
    seen->decided = view.system_restart().decided();
  };
  StartNode(std::move(hooks));
  StartProgress progress = TakeProgress();
  std::future<control::DiskReporter> disk_future = seen->disk_promise.get_future();
  ASSERT_EQ(disk_future.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  control::DiskReporter disk = disk_future.get();
  ASSERT_TRUE(WaitForStatus(", epoch 1234 complete")) << Status();

  // Node 3 never registers: after start_partial_timeout the mgmd decides without it, and the
  // node, still starting, hears it.
  ASSERT_TRUE(shoal::testing::WaitUntil([&] { return seen->decided.load(); }, kWait))
      << ClusterLog();
  EXPECT_EQ(seen->decided_epoch, 1234u);
  EXPECT_GE(seen->views_while_deferred, 2);
  control::ClusterView view = Console(ConsoleReq::SHOW).view();
  EXPECT_THAT(view.system_restart().nodes(), ::testing::ElementsAre(2u));
  EXPECT_THAT(console::FormatShow(view),
              HasSubstr("\nSystem restart: recovering epoch 1234 from data node 2\n"));
  EXPECT_THAT(ClusterLog(), HasSubstr("Node 0: System restart: recovering epoch 1234 from data "
                                      "node 2 (not waiting any longer for data node 3: "
                                      "start_partial_timeout passed)\n"));

  // Later epochs reach the console without a new view.
  uint64_t version = view.version();
  disk.Report(1300, 1300, 1000);
  ASSERT_TRUE(WaitForStatus(", epoch 1300 complete")) << Status();
  EXPECT_EQ(Console(ConsoleReq::SHOW).view().version(), version);

  // Started: the decision is over.
  seen->done_called = true;
  progress.Done(absl::OkStatus());
  ASSERT_TRUE(WaitForStatus("Node 2: datanode, started for")) << Status();
  ASSERT_TRUE(shoal::testing::WaitUntil([&] { return !seen->decided.load(); }, kWait));
  EXPECT_THAT(console::FormatShow(Console(ConsoleReq::SHOW).view()),
              Not(HasSubstr("System restart")));
  EXPECT_THAT(Status(), HasSubstr(", epoch 1300 complete"));  // still reported once started

  ConsoleRep stop = Console(ConsoleReq::STOP, kNode, /*force=*/true);
  EXPECT_TRUE(stop.ok()) << stop.error();
  EXPECT_EQ(WaitForNodeExit(), 0);
  disk.Report(1400, 1400, 1000);  // the runtime is gone: nothing happens
}

}  // namespace
}  // namespace shoal::mgmd
