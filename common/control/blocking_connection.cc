#include "common/control/blocking_connection.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/frame.h"

namespace shoal::control {
namespace {

int RemainingMillis(absl::Time deadline) {
  absl::Duration left = deadline - absl::Now();
  if (left <= absl::ZeroDuration()) return 0;
  // An infinite (or very long) wait is poll's longest, again and again.
  return static_cast<int>(std::min<int64_t>(absl::ToInt64Milliseconds(left), INT_MAX - 1)) + 1;
}

// Waits until `fd` is ready for `events` or the deadline passes.
bool WaitReady(int fd, short events, absl::Time deadline) {
  pollfd p{fd, events, 0};
  while (true) {
    int rc = poll(&p, 1, RemainingMillis(deadline));
    if (rc > 0) return true;
    if (rc == 0 || errno != EINTR) return false;
  }
}

}  // namespace

absl::StatusOr<BlockingConnection> BlockingConnection::Connect(const std::string& host, int port,
                                                               absl::Duration timeout,
                                                               const tls::LinkContext* tls) {
  std::string address = absl::StrCat(host, ":", port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* result = nullptr;
  if (int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &result); rc != 0) {
    return absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  absl::Time deadline = absl::Now() + timeout;
  std::string last_error = "no address";
  for (addrinfo* ai = result; ai != nullptr; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS && WaitReady(fd, POLLOUT, deadline)) {
      int error = 0;
      socklen_t len = sizeof(error);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
      errno = error;
      rc = error == 0 ? 0 : -1;
    } else if (rc != 0 && errno == EINPROGRESS) {
      errno = ETIMEDOUT;
    }
    if (rc == 0) {
      freeaddrinfo(result);
      BlockingConnection connection(fd, address);
      if (tls == nullptr) return connection;
      connection.tls_ = tls->NewClientChannel(host);
      if (absl::Status shook = connection.FinishHandshake(deadline); !shook.ok()) return shook;
      return connection;
    }
    last_error = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(result);
  return absl::UnavailableError(absl::StrCat("cannot connect to ", address, ": ", last_error));
}

BlockingConnection BlockingConnection::Adopt(int fd, std::string peer) {
  return BlockingConnection(fd, std::move(peer));
}

BlockingConnection::BlockingConnection(BlockingConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      peer_(std::move(other.peer_)),
      buffer_(std::move(other.buffer_)),
      tls_(std::move(other.tls_)) {}

BlockingConnection& BlockingConnection::operator=(BlockingConnection&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
    peer_ = std::move(other.peer_);
    buffer_ = std::move(other.buffer_);
    tls_ = std::move(other.tls_);
  }
  return *this;
}

BlockingConnection::~BlockingConnection() { Close(); }

void BlockingConnection::Close() {
  if (fd_ >= 0) close(std::exchange(fd_, -1));
}

absl::Status BlockingConnection::Send(const ControlMessage& message, absl::Duration timeout) {
  if (fd_ < 0) return absl::FailedPreconditionError("closed");
  std::string out;
  AppendMessage(message, &out);
  if (tls_ == nullptr) return SendBytes(out, absl::Now() + timeout);
  if (absl::Status encrypted = tls_->Write(out); !encrypted.ok()) return encrypted;
  return SendBytes(std::exchange(tls_->output(), {}), absl::Now() + timeout);
}

absl::Status BlockingConnection::SendBytes(absl::string_view bytes, absl::Time deadline) {
  for (size_t sent = 0; sent < bytes.size();) {
    ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!WaitReady(fd_, POLLOUT, deadline)) return absl::DeadlineExceededError("send timed out");
    } else {
      return absl::UnavailableError(absl::StrCat("lost the connection to ", peer_));
    }
  }
  return absl::OkStatus();
}

absl::Status BlockingConnection::ReadMore(absl::Time deadline, absl::Duration timeout) {
  if (!WaitReady(fd_, POLLIN, deadline)) {
    return absl::DeadlineExceededError(
        absl::StrCat("no message from ", peer_, " within ", absl::FormatDuration(timeout)));
  }
  char chunk[16384];
  ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
    return absl::UnavailableError(absl::StrCat(peer_, " closed the connection"));
  }
  if (n < 0) return absl::OkStatus();
  if (tls_ == nullptr) {
    buffer_.append(chunk, static_cast<size_t>(n));
    return absl::OkStatus();
  }
  tls_->Feed(absl::string_view(chunk, static_cast<size_t>(n)));
  for (;;) {
    absl::StatusOr<size_t> plain = tls_->Read(chunk, sizeof(chunk));
    // The handshake's answers (or the alert that says why it failed) go back first.
    if (absl::Status sent = SendBytes(std::exchange(tls_->output(), {}), deadline); !sent.ok()) {
      return sent;
    }
    if (!plain.ok()) {
      return absl::UnavailableError(
          absl::StrCat("TLS with ", peer_, " failed: ", plain.status().message()));
    }
    if (*plain == 0) return absl::OkStatus();
    buffer_.append(chunk, *plain);
  }
}

absl::Status BlockingConnection::FinishHandshake(absl::Time deadline) {
  if (absl::Status sent = SendBytes(std::exchange(tls_->output(), {}), deadline); !sent.ok()) {
    return sent;
  }
  while (!tls_->established()) {
    absl::Status read = ReadMore(deadline, absl::ZeroDuration());
    if (absl::IsDeadlineExceeded(read)) {
      return absl::DeadlineExceededError(absl::StrCat("no TLS handshake with ", peer_, " in time"));
    }
    if (absl::IsUnavailable(read) && !absl::StrContains(read.message(), "TLS")) {
      return absl::UnavailableError(
          absl::StrCat(peer_,
                       " closed the connection during the TLS handshake (does the cluster use TLS? "
                       "cluster.tls)"));
    }
    if (!read.ok()) return read;
  }
  return absl::OkStatus();
}

absl::StatusOr<ControlMessage> BlockingConnection::Receive(absl::Duration timeout) {
  if (fd_ < 0) return absl::FailedPreconditionError("closed");
  absl::Time deadline = absl::Now() + timeout;
  while (true) {
    ControlMessage message;
    size_t consumed = 0;
    auto bytes =
        absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(buffer_.data()), buffer_.size());
    switch (DecodeMessage(bytes, &message, &consumed)) {
      case DecodeStatus::kOk:
        buffer_.erase(0, consumed);
        return message;
      case DecodeStatus::kMalformed:
        return absl::DataLossError(absl::StrCat("malformed message from ", peer_));
      case DecodeStatus::kNeedMore:
        break;
    }
    if (absl::Status read = ReadMore(deadline, timeout); !read.ok()) return read;
  }
}

absl::StatusOr<BlockingListener> BlockingListener::Listen(const std::string& host, int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat("not an IPv4 address: ", host));
  }
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::UnavailableError(std::strerror(errno));
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 || listen(fd, 16) != 0) {
    std::string error = std::strerror(errno);
    close(fd);
    return absl::UnavailableError(absl::StrCat("cannot listen on ", host, ":", port, ": ", error));
  }
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return BlockingListener(fd, ntohs(addr.sin_port));
}

BlockingListener::BlockingListener(BlockingListener&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), port_(other.port_) {}

BlockingListener& BlockingListener::operator=(BlockingListener&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    port_ = other.port_;
  }
  return *this;
}

BlockingListener::~BlockingListener() {
  if (fd_ >= 0) close(fd_);
}

absl::StatusOr<BlockingConnection> BlockingListener::Accept(absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  while (true) {
    int fd = accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) return BlockingConnection::Adopt(fd, absl::StrCat("a peer of port ", port_));
    if (errno != EAGAIN && errno != EINTR) return absl::UnavailableError(std::strerror(errno));
    if (!WaitReady(fd_, POLLIN, deadline)) {
      return absl::DeadlineExceededError(
          absl::StrCat("no connection within ", absl::FormatDuration(timeout)));
    }
  }
}

}  // namespace shoal::control
