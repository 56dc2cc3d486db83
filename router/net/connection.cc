#include "router/net/connection.h"

#include <event2/event.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "common/logging.h"
#include "router/net/worker.h"

namespace shoal::router {
namespace {

// Read in chunks of this size; a larger packet grows the buffer as it arrives.
constexpr size_t kReadChunk = 64 * 1024;
// Past this much unsent output (a client that does not read), stop reading its requests.
constexpr size_t kMaxPendingOutput = 4 * 1024 * 1024;
// mysqld's net_write_timeout: a client that takes none of our output this long is dropped.
constexpr absl::Duration kNetWriteTimeout = absl::Seconds(60);
// Buffers grown past this by one large statement are given back once drained.
constexpr size_t kMaxIdleBuffer = 1024 * 1024;

}  // namespace

Connection::Connection(Worker* worker, int fd, const RouterContext* context, Transport transport,
                       std::string peer_host, uint32_t connection_id)
    : worker_(worker),
      id_(connection_id),
      fd_(fd),
      read_event_(event_new(worker->loop()->base(), fd, EV_READ | EV_PERSIST,
                            &Connection::OnReadable, this)),
      write_event_(event_new(worker->loop()->base(), fd, EV_WRITE | EV_PERSIST,
                             &Connection::OnWritable, this)),
      session_(
          context, connection_id, std::move(peer_host), worker->data(), [this] { OnAnswered(); },
          [worker, connection_id] {
            worker->loop()->Post([worker, connection_id] { worker->Kill(connection_id); });
          }),
      tls_context_(context->tls.get()),
      bytes_in_(context->metrics->GetCounter("shoal_router_bytes_received_total",
                                             "Bytes received from MySQL clients.")),
      bytes_out_(context->metrics->GetCounter("shoal_router_bytes_sent_total",
                                              "Bytes sent to MySQL clients.")),
      tls_sessions_(context->metrics->GetCounter(
          "shoal_router_tls_sessions_total", "Client connections that completed a TLS handshake.")),
      tls_failures_(context->metrics->GetCounter(
          "shoal_router_tls_failures_total",
          "Client connections closed for a failed TLS handshake or a bad TLS record.")) {
  session_.set_transport(transport);
  evutil_make_socket_nonblocking(fd);
  evutil_make_socket_closeonexec(fd);
  if (transport == Transport::kTcp) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
}

Connection::~Connection() {
  event_free(read_event_);
  event_free(write_event_);
  close(fd_);
}

void Connection::Start() {
  last_active_ = last_write_progress_ = absl::Now();
  session_.Start();
  if (!Flush()) return Finish();
  event_add(read_event_, nullptr);
  reading_ = true;
}

void Connection::CloseAfterFlush() {
  closing_ = true;
  if (reading_) {
    event_del(read_event_);
    reading_ = false;
  }
  if (!Unsent()) Finish();
}

void Connection::CloseIfIdle(absl::Time now) {
  if (Unsent() && now - last_write_progress_ > kNetWriteTimeout) {
    return Finish();
  }
  if (closing_ || now - last_active_ < session_.IdleTimeout()) return;
  session_.AppendIdleTimeoutError();
  if (!Flush()) return Finish();
  CloseAfterFlush();
}

void Connection::Finish() {
  if (finished_) return;
  finished_ = true;
  event_del(read_event_);
  event_del(write_event_);
  Worker* worker = worker_;
  uint32_t id = id_;
  worker->loop()->Post([worker, id] { worker->Remove(id); });
}

void Connection::OnReadable(int, short, void* arg) {
  auto* self = static_cast<Connection*>(arg);
  if (!self->Read()) self->Finish();
}

void Connection::OnWritable(int, short, void* arg) {
  auto* self = static_cast<Connection*>(arg);
  if (!self->Flush()) return self->Finish();
  if (self->closing_ && !self->Unsent()) self->Finish();
}

void Connection::MakeRoom() {
  // Move what is left of a partial packet to the front, then make room for one more chunk.
  if (in_start_ > 0) {
    in_.replace(0, in_end_ - in_start_, in_, in_start_, in_end_ - in_start_);
    in_end_ -= in_start_;
    in_start_ = 0;
  }
  if (in_.size() - in_end_ < kReadChunk) in_.resize(in_end_ + kReadChunk);
}

bool Connection::Read() {
  ssize_t n;
  if (tls_ == nullptr) {
    MakeRoom();
    n = recv(fd_, in_.data() + in_end_, in_.size() - in_end_, 0);
  } else {
    if (tls_in_.empty()) tls_in_.resize(kReadChunk);
    n = recv(fd_, tls_in_.data(), tls_in_.size(), 0);
  }
  if (n <= 0) {
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    return false;  // the client closed or the socket failed
  }
  bytes_in_->Increment(n);
  worker_->loop()->NoteWork();
  last_active_ = worker_->now();
  if (tls_ == nullptr) {
    in_end_ += static_cast<size_t>(n);
  } else {
    tls_->Feed(absl::string_view(tls_in_.data(), static_cast<size_t>(n)));
    if (!Decrypt()) return false;
  }
  return HandleInput();
}

bool Connection::StartTls() {
  // The client read our greeting before it sent its SSLRequest, and nothing answers that: no
  // output can be pending in the clear.
  if (tls_context_ == nullptr || Unsent()) return false;
  tls_ = std::make_unique<tls::Channel>(tls_context_->get());
  tls_->Feed(absl::string_view(in_.data() + in_start_, in_end_ - in_start_));
  in_start_ = in_end_ = 0;
  if (!Decrypt()) return false;
  return HandleInput();
}

bool Connection::Decrypt() {
  const bool was_established = tls_->established();
  for (;;) {
    MakeRoom();
    absl::StatusOr<size_t> n = tls_->Read(in_.data() + in_end_, in_.size() - in_end_);
    if (!n.ok()) {
      if (!absl::IsCancelled(n.status())) {  // not the client's close_notify
        tls_failures_->Increment();
        SHOAL_LOG(kDebug) << "connection " << id_ << ": " << n.status().message();
      }
      Flush();  // the alert that tells the client why, if the socket takes it
      return false;
    }
    if (*n == 0) break;
    in_end_ += *n;
  }
  if (!was_established && tls_->established()) {
    tls_sessions_->Increment();
    session_.TlsEstablished({.tls = true,
                             .certificate_verified = tls_->peer_verified(),
                             .subject = tls_->peer_subject(),
                             .issuer = tls_->peer_issuer(),
                             .version = tls_->version(),
                             .cipher = tls_->cipher()});
  }
  return true;
}

void Connection::OnAnswered() {
  if (!finished_ && !HandleInput()) Finish();
}

bool Connection::HandleInput() {
  size_t consumed = 0;
  Session::Step step =
      session_.OnInput(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(in_.data()) + in_start_,
                                           in_end_ - in_start_),
                       &consumed);
  waiting_ = step == Session::Step::kWait;
  in_start_ += consumed;
  if (step == Session::Step::kStartTls) return StartTls();
  if (in_start_ == in_end_) {
    in_start_ = in_end_ = 0;
    if (in_.size() > kMaxIdleBuffer) std::string().swap(in_);  // after one huge packet
  }
  if (!Flush()) return false;
  if (step == Session::Step::kClose) {
    CloseAfterFlush();
    return true;
  }
  // A client that sends without reading its replies waits until they are taken. While a
  // statement runs on the data nodes the next requests are only buffered (read interest stays
  // registered: toggling it costs two epoll_ctl calls per statement), up to a bound.
  bool backlog = Wire().size() - out_sent_ > kMaxPendingOutput ||
                 (waiting_ && in_end_ - in_start_ > kMaxPendingOutput);
  if (backlog && reading_) {
    event_del(read_event_);
    reading_ = false;
  }
  return true;
}

bool Connection::Flush() {
  if (tls_ != nullptr && !session_.output().empty()) {
    std::string& plain = session_.output();
    if (!tls_->Write(plain).ok()) return false;
    if (plain.capacity() > kMaxIdleBuffer) {
      std::string().swap(plain);
    } else {
      plain.clear();
    }
  }
  std::string& out = Wire();
  while (out_sent_ < out.size()) {
    ssize_t n = send(fd_, out.data() + out_sent_, out.size() - out_sent_, MSG_NOSIGNAL);
    if (n > 0) {
      out_sent_ += static_cast<size_t>(n);
      bytes_out_->Increment(n);
      last_write_progress_ = worker_->now();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      // Drop what was sent once it is most of the buffer, so a client that always keeps a
      // backlog does not make it grow by everything ever sent.
      if (out_sent_ >= 64 * 1024 && out_sent_ * 2 >= out.size()) {
        out.erase(0, out_sent_);
        out_sent_ = 0;
      }
      event_add(write_event_, nullptr);  // the rest goes when the socket drains
      return true;
    }
    return false;
  }
  if (out.capacity() > kMaxIdleBuffer) {
    std::string().swap(out);
  } else {
    out.clear();
  }
  out_sent_ = 0;
  event_del(write_event_);
  if (!reading_ && !closing_ && !waiting_) {
    event_add(read_event_, nullptr);
    reading_ = true;
  }
  return true;
}

}  // namespace shoal::router
