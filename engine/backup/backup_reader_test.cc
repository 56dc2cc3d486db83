// ReadPart over a part made by hand (a data file in the checkpoint format, a log of redo
// records, a manifest), and the choice of parts: one per node group.
#include "engine/backup/backup_reader.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/backup/backup_files.h"
#include "engine/backup/backup_test_util.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_record.h"
#include "engine/schema/row.h"
#include "engine/wire/dictionary.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::backup {
namespace {

using testing::Column;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;
using ::testing::UnorderedElementsAre;

constexpr uint32_t kBackupId = 7;
constexpr int kNode = 2;
constexpr uint32_t kPeople = 1;     // id INT, name VARCHAR: rows kept, overwritten, deleted
constexpr uint32_t kNames = 2;      // name VARCHAR _ci primary key, n INT
constexpr uint32_t kTruncated = 3;  // id INT, n INT: a partition truncated, then written
constexpr uint32_t kUnknown = 99;   // not in the dictionary

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

schema::TableDef Table(uint32_t id, const std::string& name, schema::ColumnDef first,
                       schema::ColumnDef second) {
  return testing::TwoColumnTable(id, name, std::move(first), std::move(second));
}

schema::TableDef People() {
  return Table(kPeople, "people", Column("id", schema::ColumnType::kInt),
               Column("name", schema::ColumnType::kVarChar));
}

schema::TableDef Names() {
  schema::ColumnDef name = Column("name", schema::ColumnType::kVarChar);
  name.collation = schema::Collation::kCaseInsensitive;
  return Table(kNames, "names", name, Column("n", schema::ColumnType::kInt));
}

schema::TableDef Truncated() {
  return Table(kTruncated, "truncated", Column("id", schema::ColumnType::kInt),
               Column("n", schema::ColumnType::kInt));
}

// Packed rows and keys of the tables above.
std::string IntText(int64_t id, absl::string_view text) {
  schema::RowWriter w;
  w.BeginRow(2);
  w.Int(People().columns[0], id);
  w.Bytes(text);
  return std::string(w.view());
}

std::string TextInt(absl::string_view text, int64_t n) {
  schema::RowWriter w;
  w.BeginRow(2);
  w.Bytes(text);
  w.Int(Names().columns[1], n);
  return std::string(w.view());
}

std::string IntInt(int64_t id, int64_t n) {
  schema::RowWriter w;
  w.BeginRow(2);
  w.Int(Truncated().columns[0], id);
  w.Int(Truncated().columns[1], n);
  return std::string(w.view());
}

std::string IntKey(int64_t id) {
  schema::RowWriter w;
  w.BeginKey();
  w.Int(People().columns[0], id);
  return std::string(w.view());
}

std::string TextKey(absl::string_view text) {
  schema::RowWriter w;
  w.BeginKey();
  w.Bytes(text);
  return std::string(w.view());
}

Manifest BaseManifest(int node_id, uint32_t group, uint32_t groups, uint64_t stop_epoch) {
  Manifest m;
  m.set_backup_id(kBackupId);
  m.set_node_id(static_cast<uint32_t>(node_id));
  m.set_node_group(group);
  m.set_node_groups(groups);
  m.set_stop_epoch(stop_epoch);
  return m;
}

// A part of node kNode in <dir>/BACKUP-7: the data file's rows, the log over them.
class PartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(tmp_.path(), "/", BackupDirName(kBackupId));
    std::filesystem::create_directory(dir_);
    WriteDataFile();
    WriteLog();
    Manifest m = BaseManifest(kNode, 0, 1, 10);
    m.set_checkpoint_id(3);
    m.set_replay_from(8);
    m.add_data_files(DataFileName(kBackupId, 0, kNode));
    m.set_log_file(LogFileName(kBackupId, kNode));
    wire::Dictionary dictionary;
    dictionary.add_databases("db");
    for (const schema::TableDef& t : {People(), Names(), Truncated()}) {
      schema::AppendTableDef(t, dictionary.add_tables());
    }
    m.set_dictionary(dictionary.SerializeAsString());
    m.set_log_records(log_records_);
    m.set_log_bytes(log_.size());
    ASSERT_TRUE(WriteManifest(dir_, m).ok());
    absl::StatusOr<Manifest> read =
        ReadManifest(absl::StrCat(dir_, "/", ManifestFileName(kBackupId, kNode)));
    ASSERT_TRUE(read.ok()) << read.status();
    part_ = Part{dir_, *read};
  }

  void WriteDataFile() {
    absl::StatusOr<std::unique_ptr<redo::CheckpointWriter>> writer =
        redo::CheckpointWriter::Create(dir_, 3, 0);
    ASSERT_TRUE(writer.ok()) << writer.status();
    // Rows without keys, as a data node's checkpointer writes them.
    (*writer)->AddRow(kPeople, 0, {}, IntText(1, "kept"));
    (*writer)->AddRow(kPeople, 1, {}, IntText(2, "old"));
    (*writer)->AddRow(kPeople, 0, {}, IntText(3, "deleted"));
    (*writer)->AddRow(kNames, 1, {}, TextInt("Ada", 1));
    (*writer)->AddRow(kTruncated, 0, {}, IntInt(1, 1));
    (*writer)->AddRow(kTruncated, 1, {}, IntInt(2, 2));
    (*writer)->AddRow(kUnknown, 0, {}, IntInt(1, 1));
    ASSERT_TRUE((*writer)->Finish().ok());
    std::filesystem::rename((*writer)->path(),
                            absl::StrCat(dir_, "/", DataFileName(kBackupId, 0, kNode)));
  }

  void WriteLog() {
    redo::AppendWrite(&log_, 9, kPeople, 1, IntKey(2), IntText(2, "new"));
    redo::AppendDelete(&log_, 9, kPeople, 0, IntKey(3));
    redo::AppendWrite(&log_, 9, kPeople, 1, IntKey(4), IntText(4, "logged"));
    // The log names a _ci key in its folded form: it replaces the data file's 'Ada'.
    redo::AppendWrite(&log_, 10, kNames, 1, TextKey("ada"), TextInt("ADA", 2));
    redo::AppendTruncate(&log_, 10, kTruncated, 0);
    redo::AppendWrite(&log_, 10, kTruncated, 0, IntKey(5), IntInt(5, 5));
    redo::AppendWrite(&log_, 10, kUnknown, 0, IntKey(1), IntInt(1, 2));
    log_records_ = 7;
    WriteFile(LogPath(), log_);
  }

  std::string LogPath() const { return absl::StrCat(dir_, "/", LogFileName(kBackupId, kNode)); }

  // Reads the part; rows by table name.
  absl::StatusOr<PartStats> Read(std::map<std::string, std::vector<std::string>>* rows) {
    uint64_t last_done = 0;
    uint64_t last_total = 0;
    absl::StatusOr<PartStats> stats = ReadPart(
        part_,
        [&](const schema::TableDef& table, absl::string_view row) {
          (*rows)[table.name].emplace_back(row);
          return absl::OkStatus();
        },
        [&](uint64_t done, uint64_t total) {
          EXPECT_GE(done, last_done);
          EXPECT_LE(done, total);
          last_done = done;
          last_total = total;
        });
    if (stats.ok()) {
      EXPECT_EQ(last_done, last_total);
      EXPECT_EQ(last_total, stats->bytes);
    }
    return stats;
  }

  TempDir tmp_;
  std::string dir_;
  std::string log_;
  uint64_t log_records_ = 0;
  Part part_;
};

TEST_F(PartTest, RowsAtTheStopEpoch) {
  std::map<std::string, std::vector<std::string>> rows;
  absl::StatusOr<PartStats> stats = Read(&rows);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_THAT(rows["people"],
              UnorderedElementsAre(IntText(1, "kept"), IntText(2, "new"), IntText(4, "logged")));
  EXPECT_THAT(rows["names"], ElementsAre(TextInt("ADA", 2)));
  EXPECT_THAT(rows["truncated"], UnorderedElementsAre(IntInt(2, 2), IntInt(5, 5)));
  EXPECT_EQ(rows.size(), 3u);
  EXPECT_EQ(stats->data_rows, 6u);
  EXPECT_EQ(stats->log_records, 6u);
  EXPECT_EQ(stats->skipped, 2u);
  EXPECT_EQ(stats->rows, 6u);
  EXPECT_EQ(stats->bytes, std::filesystem::file_size(LogPath()) +
                              std::filesystem::file_size(
                                  absl::StrCat(dir_, "/", DataFileName(kBackupId, 0, kNode))));
}

TEST_F(PartTest, RowsComeInTableOrder) {
  std::vector<std::string> tables;
  ASSERT_TRUE(ReadPart(
                  part_,
                  [&](const schema::TableDef& table, absl::string_view) {
                    if (tables.empty() || tables.back() != table.name) tables.push_back(table.name);
                    return absl::OkStatus();
                  },
                  [](uint64_t, uint64_t) {})
                  .ok());
  EXPECT_THAT(tables, ElementsAre("people", "names", "truncated"));
}

TEST_F(PartTest, AnErrorFromTheCallerStopsTheDelivery) {
  int delivered = 0;
  absl::StatusOr<PartStats> stats = ReadPart(
      part_,
      [&](const schema::TableDef&, absl::string_view) {
        return ++delivered == 2 ? absl::AbortedError("target refused") : absl::OkStatus();
      },
      [](uint64_t, uint64_t) {});
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(delivered, 2);
}

TEST_F(PartTest, CorruptLogIsDataLossAndDeliversNothing) {
  std::string bad = log_;
  bad[bad.size() / 2] ^= 0x40;
  WriteFile(LogPath(), bad);
  std::map<std::string, std::vector<std::string>> rows;
  absl::StatusOr<PartStats> stats = Read(&rows);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(stats.status().message(), HasSubstr(LogPath()));
  EXPECT_TRUE(rows.empty());
}

TEST_F(PartTest, TornLogIsDataLoss) {
  WriteFile(LogPath(), log_.substr(0, log_.size() - 3));
  std::map<std::string, std::vector<std::string>> rows;
  absl::StatusOr<PartStats> stats = Read(&rows);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(stats.status().message(), HasSubstr("into a record"));
  EXPECT_TRUE(rows.empty());
}

TEST_F(PartTest, LogCutAtARecordBorderIsDataLoss) {
  std::string shorter;
  redo::AppendWrite(&shorter, 9, kPeople, 1, IntKey(2), IntText(2, "new"));
  WriteFile(LogPath(), shorter);  // whole records, but fewer than the manifest says
  std::map<std::string, std::vector<std::string>> rows;
  absl::StatusOr<PartStats> stats = Read(&rows);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(stats.status().message(), HasSubstr("the manifest says"));
}

TEST_F(PartTest, CorruptOrMissingDataFile) {
  const std::string data = absl::StrCat(dir_, "/", DataFileName(kBackupId, 0, kNode));
  std::string bytes = ReadFile(data);
  bytes[bytes.size() / 2] ^= 1;
  WriteFile(data, bytes);
  std::map<std::string, std::vector<std::string>> rows;
  EXPECT_EQ(Read(&rows).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(CheckPartFiles(part_).ok());
  std::filesystem::remove(data);
  EXPECT_EQ(Read(&rows).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(rows.empty());
  absl::Status check = CheckPartFiles(part_);
  EXPECT_EQ(check.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(check.message(), HasSubstr(data));
}

TEST(BackupFilesTest, BackupIdsAreTheBackupDirectoriesInOrder) {
  TempDir dir;
  for (const char* name : {"BACKUP-12", "BACKUP-3", "BACKUP-x", "other"}) {
    std::filesystem::create_directories(dir.path() + "/" + name);
  }
  WriteFile(dir.path() + "/BACKUP-5", "a file, not a backup");
  EXPECT_THAT(BackupIds(dir.path()), ElementsAre(3u, 12u));
  EXPECT_TRUE(BackupIds(dir.path() + "/missing").empty());
}

TEST_F(PartTest, AManifestNamesFilesOfItsOwnDirectoryOnly) {
  for (const std::string name : {"../../etc/passwd", "/etc/passwd", "..", ""}) {
    Part part = part_;
    part.manifest.set_data_files(0, name);
    absl::Status check = CheckPartFiles(part);
    EXPECT_EQ(check.code(), absl::StatusCode::kDataLoss) << name;
    EXPECT_THAT(check.message(), HasSubstr("names a file outside")) << name;
  }
  Part part = part_;
  part.manifest.set_log_file("../log");
  EXPECT_EQ(CheckPartFiles(part).code(), absl::StatusCode::kDataLoss);
}

TEST_F(PartTest, MalformedDataRowIsDataLoss) {
  const std::string data = absl::StrCat(dir_, "/", DataFileName(kBackupId, 0, kNode));
  std::filesystem::remove(data);
  absl::StatusOr<std::unique_ptr<redo::CheckpointWriter>> writer =
      redo::CheckpointWriter::Create(dir_, 3, 0);
  ASSERT_TRUE(writer.ok());
  (*writer)->AddRow(kPeople, 0, {}, std::string("\x00\x01", 2));  // a bitmap, half an INT
  ASSERT_TRUE((*writer)->Finish().ok());
  std::filesystem::rename((*writer)->path(), data);
  std::map<std::string, std::vector<std::string>> rows;
  absl::StatusOr<PartStats> stats = Read(&rows);
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(stats.status().message(), HasSubstr("db.people is malformed"));
}

TEST_F(PartTest, FindPartsInNodeOrBackupDirectories) {
  // A second node's part, in a data node backup directory of its own.
  const std::string other = absl::StrCat(tmp_.path(), "/node3");
  const std::string other_backup = absl::StrCat(other, "/", BackupDirName(kBackupId));
  std::filesystem::create_directories(other_backup);
  Manifest m = part_.manifest;
  m.set_node_id(3);
  ASSERT_TRUE(WriteManifest(other_backup, m).ok());
  // Another backup's manifest beside it is not this backup's part.
  Manifest older = part_.manifest;
  older.set_backup_id(6);
  older.set_node_id(4);
  ASSERT_TRUE(WriteManifest(other_backup, older).ok());

  absl::StatusOr<std::vector<Part>> parts =
      FindParts(kBackupId, {dir_, other, tmp_.path() + "/" + BackupDirName(kBackupId) + "/"});
  ASSERT_TRUE(parts.ok()) << parts.status();
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[0].dir, dir_);
  EXPECT_EQ((*parts)[0].manifest.node_id(), 2u);
  EXPECT_EQ((*parts)[1].dir, other_backup);
  EXPECT_EQ((*parts)[1].manifest.node_id(), 3u);

  absl::StatusOr<std::vector<Part>> missing = FindParts(kBackupId, {tmp_.path() + "/nowhere"});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("no BACKUP-7 directory"));

  WriteFile(absl::StrCat(other_backup, "/", ManifestFileName(kBackupId, 3)), "garbage");
  EXPECT_EQ(FindParts(kBackupId, {other}).status().code(), absl::StatusCode::kDataLoss);
}

std::vector<Part> Parts(std::vector<Manifest> manifests) {
  std::vector<Part> parts;
  for (Manifest& m : manifests) parts.push_back(Part{"/dir", std::move(m)});
  return parts;
}

TEST(ChoosePartsTest, OnePartPerNodeGroupTheLowestNodeId) {
  absl::StatusOr<std::vector<Part>> chosen =
      ChooseParts(Parts({BaseManifest(5, 1, 2, 10), BaseManifest(3, 0, 2, 10),
                         BaseManifest(4, 1, 2, 10), BaseManifest(2, 0, 2, 10)}));
  ASSERT_TRUE(chosen.ok()) << chosen.status();
  ASSERT_EQ(chosen->size(), 2u);
  EXPECT_EQ((*chosen)[0].manifest.node_id(), 2u);
  EXPECT_EQ((*chosen)[1].manifest.node_id(), 4u);
}

TEST(ChoosePartsTest, RefusesIncompleteOrInconsistentSets) {
  absl::StatusOr<std::vector<Part>> chosen =
      ChooseParts(Parts({BaseManifest(2, 0, 2, 10), BaseManifest(3, 0, 2, 10)}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(chosen.status().message(), HasSubstr("no part of node group 1"));
  EXPECT_THAT(chosen.status().message(), HasSubstr("nodes 2, 3"));

  chosen = ChooseParts(Parts({BaseManifest(2, 0, 2, 10), BaseManifest(4, 1, 2, 11)}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(chosen.status().message(), HasSubstr("stop epoch"));

  chosen = ChooseParts(Parts({BaseManifest(2, 0, 2, 10), BaseManifest(4, 1, 3, 10)}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(chosen.status().message(), HasSubstr("number of node groups"));

  Manifest other = BaseManifest(4, 1, 2, 10);
  other.set_backup_id(kBackupId + 1);
  chosen = ChooseParts(Parts({BaseManifest(2, 0, 2, 10), other}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(chosen.status().message(), HasSubstr("different backups"));

  chosen = ChooseParts(Parts({BaseManifest(2, 2, 2, 10)}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kDataLoss);
  chosen = ChooseParts(Parts({BaseManifest(2, 0, 0, 10)}));
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kDataLoss);

  EXPECT_EQ(ChooseParts({}).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace shoal::backup
