#include "mgmd/console/client.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/control/frame.h"

namespace shoal::console {
namespace {

int RemainingMillis(absl::Time deadline) {
  absl::Duration left = deadline - absl::Now();
  if (left <= absl::ZeroDuration()) return 0;
  return static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
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

absl::StatusOr<ConsoleClient> ConsoleClient::Connect(const std::string& host, int port,
                                                     absl::Duration timeout) {
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
      return ConsoleClient(fd, address);
    }
    last_error = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(result);
  return absl::UnavailableError(
      absl::StrCat("cannot connect to the management daemon at ", address, ": ", last_error));
}

ConsoleClient::ConsoleClient(ConsoleClient&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      address_(std::move(other.address_)),
      buffer_(std::move(other.buffer_)) {}

ConsoleClient& ConsoleClient::operator=(ConsoleClient&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    address_ = std::move(other.address_);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

ConsoleClient::~ConsoleClient() {
  if (fd_ >= 0) close(fd_);
}

absl::StatusOr<control::ConsoleRep> ConsoleClient::Call(const control::ConsoleReq& request,
                                                        absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  control::ControlMessage message;
  *message.mutable_console_req() = request;
  std::string out;
  control::AppendMessage(message, &out);
  for (size_t sent = 0; sent < out.size();) {
    ssize_t n = send(fd_, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!WaitReady(fd_, POLLOUT, deadline)) return absl::DeadlineExceededError("send timed out");
    } else {
      return absl::UnavailableError(absl::StrCat("lost the connection to ", address_));
    }
  }
  while (true) {
    control::ControlMessage reply;
    size_t consumed = 0;
    auto bytes =
        absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(buffer_.data()), buffer_.size());
    switch (control::DecodeMessage(bytes, &reply, &consumed)) {
      case control::DecodeStatus::kOk:
        buffer_.erase(0, consumed);
        if (reply.has_console_rep()) return reply.console_rep();
        continue;  // not for us (cannot happen with a console connection): skip it
      case control::DecodeStatus::kMalformed:
        return absl::DataLossError(absl::StrCat("malformed reply from ", address_));
      case control::DecodeStatus::kNeedMore:
        break;
    }
    if (!WaitReady(fd_, POLLIN, deadline)) {
      return absl::DeadlineExceededError(absl::StrCat(
          "no answer from the management daemon within ", absl::FormatDuration(timeout)));
    }
    char chunk[16384];
    ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      return absl::UnavailableError(
          absl::StrCat("the management daemon at ", address_, " closed the connection"));
    }
  }
}

}  // namespace shoal::console
