#include "engine/redo/redo_writer.h"

#include <pthread.h>

#include <algorithm>
#include <utility>

#include "common/logging.h"

namespace shoal::redo {

RedoWriter::RedoWriter(Options options) : options_(options) {}

RedoWriter::~RedoWriter() { Stop(); }

void RedoWriter::AddLog(RedoLog* log) {
  SHOAL_CHECK(!thread_.joinable()) << "RedoWriter::AddLog after Start";
  logs_.push_back(log);
}

void RedoWriter::Start() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    SHOAL_CHECK(!running_ && !stop_) << "RedoWriter started twice";
    running_ = true;
  }
  thread_ = std::thread([this] {
    pthread_setname_np(pthread_self(), "redo-writer");  // named in the console's REPORT THREADS
    Run();
  });
}

void RedoWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!running_) return;
    stop_ = true;
    cv_.notify_one();
  }
  thread_.join();
  std::lock_guard<std::mutex> lock(mu_);
  running_ = false;
}

bool RedoWriter::Enqueue(Task* task) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!running_ || stop_) return false;
  queue_.push_back(std::move(*task));
  cv_.notify_one();
  return true;
}

void RedoWriter::Save(uint64_t epoch, std::function<void(absl::Status)> done) {
  Task task;
  task.save_epoch = epoch;
  task.done = std::move(done);
  if (!Enqueue(&task)) {
    task.done(absl::FailedPreconditionError("the redo writer is not running"));
  }
}

void RedoWriter::Post(std::function<void()> fn) {
  Task task;
  task.fn = std::move(fn);
  if (!Enqueue(&task)) task.fn();
}

std::string RedoWriter::last_error() const {
  std::lock_guard<std::mutex> lock(error_mu_);
  return last_error_;
}

bool RedoWriter::OverThreshold() const {
  for (const RedoLog* log : logs_) {
    if (log->pending_bytes() > options_.flush_bytes) return true;
  }
  return false;
}

void RedoWriter::Run() {
  // Pending bytes are polled, a few times per interval: the LDMs' appends do not signal us.
  // Once per interval: every wake-up costs a starved host (a busy neighbour) CPU time.
  const absl::Duration poll = options_.flush_interval;
  absl::Time next_flush = absl::Now() + options_.flush_interval;
  for (;;) {
    std::deque<Task> tasks;
    bool stopping;
    {
      std::unique_lock<std::mutex> lock(mu_);
      while (!stop_ && queue_.empty() && !OverThreshold()) {
        absl::Time now = absl::Now();
        if (now >= next_flush) break;
        cv_.wait_for(lock, absl::ToChronoNanoseconds(std::min(next_flush - now, poll)));
      }
      tasks.swap(queue_);
      stopping = stop_;
    }
    for (Task& task : tasks) {
      if (task.fn) {
        task.fn();
        continue;
      }
      absl::Status status = FlushAll(task.save_epoch);
      NoteResult(status);
      if (status.ok()) {
        uint64_t saved = saved_epoch_.load(std::memory_order_relaxed);
        if (task.save_epoch > saved) saved_epoch_.store(task.save_epoch, std::memory_order_release);
      }
      task.done(std::move(status));
    }
    // Cheap when nothing is pending (no system call); while unhealthy, this is the retry.
    NoteResult(FlushAll(0));
    next_flush = absl::Now() + options_.flush_interval;
    if (stopping) break;
  }
}

absl::Status RedoWriter::FlushAll(uint64_t saved_epoch) {
  absl::Status first;
  for (RedoLog* log : logs_) {
    // Every log gets its turn even after one fails, so one bad file does not stall the rest.
    absl::Status status = log->Flush(saved_epoch);
    if (first.ok() && !status.ok()) first = std::move(status);
  }
  return first;
}

void RedoWriter::NoteResult(const absl::Status& status) {
  if (status.ok()) {
    if (!healthy_.load(std::memory_order_relaxed)) {
      healthy_.store(true, std::memory_order_release);
      SHOAL_LOG(kInfo) << "redo writes succeed again";
    }
    return;
  }
  if (options_.write_errors != nullptr) options_.write_errors->Increment();
  {
    std::lock_guard<std::mutex> lock(error_mu_);
    last_error_ = std::string(status.message());
  }
  if (healthy_.exchange(false, std::memory_order_acq_rel)) {
    SHOAL_LOG(kError) << "redo write failed, the node refuses writes until it succeeds: "
                      << status.message();
  }
}

}  // namespace shoal::redo
