#include "common/control/start_progress.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "common/logging.h"

namespace shoal::control {
namespace internal {

// Shared by the receiver and every handle. Handles post to `loop` only while holding `mu` and
// only while it is non-null, so once Detach() has cleared it no thread touches the loop.
struct StartProgressState {
  // std::mutex rather than absl::Mutex, as in EventLoop: ThreadSanitizer cannot see Debian's
  // absl::Mutex synchronize.
  std::mutex mu;
  EventLoop* loop ABSL_GUARDED_BY(mu) = nullptr;  // null once detached
  StartProgressReceiver* receiver ABSL_GUARDED_BY(mu) = nullptr;
  bool in_start_hook ABSL_GUARDED_BY(mu) = false;
  bool deferred ABSL_GUARDED_BY(mu) = false;
  bool done ABSL_GUARDED_BY(mu) = false;             // Done() accepted
  bool delivery_posted ABSL_GUARDED_BY(mu) = false;  // a Deliver is queued on the loop
  bool report_pending ABSL_GUARDED_BY(mu) = false;
  std::string phase ABSL_GUARDED_BY(mu);
  int percent ABSL_GUARDED_BY(mu) = -1;
  std::optional<absl::Status> done_pending ABSL_GUARDED_BY(mu);
};

}  // namespace internal

using internal::StartProgressState;

void StartProgress::Defer() const {
  if (state_ == nullptr) return;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->loop == nullptr) return;
  SHOAL_CHECK(state_->in_start_hook) << "StartProgress::Defer() outside the start hook";
  state_->deferred = true;
}

void StartProgress::Report(std::string phase, int percent) const {
  if (state_ == nullptr) return;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->loop == nullptr || state_->done) return;
  state_->phase = std::move(phase);
  state_->percent = std::clamp(percent, -1, 100);
  state_->report_pending = true;
  // One Deliver at a time carries the latest report: a thread reporting per batch costs the
  // loop one task per turn, not one per call.
  if (!std::exchange(state_->delivery_posted, true)) {
    state_->loop->Post([state = state_] { StartProgressReceiver::Deliver(state); });
  }
}

void StartProgress::Done(absl::Status status) const {
  if (state_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->loop == nullptr || state_->done) return;
    if (state_->deferred) {
      state_->done = true;
      state_->done_pending = std::move(status);
      if (!std::exchange(state_->delivery_posted, true)) {
        state_->loop->Post([state = state_] { StartProgressReceiver::Deliver(state); });
      }
      return;
    }
  }
  SHOAL_LOG(kWarning) << "StartProgress::Done() without Defer() ignored (" << status << ")";
}

StartProgressReceiver::StartProgressReceiver(EventLoop* loop, Callbacks callbacks)
    : state_(std::make_shared<StartProgressState>()), callbacks_(std::move(callbacks)) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->loop = loop;
  state_->receiver = this;
}

StartProgressReceiver::~StartProgressReceiver() { Detach(); }

void StartProgressReceiver::BeginStartHook() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->in_start_hook = true;
}

bool StartProgressReceiver::EndStartHook() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->in_start_hook = false;
  return state_->deferred;
}

void StartProgressReceiver::Detach() {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->loop = nullptr;
  state_->receiver = nullptr;
  state_->in_start_hook = false;
}

void StartProgressReceiver::Deliver(const std::shared_ptr<StartProgressState>& state) {
  StartProgressReceiver* receiver = nullptr;
  bool report = false;
  std::string phase;
  int percent = -1;
  std::optional<absl::Status> done;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->delivery_posted = false;
    receiver = state->receiver;
    if (receiver == nullptr) return;
    report = std::exchange(state->report_pending, false);
    phase = state->phase;
    percent = state->percent;
    done = std::exchange(state->done_pending, std::nullopt);
  }
  // Callbacks run without the lock: they may call back into the handles.
  if (report && receiver->callbacks_.on_report) receiver->callbacks_.on_report(phase, percent);
  if (!done.has_value()) return;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    if (state->receiver == nullptr) return;  // on_report detached it
  }
  if (receiver->callbacks_.on_done) receiver->callbacks_.on_done(std::move(*done));
}

}  // namespace shoal::control
