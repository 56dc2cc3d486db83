// DdlQueue: the dictionary master's DDL requests, run one at a time in arrival order, and the
// bookkeeping of the one in flight: which peers have not confirmed installing its result, and
// for a change of the accounts, which routers have not said they saw it.
//
// A request is queued by Push(), runs when it reaches the front and none is in flight (Next()
// hands it out), then either finishes at once (an error, no change, or no peer to wait for:
// Finish()) or goes in flight (Wait()) until every peer it waits for has confirmed or left
// (Confirm() says so), when it is finished. Owned by the DictionaryRole.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "absl/time/time.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

class DdlQueue {
 public:
  struct Ddl {
    uint32_t conn = 0;  // the client's connection, answered with `conf`
    wire::DictReq req;
    wire::DictConf conf;
    std::vector<int> waiting_for;  // peers that have not confirmed the install yet
    // A change of the accounts also waits for the routers' connections that were told of it
    // (DictionarySeen of `version` or newer), until `routers_deadline` at most.
    std::vector<uint32_t> routers;
    uint32_t version = 0;
    absl::Time routers_deadline = absl::InfinitePast();
  };

  void Push(uint32_t conn, wire::DictReq req);
  // The request to run next: the front one, when none is in flight; nullptr otherwise.
  Ddl* Next();
  // The front request waits for the peers in its waiting_for and the routers in its routers
  // (not both empty).
  void Wait();
  // Removes the front request (in flight or not) and gives it back.
  Ddl Finish();
  // Peer `node` confirmed the install in flight, or left. True when the request in flight
  // waits for nobody now (Finish() it); false when none is in flight.
  bool Confirm(int node);
  // Router connection `conn` has seen dictionary `version` (or closed: UINT32_MAX). True as
  // Confirm's.
  bool RouterSaw(uint32_t conn, uint32_t version);
  // Past the request's routers_deadline the routers that have not answered are waited for no
  // more: their number (0: none were left, or none is in flight). Then Finish() it when
  // waits_for_nobody().
  size_t ExpireRouters(absl::Time now);
  bool waits_for_nobody() const {
    return in_flight_ && queue_.front().waiting_for.empty() && queue_.front().routers.empty();
  }

  bool in_flight() const { return in_flight_; }
  size_t size() const { return queue_.size(); }

 private:
  std::deque<Ddl> queue_;  // front: the one running or in flight
  bool in_flight_ = false;
};

}  // namespace shoal::node
