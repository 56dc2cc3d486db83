// The data node's redo I/O thread (one per node): it flushes every LDM's RedoLog to disk, so
// that no LDM thread ever does file I/O. Every `flush_interval`, or sooner once a log has
// more than `flush_bytes` pending (polled a few times per interval), it writes what the logs
// have pending (no sync); it serves Save requests (write + kEpochSaved marker + fdatasync in
// every log) and Post-ed functions in the order they were queued.
//
// Failures: a failed flush makes the writer unhealthy (healthy() false, logged once at
// kError; the node's LDMs then refuse writes to logged tables); it retries at every flush interval,
// so a disk that gets space again heals it (logged once at kInfo). A failed Save reports its error
// to its `done` and is not retried: a later Save covers everything before it. A failed fdatasync
// never heals (see redo_log.h).
//
// Owns its thread and the request queue; the RedoLogs are the caller's and must outlive it.
// AddLog/Start/Stop from the owning thread; Save, Post and the accessors from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/redo/redo_log.h"

namespace shoal::redo {

class RedoWriter {
 public:
  struct Options {
    absl::Duration flush_interval = absl::Milliseconds(10);
    // A log with more than this pending is flushed before the interval is up.
    uint64_t flush_bytes = 1 << 20;
    // Counts every failed write or sync (each retry too); null: not counted.
    Counter* write_errors = nullptr;
  };

  explicit RedoWriter(Options options);
  ~RedoWriter();  // Stop()
  RedoWriter(const RedoWriter&) = delete;
  RedoWriter& operator=(const RedoWriter&) = delete;

  // REQUIRES: before Start. `log` must outlive the writer.
  void AddLog(RedoLog* log);
  void Start();
  // Serves what is queued, flushes what is pending (no sync) and joins. Idempotent.
  void Stop();

  // Any thread: syncs every log up to everything appended before this call, each with a
  // kEpochSaved(epoch) marker; `done` runs on the writer thread with the result (OK once every
  // log is on disk). Saves are served in order. After Stop, `done` runs at once on the calling
  // thread with FailedPrecondition.
  void Save(uint64_t epoch, std::function<void(absl::Status)> done);
  // Any thread: runs `fn` on the writer thread after what is queued before it (e.g. trimming
  // after a checkpoint). After Stop, `fn` runs at once on the calling thread (no writer
  // thread remains to race with).
  void Post(std::function<void()> fn);

  // Any thread: false after a write or sync failed and until one succeeds again.
  bool healthy() const { return healthy_.load(std::memory_order_acquire); }
  // The same, for those who look at every operation (the LDMs: LdmContext::redo_healthy).
  // Valid as long as the writer.
  const std::atomic<bool>* healthy_flag() const { return &healthy_; }
  std::string last_error() const;
  // The last epoch saved in every log.
  uint64_t saved_epoch() const { return saved_epoch_.load(std::memory_order_acquire); }

 private:
  struct Task {
    uint64_t save_epoch = 0;  // != 0: a save
    std::function<void(absl::Status)> done;
    std::function<void()> fn;
  };

  void Run();
  bool Enqueue(Task* task);  // moves *task into the queue; false (untouched) when stopped
  bool OverThreshold() const;
  absl::Status FlushAll(uint64_t saved_epoch);
  void NoteResult(const absl::Status& status);

  const Options options_;
  std::vector<RedoLog*> logs_;  // fixed once started
  std::thread thread_;

  // std::mutex rather than absl::Mutex, as in EventLoop: ThreadSanitizer cannot see Debian's
  // (uninstrumented) abseil synchronize.
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Task> queue_ ABSL_GUARDED_BY(mu_);
  bool running_ ABSL_GUARDED_BY(mu_) = false;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;

  std::atomic<bool> healthy_{true};
  std::atomic<uint64_t> saved_epoch_{0};
  mutable std::mutex error_mu_;
  std::string last_error_ ABSL_GUARDED_BY(error_mu_);
};

}  // namespace shoal::redo
