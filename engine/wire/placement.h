// Where a partition lives (docs/architecture.md I2), agreed by native clients and data nodes: the
// partition belongs to node group `partition % node_groups`, has a replica on every node of
// that group, and the replicas take turns being primary, so both nodes of a two-replica group
// serve reads and writes. When a group's natural primary is down, the next started replica
// (in configuration order) is primary instead.
#pragma once

#include <cstdint>

namespace shoal::wire {

inline int NodeGroupOf(uint32_t partition, int node_groups) {
  return static_cast<int>(partition % static_cast<uint32_t>(node_groups));
}

// The position, within its node group (configuration order), of the replica that is primary
// for `partition`; `started(i)` says whether the group's i-th node serves. -1: none does.
template <typename Started>
int PrimaryReplica(uint32_t partition, int node_groups, int group_size, Started started) {
  if (group_size <= 0 || node_groups <= 0) return -1;
  int first = static_cast<int>((partition / static_cast<uint32_t>(node_groups)) %
                               static_cast<uint32_t>(group_size));
  for (int i = 0; i < group_size; ++i) {
    int replica = (first + i) % group_size;
    if (started(replica)) return replica;
  }
  return -1;
}

}  // namespace shoal::wire
