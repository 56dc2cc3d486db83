// PeerLiveness: the data plane's watch over the other STARTED replicas of its node group (I5).
// Every check (PeerWatch::kCheckInterval) pings each of them over its link and asks the
// PeerWatch which have been silent past options' peer_timeout: their link is closed, which
// makes them lost peers (Connections::PeerLost) and asks the arbitrator whether this node may
// serve on without them. A peer is watched from the check after it serves and has a link,
// until it is lost or leaves the view.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "engine/node/peer_watch.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/options.h"

namespace shoal::node {

class PeerLiveness {
 public:
  // Every pointer outlives this.
  PeerLiveness(DataPlaneOptions* options, const NodeView* view, Connections* connections)
      : options_(options), view_(view), connections_(connections) {}

  // When the data-plane thread starts running, so that the watch's clock starts then.
  void Start(absl::Time now) { watch_.emplace(options_->peer_timeout, options_->metrics, now); }
  // A frame came from data node `node`, on any connection with it (pings included).
  void Heard(int node) {
    absl::Time now = absl::Now();
    watch_->Heard(node, now);
    last_heard_[node] = now;
  }
  // Pings the group's serving peers and drops links silent past peer_timeout.
  void Check(absl::Time now);
  // Whether every peer the last Check watched has been heard from in the last `window`.
  bool GroupHeardWithin(absl::Time now, absl::Duration window) const;

 private:
  DataPlaneOptions* options_;
  const NodeView* view_;
  Connections* connections_;
  std::optional<PeerWatch> watch_;
  std::vector<int> watched_;  // as of the last Check
  absl::flat_hash_map<int, absl::Time> last_heard_;
};

}  // namespace shoal::node
