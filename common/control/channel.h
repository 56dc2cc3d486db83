// ControlChannel: one control-plane connection — a stream of framed ControlMessages over TCP —
// driven by an EventLoop.
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

struct bufferevent;

namespace shoal::control {

class ControlChannel {
 public:
  using MessageHandler = absl::AnyInvocable<void(const ControlMessage&)>;
  // OK when the channel was closed by CloseAfterFlush(); otherwise why it closed.
  using CloseHandler = absl::AnyInvocable<void(const absl::Status&)>;

  // Takes ownership of the connected socket `fd`.
  static std::unique_ptr<ControlChannel> Adopt(EventLoop* loop, int fd, std::string peer);
  // Starts connecting to host:port. A failure to connect arrives through the close handler.
  // Resolving `host` blocks: it is a configuration host, usually an IP literal.
  static std::unique_ptr<ControlChannel> Connect(EventLoop* loop, const std::string& host,
                                                 int port);
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
  ControlChannel(EventLoop* loop, bufferevent* bev, std::string peer);
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
  // Posted tasks hold a weak_ptr to this; it dies with the channel.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace shoal::control
