// DdlQueue: the dictionary master's DDL requests, run one at a time in arrival order, and the
// bookkeeping of the one in flight: which peers have not confirmed installing its result.
//
// A request is queued by Push(), runs when it reaches the front and none is in flight (Next()
// hands it out), then either finishes at once (an error, no change, or no peer to wait for:
// Finish()) or goes in flight (Wait()) until every peer it waits for has confirmed or left
// (Confirm() says so), when it is finished. Owned by the DictionaryRole.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

class DdlQueue {
 public:
  struct Ddl {
    uint32_t conn = 0;  // the client's connection, answered with `conf`
    wire::DictReq req;
    wire::DictConf conf;
    std::vector<int> waiting_for;  // peers that have not confirmed the install yet
  };

  void Push(uint32_t conn, wire::DictReq req);
  // The request to run next: the front one, when none is in flight; nullptr otherwise.
  Ddl* Next();
  // The front request waits for the peers in its waiting_for (not empty).
  void Wait();
  // Removes the front request (in flight or not) and gives it back.
  Ddl Finish();
  // Peer `node` confirmed the install in flight, or left. True when the request in flight
  // waits for nobody now (Finish() it); false when none is in flight.
  bool Confirm(int node);

  bool in_flight() const { return in_flight_; }
  size_t size() const { return queue_.size(); }

 private:
  std::deque<Ddl> queue_;  // front: the one running or in flight
  bool in_flight_ = false;
};

}  // namespace shoal::node
