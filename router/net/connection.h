// Connection: one client socket on a worker — reads bytes into its Session, writes what the
// Session produces (its output()), and closes when the Session says so or the client goes
// away. After the client's SSLRequest the same loop runs through a tls::Channel: what is read
// is decrypted into the input buffer, what the session produces is encrypted on its way out. A
// command the session waits on answers by calling back (OnAnswered), from inside the worker's data
// pump: the reply is sent right there.
//
// The socket is driven with plain libevent events and our own buffers rather than a
// bufferevent: a statement then costs one recv() and one send() (plus the loop's epoll_wait),
// where a bufferevent adds an ioctl, a deferred writev and two epoll_ctl calls. Write interest
// is registered only while the socket pushes back.
//
// Owned by its Worker; used only on the worker's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "common/tls/channel.h"
#include "router/session/session.h"

struct event;

namespace shoal::router {

class Worker;

class Connection {
 public:
  // Takes ownership of the connected socket `fd`.
  Connection(Worker* worker, int fd, const RouterContext* context, Transport transport,
             std::string peer_host, uint32_t connection_id);
  ~Connection();  // closes the socket
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  uint32_t id() const { return id_; }
  // Sends the greeting and starts reading.
  void Start();
  // Stops reading; closes once pending output is sent.
  void CloseAfterFlush();
  // Closes the connection with ER_CLIENT_INTERACTION_TIMEOUT if it has been idle past its
  // session's limit at `now`, and drops it outright if its client has taken none of our
  // output for net_write_timeout (60 s), as mysqld does.
  void CloseIfIdle(absl::Time now);

 private:
  static void OnReadable(int fd, short what, void* arg);
  static void OnWritable(int fd, short what, void* arg);
  // Reads once and hands whole packets to the session; false when the connection is done.
  bool Read();
  // Hands the unconsumed input to the session (again, after a command it waited on answered)
  // and sends its replies; false when the connection is done.
  bool HandleInput();
  // The session has the answer it waited for in its output.
  void OnAnswered();
  // Sends what is pending; false when the socket failed.
  bool Flush();
  // The session asked for TLS: the input after its SSLRequest is the handshake's start.
  bool StartTls();
  // Decrypts what the channel was fed into the input buffer; false when TLS failed.
  bool Decrypt();
  // Room for kReadChunk more bytes at in_end_, with what was consumed dropped from the front.
  void MakeRoom();
  // What goes on the socket: the session's output, or once TLS is on, the channel's (Flush
  // encrypts the session's output into it).
  std::string& Wire() { return tls_ != nullptr ? tls_->output() : session_.output(); }
  // Whether output waits to be sent (or encrypted).
  bool Unsent() {
    return out_sent_ < Wire().size() || (tls_ != nullptr && !session_.output().empty());
  }
  // Removes this connection from its worker in a later turn (never inside our own callback).
  void Finish();

  Worker* worker_;
  uint32_t id_;
  int fd_;
  event* read_event_;
  event* write_event_;
  Session session_;
  const tls::ServerContext* tls_context_;  // null: the router offers no TLS
  std::unique_ptr<tls::Channel> tls_;      // set from the SSLRequest on
  std::string tls_in_;                     // bytes read from the socket, before decryption
  // Received bytes: in_[in_start_, in_end_) are not consumed yet. Sized once and grown only
  // for packets larger than it, so reads never pay for zero-filling.
  std::string in_;
  size_t in_start_ = 0;
  size_t in_end_ = 0;
  size_t out_sent_ = 0;   // bytes of Wire() sent already
  bool waiting_ = false;  // the session waits for the data nodes (Session::Step::kWait)
  bool reading_ = false;
  bool closing_ = false;
  bool finished_ = false;
  absl::Time last_active_;
  absl::Time last_write_progress_;
  Counter* bytes_in_;
  Counter* bytes_out_;
  Counter* tls_sessions_;
  Counter* tls_failures_;
};

}  // namespace shoal::router
