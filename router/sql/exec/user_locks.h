// MySQL's user-level locks on the router (docs/architecture.md, "User-level locks"): the
// dictionary master holds them for the whole cluster; a statement calling GET_LOCK or its kin
// stops at the first call it has no answer for (eval/user_lock_calls.h), asks the master here
// and runs again with the answer. A GET_LOCK that finds its lock busy asks again every
// kUserLockPoll on the worker's event loop — which serves every other session meanwhile — until
// granted, its timeout, or KILL QUERY (then NULL, as MySQL's).
//
// Each worker keeps the locks its sessions hold (DataAccess::user_locks): a session that ends
// releases them, and a new master is told of them all before it grants any
// (MaintainUserLocks), so that no session believing it holds a lock sees another get it.
#pragma once

#include <cstdint>
#include <functional>

#include "absl/time/time.h"
#include "router/sql/eval/session.h"
#include "router/sql/exec/exec_internal.h"

namespace shoal::sql {

// How often a GET_LOCK waiting for a busy lock asks again, and looks for a KILL QUERY.
inline constexpr absl::Duration kUserLockPoll = absl::Milliseconds(20);

// The statement that runs where GET_LOCK and its kin may be called (a SELECT without tables,
// DO): `run` evaluates it. Its result, or — the evaluation stopped to ask the master — Deferred,
// the statement running again once answered.
StatementResult RunWithUserLocks(const internal::ExecContext& ctx,
                                 const std::function<StatementResult()>& run);

// Session `session` of this worker ended: the master releases what it held.
void EndSessionUserLocks(DataAccess* data, uint64_t session);

// Called by the worker now and then (every 100 ms): when the dictionary master is not the one
// this worker's sessions' locks were last told to (`master`, -1: none known), tells it.
void MaintainUserLocks(DataAccess* data, int master, absl::Time now);

}  // namespace shoal::sql
