// TcpChannel: frames over a non-blocking TCP socket, with bounded input and output buffers.
#include "engine/transport/tcp_channel.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "engine/transport/tcp_buffers.h"

namespace shoal::transport {
namespace {

constexpr size_t kReadChunk = 64 << 10;

absl::Status SocketError(absl::string_view what, int error) {
  return absl::UnavailableError(absl::StrCat("tcp: ", what, ": ", std::strerror(error)));
}

// Owned by one thread at a time (the Channel contract). Owns the socket.
class TcpChannel final : public Channel {
 public:
  explicit TcpChannel(int fd) : fd_(fd) {}
  ~TcpChannel() override { close(fd_); }

  bool TryWrite(absl::string_view frame) override {
    const size_t pending = out_.size();
    if (pending > 0 && pending + frame.size() > kTcpOutputHighWater) return false;
    out_.Append(frame);
    return true;
  }

  absl::Status Flush() override {
    if (!error_.ok()) return error_;
    while (out_.size() > 0) {
      ssize_t n = send(fd_, out_.data(), out_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        out_.Consume(static_cast<size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        break;  // the owner waits for write_fd() to turn writable
      } else {
        error_ = SocketError("send", errno);
        return error_;
      }
    }
    return absl::OkStatus();
  }

  bool HasPendingOutput() const override { return out_.size() > 0; }

  absl::Status Receive() override {
    if (!error_.ok()) return error_;
    while (!peer_closed_ && in_.size() < kTcpInputHighWater) {
      if (!CheckNextLength()) return error_;
      // Room for the whole frame being assembled, so a large frame takes few reads.
      size_t want = kReadChunk;
      if (in_.size() >= 4 && NextLength() > in_.size()) {
        want = std::max(want, NextLength() - in_.size());
      }
      absl::Span<char> room = in_.Room(want);
      ssize_t n = recv(fd_, room.data(), room.size(), MSG_DONTWAIT);
      if (n > 0) {
        in_.Commit(static_cast<size_t>(n));
        // A short read means the socket is drained (the owner's poll is level-triggered, so
        // stopping early loses nothing and saves the call that would return EAGAIN).
        if (static_cast<size_t>(n) < room.size()) break;
      } else if (n == 0) {
        peer_closed_ = true;
      } else if (errno == EINTR) {
        continue;
      } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
        break;
      } else {
        error_ = SocketError("recv", errno);
        return error_;
      }
    }
    if (!CheckNextLength()) return error_;
    if (peer_closed_ && !HasCompleteFrame()) {
      error_ = absl::UnavailableError("tcp: the peer closed the connection");
    }
    return error_;
  }

  absl::string_view Peek() override {
    if (!error_.ok() || !CheckNextLength() || !HasCompleteFrame()) return {};
    peeked_ = NextLength();
    return absl::string_view(in_.data(), peeked_);
  }

  void Consume() override {
    SHOAL_DCHECK(peeked_ != 0) << "Consume() without a frame from Peek()";
    in_.Consume(peeked_);
    peeked_ = 0;
  }

  bool PrepareToSleep() override { return error_.ok() && !peer_closed_ && !HasCompleteFrame(); }
  void WokeUp() override {}
  int wait_fd() const override { return fd_; }
  int write_fd() const override { return fd_; }

  absl::Status CheckAlive() override {
    if (!error_.ok()) return error_;
    if (peer_closed_) return absl::UnavailableError("tcp: the peer closed the connection");
    char byte;
    for (;;) {
      ssize_t n = recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (n > 0) return absl::OkStatus();
      if (n == 0) {
        peer_closed_ = true;
        return absl::UnavailableError("tcp: the peer closed the connection");
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return absl::OkStatus();
      error_ = SocketError("recv", errno);
      return error_;
    }
  }

  absl::string_view kind() const override { return "tcp"; }

 private:
  // REQUIRES: in_.size() >= 4.
  size_t NextLength() const {
    const auto* p = reinterpret_cast<const uint8_t*>(in_.data());
    return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<size_t>(p[3]) << 24);
  }
  bool HasCompleteFrame() const { return in_.size() >= 4 && in_.size() >= NextLength(); }
  // False (and the channel dead) when the next frame announces an impossible length.
  bool CheckNextLength() {
    if (in_.size() < 4) return true;
    const size_t length = NextLength();
    if (length >= kMinFrameSize && length <= kMaxFrameSize) return true;
    error_ = absl::DataLossError(absl::StrCat("tcp: malformed frame length ", length));
    return false;
  }

  int fd_;
  InputBuffer in_;
  OutputBuffer out_;
  size_t peeked_ = 0;
  bool peer_closed_ = false;
  absl::Status error_;
};

void SetNoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

}  // namespace

std::unique_ptr<Channel> NewTcpChannel(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK) == 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  SetNoDelay(fd);
  return std::make_unique<TcpChannel>(fd);
}

}  // namespace shoal::transport
