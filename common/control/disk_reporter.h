// DiskReporter: lets a data node tell the mgmd what its disk holds — the epoch it last heard
// was complete cluster-wide, the last epoch its own redo holds fully, and from which epoch it
// can restore — so that the mgmd can choose the epoch a whole-cluster restart recovers (a
// system restart; docs/architecture.md, "Membership").
//
// Two ends share one state, as StartProgress's do. DiskReporter is the node's end: a cheap
// copyable handle, safe from any thread (the data plane's and the redo writer's included), from
// the start hook on and for as long as the thread likes — once the node runtime has detached
// (the node is stopping), every call does nothing. DiskReporterReceiver is the runtime's end
// (ManagedNode owns one): it hands out the handles and hears the latest report on its
// EventLoop's thread, by EventLoop::Post.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/functional/any_invocable.h"
#include "common/event_loop.h"

namespace shoal::control {

namespace internal {
struct DiskReporterState;
}  // namespace internal

// What a data node's disk holds; the fields of control.proto's DiskState.
struct DiskReport {
  uint64_t complete_epoch = 0;   // the last epoch the node was told is complete cluster-wide
  uint64_t saved_epoch = 0;      // the last epoch its own redo holds fully
  uint64_t restorable_from = 0;  // 0: nothing restorable; else restorable_from..saved_epoch

  friend bool operator==(const DiskReport&, const DiskReport&) = default;
};

class DiskReporter {
 public:
  // A handle bound to nothing: every call is a no-op.
  DiskReporter() = default;

  // Any thread, any time (before, during and after the start; a no-op once the node is
  // stopping): the disk's current state. Reports are coalesced: the runtime takes the latest at
  // its next loop turn. Every heartbeat to the mgmd then carries it (and heartbeats after a
  // reconnect, so a restarted mgmd learns it again); the first report goes out at once, in an
  // extra heartbeat, as the mgmd waits for it to decide a system restart. Cheap enough to call
  // at every epoch.
  void Report(uint64_t complete_epoch, uint64_t saved_epoch, uint64_t restorable_from) const;

 private:
  friend class DiskReporterReceiver;
  explicit DiskReporter(std::shared_ptr<internal::DiskReporterState> state)
      : state_(std::move(state)) {}

  std::shared_ptr<internal::DiskReporterState> state_;
};

// The runtime's end. Owned by the node runtime; loop thread only. Its callback runs on the loop
// thread, never after Detach() or its destruction.
class DiskReporterReceiver {
 public:
  // The latest report (earlier ones not yet delivered are dropped).
  using OnReport = absl::AnyInvocable<void(const DiskReport& report)>;

  // `loop` must outlive this object.
  DiskReporterReceiver(EventLoop* loop, OnReport on_report);
  ~DiskReporterReceiver();  // detaches
  DiskReporterReceiver(const DiskReporterReceiver&) = delete;
  DiskReporterReceiver& operator=(const DiskReporterReceiver&) = delete;

  DiskReporter handle() const { return DiskReporter(state_); }

  // From now on every handle call does nothing and the callback does not run. Returns once no
  // other thread is inside a handle call (so none touches the EventLoop afterwards). Idempotent.
  void Detach();

 private:
  friend class DiskReporter;
  // Posted to the loop: delivers the latest report the handles left in `state`.
  static void Deliver(const std::shared_ptr<internal::DiskReporterState>& state);

  std::shared_ptr<internal::DiskReporterState> state_;
  OnReport on_report_;
};

}  // namespace shoal::control
