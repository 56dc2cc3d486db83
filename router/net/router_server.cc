#include "router/net/router_server.h"

#include <arpa/inet.h>
#include <event2/listener.h>
#include <netdb.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "router/net/worker.h"
#include "router/session/session.h"

namespace shoal::router {
namespace {

std::string PeerHost(const sockaddr* addr) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (addr->sa_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, buf, sizeof(buf));
    return buf;
  }
  if (addr->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, buf, sizeof(buf));
    return buf;
  }
  return "localhost";  // a Unix socket, as MySQL reports it
}

// Returns true when something answers on the Unix socket at `path`.
bool SocketInUse(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  bool in_use = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return in_use;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RouterServer>> RouterServer::Start(EventLoop* main_loop,
                                                                  const Options& options,
                                                                  const RouterContext* context) {
  // Each connection is a file descriptor: take the hard limit, so max_connections is reached
  // before the process runs out of descriptors.
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 &&
      files.rlim_cur < static_cast<rlim_t>(options.max_connections) + 64) {
    SHOAL_LOG(kWarning) << "max_connections is " << options.max_connections << " but only "
                        << files.rlim_cur << " file descriptors are allowed (ulimit -n)";
  }
  std::unique_ptr<RouterServer> server(new RouterServer(main_loop, options, context));
  SHOAL_LOG(kInfo) << options.threads << " worker thread" << (options.threads == 1 ? "" : "s")
                   << (options.spin > absl::ZeroDuration()
                           ? absl::StrCat(", busy-polling ", absl::FormatDuration(options.spin))
                           : "");
  for (int i = 0; i < options.threads; ++i) {
    int cpu = options.cpus.empty() ? -1 : options.cpus[i % options.cpus.size()];
    SHOAL_ASSIGN_OR_RETURN(auto worker,
                           Worker::Start(i, cpu, options.spin, context, server->connected_));
    server->workers_.push_back(std::move(worker));
  }
  if (!options.socket_path.empty()) SHOAL_RETURN_IF_ERROR(server->ListenUnix());
  if (options.port != 0) SHOAL_RETURN_IF_ERROR(server->ListenTcp());
  return server;
}

RouterServer::RouterServer(EventLoop* main_loop, Options options, const RouterContext* context)
    : main_loop_(main_loop),
      options_(std::move(options)),
      context_(context),
      accepted_(context->metrics->GetCounter("shoal_router_connections_accepted_total",
                                             "MySQL client connections accepted.")),
      refused_(context->metrics->GetCounter(
          "shoal_router_connections_refused_total",
          "MySQL client connections refused with ER_CON_COUNT_ERROR (max_connections).")),
      connected_(context->metrics->GetGauge("shoal_router_connections",
                                            "MySQL client connections open now.")) {}

RouterServer::~RouterServer() { Stop(); }

absl::Status RouterServer::ListenUnix() {
  const std::string& path = options_.socket_path;
  if (SocketInUse(path)) {
    return absl::AlreadyExistsError(
        absl::StrCat("another server is listening on the Unix socket ", path));
  }
  unlink(path.c_str());  // a stale socket file from a process that died
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  unix_listener_ = evconnlistener_new_bind(main_loop_->base(), &RouterServer::OnAccept, this,
                                           LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 1024,
                                           reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  if (unix_listener_ == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on the Unix socket ", path, ": ", std::strerror(errno)));
  }
  evconnlistener_set_error_cb(unix_listener_, &RouterServer::OnAcceptError);
  chmod(path.c_str(), 0777);  // like mysqld: any local user may connect, then authenticate
  SHOAL_LOG(kInfo) << "MySQL clients: Unix socket " << path;
  return absl::OkStatus();
}

absl::Status RouterServer::ListenTcp() {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* result = nullptr;
  if (int rc = getaddrinfo(options_.host.c_str(), std::to_string(options_.port).c_str(), &hints,
                           &result);
      rc != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve ", options_.host, ": ", gai_strerror(rc)));
  }
  tcp_listener_ =
      evconnlistener_new_bind(main_loop_->base(), &RouterServer::OnAccept, this,
                              LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC,
                              1024, result->ai_addr, static_cast<int>(result->ai_addrlen));
  freeaddrinfo(result);
  if (tcp_listener_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options_.host, ":",
                                               options_.port, ": ", std::strerror(errno)));
  }
  evconnlistener_set_error_cb(tcp_listener_, &RouterServer::OnAcceptError);
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(evconnlistener_get_fd(tcp_listener_), reinterpret_cast<sockaddr*>(&bound), &len);
  tcp_port_ = bound.ss_family == AF_INET6
                  ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                  : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  SHOAL_LOG(kInfo) << "MySQL clients: TCP " << options_.host << ":" << tcp_port_;
  return absl::OkStatus();
}

void RouterServer::OnAccept(evconnlistener* listener, int fd, sockaddr* addr, int, void* arg) {
  auto* self = static_cast<RouterServer*>(arg);
  Transport transport = listener == self->unix_listener_ ? Transport::kUnixSocket : Transport::kTcp;
  // Node id in the high byte: unique across routers. The low bits wrap after 2^24 - 1
  // connections, skipping 0.
  uint32_t id = (static_cast<uint32_t>(self->options_.node_id) << 24) | self->next_connection_id_;
  self->next_connection_id_ = (self->next_connection_id_ + 1) & 0xffffff;
  if (self->next_connection_id_ == 0) self->next_connection_id_ = 1;
  if (self->connected_->value() >= self->options_.max_connections) {
    // As mysqld does: the error instead of the greeting, then close.
    std::string refusal = Session::TooManyConnectionsPacket();
    [[maybe_unused]] ssize_t n = send(fd, refusal.data(), refusal.size(), MSG_NOSIGNAL);
    close(fd);
    self->refused_->Increment();
    return;
  }
  self->connected_->Add(1);
  self->accepted_->Increment();
  Worker* worker = self->workers_[self->next_worker_++ % self->workers_.size()].get();
  worker->Adopt(fd, transport, transport == Transport::kTcp ? PeerHost(addr) : "localhost", id);
}

void RouterServer::OnAcceptError(evconnlistener*, void* arg) {
  auto* self = static_cast<RouterServer*>(arg);
  SHOAL_LOG(kWarning) << "accept failed: " << std::strerror(errno) << "; not accepting for 100 ms";
  for (evconnlistener* l : {self->unix_listener_, self->tcp_listener_}) {
    if (l != nullptr) evconnlistener_disable(l);
  }
  if (self->accept_resume_ == nullptr) {
    self->accept_resume_ = std::make_unique<Timer>(self->main_loop_, [self] {
      for (evconnlistener* l : {self->unix_listener_, self->tcp_listener_}) {
        if (l != nullptr) evconnlistener_enable(l);
      }
    });
  }
  self->accept_resume_->Start(absl::Milliseconds(100));
}

void RouterServer::Stop() {
  accept_resume_.reset();
  if (unix_listener_ != nullptr) {
    evconnlistener_free(unix_listener_);
    unix_listener_ = nullptr;
    unlink(options_.socket_path.c_str());
  }
  if (tcp_listener_ != nullptr) {
    evconnlistener_free(tcp_listener_);
    tcp_listener_ = nullptr;
  }
  for (auto& worker : workers_) worker->Shutdown();
  workers_.clear();
}

}  // namespace shoal::router
