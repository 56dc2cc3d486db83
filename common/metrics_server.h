// MetricsServer: serves a MetricsRegistry as Prometheus text at http://host:port/metrics,
// using libevent's HTTP server on a thread of its own so scrapes never touch a hot loop.
//
// Owned by main(); destroying it stops the thread and closes the socket.
#pragma once

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "common/event_loop.h"
#include "common/metrics.h"

struct evhttp;

namespace shoal {

class MetricsServer {
 public:
  // Binds host:port (port 0 picks a free one) and starts serving. `registry` must outlive
  // the server.
  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(const MetricsRegistry* registry,
                                                              const std::string& host, int port);
  ~MetricsServer();

  int port() const { return port_; }

 private:
  MetricsServer() = default;

  std::unique_ptr<EventLoop> loop_;
  evhttp* http_ = nullptr;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace shoal
