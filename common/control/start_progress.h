// StartProgress: lets a node finish starting after its start hook has returned (a data node
// copying its partitions from a live replica), and report how far it has got meanwhile.
//
// Two ends share one state. StartProgress is the node's end: a cheap copyable handle, safe
// from any thread (the data plane's included), that becomes a no-op once the node runtime has
// detached — so a thread may hold a copy for as long as it likes, even past the EventLoop's
// life. StartProgressReceiver is the runtime's end (ManagedNode owns one): it hands out the
// handles, brackets the start hook, and hears reports and the end of starting on its
// EventLoop's thread, by EventLoop::Post.
#pragma once

#include <memory>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "common/event_loop.h"

namespace shoal::control {

namespace internal {
struct StartProgressState;
}  // namespace internal

class StartProgress {
 public:
  // A handle bound to nothing: every call is a no-op.
  StartProgress() = default;

  // Start hook only (on the loop thread, before the hook returns): NodeStarted waits for
  // Done() instead of being sent when the hook returns. Called anywhere else it is a broken
  // invariant (the process aborts) — unless the runtime has detached, when it does nothing.
  void Defer() const;
  // Any thread: the phase (short text, e.g. "copying data") and percent done (0-100, or -1
  // when not meaningful; other values are clamped to that range). Reports are coalesced: the
  // runtime takes the latest at its next loop turn and sends it to the mgmd with the next
  // heartbeat, or at once when the phase is new. Ignored after Done().
  void Report(std::string phase, int percent) const;
  // Any thread: starting is over. OK: NodeStarted is sent; an error: the node logs it and
  // stops with exit code 1, as a failed start hook does. Only the first call counts, and only
  // after Defer() (without it the node has already reported itself started).
  void Done(absl::Status status) const;

 private:
  friend class StartProgressReceiver;
  explicit StartProgress(std::shared_ptr<internal::StartProgressState> state)
      : state_(std::move(state)) {}

  std::shared_ptr<internal::StartProgressState> state_;
};

// The runtime's end. Owned by the node runtime; loop thread only. Its callbacks run on the
// loop thread, never after Detach() or its destruction.
class StartProgressReceiver {
 public:
  struct Callbacks {
    // The latest report (earlier ones not yet delivered are dropped).
    absl::AnyInvocable<void(const std::string& phase, int percent)> on_report;
    // Done() after Defer(); at most once, after any report made before it.
    absl::AnyInvocable<void(absl::Status status)> on_done;
  };

  // `loop` must outlive this object.
  StartProgressReceiver(EventLoop* loop, Callbacks callbacks);
  ~StartProgressReceiver();  // detaches
  StartProgressReceiver(const StartProgressReceiver&) = delete;
  StartProgressReceiver& operator=(const StartProgressReceiver&) = delete;

  StartProgress handle() const { return StartProgress(state_); }

  // Bracket the start hook: Defer() is allowed only in between. EndStartHook() returns
  // whether the hook deferred.
  void BeginStartHook();
  bool EndStartHook();

  // From now on every handle call does nothing and no callback runs. Returns once no other
  // thread is inside a handle call (so none touches the EventLoop afterwards). Idempotent.
  void Detach();

 private:
  friend class StartProgress;
  // Posted to the loop: delivers what the handles left in `state`.
  static void Deliver(const std::shared_ptr<internal::StartProgressState>& state);

  std::shared_ptr<internal::StartProgressState> state_;
  Callbacks callbacks_;
};

}  // namespace shoal::control
