// RouterServer: the MySQL front end of a router process — a Unix socket and a TCP listener,
// and `threads` workers, each an EventLoop on its own thread that owns its connections end to
// end (docs/architecture.md: no session moves between threads, the hot path takes no locks).
//
// Owned by the router's main(); Start() and Stop() run on the main loop's thread, which also
// accepts and hands each new socket to the next worker.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/event_loop.h"
#include "common/metrics.h"
#include "router/session/context.h"

struct evconnlistener;

namespace shoal::router {

class Worker;

class RouterServer {
 public:
  struct Options {
    std::string socket_path;  // empty: no Unix socket
    std::string host = "127.0.0.1";
    int port = 0;  // 0: no TCP listener
    int threads = 1;
    std::vector<int> cpus;  // workers are pinned round-robin when given
    int max_connections = 1024;
    absl::Duration spin = absl::ZeroDuration();  // each worker busy-polls this long
    // This router's node id: the high byte of every connection id it gives (CONNECTION_ID()),
    // so that ids are unique across the cluster's routers (IS_USED_LOCK names a session of
    // any router). 0: ids from 1.
    int node_id = 0;
  };

  // `context` must outlive the server.
  static absl::StatusOr<std::unique_ptr<RouterServer>> Start(EventLoop* main_loop,
                                                             const Options& options,
                                                             const RouterContext* context);
  ~RouterServer();  // Stop()s if still running

  // Stops accepting; each worker flushes what its connections have pending and closes them;
  // the workers are joined. Statements run to completion inside one loop turn, so none is
  // cut in half.
  void Stop();

  int tcp_port() const { return tcp_port_; }

 private:
  RouterServer(EventLoop* main_loop, Options options, const RouterContext* context);
  absl::Status ListenUnix();
  absl::Status ListenTcp();
  static void OnAccept(evconnlistener* listener, int fd, struct sockaddr* addr, int len, void* arg);
  // accept() failed for a reason retrying at once cannot fix (EMFILE, ENFILE, ENOBUFS): pause
  // the listeners for a moment instead of spinning on the pending connection.
  static void OnAcceptError(evconnlistener* listener, void* arg);

  EventLoop* main_loop_;
  Options options_;
  const RouterContext* context_;
  std::vector<std::unique_ptr<Worker>> workers_;
  evconnlistener* unix_listener_ = nullptr;
  evconnlistener* tcp_listener_ = nullptr;
  int tcp_port_ = 0;
  std::unique_ptr<Timer> accept_resume_;
  size_t next_worker_ = 0;
  uint32_t next_connection_id_ = 1;  // the low 24 bits of the next id
  Counter* accepted_;
  Counter* refused_;
  Gauge* connected_;
};

}  // namespace shoal::router
