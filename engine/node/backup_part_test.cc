// A data node's part of a backup written from a data directory made by hand (a local
// checkpoint, redo segments, a node state) and read back as shoal-restore reads it: the rows
// are those of the stop epoch — no record of a later epoch, none of an earlier one twice.
#include "engine/node/backup_part.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/backup/backup_files.h"
#include "engine/backup/backup_reader.h"
#include "engine/backup/backup_test_util.h"
#include "engine/node/node_files.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_log.h"
#include "engine/redo/redo_record.h"
#include "engine/schema/row.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr uint32_t kTable = 5;
constexpr int kNode = 3;

// id INT PRIMARY KEY, n INT, in 2 partitions.
schema::TableDef Table() {
  return backup::testing::TwoColumnTable(kTable, "t",
                                         backup::testing::Column("id", schema::ColumnType::kInt),
                                         backup::testing::Column("n", schema::ColumnType::kInt));
}

std::string Row(int64_t id, int64_t n) {
  schema::RowWriter w;
  w.BeginRow(2);
  w.Int(Table().columns[0], id);
  w.Int(Table().columns[1], n);
  return std::string(w.view());
}

std::string Key(int64_t id) {
  std::string key;
  EXPECT_TRUE(schema::KeyOfRow(Table(), 0, Row(id, 0), &key));
  return key;
}

class BackupPartTest : public ::testing::Test {
 protected:
  BackupPartTest() : root_(temp_.path()), data_dir_(root_ + "/data") {
    std::filesystem::create_directories(RedoDir(data_dir_));
    std::filesystem::create_directories(CheckpointDir(data_dir_));
  }

  // Checkpoint 1 of LDM 0: rows 1 → 10 and 2 → 20, taken over epochs 5..7.
  void WriteCheckpoint() {
    auto writer = redo::CheckpointWriter::Create(CheckpointDir(data_dir_), 1, 0);
    ASSERT_TRUE(writer.ok()) << writer.status();
    (*writer)->AddRow(kTable, 0, {}, Row(1, 10));
    (*writer)->AddRow(kTable, 1, {}, Row(2, 20));
    ASSERT_TRUE((*writer)->Write((*writer)->TakeBuffered()).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
  }

  // The redo of run 1, LDM 0: a record before the checkpoint's start, records of the epochs
  // the backup holds, one after its stop epoch, and the saved marks.
  void WriteRedo(uint64_t saved) {
    std::string bytes;
    redo::AppendWrite(&bytes, 4, kTable, 0, Key(1), Row(1, 4));  // before replay_from: in ckpt
    redo::AppendWrite(&bytes, 6, kTable, 0, Key(3), Row(3, 30));
    redo::AppendWrite(&bytes, 8, kTable, 0, Key(1), Row(1, 11));
    redo::AppendDelete(&bytes, 8, kTable, 1, Key(2));
    redo::AppendEpochSaved(&bytes, saved);
    redo::AppendWrite(&bytes, 10, kTable, 0, Key(3), Row(3, 99));  // after the stop epoch
    std::ofstream(absl::StrCat(RedoDir(data_dir_), "/", redo::RedoLog::SegmentName(1, 0, 1)),
                  std::ios::binary)
        << bytes;
  }

  BackupPartRequest Request(uint64_t stop_epoch) {
    BackupPartRequest request;
    request.backup_id = 4;
    request.node_id = kNode;
    request.node_group = 0;
    request.node_groups = 1;
    request.stop_epoch = stop_epoch;
    request.data_dir = data_dir_;
    request.backup_dir = root_ + "/backups";
    request.state.run = 1;
    request.state.restorable_from = 1;
    request.state.checkpoint_id = 1;
    request.state.checkpoint_start_epoch = 5;
    request.state.checkpoint_end_epoch = 7;
    request.state.ldm_count = 1;
    std::string table;
    schema::AppendTableDef(Table(), &table);
    request.dictionary.add_tables(table);
    request.dictionary.add_databases("db");
    return request;
  }

  std::string PartDir() const { return root_ + "/backups/BACKUP-4"; }

  // What a restore reads back: id → n.
  std::map<int64_t, int64_t> Restored() {
    std::map<int64_t, int64_t> rows;
    auto parts = backup::FindParts(4, {root_ + "/backups"});
    EXPECT_TRUE(parts.ok()) << parts.status();
    EXPECT_EQ(parts->size(), 1u);
    auto stats = backup::ReadPart(
        parts->front(),
        [&](const schema::TableDef& table, absl::string_view row) {
          std::vector<uint16_t> columns = {0, 1};
          schema::Field fields[2];
          size_t consumed = 0;
          EXPECT_TRUE(schema::SplitRow(table, columns, row, fields, &consumed));
          rows[schema::FieldInt(table.columns[0], fields[0].bytes)] =
              schema::FieldInt(table.columns[1], fields[1].bytes);
          return absl::OkStatus();
        },
        [](uint64_t, uint64_t) {});
    EXPECT_TRUE(stats.ok()) << stats.status();
    return rows;
  }

  backup::testing::TempDir temp_{"backup_part_test"};
  const std::string root_;
  const std::string data_dir_;
};

TEST_F(BackupPartTest, HoldsTheCheckpointAndTheRedoUpToTheStopEpoch) {
  WriteCheckpoint();
  WriteRedo(/*saved=*/9);
  std::atomic<bool> cancelled{false};
  absl::StatusOr<backup::Manifest> manifest = WriteBackupPart(Request(9), cancelled);
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->checkpoint_id(), 1u);
  EXPECT_EQ(manifest->replay_from(), 5u);
  EXPECT_EQ(manifest->stop_epoch(), 9u);
  EXPECT_EQ(manifest->data_rows(), 2u);
  EXPECT_EQ(manifest->log_records(), 3u);  // epochs 6 and 8: not 4, not 10, no marks
  EXPECT_THAT(manifest->data_files(), ElementsAre("BACKUP-4-0.3.data"));
  EXPECT_TRUE(std::filesystem::exists(PartDir() + "/BACKUP-4.3.ctl"));
  // Linked, not copied: the checkpoint file and the backup's are one file.
  EXPECT_EQ(std::filesystem::hard_link_count(PartDir() + "/BACKUP-4-0.3.data"), 2u);
  EXPECT_THAT(Restored(), ElementsAre(Pair(1, 11), Pair(3, 30)));
}

TEST_F(BackupPartTest, ACheckpointWrittenAgainUnderItsIdLeavesTheBackupsLinkAlone) {
  WriteCheckpoint();
  WriteRedo(/*saved=*/9);
  std::atomic<bool> cancelled{false};
  ASSERT_TRUE(WriteBackupPart(Request(9), cancelled).ok());
  // After a restore the node's checkpoint ids start again at 1.
  auto writer = redo::CheckpointWriter::Create(CheckpointDir(data_dir_), 1, 0);
  ASSERT_TRUE(writer.ok()) << writer.status();
  (*writer)->AddRow(kTable, 0, {}, Row(7, 70));
  ASSERT_TRUE((*writer)->Write((*writer)->TakeBuffered()).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_THAT(Restored(), ElementsAre(Pair(1, 11), Pair(3, 30)));
}

TEST_F(BackupPartTest, WithoutACheckpointTheLogHoldsEverything) {
  WriteRedo(/*saved=*/9);
  BackupPartRequest request = Request(9);
  request.state.checkpoint_id = 0;
  request.state.checkpoint_start_epoch = request.state.checkpoint_end_epoch = 0;
  std::atomic<bool> cancelled{false};
  absl::StatusOr<backup::Manifest> manifest = WriteBackupPart(request, cancelled);
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->checkpoint_id(), 0u);
  EXPECT_TRUE(manifest->data_files().empty());
  EXPECT_EQ(manifest->log_records(), 4u);
  EXPECT_THAT(Restored(), ElementsAre(Pair(1, 11), Pair(3, 30)));
}

TEST_F(BackupPartTest, ACheckpointThatEndedAfterTheStopEpochIsNotUsed) {
  WriteCheckpoint();
  WriteRedo(/*saved=*/9);
  BackupPartRequest request = Request(6);  // checkpoint 1 ended at 7: rows of 7 may be in it
  request.state.checkpoint_id = 0;
  request.state.prev_checkpoint_id = 1;
  request.state.prev_checkpoint_start_epoch = 5;
  request.state.prev_checkpoint_end_epoch = 7;
  std::atomic<bool> cancelled{false};
  absl::StatusOr<backup::Manifest> manifest = WriteBackupPart(request, cancelled);
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->checkpoint_id(), 0u);
  EXPECT_THAT(Restored(), ElementsAre(Pair(1, 4), Pair(3, 30)));
}

TEST_F(BackupPartTest, RefusesWhatTheDiskCannotRestoreAndLeavesNothing) {
  WriteCheckpoint();
  WriteRedo(/*saved=*/8);
  std::atomic<bool> cancelled{false};
  absl::StatusOr<backup::Manifest> manifest = WriteBackupPart(Request(9), cancelled);
  EXPECT_EQ(manifest.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(manifest.status().message(), HasSubstr("holds epochs up to 8 only, not 9"));
  EXPECT_FALSE(std::filesystem::exists(PartDir()));

  BackupPartRequest copying = Request(8);
  copying.state.restorable_from = 0;
  manifest = WriteBackupPart(copying, cancelled);
  EXPECT_EQ(manifest.status().code(), absl::StatusCode::kFailedPrecondition);

  cancelled = true;
  manifest = WriteBackupPart(Request(8), cancelled);
  EXPECT_EQ(manifest.status().code(), absl::StatusCode::kCancelled);
  EXPECT_FALSE(std::filesystem::exists(PartDir()));
}

TEST_F(BackupPartTest, RemovingAPartKeepsOtherNodesFiles) {
  std::filesystem::create_directories(PartDir());
  for (const char* name : {"BACKUP-4.3.ctl", "BACKUP-4.3.log", "BACKUP-4.13.ctl"}) {
    std::ofstream(PartDir() + "/" + name) << "x";
  }
  RemoveBackupPart(root_ + "/backups", 4, kNode);
  EXPECT_FALSE(std::filesystem::exists(PartDir() + "/BACKUP-4.3.ctl"));
  EXPECT_TRUE(std::filesystem::exists(PartDir() + "/BACKUP-4.13.ctl"));
  RemoveBackupPart(root_ + "/backups", 4, 13);
  EXPECT_FALSE(std::filesystem::exists(PartDir()));
}

}  // namespace
}  // namespace shoal::node
