// EventLoop: one libevent event_base run by one thread, plus the few things every Shoal
// process needs from it — cross-thread posting, timers and signals.
//
// Owned by whoever created it; Run() is called by exactly one thread (the loop thread).
// Post() and Stop() are safe from any thread; everything else is for the loop thread only.
#pragma once

#include <event2/event.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace shoal {

class EventLoop {
 public:
  static absl::StatusOr<std::unique_ptr<EventLoop>> Create();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Runs until Stop(); returns after the turn in which Stop() was seen. With `spin` > 0, a
  // turn that did work (NoteWork) is followed by non-blocking turns for up to `spin` before
  // the loop blocks again: what arrives meanwhile is taken without a sleep and a wake-up, for
  // the price of a core polling (docs/architecture.md, "Busy-polling").
  void Run(absl::Duration spin = absl::ZeroDuration());
  // Loop thread only: a callback did work (input read, a result taken), so keep polling.
  void NoteWork() { ++work_; }
  // Thread-safe. Makes Run() return; tasks already posted still run first.
  void Stop();
  // Thread-safe. Runs `task` on the loop thread during a later turn.
  void Post(absl::AnyInvocable<void()> task);

  event_base* base() const { return base_; }

 private:
  explicit EventLoop(event_base* base);
  static void OnWakeup(evutil_socket_t, short, void* arg);
  void RunPosted();

  event_base* base_;
  event* wakeup_ = nullptr;
  uint64_t work_ = 0;
  // std::mutex rather than absl::Mutex: Debian's abseil is not built for ThreadSanitizer,
  // which then cannot see absl::Mutex synchronize.
  std::mutex mu_;
  std::vector<absl::AnyInvocable<void()>> posted_ ABSL_GUARDED_BY(mu_);
  bool stop_requested_ ABSL_GUARDED_BY(mu_) = false;
};

// A one-shot or periodic timer on an EventLoop. Owned by its creator; loop thread only.
// Destroying it cancels it.
class Timer {
 public:
  enum class Mode { kOnce, kRepeat };
  Timer(EventLoop* loop, absl::AnyInvocable<void()> callback);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // (Re)arms the timer: fires after `delay`, and every `delay` after that with kRepeat.
  void Start(absl::Duration delay, Mode mode = Mode::kOnce);
  void Cancel();
  bool pending() const;

 private:
  static void OnFire(evutil_socket_t, short, void* arg);

  event_base* base_;
  event* event_ = nullptr;
  Mode mode_ = Mode::kOnce;
  absl::AnyInvocable<void()> callback_;
};

// Runs `callback` on the loop thread whenever `signo` is delivered to the process.
// Owned by its creator; loop thread only. At most one EventLoop per process may watch signals.
class SignalWatcher {
 public:
  SignalWatcher(EventLoop* loop, int signo, absl::AnyInvocable<void()> callback);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  static void OnSignal(evutil_socket_t, short, void* arg);

  event* event_;
  absl::AnyInvocable<void()> callback_;
};

}  // namespace shoal
