// Writes many rows into a cluster with the asynchronous native client, keeping up to
// `parallelism` writes in flight (defined, sent in batches, completed as Poll finds them) —
// a restore's load, which would crawl at one round trip a row. Each write is an upsert
// (Client::Write, autocommit), so loading a row twice leaves it as once.
//
// A write refused with a temporary error (1297: a data node failed or the cluster's view
// moved; 1205: a lock wait timed out) is sent again after a pause, a few times; any other
// refusal fails the load, as does a minute with writes in flight and no answer.
//
// Owned and used by one thread, the one that uses `client`. Destroy it only after Drain()
// returned (no write in flight), or together with the client: the client holds completions
// that point into it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/api/client.h"

namespace shoal::backup {

class RowPipeline {
 public:
  // REQUIRES: parallelism >= 1. `client` must outlive the pipeline.
  RowPipeline(api::Client* client, int parallelism);
  RowPipeline(const RowPipeline&) = delete;
  RowPipeline& operator=(const RowPipeline&) = delete;

  // Queues an upsert of `row` (packed over every column of `table`; copied) and returns once
  // it is queued, waiting while `parallelism` writes are in flight. Returns the first write
  // that failed for good as soon as it is known; nothing more is queued after one has.
  absl::Status Write(api::TablePtr table, absl::string_view row);
  // Waits until every write queued has completed; returns the first that failed for good.
  absl::Status Drain();

  uint64_t written() const { return written_; }  // completed without error
  uint64_t retried() const { return retried_; }  // sent again after a temporary error

 private:
  struct Slot : api::Completion {
    void Done(const api::Outcome& outcome) override { owner->OnDone(this, outcome); }
    RowPipeline* owner = nullptr;
    api::TablePtr table;
    std::string row;
    int attempts = 0;
    absl::Time retry_at;
  };

  void Issue(Slot* slot);
  void OnDone(Slot* slot, const api::Outcome& outcome);
  // Sends what is queued, sends again the retries that are due and polls once for results.
  // An error when writes are in flight and nothing answered for kStallTimeout.
  absl::Status Pump();

  api::Client* client_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> free_;
  std::vector<Slot*> retry_;  // refused with a temporary error, each sent again at retry_at
  int in_flight_ = 0;
  int unsent_ = 0;  // defined since the last Send
  uint64_t written_ = 0;
  uint64_t retried_ = 0;
  absl::Time last_answer_ = absl::Now();
  absl::Status error_;
};

}  // namespace shoal::backup
