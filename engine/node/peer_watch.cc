#include "engine/node/peer_watch.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace shoal::node {

PeerWatch::PeerWatch(absl::Duration timeout, MetricsRegistry* metrics, absl::Time now)
    : timeout_(timeout), silence_(kCheckInterval, now), stall_metrics_(metrics, "data-plane") {}

void PeerWatch::Follow(const std::vector<std::pair<int, liveness::ProcessIdentity>>& peers,
                       absl::Time now) {
  std::vector<int> now_watched;
  for (const auto& [id, identity] : peers) {
    now_watched.push_back(id);
    if (!silence_.watching(id)) silence_.Watch(id, timeout_, now, identity);
  }
  for (int id : watched_) {
    if (std::find(now_watched.begin(), now_watched.end(), id) == now_watched.end()) {
      silence_.Forget(id);
    }
  }
  watched_ = std::move(now_watched);
}

PeerWatch::Result PeerWatch::Check(absl::Time now,
                                   absl::FunctionRef<bool(int peer)> has_unread_frame) {
  liveness::SilenceDetector::Report report = silence_.Check(now, &probe_);
  stall_metrics_.Record(report.tick);
  Result result;
  for (const liveness::SilenceDetector::Note& note : report.notes) {
    result.notes.push_back(
        absl::StrCat("peer data node ", note.peer, " ", liveness::SilenceDetector::Describe(note)));
  }
  for (int id : report.failed) {
    if (has_unread_frame(id)) {
      silence_.Heard(id, now);
      continue;
    }
    result.lost.push_back(id);
  }
  return result;
}

}  // namespace shoal::node
