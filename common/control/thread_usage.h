// ThreadSampler: the CPU each thread of this process used since the last sample, from
// /proc/self/task — what the console's REPORT THREADS shows (as ndb_top shows a data node's
// threads). The threads are known by the names they gave themselves (pthread_setname_np:
// "data-plane", "ldm-1", "router-w0", …).
//
// Owned by one thread (the node's control loop, which samples at each heartbeat).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"

namespace shoal::control {

class ThreadSampler {
 public:
  // Every live thread, with its user and system CPU as percent of one core since the previous
  // sample (since the thread started, for the first), in tid order.
  std::vector<ThreadUsage> Sample(absl::Time now);

 private:
  struct Ticks {
    uint64_t user = 0;
    uint64_t system = 0;
  };
  absl::flat_hash_map<pid_t, Ticks> last_;
  absl::Time last_time_ = absl::InfinitePast();
};

// One thread's name and CPU ticks from the text of /proc/<pid>/task/<tid>/stat; false when it is
// not that. The name is the one between the first '(' and the last ')', so a name holding
// spaces or parentheses is read whole.
bool ParseThreadStat(absl::string_view stat, std::string* name, uint64_t* user_ticks,
                     uint64_t* system_ticks);

}  // namespace shoal::control
