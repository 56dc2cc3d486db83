#include "common/control/arbitrator.h"

#include <mutex>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"

namespace shoal::control {
namespace internal {

// Shared by the receiver and every handle. Handles post to `loop` only while holding `mu` and
// only while it is non-null, so once Detach() has cleared it no thread touches the loop. Calls
// wait in `requests` and `stops` rather than in posted tasks, so Detach() can answer those the
// loop will never run.
struct ArbitratorState {
  struct Request {
    int lost = 0;
    absl::Time deadline;
    Arbitrator::Done done;
  };
  struct Stop {
    std::string reason;
    int exit_code = 0;
  };

  // std::mutex rather than absl::Mutex, as in EventLoop: ThreadSanitizer cannot see Debian's
  // absl::Mutex synchronize.
  std::mutex mu;
  EventLoop* loop ABSL_GUARDED_BY(mu) = nullptr;  // null once detached
  ArbitratorReceiver::Callbacks* callbacks ABSL_GUARDED_BY(mu) = nullptr;
  bool delivery_posted ABSL_GUARDED_BY(mu) = false;  // a Deliver is queued on the loop
  std::vector<Request> requests ABSL_GUARDED_BY(mu);
  std::vector<Stop> stops ABSL_GUARDED_BY(mu);
  std::vector<std::string> notes ABSL_GUARDED_BY(mu);
};

}  // namespace internal

using internal::ArbitratorState;

namespace {

constexpr char kDetached[] = "the node is stopping: no arbitration";

}  // namespace

void Arbitrator::Arbitrate(int lost, absl::Duration timeout, Done done) const {
  if (state_ != nullptr) {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->loop != nullptr) {
      state_->requests.push_back({lost, absl::Now() + timeout, std::move(done)});
      PostDelivery();
      return;
    }
  }
  done(false, kDetached);
}

void Arbitrator::StopNode(std::string reason, int exit_code) const {
  if (state_ == nullptr) return;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->loop == nullptr) return;
  state_->stops.push_back({std::move(reason), exit_code});
  PostDelivery();
}

void Arbitrator::Note(std::string line) const {
  if (state_ == nullptr) return;
  std::lock_guard<std::mutex> lock(state_->mu);
  if (state_->loop == nullptr) return;
  state_->notes.push_back(std::move(line));
  PostDelivery();
}

void Arbitrator::PostDelivery() const {
  if (!std::exchange(state_->delivery_posted, true)) {
    state_->loop->Post([state = state_] { ArbitratorReceiver::Deliver(state); });
  }
}

ArbitratorReceiver::ArbitratorReceiver(EventLoop* loop, Callbacks callbacks)
    : state_(std::make_shared<ArbitratorState>()), callbacks_(std::move(callbacks)) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->loop = loop;
  state_->callbacks = &callbacks_;
}

ArbitratorReceiver::~ArbitratorReceiver() { Detach(); }

void ArbitratorReceiver::Detach() {
  std::vector<ArbitratorState::Request> requests;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->loop = nullptr;
    state_->callbacks = nullptr;
    requests.swap(state_->requests);
    state_->stops.clear();
    state_->notes.clear();
  }
  for (auto& request : requests) request.done(false, kDetached);
}

void ArbitratorReceiver::Deliver(const std::shared_ptr<ArbitratorState>& state) {
  std::vector<ArbitratorState::Request> requests;
  std::vector<ArbitratorState::Stop> stops;
  std::vector<std::string> notes;
  Callbacks* callbacks = nullptr;
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->delivery_posted = false;
    callbacks = state->callbacks;
    if (callbacks == nullptr) return;  // detached: Detach() answered the requests
    requests.swap(state->requests);
    stops.swap(state->stops);
    notes.swap(state->notes);
  }
  // Notes first: a stop that follows may end the connection they go out on.
  if (callbacks->on_note) {
    for (std::string& note : notes) callbacks->on_note(std::move(note));
  }
  // Callbacks run without the lock: they may call back into the handles. Detach() happens on
  // this thread, so `callbacks` stays valid until a callback detaches.
  absl::Time now = absl::Now();
  for (size_t i = 0; i < requests.size(); ++i) {
    ArbitratorState::Request& request = requests[i];
    {
      std::lock_guard<std::mutex> lock(state->mu);
      if (state->callbacks == nullptr) {  // a callback detached the receiver
        for (; i < requests.size(); ++i) requests[i].done(false, kDetached);
        return;
      }
    }
    if (callbacks->on_arbitrate) {
      callbacks->on_arbitrate(request.lost, request.deadline - now, std::move(request.done));
    } else {
      request.done(false, "this node has no arbitrator");
    }
  }
  for (ArbitratorState::Stop& stop : stops) {
    {
      std::lock_guard<std::mutex> lock(state->mu);
      if (state->callbacks == nullptr) return;
    }
    if (callbacks->on_stop) callbacks->on_stop(std::move(stop.reason), stop.exit_code);
  }
}

}  // namespace shoal::control
