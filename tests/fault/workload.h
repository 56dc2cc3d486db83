// A native-API write workload whose every acknowledged commit can be checked afterwards, for
// fault-injection tests: writer threads insert and update rows and write pairs of rows in
// small transactions, each remembering, per key, the value of its last acknowledged commit
// and the values written after it whose outcome is unknown (a temporary error). Every write
// puts a value no other write uses, so a row read later tells which write it came from.
//
//   fault.acked(id BIGINT PRIMARY KEY, writer INT, seq BIGINT, value BIGINT, partner BIGINT)
//
// `seq` numbers a writer's writes; `value` = ValueOf(writer, seq); `partner` is the other key
// of a pair (both rows of a pair always carry the same value: a transaction writes both) or
// -1 for a row written alone. Writer w owns keys [w * kKeySpace, (w + 1) * kKeySpace).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "engine/api/cluster.h"
#include "engine/api/sync_client.h"
#include "engine/schema/schema.h"

namespace shoal::testing {

inline constexpr char kFaultDatabase[] = "fault";
inline constexpr char kAckedTable[] = "acked";
inline constexpr int64_t kKeySpace = 1'000'000'000;
inline constexpr int64_t kPairKeysFrom = kKeySpace / 2;  // inside a writer's space
inline constexpr int64_t kNoPartner = -1;
// Past these a writer only updates what it has: memory and the checker's work stay bounded
// however fast the machine is.
inline constexpr size_t kMaxSingles = 100'000;
inline constexpr size_t kMaxPairs = 25'000;

enum AckedColumn : uint16_t { kIdCol = 0, kWriterCol, kSeqCol, kValueCol, kPartnerCol };
inline constexpr uint16_t kAckedColumns[] = {kIdCol, kWriterCol, kSeqCol, kValueCol, kPartnerCol};

// For the tables of fault tests: a NOT NULL column, and (re)creating a table, and its database
// when missing, through the dictionary master (an old table of that name is dropped).
schema::ColumnDef NotNullColumn(const std::string& name, schema::ColumnType type);
absl::Status RecreateTable(api::SyncClient* client, const schema::TableDef& table);

schema::TableDef AckedTableDef();
// Creates the database and the table (dropping an old one) through the dictionary master.
absl::Status CreateAckedTable(api::SyncClient* client);
inline int64_t ValueOf(int writer, int64_t seq) { return (int64_t{writer} + 1) << 40 | seq; }
inline int64_t SeqOf(int64_t value) { return value & ((int64_t{1} << 40) - 1); }
// The packed primary key of row `id`, and the packed row that write `seq` of `writer` puts there.
std::string AckedKey(const schema::TableDef& table, int64_t id);
std::string AckedRow(const schema::TableDef& table, int64_t id, int writer, int64_t seq,
                     int64_t partner);

// MySQL errors a writer retries (or moves on from) rather than fails on: temporary error
// (1297), lock wait timeout (1205), table definition changed (1412).
bool IsTemporary(uint16_t code);

// What a writer knows of one key, or of the two keys of a pair (written together, always with
// the same value).
struct History {
  std::optional<int64_t> acked;   // the value of the last acknowledged commit; none: never one
  std::vector<int64_t> in_doubt;  // values written after it whose outcome is unknown
  bool lost = false;              // a write found the row gone; left alone since
  // Whether the row may exist: a commit was acknowledged, or one may have happened.
  bool maybe_written() const { return acked.has_value() || !in_doubt.empty(); }
};

struct Pair {
  int64_t a = 0;
  int64_t b = 0;  // in the same partition as `a`
  History history;
};

// How each write of a writer ended, by seq: for diagnostics, when a row holds a value it
// should not.
enum class Fate : uint8_t { kAcknowledged, kInDoubt, kRolledBack, kRefused };
const char* FateName(Fate fate);

// When writes succeed again after a kill: per partition, the first acknowledged commit of an
// operation issued after the kill. Thread-safe.
class ResumeClock {
 public:
  explicit ResumeClock(uint32_t partitions) : first_ack_(partitions) {}
  // Starts measuring from now (call just before the kill); forgets the previous measurement.
  void Arm();
  // A commit of an operation on `partition`, issued at `issued`, was acknowledged now.
  void Acknowledged(uint32_t partition, absl::Time issued);
  // From Arm() to the first acknowledged commit on any partition, and on every partition;
  // nullopt while not there yet.
  std::optional<absl::Duration> FirstCommit() const;
  std::optional<absl::Duration> EveryPartition() const;

 private:
  mutable absl::Mutex mutex_;
  std::optional<absl::Time> armed_at_ ABSL_GUARDED_BY(mutex_);
  std::vector<std::optional<absl::Time>> first_ack_ ABSL_GUARDED_BY(mutex_);
};

// One writer thread's client, workload and record. Created on the test's thread; Run() on the
// writer's own; the accessors only after Run() has returned.
class Writer {
 public:
  static absl::StatusOr<std::unique_ptr<Writer>> Create(int id, int mgmd_port, ResumeClock* clock);

  // Writes until `stop` is set.
  void Run(const std::atomic<bool>& stop);
  api::Cluster* cluster() { return cluster_.get(); }
  int64_t acknowledged() const { return acknowledged_.load(std::memory_order_relaxed); }

  int id() const { return id_; }
  const std::map<int64_t, History>& singles() const { return singles_; }
  const std::vector<Pair>& pairs() const { return pairs_; }
  int64_t writes() const { return static_cast<int64_t>(fates_.size()); }  // seqs 0..writes()-1
  Fate FateOf(int64_t seq) const { return fates_.at(static_cast<size_t>(seq)); }
  const std::map<uint16_t, int64_t>& temporary_errors() const { return temporary_errors_; }
  // Errors that are not temporary, and rows found missing while writing: how many, and the
  // first few described.
  int64_t failure_count() const { return failure_count_; }
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  Writer(int id, ResumeClock* clock) : id_(id), clock_(clock), rng_(id) {}

  void InsertSingle();
  void UpdateSingle();
  void WritePair();
  // Records how the write of `seq` to `history` ended.
  void Settle(History* history, int64_t seq, const api::SyncOutcome& outcome, uint32_t partition,
              absl::Time issued, const std::string& what);
  // Writes `key` as write `seq` in `txn` (or autocommit): updates a row known to exist,
  // inserts one that cannot, upserts one that may.
  api::SyncOutcome WriteRow(const History& history, int64_t key, int64_t seq, int64_t partner,
                            api::Transaction* txn);
  std::string Row(int64_t key, int64_t seq, int64_t partner) const {
    return AckedRow(*table_, key, id_, seq, partner);
  }
  std::string Key(int64_t key) const { return AckedKey(*table_, key); }
  uint32_t PartitionOf(int64_t key) const;
  int64_t NextSeq(Fate initial);
  // Counts a temporary error; after 1412 takes the table's new definition.
  void NoteTemporary(uint16_t code);
  void Fail(const std::string& what);

  const int id_;
  ResumeClock* const clock_;
  std::mt19937_64 rng_;
  std::unique_ptr<api::Cluster> cluster_;
  std::unique_ptr<api::SyncClient> client_;
  api::TablePtr table_;
  int64_t next_single_ = 0;
  int64_t next_pair_key_ = 0;
  std::map<int64_t, History> singles_;
  std::vector<int64_t> single_keys_;
  std::vector<Pair> pairs_;
  std::vector<Fate> fates_;
  std::atomic<int64_t> acknowledged_{0};
  std::map<uint16_t, int64_t> temporary_errors_;
  int64_t failure_count_ = 0;
  std::vector<std::string> failures_;
};

// Fetches the mgmd's view every 100 ms and installs it in every cluster: a native client that
// is not a cluster member learns of failures and restarts this way (routers get views pushed).
class ViewFollower {
 public:
  ViewFollower(int mgmd_port, std::vector<api::Cluster*> clusters);
  ~ViewFollower();  // stops and joins

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace shoal::testing
