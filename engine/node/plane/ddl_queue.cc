// The master's DDL queue.
#include "engine/node/plane/ddl_queue.h"

#include <utility>

#include "common/logging.h"

namespace shoal::node {

void DdlQueue::Push(uint32_t conn, wire::DictReq req) {
  queue_.push_back(Ddl{conn, std::move(req), {}, {}, {}, 0, absl::InfinitePast()});
}

DdlQueue::Ddl* DdlQueue::Next() {
  if (in_flight_ || queue_.empty()) return nullptr;
  return &queue_.front();
}

void DdlQueue::Wait() {
  SHOAL_DCHECK(!queue_.empty() &&
               !(queue_.front().waiting_for.empty() && queue_.front().routers.empty()));
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
  return waits_for_nobody();
}

bool DdlQueue::RouterSaw(uint32_t conn, uint32_t version) {
  if (!in_flight_ || version < queue_.front().version) return false;
  std::erase(queue_.front().routers, conn);
  return waits_for_nobody();
}

size_t DdlQueue::ExpireRouters(absl::Time now) {
  if (!in_flight_ || now < queue_.front().routers_deadline) return 0;
  size_t left = queue_.front().routers.size();
  queue_.front().routers.clear();
  return left;
}

}  // namespace shoal::node
