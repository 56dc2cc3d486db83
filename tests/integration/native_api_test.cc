// The native engine end to end: a real mgmd and two data nodes, driven through the native API
// over shared memory and over TCP — DDL, key operations, scans, locks, memory limits, and a
// data node that joins later and fetches the dictionary.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/api/client.h"
#include "engine/api/sync_client.h"
#include "engine/schema/program.h"
#include "engine/schema/row.h"
#include "engine/wire/frame.h"
#include "engine/wire/key_ops.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using schema::ColumnDef;
using schema::ColumnType;
using schema::RowWriter;
using schema::TableDef;
using ::testing::HasSubstr;

constexpr char kConfig[] = R"(
cluster:
  replicas: 2
  data_memory: 48M
  lock_wait_timeout: 300ms
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
    socket: {RUN_DIR}/dn2.sock
    threads: 3  # two LDM threads; data node 3 runs every role on one thread
  - id: 3
    data_dir: {RUN_DIR}/dn3
    socket: {RUN_DIR}/dn3.sock
routers:
  - id: 4
    socket: {RUN_DIR}/r4.sock
)";

ColumnDef Column(const std::string& name, ColumnType type, bool nullable = false,
                 uint32_t length = 0) {
  ColumnDef c;
  c.name = name;
  c.type = type;
  c.nullable = nullable;
  c.length = length;
  return c;
}

// t(id INT PRIMARY KEY, k INT NOT NULL, u VARCHAR(20) UNIQUE, c VARCHAR(100), KEY k(k))
TableDef TestTable(const std::string& name) {
  TableDef t;
  t.database = "test";
  t.name = name;
  t.columns = {Column("id", ColumnType::kInt), Column("k", ColumnType::kInt),
               Column("u", ColumnType::kVarChar, true, 20),
               Column("c", ColumnType::kVarChar, true, 100)};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {0};
  primary.primary = primary.unique = true;
  schema::IndexDef unique;
  unique.name = "u";
  unique.columns = {2};
  unique.unique = true;
  schema::IndexDef k;
  k.name = "k";
  k.columns = {1};
  t.indexes = {primary, unique, k};
  return t;
}

// Counts completions of a batch and remembers failures.
class Counter : public api::Completion {
 public:
  void Done(const api::Outcome& outcome) override {
    ++done;
    if (!outcome.ok()) failures.push_back(absl::StrCat(outcome.code, " ", outcome.message));
  }
  int done = 0;
  std::vector<std::string> failures;
};

class NativeApiTest : public ::testing::TestWithParam<bool> {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new TestCluster(TestCluster::FromConfig(kConfig, {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  void SetUp() override {
    api::Cluster::Options options;
    options.use_shared_memory = GetParam();
    api_cluster_ = std::make_unique<api::Cluster>(options);
    ASSERT_NO_FATAL_FAILURE(RefreshView());
    sync_ = std::make_unique<api::SyncClient>(api_cluster_.get());
    wire::DictReq db;
    db.mutable_create_database()->set_name("test");
    db.mutable_create_database()->set_if_not_exists(true);
    absl::StatusOr<wire::DictConf> conf = sync_->Dictionary(db);
    ASSERT_TRUE(conf.ok()) << conf.status();
    ASSERT_EQ(conf->error_code(), 0u) << conf->error_message();
  }

  // Both nodes serving, and the view as it is now. Under a loaded sanitizer build a data node
  // running every role on one thread can miss heartbeats, be restarted, and take its
  // partitions back as primary when it returns: a view fetched meanwhile is behind, and its
  // writes get the temporary error 4011 an application answers by refreshing and retrying.
  void RefreshView() {
    ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
    absl::StatusOr<control::ClusterView> view =
        api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(5));
    ASSERT_TRUE(view.ok()) << view.status();
    api_cluster_->SetView(*view);
  }

  // Creates (after dropping) a table named for the test and transport.
  // Rows 1 … `rows` of `t` (k = id % 100), inserted in one batch.
  void Fill(const TableDef& t, int rows) {
    api::Client& client = sync_->client();
    Counter inserted;
    for (int id = 1; id <= rows; ++id) client.Insert(t, Row(t, id, id % 100, "", "x"), &inserted);
    client.Send();
    while (inserted.done < rows) client.Poll(absl::Seconds(1));
    ASSERT_THAT(inserted.failures, ::testing::IsEmpty());
  }

  api::TablePtr Create(TableDef def) {
    def.name = absl::StrCat(def.name, GetParam() ? "_shm" : "_tcp");
    wire::DictReq drop;
    drop.mutable_drop_table()->set_database(def.database);
    drop.mutable_drop_table()->set_name(def.name);
    drop.mutable_drop_table()->set_if_exists(true);
    EXPECT_TRUE(sync_->Dictionary(drop).ok());
    wire::DictReq create;
    schema::AppendTableDef(def, create.mutable_create_table()->mutable_table());
    absl::StatusOr<wire::DictConf> conf = sync_->Dictionary(create);
    EXPECT_TRUE(conf.ok()) << conf.status();
    if (!conf.ok() || conf->error_code() != 0) {
      ADD_FAILURE() << (conf.ok() ? conf->error_message() : "");
      return nullptr;
    }
    absl::StatusOr<api::TablePtr> table = sync_->Table(def.database, def.name);
    EXPECT_TRUE(table.ok()) << table.status();
    return table.ok() ? *table : nullptr;
  }

  std::string Key(const TableDef& t, int id) {
    RowWriter w;
    w.BeginKey();
    w.Int(t.columns[0], id);
    return std::string(w.view());
  }
  std::string Row(const TableDef& t, int id, int k, const std::string& u, const std::string& c) {
    RowWriter w;
    w.BeginRow(4);
    w.Int(t.columns[0], id);
    w.Int(t.columns[1], k);
    if (u.empty()) {
      w.Null();
    } else {
      w.Bytes(u);
    }
    w.Bytes(c);
    return std::string(w.view());
  }
  // (id, k, u, c) of a packed row over all four columns.
  std::tuple<int64_t, int64_t, std::string, std::string> Decode(const TableDef& t,
                                                                absl::string_view row) {
    static const uint16_t kAll[] = {0, 1, 2, 3};
    schema::Field f[4];
    size_t consumed;
    EXPECT_TRUE(schema::SplitRow(t, kAll, row, f, &consumed));
    return {schema::FieldInt(t.columns[0], f[0].bytes), schema::FieldInt(t.columns[1], f[1].bytes),
            f[2].null ? "NULL" : std::string(f[2].bytes), std::string(f[3].bytes)};
  }

  static TestCluster* cluster_;
  std::unique_ptr<api::Cluster> api_cluster_;
  std::unique_ptr<api::SyncClient> sync_;
};

TestCluster* NativeApiTest::cluster_ = nullptr;

const uint16_t kAllColumns[] = {0, 1, 2, 3};

TEST_P(NativeApiTest, KeyOperationsInBatches) {
  api::TablePtr t = Create(TestTable("keys"));
  ASSERT_NE(t, nullptr);
  api::Client& client = sync_->client();
  Counter inserted;
  for (int id = 1; id <= 2000; ++id) {
    std::string row = Row(*t, id, id * 10, absl::StrCat("u", id), std::string(id % 90, 'c'));
    client.Insert(*t, row, &inserted);
  }
  client.Send();
  while (inserted.done < 2000) client.Poll(absl::Seconds(1));
  EXPECT_THAT(inserted.failures, ::testing::IsEmpty());

  for (int id : {1, 2, 999, 2000}) {
    api::SyncOutcome read = sync_->Read(*t, Key(*t, id), kAllColumns);
    ASSERT_TRUE(read.ok()) << read.code << " " << read.message;
    EXPECT_EQ(Decode(*t, read.row),
              std::make_tuple(int64_t{id}, int64_t{id * 10}, absl::StrCat("u", id),
                              std::string(id % 90, 'c')));
  }
  EXPECT_TRUE(sync_->Read(*t, Key(*t, 2001), kAllColumns).not_found());

  // k = k + 5 runs in the data node; c is replaced.
  std::string program = schema::UpdateBuilder().AddInt(1, 5).SetBytes(3, "changed").Finish();
  ASSERT_TRUE(sync_->Update(*t, Key(*t, 7), program).ok());
  EXPECT_EQ(Decode(*t, sync_->Read(*t, Key(*t, 7), kAllColumns).row),
            std::make_tuple(int64_t{7}, int64_t{75}, std::string("u7"), std::string("changed")));
  EXPECT_TRUE(sync_->Update(*t, Key(*t, 5000), program).not_found());

  api::SyncOutcome dup = sync_->Insert(*t, Row(*t, 7, 0, "", ""));
  EXPECT_EQ(dup.code, 1062);
  EXPECT_THAT(dup.message, HasSubstr("Duplicate entry '7' for key '" + t->name + ".PRIMARY'"));
  api::SyncOutcome dup_unique = sync_->Insert(*t, Row(*t, 5000, 0, "u8", ""));
  EXPECT_EQ(dup_unique.code, 1062);
  EXPECT_THAT(dup_unique.message, HasSubstr("'u8' for key '" + t->name + ".u'"));

  ASSERT_TRUE(sync_->Write(*t, Row(*t, 8, -1, "", "upserted")).ok());
  EXPECT_EQ(Decode(*t, sync_->Read(*t, Key(*t, 8), kAllColumns).row),
            std::make_tuple(int64_t{8}, int64_t{-1}, std::string("NULL"), std::string("upserted")));

  ASSERT_TRUE(sync_->Delete(*t, Key(*t, 9)).ok());
  EXPECT_TRUE(sync_->Read(*t, Key(*t, 9), kAllColumns).not_found());
  EXPECT_TRUE(sync_->Delete(*t, Key(*t, 9)).not_found());
}

TEST_P(NativeApiTest, ScansFullOrderedAndFiltered) {
  api::TablePtr t = Create(TestTable("scans"));
  ASSERT_NE(t, nullptr);
  api::Client& client = sync_->client();
  Counter inserted;
  for (int id = 1; id <= 3000; ++id) {
    // k repeats every 100 ids, so the secondary index has duplicates.
    client.Insert(*t, Row(*t, id, id % 100, "", "x"), &inserted);
  }
  client.Send();
  while (inserted.done < 3000) client.Poll(absl::Seconds(1));
  ASSERT_THAT(inserted.failures, ::testing::IsEmpty());

  api::ScanRequest full;
  full.table = t.get();
  full.columns = {0};
  absl::StatusOr<std::vector<std::string>> rows = sync_->Scan(full);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 3000u);

  // k BETWEEN 10 AND 12, in index order across all partitions, descending.
  api::ScanRequest range;
  range.table = t.get();
  range.index = 2;
  range.columns = {0, 1};
  range.ordered = true;
  range.descending = true;
  RowWriter w;
  w.BeginKey();
  w.Int(t->columns[1], 10);
  range.lower = std::string(w.view());
  w.Clear();
  w.BeginKey();
  w.Int(t->columns[1], 12);
  range.upper = std::string(w.view());
  rows = sync_->Scan(range);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 90u);
  static const uint16_t kIdK[] = {0, 1};
  int64_t last_k = 1000;
  for (const std::string& row : *rows) {
    schema::Field f[2];
    size_t consumed;
    ASSERT_TRUE(schema::SplitRow(*t, kIdK, row, f, &consumed));
    int64_t k = schema::FieldInt(t->columns[1], f[1].bytes);
    EXPECT_LE(k, last_k);
    EXPECT_GE(k, 10);
    EXPECT_LE(k, 12);
    last_k = k;
  }

  // A range list (k in [0, 40] or [60, 99]): one scan operation per partition, merged in
  // index order across the partitions' batches (each partition holds more rows than one
  // ordered batch), and the same unordered.
  auto k_key = [&](int k) {
    RowWriter kw;
    kw.BeginKey();
    kw.Int(t->columns[1], k);
    return std::string(kw.view());
  };
  api::ScanRequest listed;
  listed.table = t.get();
  listed.index = 2;
  listed.columns = {0, 1};
  listed.ordered = true;
  listed.ranges = {{k_key(0), k_key(40)}, {k_key(60), k_key(99)}};
  rows = sync_->Scan(listed);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 30u * 81);
  int64_t previous_k = -1;
  for (const std::string& row : *rows) {
    schema::Field f[2];
    size_t consumed;
    ASSERT_TRUE(schema::SplitRow(*t, kIdK, row, f, &consumed));
    int64_t k = schema::FieldInt(t->columns[1], f[1].bytes);
    EXPECT_GE(k, previous_k);
    EXPECT_TRUE(k <= 40 || k >= 60) << k;
    previous_k = k;
  }
  listed.ordered = false;
  rows = sync_->Scan(listed);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 30u * 81);

  // A pushed-down filter (id < 100 AND k = 7) and a limit.
  api::ScanRequest filtered;
  filtered.table = t.get();
  filtered.columns = {0};
  filtered.filter = schema::FilterBuilder()
                        .And(2)
                        .CompareInt(t->columns[0], 0, schema::CompareOp::kLt, 100)
                        .CompareInt(t->columns[1], 1, schema::CompareOp::kEq, 7)
                        .bytes();
  rows = sync_->Scan(filtered);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 1u);  // id 7
  api::ScanRequest limited;
  limited.table = t.get();
  limited.columns = {0};
  limited.ordered = true;
  limited.limit = 25;
  rows = sync_->Scan(limited);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 25u);
  schema::Field f;
  size_t consumed;
  static const uint16_t kId[] = {0};
  ASSERT_TRUE(schema::SplitRow(*t, kId, rows->back(), &f, &consumed));
  EXPECT_EQ(schema::FieldInt(t->columns[0], f.bytes), 25);  // ids 1..25 in order
}

// A receiver that asks to stop once rows arrived (a KILL QUERY of the statement reading them):
// the scan ends with 1317 after the batches already out, long before the table's end.
TEST_P(NativeApiTest, AnInterruptedScanStopsAfterItsBatch) {
  api::TablePtr t = Create(TestTable("interrupted"));
  ASSERT_NE(t, nullptr);
  api::Client& client = sync_->client();
  constexpr int kRows = 20000;  // several 1,000-row batches per partition
  ASSERT_NO_FATAL_FAILURE(Fill(*t, kRows));

  struct StopsEarly : api::ScanReceiver {
    void Row(absl::string_view) override { ++rows; }
    void Done(uint16_t c, absl::string_view m) override {
      done = true;
      code = c;
      message = std::string(m);
    }
    bool Interrupted() const override { return rows > 0; }
    int rows = 0;
    bool done = false;
    uint16_t code = 0;
    std::string message;
  } receiver;
  api::ScanRequest scan;
  scan.table = t.get();
  scan.columns = {0};
  client.Scan(scan, &receiver);
  client.Send();
  while (!receiver.done) client.Poll(absl::Seconds(1));
  EXPECT_EQ(receiver.code, 1317);
  EXPECT_EQ(receiver.message, "Query execution was interrupted");
  EXPECT_GT(receiver.rows, 0);
  EXPECT_LT(receiver.rows, kRows);
  // The client goes on: a whole scan still reads every row.
  api::ScanRequest full;
  full.table = t.get();
  full.columns = {0};
  absl::StatusOr<std::vector<std::string>> rows = sync_->Scan(full);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), static_cast<size_t>(kRows));
}

// A receiver that pauses holds each partition's next batch until it resumes the scan: at
// most one batch per partition arrives while it is paused, and every row arrives in the end.
TEST_P(NativeApiTest, APausedScanHoldsItsNextBatches) {
  api::TablePtr t = Create(TestTable("paused"));
  ASSERT_NE(t, nullptr);
  api::Client& client = sync_->client();
  constexpr int kRows = 20000;  // several 1,000-row batches per partition
  ASSERT_NO_FATAL_FAILURE(Fill(*t, kRows));

  struct Pauses : api::ScanReceiver {
    void Row(absl::string_view) override { ++rows; }
    void Done(uint16_t c, absl::string_view) override {
      done = true;
      code = c;
    }
    bool Paused() const override { return paused; }
    int rows = 0;
    bool paused = true;
    bool done = false;
    uint16_t code = 0;
  } receiver;
  api::ScanRequest scan;
  scan.table = t.get();
  scan.columns = {0};
  client.Scan(scan, &receiver);
  client.Send();
  // Paused: the first batch of each partition, then nothing more however long it polls.
  absl::Time until = absl::Now() + absl::Milliseconds(500);
  while (absl::Now() < until) client.Poll(absl::Milliseconds(50));
  EXPECT_FALSE(receiver.done);
  EXPECT_GT(receiver.rows, 0);
  EXPECT_LE(receiver.rows, static_cast<int>(t->partitions) * 1000);
  int held_at = receiver.rows;
  client.Poll(absl::Milliseconds(100));
  EXPECT_EQ(receiver.rows, held_at);
  receiver.paused = false;
  client.ResumeScan(&receiver);
  client.Send();
  while (!receiver.done) client.Poll(absl::Seconds(1));
  EXPECT_EQ(receiver.code, 0);
  EXPECT_EQ(receiver.rows, kRows);
}

TEST_P(NativeApiTest, RowLocksWaitTimeOutAndReadersSeeCommittedRows) {
  api::TablePtr t = Create(TestTable("locks"));
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(sync_->Insert(*t, Row(*t, 1, 100, "", "before")).ok());

  api::Transaction txn = sync_->client().Begin();
  std::string program = schema::UpdateBuilder().SetBytes(3, "after").Finish();
  ASSERT_TRUE(sync_->Update(*t, Key(*t, 1), program, &txn).ok());

  api::SyncClient other(api_cluster_.get());
  // A committed read does not wait and sees the row as last committed.
  EXPECT_EQ(std::get<3>(Decode(*t, other.Read(*t, Key(*t, 1), kAllColumns).row)), "before");
  // A write waits for the lock, then gives up with 1205 (lock_wait_timeout is 300ms).
  absl::Time start = absl::Now();
  api::SyncOutcome blocked = other.Update(*t, Key(*t, 1), program);
  EXPECT_EQ(blocked.code, 1205) << blocked.message;
  EXPECT_EQ(blocked.message, "Lock wait timeout exceeded; try restarting transaction");
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(250));

  // A waiting writer goes ahead as soon as the holder commits.
  Counter waiter;
  std::string add = schema::UpdateBuilder().AddInt(1, 1).Finish();
  other.client().Update(*t, Key(*t, 1), add, &waiter);
  other.client().Send();
  other.client().Poll(absl::Milliseconds(50));
  EXPECT_EQ(waiter.done, 0);
  ASSERT_TRUE(sync_->Commit(&txn).ok());
  while (waiter.done == 0) other.client().Poll(absl::Seconds(1));
  EXPECT_THAT(waiter.failures, ::testing::IsEmpty());
  EXPECT_EQ(Decode(*t, other.Read(*t, Key(*t, 1), kAllColumns).row),
            std::make_tuple(int64_t{1}, int64_t{101}, std::string("NULL"), std::string("after")));

  // Rollback puts the row back.
  api::Transaction undo = sync_->client().Begin();
  ASSERT_TRUE(sync_->Delete(*t, Key(*t, 1), &undo).ok());
  ASSERT_TRUE(sync_->Rollback(&undo).ok());
  EXPECT_TRUE(other.Read(*t, Key(*t, 1), kAllColumns).ok());
}

TEST_P(NativeApiTest, DictionaryErrorsAreMySqlErrors) {
  api::TablePtr t = Create(TestTable("ddl"));
  ASSERT_NE(t, nullptr);
  wire::DictReq again;
  TableDef def = *t;
  schema::AppendTableDef(def, again.mutable_create_table()->mutable_table());
  absl::StatusOr<wire::DictConf> conf = sync_->Dictionary(again);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->error_code(), 1050u);
  EXPECT_EQ(conf->error_message(), absl::StrCat("Table '", t->name, "' already exists"));

  wire::DictReq drop;
  drop.mutable_drop_table()->set_database("test");
  drop.mutable_drop_table()->set_name("nonexistent");
  conf = sync_->Dictionary(drop);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->error_code(), 1051u);
  EXPECT_EQ(conf->error_message(), "Unknown table 'test.nonexistent'");

  wire::DictReq no_db;
  def.database = "nodb";
  schema::AppendTableDef(def, no_db.mutable_create_table()->mutable_table());
  conf = sync_->Dictionary(no_db);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->error_code(), 1049u);

  // An operation planned against an old version of the table is refused with 1412.
  wire::DictReq index;
  index.mutable_create_index()->set_database("test");
  index.mutable_create_index()->set_table(t->name);
  index.mutable_create_index()->set_name("by_c");
  index.mutable_create_index()->add_columns("c");
  conf = sync_->Dictionary(index);
  ASSERT_TRUE(conf.ok());
  ASSERT_EQ(conf->error_code(), 0u) << conf->error_message();
  api::SyncOutcome stale = sync_->Insert(*t, Row(*t, 1, 1, "", ""));
  EXPECT_EQ(stale.code, 1412);
  absl::StatusOr<api::TablePtr> fresh = sync_->Table("test", t->name);
  ASSERT_TRUE(fresh.ok());
  EXPECT_GT((*fresh)->version, t->version);
  EXPECT_TRUE(sync_->Insert(**fresh, Row(**fresh, 1, 1, "", "")).ok());
}

TEST_P(NativeApiTest, UniqueKeysAutoIncrementAndTruncate) {
  api::TablePtr t = Create(TestTable("unique"));
  ASSERT_NE(t, nullptr);
  // Unique keys hold across the table: it is one partition (until unique indexes become tables
  // of their own), and asking for more is refused.
  EXPECT_EQ(t->partitions, 1u);
  TableDef wide = TestTable(absl::StrCat("wide", GetParam() ? "_shm" : "_tcp"));
  wide.partitions = 4;
  wire::DictReq create;
  schema::AppendTableDef(wide, create.mutable_create_table()->mutable_table());
  absl::StatusOr<wire::DictConf> conf = sync_->Dictionary(create);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->error_code(), 1235u) << conf->error_message();

  // Nor can a unique index be added later (rows already there might break it).
  wire::DictReq add_unique;
  add_unique.mutable_create_index()->set_database("test");
  add_unique.mutable_create_index()->set_table(t->name);
  add_unique.mutable_create_index()->set_name("c_unique");
  add_unique.mutable_create_index()->add_columns("c");
  add_unique.mutable_create_index()->set_unique(true);
  conf = sync_->Dictionary(add_unique);
  ASSERT_TRUE(conf.ok());
  EXPECT_EQ(conf->error_code(), 1235u) << conf->error_message();

  for (int id = 1; id <= 20; ++id) {
    ASSERT_TRUE(sync_->Insert(*t, Row(*t, id, id, absl::StrCat("u", id), "c")).ok());
  }
  api::SyncOutcome dup = sync_->Insert(*t, Row(*t, 21, 0, "u5", ""));
  EXPECT_EQ(dup.code, 1062);
  EXPECT_THAT(dup.message, HasSubstr("Duplicate entry 'u5' for key '" + t->name + ".u'"));
  RowWriter key;
  key.BeginKey();
  key.Bytes("u7");
  api::SyncOutcome by_u = sync_->ReadUnique(*t, 1, key.view(), kAllColumns);
  ASSERT_TRUE(by_u.ok()) << by_u.message;
  EXPECT_EQ(Decode(*t, by_u.row),
            std::make_tuple(int64_t{7}, int64_t{7}, std::string("u7"), std::string("c")));
  key.Clear();
  key.BeginKey();
  key.Bytes("u99");
  EXPECT_TRUE(sync_->ReadUnique(*t, 1, key.view(), kAllColumns).not_found());

  // Auto-increment values come in ranges that never overlap, and jump past explicit values.
  wire::DictReq reserve;
  reserve.mutable_reserve_auto_increment()->set_table_id(t->id);
  reserve.mutable_reserve_auto_increment()->set_count(10);
  conf = sync_->Dictionary(reserve);
  ASSERT_TRUE(conf.ok());
  ASSERT_EQ(conf->error_code(), 0u) << conf->error_message();
  EXPECT_EQ(conf->auto_increment_count(), 10u);
  uint64_t first = conf->auto_increment_first();
  reserve.mutable_reserve_auto_increment()->set_at_least(first + 1000);
  conf = sync_->Dictionary(reserve);
  ASSERT_TRUE(conf.ok());
  EXPECT_GE(conf->auto_increment_first(), first + 1000);

  wire::DictReq truncate;
  truncate.mutable_truncate_table()->set_database("test");
  truncate.mutable_truncate_table()->set_name(t->name);
  conf = sync_->Dictionary(truncate);
  ASSERT_TRUE(conf.ok());
  ASSERT_EQ(conf->error_code(), 0u) << conf->error_message();
  absl::StatusOr<api::TablePtr> fresh = sync_->Table("test", t->name);
  ASSERT_TRUE(fresh.ok());
  EXPECT_TRUE(sync_->Read(**fresh, Key(**fresh, 7), kAllColumns).not_found());
  // The unique key is free again, and the table takes rows.
  EXPECT_TRUE(sync_->Insert(**fresh, Row(**fresh, 1, 1, "u5", "again")).ok());
}

// An index added while a transaction holds row locks: its commit still ends it everywhere
// (no lock left behind), and a scan reading no columns counts rows.
TEST_P(NativeApiTest, TransactionsOutliveAnIndexChange) {
  api::TablePtr t = Create(TestTable("txn_ddl"));
  ASSERT_NE(t, nullptr);
  api::Transaction txn = sync_->client().Begin();
  ASSERT_TRUE(sync_->Insert(*t, Row(*t, 1, 1, "", "in txn"), &txn).ok());
  wire::DictReq index;
  index.mutable_create_index()->set_database("test");
  index.mutable_create_index()->set_table(t->name);
  index.mutable_create_index()->set_name("by_c");
  index.mutable_create_index()->add_columns("c");
  absl::StatusOr<wire::DictConf> conf = sync_->Dictionary(index);
  ASSERT_TRUE(conf.ok());
  ASSERT_EQ(conf->error_code(), 0u) << conf->error_message();
  ASSERT_TRUE(sync_->Commit(&txn).ok());

  absl::StatusOr<api::TablePtr> fresh = sync_->Table("test", t->name);
  ASSERT_TRUE(fresh.ok());
  api::SyncOutcome read = sync_->Read(**fresh, Key(**fresh, 1), kAllColumns);
  ASSERT_TRUE(read.ok()) << read.message;
  EXPECT_EQ(std::get<3>(Decode(**fresh, read.row)), "in txn");
  // Not locked any more: a write goes straight through.
  EXPECT_TRUE(sync_->Write(**fresh, Row(**fresh, 1, 2, "", "after")).ok());

  api::ScanRequest count;
  count.table = fresh->get();
  absl::StatusOr<std::vector<std::string>> rows = sync_->Scan(count);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 1u);
}

TEST_P(NativeApiTest, FullMemoryGives1114AndTheNodeGoesOn) {
  TableDef def;
  def.database = "test";
  def.name = "big";
  def.columns = {Column("id", ColumnType::kInt), Column("b", ColumnType::kVarBinary, false, 4000)};
  schema::IndexDef primary;
  primary.name = "PRIMARY";
  primary.columns = {0};
  primary.primary = primary.unique = true;
  def.indexes = {primary};
  api::TablePtr t = Create(def);
  ASSERT_NE(t, nullptr);
  std::string blob(3000, 'b');
  int full_at = -1;
  // 48M per node, two nodes sharing the partitions: well under 40000 rows of 3000 bytes fit.
  int view_changes = 0;
  for (int id = 0; id < 40000 && full_at < 0; id += 500) {
    Counter done;
    for (int i = id; i < id + 500; ++i) {
      RowWriter w;
      w.BeginRow(2);
      w.Int(t->columns[0], i);
      w.Bytes(blob);
      // Written, not inserted: a batch sent again after a view change finds some rows there.
      sync_->client().Write(*t, w.view(), &done);
    }
    sync_->client().Send();
    while (done.done < 500) sync_->client().Poll(absl::Seconds(1));
    bool behind = false;
    for (const std::string& failure : done.failures) {
      if (absl::StartsWith(failure, "1297 ") && absl::StrContains(failure, " 4011 ")) {
        behind = true;
        continue;
      }
      ASSERT_THAT(failure, HasSubstr("1114 The table '" + t->name + "' is full"));
      full_at = id;
    }
    if (behind && full_at < 0) {
      ASSERT_LT(++view_changes, 5) << done.failures.front();
      ASSERT_NO_FATAL_FAILURE(RefreshView());
      id -= 500;  // the same batch again, on the view as it is now
    }
  }
  ASSERT_GE(full_at, 0) << "memory never ran out";
  // Deleting rows makes room again.
  for (int i = 0; i < 2000; ++i) {
    RowWriter w;
    w.BeginKey();
    w.Int(t->columns[0], i);
    sync_->Delete(*t, w.view());
  }
  RowWriter w;
  w.BeginRow(2);
  w.Int(t->columns[0], 1000000);
  w.Bytes(blob);
  api::SyncOutcome inserted = sync_->Insert(*t, w.view());
  EXPECT_TRUE(inserted.ok()) << inserted.code << " " << inserted.message;
  // Dropping the table gives all of it back.
  wire::DictReq drop;
  drop.mutable_drop_table()->set_database("test");
  drop.mutable_drop_table()->set_name(t->name);
  ASSERT_TRUE(sync_->Dictionary(drop).ok());
}

// Bytes that are not native frames close that connection only: the data node goes on serving
// everyone else. (Only over TCP: a shared-memory client is a process on the node's host.)
TEST_P(NativeApiTest, MalformedFramesCloseThatConnectionOnly) {
  api::TablePtr t = Create(TestTable("garbage"));
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(sync_->Insert(*t, Row(*t, 1, 1, "", "before")).ok());
  // Both nodes serving, and their ports as they are now: under a loaded sanitizer build a node
  // may have been restarted (on a new port) after an earlier test starved it of heartbeats.
  ASSERT_TRUE(cluster_->WaitForState({2, 3}, "started")) << cluster_->MgmdLog();
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", cluster_->mgmd_port(), absl::Seconds(5));
  ASSERT_TRUE(view.ok());
  // Well-formed frames a client may not send: a commit ending a backup's replica for a TC, and
  // one naming backups as done (its primary would skip them, leaving them behind).
  auto client_commit = [&t](bool on_replica, bool replicas_done) {
    wire::FrameBuilder out;
    wire::AppendHello(&out, wire::FrameType::kHelloReq, 999);
    out.Begin(wire::FrameType::kOpReq);
    wire::Commit commit;
    commit.table_id = t->id;
    commit.txn = 77;
    commit.tag = 1;
    commit.on_replica = on_replica;
    std::string done;
    if (replicas_done) wire::AddReplicaDone(&done, 3);
    commit.replicas_done = done;
    commit.Encode(&out);
    out.Finish();
    return std::string(out.finished());
  };
  const std::vector<std::string> garbage = {
      "GET / HTTP/1.0\r\n\r\n",
      std::string("\x10\x00\x00\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00", 16),
      std::string("\xff\xff\xff\x7f", 4) + std::string(64, 'x'),
      client_commit(/*on_replica=*/true, false),
      client_commit(false, /*replicas_done=*/true),
  };
  for (const auto& node : view->nodes()) {
    if (node.type() != control::DATANODE || node.data_port() == 0) continue;
    for (const std::string& bytes : garbage) {
      int fd = socket(AF_INET, SOCK_STREAM, 0);
      ASSERT_GE(fd, 0);
      sockaddr_in addr = {};
      addr.sin_family = AF_INET;
      addr.sin_port = htons(static_cast<uint16_t>(node.data_port()));
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0)
          << "node " << node.node_id() << " port " << node.data_port() << ": " << strerror(errno)
          << "\n"
          << cluster_->MgmdLog();
      ASSERT_EQ(send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
                static_cast<ssize_t>(bytes.size()));
      timeval timeout = {5, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
      char buffer[256];
      ssize_t n;
      while ((n = recv(fd, buffer, sizeof(buffer), 0)) > 0) {
      }
      EXPECT_EQ(n, 0) << "node " << node.node_id() << " did not close on " << bytes.size()
                      << " bytes of garbage (errno " << errno << ")";
      close(fd);
    }
  }
  EXPECT_EQ(std::get<3>(Decode(*t, sync_->Read(*t, Key(*t, 1), kAllColumns).row)), "before");
  EXPECT_TRUE(sync_->Insert(*t, Row(*t, 2, 2, "", "after")).ok());
  EXPECT_TRUE(cluster_->WaitForState({2, 3}, "started", absl::Seconds(1)));
}

// A data node that starts while another serves fetches the dictionary from it, and serves the
// partitions it is primary for under the same table definitions.
TEST(NativeApiRestartTest, RestartedDataNodeFetchesTheDictionary) {
  TestCluster cluster = TestCluster::FromConfig(kConfig, {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({2, 3}, "started")) << cluster.MgmdLog();
  auto view = [&] {
    absl::StatusOr<control::ClusterView> v =
        api::Cluster::FetchView("127.0.0.1", cluster.mgmd_port(), absl::Seconds(5));
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : control::ClusterView();
  };
  api::Cluster before({});
  before.SetView(view());
  api::SyncClient sync(&before);
  wire::DictReq db;
  db.mutable_create_database()->set_name("test");
  ASSERT_EQ(sync.Dictionary(db)->error_code(), 0u);
  wire::DictReq create;
  schema::AppendTableDef(TestTable("kept"), create.mutable_create_table()->mutable_table());
  ASSERT_EQ(sync.Dictionary(create)->error_code(), 0u);

  ASSERT_EQ(cluster.Mgm("3 RESTART").exit_code, 0);
  ASSERT_TRUE(cluster.WaitForState({2, 3}, "started")) << cluster.MgmdLog();

  api::Cluster after({});
  after.SetView(view());
  api::SyncClient fresh(&after);
  absl::StatusOr<api::TablePtr> t = fresh.Table("test", "kept");
  ASSERT_TRUE(t.ok()) << t.status();
  // Enough keys that every partition, on both nodes, gets some.
  for (int id = 0; id < 200; ++id) {
    RowWriter w;
    w.BeginRow(4);
    w.Int((*t)->columns[0], id);
    w.Int((*t)->columns[1], id);
    w.Null();
    w.Bytes("v");
    api::SyncOutcome inserted = fresh.Insert(**t, w.view());
    ASSERT_TRUE(inserted.ok()) << id << ": " << inserted.code << " " << inserted.message;
    w.Clear();
    w.BeginKey();
    w.Int((*t)->columns[0], id);
    ASSERT_TRUE(fresh.Read(**t, w.view(), kAllColumns).ok()) << id;
  }
}

// Read-backup tables: committed reads go to the replica on the reader's host. Data node 3
// listens on 127.0.0.2, so a client on 127.0.0.1 reads every partition from data node 2 —
// also those node 3 is primary of — while an ordinary table's reads go to each primary.
TEST(NativeApiReadBackupTest, CommittedReadsGoToTheReplicaOnTheReadersHost) {
  TestCluster cluster = TestCluster::FromConfig(R"(
cluster:
  replicas: 2
  data_memory: 48M
mgmd:
  port: {MGMD_PORT}
  data_dir: {RUN_DIR}/mgmd
datanodes:
  - id: 2
    data_dir: {RUN_DIR}/dn2
    metrics_port: {METRICS_BASE}
  - id: 3
    host: 127.0.0.2
    data_dir: {RUN_DIR}/dn3
)",
                                                {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({2, 3}, "started")) << cluster.MgmdLog();
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", cluster.mgmd_port(), absl::Seconds(5));
  ASSERT_TRUE(view.ok()) << view.status();
  api::Cluster::Options options;
  options.local_host = "127.0.0.1";
  api::Cluster client_cluster(options);
  client_cluster.SetView(*view);
  api::SyncClient sync(&client_cluster);
  wire::DictReq db;
  db.mutable_create_database()->set_name("test");
  ASSERT_EQ(sync.Dictionary(db)->error_code(), 0u);
  auto node2_reads = [&] {
    std::optional<std::string> text = HttpGet(cluster.metrics_port(0), "/metrics");
    int64_t reads = 0;
    if (!text.has_value()) return reads;
    for (absl::string_view line : absl::StrSplit(*text, '\n')) {
      if (!absl::StartsWith(line, "shoal_datanode_ldm_reads_total")) continue;
      int64_t value = 0;
      if (absl::SimpleAtoi(line.substr(line.rfind(' ') + 1), &value)) reads += value;
    }
    return reads;
  };
  for (bool read_backup : {false, true}) {
    TableDef def = TestTable(read_backup ? "read_backup" : "ordinary");
    def.indexes.erase(def.indexes.begin() + 1);  // no unique key: the table gets partitions
    if (read_backup) def.comment = "NDB_TABLE=READ_BACKUP=1";
    wire::DictReq create;
    schema::AppendTableDef(def, create.mutable_create_table()->mutable_table());
    ASSERT_EQ(sync.Dictionary(create)->error_code(), 0u);
    absl::StatusOr<api::TablePtr> t = sync.Table("test", def.name);
    ASSERT_TRUE(t.ok()) << t.status();
    constexpr int kRows = 200;  // every partition, on both primaries, gets some
    for (int id = 0; id < kRows; ++id) {
      RowWriter w;
      w.BeginRow(4);
      w.Int((*t)->columns[0], id);
      w.Int((*t)->columns[1], id);
      w.Null();
      w.Bytes("v");
      ASSERT_TRUE(sync.Insert(**t, w.view()).ok()) << id;
    }
    absl::SleepFor(absl::Milliseconds(250));  // the LDM publishes its counters every 100 ms
    int64_t before = node2_reads();
    for (int id = 0; id < kRows; ++id) {
      RowWriter w;
      w.BeginKey();
      w.Int((*t)->columns[0], id);
      api::SyncOutcome read = sync.Read(**t, w.view(), kAllColumns);
      ASSERT_TRUE(read.ok()) << id << ": " << read.message;
    }
    absl::SleepFor(absl::Milliseconds(250));
    int64_t served = node2_reads() - before;
    if (read_backup) {
      EXPECT_EQ(served, kRows) << "read-backup reads went elsewhere than the local replica";
    } else {
      EXPECT_GT(served, 0);
      EXPECT_LT(served, kRows) << "an ordinary table's reads go to each partition's primary";
    }
  }
}

// A data node killed with operations in flight: every operation still completes, those the
// node did not answer with the temporary error 1297, and once the node is back (restarted by
// the mgmd; empty until replication comes) clients reconnect on their own.
TEST(NativeApiFailureTest, OperationsInFlightToAKilledDataNodeComplete) {
  TestCluster cluster = TestCluster::FromConfig(kConfig, {"--launch"});
  ASSERT_TRUE(cluster.WaitForState({2, 3}, "started")) << cluster.MgmdLog();
  absl::StatusOr<control::ClusterView> view =
      api::Cluster::FetchView("127.0.0.1", cluster.mgmd_port(), absl::Seconds(5));
  ASSERT_TRUE(view.ok()) << view.status();
  api::Cluster shm_cluster({});
  shm_cluster.SetView(*view);
  api::Cluster::Options tcp_options;
  tcp_options.use_shared_memory = false;
  api::Cluster tcp_cluster(tcp_options);
  tcp_cluster.SetView(*view);
  api::SyncClient shm(&shm_cluster);
  api::SyncClient tcp(&tcp_cluster);
  wire::DictReq db;
  db.mutable_create_database()->set_name("test");
  ASSERT_EQ(shm.Dictionary(db)->error_code(), 0u);
  TableDef def = TestTable("victim");
  def.indexes.erase(def.indexes.begin() + 1);  // no unique index: partitions on both nodes
  wire::DictReq create;
  schema::AppendTableDef(def, create.mutable_create_table()->mutable_table());
  ASSERT_EQ(shm.Dictionary(create)->error_code(), 0u);
  absl::StatusOr<api::TablePtr> t = shm.Table("test", "victim");
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(tcp.Table("test", "victim").ok());

  class Tally : public api::Completion {
   public:
    void Done(const api::Outcome& outcome) override {
      ++done;
      if (!outcome.ok() && !outcome.not_found()) codes.push_back(outcome.code);
    }
    int done = 0;
    std::vector<uint16_t> codes;
  } shm_tally, tcp_tally;
  constexpr int kOps = 20000;
  for (int id = 0; id < kOps; ++id) {
    RowWriter w;
    w.BeginKey();
    w.Int((*t)->columns[0], id);
    shm.client().Read(**t, w.view(), kAllColumns, &shm_tally);
    tcp.client().Read(**t, w.view(), kAllColumns, &tcp_tally);
  }
  shm.client().Send();
  tcp.client().Send();
  ASSERT_EQ(kill(cluster.Show()[3].pid, SIGKILL), 0);
  absl::Time deadline = absl::Now() + absl::Seconds(10);
  while ((shm_tally.done < kOps || tcp_tally.done < kOps) && absl::Now() < deadline) {
    shm.client().Poll(absl::Milliseconds(10));
    tcp.client().Poll(absl::Milliseconds(10));
  }
  EXPECT_EQ(shm_tally.done, kOps);
  EXPECT_EQ(tcp_tally.done, kOps);
  for (uint16_t code : shm_tally.codes) ASSERT_EQ(code, 1297);
  for (uint16_t code : tcp_tally.codes) ASSERT_EQ(code, 1297);

  ASSERT_TRUE(cluster.WaitForState({2, 3}, "started")) << cluster.MgmdLog();
  // The node's TCP port is a new ephemeral one: clients learn it from the view, as routers do.
  view = api::Cluster::FetchView("127.0.0.1", cluster.mgmd_port(), absl::Seconds(5));
  ASSERT_TRUE(view.ok()) << view.status();
  shm_cluster.SetView(*view);
  tcp_cluster.SetView(*view);
  for (api::SyncClient* client : {&shm, &tcp}) {
    // The restarted node serves again; the clients' links come back by themselves.
    bool served = false;
    for (int attempt = 0; attempt < 100 && !served; ++attempt) {
      served = true;
      for (int id = 0; id < 64 && served; ++id) {
        RowWriter w;
        w.BeginKey();
        w.Int((*t)->columns[0], id);
        api::SyncOutcome read = client->Read(**t, w.view(), kAllColumns);
        served = read.not_found();
        if (!served) {
          EXPECT_EQ(read.code, 1297) << read.message;
        }
      }
      if (!served) absl::SleepFor(absl::Milliseconds(100));
    }
    EXPECT_TRUE(served) << (client == &shm ? "shm" : "tcp");
  }
}

INSTANTIATE_TEST_SUITE_P(Transports, NativeApiTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "shm" : "tcp";
                         });

}  // namespace
}  // namespace shoal::testing
