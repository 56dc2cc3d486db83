// The native client (the counterpart of an NDB API `Ndb` object): defines operations, sends
// them in batches straight to the data node that owns each partition (I1, I2), and delivers
// results to completions as Poll() finds them — in the spirit of NDB's
// executeAsynchPrepare + sendPollNdb.
//
//   api::Client client(&cluster);
//   client.Read(*table, key, columns, &done);       // defines and queues, no I/O
//   client.Update(*table, key2, program, &done2);
//   client.Send();                                  // one frame per data node
//   client.Poll(absl::Milliseconds(10));            // runs done.Done(...) and done2.Done(...)
//
// Dictionary requests (DDL, auto-increment ranges, refreshes) travel the same way: queued,
// sent by Send(), answered through a callback that Poll() runs. Nothing here waits except
// Poll() itself, for as long as its caller asked, so a thread that runs its own event loop
// (a router worker) never blocks on the dictionary master.
//
// Owned and used by one thread. Completions are the caller's and must outlive their operation.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "engine/api/cluster.h"
#include "engine/transport/channel.h"
#include "engine/wire/dictionary.pb.h"
#include "engine/wire/frame.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/op.h"

namespace shoal::api {

// The outcome of one key operation. `row` and `message` are valid during Done() only.
struct Outcome {
  uint16_t code = 0;          // 0 ok, 1 not found, else a MySQL error number
  absl::string_view row;      // reads: packed row over the columns asked for
  absl::string_view message;  // errors: MySQL's text
  bool unchanged = false;     // ok Update/UpdateIf: the program changed no value of the row
  bool replaced = false;      // ok Write: a row was there under the key and was replaced
  bool ok() const { return code == wire::kResultOk; }
  bool not_found() const { return code == wire::kResultNotFound; }
};

class Completion {
 public:
  virtual ~Completion() = default;
  virtual void Done(const Outcome& outcome) = 0;
};

// Receives a scan's rows, then its end.
class ScanReceiver {
 public:
  virtual ~ScanReceiver() = default;
  // A packed row over ScanRequest::columns; valid during the call only.
  virtual void Row(absl::string_view row) = 0;
  // The scan is over: code 0, or the MySQL error that ended it.
  virtual void Done(uint16_t code, absl::string_view message) = 0;
  // Asked after each batch: true stops the scan, which ends with 1317 (MySQL's
  // ER_QUERY_INTERRUPTED), as a KILL QUERY of the statement asks.
  virtual bool Interrupted() const { return false; }
  // Asked after each batch of an unordered scan: true holds that partition's next batch until
  // Client::ResumeScan, so that a receiver that cannot keep up bounds what it holds.
  virtual bool Paused() const { return false; }
};

// A read's row lock: none, or exclusive — waiting for a row another transaction holds, failing
// at once (NOWAIT: 3572), or passing it over (SKIP LOCKED).
enum class Lock : uint8_t { kNone, kExclusive, kExclusiveNoWait, kExclusiveSkipLocked };
inline bool Locks(Lock lock) { return lock != Lock::kNone; }
inline wire::LockWait LockWaitOf(Lock lock) {
  switch (lock) {
    case Lock::kExclusiveNoWait:
      return wire::LockWait::kNoWait;
    case Lock::kExclusiveSkipLocked:
      return wire::LockWait::kSkipLocked;
    default:
      return wire::LockWait::kWait;
  }
}

// A transaction: operations that name it hold their row locks until Commit or Rollback.
// Returned by Client::Begin; used with that client only.
struct Transaction {
  uint64_t id = 0;
  // (data node, table, partition) touched, to end the transaction everywhere.
  struct Touch {
    int node;
    uint64_t link_epoch;  // the connection the transaction lives in on that node
    uint32_t table_id;
    uint32_t table_version;
    uint32_t partition;
    bool holds;  // wrote or locked there (a committed read holds nothing)
    bool operator==(const Touch&) const = default;
  };
  std::vector<Touch> touched;
};

// The most ranges, and bytes of their bounds, one scan request carries (ScanRequest::ranges),
// so that its operations stay well within a frame (wire::kMaxFrameSize).
inline constexpr size_t kMaxScanRanges = 1024;
inline constexpr size_t kMaxScanRangeBytes = 256 * 1024;

struct ScanRequest {
  const schema::TableDef* table = nullptr;
  int index = 0;             // 0: the primary key, i.e. a full-table scan without bounds
  std::string lower, upper;  // packed keys over a prefix of the index's columns; empty: open
  bool lower_exclusive = false;
  bool upper_exclusive = false;
  // Instead of `lower` and `upper`: many inclusive ranges, read by one scan operation per
  // partition in the order given (NDB's multi-range read). For an ordered scan, in index
  // order and disjoint.
  struct Range {
    std::string lower, upper;
  };
  std::vector<Range> ranges;  // at most kMaxScanRanges, kMaxScanRangeBytes
  bool descending = false;
  std::string filter;  // schema/program.h
  std::vector<uint16_t> columns;
  // Merge the partitions' rows in index order. REQUIRES: `columns` includes every column of
  // the index.
  bool ordered = false;
  uint64_t limit = 0;  // 0: all
  Lock lock = Lock::kNone;
  Transaction* txn = nullptr;
};

class Client {
 public:
  explicit Client(Cluster* cluster);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Key operations. `key` is the packed primary key; `row` the packed row over every column.
  // Without a transaction they commit on their own (autocommit).
  void Read(const schema::TableDef& table, absl::string_view key,
            absl::Span<const uint16_t> columns, Completion* done, Transaction* txn = nullptr,
            Lock lock = Lock::kNone);
  void Insert(const schema::TableDef& table, absl::string_view row, Completion* done,
              Transaction* txn = nullptr);
  void Write(const schema::TableDef& table, absl::string_view row, Completion* done,
             Transaction* txn = nullptr);
  void Update(const schema::TableDef& table, absl::string_view key, absl::string_view program,
              Completion* done, Transaction* txn = nullptr, absl::string_view filter = {});
  void Delete(const schema::TableDef& table, absl::string_view key, Completion* done,
              Transaction* txn = nullptr, absl::string_view filter = {});
  // Unique-index lookup. Rows are partitioned by primary key, so this asks every partition
  // (NDB keeps a hidden table per unique index instead; not built yet).
  void ReadUnique(const schema::TableDef& table, int index, absl::string_view key,
                  absl::Span<const uint16_t> columns, Completion* done, Transaction* txn = nullptr,
                  Lock lock = Lock::kNone);
  // Range or full scan over every partition, in parallel.
  void Scan(ScanRequest request, ScanReceiver* receiver);
  // Asks for the batches `receiver`'s scan held while it was Paused(); nothing if none.
  void ResumeScan(ScanReceiver* receiver);

  Transaction Begin();
  // Ends `txn` in every partition it touched; `done` runs once all have answered. A
  // transaction over several partitions commits through a TC with two-phase commit: all of it
  // or none, whichever data node fails (an error then may leave either outcome).
  void Commit(Transaction* txn, Completion* done);
  void Rollback(Transaction* txn, Completion* done);

  // Hands every defined operation to the transports: one frame (or a few, when large) per data
  // node. Operations whose data node cannot be reached complete with error 1297 at once.
  void Send();
  // Reads results and runs their completions until at least one has run or `timeout` passed;
  // returns how many ran. A zero timeout only looks.
  int Poll(absl::Duration timeout);
  // Operations sent and not yet completed.
  int in_flight() const { return in_flight_; }

  // For a thread that sleeps in its own event loop instead of in Poll(): after Poll(0) found
  // nothing more, PrepareToSleep tells every data node link that we are about to sleep and
  // fills `fds` with the descriptors to wait on (readable = results may have arrived). False
  // means results arrived meanwhile or output is still queued: Poll(0) again (after a short
  // pause when output is queued) instead of sleeping. After waking, call WokeUp() and Poll(0).
  bool PrepareToSleep(std::vector<int>* fds);
  void WokeUp();
  // Frames defined or sent but not yet taken by a transport (back-pressure).
  bool has_queued_output() const;
  // Pings every data node this client sent nothing to for kKeepAliveInterval, and sends. A
  // client that calls this at that pace is watched by the data nodes: waits for locks its
  // transactions hold count no time while it is silent (a starved process, not a deadlock;
  // docs/architecture.md "Lock waits"). One that never calls it is never watched.
  static constexpr absl::Duration kKeepAliveInterval = absl::Milliseconds(100);
  void KeepAlive(absl::Time now);

  // The partition of a packed primary key, and the packed primary key of a packed row.
  static uint32_t PartitionOf(const schema::TableDef& table, absl::string_view key);
  static bool KeyOfRow(const schema::TableDef& table, absl::string_view row, std::string* key);

  // The master's answer to a dictionary request (a MySQL error comes in its error_code), or
  // Unavailable when no data node answered in time.
  using DictionaryDone = absl::AnyInvocable<void(absl::StatusOr<wire::DictConf>)>;
  // Queues a dictionary request (DDL, an auto-increment range, a refresh) for the dictionary
  // master; Send() sends it like any operation and Poll() runs `done` once it is answered. A
  // data node that is not the master (yet) or a lost link makes it go again, every 50 ms at
  // most, until `timeout` passes; a DictConf that carries a dictionary installs it in the
  // Cluster before `done` runs. Counts in in_flight() until then, so that an event loop keeps
  // polling (the timeout is checked by Poll(), not slept through).
  void Dictionary(wire::DictReq request, DictionaryDone done,
                  absl::Duration timeout = absl::Seconds(30));
  // Dictionary() asking for the whole dictionary: the Cluster's copy is then refreshed.
  void RefreshDictionary(DictionaryDone done);
  // This client's snapshot of the Cluster's dictionary (may be null). Taken again only when
  // the Cluster installed another, which costs one atomic load to notice: readers on the
  // operation path take no lock. Valid until the next call.
  const std::shared_ptr<const api::Dictionary>& dictionary() {
    if (uint64_t g = cluster_->dictionary_generation(); g != dictionary_generation_) {
      dictionary_generation_ = g;
      dictionary_ = cluster_->dictionary();
    }
    return dictionary_;
  }
  // The newest dictionary version data nodes have mentioned in replies.
  uint32_t seen_dictionary_version() const { return seen_dictionary_version_; }

 private:
  struct Link;
  struct Pending;
  struct ScanState;
  struct DictRequest;
  class CleanupAfterFailedCommit : public Completion {
   public:
    CleanupAfterFailedCommit(Client* client, Completion* done, uint64_t txn,
                             std::vector<Transaction::Touch> touched);
    void Done(const Outcome& outcome) override;

   private:
    Client* client_;
    Completion* done_;
    uint64_t txn_;
    std::vector<Transaction::Touch> touched_;
  };
  class IgnoreOutcome : public Completion {
   public:
    void Done(const Outcome&) override {}
  };

  // Picks up the Cluster's newest topology when it changed.
  void RefreshTopology() {
    if (uint64_t g = cluster_->topology_generation(); g != topology_generation_) {
      topology_generation_ = g;
      topology_ = cluster_->topology();
    }
  }
  Link* LinkTo(int node_id);
  // Queues `op`, a typed operation (key_ops.h) on `op.partition`, for data node `node` (-1:
  // none serves it); sets its tag. Defined in client_state.h.
  template <typename Message>
  void Queue(int node, Message op, const Pending& pending);
  // Queue for a read that goes to another replica if `node` is lost (pending.retry_read).
  void QueueRead(int node, wire::Read read, Pending pending);
  // The frame an operation on `partition` for data node `node` goes into, over `link`, and in
  // `*tag` the tag its result will carry; nullptr when `link` is null, after failing the
  // operation through the normal result path (gathers and scans see it too).
  wire::FrameBuilder* OpenOp(int node, Link* link, uint32_t partition, Pending pending,
                             uint64_t* tag);
  uint64_t NewTag(Pending pending);
  // Addresses `op` to `partition` of `table` on data node `node`, under `txn`; notes the
  // partition in `txn`, so that Commit and Rollback reach it.
  void Address(const schema::TableDef& table, wire::OpType type, uint32_t partition, int node,
               Transaction* txn, bool locks, wire::OpTarget* op);
  // Sends a key operation (its partition set) to the partition's primary, or to the nearest
  // replica for a committed read of a table that allows it.
  template <typename Message>
  void KeyOp(const schema::TableDef& table, Message op, Completion* done, Transaction* txn);
  void EndTransaction(Transaction* txn, wire::OpType type, Completion* done);
  // Commits a transaction over several partitions through a TC on the data node primary for
  // its first partition (two-phase commit, engine/node/coordinator.h); false for one partition.
  bool CommitThroughTc(const Transaction& txn, const std::vector<Transaction::Touch>& touched,
                       Completion* done);
  void FailNow(Completion* done, uint16_t code, absl::string_view message);
  // Why `txn` cannot go on (MySQL's message for 1297), empty when it can: a node where it
  // holds something was lost, or is no longer that partition's primary in our view, and its
  // locks and writes there went with it — even when the link does not show it yet. Its
  // operations would run without them (an INSERT meeting the row its own DELETE removed).
  std::string LostHolds(const Transaction& txn) const;
  // Sends a committed read whose data node was lost to another replica; false if there is
  // none (the caller fails it).
  bool RetryRead(int lost_node, const wire::Read& read, Pending pending);
  // False: the frame is malformed and the link must go.
  bool HandleFrame(Link* link, absl::string_view frame);
  void HandleResult(const wire::Result& result);
  void SendScanBatch(ScanState* scan, int partition_slot);
  void OnScanBatch(ScanState* scan, int slot, const wire::Result& result);
  void DeliverScanRows(ScanState* scan);
  void FinishScan(ScanState* scan, uint16_t code, absl::string_view message);
  void CloseLink(Link* link, absl::string_view why);
  // Queues `request` for the master if a link to it can be had; else it waits for its retry.
  void SendDictionary(DictRequest* request, absl::Time now);
  // Sends requests whose retry time came, and fails those whose deadline passed.
  void ServiceDictionary(absl::Time now);
  // The earliest retry time of a request not sent; InfiniteFuture if none.
  absl::Time NextDictionaryRetry() const;
  void HandleDictConf(wire::DictConf conf);
  // A data node's notice of dictionary `version`: answered with DictionarySeen.
  void AcknowledgeNotice(Link* link, uint32_t version);

  Cluster* cluster_;
  std::shared_ptr<const Topology> topology_;
  uint64_t topology_generation_ = 0;
  absl::flat_hash_map<int, std::unique_ptr<Link>> links_;
  absl::flat_hash_map<int, absl::Time> reconnect_after_;  // nodes that refused a connection
  absl::Time next_liveness_check_ = absl::InfinitePast();
  std::vector<Pending> pending_;        // by tag & 0xffffffff
  std::vector<std::string> retry_ops_;  // by tag & 0xffffffff: the bytes of retry_read ops
  std::vector<uint32_t> free_tags_;
  uint32_t tag_generation_ = 1;
  int in_flight_ = 0;
  bool keep_alive_ = false;  // KeepAlive was called: Send notes when each link last sent
  IgnoreOutcome ignore_;
  uint64_t txn_prefix_ = 0;
  uint32_t next_txn_ = 0;
  uint64_t next_link_epoch_ = 1;
  uint32_t seen_dictionary_version_ = 0;
  uint64_t seen_incarnation_ = 0;  // of the last dictionary this client fetched
  std::deque<std::unique_ptr<ScanState>> scans_;
  std::string key_scratch_;
  // Dictionary requests not answered yet, by tag.
  absl::flat_hash_map<uint64_t, std::unique_ptr<DictRequest>> dict_requests_;
  uint64_t next_dict_tag_ = 1;
  std::shared_ptr<const api::Dictionary> dictionary_;
  uint64_t dictionary_generation_ = 0;
};

}  // namespace shoal::api
