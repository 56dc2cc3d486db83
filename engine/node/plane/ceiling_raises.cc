// The master's AUTO_INCREMENT ceiling raises in flight.
#include "engine/node/plane/ceiling_raises.h"

#include <algorithm>
#include <utility>

#include "common/logging.h"

namespace shoal::node {

uint64_t CeilingRaises::Start(uint32_t table_id, std::vector<int> peers) {
  SHOAL_DCHECK(!peers.empty());
  raises_.push_back(Raise{next_number_, table_id, std::move(peers), {}});
  return next_number_++;
}

uint64_t CeilingRaises::Unconfirmed(uint32_t table_id) const {
  for (auto it = raises_.rbegin(); it != raises_.rend(); ++it) {
    if (it->table_id == table_id) return it->number;
  }
  return 0;
}

bool CeilingRaises::Hold(uint64_t raise, uint32_t conn, wire::DictConf* conf) {
  for (Raise& r : raises_) {
    if (r.number == raise) {
      r.held.push_back(Held{conn, std::move(*conf)});
      return true;
    }
  }
  return false;
}

std::vector<CeilingRaises::Held> CeilingRaises::Confirm(int node, uint64_t raise) {
  std::vector<Held> released;
  for (Raise& r : raises_) {
    if (r.number > raise) break;
    std::erase(r.waiting_for, node);
    if (r.waiting_for.empty()) {
      for (Held& held : r.held) released.push_back(std::move(held));
    }
  }
  std::erase_if(raises_, [](const Raise& r) { return r.waiting_for.empty(); });
  return released;
}

}  // namespace shoal::node
