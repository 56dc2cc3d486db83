// Multi-partition transactions through node failures: tellers on eight threads move random
// amounts between accounts of different partitions (bank.h) against two data nodes of one node
// group (replicas: 2) launched and supervised by the mgmd. Data node 2 is killed with SIGKILL
// mid-run and started again by the mgmd under load, then data node 3 is killed. The total of
// the balances must never change — a transaction commits on both of its partitions or on
// neither, even when a node dies in the middle of its commit and another node finishes it (TC
// takeover) — no balance may go negative, no account may go missing, and transfers must keep
// committing after each kill. The data nodes' TC counters (/metrics) are printed, not asserted:
// a kill may hit no commit in flight.
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/api/client.h"
#include "gtest/gtest.h"
#include "tests/fault/bank.h"
#include "tests/fault/fault_fixture.h"
#include "tests/fault/workload.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

constexpr char kConfig[] = R"(
cluster:
  replicas: 2
  heartbeat_interval: 200ms  # a node silent for 1 s is failed: slow (sanitizer) builds stay up
  missed_heartbeats: 5
  lock_wait_timeout: 300ms
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
    socket: {RUN_DIR}/dn2.sock
    metrics_port: {DN2_METRICS}
  - id: 3
    data_dir: {RUN_DIR}/dn3
    socket: {RUN_DIR}/dn3.sock
    metrics_port: {DN3_METRICS}
)";

constexpr int kTellers = 8;
constexpr int64_t kAccounts = 64;
constexpr int64_t kOpeningBalance = 1000;
constexpr int64_t kTotal = kAccounts * kOpeningBalance;
constexpr absl::Duration kLoadBetweenSteps = absl::Seconds(2);
constexpr absl::Duration kReadTimeout = absl::Seconds(30);
constexpr size_t kInDoubtShown = 20;

constexpr char kTcCommits[] = "shoal_datanode_tc_commits_total";
constexpr char kTcTakeovers[] = "shoal_datanode_tc_takeovers_total";
constexpr char kViewVersion[] = "shoal_cluster_view_version";
constexpr char kDictionaryVersion[] = "shoal_datanode_dictionary_version";

// The sum of metric `name` over its label sets in Prometheus text; nullopt when absent.
std::optional<int64_t> MetricSum(absl::string_view text, absl::string_view name) {
  std::optional<int64_t> sum;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    size_t end = line.find_first_of("{ ");
    if (end == absl::string_view::npos || line.substr(0, end) != name) continue;
    double value = 0;
    if (!absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &value)) continue;
    sum = sum.value_or(0) + static_cast<int64_t>(value);
  }
  return sum;
}

std::string CounterText(const std::optional<int64_t>& value) {
  return value.has_value() ? absl::StrCat(*value) : std::string("0 (not exported)");
}

// The TC counters of one data node process, as last read.
struct TcCounters {
  int node = 0;
  std::optional<int64_t> commits;
  std::optional<int64_t> takeovers;
};

class BankTransferTest : public FaultTest {
 protected:
  void SetUp() override {
    int metrics = FreePort(2);
    ASSERT_NO_FATAL_FAILURE(LaunchCluster(absl::StrReplaceAll(
        kConfig,
        {{"{DN2_METRICS}", absl::StrCat(metrics)}, {"{DN3_METRICS}", absl::StrCat(metrics + 1)}})));
  }

  // Opens the accounts and starts the tellers, each on a thread of its own.
  void StartTellers() {
    int mgmd_port = cluster_->mgmd_port();
    absl::StatusOr<std::unique_ptr<Auditor>> auditor = Auditor::Create(mgmd_port);
    ASSERT_TRUE(auditor.ok()) << auditor.status();
    auditor_ = std::move(*auditor);
    ASSERT_NO_FATAL_FAILURE(WaitForViewOnDataNodes());
    absl::Status created = auditor_->CreateTable();
    ASSERT_TRUE(created.ok()) << created;
    ASSERT_NO_FATAL_FAILURE(WaitForSameDictionary());
    absl::Status opened = auditor_->OpenAccounts(kAccounts, kOpeningBalance, kReadTimeout);
    ASSERT_TRUE(opened.ok()) << opened;
    const schema::TableDef& table = auditor_->table();
    std::map<uint32_t, int> per_partition;
    for (int64_t id = 0; id < kAccounts; ++id) {
      ++per_partition[api::Client::PartitionOf(table, AccountKey(table, id))];
    }
    std::cout << kAccounts << " accounts over " << per_partition.size() << " of "
              << table.partitions << " partitions ("
              << absl::StrJoin(per_partition, ", ", absl::PairFormatter(": ")) << ")" << std::endl;
    clock_ = std::make_unique<ResumeClock>(table.partitions);

    for (int id = 0; id < kTellers; ++id) {
      absl::StatusOr<std::unique_ptr<Teller>> teller =
          Teller::Create(id, mgmd_port, kAccounts, clock_.get());
      ASSERT_TRUE(teller.ok()) << teller.status();
      tellers_.push_back(std::move(*teller));
    }
    StartLoads(tellers_);
  }

  int64_t Acknowledged() const override { return AcknowledgedBy(tellers_); }

  // Reads every account in one locking transaction while the tellers run: the total of one
  // moment.
  void Audit(const std::string& when) {
    absl::StatusOr<Balances> balances =
        auditor_->ReadByKey(kAccounts, api::Lock::kExclusive, kReadTimeout);
    if (!balances.ok()) {
      ADD_FAILURE() << "audit " << when << ": " << balances.status();
      return;
    }
    std::cout << "audit " << when << ": " << balances->size() << " accounts, total "
              << Total(*balances) << " (expected " << kTotal << ")" << std::endl;
    EXPECT_EQ(Total(*balances), kTotal) << "audit " << when;
    EXPECT_EQ(balances->size(), static_cast<size_t>(kAccounts)) << "audit " << when;
  }

  // One started data node's /metrics, as scraped.
  struct Scraped {
    int node = 0;
    int pid = 0;
    std::optional<std::string> text;  // nullopt: /metrics did not answer
    // A gauge's value; -1 when it or /metrics is missing.
    int64_t Gauge(absl::string_view name) const {
      return text.has_value() ? MetricSum(*text, name).value_or(-1) : -1;
    }
  };
  // Every data node the mgmd's view says is started, with its /metrics; `view_version` gets
  // the view's version. Empty when there is no view.
  std::vector<Scraped> ScrapeDataNodes(uint64_t* view_version = nullptr) {
    std::vector<Scraped> out;
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(5));
    if (!view.ok()) return out;
    if (view_version != nullptr) *view_version = view->version();
    for (const control::NodeStatus& n : view->nodes()) {
      if (n.type() != control::DATANODE || n.state() != control::STARTED || n.pid() <= 0) continue;
      out.push_back({static_cast<int>(n.node_id()), n.pid(),
                     HttpGet(static_cast<int>(n.metrics_port()), "/metrics")});
    }
    return out;
  }

  // Until every started data node has had the mgmd's current view. DDL right after a start
  // would otherwise race it: the master installs a new dictionary only on the peers its own
  // view says are started, and a node it misses refuses the table's operations (1412) for
  // good.
  void WaitForViewOnDataNodes() {
    std::string seen;
    bool current = WaitUntil(
        [&] {
          uint64_t version = 0;
          std::vector<Scraped> nodes = ScrapeDataNodes(&version);
          seen = absl::StrCat("view ", version);
          bool all = nodes.size() == 2;
          for (const Scraped& n : nodes) {
            int64_t v = n.Gauge(kViewVersion);
            absl::StrAppend(&seen, ", node ", n.node, ": ", v);
            all = all && v >= static_cast<int64_t>(version);
          }
          return all;
        },
        absl::Seconds(10));
    ASSERT_TRUE(current) << "the data nodes did not get the mgmd's view (" << seen << ")";
  }

  // Until both data nodes hold the same dictionary (after DDL).
  void WaitForSameDictionary() {
    std::string seen;
    bool same = WaitUntil(
        [&] {
          std::vector<Scraped> nodes = ScrapeDataNodes();
          std::set<int64_t> versions;
          seen.clear();
          for (const Scraped& n : nodes) {
            int64_t v = n.Gauge(kDictionaryVersion);
            absl::StrAppend(&seen, seen.empty() ? "" : ", ", "node ", n.node, ": ", v);
            versions.insert(v);
          }
          return nodes.size() == 2 && versions.size() == 1 && !versions.contains(-1);
        },
        absl::Seconds(10));
    ASSERT_TRUE(same) << "the data nodes hold different dictionaries after CREATE TABLE (" << seen
                      << ")";
  }

  // Reads the TC counters of every started data node and prints them.
  void ReadTcCounters(const std::string& when) {
    std::vector<std::string> parts;
    for (const Scraped& n : ScrapeDataNodes()) {
      if (!n.text.has_value()) {
        parts.push_back(absl::StrCat("node ", n.node, " (pid ", n.pid, "): no /metrics"));
        continue;
      }
      TcCounters& c = tc_by_pid_[n.pid];
      c.node = n.node;
      c.commits = MetricSum(*n.text, kTcCommits);
      c.takeovers = MetricSum(*n.text, kTcTakeovers);
      parts.push_back(absl::StrCat("node ", c.node, " (pid ", n.pid, "): commits ",
                                   CounterText(c.commits), ", takeovers ",
                                   CounterText(c.takeovers)));
    }
    std::cout << "tc counters " << when << ": "
              << (parts.empty() ? "no started data node" : absl::StrJoin(parts, "; ")) << std::endl;
  }

  // The tellers' records, added up. REQUIRES: they have stopped.
  struct Tally {
    std::map<uint16_t, int64_t> temporary;
    int64_t insufficient = 0;
    int64_t failure_count = 0;
    std::vector<std::string> failures;
    std::vector<InDoubtTransfer> in_doubt;
  };
  Tally TallyTellers() const {
    Tally tally;
    for (const auto& t : tellers_) {
      for (const auto& [code, n] : t->temporary_errors()) tally.temporary[code] += n;
      tally.insufficient += t->insufficient();
      tally.failure_count += t->failure_count();
      tally.failures.insert(tally.failures.end(), t->failures().begin(), t->failures().end());
      tally.in_doubt.insert(tally.in_doubt.end(), t->in_doubt().begin(), t->in_doubt().end());
    }
    return tally;
  }

  // Over every data node process seen, its last reading (a killed process's counters die
  // with it).
  int64_t TcSum(std::optional<int64_t> TcCounters::*counter) const {
    int64_t sum = 0;
    for (const auto& [pid, c] : tc_by_pid_) sum += (c.*counter).value_or(0);
    return sum;
  }

  std::unique_ptr<Auditor> auditor_;
  std::unique_ptr<ResumeClock> clock_;
  std::vector<std::unique_ptr<Teller>> tellers_;
  std::map<int, TcCounters> tc_by_pid_;
};

// Which side of each transfer in doubt alone would make up `drift`: per transfer, +1 (its
// credit alone was committed), -1 (its debit alone) or 0 (all or nothing); nullopt when no
// such choice adds up to the drift, or there are too many to try. One explanation among
// possibly several.
std::optional<std::vector<int>> ExplainDrift(const std::vector<InDoubtTransfer>& in_doubt,
                                             int64_t drift) {
  if (in_doubt.size() > kInDoubtShown) return std::nullopt;
  // reachable[i]: sums the first i transfers can make → the choice for transfer i - 1.
  std::vector<std::map<int64_t, int>> reachable(in_doubt.size() + 1);
  reachable[0][0] = 0;
  for (size_t i = 0; i < in_doubt.size(); ++i) {
    for (const auto& reached : reachable[i]) {
      for (int side : {0, 1, -1}) {
        reachable[i + 1].emplace(reached.first + side * in_doubt[i].amount, side);
      }
    }
  }
  if (!reachable.back().contains(drift)) return std::nullopt;
  std::vector<int> sides(in_doubt.size());
  for (size_t i = in_doubt.size(); i > 0; --i) {
    sides[i - 1] = reachable[i].at(drift);
    drift -= sides[i - 1] * in_doubt[i - 1].amount;
  }
  return sides;
}

// One transfer in doubt, with the time since the last kill before its commit answered, and
// which side of it alone may have been committed (`side`, as from ExplainDrift).
std::string Describe(const InDoubtTransfer& t, const std::vector<const KillReport*>& kills,
                     int side) {
  std::string text =
      absl::StrCat(t.amount, " from ", t.from, " to ", t.to, ": ", t.code, " ", t.message);
  const KillReport* last = nullptr;
  for (const KillReport* k : kills) {
    if (k->pid > 0 && t.at >= k->killed_at) last = k;
  }
  if (last != nullptr) {
    absl::StrAppend(&text, " (", Ms(t.at - last->killed_at), " after node ", last->node, " died)");
  }
  if (side != 0) {
    absl::StrAppend(&text, "  <- its ", side > 0 ? "credit" : "debit", " alone?");
  }
  return text;
}

// The first transfers in doubt, one a line, marked with one way they make up `drift`.
std::string InDoubtText(const std::vector<InDoubtTransfer>& in_doubt,
                        const std::vector<const KillReport*>& kills, int64_t drift) {
  std::string text;
  std::optional<std::vector<int>> sides = ExplainDrift(in_doubt, drift);
  for (size_t i = 0; i < in_doubt.size() && i < kInDoubtShown; ++i) {
    absl::StrAppend(&text, "\n  ", Describe(in_doubt[i], kills, sides ? (*sides)[i] : 0));
  }
  if (drift != 0) {
    absl::StrAppend(&text, "\n",
                    sides.has_value() ? "(marked: one way the drift is made of half-committed "
                                        "transfers in doubt)"
                                      : "(no combination of half-committed transfers in doubt "
                                        "makes up the drift, or too many to try)");
  }
  return text;
}

TEST_F(BankTransferTest, TotalHoldsThroughNodeKillsAndTcTakeover) {
  ASSERT_NO_FATAL_FAILURE(StartTellers());
  KeepWriting(kLoadBetweenSteps);
  Audit("before any kill");
  ReadTcCounters("before node 2 is killed");
  KillReport first = KillDataNode(2, clock_.get());
  ReadTcCounters("after node 2 was killed");
  WaitUntilBack(&first);  // restarted by the mgmd; it rejoins under load
  KeepWriting(kLoadBetweenSteps);
  Audit("after node 2 was killed and started again");
  ReadTcCounters("before node 3 is killed");
  KillReport second = KillDataNode(3, clock_.get());
  ReadTcCounters("after node 3 was killed");
  KeepWriting(kLoadBetweenSteps);
  StopThreads();
  WaitUntilBack(&second);  // the check reads from both nodes
  ReadTcCounters("at the end");

  for (const KillReport* k : {&first, &second}) {
    std::cout << k->Describe() << std::endl;
    k->Record();
    EXPECT_TRUE(k->first_commit.has_value())
        << "no transfer committed after node " << k->node << " was killed";
  }
  ExpectRestartsOnlyAfterKills({&first, &second});

  Tally tally = TallyTellers();
  absl::StatusOr<Balances> by_key = auditor_->ReadByKey(kAccounts, api::Lock::kNone, kReadTimeout);
  ASSERT_TRUE(by_key.ok()) << by_key.status();
  absl::StatusOr<Balances> scanned = auditor_->Scan(kReadTimeout);
  ASSERT_TRUE(scanned.ok()) << scanned.status();
  int64_t total = Total(*by_key);

  std::cout << "summary: " << Acknowledged() << " transfers acknowledged, " << tally.insufficient
            << " given up (source too poor); temporary errors: "
            << (tally.temporary.empty()
                    ? "none"
                    : absl::StrJoin(tally.temporary, ", ", absl::PairFormatter(": ")))
            << "; " << tally.in_doubt.size()
            << " commits with unknown outcome; takeovers reported: "
            << TcSum(&TcCounters::takeovers)
            << " (multi-partition commits coordinated: " << TcSum(&TcCounters::commits)
            << "); total " << total << " (expected " << kTotal << ") over " << by_key->size()
            << " accounts, " << scanned->size() << " scanned; resumed after " << first.Resumed()
            << " (node 2 killed) and " << second.Resumed() << " (node 3 killed)" << std::endl;
  RecordProperty("acknowledged", static_cast<int>(Acknowledged()));
  RecordProperty("in_doubt", static_cast<int>(tally.in_doubt.size()));

  EXPECT_GT(Acknowledged(), 0);
  EXPECT_EQ(tally.failure_count, 0)
      << "errors that are not temporary; the first few of each teller:\n"
      << absl::StrJoin(tally.failures, "\n");
  EXPECT_EQ(total, kTotal) << "the total drifted by " << total - kTotal
                           << "; commits with unknown outcome (transfer: error):"
                           << InDoubtText(tally.in_doubt, {&first, &second}, total - kTotal);
  EXPECT_EQ(by_key->size(), static_cast<size_t>(kAccounts)) << "accounts missing";
  for (const auto& [id, balance] : *by_key) {
    EXPECT_GE(balance, 0) << "account " << id << " went negative";
  }
  EXPECT_EQ(*scanned, *by_key) << "the full scan and the key reads disagree";
}

}  // namespace
}  // namespace shoal::testing
