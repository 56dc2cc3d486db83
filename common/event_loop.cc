#include "common/event_loop.h"

#include <event2/thread.h>
#include <time.h>

#include <utility>

#include "absl/status/status.h"

namespace shoal {
namespace {

timeval ClampedTimeval(absl::Duration d) {
  if (d < absl::ZeroDuration()) d = absl::ZeroDuration();
  return absl::ToTimeval(d);
}

int64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace

absl::StatusOr<std::unique_ptr<EventLoop>> EventLoop::Create() {
  // Post() and Stop() come from other threads; libevent must lock its bases for that.
  static std::once_flag threads_enabled;
  std::call_once(threads_enabled, [] { evthread_use_pthreads(); });
  event_base* base = event_base_new();
  if (base == nullptr) return absl::InternalError("event_base_new failed");
  return std::unique_ptr<EventLoop>(new EventLoop(base));
}

EventLoop::EventLoop(event_base* base) : base_(base) {
  wakeup_ = event_new(base_, -1, 0, &EventLoop::OnWakeup, this);
}

EventLoop::~EventLoop() {
  event_free(wakeup_);
  event_base_free(base_);
}

void EventLoop::Run(absl::Duration spin) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_requested_ = false;
  }
  if (spin <= absl::ZeroDuration()) {
    event_base_loop(base_, EVLOOP_NO_EXIT_ON_EMPTY);
    return;
  }
  const int64_t spin_ns = absl::ToInt64Nanoseconds(spin);
  int64_t busy_until = 0;
  for (;;) {
    uint64_t work_before = work_;
    bool polling = MonotonicNanos() < busy_until;
    event_base_loop(base_, (polling ? EVLOOP_NONBLOCK : EVLOOP_ONCE) | EVLOOP_NO_EXIT_ON_EMPTY);
    if (event_base_got_break(base_)) return;
    if (work_ != work_before) busy_until = MonotonicNanos() + spin_ns;
  }
}

void EventLoop::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_requested_ = true;
  }
  event_active(wakeup_, EV_READ, 0);
}

void EventLoop::Post(absl::AnyInvocable<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    posted_.push_back(std::move(task));
  }
  event_active(wakeup_, EV_READ, 0);
}

void EventLoop::OnWakeup(evutil_socket_t, short, void* arg) {
  static_cast<EventLoop*>(arg)->RunPosted();
}

void EventLoop::RunPosted() {
  std::vector<absl::AnyInvocable<void()>> tasks;
  bool stop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tasks.swap(posted_);
    stop = stop_requested_;
  }
  for (auto& task : tasks) task();
  if (stop) event_base_loopbreak(base_);
}

Timer::Timer(EventLoop* loop, absl::AnyInvocable<void()> callback)
    : base_(loop->base()), callback_(std::move(callback)) {
  event_ = event_new(base_, -1, 0, &Timer::OnFire, this);
}

Timer::~Timer() { event_free(event_); }

void Timer::Start(absl::Duration delay, Mode mode) {
  event_del(event_);
  mode_ = mode;
  event_assign(event_, base_, -1, mode == Mode::kRepeat ? EV_PERSIST : 0, &Timer::OnFire, this);
  timeval tv = ClampedTimeval(delay);
  event_add(event_, &tv);
}

void Timer::Cancel() { event_del(event_); }

bool Timer::pending() const { return event_pending(event_, EV_TIMEOUT, nullptr) != 0; }

void Timer::OnFire(evutil_socket_t, short, void* arg) { static_cast<Timer*>(arg)->callback_(); }

SignalWatcher::SignalWatcher(EventLoop* loop, int signo, absl::AnyInvocable<void()> callback)
    : callback_(std::move(callback)) {
  event_ = evsignal_new(loop->base(), signo, &SignalWatcher::OnSignal, this);
  event_add(event_, nullptr);
}

SignalWatcher::~SignalWatcher() { event_free(event_); }

void SignalWatcher::OnSignal(evutil_socket_t, short, void* arg) {
  static_cast<SignalWatcher*>(arg)->callback_();
}

}  // namespace shoal
