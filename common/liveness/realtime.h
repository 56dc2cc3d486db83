// Realtime scheduling for the threads that carry heartbeats (the cluster's `realtime_scheduler`
// setting, NDB's RealtimeScheduler): under SCHED_RR the kernel runs them ahead of every
// ordinary thread, so a busy neighbour cannot starve them — whatever session or cgroup it is
// in. Threads that do the data path's work stay ordinary: a realtime thread that busy-polls
// would take its CPU from everything else.
#pragma once

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace shoal::liveness {

// SCHED_RR priority: above every ordinary thread, below the kernel's own realtime threads.
inline constexpr int kRealtimePriority = 10;

// Moves the calling thread to SCHED_RR (threads and processes it creates afterwards start under
// the ordinary scheduler) and logs one line saying so, or, when the system does
// not permit it (no CAP_SYS_NICE, RLIMIT_RTPRIO 0, a container), one warning saying why and
// that the thread goes on without it. `thread` names it in the log ("control", "data plane").
absl::Status UseRealtimeScheduling(absl::string_view thread);

}  // namespace shoal::liveness
