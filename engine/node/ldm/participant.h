// Two-phase commit, the participant's side (engine/node/coordinator.h has the TC's):
// preparing a transaction on every replica of a partition, and telling a node that takes over
// a failed TC what became of that TC's transactions here.
//
// A takeover query is answered at once when its TC is known down; until then it waits (a
// commit from the TC may still be on its way here), and is answered on the view that has the
// TC down (ViewChanged).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/node/ldm/context.h"
#include "engine/node/ldm/decided_txns.h"
#include "engine/node/ldm/replicator.h"
#include "engine/node/ldm/txn_table.h"
#include "engine/wire/txn_ops.h"

namespace shoal::node {

class Participant {
 public:
  Participant(LdmContext* context, TxnTable* txns, const DecidedTxns* decided,
              Replicator* replicator)
      : context_(context), txns_(txns), decided_(decided), replicator_(replicator) {}

  // From the TC: keep the transaction, its locks and writes in this partition, on every
  // replica (but those the TC prepared itself), until told its outcome; answered once all
  // have it.
  void Prepare(const wire::Prepare& prepare, uint32_t conn, ReplySink* sink);
  // The transactions of a partition whose TC failed, each with whether it committed here
  // (a TakeoverConf).
  void Query(const wire::TakeoverReq& request, uint32_t conn, ReplySink* sink);
  // Answers the queries whose TC the new view has down.
  void ViewChanged(ReplySink* sink);

 private:
  struct TakeoverQuery {
    uint32_t conn = 0;
    uint64_t tag = 0;
    int tc = 0;
    uint32_t table_id = 0;
    uint32_t partition = 0;
  };
  void Answer(const TakeoverQuery& query, ReplySink* sink);

  LdmContext* context_;
  TxnTable* txns_;
  const DecidedTxns* decided_;
  Replicator* replicator_;
  std::vector<TakeoverQuery> waiting_;  // until their TC is known down
};

}  // namespace shoal::node
