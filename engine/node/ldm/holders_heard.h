// HoldersHeard: what a lock holder may be waiting on, as the data-plane thread last heard it —
// whether every serving replica of the node group has been heard from lately (a holder's
// commit waits for their acknowledgements), and which keep-alive clients have not (a holder
// whose client is silent cannot send its next statement). LDMs read it when they time their
// lock waits (LockWaits), so that a busy neighbour starving another process of the cluster
// does not end waits with 1205 as if they were deadlocks.
//
// Written by the data-plane thread (Publish), read by every LDM, on LDM threads too (Read).
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/time/time.h"

namespace shoal::node {

class HoldersHeard {
 public:
  struct View {
    absl::Time at = absl::InfinitePast();  // when the data-plane thread published it
    bool group_heard = true;
    std::vector<uint32_t> silent_clients;  // connection ids
  };

  void Publish(absl::Time now, bool group_heard, std::vector<uint32_t> silent_clients) {
    std::lock_guard<std::mutex> lock(mu_);
    view_.at = now;
    view_.group_heard = group_heard;
    view_.silent_clients = std::move(silent_clients);
  }
  void Read(View* view) const {
    std::lock_guard<std::mutex> lock(mu_);
    *view = view_;
  }

 private:
  mutable std::mutex mu_;  // guards view_ (a pthread lock, which ThreadSanitizer sees)
  View view_;
};

}  // namespace shoal::node
