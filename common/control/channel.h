// ControlChannel: one control-plane connection — a stream of framed ControlMessages over TCP,
// in clear text or inside TLS between cluster members (common/tls/link_context.h) — driven by
// an EventLoop.
//
// Owned by its creator; used only on the loop's thread. Handlers run on that thread. A message
// handler must not destroy the channel (call CloseAfterFlush(), or destroy it in a posted task);
// the close handler runs last and may destroy it.
#pragma once

#include <memory>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "common/control/control.pb.h"
#include "common/event_loop.h"
#include "common/tls/channel.h"
#include "common/tls/link_context.h"

struct bufferevent;
struct evbuffer;

namespace shoal::control {

class ControlChannel {
 public:
  using MessageHandler = absl::AnyInvocable<void(const ControlMessage&)>;
  // OK when the channel was closed by CloseAfterFlush(); otherwise why it closed.
  using CloseHandler = absl::AnyInvocable<void(const absl::Status&)>;

  // Takes ownership of the connected socket `fd`. With `tls` (the accepting end of a link,
  // tls::LinkContext::NewServerChannel), the messages travel inside TLS; a peer that speaks in
  // clear text is answered with a RegisterRef that says why, and the channel closes.
  static std::unique_ptr<ControlChannel> Adopt(EventLoop* loop, int fd, std::string peer,
                                               std::unique_ptr<tls::Channel> tls = nullptr);
  // Starts connecting to host:port, with TLS when `tls` is given (the mgmd's certificate must
  // name `host`). A failure to connect, or of the handshake, arrives through the close handler.
  // Resolving `host` blocks: it is a configuration host, usually an IP literal.
  static std::unique_ptr<ControlChannel> Connect(EventLoop* loop, const std::string& host, int port,
                                                 const tls::LinkContext* tls = nullptr);
  ~ControlChannel();  // closes at once; unsent data is dropped and no handler runs
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  // REQUIRES: called before the loop next runs, so no message is missed.
  void SetHandlers(MessageHandler on_message, CloseHandler on_close);
  // Queues `message`; a no-op once the channel is closing or closed.
  void Send(const ControlMessage& message);
  // Stops reading, sends what was queued, then closes and runs the close handler with OK.
  void CloseAfterFlush();
  // Reads what the socket holds now and handles it, as a read event would — for a failure
  // detector, before it judges the peer silent (after a stall of this process, the peer's
  // messages may be waiting unread). Handlers run from here; the close handler too, if the
  // input is malformed.
  void ReadWaiting();

  bool open() const { return bev_ != nullptr && !closing_; }
  const std::string& peer() const { return peer_; }

 private:
  ControlChannel(EventLoop* loop, bufferevent* bev, std::string peer,
                 std::unique_ptr<tls::Channel> tls);
  // The messages received: the socket's bytes, or with TLS those decrypted from them (null
  // once the channel has closed).
  evbuffer* Input();
  void Write(absl::string_view bytes);  // encrypted first, with TLS
  void SendRecords();                   // TLS: the records waiting, to the socket's output
  void RefuseClearText();
  static void OnRead(bufferevent* bev, void* arg);
  static void OnWrite(bufferevent* bev, void* arg);
  static void OnEvent(bufferevent* bev, short what, void* arg);
  void Close(const absl::Status& why);  // frees the socket, then runs the close handler
  // Closes from a later loop turn, unless the channel is destroyed first.
  void PostClose(absl::Status why);

  EventLoop* loop_;
  bufferevent* bev_;
  std::string peer_;
  bool closing_ = false;
  MessageHandler on_message_;
  CloseHandler on_close_;
  std::string send_buffer_;
  std::unique_ptr<tls::Channel> tls_;      // null: clear text
  evbuffer* plain_ = nullptr;              // TLS: decrypted bytes not yet decoded
  bool tls_started_ = false;               // TLS: the peer's first bytes were a TLS record
  bool accepting_ = false;                 // made by Adopt: the server end
  absl::Status close_after_flush_status_;  // what the close handler hears then
  // Posted tasks hold a weak_ptr to this; it dies with the channel.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace shoal::control
