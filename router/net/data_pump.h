// DataPump: one router worker's native client, driven by the worker's event loop (the
// router's half of I1's batching). Sessions define operations on client() while the loop
// runs their input; Flush() asks for one Send() after all of them, so every statement that
// arrived in the same loop turn leaves in the same frame to each data node. Results are
// read when a data node's link becomes readable, and their completions run on this thread —
// and with them what a result starts: the reply to the client, the session's next statement,
// a dictionary request (answered the same way). Nothing a completion runs waits, so the pump
// never re-enters the client's Poll().
//
// Owned by its Worker; used only on the worker's thread (Create may run anywhere).
#pragma once

#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/event_loop.h"
#include "common/metrics.h"
#include "engine/api/client.h"
#include "router/sql/eval/session.h"

struct event;

namespace shoal::router {

class DataPump : public sql::DataAccess {
 public:
  DataPump(EventLoop* loop, api::Cluster* cluster, MetricsRegistry* metrics);
  ~DataPump() override;
  DataPump(const DataPump&) = delete;
  DataPump& operator=(const DataPump&) = delete;

  api::Client& client() override { return client_; }
  void Flush() override;
  bool After(absl::Duration delay, absl::AnyInvocable<void()> callback) override;

 private:
  // A callback After() holds until its time: owned here, so that one still waiting when the
  // worker stops (a SLEEP in progress) is freed with the pump rather than leaked.
  struct Delayed {
    DataPump* pump;
    event* timer;
    absl::AnyInvocable<void()> callback;
  };

  static void OnFlush(int fd, short what, void* arg);
  static void OnReadable(int fd, short what, void* arg);
  static void OnAfter(int fd, short what, void* arg);
  // Sends what is queued, runs every completion that is ready, and arms the wake-ups.
  void Pump();
  // Watches exactly `fds` for readability.
  void WatchFds(const std::vector<int>& fds);

  EventLoop* loop_;
  api::Client client_;
  event* flush_event_;
  bool flush_pending_ = false;
  std::vector<int> watched_fds_;
  std::vector<event*> fd_events_;
  std::vector<int> scratch_fds_;
  absl::flat_hash_map<Delayed*, std::unique_ptr<Delayed>> delayed_;
  // While operations are in flight: a periodic poll that notices dead links (I/O alone does
  // not when a shared-memory peer dies), retries output the transports pushed back, and lets
  // the client retry or time out its dictionary requests (their 30 s bound is this timer).
  Timer tick_;
  // Always: the client's keep-alive pings (api::Client::KeepAlive), so that a data node tells
  // this router starved from this router idle, and times lock waits accordingly.
  Timer keep_alive_;
  Counter* batches_;
};

}  // namespace shoal::router
