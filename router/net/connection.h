// Connection: one client socket on a worker — reads bytes into its Session, writes what the
// Session produces, and closes when the Session says so or the client goes away.
//
// Owned by its Worker; used only on the worker's thread.
#pragma once

#include <cstdint>
#include <string>

#include "router/session/session.h"

struct bufferevent;

namespace shoal::router {

class Worker;

class Connection {
 public:
  Connection(Worker* worker, int fd, const RouterContext* context, Transport transport,
             std::string peer_host, uint32_t connection_id);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  uint32_t id() const { return id_; }
  // Sends the greeting and starts reading.
  void Start();
  // Stops reading; closes once pending output is flushed.
  void CloseAfterFlush();

 private:
  static void OnRead(bufferevent* bev, void* arg);
  static void OnWrite(bufferevent* bev, void* arg);
  static void OnEvent(bufferevent* bev, short what, void* arg);
  void Flush();

  Worker* worker_;
  uint32_t id_;
  bufferevent* bev_;
  Session session_;
  std::string out_;
  bool closing_ = false;
  Counter* bytes_in_;
  Counter* bytes_out_;
};

}  // namespace shoal::router
