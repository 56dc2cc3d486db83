// The transactions an LDM holds anything of: one record per transaction and role, and the
// transactions rolled back behind their client's back.
//
// A transaction has a primary record here when this LDM ran its operations as the primary of
// a partition (a client's transaction), and a replica record when a primary replicated its
// writes here; it can have both, for different partitions. A record is
//   added       by the first operation that writes or locks (Touch), or the first replicated
//               write, prepare or copied version;
//   kActive     until a TC prepares it (kPrepared): from then on only the TC, or the node that
//               takes over from it, ends it, and neither its client's nor its primary's loss
//               rolls it back;
//   removed     when it commits or rolls back here; a replica record is adopted into the
//               primary record (Adopt) when this node becomes the primary of its partitions.
// A doomed transaction was rolled back behind its client's back (a backup failed to follow,
// its partition's primary moved): its next operation and its commit fail, saying why, until
// its client ends it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "engine/node/ldm/context.h"
#include "engine/storage/partition.h"

namespace shoal::node {

enum class TxnState : uint8_t { kActive, kPrepared };

struct TxnRecord {
  TxnState state = TxnState::kActive;
  uint32_t conn = 0;  // where its operations came from
  int source = 0;     // a replica record's: the data node that replicated it here
  int tc = 0;         // kPrepared: the data node coordinating its commit
  // It wrote (or tried to) a logged table here: its commit needs the redo (LdmContext::
  // RedoRefuses).
  bool wrote_logged = false;
  std::vector<Touched> touched;

  bool prepared() const { return state == TxnState::kPrepared; }
  void Prepare(int by_tc) {
    state = TxnState::kPrepared;
    tc = by_tc;
  }
  bool Holds(const Touched& t) const;
  bool HoldsPartition(uint32_t table_id, uint32_t index) const;
  void Add(const Touched& t);
};

class TxnTable {
 public:
  using Records = absl::flat_hash_map<storage::TxnId, TxnRecord>;

  // Notes a partition a client's transaction has written or locked, as its primary.
  void Touch(storage::TxnId txn, uint32_t conn, const Touched& touched);
  TxnRecord& AddReplica(storage::TxnId txn) { return replica_[txn]; }
  TxnRecord* Primary(storage::TxnId txn);
  TxnRecord* Replica(storage::TxnId txn);
  void ErasePrimary(storage::TxnId txn) { primary_.erase(txn); }
  void EraseReplica(storage::TxnId txn) { replica_.erase(txn); }
  // Makes the replica record part of the primary record: this node is its primary now, and
  // ending it is ours (its prepared state and TC come along).
  void Adopt(storage::TxnId txn);
  const Records& primaries() const { return primary_; }
  const Records& replicas() const { return replica_; }
  // Those of connection `conn` that are not prepared (its loss rolls them back).
  std::vector<storage::TxnId> UnpreparedPrimariesOf(uint32_t conn) const;
  std::vector<storage::TxnId> UnpreparedReplicasOf(uint32_t conn) const;

  void Doom(storage::TxnId txn, std::string why) { doomed_[txn] = std::move(why); }
  // Why `txn` was rolled back behind its client's back; null when it was not.
  const std::string* DoomedWhy(storage::TxnId txn) const;
  bool any_doomed() const { return !doomed_.empty(); }
  void Forgive(storage::TxnId txn) { doomed_.erase(txn); }

  // Forgets the partitions of a dropped or truncated table (records keep raw pointers).
  void ForgetTable(uint32_t table_id);

 private:
  Records primary_;
  Records replica_;
  absl::flat_hash_map<storage::TxnId, std::string> doomed_;
};

}  // namespace shoal::node
