// CeilingRaises: the dictionary master's AUTO_INCREMENT ceiling raises on their way to the
// other data nodes (wire::RaiseAutoIncrement), and the reservations waiting for them.
//
// A reservation that raised its table's ceiling, or that came while a raise of that table is
// still unconfirmed, is answered only once every peer the raise went to has confirmed it or
// left: then whichever node takes over as master knows of the values handed out. A peer
// installs raises in the order they were sent, so a confirmation covers every earlier raise
// too. Owned by the DictionaryRole.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

class CeilingRaises {
 public:
  // A reservation's answer, held back.
  struct Held {
    uint32_t conn = 0;
    wire::DictConf conf;
  };

  // A raise of `table_id`'s ceiling sent to `peers` (not empty): its number, for its DictReq
  // tag.
  uint64_t Start(uint32_t table_id, std::vector<int> peers);
  // The latest raise of `table_id` that is not confirmed yet; 0: none.
  uint64_t Unconfirmed(uint32_t table_id) const;
  // `conf` goes to connection `conn` once raise `raise` is confirmed; false (nothing held)
  // when that raise is not in flight.
  bool Hold(uint64_t raise, uint32_t conn, wire::DictConf* conf);
  // Peer `node` installed every raise up to `raise` (or left: kEveryRaise): the answers no
  // raise holds back any more.
  std::vector<Held> Confirm(int node, uint64_t raise);

  static constexpr uint64_t kEveryRaise = UINT64_MAX;
  size_t in_flight() const { return raises_.size(); }

 private:
  struct Raise {
    uint64_t number = 0;
    uint32_t table_id = 0;
    std::vector<int> waiting_for;  // peers that have not confirmed it yet
    std::vector<Held> held;
  };

  std::vector<Raise> raises_;  // ascending numbers
  uint64_t next_number_ = 1;
};

}  // namespace shoal::node
