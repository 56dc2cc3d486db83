// Worker: one router thread — an EventLoop and the connections it owns. Connections arrive by
// Adopt() (posted from the accepting thread) and never leave.
//
// Owned by the RouterServer. Adopt() and Shutdown() are posted to the worker's loop; the
// connection map is touched only on the worker's thread.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "common/event_loop.h"
#include "common/liveness/running_clock.h"
#include "common/liveness/stall_metrics.h"
#include "common/metrics.h"
#include "router/net/data_pump.h"
#include "router/session/context.h"

namespace shoal::router {

class Connection;

class Worker {
 public:
  // `open_connections` counts connections across all workers (max_connections, /metrics).
  // `spin`: how long the loop busy-polls after work before it sleeps (EventLoop::Run).
  static absl::StatusOr<std::unique_ptr<Worker>> Start(int index, int cpu, absl::Duration spin,
                                                       const RouterContext* context,
                                                       Gauge* open_connections);
  ~Worker();  // REQUIRES: Shutdown() was called

  // Thread-safe: the worker takes the socket and serves it.
  void Adopt(int fd, Transport transport, std::string peer_host, uint32_t connection_id);
  // Thread-safe: closes every connection once its output is flushed (at most ~1 s), stops the
  // loop and joins the thread.
  void Shutdown();

  // Loop thread only. The loop's cached time: cheap enough to stamp every read with.
  absl::Time now() const;
  // Destroys the connection (if still there); safe from inside its own callbacks.
  void Remove(uint32_t connection_id);
  // KILL: closes the connection (if still there) once what was sent to it is flushed.
  void Kill(uint32_t connection_id);
  EventLoop* loop() { return loop_.get(); }
  // The worker's data nodes; null when the router has no cluster.
  sql::DataAccess* data() { return pump_.get(); }

 private:
  Worker(int index, const RouterContext* context, Gauge* open_connections,
         std::unique_ptr<EventLoop> loop);

  int index_;
  const RouterContext* context_;
  Gauge* open_connections_;
  std::unique_ptr<EventLoop> loop_;
  std::unique_ptr<DataPump> pump_;
  std::thread thread_;
  absl::flat_hash_map<uint32_t, std::unique_ptr<Connection>> connections_;
  bool shutting_down_ = false;
  std::unique_ptr<Timer> shutdown_deadline_;
  // Once a second: close connections idle past wait_timeout (or connect_timeout), and measure
  // how late the loop runs (/metrics: shoal_scheduling_*{thread="router-wN"}).
  std::unique_ptr<Timer> idle_sweep_;
  liveness::RunningClock sweep_clock_;
  liveness::StallMetrics stall_metrics_;
};

}  // namespace shoal::router
