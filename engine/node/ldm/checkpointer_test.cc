// The Checkpointer: an LDM's part of a local checkpoint, scanned a chunk per step between the
// operations — rows changed or dropped meanwhile, logged tables only, paced, cancelled.
#include "engine/node/ldm/checkpointer.h"

#include <stdlib.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/node/ldm/ldm.h"
#include "engine/node/node_test_util.h"
#include "engine/redo/checkpoint.h"
#include "engine/schema/row.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

constexpr uint32_t kPartitions = 4;

class CheckpointerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = "/tmp/checkpointer_test.XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    table_ = testing::KeyValueTable(kPartitions);
    other_ = testing::KeyValueTable(kPartitions);
    other_->id = 2;
    other_->name = "u";
    DictionaryDelta delta;
    delta.created = {table_, other_};
    ldm_.Apply(delta);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Key(int id) const {
    schema::RowWriter w;
    w.BeginKey();
    w.Int(table_->columns[0], id);
    return std::string(w.view());
  }
  uint32_t PartitionOf(int id) const { return schema::KeyHash(Key(id)) % kPartitions; }
  // Writes row (id, v) of table `table_id` as committed.
  void Put(uint32_t table_id, int id, int v) {
    schema::RowWriter w;
    w.BeginRow(2);
    w.Int(table_->columns[0], id);
    w.Int(table_->columns[1], v);
    ASSERT_TRUE(ldm_.RestoreWrite(table_id, PartitionOf(id), w.view(), 1));
  }
  void Delete(uint32_t table_id, int id) {
    ASSERT_TRUE(ldm_.RestoreDelete(table_id, PartitionOf(id), Key(id), 1));
  }

  // Starts a checkpoint of `rows_per_step` rows a step, written on this thread.
  std::shared_ptr<CheckpointPart> Start(uint64_t rows_per_step, uint64_t bytes_per_second = 0) {
    auto part = std::make_shared<CheckpointPart>();
    part->id = 1;
    auto file = redo::CheckpointWriter::Create(dir_, 1, 0);
    EXPECT_TRUE(file.ok()) << file.status();
    part->file = std::move(*file);
    part->rows_per_step = rows_per_step;
    part->bytes_per_second = bytes_per_second;
    ldm_.StartCheckpoint(part, now_);
    return part;
  }
  // Steps until the scan is over; returns the steps that did something.
  int Run() {
    int steps = 0;
    while (ldm_.checkpointing()) steps += ldm_.CheckpointStep(now_) ? 1 : 0;
    return steps;
  }
  // The checkpoint's rows once finished: (table, id) → v, each read once.
  std::map<std::pair<uint32_t, int>, int> Read(CheckpointPart* part) {
    EXPECT_TRUE(part->scanned.load());
    EXPECT_TRUE(part->file->Finish().ok());
    std::map<std::pair<uint32_t, int>, int> rows;
    std::vector<uint16_t> columns = {0, 1};
    absl::Status read = redo::ReadCheckpoint(
        part->file->path(),
        [&](uint32_t table_id, uint32_t partition, absl::string_view, absl::string_view row) {
          schema::Field fields[2];
          size_t consumed = 0;
          ASSERT_TRUE(schema::SplitRow(*table_, columns, row, fields, &consumed));
          const int id = static_cast<int>(schema::FieldInt(table_->columns[0], fields[0].bytes));
          EXPECT_EQ(partition, PartitionOf(id));
          auto [it, inserted] =
              rows.emplace(std::make_pair(table_id, id),
                           static_cast<int>(schema::FieldInt(table_->columns[1], fields[1].bytes)));
          EXPECT_TRUE(inserted) << "row " << id << " of table " << table_id << " twice";
        },
        [](uint64_t, uint64_t) {});
    EXPECT_TRUE(read.ok()) << read;
    return rows;
  }

  std::string dir_;
  storage::MemoryBudget budget_{64 << 20};
  Ldm ldm_{PartitionPlacement{1, 1, 0, 1, 0}, &budget_, absl::Milliseconds(100)};
  std::shared_ptr<schema::TableDef> table_;
  std::shared_ptr<schema::TableDef> other_;
  absl::Time now_ = absl::FromUnixSeconds(1000);
};

TEST_F(CheckpointerTest, ScansEveryRowInChunks) {
  for (int id = 0; id < 100; ++id) Put(table_->id, id, id * 10);
  for (int id = 0; id < 30; ++id) Put(other_->id, id, -id);
  std::shared_ptr<CheckpointPart> part = Start(/*rows_per_step=*/10);
  const int steps = Run();
  EXPECT_GE(steps, 13);  // 130 rows, at most 10 a step
  EXPECT_LE(steps, 14);  // chunks span partitions: no step is wasted on an empty one
  EXPECT_EQ(part->rows.load(), 130u);
  auto rows = Read(part.get());
  ASSERT_EQ(rows.size(), 130u);
  for (int id = 0; id < 100; ++id) EXPECT_EQ((rows[{table_->id, id}]), id * 10);
  for (int id = 0; id < 30; ++id) EXPECT_EQ((rows[{other_->id, id}]), -id);
}

TEST_F(CheckpointerTest, RowsChangedMidScanAppearOnceWithAnImageTheyHad) {
  for (int id = 0; id < 200; ++id) Put(table_->id, id, 0);
  std::shared_ptr<CheckpointPart> part = Start(/*rows_per_step=*/20);
  ASSERT_TRUE(ldm_.CheckpointStep(now_));
  // Every row changes behind the scan, some go and new ones come: the checkpoint is fuzzy (the
  // redo from its start epoch fixes it), but never holds a row twice or one never written.
  for (int id = 0; id < 200; ++id) Put(table_->id, id, 1);
  for (int id = 0; id < 200; id += 3) Delete(table_->id, id);
  for (int id = 200; id < 220; ++id) Put(table_->id, id, 2);
  Run();
  auto rows = Read(part.get());
  int changed = 0;
  for (const auto& [key, v] : rows) {
    const int id = key.second;
    if (id >= 200) {
      EXPECT_EQ(v, 2);
    } else {
      EXPECT_TRUE(v == 0 || v == 1) << id;
      changed += v;
    }
  }
  // The rows not scanned before the changes (all but the first chunk) show them.
  EXPECT_GE(changed, 100);
  int kept = 0;
  for (int id = 0; id < 200; ++id) kept += (id % 3 != 0) && rows.contains({table_->id, id});
  EXPECT_EQ(kept, 133) << "every row that was never deleted is there";
  EXPECT_LE(rows.size(), 220u);
}

TEST_F(CheckpointerTest, TableDroppedMidScanIsSkipped) {
  for (int id = 0; id < 50; ++id) Put(table_->id, id, 1);
  for (int id = 0; id < 50; ++id) Put(other_->id, id, 2);
  std::shared_ptr<CheckpointPart> part = Start(/*rows_per_step=*/10);
  ASSERT_TRUE(ldm_.CheckpointStep(now_));
  DictionaryDelta drop;
  drop.dropped = {other_->id};
  ldm_.Apply(drop);  // in order with the steps, as it reaches the LDM thread
  Run();
  auto rows = Read(part.get());
  int of_table = 0;
  for (const auto& [key, v] : rows) of_table += key.first == table_->id;
  EXPECT_EQ(of_table, 50);
  EXPECT_EQ(rows.size(), 50u) << "the dropped table comes after: none of its rows";
}

TEST_F(CheckpointerTest, NonLoggedTablesAreLeftOut) {
  auto nolog = testing::KeyValueTable(kPartitions);
  nolog->id = 3;
  nolog->name = "n";
  nolog->comment = "NDB_TABLE=NOLOGGING=1";
  DictionaryDelta delta;
  delta.created = {nolog};
  ldm_.Apply(delta);
  for (int id = 0; id < 10; ++id) Put(nolog->id, id, 1);
  for (int id = 0; id < 10; ++id) Put(table_->id, id, 1);
  std::shared_ptr<CheckpointPart> part = Start(1000);
  Run();
  auto rows = Read(part.get());
  EXPECT_EQ(rows.size(), 10u);
  for (const auto& [key, v] : rows) EXPECT_EQ(key.first, table_->id);
}

TEST_F(CheckpointerTest, PacesItsStepsToTheWriteRate) {
  for (int id = 0; id < 100; ++id) Put(table_->id, id, 1);
  std::shared_ptr<CheckpointPart> part = Start(/*rows_per_step=*/10, /*bytes_per_second=*/1000);
  ASSERT_TRUE(ldm_.CheckpointStep(now_));
  const uint64_t handed = part->bytes_handed.load();
  ASSERT_GT(handed, 0u);
  EXPECT_FALSE(ldm_.CheckpointStep(now_)) << "the next chunk waits for its time";
  const absl::Duration due = absl::Seconds(static_cast<double>(handed) / 1000);
  EXPECT_FALSE(ldm_.CheckpointStep(now_ + due - absl::Milliseconds(1)));
  now_ += due;
  EXPECT_TRUE(ldm_.CheckpointStep(now_));
  EXPECT_TRUE(ldm_.checkpointing());
}

TEST_F(CheckpointerTest, CancelledPartIsDropped) {
  for (int id = 0; id < 100; ++id) Put(table_->id, id, 1);
  std::shared_ptr<CheckpointPart> part = Start(/*rows_per_step=*/10);
  ASSERT_TRUE(ldm_.CheckpointStep(now_));
  part->cancelled.store(true);
  EXPECT_FALSE(ldm_.CheckpointStep(now_));
  EXPECT_FALSE(ldm_.checkpointing());
  EXPECT_FALSE(part->scanned.load());
  EXPECT_EQ(part.use_count(), 1) << "the LDM let go of it";
}

TEST_F(CheckpointerTest, EmptyLdmFinishesInOneStep) {
  std::shared_ptr<CheckpointPart> part = Start(10);
  EXPECT_EQ(Run(), 1);
  EXPECT_TRUE(Read(part.get()).empty());
}

}  // namespace
}  // namespace shoal::node
