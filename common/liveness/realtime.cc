#include "common/liveness/realtime.h"

#include <sched.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/logging.h"

namespace shoal::liveness {

absl::Status UseRealtimeScheduling(absl::string_view thread) {
  sched_param param{};
  param.sched_priority = kRealtimePriority;
  // Pid 0 is the calling thread. SCHED_RESET_ON_FORK: threads it creates later, and processes
  // it forks (the mgmd's nodes), start under the ordinary scheduler — realtime is only for
  // the threads that ask for it.
  if (sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &param) != 0) {
    int error = errno;
    absl::Status status = absl::PermissionDeniedError(absl::StrCat(
        "realtime scheduling (SCHED_RR) for the ", thread, " thread is not permitted here (",
        std::strerror(error), "; it needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least ",
        kRealtimePriority, "): the thread runs under the ordinary scheduler"));
    SHOAL_LOG(kWarning) << status.message();
    return status;
  }
  SHOAL_LOG(kInfo) << "the " << thread << " thread runs under realtime scheduling (SCHED_RR, "
                   << "priority " << kRealtimePriority << ")";
  return absl::OkStatus();
}

}  // namespace shoal::liveness
