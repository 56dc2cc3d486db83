#include "router/net/worker_count.h"

#include <algorithm>

namespace shoal::router {

int ChooseWorkerCount(int configured, const std::vector<int>& cpus, int online_cpus) {
  if (configured > 0) return configured;
  if (!cpus.empty()) return static_cast<int>(cpus.size());
  return std::max(1, online_cpus / 4);
}

}  // namespace shoal::router
