#include "common/metrics_server.h"

#include <event2/buffer.h>
#include <event2/http.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace shoal {
namespace {

void HandleRequest(evhttp_request* request, void* arg) {
  const auto* registry = static_cast<const MetricsRegistry*>(arg);
  const char* path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(request));
  if (path == nullptr || std::strcmp(path, "/metrics") != 0) {
    evhttp_send_error(request, HTTP_NOTFOUND, "only /metrics is served here");
    return;
  }
  std::string text = registry->RenderPrometheus();
  evbuffer* body = evbuffer_new();
  evbuffer_add(body, text.data(), text.size());
  evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type",
                    "text/plain; version=0.0.4");
  evhttp_send_reply(request, HTTP_OK, "OK", body);
  evbuffer_free(body);
}

int BoundPort(evhttp_bound_socket* handle) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(evhttp_bound_socket_get_fd(handle), reinterpret_cast<sockaddr*>(&addr), &len) !=
      0) {
    return 0;
  }
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
}

}  // namespace

absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const MetricsRegistry* registry,
                                                                    const std::string& host,
                                                                    int port) {
  std::unique_ptr<MetricsServer> server(new MetricsServer());
  SHOAL_ASSIGN_OR_RETURN(server->loop_, EventLoop::Create());
  server->http_ = evhttp_new(server->loop_->base());
  if (server->http_ == nullptr) return absl::InternalError("evhttp_new failed");
  evhttp_set_allowed_methods(server->http_, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
  evhttp_set_gencb(server->http_, &HandleRequest, const_cast<MetricsRegistry*>(registry));
  evhttp_bound_socket* handle =
      evhttp_bind_socket_with_handle(server->http_, host.c_str(), static_cast<uint16_t>(port));
  if (handle == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve /metrics on ", host, ":", port, ": ", std::strerror(errno)));
  }
  server->port_ = BoundPort(handle);
  server->thread_ = std::thread([loop = server->loop_.get()] {
    pthread_setname_np(pthread_self(), "metrics-http");  // named in the console's REPORT THREADS
    loop->Run();
  });
  return server;
}

MetricsServer::~MetricsServer() {
  if (thread_.joinable()) {
    loop_->Stop();
    thread_.join();
  }
  if (http_ != nullptr) evhttp_free(http_);
}

}  // namespace shoal
