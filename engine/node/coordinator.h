// The transaction coordinator (TC, NDB's DBTC) for transactions over several partitions: a
// client sends the commit of such a transaction to the data node primary for its first
// partition, whose TC runs two-phase commit over the participants (each partition's primary
// and its backups, ldm/participant.h):
//
//   per partition: prepare its backups ─▶ prepare its primary ── all ready? ──┐
//                  (kOnReplica)           (skipping the backups done)          │
//        ┌── yes: per partition: commit its backups ─▶ commit its primary ◀────┤
//        └── no: roll back every primary (which rolls its backups back) ◀──────┘
//
// The TC talks to the backups itself, each partition's before its primary, rather than letting
// each primary relay to its backups and wait: a backup on the TC's own node costs no message,
// so its partition's primary is asked in the same turn; with two replicas the TC's node is a
// backup of every partition it is not primary of, so each phase is one message each way to the
// other node (its backups of our partitions and its own primaries, together) instead of two
// round trips. Backups still
// hold a prepare and a commit before their primary does (I7: once the client hears of a
// commit every replica has it). A primary asked with "replicas done" skips those nodes and
// still handles any other replica it knows of (a node that started since the TC's view).
//
// A participant that prepared keeps the transaction whatever happens to its client or its
// primary, until it is told the outcome; one that committed remembers it. Commits go out
// together: once all are prepared, a commit anywhere means commit everywhere. When a data
// node fails, the master (lowest-id serving node) takes over its TC role: it asks every
// replica of every partition (a backup may be the only one that committed) which
// transactions that TC had prepared or committed there, commits those that any participant
// committed and rolls back the rest. Runs on the data-plane thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/any_invocable.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/node/epoch_clock.h"
#include "engine/wire/key_ops.h"
#include "engine/wire/op.h"
#include "engine/wire/txn_ops.h"

namespace shoal::node {

struct CoordinatorStats {
  uint64_t commits = 0;    // two-phase commits coordinated to the end
  uint64_t aborts = 0;     // rolled back because a participant could not prepare
  uint64_t takeovers = 0;  // transactions finished for a failed TC
};

class Coordinator {
 public:
  // What the TC sends to a partition's primary.
  using Message = std::variant<wire::Prepare, wire::Commit, wire::Abort, wire::TakeoverReq>;
  // Sends one operation to data node `node` (this one included); its result comes back
  // through OnResult.
  using Send = absl::AnyInvocable<void(int node, const Message& message)>;
  // Answers the client's kCommitTxn.
  using Reply = absl::AnyInvocable<void(uint32_t conn, uint64_t tag, uint16_t code,
                                        absl::string_view message)>;

  Coordinator(int self, Send send, Reply reply);

  // The commits this TC decides belong to its node's epochs (I8): counted in flight from the
  // decision until every participant has committed. Null: epoch 0, nothing counted.
  void SetDecider(EpochClock::Decider* decider) { decider_ = decider; }

  // The cluster's node groups, each its data node ids in configuration order with whether
  // they serve, for finding partitions' primaries.
  void SetGroups(std::vector<std::vector<std::pair<int, bool>>> groups);
  // A client's kCommitTxn, from connection `conn`.
  void Commit(uint32_t conn, const wire::CommitTxn& commit);
  // A participant's answer to one of our operations (others are ignored).
  void OnResult(const wire::Result& result);
  // Data node `node` left (SetGroups already says so): what it owed us goes to the new
  // primaries, and backups lost are not waited for. With `take_over`, finishes its own
  // transactions, asking every replica of `partitions` (table, partition) about them.
  void NodeLost(int node, bool take_over,
                const std::vector<std::pair<uint32_t, uint32_t>>& partitions);

  const CoordinatorStats& stats() const { return stats_; }
  // Logs transactions this TC has been finishing for longer than `age`.
  void ReportStuck(absl::Time now, absl::Duration age) const;

 private:
  struct Part {
    uint32_t table_id = 0;
    uint32_t partition = 0;
    int node = 0;  // the primary its pending operation went to
    bool waiting = false;
    std::vector<int> replicas_waiting;  // backups whose answer is due (kOnReplica, queries)
    std::string replicas_done;          // this phase's kOnReplica step answered by (AddReplicaDone)
  };
  // kPrepare and kCommit go partition by partition: backups, then the primary.
  enum class Phase : uint8_t { kPrepare, kCommit, kAbort, kTakeoverQuery };
  struct Txn {
    Phase phase = Phase::kPrepare;
    uint64_t txn = 0;
    bool has_client = false;
    uint32_t conn = 0;
    uint64_t tag = 0;
    std::vector<Part> parts;
    int waiting = 0;
    absl::Time since = absl::Now();
    uint64_t epoch = 0;  // the commit's, once decided
    bool epoch_counted = false;
    uint16_t error = 0;
    std::string message;
    // kTakeoverQuery: the failed TC; the transactions found, prepared or committed where.
    int failed_tc = 0;
    struct Found {
      bool committed = false;  // somewhere: so everywhere
      bool open = false;       // prepared somewhere, not known committed there
      std::vector<Part> parts;
    };
    absl::flat_hash_map<uint64_t, Found> found;
  };

  int PrimaryOf(uint32_t partition) const;
  // The serving replicas of `partition` other than its primary.
  std::vector<int> BackupsOf(uint32_t partition) const;
  // A data node's place in `partition`'s node group (1-based: tags keep 0 for the primary
  // path), and back; -1 when it has none.
  int SlotOf(uint32_t partition, int node) const;
  int NodeInSlot(uint32_t partition, int slot) const;
  void BeginEpoch(Txn& txn);
  // Sends `type` for part `part_index` to its primary.
  void SendTo(uint64_t id, Txn& txn, size_t part_index, wire::OpType type);
  // Sends kPrepare or kCommit about `part` to data node `node`: a backup (`on_replica`) or its
  // primary, which hears the backups done.
  void SendPhase(int node, const Txn& txn, const Part& part, uint64_t tag, wire::OpType type,
                 bool on_replica);
  // Starts phase `type` (kPrepare or kCommit) of part `part_index`: kOnReplica to each of its
  // backups, then (now, when it has none) to its primary.
  void StartPart(uint64_t id, Txn& txn, size_t part_index, wire::OpType type);
  // kTakeoverReq about every part to every serving replica of it.
  void QueryReplicas(uint64_t id, Txn& txn);
  // A takeover query's answer from `replica` about `part`.
  void NoteTakeoverAnswer(Txn& query, const Part& part, int replica, const wire::Result& result);
  void Advance(uint64_t id);
  void Done(uint64_t id);
  void Resolve(Txn& query);

  int self_;
  EpochClock::Decider* decider_ = nullptr;
  Send send_;
  Reply reply_;
  std::vector<std::vector<std::pair<int, bool>>> groups_;
  absl::flat_hash_map<uint64_t, Txn> txns_;  // by our id (tag >> 20)
  uint64_t next_id_ = 1;
  CoordinatorStats stats_;
};

}  // namespace shoal::node
