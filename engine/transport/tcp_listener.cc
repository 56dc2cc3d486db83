// TcpListener and ConnectTcp: setting up the sockets TcpChannel runs on.
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "engine/transport/tcp_channel.h"

namespace shoal::transport {
namespace {

struct AddrInfoDeleter {
  void operator()(addrinfo* info) const { freeaddrinfo(info); }
};
using AddrInfoPtr = std::unique_ptr<addrinfo, AddrInfoDeleter>;

absl::StatusOr<AddrInfoPtr> Resolve(const std::string& host, int port, bool passive) {
  addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  addrinfo* result = nullptr;
  const std::string service = std::to_string(port);
  int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &result);
  if (rc != 0) {
    return absl::UnavailableError(absl::StrCat("cannot resolve '", host, "': ", gai_strerror(rc)));
  }
  return AddrInfoPtr(result);
}

// Waits until the non-blocking `fd`'s connect finishes or `deadline` passes; 0 or an errno.
int FinishConnect(int fd, absl::Time deadline) {
  for (;;) {
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return ETIMEDOUT;
    pollfd pfd = {fd, POLLOUT, 0};
    int rc =
        poll(&pfd, 1,
             static_cast<int>(absl::ToInt64Milliseconds(absl::Ceil(left, absl::Milliseconds(1)))));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) return errno;
    if (rc == 0) continue;  // re-check the deadline
    int error = 0;
    socklen_t len = sizeof(error);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) return errno;
    return error;
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<TcpListener>> TcpListener::Listen(const std::string& host, int port,
                                                                 const tls::LinkContext* tls) {
  SHOAL_ASSIGN_OR_RETURN(AddrInfoPtr addrs, Resolve(host, port, /*passive=*/true));
  int last_error = 0;
  for (addrinfo* a = addrs.get(); a != nullptr; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_error = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_storage bound = {};
    socklen_t len = sizeof(bound);
    if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0) {
      last_error = errno;
      close(fd);
      continue;
    }
    int bound_port = bound.ss_family == AF_INET6
                         ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                         : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    return std::unique_ptr<TcpListener>(new TcpListener(fd, bound_port, tls));
  }
  return absl::UnavailableError(
      absl::StrCat("cannot listen on ", host, ":", port, ": ", std::strerror(last_error)));
}

TcpListener::~TcpListener() { close(fd_); }

absl::StatusOr<std::unique_ptr<Channel>> TcpListener::Accept() {
  for (;;) {
    int fd = accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return tls_ == nullptr ? NewTcpChannel(fd) : NewTlsServerChannel(fd, *tls_);
    if (errno == EINTR || errno == ECONNABORTED) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::unique_ptr<Channel>();
    return absl::UnavailableError(absl::StrCat("tcp accept: ", std::strerror(errno)));
  }
}

absl::StatusOr<std::unique_ptr<Channel>> ConnectTcp(const std::string& host, int port,
                                                    absl::Duration timeout,
                                                    const tls::LinkContext* tls) {
  const absl::Time deadline = absl::Now() + timeout;
  SHOAL_ASSIGN_OR_RETURN(AddrInfoPtr addrs, Resolve(host, port, /*passive=*/false));
  int last_error = 0;
  for (addrinfo* a = addrs.get(); a != nullptr; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last_error = errno;
      continue;
    }
    int error = 0;
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      error = errno;
      if (error == EINPROGRESS || error == EINTR) error = FinishConnect(fd, deadline);
    }
    if (error == 0 && tls == nullptr) return NewTcpChannel(fd);
    if (error == 0) return NewTlsClientChannel(fd, *tls, host);
    close(fd);
    last_error = error;
    if (error == ETIMEDOUT) break;
  }
  return absl::UnavailableError(
      absl::StrCat("cannot connect to ", host, ":", port, ": ", std::strerror(last_error)));
}

}  // namespace shoal::transport
