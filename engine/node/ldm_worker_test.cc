// An LDM on its own thread, driven the way the data-plane thread drives it: operations in
// batches through the request queue (past its capacity, so pushes meet a full queue), results
// drained from the other side, lock waits resolved by a connection that closes. Run under
// ThreadSanitizer in CI.
#include "engine/node/ldm_worker.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/node/node_test_util.h"
#include "engine/schema/row.h"
#include "engine/schema/schema.h"
#include "engine/storage/memory_budget.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

constexpr uint32_t kPartitions = 4;
// The smallest queues, so that pushes and results meet full queues.
constexpr size_t kQueueBytes = LdmWorker::kMinQueueBytes;

// Collects results per connection, as the data plane's connections do.
class Results : public ReplySink {
 public:
  wire::FrameBuilder* ReplyTo(uint32_t conn) override {
    wire::FrameBuilder& out = out_[conn];
    if (out.in_frame() && out.current_body_size() < wire::kFrameSoftLimit) return &out;
    out.Finish();
    out.Begin(wire::FrameType::kOpConf);
    return &out;
  }
  // Results for `conn` since the last call: tag → (code, first section).
  std::map<uint64_t, std::pair<uint16_t, std::string>> Take(uint32_t conn) {
    std::map<uint64_t, std::pair<uint16_t, std::string>> taken;
    wire::FrameBuilder& out = out_[conn];
    out.Finish();
    absl::string_view frames = out.finished();
    while (!frames.empty()) {
      absl::string_view frame = wire::FirstFrame(frames);
      frames.remove_prefix(frame.size());
      wire::FrameHeader header;
      absl::string_view body;
      EXPECT_EQ(wire::DecodeFrame(frame, &header, &body), wire::DecodeStatus::kOk);
      for (uint32_t i = 0; i < header.count; ++i) {
        wire::Result result;
        EXPECT_EQ(wire::DecodeResult(&body, &result), wire::DecodeStatus::kOk);
        std::string first =
            result.section_count > 0 ? std::string(result.sections[0]) : std::string();
        taken[result.tag] = {result.code, first};
      }
    }
    out.Clear();
    return taken;
  }

 private:
  std::map<uint32_t, wire::FrameBuilder> out_;
};

class LdmWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table_ = testing::KeyValueTable(kPartitions);

    PartitionPlacement placement;  // one node group, one replica, one LDM: it owns everything
    absl::StatusOr<std::unique_ptr<LdmWorker>> worker =
        LdmWorker::Start(std::make_unique<Ldm>(placement, &budget_, absl::Milliseconds(2000)), 0,
                         absl::ZeroDuration(), &metrics_, kQueueBytes);
    ASSERT_TRUE(worker.ok()) << worker.status();
    worker_ = std::move(*worker);
    DictionaryDelta delta;
    delta.created.push_back(table_);
    ASSERT_TRUE(worker_->PushDelta(delta));
  }

  std::string Key(int id) {
    schema::RowWriter w;
    w.BeginKey();
    w.Int(table_->columns[0], id);
    return std::string(w.view());
  }
  std::string Row(int id, int v) {
    schema::RowWriter w;
    w.BeginRow(2);
    w.Int(table_->columns[0], id);
    w.Int(table_->columns[1], v);
    return std::string(w.view());
  }
  wire::OpHeader Header(wire::OpType type, const std::string& key, uint64_t tag, uint64_t txn = 0) {
    wire::OpHeader h;
    h.type = type;
    h.table_id = table_->id;
    h.table_version = table_->version;
    h.partition = schema::KeyHash(key) % kPartitions;
    h.tag = tag;
    h.txn = txn;
    return h;
  }
  // The body of a kOpReq frame: what PushOps takes.
  static std::string Body(wire::FrameBuilder* ops) {
    ops->Finish();
    wire::FrameHeader header;
    absl::string_view body;
    EXPECT_EQ(wire::DecodeFrame(ops->finished(), &header, &body), wire::DecodeStatus::kOk);
    return std::string(body);
  }
  void PushOps(uint32_t conn, uint32_t count, const std::string& body) {
    while (!worker_->PushOps(conn, count, body)) {
      worker_->Flush();
      worker_->DrainResults(&results_);
    }
    worker_->Flush();
  }
  // Drains until `conn` has `n` results (or a minute passes).
  std::map<uint64_t, std::pair<uint16_t, std::string>> Await(uint32_t conn, size_t n) {
    std::map<uint64_t, std::pair<uint16_t, std::string>> all;
    absl::Time deadline = absl::Now() + absl::Seconds(60);
    while (all.size() < n && absl::Now() < deadline) {
      worker_->DrainResults(&results_);
      all.merge(results_.Take(conn));
    }
    return all;
  }

  MetricsRegistry metrics_;
  storage::MemoryBudget budget_{64 << 20};
  std::shared_ptr<const schema::TableDef> table_;
  std::unique_ptr<LdmWorker> worker_;
  Results results_;
};

TEST_F(LdmWorkerTest, BatchesPastTheQueueCapacityAllComeBack) {
  // 200,000 inserts pushed without waiting: more than the queues hold.
  constexpr int kRows = 200000;
  constexpr int kBatch = 500;
  for (int first = 0; first < kRows; first += kBatch) {
    wire::FrameBuilder ops;
    ops.Begin(wire::FrameType::kOpReq);
    for (int id = first; id < first + kBatch; ++id) {
      std::string row = Row(id, id * 3);
      wire::AppendOp(&ops, Header(wire::OpType::kInsert, Key(id), id), {row});
    }
    PushOps(7, kBatch, Body(&ops));
  }
  auto inserted = Await(7, kRows);
  ASSERT_EQ(inserted.size(), static_cast<size_t>(kRows));
  for (const auto& [tag, result] : inserted) ASSERT_EQ(result.first, wire::kResultOk) << tag;

  wire::FrameBuilder reads;
  reads.Begin(wire::FrameType::kOpReq);
  std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  for (int id = 0; id < 100; ++id) {
    std::string key = Key(id * 7);
    wire::AppendOp(&reads, Header(wire::OpType::kRead, key, id), {key, columns});
  }
  PushOps(8, 100, Body(&reads));
  auto read = Await(8, 100);
  ASSERT_EQ(read.size(), 100u);
  for (int id = 0; id < 100; ++id) {
    ASSERT_EQ(read[id].first, wire::kResultOk);
    schema::RowWriter w;
    w.BeginRow(1);
    w.Int(table_->columns[1], id * 7 * 3);
    EXPECT_EQ(read[id].second, w.view()) << id;
  }
  absl::Time deadline = absl::Now() + absl::Seconds(5);
  while (worker_->rows() != kRows && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(5));
  EXPECT_EQ(worker_->rows(), kRows);
  // The LDM thread publishes its counters on its own.
  std::string expected = absl::StrCat("shoal_datanode_ldm_writes_total{ldm=\"0\"} ", kRows);
  while (metrics_.RenderPrometheus().find(expected) == std::string::npos &&
         absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  EXPECT_THAT(metrics_.RenderPrometheus(), ::testing::HasSubstr(expected));
}

TEST_F(LdmWorkerTest, ALockWaiterRunsWhenTheHolderDisconnects) {
  std::string key = Key(1);
  std::string row = Row(1, 10);
  wire::FrameBuilder insert;
  insert.Begin(wire::FrameType::kOpReq);
  wire::AppendOp(&insert, Header(wire::OpType::kInsert, key, 1), {row});
  PushOps(1, 1, Body(&insert));
  ASSERT_EQ(Await(1, 1)[1].first, wire::kResultOk);

  // Connection 1 deletes the row inside a transaction and keeps the lock...
  wire::FrameBuilder hold;
  hold.Begin(wire::FrameType::kOpReq);
  wire::AppendOp(&hold, Header(wire::OpType::kDelete, key, 2, /*txn=*/5), {key});
  PushOps(1, 1, Body(&hold));
  ASSERT_EQ(Await(1, 1)[2].first, wire::kResultOk);
  // ...connection 2's write waits for it...
  std::string replacement = Row(1, 20);
  wire::FrameBuilder wait;
  wait.Begin(wire::FrameType::kOpReq);
  wire::AppendOp(&wait, Header(wire::OpType::kWrite, key, 3), {replacement});
  PushOps(2, 1, Body(&wait));
  absl::SleepFor(absl::Milliseconds(50));
  worker_->DrainResults(&results_);
  EXPECT_TRUE(results_.Take(2).empty());
  // ...until connection 1 goes away: its delete is rolled back and the write goes through.
  ASSERT_TRUE(worker_->PushConnectionClosed(1));
  worker_->Flush();
  EXPECT_EQ(Await(2, 1)[3].first, wire::kResultOk);

  wire::FrameBuilder read;
  read.Begin(wire::FrameType::kOpReq);
  std::string columns = wire::EncodeColumns(std::vector<uint16_t>{1});
  wire::AppendOp(&read, Header(wire::OpType::kRead, key, 4), {key, columns});
  PushOps(3, 1, Body(&read));
  auto result = Await(3, 1)[4];
  ASSERT_EQ(result.first, wire::kResultOk);
  schema::RowWriter w;
  w.BeginRow(1);
  w.Int(table_->columns[1], 20);
  EXPECT_EQ(result.second, w.view());
}

}  // namespace
}  // namespace shoal::node
