#include "common/control/disk_reporter.h"

#include <mutex>
#include <utility>

#include "absl/base/thread_annotations.h"

namespace shoal::control {
namespace internal {

// Shared by the receiver and every handle. Handles post to `loop` only while holding `mu` and
// only while it is non-null, so once Detach() has cleared it no thread touches the loop.
struct DiskReporterState {
  // std::mutex rather than absl::Mutex, as in EventLoop: ThreadSanitizer cannot see Debian's
  // absl::Mutex synchronize.
  std::mutex mu;
  EventLoop* loop ABSL_GUARDED_BY(mu) = nullptr;  // null once detached
  DiskReporterReceiver* receiver ABSL_GUARDED_BY(mu) = nullptr;
  bool delivery_posted ABSL_GUARDED_BY(mu) = false;  // a Deliver is queued on the loop
  DiskReport latest ABSL_GUARDED_BY(mu);
};

}  // namespace internal

using internal::DiskReporterState;

void DiskReporter::Report(uint64_t complete_epoch, uint64_t saved_epoch,
                          uint64_t restorable_from) const {
  if (state_ == nullptr) return;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->loop == nullptr) return;
  state_->latest = {complete_epoch, saved_epoch, restorable_from};
  // One Deliver at a time carries the latest report: a thread reporting at every epoch (or
  // more often) costs the loop one task per turn, not one per call.
  if (!std::exchange(state_->delivery_posted, true)) {
    state_->loop->Post([state = state_] { DiskReporterReceiver::Deliver(state); });
  }
}

DiskReporterReceiver::DiskReporterReceiver(EventLoop* loop, OnReport on_report)
    : state_(std::make_shared<DiskReporterState>()), on_report_(std::move(on_report)) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->loop = loop;
  state_->receiver = this;
}

DiskReporterReceiver::~DiskReporterReceiver() { Detach(); }

void DiskReporterReceiver::Detach() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->loop = nullptr;
  state_->receiver = nullptr;
}

void DiskReporterReceiver::Deliver(const std::shared_ptr<DiskReporterState>& state) {
  DiskReporterReceiver* receiver = nullptr;
  DiskReport report;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->delivery_posted = false;
    receiver = state->receiver;
    if (receiver == nullptr) return;
    report = state->latest;
  }
  // Without the lock: the callback may report again.
  if (receiver->on_report_) receiver->on_report_(report);
}

}  // namespace shoal::control
