// What the router keeps of MySQL's user-level locks (GET_LOCK and its kin), which the
// dictionary master holds for the whole cluster (docs/architecture.md, "User-level locks").
//
// A statement that calls one of the functions cannot have its answer at once — it is the
// master's — so its evaluation stops at the first call it has no answer for (UserLockCalls::
// wanted); the executor asks the master (exec/user_locks.h) and runs the statement again from
// the start, the answers so far handed to the calls in their order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "protocol/value.h"

namespace shoal::sql {

enum class UserLockOp : uint8_t { kGet, kRelease, kReleaseAll, kIsFree, kIsUsed };

struct UserLockRequest {
  UserLockOp op = UserLockOp::kGet;
  std::string name;  // lower case: MySQL's names compare without case
  // GET_LOCK: how long it waits; InfiniteDuration for a negative timeout.
  absl::Duration timeout = absl::ZeroDuration();
};

// A session's statement calling the functions. Mutable while a statement runs; emptied when
// it ends.
struct UserLockCalls {
  std::vector<mysql::Value> answers;  // of the calls so far, in their order
  size_t next = 0;                    // the call being evaluated in this run
  std::optional<UserLockRequest> wanted;
  size_t keep_warnings = 0;  // the diagnostics from before the statement began
  // Whether a call may stop the statement here (set by the executor where it can wait).
  bool allowed = false;
  void Reset() {
    answers.clear();
    next = 0;
    wanted.reset();
  }
};

// One router worker's sessions' locks, as the master granted them: session (CONNECTION_ID) →
// name → acquisitions not released. Told to a new master (Reassert), and released when the
// session ends.
struct UserLockHolds {
  absl::flat_hash_map<uint64_t, absl::flat_hash_map<std::string, uint64_t>> by_session;
  int master = -1;  // the dictionary master they were last told to
  absl::Time next_reassert = absl::InfinitePast();
};

}  // namespace shoal::sql
