// An LDM on a thread of its own (docs/architecture.md I3, I4): the layout for more than two CPUs.
// The data-plane thread (recv, send, main roles) hands it batches of operations through an
// in-process SPSC queue and takes the results back through another; the LDM thread owns its
// partitions and touches nothing else.
//
//   data-plane thread                       LDM thread
//   PushOps(conn, ops) ──── requests ────▶  Ldm::Execute … (parks lock waits, expires them)
//   DrainResults(sink) ◀─── results ─────   one kOpConf frame per connection and turn
//
// Dictionary changes, cluster views, copy and checkpoint requests and closed connections travel
// through the request queue too, so the LDM sees them in order with the operations around them.
// Results include replication messages to other data nodes (ReplySink destinations, ldm/context.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "engine/node/ldm/ldm.h"
#include "engine/node/ldm_metrics.h"
#include "engine/transport/in_process_queue.h"

namespace shoal::node {

class LdmWorker : private ReplySink {
 public:
  // Each direction holds a few frames' worth: an LDM that runs ahead of the data-plane thread
  // waits for it there rather than piling up memory.
  static constexpr size_t kDefaultQueueBytes = 8 << 20;
  // Records up to half a queue: a whole frame of operations or of results must fit.
  static constexpr size_t kMinQueueBytes = 4 * wire::kMaxFrameSize;

  static absl::StatusOr<std::unique_ptr<LdmWorker>> Start(
      std::unique_ptr<Ldm> ldm, int index, absl::Duration spin, MetricsRegistry* metrics,
      size_t queue_bytes = kDefaultQueueBytes);  // raised to kMinQueueBytes
  ~LdmWorker() override;                         // stops and joins the thread

  // Data-plane thread. Each returns false when the request queue is full: drain results,
  // then try again (the LDM thread never waits for the data-plane thread while it is full).
  bool PushOps(uint32_t conn, uint32_t count, absl::string_view ops);
  bool PushConnectionClosed(uint32_t conn);
  bool PushDelta(const DictionaryDelta& delta);
  bool PushGroup(const GroupView& group);
  bool PushStartCopy(int node, uint32_t conn, int ldm_count, uint64_t since_epoch);
  bool PushStartCheckpoint(const std::shared_ptr<CheckpointPart>& part);
  // Wakes the LDM thread if it sleeps; call after a round of pushes.
  void Flush() { requests_->Flush(); }
  // Hands every result the LDM thread has produced to `sink`, appended to each connection's
  // current kOpConf frame. Returns whether there were any.
  bool DrainResults(ReplySink* sink);
  // The results queue's doorbell, for the data-plane thread's sleep; same protocol as a
  // channel's (transport/channel.h).
  int results_fd() const { return results_->wait_fd(); }
  bool PrepareToSleep() { return results_->PrepareToSleep(); }
  void WokeUp() { results_->WokeUp(); }

  // Any thread: the LDM's row count as of its last turn.
  int64_t rows() const { return rows_.load(std::memory_order_relaxed); }

 private:
  enum class Kind : uint8_t { kOps, kClosed, kDelta, kGroup, kCopy, kCheckpoint };

  LdmWorker(std::unique_ptr<Ldm> ldm, int index, absl::Duration spin, MetricsRegistry* metrics);
  bool Push(Kind kind, uint32_t conn, uint32_t count, absl::string_view payload);
  // Records that carry an object by pointer; the LDM thread (or the destructor) deletes it.
  template <typename T>
  bool PushPointer(Kind kind, T* owned);
  template <typename T>
  static T* TakePointer(absl::string_view record);
  void Run();
  void Handle(absl::string_view record);
  wire::FrameBuilder* ReplyTo(uint32_t conn) override;
  void SendResults();

  std::unique_ptr<Ldm> ldm_;
  LdmMetrics metrics_;  // published by the LDM thread
  absl::Duration spin_;
  std::unique_ptr<transport::InProcessQueue> requests_;  // data plane → LDM
  std::unique_ptr<transport::InProcessQueue> results_;   // LDM → data plane
  // LDM thread: this turn's results, one frame builder per connection.
  absl::flat_hash_map<uint32_t, wire::FrameBuilder> replies_;
  std::atomic<int64_t> rows_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace shoal::node
