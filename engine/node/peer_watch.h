// PeerWatch: a data node's watch over the other replicas of its node group (I5). The data
// plane pings them every kCheckInterval and asks the watch which have been silent too long;
// it then drops the link and asks the arbitrator whether it may serve on without them.
//
// Silence is counted by a liveness::SilenceDetector (docs/architecture.md, "Failure
// detection"): in time the data-plane thread itself ran, not while this host's kernel shows the
// peer runnable but starved, and with one more window for peers that fall silent together; and
// a peer whose link holds an unread frame is not silent, whatever the clock says.
//
// Owned by the data plane's PeerLiveness (plane/peer_liveness.h); used on its thread only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/time/time.h"
#include "common/liveness/process_probe.h"
#include "common/liveness/silence_detector.h"
#include "common/liveness/stall_metrics.h"
#include "common/metrics.h"

namespace shoal::node {

class PeerWatch {
 public:
  static constexpr absl::Duration kCheckInterval = absl::Milliseconds(100);

  // A peer silent for `timeout` is lost. `metrics` may be null.
  PeerWatch(absl::Duration timeout, MetricsRegistry* metrics, absl::Time now);

  // Watches exactly `peers` (data node id, its process): those not watched yet from `now`,
  // those no longer listed not at all.
  void Follow(const std::vector<std::pair<int, liveness::ProcessIdentity>>& peers, absl::Time now);
  // A frame came from `peer`.
  void Heard(int peer, absl::Time now) { silence_.Heard(peer, now); }

  struct Result {
    std::vector<int> lost;           // silent past the timeout
    std::vector<std::string> notes;  // why peers silent by the clock were not lost, one line each
  };
  // Runs the check. For a peer silent past the timeout, `has_unread_frame(peer)` reads its links
  // and says whether a frame from it waits there: then it was heard, not lost.
  Result Check(absl::Time now, absl::FunctionRef<bool(int peer)> has_unread_frame);

 private:
  absl::Duration timeout_;
  liveness::SilenceDetector silence_;
  liveness::ProcessProbe probe_;
  liveness::StallMetrics stall_metrics_;
  std::vector<int> watched_;
};

}  // namespace shoal::node
