// Handing a partition's primary role from one serving node to another, as happens when a
// restarted node takes its roles back. The nodes learn of the new view at different moments;
// acting on it alone, both would be primary for a while and could both lock the same row (a
// read lock lives on the primary only), so updates would be lost. Instead:
//
//   former primary, on the view: rolls back the open transactions holding anything in the
//     partition (not the prepared: their TC ends them, through either node), stops acting as
//     its primary, and sends kHandover after everything it sent before;
//   new primary: parks the partition's operations from the view until the kHandover (or
//     until the former primary no longer serves), then runs them in order.
//
// A partition is awaited from the view that makes this node its primary until its kHandover
// arrives, the former primary stops serving, or a later view moves the role elsewhere. A
// kHandover that arrives ahead of the view is kept until the view comes.
#pragma once

#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/lock_waits.h"
#include "engine/node/ldm/replicator.h"
#include "engine/node/ldm/tables.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

// True for the id an operation waits on while its partition's handover is due (not a
// transaction's).
bool IsHandoverWait(storage::TxnId txn);

class Handover {
 public:
  Handover(LdmContext* context, const LdmTables* tables, TxnTable* txns, LockWaits* lock_waits,
           Replicator* replicator)
      : context_(context),
        tables_(tables),
        txns_(txns),
        lock_waits_(lock_waits),
        replicator_(replicator) {}

  // Follows the primaries' moves from `old` to the context's view: hands over those this node
  // lost, and awaits the handover of those it gained from a node that still serves.
  void FollowPrimaries(const GroupView& old, ReplySink* sink);
  // The former primary has handed `handover.partition` over.
  void Take(const wire::Handover& handover, ReplySink* sink);
  // Parks a client's operation on a partition whose handover has not arrived yet: true when
  // parked.
  bool ParkUntilHandedOver(const wire::Op& op, uint32_t conn, absl::Time deadline);
  // Stops waiting for handovers from `node`, which no longer serves.
  void Forget(int node, ReplySink* sink);

 private:
  // Rolls back the open transactions that hold anything in `partition` (its new primary knows
  // nothing of their read locks), then tells data node `to` it is its primary now.
  void HandOver(uint32_t partition, int to, ReplySink* sink);

  LdmContext* context_;
  const LdmTables* tables_;
  TxnTable* txns_;
  LockWaits* lock_waits_;
  Replicator* replicator_;
  // Partitions this node is primary of, in the view, that their former primary has not handed
  // over yet: partition → that data node. Handovers that arrived before the view did.
  absl::flat_hash_map<uint32_t, int> awaiting_;
  absl::flat_hash_set<std::pair<uint32_t, int>> handed_over_;
};

}  // namespace shoal::node
