#include "router/net/connection.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "router/net/worker.h"

namespace shoal::router {

Connection::Connection(Worker* worker, int fd, const RouterContext* context, Transport transport,
                       std::string peer_host, uint32_t connection_id)
    : worker_(worker),
      id_(connection_id),
      bev_(bufferevent_socket_new(worker->loop()->base(), fd, BEV_OPT_CLOSE_ON_FREE)),
      session_(context, connection_id, transport, std::move(peer_host)),
      bytes_in_(context->metrics->GetCounter("shoal_router_bytes_received_total",
                                             "Bytes received from MySQL clients.")),
      bytes_out_(context->metrics->GetCounter("shoal_router_bytes_sent_total",
                                              "Bytes sent to MySQL clients.")) {
  if (transport == Transport::kTcp) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  bufferevent_setcb(bev_, &Connection::OnRead, &Connection::OnWrite, &Connection::OnEvent, this);
}

Connection::~Connection() { bufferevent_free(bev_); }

void Connection::Start() {
  session_.Start(&out_);
  Flush();
  bufferevent_enable(bev_, EV_READ | EV_WRITE);
}

void Connection::CloseAfterFlush() {
  closing_ = true;
  bufferevent_disable(bev_, EV_READ);
  if (evbuffer_get_length(bufferevent_get_output(bev_)) == 0) {
    // Not from inside our own callbacks' stack: the worker removes us in a later turn.
    Worker* worker = worker_;
    worker->loop()->Post([worker, id = id_] { worker->Remove(id); });
  }
}

void Connection::Flush() {
  if (out_.empty()) return;
  bytes_out_->Increment(static_cast<int64_t>(out_.size()));
  bufferevent_write(bev_, out_.data(), out_.size());
  out_.clear();
}

void Connection::OnRead(bufferevent* bev, void* arg) {
  auto* self = static_cast<Connection*>(arg);
  if (self->closing_) return;
  evbuffer* input = bufferevent_get_input(bev);
  size_t available = evbuffer_get_length(input);
  // Packets are parsed in place: one contiguous view of everything received so far.
  const uint8_t* bytes = evbuffer_pullup(input, -1);
  size_t consumed = 0;
  Session::Action action =
      self->session_.OnInput(absl::MakeConstSpan(bytes, available), &consumed, &self->out_);
  evbuffer_drain(input, consumed);
  self->bytes_in_->Increment(static_cast<int64_t>(consumed));
  self->Flush();
  if (action == Session::Action::kClose) self->CloseAfterFlush();
}

void Connection::OnWrite(bufferevent* bev, void* arg) {
  auto* self = static_cast<Connection*>(arg);
  if (self->closing_ && evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
    self->worker_->Remove(self->id_);  // destroys self; nothing may follow
  }
}

void Connection::OnEvent(bufferevent*, short what, void* arg) {
  auto* self = static_cast<Connection*>(arg);
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
    self->worker_->Remove(self->id_);  // destroys self; nothing may follow
  }
}

}  // namespace shoal::router
