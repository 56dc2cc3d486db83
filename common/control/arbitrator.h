// Arbitrator: a node's line to the arbitrator (the mgmd) for its own threads — ask whether the
// node may go on serving without a data node it can no longer reach (I5, no split brain), stop
// the node with an error when it may not, and tell the cluster log what the node's failure
// detector concluded about its peers.
//
// Two ends share one state, as StartProgress's do. Arbitrator is the node's end: a cheap
// copyable handle, safe from any thread, that a thread may keep for as long as it likes — once
// the node runtime has detached, Arbitrate answers false at once and StopNode does nothing.
// ArbitratorReceiver is the runtime's end (ManagedNode owns one): it hands out the handles and
// hears their calls on its EventLoop's thread, by EventLoop::Post.
#pragma once

#include <memory>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/time/time.h"
#include "common/event_loop.h"

namespace shoal::control {

namespace internal {
struct ArbitratorState;
}  // namespace internal

class Arbitrator {
 public:
  // The answer: granted, and one line saying why (the mgmd's reason, or why there was none).
  using Done = absl::AnyInvocable<void(bool granted, std::string why)>;

  // A handle bound to nothing: Arbitrate answers false at once, StopNode does nothing.
  Arbitrator() = default;

  // Any thread: asks the mgmd whether this node may go on serving without data node `lost`.
  // `done` runs once, on the node runtime's loop thread, with true (granted: the view that
  // no longer has `lost` serving has been delivered to the on_view hook before it) or false:
  // refused, no answer within `timeout`, or no connection to the mgmd (at once when the runtime
  // knows it has none, or when the connection is lost while waiting) — the node must then stop
  // (StopNode). Several requests may be outstanding, about the same node or others. Once the
  // runtime has detached (the node is stopping), `done` runs at once on the calling thread with
  // false, so a thread waiting for the answer is never left hanging; do not call this while
  // holding a lock `done` takes.
  void Arbitrate(int lost, absl::Duration timeout, Done done) const;

  // Any thread: stops the node as SIGTERM does (the stop hook runs, the mgmd hears that it is
  // stopping), logging `reason`; the process then exits with `exit_code` — give a non-zero one
  // for a node that must not go on (lost arbitration, no arbitrator), so a supervising mgmd
  // starts it again. A non-zero code replaces 0 even when the node is already stopping.
  void StopNode(std::string reason, int exit_code) const;

  // Any thread: a WARNING line for the cluster log, under this node's id — e.g. that a silent
  // peer was starved, not failed. Dropped once the runtime has detached.
  void Note(std::string line) const;

 private:
  friend class ArbitratorReceiver;
  void PostDelivery() const;  // REQUIRES: state_->mu held, state_->loop set
  explicit Arbitrator(std::shared_ptr<internal::ArbitratorState> state)
      : state_(std::move(state)) {}

  std::shared_ptr<internal::ArbitratorState> state_;
};

// The runtime's end. Owned by the node runtime; loop thread only. Its callbacks run on the loop
// thread, never after Detach() or its destruction.
class ArbitratorReceiver {
 public:
  struct Callbacks {
    // An Arbitrate() call; `timeout` is what is left of the caller's. The callee must run
    // `done` exactly once, on the loop thread.
    absl::AnyInvocable<void(int lost, absl::Duration timeout, Arbitrator::Done done)> on_arbitrate;
    // A StopNode() call.
    absl::AnyInvocable<void(std::string reason, int exit_code)> on_stop;
    // A Note() call.
    absl::AnyInvocable<void(std::string line)> on_note;
  };

  // `loop` must outlive this object.
  ArbitratorReceiver(EventLoop* loop, Callbacks callbacks);
  ~ArbitratorReceiver();  // detaches
  ArbitratorReceiver(const ArbitratorReceiver&) = delete;
  ArbitratorReceiver& operator=(const ArbitratorReceiver&) = delete;

  Arbitrator handle() const { return Arbitrator(state_); }

  // From now on no callback runs; calls not yet delivered get false here (on this thread),
  // later Arbitrate calls get false at once and StopNode calls do nothing. Returns once no
  // other thread is inside a handle call. Idempotent.
  void Detach();

 private:
  friend class Arbitrator;
  // Posted to the loop: hands what the handles queued in `state` to the callbacks.
  static void Deliver(const std::shared_ptr<internal::ArbitratorState>& state);

  std::shared_ptr<internal::ArbitratorState> state_;
  Callbacks callbacks_;
};

}  // namespace shoal::control
