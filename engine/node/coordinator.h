// The transaction coordinator (TC, NDB's DBTC) for transactions over several partitions: a
// client sends the commit of such a transaction to the data node primary for its first
// partition, whose TC runs two-phase commit over the participants (each partition's primary,
// which prepares on every replica of it, ldm/participant.h):
//
//   prepare every participant ── all ready? ──▶ commit every participant at once
//                                └─ any not ──▶ roll back every participant
//
// A participant that prepared keeps the transaction whatever happens to its client or its
// primary, until it is told the outcome; one that committed remembers it. Commits go out
// together: once all are prepared, a commit anywhere means commit everywhere, which is all a
// takeover needs to know (below). When a data node
// fails, the master (lowest-id serving node) takes over its TC role: it asks every partition's
// primary which transactions that TC had prepared or committed there, commits those that any
// participant committed and rolls back the rest. Runs on the data-plane thread.
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
  // primaries. With `take_over`, finishes its own transactions, asking the primaries of
  // `partitions` (table, partition) about them.
  void NodeLost(int node, bool take_over,
                const std::vector<std::pair<uint32_t, uint32_t>>& partitions);

  const CoordinatorStats& stats() const { return stats_; }
  // Logs transactions this TC has been finishing for longer than `age`.
  void ReportStuck(absl::Time now, absl::Duration age) const;

 private:
  struct Part {
    uint32_t table_id = 0;
    uint32_t partition = 0;
    int node = 0;  // where its pending operation went
    bool waiting = false;
    bool prepared = false;  // takeovers: prepared there (not known committed)
  };
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
  void BeginEpoch(Txn& txn);
  void SendTo(uint64_t id, Txn& txn, size_t part, wire::OpType type);
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
