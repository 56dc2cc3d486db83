#include "router/net/worker.h"

#include <pthread.h>
#include <sched.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "router/net/connection.h"

namespace shoal::router {
namespace {

constexpr absl::Duration kSweepInterval = absl::Seconds(1);

}  // namespace

absl::StatusOr<std::unique_ptr<Worker>> Worker::Start(int index, int cpu, absl::Duration spin,
                                                      const RouterContext* context,
                                                      Gauge* open_connections) {
  absl::StatusOr<std::unique_ptr<EventLoop>> loop = EventLoop::Create();
  if (!loop.ok()) return loop.status();
  std::unique_ptr<Worker> worker(new Worker(index, context, open_connections, std::move(*loop)));
  Worker* raw = worker.get();
  if (context->cluster != nullptr) {
    raw->pump_ = std::make_unique<DataPump>(raw->loop_.get(), context->cluster, context->metrics);
  }
  raw->idle_sweep_ = std::make_unique<Timer>(raw->loop_.get(), [raw] {
    absl::Time now = absl::Now();
    const liveness::RunningClock::Tick tick = raw->sweep_clock_.Advance(now);
    raw->stall_metrics_.Record(tick);
    // A worker that was not scheduled for a while has not yet read what its clients sent
    // meanwhile (a login's answer, a statement): whether they were idle is judged at the next
    // sweep, once the loop has run their input, not against the time it was itself stalled.
    if (tick.stalled) return;
    for (auto& [id, connection] : raw->connections_) connection->CloseIfIdle(now);
  });
  raw->idle_sweep_->Start(kSweepInterval, Timer::Mode::kRepeat);
  worker->thread_ = std::thread([w = worker.get(), cpu, spin] {
    // "router-w0", "router-w1"...: what top, perf and gdb show for each worker.
    std::string name = "router-w" + std::to_string(w->index_);
    pthread_setname_np(pthread_self(), name.c_str());
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    }
    w->loop_->Run(spin);
  });
  return worker;
}

Worker::Worker(int index, const RouterContext* context, Gauge* open_connections,
               std::unique_ptr<EventLoop> loop)
    : index_(index),
      context_(context),
      open_connections_(open_connections),
      loop_(std::move(loop)),
      sweep_clock_(kSweepInterval, absl::Now()),
      stall_metrics_(context->metrics, "router-w" + std::to_string(index)) {}

Worker::~Worker() { SHOAL_CHECK(!thread_.joinable()) << "Worker destroyed without Shutdown()"; }

void Worker::Adopt(int fd, Transport transport, std::string peer_host, uint32_t connection_id) {
  loop_->Post([this, fd, transport, peer = std::move(peer_host), connection_id]() mutable {
    auto connection =
        std::make_unique<Connection>(this, fd, context_, transport, std::move(peer), connection_id);
    Connection* raw = connection.get();
    connections_[connection_id] = std::move(connection);
    raw->Start();
  });
}

absl::Time Worker::now() const {
  timeval tv;
  event_base_gettimeofday_cached(loop_->base(), &tv);
  return absl::TimeFromTimeval(tv);
}

void Worker::Remove(uint32_t connection_id) {
  if (connections_.erase(connection_id) > 0) {
    open_connections_->Add(-1);
  }
  if (shutting_down_ && connections_.empty()) loop_->Stop();
}

void Worker::Kill(uint32_t connection_id) {
  if (auto it = connections_.find(connection_id); it != connections_.end()) {
    it->second->CloseAfterFlush();
  }
}

void Worker::Shutdown() {
  loop_->Post([this] {
    shutting_down_ = true;
    if (connections_.empty()) {
      loop_->Stop();
      return;
    }
    // A client that does not read its replies cannot hold the shutdown for long.
    shutdown_deadline_ = std::make_unique<Timer>(loop_.get(), [this] { loop_->Stop(); });
    shutdown_deadline_->Start(absl::Seconds(1));
    std::vector<uint32_t> ids;
    for (const auto& [id, connection] : connections_) ids.push_back(id);
    for (uint32_t id : ids) {
      if (auto it = connections_.find(id); it != connections_.end()) it->second->CloseAfterFlush();
    }
  });
  thread_.join();
  // The loop has stopped: what is left is closed here, on the joining thread.
  open_connections_->Add(-static_cast<int64_t>(connections_.size()));
  connections_.clear();
  shutdown_deadline_.reset();
  idle_sweep_.reset();
}
}  // namespace shoal::router
