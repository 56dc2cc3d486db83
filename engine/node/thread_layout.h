// Which threads a data node runs and which roles each plays (docs/architecture.md I3), from the
// CPUs it was granted: the `cpus` list, else `threads`, else the machine's CPU count.
#pragma once

#include <string>
#include <vector>

namespace shoal::node {

struct ThreadLayout {
  int threads = 1;    // the data-plane thread plus one per LDM when LDMs have threads
  int ldm_count = 1;  // LDM instances (partition owners)
  std::string Describe() const;
};

// 1–2 CPUs: one thread runs recv, send, main and one LDM (the other CPU is left to a client
// on the same host); more: one data-plane thread (recv, send, main) and an LDM thread per CPU
// beyond the first, up to 32. `configured_threads` (config `threads`, when not 0) is the thread
// count itself: 1 runs every role on one thread, N > 1 one data-plane and N - 1 LDM threads.
ThreadLayout ChooseThreadLayout(int configured_threads, const std::vector<int>& cpus,
                                int machine_cpus);

}  // namespace shoal::node
