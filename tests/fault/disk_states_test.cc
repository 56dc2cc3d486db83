// Bad disk states of a data node, as an operator meets them (docs/architecture.md,
// "Durability"): a full disk (a real tmpfs, filled), a redo tail torn or corrupted while the
// cluster was down, a data directory removed while it was down; and the two settings that
// touch memory and disk: lock_pages_in_memory, and non-logged tables.
//
// Every test starts its own cluster (mgmd, data nodes 2 and 3, router 4) and talks to it as
// users would: the mariadb client through the router, the console, /metrics, the logs.
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "engine/redo/node_state.h"
#include "engine/redo/redo_log.h"
#include "engine/redo/redo_record.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"
#include "tests/testutil/process.h"

namespace shoal::testing {
namespace {

constexpr absl::Duration kEpochInterval = absl::Milliseconds(200);
constexpr absl::Duration kBackLimit = absl::Seconds(60);

// The cluster of RouterClusterConfig with short epochs, /metrics on both data nodes, data node
// 3's data directory at `dn3_dir`, and `cluster_extra` lines in the cluster section.
std::string Config(const std::string& dn3_dir = "{RUN_DIR}/dn3",
                   const std::string& cluster_extra = "") {
  std::string yaml = absl::StrCat(
      "cluster:\n  data_memory: 64M\n  epoch_interval: ", absl::ToInt64Milliseconds(kEpochInterval),
      "ms\n", cluster_extra, RouterClusterConfig());
  return absl::StrReplaceAll(
      yaml, {{"    data_dir: {RUN_DIR}/dn2\n",
              "    data_dir: {RUN_DIR}/dn2\n    metrics_port: {METRICS_PORT_2}\n"},
             {"    data_dir: {RUN_DIR}/dn3\n",
              absl::StrCat("    data_dir: ", dn3_dir, "\n    metrics_port: {METRICS_PORT_3}\n")}});
}

// The value of an unlabelled series in Prometheus text, -1 when absent.
int64_t Metric(const std::string& text, absl::string_view name) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::ConsumePrefix(&line, name) || !absl::ConsumePrefix(&line, " ")) continue;
    double value = 0;
    if (absl::SimpleAtod(line, &value)) return static_cast<int64_t>(value);
  }
  return -1;
}

int Count(absl::string_view text, absl::string_view what) {
  int n = 0;
  for (size_t at = text.find(what); at != absl::string_view::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

class DiskStatesTest : public ::testing::Test {
 protected:
  void TearDown() override {
    cluster_.reset();  // first: its data nodes hold files on the mount
    if (!mount_.empty()) {
      if (::umount(mount_.c_str()) != 0) ::umount2(mount_.c_str(), MNT_DETACH);
      std::error_code ec;
      std::filesystem::remove_all(mount_, ec);
    }
  }

  // Mounts a tmpfs of `size` (mount's syntax: "8m") on a fresh directory; empty (the test
  // skips) where the system refuses.
  std::string MountTmpfs(const std::string& size, std::string* why) {
    std::string dir = MakeTempDir("shoal-full");
    std::string options = "size=" + size;
    if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      *why = std::strerror(errno);
      std::filesystem::remove(dir);
      return "";
    }
    mount_ = dir;
    return dir;
  }

  void Start(const std::string& yaml) {
    cluster_ = std::make_unique<TestCluster>(TestCluster::FromConfig(yaml, {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started")) << cluster_->MgmdLog();
  }

  CommandResult Mariadb(const std::string& sql) const {
    return RunCommand({"/usr/bin/mariadb", "--user=root", "--batch", "--skip-column-names",
                       "--socket=" + cluster_->run_dir() + "/r4.sock", "-e", sql},
                      absl::Seconds(30));
  }
  // A query's output once the router answers it (after a restart it may not at once).
  std::string Query(const std::string& sql) {
    CommandResult r;
    WaitUntil(
        [&] {
          r = Mariadb(sql);
          return r.exit_code == 0;
        },
        absl::Seconds(20));
    EXPECT_EQ(r.exit_code, 0) << sql << ": " << r.err;
    return r.out;
  }

  std::string DataDir(int node) const { return absl::StrCat(cluster_->run_dir(), "/dn", node); }
  std::string NodeLog(int node) const {
    return ReadFile(absl::StrCat(cluster_->run_dir(), "/mgmd/shoal-datanode-", node, ".log"));
  }
  std::string Metrics(int node) const {
    return HttpGet(cluster_->metrics_port(node), "/metrics").value_or("");
  }

  // Rows 1..n of d.t, then a clean stop of the whole cluster (every acknowledged commit in a
  // complete epoch).
  void WriteRowsAndShutDown(int n) {
    CommandResult created = Mariadb(
        "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(40)) "
        "ENGINE=ndbcluster");
    ASSERT_EQ(created.exit_code, 0) << created.err;
    std::string insert = "INSERT INTO d.t VALUES ";
    for (int i = 1; i <= n; ++i) absl::StrAppend(&insert, i > 1 ? "," : "", "(", i, ",'row')");
    CommandResult inserted = Mariadb(insert);
    ASSERT_EQ(inserted.exit_code, 0) << inserted.err;
    std::map<int, ShownNode> shown = cluster_->Show();
    CommandResult down = cluster_->Mgm("SHUTDOWN");
    ASSERT_EQ(down.exit_code, 0) << down.out << down.err;
    // Their files are the test's only once the data nodes are gone (Relaunch waits for the
    // mgmd).
    ASSERT_TRUE(
        WaitUntil([&] { return !ProcessAlive(shown[2].pid) && !ProcessAlive(shown[3].pid); },
                  absl::Seconds(30)))
        << "the data nodes did not stop";
  }

  void RelaunchAndExpectRows(int n) {
    cluster_->Relaunch();
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started", kBackLimit))
        << cluster_->ClusterLog() << "\n--- node 3:\n"
        << NodeLog(3);
    EXPECT_EQ(Query("SELECT COUNT(*), MIN(id), MAX(id) FROM d.t"),
              absl::StrCat(n, "\t1\t", n, "\n"));
    CommandResult insert = Mariadb("INSERT INTO d.t VALUES (-1, 'after')");
    EXPECT_EQ(insert.exit_code, 0) << insert.err;
  }

  std::unique_ptr<TestCluster> cluster_;
  std::string mount_;
};

// --- A full disk -------------------------------------------------------------------------

// Data node 3's data directory is on a tmpfs of its own, node 2's on the normal disk: a full
// disk under one replica is enough to refuse writes of every partition (that node refuses as
// primary and as backup alike), and the filler touches nothing but node 3.
TEST_F(DiskStatesTest, AFullDiskRefusesWritesWith410UntilItHasSpaceAgainAndReadsGoOn) {
  std::string why;
  std::string mount = MountTmpfs("8m", &why);
  if (mount.empty()) {
    GTEST_SKIP() << "cannot mount a tmpfs (" << why << "): this test needs root (CAP_SYS_ADMIN)";
  }
  ASSERT_NO_FATAL_FAILURE(Start(Config(mount + "/dn3")));
  CommandResult created = Mariadb(
      "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(3000)) "
      "ENGINE=ndbcluster; INSERT INTO d.t VALUES (1, 'one'), (2, 'two')");
  ASSERT_EQ(created.exit_code, 0) << created.err;

  // Fill the disk. The redo segment's last page may still take a few records: big rows fill
  // it quickly, and the first that finds no space makes the node refuse.
  {
    int fd = ::open((mount + "/filler").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    std::string chunk(1 << 20, 'f');
    while (::write(fd, chunk.data(), chunk.size()) == static_cast<ssize_t>(chunk.size())) {
    }
    ::close(fd);
  }
  const std::string big(2500, 'x');
  int id = 100;
  CommandResult refused;
  ASSERT_TRUE(WaitUntil(
      [&] {
        const absl::Time sent = absl::Now();
        refused = Mariadb(absl::StrCat("INSERT INTO d.t VALUES (", ++id, ", '", big, "')"));
        EXPECT_LT(absl::Now() - sent, absl::Seconds(5)) << "a write took long to be answered";
        return refused.exit_code != 0;
      },
      absl::Seconds(20)))
      << "writes still succeed on a full disk";
  EXPECT_TRUE(absl::StrContains(refused.err, "ERROR 1297 (HY000)")) << refused.err;
  EXPECT_TRUE(absl::StrContains(refused.err,
                                "Got temporary error 410 'REDO log files overloaded (disk full: "))
      << refused.err;
  EXPECT_TRUE(absl::StrContains(refused.err, "No space left on device")) << refused.err;

  // While it lasts: every write refused, at once; reads and scans as ever; the node serves.
  for (const std::string& sql :
       {std::string("INSERT INTO d.t VALUES (3, 'three')"),
        std::string("UPDATE d.t SET v = 'uno' WHERE id = 1"), std::string("DELETE FROM d.t"),
        std::string("BEGIN; INSERT INTO d.t VALUES (4, 'four'); COMMIT")}) {
    const absl::Time sent = absl::Now();
    CommandResult r = Mariadb(sql);
    EXPECT_LT(absl::Now() - sent, absl::Seconds(5)) << sql;
    EXPECT_NE(r.exit_code, 0) << sql << " succeeded on a full disk";
    EXPECT_TRUE(absl::StrContains(r.err, "1297")) << sql << ": " << r.err;
  }
  EXPECT_EQ(Query("SELECT v FROM d.t WHERE id = 1"), "one\n");
  EXPECT_EQ(Query("SELECT id FROM d.t WHERE id <= 4 ORDER BY id"), "1\n2\n");
  std::map<int, ShownNode> shown = cluster_->Show();
  EXPECT_EQ(shown[2].state, "started");
  EXPECT_EQ(shown[3].state, "started");
  EXPECT_GT(Metric(Metrics(3), "shoal_datanode_redo_write_errors_total"), 0) << Metrics(3);
  EXPECT_EQ(Metric(Metrics(2), "shoal_datanode_redo_write_errors_total"), 0);

  // Space again: writes succeed again, soon.
  ASSERT_TRUE(std::filesystem::remove(mount + "/filler"));
  CommandResult accepted;
  ASSERT_TRUE(WaitUntil(
      [&] {
        accepted = Mariadb("INSERT INTO d.t VALUES (3, 'three')");
        return accepted.exit_code == 0;
      },
      absl::Seconds(10)))
      << accepted.err;
  EXPECT_EQ(Query("SELECT v FROM d.t WHERE id = 3"), "three\n");
  const std::string log = NodeLog(3);
  EXPECT_EQ(Count(log, "redo write failed"), 1) << log;
  EXPECT_EQ(Count(log, "redo writes succeed again"), 1) << log;
}

// --- A damaged redo log --------------------------------------------------------------------

// A record of a data node's redo, where it lies.
struct RecordAt {
  std::string path;
  uint64_t offset = 0;
  size_t size = 0;
  redo::RecordType type;
  uint64_t epoch = 0;
};

// Every record of the last run's segments of `data_dir`, stream by stream.
std::vector<RecordAt> ReadRecords(const std::string& data_dir) {
  std::vector<RecordAt> records;
  absl::StatusOr<std::vector<redo::SegmentInfo>> segments =
      redo::RedoLog::ListSegments(data_dir + "/redo");
  EXPECT_TRUE(segments.ok()) << segments.status();
  if (!segments.ok() || segments->empty()) return records;
  for (const redo::SegmentInfo& segment : *segments) {
    if (segment.run != segments->back().run) continue;
    std::string bytes = ReadFile(segment.path);
    absl::string_view in = bytes;
    uint64_t offset = 0;
    redo::Record record;
    size_t used = 0;
    std::string why;
    while (redo::ParseRecord(in, &record, &used, &why) == redo::ParseResult::kOk) {
      records.push_back({segment.path, offset, used, record.type, record.epoch});
      in.remove_prefix(used);
      offset += used;
    }
    EXPECT_TRUE(in.empty()) << segment.path << " is damaged already at " << offset << ": " << why;
  }
  return records;
}

uint64_t CompleteEpoch(const std::string& data_dir) {
  absl::StatusOr<std::optional<redo::NodeState>> state = redo::ReadNodeState(data_dir);
  return state.ok() && state->has_value() ? (*state)->complete_epoch : 0;
}

void Truncate(const std::string& path, uint64_t size) {
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(size)), 0) << std::strerror(errno);
}

void FlipByte(const std::string& path, uint64_t offset) {
  std::string bytes = ReadFile(path);
  ASSERT_LT(offset, bytes.size());
  bytes[offset] ^= 0x5a;
  WriteFile(path, bytes);
}

enum class Damage { kTruncated, kFlippedByte };

class DamagedRedoTest : public DiskStatesTest, public ::testing::WithParamInterface<Damage> {};

// The damage lies past every record the decided epoch needs (what a crash in the middle of a
// write leaves: a torn or garbled last record, never saved): node 3 restores from its own disk
// all the same, and says where its redo ended and why, in its log and in the cluster log.
TEST_P(DamagedRedoTest, PastTheLastSavedEpochTheNodeRestoresAndSaysWhereRecoveryStopped) {
  ASSERT_NO_FATAL_FAILURE(Start(Config()));
  ASSERT_NO_FATAL_FAILURE(WriteRowsAndShutDown(50));
  std::vector<RecordAt> records = ReadRecords(DataDir(3));
  ASSERT_FALSE(records.empty());
  const RecordAt& last = records.back();
  const RecordAt* row = nullptr;
  for (const RecordAt& r : records) {
    if (r.type == redo::RecordType::kWrite) row = &r;
  }
  ASSERT_NE(row, nullptr);
  // One record more after the last, as an unsaved write would have left it: torn in its middle,
  // or whole with a byte flipped in its middle.
  std::string copy = ReadFile(row->path).substr(row->offset, row->size);
  std::string tail = ReadFile(last.path);
  ASSERT_EQ(tail.size(), last.offset + last.size) << "the last record is not the file's end";
  WriteFile(last.path, tail + copy);
  if (GetParam() == Damage::kTruncated) {
    ASSERT_NO_FATAL_FAILURE(Truncate(last.path, tail.size() + copy.size() / 2));
  } else {
    ASSERT_NO_FATAL_FAILURE(FlipByte(last.path, tail.size() + copy.size() / 2));
  }

  ASSERT_NO_FATAL_FAILURE(RelaunchAndExpectRows(50));
  const std::string where = absl::StrCat(last.path, " at offset ", tail.size(), ": ");
  const std::string reason = GetParam() == Damage::kTruncated ? "torn record" : "checksum";
  const std::string log = NodeLog(3);
  EXPECT_TRUE(absl::StrContains(log, where)) << log;
  EXPECT_TRUE(absl::StrContains(log, "recovery stopped there")) << log;
  bool in_cluster_log = false;
  const std::string cluster_log = cluster_->ClusterLog();
  for (absl::string_view line : absl::StrSplit(cluster_log, '\n')) {
    if (absl::StrContains(line, "recovery stopped there")) {
      in_cluster_log = true;
      EXPECT_TRUE(absl::StrContains(line, "WARNING")) << line;
      EXPECT_TRUE(absl::StrContains(line, "Node 3")) << line;
      EXPECT_TRUE(absl::StrContains(line, where)) << line;
      EXPECT_TRUE(absl::StrContains(line, reason)) << line;
    }
  }
  EXPECT_TRUE(in_cluster_log) << cluster_log;
}

// The damage takes records the decided epoch needs (the saved marker of the last complete epoch
// cut in two, or a row before it garbled): node 3's disk no longer holds the epoch the cluster
// restarts from, so it does not take part in the system restart: it waits until node 2 serves,
// then restores what its disk still holds whole (an earlier epoch: "recovery stopped there")
// and copies from node 2 what changed since — a node restart from its own disk.
TEST_P(DamagedRedoTest, BeforeTheDecidedEpochTheNodeCopiesFromItsPeer) {
  ASSERT_NO_FATAL_FAILURE(Start(Config()));
  ASSERT_NO_FATAL_FAILURE(WriteRowsAndShutDown(50));
  const uint64_t decided = std::max(CompleteEpoch(DataDir(2)), CompleteEpoch(DataDir(3)));
  ASSERT_GT(decided, 0u);
  std::vector<RecordAt> records = ReadRecords(DataDir(3));
  const RecordAt* saved = nullptr;  // the marker of the decided epoch
  const RecordAt* row = nullptr;    // a row before it, in its stream
  for (const RecordAt& r : records) {
    if (r.type == redo::RecordType::kEpochSaved && r.epoch == decided) {
      saved = &r;
      if (row != nullptr && row->path == r.path) break;
      row = nullptr;
    }
    if (r.type == redo::RecordType::kWrite) row = &r;
  }
  ASSERT_NE(saved, nullptr) << "no kEpochSaved(" << decided << ") in node 3's redo";
  if (GetParam() == Damage::kTruncated) {
    ASSERT_NO_FATAL_FAILURE(Truncate(saved->path, saved->offset + saved->size / 2));
  } else {
    ASSERT_NE(row, nullptr) << "no row before kEpochSaved(" << decided << ")";
    ASSERT_EQ(row->path, saved->path);
    ASSERT_NO_FATAL_FAILURE(FlipByte(row->path, row->offset + row->size / 2));
  }

  ASSERT_NO_FATAL_FAILURE(RelaunchAndExpectRows(50));
  const std::string log = NodeLog(3);
  EXPECT_TRUE(absl::StrContains(log, absl::StrCat("the cluster restarts from epoch ", decided,
                                                  ", which this node's disk does not hold")))
      << log;
  // What comes before the damage is restored from the node's own disk, the rest copied. When
  // the damaged row was in the first epoch (a decided epoch of 2 on a busy machine), the disk
  // holds no whole epoch, and the node copies everything from its peer instead.
  auto holds_an_epoch = [&log] {
    size_t at = log.find("disk does not hold (epochs ");
    if (at == std::string::npos) return false;  // "(nothing restorable)"
    std::vector<std::string> words = absl::StrSplit(log.substr(at, 60), ' ');
    uint64_t from = 0, to = 0;  // words: disk does not hold (epochs A to B): …
    return words.size() > 7 && absl::SimpleAtoi(words[5], &from) &&
           absl::SimpleAtoi(absl::StripSuffix(words[7], "):"), &to) && to >= from;
  };
  if (holds_an_epoch()) {
    EXPECT_TRUE(absl::StrContains(log, "node restart from disk: restoring epoch")) << log;
  }
  EXPECT_GE(cluster_->Show()[3].restarts, 1);
}

INSTANTIATE_TEST_SUITE_P(Damages, DamagedRedoTest,
                         ::testing::Values(Damage::kTruncated, Damage::kFlippedByte),
                         [](const ::testing::TestParamInfo<Damage>& param) {
                           return param.param == Damage::kTruncated ? "Truncated" : "FlippedByte";
                         });

// --- A missing data directory --------------------------------------------------------------

TEST_F(DiskStatesTest, ANodeWhoseDataDirectoryWasRemovedCopiesFromItsPeer) {
  ASSERT_NO_FATAL_FAILURE(Start(Config()));
  ASSERT_NO_FATAL_FAILURE(WriteRowsAndShutDown(50));
  std::filesystem::remove_all(DataDir(3));
  ASSERT_NO_FATAL_FAILURE(RelaunchAndExpectRows(50));
  const std::string log = NodeLog(3);
  EXPECT_TRUE(absl::StrContains(log, "which this node's disk does not hold (nothing restorable)"))
      << log;
  // Its disk is its own again: it can restore from it from now on.
  EXPECT_TRUE(std::filesystem::exists(DataDir(3) + "/node.state"));
}

// --- lock_pages_in_memory ------------------------------------------------------------------

// As root mlockall succeeds (RLIMIT_MEMLOCK does not bind CAP_IPC_LOCK).
TEST_F(DiskStatesTest, LockPagesInMemoryLocksTheDataNodesMemory) {
  if (::geteuid() != 0) GTEST_SKIP() << "mlockall of a whole data node needs root here";
  ASSERT_NO_FATAL_FAILURE(Start(Config("{RUN_DIR}/dn3", "  lock_pages_in_memory: true\n")));
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer intercepts mlockall and ignores it (its shadow memory is terabytes): the
  // call succeeds, nothing is locked. What this build can show is the node's side.
  for (int node : {2, 3}) {
    EXPECT_EQ(Metric(Metrics(node), "shoal_datanode_memory_locked"), 1) << Metrics(node);
  }
  return;
#endif
  for (int node : {2, 3}) {
    EXPECT_EQ(Metric(Metrics(node), "shoal_datanode_memory_locked"), 1) << Metrics(node);
    int pid = cluster_->Show()[node].pid;
    ASSERT_GT(pid, 0);
    int64_t locked_kb = -1;
    for (absl::string_view line :
         absl::StrSplit(ReadFile(absl::StrCat("/proc/", pid, "/status")), '\n')) {
      if (absl::ConsumePrefix(&line, "VmLck:")) {
        (void)absl::SimpleAtoi(absl::StripAsciiWhitespace(absl::StripSuffix(line, "kB")),
                               &locked_kb);
      }
    }
    EXPECT_GT(locked_kb, 0) << "node " << node;
  }
}

TEST_F(DiskStatesTest, WithoutLockPagesInMemoryNothingIsLocked) {
  ASSERT_NO_FATAL_FAILURE(Start(Config()));
  EXPECT_EQ(Metric(Metrics(2), "shoal_datanode_memory_locked"), 0) << Metrics(2);
}

// --- Non-logged tables ---------------------------------------------------------------------

// NDB's non-logged tables live in memory only: after a system restart they exist, empty, while
// a logged table has its rows. Created the way users write it, and the way mysqldump of an NDB
// table writes it.
TEST_F(DiskStatesTest, NonLoggedTablesComeBackEmptyAfterASystemRestart) {
  ASSERT_NO_FATAL_FAILURE(Start(Config()));
  CommandResult created = Mariadb(
      "CREATE DATABASE d;"
      "CREATE TABLE d.logged (id INT PRIMARY KEY, v INT) ENGINE=ndbcluster;"
      "CREATE TABLE d.scratch (id INT PRIMARY KEY, v INT) COMMENT=\"NDB_TABLE=NOLOGGING=1\";"
      "CREATE TABLE `d`.`dumped` (\n  `id` int NOT NULL,\n  `v` int DEFAULT NULL,\n"
      "  PRIMARY KEY (`id`)\n) ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4 "
      "COLLATE=utf8mb4_0900_ai_ci COMMENT='NDB_TABLE=NOLOGGING=1';"
      "INSERT INTO d.logged VALUES (1, 1), (2, 2), (3, 3);"
      "INSERT INTO d.scratch VALUES (1, 1), (2, 2);"
      "INSERT INTO d.dumped VALUES (1, 1);");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  // The inserts' epoch is complete on both nodes: waited for, not slept for, so a loaded
  // machine's slower epochs do not make the rows look lost. The metrics are published
  // periodically: the first current epoch published after the inserts is at least theirs.
  for (int node : {2, 3}) {
    const char* kCurrent = "shoal_datanode_epoch_current";
    int64_t seen = Metric(Metrics(node), kCurrent);
    int64_t current = seen;
    ASSERT_TRUE(WaitUntil([&] { return (current = Metric(Metrics(node), kCurrent)) > seen; },
                          absl::Seconds(20)));
    ASSERT_TRUE(
        WaitUntil([&] { return Metric(Metrics(node), "shoal_datanode_epoch_complete") >= current; },
                  absl::Seconds(20)))
        << Metrics(node);
  }
  std::map<int, ShownNode> shown = cluster_->Show();
  ASSERT_GT(shown[2].pid, 0);
  ASSERT_GT(shown[3].pid, 0);
  ASSERT_EQ(kill(shown[2].pid, SIGKILL), 0);
  ASSERT_EQ(kill(shown[3].pid, SIGKILL), 0);
  ASSERT_TRUE(cluster_->WaitForRestart(shown, {2, 3}, kBackLimit)) << cluster_->ClusterLog();
  EXPECT_EQ(Query("SELECT id FROM d.logged ORDER BY id"), "1\n2\n3\n");
  EXPECT_EQ(Query("SELECT COUNT(*) FROM d.scratch"), "0\n");
  EXPECT_EQ(Query("SELECT COUNT(*) FROM d.dumped"), "0\n");
  // Still non-logged, and taking rows.
  EXPECT_TRUE(absl::StrContains(Query("SHOW CREATE TABLE d.dumped"), "NOLOGGING=1"));
  CommandResult insert = Mariadb("INSERT INTO d.scratch VALUES (9, 9)");
  EXPECT_EQ(insert.exit_code, 0) << insert.err;
}

}  // namespace
}  // namespace shoal::testing
