#include "common/control/channel.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/util.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/control/frame.h"

namespace shoal::control {
namespace {

void SetNoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

}  // namespace

std::unique_ptr<ControlChannel> ControlChannel::Adopt(EventLoop* loop, int fd, std::string peer,
                                                      std::unique_ptr<tls::Channel> tls) {
  evutil_make_socket_nonblocking(fd);
  evutil_make_socket_closeonexec(fd);
  SetNoDelay(fd);
  bufferevent* bev = bufferevent_socket_new(loop->base(), fd, BEV_OPT_CLOSE_ON_FREE);
  std::unique_ptr<ControlChannel> channel(
      new ControlChannel(loop, bev, std::move(peer), std::move(tls)));
  channel->accepting_ = true;
  return channel;
}

std::unique_ptr<ControlChannel> ControlChannel::Connect(EventLoop* loop, const std::string& host,
                                                        int port, const tls::LinkContext* tls) {
  std::string peer = absl::StrCat(host, ":", port);
  bufferevent* bev = bufferevent_socket_new(loop->base(), -1, BEV_OPT_CLOSE_ON_FREE);
  std::unique_ptr<ControlChannel> channel(
      new ControlChannel(loop, bev, peer, tls == nullptr ? nullptr : tls->NewClientChannel(host)));
  // The ClientHello waits in the output until the connection is made.
  if (channel->tls_ != nullptr) channel->SendRecords();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* result = nullptr;
  int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &result);
  if (rc != 0 || result == nullptr) {
    // Report through the close handler like any other connect failure, once the caller has
    // installed it.
    channel->PostClose(
        absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc))));
    return channel;
  }
  if (bufferevent_socket_connect(bev, result->ai_addr, static_cast<int>(result->ai_addrlen)) != 0) {
    channel->PostClose(absl::UnavailableError(
        absl::StrCat("cannot connect to ", peer, ": ", std::strerror(errno))));
  }
  freeaddrinfo(result);
  return channel;
}

ControlChannel::ControlChannel(EventLoop* loop, bufferevent* bev, std::string peer,
                               std::unique_ptr<tls::Channel> tls)
    : loop_(loop), bev_(bev), peer_(std::move(peer)), tls_(std::move(tls)) {
  if (tls_ != nullptr) plain_ = evbuffer_new();
  bufferevent_setcb(bev_, &ControlChannel::OnRead, &ControlChannel::OnWrite,
                    &ControlChannel::OnEvent, this);
  bufferevent_enable(bev_, EV_READ | EV_WRITE);
}

ControlChannel::~ControlChannel() {
  if (bev_ != nullptr) bufferevent_free(bev_);
  if (plain_ != nullptr) evbuffer_free(plain_);
}

void ControlChannel::Write(absl::string_view bytes) {
  if (tls_ == nullptr) {
    bufferevent_write(bev_, bytes.data(), bytes.size());
    return;
  }
  if (absl::Status written = tls_->Write(bytes); !written.ok()) {
    PostClose(absl::UnavailableError(absl::StrCat("TLS with ", peer_, ": ", written.message())));
    return;
  }
  SendRecords();
}

void ControlChannel::SendRecords() {
  std::string& records = tls_->output();
  if (!records.empty()) bufferevent_write(bev_, records.data(), records.size());
  records.clear();
}

evbuffer* ControlChannel::Input() {
  evbuffer* raw = bufferevent_get_input(bev_);
  if (tls_ == nullptr) return raw;
  size_t length = evbuffer_get_length(raw);
  if (length == 0) return plain_;
  const unsigned char* bytes = evbuffer_pullup(raw, -1);
  // Every TLS connection starts with a handshake record (content type 22); a client that
  // speaks in clear text is told why it is refused. (A server that does is a handshake failure.)
  if (accepting_ && !tls_started_ && bytes[0] != 22) {
    RefuseClearText();
    return nullptr;
  }
  tls_started_ = true;
  tls_->Feed(absl::string_view(reinterpret_cast<const char*>(bytes), length));
  evbuffer_drain(raw, length);
  char chunk[16 << 10];
  for (;;) {
    absl::StatusOr<size_t> n = tls_->Read(chunk, sizeof(chunk));
    if (!n.ok()) {
      SendRecords();  // the alert that tells the peer why
      Close(absl::UnavailableError(
          absl::StrCat("TLS with ", peer_, " failed: ", n.status().message())));
      return nullptr;
    }
    if (*n == 0) break;
    evbuffer_add(plain_, chunk, *n);
  }
  SendRecords();  // the handshake's answers, and messages sent before it finished
  return plain_;
}

void ControlChannel::RefuseClearText() {
  ControlMessage refusal;
  refusal.mutable_register_ref()->set_message(
      "this cluster's links use TLS (cluster.tls): start this process with the cluster's "
      "certificates in --tls-dir (shoal-mgmd --make-cluster-certificates makes them)");
  send_buffer_.clear();
  AppendMessage(refusal, &send_buffer_);
  bufferevent_write(bev_, send_buffer_.data(), send_buffer_.size());
  tls_.reset();  // what is left to say is in clear text
  closing_ = true;
  bufferevent_disable(bev_, EV_READ);
  close_after_flush_status_ = absl::PermissionDeniedError(
      absl::StrCat(peer_, " spoke in clear text; this cluster's links use TLS"));
}

void ControlChannel::SetHandlers(MessageHandler on_message, CloseHandler on_close) {
  on_message_ = std::move(on_message);
  on_close_ = std::move(on_close);
}

void ControlChannel::Send(const ControlMessage& message) {
  if (!open()) return;
  send_buffer_.clear();
  AppendMessage(message, &send_buffer_);
  Write(send_buffer_);
}

void ControlChannel::CloseAfterFlush() {
  if (!open()) return;
  closing_ = true;
  bufferevent_disable(bev_, EV_READ);
  if (evbuffer_get_length(bufferevent_get_output(bev_)) == 0) {
    // Nothing left to send; close from a later turn so the caller's stack never sees it.
    PostClose(absl::OkStatus());
  }
}

void ControlChannel::ReadWaiting() {
  if (!open()) return;
  evbuffer* input = bufferevent_get_input(bev_);
  // At most what a read event takes at once; an EOF or error is left for the event to report.
  if (evbuffer_read(input, bufferevent_getfd(bev_), 64 << 10) > 0 ||
      evbuffer_get_length(input) > 0) {
    OnRead(bev_, this);
  }
}

void ControlChannel::OnRead(bufferevent*, void* arg) {
  auto* self = static_cast<ControlChannel*>(arg);
  if (self->closing_) return;
  evbuffer* input = self->Input();
  while (input != nullptr && !self->closing_) {
    size_t available = evbuffer_get_length(input);
    if (available < kFrameHeaderSize) return;
    uint8_t header[kFrameHeaderSize];
    evbuffer_copyout(input, header, kFrameHeaderSize);
    size_t length = FrameLength(header);
    if (length > kMaxControlFrame) {
      self->Close(absl::DataLossError(absl::StrCat("oversized control frame from ", self->peer_)));
      return;
    }
    if (available < kFrameHeaderSize + length) return;
    const uint8_t* bytes = evbuffer_pullup(input, static_cast<ssize_t>(kFrameHeaderSize + length));
    ControlMessage message;
    size_t consumed = 0;
    if (DecodeMessage(absl::MakeConstSpan(bytes, kFrameHeaderSize + length), &message, &consumed) !=
        DecodeStatus::kOk) {
      self->Close(
          absl::DataLossError(absl::StrCat("malformed control message from ", self->peer_)));
      return;
    }
    evbuffer_drain(input, consumed);
    if (self->on_message_) self->on_message_(message);
  }
}

void ControlChannel::OnWrite(bufferevent* bev, void* arg) {
  auto* self = static_cast<ControlChannel*>(arg);
  if (self->closing_ && evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
    self->Close(self->close_after_flush_status_);
  }
}

void ControlChannel::OnEvent(bufferevent*, short what, void* arg) {
  auto* self = static_cast<ControlChannel*>(arg);
  if (what & BEV_EVENT_CONNECTED) {
    SetNoDelay(bufferevent_getfd(self->bev_));
    return;
  }
  if (what & BEV_EVENT_EOF && !self->accepting_ && self->tls_ != nullptr &&
      !self->tls_->established()) {
    // An mgmd in clear text takes the ClientHello for a message of its own and closes on it.
    // (On the accepting end a close before any word is a probe's, not news.)
    self->Close(absl::UnavailableError(
        absl::StrCat(self->peer_,
                     " closed the connection during the TLS handshake (does this cluster use "
                     "TLS? cluster.tls; this process has a set in --tls-dir)")));
  } else if (what & BEV_EVENT_EOF) {
    self->Close(absl::UnavailableError(absl::StrCat("connection to ", self->peer_, " closed")));
  } else if (what & BEV_EVENT_ERROR) {
    self->Close(absl::UnavailableError(
        absl::StrCat("connection to ", self->peer_,
                     " failed: ", evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()))));
  }
}

void ControlChannel::PostClose(absl::Status why) {
  loop_->Post([alive = std::weak_ptr<int>(alive_), this, why = std::move(why)] {
    if (alive.lock()) Close(why);
  });
}

void ControlChannel::Close(const absl::Status& why) {
  if (bev_ == nullptr) return;
  bufferevent_free(bev_);
  bev_ = nullptr;
  closing_ = true;
  // The handler may destroy this channel: nothing touches `this` after it.
  CloseHandler on_close = std::move(on_close_);
  if (on_close) on_close(why);
}

}  // namespace shoal::control
