// How many worker threads a router runs when its configuration says `threads: 0`.
#pragma once

#include <vector>

namespace shoal::router {

// `configured` when non-zero. Otherwise one worker per CPU of `cpus` (the router's own,
// pinned, CPUs), or, unpinned, one per 4 of the machine's `online_cpus`, at least one: an
// unpinned router shares its host with data nodes and clients, and on a small machine a
// second worker only adds wake-ups (bench/RESULTS.md, issue 17).
int ChooseWorkerCount(int configured, const std::vector<int>& cpus, int online_cpus);

}  // namespace shoal::router
