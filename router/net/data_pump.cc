#include "router/net/data_pump.h"

#include <event2/event.h>

#include <algorithm>
#include <memory>

#include "absl/time/time.h"
#include "common/logging.h"
#include "router/sql/exec/user_locks.h"

namespace shoal::router {
namespace {

// How often a worker with operations in flight checks its links without being woken.
constexpr absl::Duration kTick = absl::Milliseconds(10);
// How soon to retry output a transport pushed back.
constexpr absl::Duration kRetryOutput = absl::Milliseconds(1);

}  // namespace

DataPump::DataPump(EventLoop* loop, api::Cluster* cluster, MetricsRegistry* metrics)
    : loop_(loop),
      client_(cluster),
      flush_event_(event_new(loop->base(), -1, 0, &DataPump::OnFlush, this)),
      tick_(loop, [this] { Pump(); }),
      keep_alive_(loop,
                  [this, cluster] {
                    const absl::Time now = absl::Now();
                    client_.KeepAlive(now);
                    if (!user_locks.by_session.empty() || user_locks.master >= 0) {
                      std::shared_ptr<const api::Topology> topology = cluster->topology();
                      sql::MaintainUserLocks(this, topology == nullptr ? -1 : topology->Master(),
                                             now);
                    }
                  }),
      batches_(metrics->GetCounter("shoal_router_native_batches_total",
                                   "Batches of native operations a router worker sent.")) {
  keep_alive_.Start(api::Client::kKeepAliveInterval, Timer::Mode::kRepeat);
}

DataPump::~DataPump() {
  event_free(flush_event_);
  for (event* e : fd_events_) event_free(e);
  // Callbacks still waiting when the loop ended are never run.
  for (auto& [raw, delayed] : delayed_) event_free(delayed->timer);
}

bool DataPump::After(absl::Duration delay, absl::AnyInvocable<void()> callback) {
  auto delayed = std::make_unique<Delayed>(Delayed{this, nullptr, std::move(callback)});
  delayed->timer = event_new(loop_->base(), -1, 0, &DataPump::OnAfter, delayed.get());
  if (delayed->timer == nullptr) return false;
  const timeval tv = absl::ToTimeval(std::max(delay, absl::ZeroDuration()));
  if (event_add(delayed->timer, &tv) != 0) {
    event_free(delayed->timer);
    return false;
  }
  Delayed* raw = delayed.get();
  delayed_.emplace(raw, std::move(delayed));
  return true;
}

// The callback may end whatever asked for it, and ask for another: it runs last.
void DataPump::OnAfter(int, short, void* arg) {
  auto* raw = static_cast<Delayed*>(arg);
  DataPump* self = raw->pump;
  auto it = self->delayed_.find(raw);
  SHOAL_CHECK(it != self->delayed_.end()) << "a timer the pump does not hold";
  std::unique_ptr<Delayed> delayed = std::move(it->second);
  self->delayed_.erase(it);
  event_free(delayed->timer);
  delayed->callback();
}

void DataPump::Flush() {
  if (flush_pending_) return;
  flush_pending_ = true;
  event_active(flush_event_, EV_TIMEOUT, 0);
}

void DataPump::OnFlush(int, short, void* arg) {
  auto* self = static_cast<DataPump*>(arg);
  self->flush_pending_ = false;
  self->batches_->Increment();
  self->Pump();
}

void DataPump::OnReadable(int, short, void* arg) {
  auto* self = static_cast<DataPump*>(arg);
  self->loop_->NoteWork();
  self->client_.WokeUp();
  self->Pump();
}

void DataPump::Pump() {
  client_.Send();
  // Results may keep arriving under load: after a few rounds go back to the loop (the client
  // sockets wait too) and come back in its next turn.
  constexpr int kMaxRounds = 8;
  for (int round = 0;; ++round) {
    if (round == kMaxRounds) {
      Flush();
      return;
    }
    client_.Poll(absl::ZeroDuration());
    // Completions may have defined more operations (a session's next statement).
    if (flush_pending_) {
      flush_pending_ = false;
      client_.Send();
      continue;
    }
    if (client_.PrepareToSleep(&scratch_fds_)) break;
    if (client_.has_queued_output()) {
      tick_.Start(kRetryOutput);
      break;
    }
  }
  WatchFds(scratch_fds_);
  if (client_.in_flight() > 0 && !tick_.pending()) tick_.Start(kTick);
}

void DataPump::WatchFds(const std::vector<int>& fds) {
  if (fds == watched_fds_) return;
  for (event* e : fd_events_) event_free(e);
  fd_events_.clear();
  for (int fd : fds) {
    event* e = event_new(loop_->base(), fd, EV_READ | EV_PERSIST, &DataPump::OnReadable, this);
    event_add(e, nullptr);
    fd_events_.push_back(e);
  }
  watched_fds_ = fds;
}

}  // namespace shoal::router
