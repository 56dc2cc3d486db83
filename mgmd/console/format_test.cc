#include "mgmd/console/format.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::console {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

control::ClusterView SampleView() {
  control::ClusterView view;
  view.set_version(7);
  auto add = [&](uint32_t id, control::NodeType type, control::NodeState state, int group) {
    control::NodeStatus* n = view.add_nodes();
    n->set_node_id(id);
    n->set_type(type);
    n->set_host("127.0.0.1");
    n->set_state(state);
    n->set_version("0.1.0");
    n->set_node_group(group);
    n->set_pid(state == control::NOT_CONNECTED ? 0 : 100 + static_cast<int>(id));
  };
  add(1, control::MGMD, control::STARTED, -1);
  add(2, control::DATANODE, control::STARTED, 0);
  add(3, control::DATANODE, control::NOT_CONNECTED, 0);
  add(4, control::ROUTER, control::STARTING, -1);
  return view;
}

TEST(FormatTest, ShowGroupsNodesByType) {
  std::string text = FormatShow(SampleView());
  EXPECT_THAT(text, HasSubstr("(view 7)"));
  EXPECT_THAT(text, HasSubstr("[datanode]\t2 node(s)\n"));
  EXPECT_THAT(text,
              HasSubstr("id=2   @127.0.0.1       (shoal-0.1.0, node group 0, started, pid 102)"));
  EXPECT_THAT(text, HasSubstr("id=3   @127.0.0.1       (node group 0, not connected)"));
  EXPECT_THAT(text, HasSubstr("[mgmd]\t1 node(s)\n"));
  EXPECT_THAT(
      text,
      HasSubstr("[router]\t1 node(s)\nid=4   @127.0.0.1       (shoal-0.1.0, starting, pid 104)"));
}

TEST(FormatTest, StatusOfOneNodeOrAll) {
  control::ClusterView view = SampleView();
  absl::Time now = absl::FromUnixMillis(view.nodes(1).state_since_unix_ms()) + absl::Seconds(65);
  EXPECT_EQ(FormatStatus(view, 2, now),
            "Node 2: datanode, started for 1m5s, shoal-0.1.0, pid 102\n");
  EXPECT_EQ(FormatStatus(view, 0, now).size() > 0, true);
  EXPECT_THAT(FormatStatus(view, 0, now), HasSubstr("Node 3: datanode, not connected"));
}

TEST(FormatTest, MemoryUsageOfEachDataNodeAsNdbMgmSaysIt) {
  control::ClusterView view = SampleView();
  control::MemoryUsage* memory = view.mutable_nodes(1)->mutable_memory();
  memory->set_data_used_bytes(38273024);  // 36.5 MiB
  memory->set_data_limit_bytes(512 << 20);
  EXPECT_EQ(FormatMemoryUsage(view, 0),
            "Node 2: Data usage is 8%(36.5 MiB of 512 MiB)\n"
            "Node 3: no memory report (not connected)\n");
  EXPECT_EQ(FormatMemoryUsage(view, 2), "Node 2: Data usage is 8%(36.5 MiB of 512 MiB)\n");
  EXPECT_EQ(FormatMemoryUsage(view, 4), "Node 4: not a data node\n");
  memory->set_data_used_bytes(64 << 10);  // one page of 4 GiB: never 0%
  memory->set_data_limit_bytes(uint64_t{4} << 30);
  EXPECT_EQ(FormatMemoryUsage(view, 2), "Node 2: Data usage is 1%(64 KiB of 4 GiB)\n");
}

TEST(FormatTest, ThreadsOfANodeAsNdbTopShowsThem) {
  control::ClusterView view = SampleView();
  auto add = [&](int tid, const char* name, float user, float system) {
    control::ThreadUsage* t = view.mutable_nodes(1)->add_threads();
    t->set_tid(tid);
    t->set_name(name);
    t->set_user_percent(user);
    t->set_system_percent(system);
  };
  add(102, "shoal-datanode", 0.5f, 0.25f);
  add(105, "data-plane", 12.5f, 3.0f);
  EXPECT_EQ(FormatThreads(view, 2),
            "Node 2: datanode, pid 102, 2 threads\n"
            "  shoal-datanode    user   0.5%  system   0.2%  (tid 102)\n"
            "  data-plane        user  12.5%  system   3.0%  (tid 105)\n");
  EXPECT_EQ(FormatThreads(view, 3), "Node 3: no thread report (not connected)\n");
  EXPECT_EQ(FormatThreads(view, 1), "Node 1: no thread report (the management daemon)\n");
  std::string all = FormatThreads(view, 0);
  EXPECT_THAT(all, Not(HasSubstr("Node 1")));
  EXPECT_THAT(all, HasSubstr("Node 4: no thread report (starting)"));
}

TEST(FormatTest, StatusOfAStartingNodeSaysHowFarItHasGot) {
  control::ClusterView view = SampleView();
  control::NodeStatus* dn3 = view.mutable_nodes(2);
  dn3->set_state(control::STARTING);
  dn3->set_pid(103);
  dn3->set_start_phase("copying data");
  dn3->set_start_percent(42);
  absl::Time now = absl::FromUnixMillis(dn3->state_since_unix_ms()) + absl::Seconds(12);
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s (copying data, 42% done), shoal-0.1.0, pid 103\n");
  dn3->set_start_percent(-1);  // not meaningful: the phase alone
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s (copying data), shoal-0.1.0, pid 103\n");
  dn3->set_start_percent(0);
  EXPECT_THAT(FormatStatus(view, 0, now), HasSubstr("starting for 12s (copying data, 0% done)"));
  // No phase reported: the line is as before.
  dn3->clear_start_phase();
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, starting for 12s, shoal-0.1.0, pid 103\n");
  // Only a starting node's progress is shown.
  dn3->set_start_phase("copying data");
  dn3->set_state(control::STARTED);
  EXPECT_EQ(FormatStatus(view, 3, now),
            "Node 3: datanode, started for 12s, shoal-0.1.0, pid 103\n");
  // SHOW stays as it was (scripts parse it).
  dn3->set_state(control::STARTING);
  EXPECT_THAT(
      FormatShow(view),
      HasSubstr("id=3   @127.0.0.1       (shoal-0.1.0, node group 0, starting, pid 103)\n"));
}

TEST(FormatTest, StatusOfADataNodeThatReportedItsDiskSaysTheLastCompleteEpoch) {
  control::ClusterView view = SampleView();
  control::NodeStatus* dn2 = view.mutable_nodes(1);
  absl::Time now = absl::FromUnixMillis(dn2->state_since_unix_ms()) + absl::Seconds(12);
  dn2->mutable_disk()->set_known(true);
  dn2->mutable_disk()->set_complete_epoch(1234);
  dn2->mutable_disk()->set_saved_epoch(1235);
  dn2->mutable_disk()->set_restorable_from(7);
  EXPECT_EQ(FormatStatus(view, 2, now),
            "Node 2: datanode, started for 12s, shoal-0.1.0, pid 102, epoch 1234 complete\n");
  dn2->set_metrics_port(9302);
  EXPECT_EQ(FormatStatus(view, 2, now),
            "Node 2: datanode, started for 12s, shoal-0.1.0, pid 102, epoch 1234 complete, "
            "metrics http://127.0.0.1:9302/metrics\n");
  // Not reported (known unset): as before, even with numbers.
  dn2->mutable_disk()->set_known(false);
  dn2->set_metrics_port(0);
  EXPECT_EQ(FormatStatus(view, 2, now),
            "Node 2: datanode, started for 12s, shoal-0.1.0, pid 102\n");
  // SHOW is unchanged by it.
  dn2->mutable_disk()->set_known(true);
  EXPECT_THAT(FormatShow(view), Not(HasSubstr("epoch")));
}

TEST(FormatTest, ShowEndsWithTheSystemRestartDecision) {
  control::ClusterView view = SampleView();
  std::string before = FormatShow(view);
  EXPECT_THAT(before, Not(HasSubstr("System restart")));
  control::SystemRestart* restart = view.mutable_system_restart();
  restart->set_decided(true);
  restart->set_epoch(1234);
  restart->add_nodes(2);
  restart->add_nodes(3);
  EXPECT_EQ(FormatShow(view),
            before + "\nSystem restart: recovering epoch 1234 from data nodes 2, 3\n");
  restart->clear_nodes();
  restart->add_nodes(3);
  EXPECT_THAT(FormatShow(view),
              HasSubstr("\nSystem restart: recovering epoch 1234 from data node 3\n"));
  restart->clear_nodes();
  EXPECT_THAT(FormatShow(view),
              HasSubstr("\nSystem restart: recovering epoch 1234 (no data node can restore it)\n"));
  restart->set_epoch(0);
  restart->add_nodes(2);
  EXPECT_THAT(FormatShow(view), HasSubstr("\nSystem restart: no data on disk, starting empty\n"));
  // Not decided: nothing, whatever else the message holds.
  restart->set_decided(false);
  EXPECT_EQ(FormatShow(view), before);
}

}  // namespace
}  // namespace shoal::console
