// How the console prints the mgmd's replies. Pure functions of the reply, so they are tested
// without a cluster.
#pragma once

#include <string>

#include "absl/time/time.h"
#include "common/control/control.pb.h"

namespace shoal::console {

// SHOW: the nodes grouped by type, in the spirit of ndb_mgm's SHOW; then, while a system
// restart is decided, a last line such as "System restart: recovering epoch 1234 from data
// nodes 2, 3".
std::string FormatShow(const control::ClusterView& view);
// STATUS: one line per node (just `node_id` unless 0), e.g.
//   Node 3: datanode, starting for 12s (copying data, 42% done), shoal-0.1.0, pid 4242
//   Node 2: datanode, started for 12s, shoal-0.1.0, pid 4241, epoch 1234 complete
// where the parenthesis is a starting node's progress report, if it made one, and the epoch the
// last a data node heard was complete cluster-wide, once it reported its disk.
std::string FormatStatus(const control::ClusterView& view, uint32_t node_id, absl::Time now);
// REPORT MEMORYUSAGE (from a STATUS reply): per data node (just `node_id` unless 0), as
// ndb_mgm's, e.g.
//   Node 2: Data usage is 7%(36.5 MiB of 512 MiB)
// or why there is none ("not started", "not a data node").
std::string FormatMemoryUsage(const control::ClusterView& view, uint32_t node_id);
// REPORT THREADS (from a STATUS reply): per node (just `node_id` unless 0), its process's
// threads with the CPU each used since the node's previous heartbeat, as ndb_top shows them:
//   Node 2: datanode, pid 4242, 4 threads
//     data-plane        user  12.5%  system   3.0%  (tid 4245)
std::string FormatThreads(const control::ClusterView& view, uint32_t node_id);
// CLUSTERLOG: one line per event, oldest first.
std::string FormatClusterLog(const control::ConsoleRep& rep);

}  // namespace shoal::console
