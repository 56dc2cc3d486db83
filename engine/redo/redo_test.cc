#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/crc32c.h"
#include "engine/redo/node_state.h"
#include "engine/redo/redo_log.h"
#include "engine/redo/redo_reader.h"
#include "engine/redo/redo_record.h"
#include "engine/redo/redo_writer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::redo {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// A fresh directory under /tmp, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string templ = "/tmp/redo_test.XXXXXX";
    char* made = mkdtemp(templ.data());
    EXPECT_NE(made, nullptr);
    path_ = templ;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// A plain bit-at-a-time CRC-32C, to check the table-driven one against.
uint32_t SlowCrc32c(absl::string_view data) {
  uint32_t crc = ~0u;
  for (unsigned char c : data) {
    crc ^= c;
    for (int i = 0; i < 8; ++i) crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78 : 0);
  }
  return ~crc;
}

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8A9136AAu);  // RFC 3720 B.4
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(Crc32c(ascending), 0x46DD794Eu);
}

TEST(Crc32cTest, MatchesBitwiseAndContinues) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>(i * 7919 % 251));
  for (size_t len : {0, 1, 7, 8, 9, 63, 64, 65, 1000}) {
    absl::string_view part(data.data(), len);
    EXPECT_EQ(Crc32c(part), SlowCrc32c(part)) << len;
    EXPECT_EQ(Crc32cTables(part), SlowCrc32c(part)) << len;
    for (size_t split = 0; split <= len; split += 13) {
      EXPECT_EQ(Crc32c(part.substr(split), Crc32c(part.substr(0, split))), Crc32c(part));
      EXPECT_EQ(Crc32cTables(part.substr(split), Crc32cTables(part.substr(0, split))),
                Crc32c(part));
    }
  }
}

// ---- records ----

std::string EncodeAllKinds() {
  std::string out;
  AppendWrite(&out, 7, 3, 11, "key", "row-bytes");
  AppendWrite(&out, 8, 4, 0, "", "");
  AppendDelete(&out, 9, 5, 2, "gone");
  AppendEpochSaved(&out, 9);
  AppendTruncate(&out, 10, 6, 1);
  return out;
}

TEST(RedoRecordTest, RoundTripsEveryKind) {
  std::string buf = EncodeAllKinds();
  std::vector<Record> records;
  absl::string_view in = buf;
  while (!in.empty()) {
    Record r;
    size_t used = 0;
    std::string why;
    ASSERT_EQ(ParseRecord(in, &r, &used, &why), ParseResult::kOk) << why;
    records.push_back(r);
    in.remove_prefix(used);
  }
  ASSERT_EQ(records.size(), 5u);
  EXPECT_EQ(records[0].type, RecordType::kWrite);
  EXPECT_EQ(records[0].epoch, 7u);
  EXPECT_EQ(records[0].table_id, 3u);
  EXPECT_EQ(records[0].partition, 11u);
  EXPECT_EQ(records[0].key, "key");
  EXPECT_EQ(records[0].row, "row-bytes");
  EXPECT_EQ(records[1].key, "");
  EXPECT_EQ(records[1].row, "");
  EXPECT_EQ(records[2].type, RecordType::kDelete);
  EXPECT_EQ(records[2].key, "gone");
  EXPECT_EQ(records[2].partition, 2u);
  EXPECT_EQ(records[3].type, RecordType::kEpochSaved);
  EXPECT_EQ(records[3].epoch, 9u);
  EXPECT_EQ(records[4].type, RecordType::kTruncate);
  EXPECT_EQ(records[4].table_id, 6u);
  EXPECT_EQ(records[4].partition, 1u);
  std::string one;
  AppendWrite(&one, 7, 3, 11, "key", "row-bytes");
  EXPECT_EQ(WriteRecordSize(3, 9), one.size());
}

TEST(RedoRecordTest, EveryTruncationIsIncomplete) {
  std::string buf;
  AppendWrite(&buf, 42, 1, 2, "some key", "some row");
  for (size_t len = 0; len < buf.size(); ++len) {
    Record r;
    size_t used = 0;
    std::string why;
    EXPECT_EQ(ParseRecord(absl::string_view(buf.data(), len), &r, &used, &why),
              ParseResult::kIncomplete)
        << len;
  }
}

TEST(RedoRecordTest, FlippedBytesAreCorrupt) {
  std::string buf;
  AppendWrite(&buf, 42, 1, 2, "some key", "some row");
  for (size_t i = 0; i < buf.size(); ++i) {
    for (int bit : {0, 3, 7}) {
      std::string bad = buf;
      bad[i] ^= static_cast<char>(1 << bit);
      Record r;
      size_t used = 0;
      std::string why;
      ParseResult result = ParseRecord(bad, &r, &used, &why);
      if (i < 4) {
        // A longer length reads as a record that continues past the end (a torn tail).
        EXPECT_NE(result, ParseResult::kOk) << i;
      } else {
        EXPECT_EQ(result, ParseResult::kCorrupt) << i << " bit " << bit;
        EXPECT_THAT(why, Not(IsEmpty()));
      }
    }
  }
}

TEST(RedoRecordTest, HugeOrTinyLengthIsCorrupt) {
  std::string buf = "\xff\xff\xff\x7f";  // ~2 GiB, far above kMaxBodyLength
  Record r;
  size_t used = 0;
  std::string why;
  EXPECT_EQ(ParseRecord(buf, &r, &used, &why), ParseResult::kCorrupt);
  EXPECT_THAT(why, HasSubstr("exceeds"));
  buf = std::string("\x02\0\0\0\0\0\0\0xx", 10);
  EXPECT_EQ(ParseRecord(buf, &r, &used, &why), ParseResult::kCorrupt);
}

TEST(RedoRecordTest, BadLayoutUnderAValidChecksumIsCorrupt) {
  // A kTruncate body with one byte too many, checksummed properly.
  std::string body;
  body.push_back(static_cast<char>(RecordType::kTruncate));
  body.append(8 + 8 + 1, '\0');
  std::string buf;
  uint32_t length = static_cast<uint32_t>(body.size());
  uint32_t crc = Crc32c(body);
  buf.append(reinterpret_cast<const char*>(&length), 4);
  buf.append(reinterpret_cast<const char*>(&crc), 4);
  buf += body;
  Record r;
  size_t used = 0;
  std::string why;
  EXPECT_EQ(ParseRecord(buf, &r, &used, &why), ParseResult::kCorrupt);
  EXPECT_THAT(why, HasSubstr("truncate"));
  buf[8] = 99;  // unknown type (the checksum now fails first, which is fine too)
  EXPECT_EQ(ParseRecord(buf, &r, &used, &why), ParseResult::kCorrupt);
}

// ---- logs, the writer, the reader ----

struct Seen {
  RecordType type;
  uint64_t epoch;
  uint32_t partition;
  std::string key;
};

// Every record of one file, markers included, parsed directly.
std::vector<Seen> ParseFile(const std::string& path) {
  std::string bytes = ReadFile(path);
  std::vector<Seen> out;
  absl::string_view in = bytes;
  Record r;
  size_t used;
  std::string why;
  while (ParseRecord(in, &r, &used, &why) == ParseResult::kOk) {
    out.push_back({r.type, r.epoch, r.partition, std::string(r.key)});
    in.remove_prefix(used);
  }
  return out;
}

absl::StatusOr<ReplayStats> Replay(
    const std::string& dir, uint64_t from, uint64_t to, std::vector<Seen>* seen,
    std::vector<std::pair<std::string, uint64_t>>* max_epochs = nullptr) {
  return ReplayRedo(
      dir, from, to,
      [&](const Record& r) {
        seen->push_back({r.type, r.epoch, r.partition, std::string(r.key)});
      },
      [](uint64_t done, uint64_t total) { EXPECT_LE(done, total); }, max_epochs);
}

std::string SegmentPath(const std::string& dir, uint32_t run, int ldm, uint64_t seq) {
  return dir + "/" + RedoLog::SegmentName(run, ldm, seq);
}

// Collects Save results (std::mutex: ThreadSanitizer cannot see Debian's abseil synchronize).
class SaveResults {
 public:
  std::function<void(absl::Status)> Callback() {
    return [this](absl::Status status) {
      std::lock_guard<std::mutex> lock(mu_);
      statuses_.push_back(std::move(status));
      cv_.notify_all();
    };
  }
  std::vector<absl::Status> WaitFor(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return statuses_.size() >= n; });
    return statuses_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<absl::Status> statuses_;
};

TEST(RedoLogTest, WriterEndToEndWithConcurrentSaves) {
  TempDir dir;
  constexpr int kLdms = 2;
  constexpr int kRecords = 5000;
  constexpr uint64_t kEpochs = 20;
  std::vector<std::unique_ptr<RedoLog>> logs;
  RedoWriter writer(RedoWriter::Options{absl::Milliseconds(1)});
  for (int l = 0; l < kLdms; ++l) {
    logs.push_back(std::make_unique<RedoLog>(dir.path(), 1, l, 64 << 10));
    writer.AddLog(logs.back().get());
  }
  writer.Start();

  // The epoch protocol the data node follows: a record takes the current epoch under a lock
  // the epoch bump also takes, so once the bump is done every record of the old epoch has been
  // appended, and Save(old) must put its marker after all of them.
  std::mutex epoch_mu;
  uint64_t epoch = 1;
  std::vector<std::thread> ldms;
  for (int l = 0; l < kLdms; ++l) {
    ldms.emplace_back([&, l] {
      for (int i = 0; i < kRecords; ++i) {
        std::lock_guard<std::mutex> lock(epoch_mu);
        std::string key = absl::StrCat("k", i);
        if (i % 7 == 3) {
          logs[l]->AppendDelete(epoch, 1, static_cast<uint32_t>(l), key);
        } else {
          logs[l]->AppendWrite(epoch, 1, static_cast<uint32_t>(l), key, std::string(i % 50, 'r'));
        }
      }
    });
  }
  SaveResults results;
  for (uint64_t e = 1; e <= kEpochs; ++e) {
    {
      std::lock_guard<std::mutex> lock(epoch_mu);
      epoch = e + 1;
    }
    writer.Save(e, results.Callback());
    if (e % 5 == 0) writer.Post([&writer, e] { EXPECT_GE(writer.saved_epoch(), e); });
  }
  for (std::thread& t : ldms) t.join();
  writer.Save(kEpochs + 1, results.Callback());
  for (const absl::Status& s : results.WaitFor(kEpochs + 1)) EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(writer.saved_epoch(), kEpochs + 1);
  EXPECT_TRUE(writer.healthy());
  writer.Stop();

  // Directly: per stream every record in order, and no record after a marker at or below it.
  absl::StatusOr<std::vector<SegmentInfo>> segments = RedoLog::ListSegments(dir.path());
  ASSERT_TRUE(segments.ok());
  EXPECT_GT(segments->size(), 2u);  // rolled over at 64 KiB
  std::vector<std::vector<Seen>> streams(kLdms);
  for (const SegmentInfo& s : *segments) {
    EXPECT_EQ(s.run, 1u);
    for (Seen& seen : ParseFile(s.path)) streams[s.ldm].push_back(std::move(seen));
  }
  for (int l = 0; l < kLdms; ++l) {
    int next = 0;
    uint64_t marker = 0;
    uint64_t last_epoch = 0;
    for (const Seen& seen : streams[l]) {
      if (seen.type == RecordType::kEpochSaved) {
        EXPECT_GT(seen.epoch, marker);
        marker = seen.epoch;
        continue;
      }
      EXPECT_EQ(seen.key, absl::StrCat("k", next++));
      EXPECT_GT(seen.epoch, marker) << "a record of a saved epoch after its marker";
      EXPECT_GE(seen.epoch, last_epoch);
      last_epoch = seen.epoch;
    }
    EXPECT_EQ(next, kRecords);
    EXPECT_EQ(marker, kEpochs + 1);
  }

  // Through the reader: everything, then an epoch window.
  std::vector<Seen> all;
  absl::StatusOr<ReplayStats> stats = Replay(dir.path(), 0, UINT64_MAX, &all);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->applied, 2u * kRecords);
  EXPECT_EQ(stats->saved_epoch, kEpochs + 1);
  EXPECT_THAT(stats->stopped, IsEmpty());
  EXPECT_EQ(*SavedEpoch(dir.path()), kEpochs + 1);
  uint64_t bytes = 0;
  for (const auto& log : logs) bytes += log->bytes_written();
  EXPECT_EQ(stats->bytes, bytes);

  std::vector<Seen> window;
  ASSERT_TRUE(Replay(dir.path(), 3, 5, &window).ok());
  std::vector<Seen> expected;
  for (const Seen& s : all) {
    if (s.epoch >= 3 && s.epoch <= 5) expected.push_back(s);
  }
  ASSERT_EQ(window.size(), expected.size());
  for (size_t i = 0; i < window.size(); ++i) {
    EXPECT_EQ(window[i].key, expected[i].key);
    EXPECT_EQ(window[i].epoch, expected[i].epoch);
  }
}

// Writes `n` records of epoch 1 into log (run 1, ldm) and saves epoch 1.
void WriteRecords(const std::string& dir, int ldm, int n) {
  RedoLog log(dir, 1, ldm);
  for (int i = 0; i < n; ++i) log.AppendWrite(1, 1, 0, absl::StrCat("k", i), "row");
  ASSERT_TRUE(log.Flush(1).ok());
}

TEST(RedoLogTest, TornTailStopsTheStreamThere) {
  TempDir dir;
  WriteRecords(dir.path(), 0, 10);
  std::string path = SegmentPath(dir.path(), 1, 0, 0);
  std::string bytes = ReadFile(path);
  // Drop the marker and half of the last write record.
  std::string one;
  AppendWrite(&one, 1, 1, 0, "k9", "row");
  std::string marker;
  AppendEpochSaved(&marker, 1);
  size_t cut = bytes.size() - marker.size() - one.size() / 2;
  ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(cut)), 0);

  std::vector<Seen> seen;
  absl::StatusOr<ReplayStats> stats = Replay(dir.path(), 0, 100, &seen);
  ASSERT_TRUE(stats.ok());
  ASSERT_EQ(seen.size(), 9u);
  EXPECT_EQ(seen.back().key, "k8");
  EXPECT_THAT(stats->stopped, HasSubstr(path));
  EXPECT_THAT(stats->stopped, HasSubstr("torn"));
  EXPECT_THAT(stats->stopped,
              HasSubstr(absl::StrCat("offset ", bytes.size() - marker.size() - one.size())));
  EXPECT_EQ(stats->saved_epoch, 0u);  // the marker went with the tail
}

TEST(RedoLogTest, CorruptByteStopsOnlyItsStream) {
  TempDir dir;
  WriteRecords(dir.path(), 0, 10);
  WriteRecords(dir.path(), 1, 10);
  std::string path = SegmentPath(dir.path(), 1, 0, 0);
  std::string bytes = ReadFile(path);
  std::string one;
  AppendWrite(&one, 1, 1, 0, "k0", "row");  // every record here has the same size
  bytes[4 * one.size() + 12] ^= 0x40;       // inside the fifth record's body
  WriteFile(path, bytes);

  std::vector<Seen> seen;
  absl::StatusOr<ReplayStats> stats = Replay(dir.path(), 0, 100, &seen);
  ASSERT_TRUE(stats.ok());
  ASSERT_EQ(seen.size(), 4u + 10u);  // ldm 0 up to the damage, all of ldm 1
  EXPECT_EQ(seen[3].key, "k3");
  EXPECT_EQ(seen[4].key, "k0");
  EXPECT_THAT(stats->stopped, HasSubstr(absl::StrCat(path, " at offset ", 4 * one.size())));
  EXPECT_THAT(stats->stopped, HasSubstr("checksum"));
  EXPECT_THAT(stats->stopped,
              HasSubstr(absl::StrCat(bytes.size() - 4 * one.size(), " bytes ignored")));
  EXPECT_EQ(stats->saved_epoch, 0u);  // ldm 0's marker was after the damage
}

TEST(RedoLogTest, RecordsSpanningReadChunksAreRead) {
  TempDir dir;
  {
    RedoLog log(dir.path(), 1, 0);
    // 3 MiB rows and small ones, so that records straddle the reader's 1 MiB chunks.
    for (int i = 0; i < 6; ++i) {
      log.AppendWrite(1, 1, 0, absl::StrCat("big", i), std::string(3 << 20, 'a' + i));
      log.AppendWrite(1, 1, 0, absl::StrCat("small", i), "x");
    }
    ASSERT_TRUE(log.Flush(1).ok());
  }
  std::vector<std::string> rows;
  uint64_t last_done = 0;
  absl::StatusOr<ReplayStats> stats = ReplayRedo(
      dir.path(), 0, 10, [&](const Record& r) { rows.emplace_back(r.row); },
      [&](uint64_t done, uint64_t total) {
        EXPECT_GE(done, last_done);
        EXPECT_LE(done, total);
        last_done = done;
      },
      nullptr);
  ASSERT_TRUE(stats.ok());
  ASSERT_EQ(rows.size(), 12u);
  EXPECT_EQ(rows[10], std::string(3 << 20, 'f'));
  EXPECT_EQ(stats->saved_epoch, 1u);
}

TEST(RedoLogTest, RolloverAndTrim) {
  TempDir dir;
  RedoLog log(dir.path(), 1, 0, /*segment_bytes=*/200);
  for (uint64_t e = 1; e <= 10; ++e) {
    for (int i = 0; i < 3; ++i)
      log.AppendWrite(e, 1, 0, absl::StrCat("k", e, "-", i), std::string(60, 'r'));
    ASSERT_TRUE(log.Flush(e).ok());
  }
  absl::StatusOr<std::vector<SegmentInfo>> before = RedoLog::ListSegments(dir.path());
  ASSERT_TRUE(before.ok());
  ASSERT_EQ(before->size(), 10u);  // each flush passes 200 bytes and rolls
  for (size_t i = 0; i < before->size(); ++i) EXPECT_EQ((*before)[i].seq, i);
  // Segment e holds epoch e's records and marker.
  std::vector<std::pair<std::string, uint64_t>> segments = log.segments();
  ASSERT_EQ(segments.size(), 10u);
  EXPECT_EQ(segments[4].second, 5u);

  log.TrimBelow(5);  // segments 1..4 go
  absl::StatusOr<std::vector<SegmentInfo>> after = RedoLog::ListSegments(dir.path());
  ASSERT_EQ(after->size(), 6u);
  EXPECT_EQ(after->front().seq, 4u);
  std::vector<Seen> seen;
  absl::StatusOr<ReplayStats> stats = Replay(dir.path(), 0, 100, &seen);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(seen.size(), 18u);
  EXPECT_EQ(seen.front().key, "k5-0");
  EXPECT_EQ(stats->saved_epoch, 10u);

  // The open segment is never trimmed: one more write keeps a segment open.
  log.AppendWrite(11, 1, 0, "last", "row");
  ASSERT_TRUE(log.Flush(0).ok());
  log.TrimBelow(1000);
  after = RedoLog::ListSegments(dir.path());
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ(after->front().seq, 10u);
}

TEST(RedoLogTest, OldRunsAreAdoptedAndTrimmedAndSavedEpochIsTheLastRuns) {
  TempDir dir;
  {
    // Every flush (a record and a marker, 50 bytes) fills a 40-byte segment.
    RedoLog a(dir.path(), 1, 0, 40);
    RedoLog b(dir.path(), 1, 1, 40);
    for (uint64_t e = 1; e <= 4; ++e) {
      a.AppendWrite(e, 1, 0, "a", "row");
      b.AppendWrite(e, 1, 1, "b", "row");
      ASSERT_TRUE(a.Flush(e).ok());
      ASSERT_TRUE(b.Flush(e).ok());
    }
  }
  EXPECT_EQ(*SavedEpoch(dir.path()), 4u);
  std::vector<std::pair<std::string, uint64_t>> max_epochs;
  std::vector<Seen> seen;
  ASSERT_TRUE(Replay(dir.path(), 0, 100, &seen, &max_epochs).ok());
  ASSERT_EQ(max_epochs.size(), 8u);
  EXPECT_EQ(max_epochs[0], std::make_pair(SegmentPath(dir.path(), 1, 0, 0), uint64_t{1}));

  // The next start: run 2, where ldm 0 saved up to 6 and ldm 1 only up to 5.
  RedoLog a(dir.path(), 2, 0);
  RedoLog b(dir.path(), 2, 1);
  std::vector<std::pair<std::string, uint64_t>> mine;
  for (auto& segment : max_epochs) {
    if (segment.first.find("-l00-") != std::string::npos) mine.push_back(segment);
  }
  a.AdoptOldSegments(mine);
  a.AppendWrite(5, 1, 0, "a2", "row");
  ASSERT_TRUE(a.Flush(6).ok());
  b.AppendWrite(5, 1, 1, "b2", "row");
  ASSERT_TRUE(b.Flush(5).ok());
  EXPECT_EQ(*SavedEpoch(dir.path()), 5u);

  a.TrimBelow(4);  // run 1's ldm 0 segments of epochs 1..3
  absl::StatusOr<std::vector<SegmentInfo>> left = RedoLog::ListSegments(dir.path());
  ASSERT_TRUE(left.ok());
  int run1_ldm0 = 0;
  for (const SegmentInfo& s : *left) run1_ldm0 += s.run == 1 && s.ldm == 0;
  EXPECT_EQ(run1_ldm0, 1);
  EXPECT_EQ(left->size(), 1u + 4u + 2u);
}

TEST(RedoLogTest, DiskFullIsAnErrorNotACrash) {
  TempDir dir;
  std::string path = SegmentPath(dir.path(), 1, 0, 0);
  ASSERT_EQ(symlink("/dev/full", path.c_str()), 0);
  RedoLog log(dir.path(), 1, 0);
  RedoWriter writer(RedoWriter::Options{absl::Milliseconds(1)});
  writer.AddLog(&log);
  writer.Start();
  log.AppendWrite(1, 1, 0, "k", "row");
  SaveResults results;
  writer.Save(1, results.Callback());
  std::vector<absl::Status> statuses = results.WaitFor(1);
  ASSERT_FALSE(statuses[0].ok());
  EXPECT_EQ(statuses[0].code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(statuses[0].message(), HasSubstr(path));
  EXPECT_THAT(statuses[0].message(), HasSubstr("No space left"));
  EXPECT_FALSE(writer.healthy());
  EXPECT_THAT(writer.last_error(), HasSubstr("No space left"));
  EXPECT_EQ(writer.saved_epoch(), 0u);
  // More appends while unhealthy are kept, not lost; nothing crashes on the retries or Stop.
  log.AppendWrite(1, 1, 0, "k2", "row");
  writer.Stop();
  EXPECT_FALSE(writer.healthy());
  EXPECT_EQ(log.bytes_written(), 0u);
}

// A write that gets only part of its bytes out (here a file size limit, as ENOSPC would) is
// resumed at exactly the first unwritten byte by the next Flush.
TEST(RedoLogTest, PartialWriteResumesExactly) {
  TempDir dir;
  RedoLog log(dir.path(), 1, 0);
  for (int i = 0; i < 100; ++i) log.AppendWrite(1, 1, 0, absl::StrCat("k", i), "row-bytes");
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct sigaction ignore = {}, old_action = {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(sigaction(SIGXFSZ, &ignore, &old_action), 0);
  struct rlimit small = old_limit;
  small.rlim_cur = 1000;  // mid-record: records here are 37-38 bytes
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  absl::Status failed = log.Flush(1);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &old_limit), 0);
  ASSERT_EQ(sigaction(SIGXFSZ, &old_action, nullptr), 0);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(log.bytes_written(), 1000u);
  for (int i = 100; i < 150; ++i) log.AppendWrite(2, 1, 0, absl::StrCat("k", i), "row-bytes");

  ASSERT_TRUE(log.Flush(2).ok());
  std::vector<Seen> seen = ParseFile(SegmentPath(dir.path(), 1, 0, 0));
  std::vector<std::string> keys;
  std::vector<uint64_t> markers;
  for (const Seen& s : seen) {
    if (s.type == RecordType::kEpochSaved) {
      markers.push_back(s.epoch);
    } else {
      keys.push_back(s.key);
    }
  }
  ASSERT_EQ(keys.size(), 150u);
  for (int i = 0; i < 150; ++i) EXPECT_EQ(keys[i], absl::StrCat("k", i));
  EXPECT_EQ(markers, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(log.bytes_written(), ReadFile(SegmentPath(dir.path(), 1, 0, 0)).size());
}

TEST(RedoLogTest, ListSegmentsIgnoresOtherFilesAndMissingDir) {
  TempDir dir;
  WriteFile(dir.path() + "/notes.txt", "x");
  WriteFile(dir.path() + "/r000002-l01-00000003.redo", "");
  WriteFile(dir.path() + "/r000002-l00-00000010.redo", "");
  WriteFile(dir.path() + "/r000001-l03-00000000.redo", "");
  WriteFile(dir.path() + "/rxx-l00-00000000.redo", "");
  absl::StatusOr<std::vector<SegmentInfo>> list = RedoLog::ListSegments(dir.path());
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].run, 1u);
  EXPECT_EQ((*list)[1].seq, 10u);
  EXPECT_EQ((*list)[2].ldm, 1);
  EXPECT_TRUE(RedoLog::ListSegments(dir.path() + "/none")->empty());
  EXPECT_EQ(*SavedEpoch(dir.path() + "/none"), 0u);
}

TEST(RedoWriterTest, SaveAndPostAfterStopRunAtOnce) {
  RedoWriter writer(RedoWriter::Options{});
  writer.Start();
  writer.Stop();
  absl::Status result;
  writer.Save(1, [&](absl::Status s) { result = s; });
  EXPECT_EQ(result.code(), absl::StatusCode::kFailedPrecondition);
  bool ran = false;
  writer.Post([&] { ran = true; });
  EXPECT_TRUE(ran);
}

// ---- node state ----

TEST(NodeStateTest, RoundTripAndMissingFile) {
  TempDir dir;
  absl::StatusOr<std::optional<NodeState>> none = ReadNodeState(dir.path());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  NodeState state;
  state.run = 3;
  state.complete_epoch = 1234567890123;
  state.restorable_from = 17;
  state.checkpoint_id = 5;
  state.checkpoint_start_epoch = 100;
  state.checkpoint_end_epoch = 120;
  state.prev_checkpoint_id = 4;
  state.prev_checkpoint_start_epoch = 80;
  state.prev_checkpoint_end_epoch = 95;
  state.ldm_count = 4;
  ASSERT_TRUE(WriteNodeState(dir.path(), state).ok());
  absl::StatusOr<std::optional<NodeState>> read = ReadNodeState(dir.path());
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ(**read, state);
  state.run = 4;
  ASSERT_TRUE(WriteNodeState(dir.path(), state).ok());
  EXPECT_EQ(ReadNodeState(dir.path())->value().run, 4u);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/node.state.tmp"));
}

TEST(NodeStateTest, CorruptFileIsAClearError) {
  TempDir dir;
  NodeState state;
  state.run = 1;
  std::string good = SerializeNodeState(state);
  std::string path = dir.path() + "/node.state";
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x10;
    WriteFile(path, bad);
    absl::StatusOr<std::optional<NodeState>> read = ReadNodeState(dir.path());
    ASSERT_FALSE(read.ok()) << i;
    EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(read.status().message(), HasSubstr(path + " is corrupt"));
  }
  for (size_t len : {size_t{0}, size_t{5}, good.size() - 1}) {
    WriteFile(path, good.substr(0, len));
    EXPECT_EQ(ReadNodeState(dir.path()).status().code(), absl::StatusCode::kDataLoss) << len;
  }
  WriteFile(path, good + "x");
  EXPECT_EQ(ReadNodeState(dir.path()).status().code(), absl::StatusCode::kDataLoss);
  WriteFile(path, std::string(100000, 'z'));
  EXPECT_EQ(ReadNodeState(dir.path()).status().code(), absl::StatusCode::kDataLoss);
}

// ---- checkpoints ----

struct Row {
  uint32_t table_id;
  uint32_t partition;
  std::string key;
  std::string row;
};

// Writes checkpoint `id` of `ldm` with `n` rows, handing bytes over as the node would.
std::string WriteCheckpoint(const std::string& dir, uint64_t id, int ldm, int n) {
  absl::StatusOr<std::unique_ptr<CheckpointWriter>> writer = CheckpointWriter::Create(dir, id, ldm);
  EXPECT_TRUE(writer.ok()) << writer.status();
  for (int i = 0; i < n; ++i) {
    (*writer)->AddRow(i % 3, i % 5, absl::StrCat("key", i), std::string(i % 300, 'v'));
    if (i % 1000 == 999) {
      EXPECT_TRUE((*writer)->Write((*writer)->TakeBuffered()).ok());
    }
  }
  EXPECT_TRUE((*writer)->Finish().ok());
  EXPECT_EQ((*writer)->rows(), static_cast<uint64_t>(n));
  EXPECT_EQ((*writer)->bytes(), std::filesystem::file_size((*writer)->path()));
  return (*writer)->path();
}

absl::Status Load(const std::string& path, std::vector<Row>* rows) {
  return ReadCheckpoint(
      path,
      [&](uint32_t t, uint32_t p, absl::string_view k, absl::string_view r) {
        rows->push_back({t, p, std::string(k), std::string(r)});
      },
      [](uint64_t done, uint64_t total) { EXPECT_LE(done, total); });
}

TEST(CheckpointTest, RoundTrip) {
  TempDir dir;
  std::string path = WriteCheckpoint(dir.path(), 7, 2, 5000);  // ~750 KiB: several blocks
  EXPECT_EQ(path, dir.path() + "/lcp-00000007-l02.ckpt");
  std::vector<Row> rows;
  ASSERT_TRUE(Load(path, &rows).ok());
  ASSERT_EQ(rows.size(), 5000u);
  for (int i = 0; i < 5000; ++i) {
    EXPECT_EQ(rows[i].table_id, static_cast<uint32_t>(i % 3));
    EXPECT_EQ(rows[i].partition, static_cast<uint32_t>(i % 5));
    EXPECT_EQ(rows[i].key, absl::StrCat("key", i));
    EXPECT_EQ(rows[i].row.size(), static_cast<size_t>(i % 300));
  }
  // An empty checkpoint is valid too.
  std::string empty = WriteCheckpoint(dir.path(), 7, 0, 0);
  rows.clear();
  ASSERT_TRUE(Load(empty, &rows).ok());
  EXPECT_TRUE(rows.empty());
}

TEST(CheckpointTest, TornOrCorruptFilesAreRejected) {
  TempDir dir;
  std::string path = WriteCheckpoint(dir.path(), 1, 0, 3000);
  std::string good = ReadFile(path);
  for (size_t cut :
       {size_t{0}, size_t{3}, size_t{20}, good.size() / 2, good.size() - 30, good.size() - 1}) {
    WriteFile(path, good.substr(0, cut));
    std::vector<Row> rows;
    absl::Status status = Load(path, &rows);
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << cut;
    EXPECT_THAT(status.message(), HasSubstr(path));
  }
  std::string flipped = good;
  flipped[good.size() / 3] ^= 1;
  WriteFile(path, flipped);
  std::vector<Row> rows;
  EXPECT_THAT(Load(path, &rows).message(), HasSubstr("checksum"));
  WriteFile(path, good + "junk");
  EXPECT_EQ(Load(path, &rows).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(Load(dir.path() + "/missing.ckpt", &rows).code(), absl::StatusCode::kNotFound);
}

TEST(CheckpointTest, UnfinishedWriterRemovesItsFileAndFilesAreListedAndRemoved) {
  TempDir dir;
  {
    absl::StatusOr<std::unique_ptr<CheckpointWriter>> writer =
        CheckpointWriter::Create(dir.path(), 9, 0);
    ASSERT_TRUE(writer.ok());
    (*writer)->AddRow(1, 1, "k", "v");
    ASSERT_TRUE((*writer)->Write((*writer)->TakeBuffered()).ok());
  }
  EXPECT_TRUE(CheckpointFiles(dir.path(), 9).empty());
  WriteCheckpoint(dir.path(), 9, 1, 10);
  WriteCheckpoint(dir.path(), 9, 0, 10);
  WriteCheckpoint(dir.path(), 10, 0, 10);
  EXPECT_EQ(CheckpointFiles(dir.path(), 9),
            (std::vector<std::string>{dir.path() + "/lcp-00000009-l00.ckpt",
                                      dir.path() + "/lcp-00000009-l01.ckpt"}));
  RemoveCheckpoint(dir.path(), 9);
  EXPECT_TRUE(CheckpointFiles(dir.path(), 9).empty());
  EXPECT_EQ(CheckpointFiles(dir.path(), 10).size(), 1u);
}

}  // namespace
}  // namespace shoal::redo
