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
//
// With TLS, out_ holds frames not yet encrypted and in_ frames decrypted; the records
// themselves wait in the tls::Channel (its output(), and what was fed but not yet decrypted).
class TcpChannel final : public Channel {
 public:
  TcpChannel(int fd, std::unique_ptr<tls::Channel> tls) : fd_(fd), tls_(std::move(tls)) {}
  ~TcpChannel() override { close(fd_); }

  bool TryWrite(absl::string_view frame) override {
    const size_t pending = PendingOutput();
    if (pending > 0 && pending + frame.size() > kTcpOutputHighWater) return false;
    out_.Append(frame);
    return true;
  }

  absl::Status Flush() override {
    if (!error_.ok()) return error_;
    if (tls_ != nullptr) return EncryptAndSend();
    while (out_.size() > 0) {
      absl::StatusOr<size_t> sent = Send(absl::string_view(out_.data(), out_.size()));
      if (!sent.ok()) return sent.status();
      if (*sent == 0) break;  // the owner waits for write_fd() to turn writable
      out_.Consume(*sent);
    }
    return absl::OkStatus();
  }

  bool HasPendingOutput() const override { return PendingOutput() > 0; }

  absl::Status Receive() override {
    if (!error_.ok()) return error_;
    if (tls_ != nullptr) return ReceiveRecords();
    while (!peer_closed_ && in_.size() < kTcpInputHighWater) {
      if (!CheckNextLength()) return error_;
      // Room for the whole frame being assembled, so a large frame takes few reads.
      size_t want = kReadChunk;
      if (in_.size() >= 4 && NextLength() > in_.size()) {
        want = std::max(want, NextLength() - in_.size());
      }
      absl::Span<char> room = in_.Room(want);
      absl::StatusOr<size_t> n = ReadSocket(room);
      if (!n.ok()) return n.status();
      in_.Commit(*n);
      // A short read means the socket is drained (the owner's poll is level-triggered, so
      // stopping early loses nothing and saves the call that would return EAGAIN).
      if (*n < room.size()) break;
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

  absl::string_view kind() const override { return tls_ == nullptr ? "tcp" : "tcp+tls"; }

 private:
  size_t PendingOutput() const {
    return out_.size() + (tls_ == nullptr ? 0 : tls_->pending_output());
  }

  absl::Status Fail(absl::Status error) {
    error_ = std::move(error);
    return error_;
  }

  // Reads what the socket holds, at most `room`: how many bytes (fewer than asked when it holds
  // no more now; 0 also when the peer has closed, which sets peer_closed_).
  absl::StatusOr<size_t> ReadSocket(absl::Span<char> room) {
    for (;;) {
      ssize_t n = recv(fd_, room.data(), room.size(), MSG_DONTWAIT);
      if (n > 0) return static_cast<size_t>(n);
      if (n == 0) {
        peer_closed_ = true;
        return 0;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      return Fail(SocketError("recv", errno));
    }
  }

  // Sends what the socket takes of `bytes` now: how much (0 when it would block).
  absl::StatusOr<size_t> Send(absl::string_view bytes) {
    for (;;) {
      ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return 0;
      return Fail(SocketError("send", errno));
    }
  }

  // Encrypts the frames waiting — once the handshake has finished: until then they wait in
  // out_, under its high-water mark — and sends the records, as far as the socket takes them.
  absl::Status EncryptAndSend() {
    if (out_.size() > 0 && tls_->established()) {
      if (absl::Status encrypted = tls_->Write(absl::string_view(out_.data(), out_.size()));
          !encrypted.ok()) {
        return Fail(absl::UnavailableError(absl::StrCat("tls: ", encrypted.message())));
      }
      out_.Consume(out_.size());
    }
    return SendRecords();
  }

  // Sends the TLS records waiting, as far as the socket takes them.
  absl::Status SendRecords() {
    if (tls_->pending_output() == 0) return absl::OkStatus();
    std::string& records = tls_->output();
    size_t sent = 0;
    while (sent < records.size()) {
      absl::StatusOr<size_t> n = Send(absl::string_view(records).substr(sent));
      if (!n.ok()) return n.status();
      if (*n == 0) break;
      sent += *n;
    }
    records.erase(0, sent);
    return absl::OkStatus();
  }

  // Receive() with TLS: every whole record fed so far is decrypted into in_ (so nothing
  // decryptable is ever left behind a sleep), and the socket is read while in_ has room.
  absl::Status ReceiveRecords() {
    bool drained = false;  // a short read: the socket holds nothing more (as in Receive())
    for (;;) {
      if (absl::Status decrypted = Decrypt(); !decrypted.ok()) return decrypted;
      if (drained || peer_closed_ || in_.size() >= kTcpInputHighWater) break;
      if (records_in_ == nullptr) records_in_ = std::make_unique_for_overwrite<char[]>(kReadChunk);
      absl::StatusOr<size_t> n = ReadSocket(absl::MakeSpan(records_in_.get(), kReadChunk));
      if (!n.ok()) return n.status();
      tls_->Feed(absl::string_view(records_in_.get(), *n));
      fed_ = fed_ || *n > 0;
      drained = *n < kReadChunk;
    }
    // The handshake's answers, and frames written before it finished, leave now.
    if (absl::Status sent = EncryptAndSend(); !sent.ok()) return sent;
    if (!CheckNextLength()) return error_;
    if (peer_closed_ && !HasCompleteFrame()) {
      error_ = absl::UnavailableError("tcp: the peer closed the connection");
    }
    return error_;
  }

  // Decrypts what was fed since the last time (the handshake too), until only part of a record
  // is left: a channel polled with nothing new costs no call into OpenSSL.
  absl::Status Decrypt() {
    if (!fed_) return absl::OkStatus();
    fed_ = false;
    for (;;) {
      absl::Span<char> room = in_.Room(kReadChunk);
      absl::StatusOr<size_t> n = tls_->Read(room.data(), room.size());
      if (!n.ok()) {
        // An alert for the peer may be waiting; it is sent if the socket takes it.
        (void)SendRecords();
        return Fail(absl::UnavailableError(absl::StrCat("tls: ", n.status().message())));
      }
      if (*n == 0) return absl::OkStatus();
      in_.Commit(*n);
    }
  }

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
  std::unique_ptr<tls::Channel> tls_;   // null: clear text
  std::unique_ptr<char[]> records_in_;  // TLS: a read's worth of records
  bool fed_ = false;                    // TLS: records fed and not yet decrypted
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

std::unique_ptr<TcpChannel> MakeTcpChannel(int fd, std::unique_ptr<tls::Channel> tls) {
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_NONBLOCK) == 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  SetNoDelay(fd);
  return std::make_unique<TcpChannel>(fd, std::move(tls));
}

}  // namespace

std::unique_ptr<Channel> NewTcpChannel(int fd) { return MakeTcpChannel(fd, nullptr); }

std::unique_ptr<Channel> NewTlsServerChannel(int fd, const tls::LinkContext& tls) {
  return MakeTcpChannel(fd, tls.NewServerChannel());
}

std::unique_ptr<Channel> NewTlsClientChannel(int fd, const tls::LinkContext& tls,
                                             const std::string& host) {
  std::unique_ptr<TcpChannel> channel = MakeTcpChannel(fd, tls.NewClientChannel(host));
  (void)channel->Flush();  // the ClientHello; a failure shows again at the next use
  return channel;
}

}  // namespace shoal::transport
