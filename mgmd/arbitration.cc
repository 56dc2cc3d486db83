// MgmdServer, arbitration (I5 — no split brain): a data node that can no longer reach another
// asks the mgmd whether it may go on serving without it. The first of two nodes that lost each
// other to ask wins: the other is declared failed — the view that says so goes out before the
// winner hears its grant — and is told to stop (a supervised one is killed and started again).
// The loser's own request, if it comes, is refused, since it no longer counts as started; a
// node that hears nothing in time stops by itself (the node runtime's Arbitrator).
#include "absl/strings/str_cat.h"
#include "mgmd/mgmd_server.h"

namespace shoal::mgmd {

using control::ControlMessage;
using Outcome = ArbitrationVerdict::Outcome;

void MgmdServer::HandleArbitration(int node_id, const control::ArbitrationReq& req) {
  // Ids beyond int's range match no slot and are refused.
  int lost = req.lost_node() > 0x7fffffffu ? -1 : static_cast<int>(req.lost_node());
  log_->Add("INFO", node_id,
            absl::StrCat("cannot reach node ", req.lost_node(), "; asks for arbitration"));
  ArbitrationVerdict verdict = membership_.Arbitrate(node_id, lost);
  if (verdict.outcome == Outcome::kAskerWins) {
    log_->Add("ALERT", lost,
              absl::StrCat("lost by node ", node_id, "; arbitration chose node ", node_id));
    NodeSlot* loser = membership_.Find(lost);
    loser->fenced = loser->identity;
    // Publishes the view without `lost` before the grant below goes out on the same connection.
    DeclareFailed(lost, absl::StrCat("lost arbitration to node ", node_id),
                  "killed the process (it lost arbitration)");
  }
  bool granted = verdict.outcome != Outcome::kRefuse;
  if (granted) {
    log_->Add("INFO", node_id,
              absl::StrCat("arbitration: may go on serving without node ", req.lost_node(), " (",
                           verdict.reason, ")"));
  } else {
    log_->Add("WARNING", node_id,
              absl::StrCat("arbitration refused: may not go on serving without node ",
                           req.lost_node(), " (", verdict.reason, ")"));
  }
  ControlMessage answer;
  control::ArbitrationConf* conf = answer.mutable_arbitration_conf();
  conf->set_lost_node(req.lost_node());
  conf->set_granted(granted);
  conf->set_reason(verdict.reason);
  SendTo(node_id, answer);
}

}  // namespace shoal::mgmd
