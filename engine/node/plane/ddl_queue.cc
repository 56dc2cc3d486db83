// The master's DDL queue.
#include "engine/node/plane/ddl_queue.h"

#include <utility>

#include "common/logging.h"

namespace shoal::node {

void DdlQueue::Push(uint32_t conn, wire::DictReq req) {
  queue_.push_back(Ddl{conn, std::move(req), {}, {}});
}

DdlQueue::Ddl* DdlQueue::Next() {
  if (in_flight_ || queue_.empty()) return nullptr;
  return &queue_.front();
}

void DdlQueue::Wait() {
  SHOAL_DCHECK(!queue_.empty() && !queue_.front().waiting_for.empty());
  in_flight_ = true;
}

DdlQueue::Ddl DdlQueue::Finish() {
  Ddl ddl = std::move(queue_.front());
  queue_.pop_front();
  in_flight_ = false;
  return ddl;
}

bool DdlQueue::Confirm(int node) {
  if (!in_flight_) return false;
  std::erase(queue_.front().waiting_for, node);
  return queue_.front().waiting_for.empty();
}

}  // namespace shoal::node
