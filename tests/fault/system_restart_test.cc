// Durability of the whole cluster (docs/architecture.md, I8), as users would test it: writers
// through both routers (PyMySQL, tests/fault/durable_writers.py), then every data node stops at
// once — `kill -9` of all of them, or a clean SHUTDOWN from the console — and the cluster
// comes back from disk (a system restart the mgmd drives). Then every row is read back with
// the mariadb client:
//   * kill -9: every commit acknowledged two epochs or more before the kill is there; those
//     acknowledged later may be lost (at most the last epoch's), and the test says how many;
//   * SHUTDOWN: every acknowledged commit is there;
// and in both, no row that no write sent, and a two-row transaction whole or not at all.
// With local checkpoints every 1 MiB of redo, the redo stays bounded while the writers go on,
// and the restart after kill -9 loads the last checkpoint and the redo after it.
#include <signal.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

constexpr absl::Duration kEpochInterval = absl::Milliseconds(500);
constexpr absl::Duration kBackLimit = absl::Seconds(90);

// What the writers said of each write.
struct Writes {
  std::map<int64_t, std::pair<absl::Time, int>> acked;  // id → (when, rows)
  std::map<int64_t, int> in_doubt;                      // id → rows
};

Writes ReadWrites(const std::string& path) {
  Writes writes;
  std::istringstream in(ReadFile(path));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = absl::StrSplit(line, ' ');
    int64_t id = 0;
    if (f.size() == 4 && f[0] == "A" && absl::SimpleAtoi(f[1], &id)) {
      int64_t ns = 0;
      int rows = 1;
      if (absl::SimpleAtoi(f[2], &ns) && absl::SimpleAtoi(f[3], &rows)) {
        writes.acked[id] = {absl::FromUnixNanos(ns), rows};
      }
    } else if (f.size() == 3 && f[0] == "D" && absl::SimpleAtoi(f[1], &id)) {
      int rows = 1;
      if (absl::SimpleAtoi(f[2], &rows)) writes.in_doubt[id] = rows;
    }
  }
  return writes;
}

// The value of an unlabelled metric in Prometheus text; -1 when absent.
int64_t Metric(const std::string& text, const std::string& name) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::vector<absl::string_view> f = absl::StrSplit(line, ' ');
    int64_t value = 0;
    if (f.size() == 2 && f[0] == name && absl::SimpleAtoi(f[1], &value)) return value;
  }
  return -1;
}

// Bytes of the files in `dir` (the redo: no subdirectories).
int64_t DirectoryBytes(const std::string& dir) {
  int64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::error_code size_ec;
    uintmax_t size = entry.file_size(size_ec);
    if (!size_ec) bytes += static_cast<int64_t>(size);
  }
  return bytes;
}

class SystemRestartTest : public ::testing::Test {
 protected:
  // Lines for the configuration's cluster section, after epoch_interval, and for each data node.
  virtual std::string MoreClusterSettings() const { return ""; }
  virtual std::string MoreDataNodeSettings() const { return ""; }

  void SetUp() override {
    std::string nodes = RouterClusterConfig(R"(  - id: 5
    socket: {RUN_DIR}/r5.sock
    threads: 2
)");
    // /metrics on the data nodes too.
    for (int id : {2, 3}) {
      std::string dir = absl::StrCat("    data_dir: {RUN_DIR}/dn", id, "\n");
      nodes.replace(
          nodes.find(dir), dir.size(),
          absl::StrCat(dir, "    metrics_port: {METRICS_PORT_", id, "}\n", MoreDataNodeSettings()));
    }
    std::string yaml =
        absl::StrCat("cluster:\n  epoch_interval: ", absl::ToInt64Milliseconds(kEpochInterval),
                     "ms\n", MoreClusterSettings(), nodes);
    cluster_ = std::make_unique<TestCluster>(TestCluster::FromConfig(yaml, {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4, 5}, "started")) << cluster_->MgmdLog();
    CommandResult created = Mariadb(
        "CREATE DATABASE dur; CREATE TABLE dur.t (id BIGINT PRIMARY KEY, writer INT, seq "
        "BIGINT) ENGINE=ndbcluster");
    ASSERT_EQ(created.exit_code, 0) << created.err;
  }

  CommandResult Mariadb(const std::string& sql) const {
    return RunCommand({"/usr/bin/mariadb", "--user=root", "--batch", "--skip-column-names",
                       "--socket=" + cluster_->run_dir() + "/r4.sock", "-e", sql},
                      absl::Seconds(60));
  }

  void StartWriters() {
    writes_path_ = cluster_->run_dir() + "/writes.txt";
    writers_.emplace(Subprocess::Start(
        {SourceDir() + "/build/clients/pyvenv/bin/python",
         SourceDir() + "/tests/fault/durable_writers.py", "--socket",
         cluster_->run_dir() + "/r4.sock", "--socket", cluster_->run_dir() + "/r5.sock",
         "--writers", "4", "--out", writes_path_},
        cluster_->run_dir() + "/writers.log"));
  }

  void StopWriters() {
    writers_->Signal(SIGTERM);
    ASSERT_TRUE(writers_->Wait(absl::Seconds(60)).has_value()) << "the writers did not stop";
  }

  // The rows of dur.t, read back through a router once the data nodes serve again.
  std::set<int64_t> Rows() {
    CommandResult r;
    absl::Time deadline = absl::Now() + absl::Seconds(30);
    do {
      r = Mariadb("SELECT id FROM dur.t");
      if (r.exit_code == 0) break;
      absl::SleepFor(absl::Milliseconds(500));
    } while (absl::Now() < deadline);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::set<int64_t> rows;
    for (absl::string_view line : absl::StrSplit(r.out, '\n', absl::SkipEmpty())) {
      int64_t id = 0;
      if (absl::SimpleAtoi(line, &id)) rows.insert(id);
    }
    return rows;
  }

  // Checks `rows` against what the writers said: acknowledged before `must_keep_before` all
  // there; nothing never sent; pairs whole. Returns how many acknowledged commits are missing.
  int64_t Check(const std::set<int64_t>& rows, absl::Time must_keep_before,
                absl::Time* last_lost_at = nullptr) {
    Writes writes = ReadWrites(writes_path_);
    EXPECT_GT(writes.acked.size(), 100u) << "the writers had too few commits acknowledged";
    int64_t kept = 0;
    int64_t lost = 0;
    int64_t lost_early = 0;
    for (const auto& [id, ack] : writes.acked) {
      const auto& [when, count] = ack;
      bool first = rows.contains(id);
      if (count == 2) {
        EXPECT_EQ(first, rows.contains(id + 1))
            << "transaction of rows " << id << " and " << id + 1 << " only partly there";
      }
      if (first) {
        ++kept;
        continue;
      }
      ++lost;
      if (when < must_keep_before) {
        if (++lost_early <= 5) {
          ADD_FAILURE() << "row " << id << ", acknowledged "
                        << absl::FormatDuration(must_keep_before - when)
                        << " before the limit, is gone";
        }
      }
      if (last_lost_at != nullptr && when > *last_lost_at) *last_lost_at = when;
    }
    EXPECT_EQ(lost_early, 0);
    // Every row must come from a write that was sent.
    std::set<int64_t> sent;
    for (const auto& [id, ack] : writes.acked) {
      for (int i = 0; i < ack.second; ++i) sent.insert(id + i);
    }
    for (const auto& [id, count] : writes.in_doubt) {
      for (int i = 0; i < count; ++i) sent.insert(id + i);
    }
    int64_t phantoms = 0;
    for (int64_t id : rows) {
      if (id < 0) continue;  // a test's own rows, not the writers'
      if (!sent.contains(id) && ++phantoms <= 5) ADD_FAILURE() << "row " << id << " was never sent";
    }
    std::cout << writes.acked.size() << " commits acknowledged, " << writes.in_doubt.size()
              << " in doubt; " << kept << " kept, " << lost << " lost (" << lost_early
              << " of them acknowledged before the limit); " << rows.size() << " rows" << std::endl;
    return lost;
  }

  // Kills every data node at once, waits for the system restart, and checks the rows; says
  // when it killed them.
  void KillEveryDataNodeAndCheck(absl::Time* killed = nullptr) {
    std::map<int, ShownNode> shown = cluster_->Show();
    ASSERT_GT(shown[2].pid, 0);
    ASSERT_GT(shown[3].pid, 0);
    const absl::Time killed_at = absl::Now();
    if (killed != nullptr) *killed = killed_at;
    ASSERT_EQ(kill(shown[2].pid, SIGKILL), 0);
    ASSERT_EQ(kill(shown[3].pid, SIGKILL), 0);
    absl::SleepFor(absl::Seconds(1));
    ASSERT_NO_FATAL_FAILURE(StopWriters());

    const absl::Time restart_from = absl::Now();
    ASSERT_TRUE(cluster_->WaitForRestart(shown, {2, 3}, kBackLimit))
        << "the data nodes did not serve again\n"
        << cluster_->ClusterLog();
    std::cout << "system restart took " << absl::FormatDuration(absl::Now() - restart_from)
              << std::endl;
    absl::Time last_lost_at = absl::InfinitePast();
    int64_t lost = Check(Rows(), killed_at - 2 * kEpochInterval, &last_lost_at);
    std::cout << "acknowledged in the last " << absl::FormatDuration(2 * kEpochInterval)
              << " before the kill and lost: " << lost;
    if (lost > 0) {
      std::cout << " (the latest acknowledged " << absl::FormatDuration(killed_at - last_lost_at)
                << " before the kill)";
    }
    std::cout << std::endl;
    RecordProperty("lost_last_epoch", static_cast<int>(lost));
    EXPECT_NE(cluster_->ClusterLog().find("System restart"), std::string::npos)
        << cluster_->ClusterLog();
  }

  std::string DataNodeLog(int id) const {
    return ReadFile(absl::StrCat(cluster_->run_dir(), "/mgmd/shoal-datanode-", id, ".log"));
  }

  std::unique_ptr<TestCluster> cluster_;
  std::optional<Subprocess> writers_;
  std::string writes_path_;
};

TEST_F(SystemRestartTest, KillNineOfEveryDataNodeKeepsEveryCommitOlderThanTwoEpochs) {
  // Accounts live in the cluster's dictionary: they come back with it.
  CommandResult account =
      Mariadb("CREATE USER 'keeper'@'%' IDENTIFIED BY 'k1'; GRANT SELECT ON dur.t TO 'keeper'@'%'");
  ASSERT_EQ(account.exit_code, 0) << account.err;
  StartWriters();
  absl::SleepFor(absl::Seconds(6));
  ASSERT_NO_FATAL_FAILURE(KillEveryDataNodeAndCheck());

  // And it serves writes again.
  CommandResult insert = Mariadb("INSERT INTO dur.t VALUES (-1, -1, -1)");
  EXPECT_EQ(insert.exit_code, 0) << insert.err;
  auto as_keeper = [&](const std::string& sql) {
    return RunCommand(
        {"/usr/bin/mariadb", "--user=keeper", "--password=k1", "--batch", "--skip-column-names",
         "--socket=" + cluster_->run_dir() + "/r5.sock", "-e", sql},
        absl::Seconds(60));
  };
  CommandResult read = as_keeper("SELECT COUNT(*) > 0 FROM dur.t");
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, "1\n");
  CommandResult write = as_keeper("INSERT INTO dur.t VALUES (-2, -2, -2)");
  EXPECT_NE(write.exit_code, 0);
  EXPECT_NE(write.err.find("ERROR 1142"), std::string::npos) << write.err;
}

TEST_F(SystemRestartTest, CleanShutdownKeepsEveryAcknowledgedCommit) {
  StartWriters();
  absl::SleepFor(absl::Seconds(4));
  ASSERT_NO_FATAL_FAILURE(StopWriters());
  CommandResult down = cluster_->Mgm("SHUTDOWN");
  ASSERT_EQ(down.exit_code, 0) << down.out << down.err;
  cluster_->Relaunch();
  ASSERT_TRUE(cluster_->WaitForState({2, 3, 4, 5}, "started", kBackLimit))
      << cluster_->ClusterLog();
  int64_t lost = Check(Rows(), absl::InfiniteFuture());
  EXPECT_EQ(lost, 0);
  // The table's definition came back too, and takes writes.
  CommandResult insert = Mariadb("INSERT INTO dur.t VALUES (-1, -1, -1)");
  EXPECT_EQ(insert.exit_code, 0) << insert.err;
}

// A node restart from its own disk (issue 16): data node 3 is killed under write load; it
// restores its disk and copies from node 2 only the rows that changed since — most of the table
// is named by key only. Then node 2 is killed too, so node 3 alone answers: every acknowledged
// commit must be on it. A table keyed by case-insensitive text, changed while node 3 is down,
// comes through whole: the copy names its rows in full, and node 3 matches them to its own by
// their keys' collation form (a row it did not match it would delete).
TEST_F(SystemRestartTest, ANodeRestartsFromItsOwnDiskAndCopiesOnlyTheDelta) {
  constexpr int kBaseRows = 20000;
  for (int from = 0; from < kBaseRows; from += 1000) {
    std::string insert = "INSERT INTO dur.t VALUES ";
    for (int id = from; id < from + 1000; ++id) {
      absl::StrAppend(&insert, id == from ? "" : ",", "(", -1 - id, ",-1,", id, ")");
    }
    CommandResult r = Mariadb(insert);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  constexpr int kNames = 300;
  std::string names =
      "CREATE TABLE dur.names (name VARCHAR(40) PRIMARY KEY, n INT); "
      "INSERT INTO dur.names VALUES ";
  for (int i = 0; i < kNames; ++i) {
    absl::StrAppend(&names, i == 0 ? "" : ",", "('", i % 2 ? "Mixed-" : "UPPER-", i, "', 0)");
  }
  CommandResult named = Mariadb(names);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  StartWriters();
  absl::SleepFor(absl::Seconds(3));
  std::map<int, ShownNode> shown = cluster_->Show();
  ASSERT_GT(shown[3].pid, 0);
  ASSERT_EQ(kill(shown[3].pid, SIGKILL), 0);
  ASSERT_TRUE(WaitUntil([&] { return Mariadb("UPDATE dur.names SET n = n + 1").exit_code == 0; },
                        absl::Seconds(30)))
      << "dur.names took no update with node 3 down";
  ASSERT_TRUE(WaitUntil(
      [&] {
        ShownNode now = cluster_->Show()[3];
        return now.pid != shown[3].pid && now.state == "started";
      },
      kBackLimit))
      << "node 3 did not serve again\n"
      << cluster_->ClusterLog();
  absl::SleepFor(absl::Seconds(2));  // writes go on to both
  ASSERT_NO_FATAL_FAILURE(StopWriters());

  // What node 2 sent: the copy's log line says how many rows went in full and how many by key.
  std::string log = ReadFile(cluster_->run_dir() + "/mgmd/shoal-datanode-2.log");
  size_t at = log.rfind("copy to data node 3 complete: ");
  ASSERT_NE(at, std::string::npos) << "node 2 logged no copy to node 3";
  std::vector<std::string> words =
      absl::StrSplit(log.substr(at, log.find('\n', at) - at), ' ', absl::SkipEmpty());
  int64_t copied = -1;
  int64_t kept = -1;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i + 1] == "rows") (void)absl::SimpleAtoi(words[i], &copied);
    if (words[i + 1] == "kept") (void)absl::SimpleAtoi(words[i], &kept);
  }
  std::cout << "node restart from disk: " << copied << " rows copied, " << kept
            << " kept from node 3's own disk" << std::endl;
  RecordProperty("rows_copied", static_cast<int>(copied));
  RecordProperty("rows_kept", static_cast<int>(kept));
  EXPECT_GE(kept, kBaseRows) << "the unchanged rows should not have been copied";
  EXPECT_LT(copied, kept) << "the copy should be the delta only";

  // Node 3 alone: every acknowledged commit, and the base rows, must be on it.
  shown = cluster_->Show();
  ASSERT_EQ(kill(shown[2].pid, SIGKILL), 0);
  std::set<int64_t> rows = Rows();
  int64_t lost = Check(rows, absl::InfiniteFuture());
  EXPECT_EQ(lost, 0);
  int64_t base = 0;
  for (int64_t id : rows) base += id < 0 ? 1 : 0;
  EXPECT_EQ(base, kBaseRows);
  CommandResult on_node_3 = Mariadb(
      "SELECT COUNT(*), SUM(n), SUM(name = 'upper-0'), SUM(name LIKE 'Mixed-%') FROM dur.names; "
      "SELECT name FROM dur.names WHERE name = 'MIXED-1'");
  EXPECT_EQ(on_node_3.exit_code, 0) << on_node_3.err;
  EXPECT_EQ(on_node_3.out, absl::StrCat(kNames, "\t", kNames, "\t1\t", kNames / 2, "\nMixed-1\n"));
}

// Local checkpoints every 1 MiB of redo: while the writers go on, checkpoints complete and the
// redo on disk stays bounded (trimmed after each); after kill -9 of every data node the
// restart loads the last checkpoint and the redo after it, and loses nothing older than two
// epochs; the checkpoint taken right after that restore serves the next (clean) restart.
class LocalCheckpointTest : public SystemRestartTest {
 protected:
  static constexpr int64_t kAfterRedo = 1 << 20;
  std::string MoreClusterSettings() const override { return "  checkpoint_after_redo: 1M\n"; }

  // The last restore of each data node loaded checkpoint `min_id` or a later one.
  void ExpectRestoredFromCheckpoint(uint64_t min_id) {
    for (int id : {2, 3}) {
      const std::string log = DataNodeLog(id);
      const std::string said = " rows from checkpoint ";
      const size_t at = log.rfind(said);
      ASSERT_NE(at, std::string::npos) << "data node " << id << " did not restore:\n" << log;
      uint64_t checkpoint = 0;
      absl::string_view rest = absl::string_view(log).substr(at + said.size());
      ASSERT_TRUE(absl::SimpleAtoi(rest.substr(0, rest.find(',')), &checkpoint))
          << rest.substr(0, 80);
      EXPECT_GE(checkpoint, min_id) << "data node " << id;
      const size_t line = log.rfind('\n', at) + 1;
      std::cout << "data node " << id << ": " << log.substr(line, log.find('\n', at) - line)
                << std::endl;
    }
  }

  int64_t NodeMetric(int id, const std::string& name) const {
    std::optional<std::string> text = HttpGet(cluster_->metrics_port(id), "/metrics");
    return text.has_value() ? Metric(*text, name) : -1;
  }

  // Writers until several checkpoints are done; the redo bound; kill -9 of every data node and
  // the restore from the last checkpoint; the checkpoint after that restore serving the next.
  void CheckpointsBoundTheRedoAndRestartsLoadTheLast() {
    // The writers' small rows make redo slowly (minutes of them under AddressSanitizer): wide
    // rows rewritten beside them, ~64 KiB of redo a statement (about the writers' own pace in
    // a release build), bring several checkpoints' worth sooner, while the writers' commits
    // are what the kill below must keep.
    std::vector<std::string> filler_rows;
    for (int i = 0; i < 32; ++i) filler_rows.push_back(absl::StrCat("(", i, ", 0, '')"));
    CommandResult filler = Mariadb(absl::StrCat(
        "CREATE TABLE dur.filler (id INT PRIMARY KEY, n INT NOT NULL, pad VARBINARY(2000)) "
        "ENGINE=ndbcluster; INSERT INTO dur.filler VALUES ",
        absl::StrJoin(filler_rows, ", ")));
    ASSERT_EQ(filler.exit_code, 0) << filler.err;
    StartWriters();
    // Enough redo for several checkpoints on both data nodes.
    int64_t written = 0;
    int64_t checkpoints = 0;
    ASSERT_TRUE(WaitUntil(
        [&] {
          CommandResult churn =
              Mariadb("UPDATE dur.filler SET n = n + 1, pad = REPEAT(LPAD(n, 8, '0'), 250)");
          EXPECT_EQ(churn.exit_code, 0) << churn.err;
          written = std::min(NodeMetric(2, "shoal_datanode_redo_written_bytes_total"),
                             NodeMetric(3, "shoal_datanode_redo_written_bytes_total"));
          checkpoints = std::min(NodeMetric(2, "shoal_datanode_checkpoints_total"),
                                 NodeMetric(3, "shoal_datanode_checkpoints_total"));
          return written >= 6 * kAfterRedo && checkpoints >= 4;
        },
        absl::Seconds(240)))
        << "redo written " << written << ", checkpoints " << checkpoints;
    for (int id : {2, 3}) {
      const int64_t on_disk = DirectoryBytes(absl::StrCat(cluster_->run_dir(), "/dn", id, "/redo"));
      const int64_t node_written = NodeMetric(id, "shoal_datanode_redo_written_bytes_total");
      std::cout << "data node " << id << ": " << NodeMetric(id, "shoal_datanode_checkpoints_total")
                << " checkpoints (the last " << NodeMetric(id, "shoal_datanode_checkpoint_rows")
                << " rows, " << NodeMetric(id, "shoal_datanode_checkpoint_bytes") << " bytes), "
                << node_written << " bytes of redo written, " << on_disk << " on disk ("
                << NodeMetric(id, "shoal_datanode_redo_bytes") << " by /metrics)" << std::endl;
      // What a checkpoint keeps: the redo since the previous one started (about 2 × 1 MiB), and
      // the segments (1/4 MiB) not closed yet or not wholly older.
      EXPECT_LT(on_disk, 4 * kAfterRedo) << "data node " << id << ": the redo is not trimmed";
      EXPECT_LT(on_disk, node_written / 2) << "data node " << id;
      EXPECT_NE(DataNodeLog(id).find("local checkpoint"), std::string::npos);
    }

    absl::Time killed_at;
    ASSERT_NO_FATAL_FAILURE(KillEveryDataNodeAndCheck(&killed_at));
    ExpectRestoredFromCheckpoint(/*min_id=*/2);

    // A restore logs every row again and starts the checkpoints over: one follows at once, and
    // the next restart (a clean one) loads it.
    ASSERT_TRUE(WaitUntil(
        [&] {
          return NodeMetric(2, "shoal_datanode_checkpoints_total") >= 1 &&
                 NodeMetric(3, "shoal_datanode_checkpoints_total") >= 1;
        },
        absl::Seconds(60)))
        << "no checkpoint after the restore";
    CommandResult down = cluster_->Mgm("SHUTDOWN");
    ASSERT_EQ(down.exit_code, 0) << down.out << down.err;
    cluster_->Relaunch();
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4, 5}, "started", kBackLimit))
        << cluster_->ClusterLog();
    Check(Rows(), killed_at - 2 * kEpochInterval);
    ExpectRestoredFromCheckpoint(/*min_id=*/1);
    CommandResult insert = Mariadb("INSERT INTO dur.t VALUES (-1, -1, -1)");
    EXPECT_EQ(insert.exit_code, 0) << insert.err;
  }
};

TEST_F(LocalCheckpointTest, CheckpointsBoundTheRedoAndRestartsLoadTheLast) {
  CheckpointsBoundTheRedoAndRestartsLoadTheLast();
}

// The same with two LDM threads per data node (the layout for more than two CPUs): checkpoint
// requests travel the LDM threads' queues, and each LDM writes a file of its own.
class LocalCheckpointLdmThreadsTest : public LocalCheckpointTest {
 protected:
  std::string MoreDataNodeSettings() const override { return "    threads: 3\n"; }
};

TEST_F(LocalCheckpointLdmThreadsTest, CheckpointsBoundTheRedoAndRestartsLoadTheLast) {
  CheckpointsBoundTheRedoAndRestartsLoadTheLast();
}

}  // namespace
}  // namespace shoal::testing
