#include "engine/backup/row_pipeline.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/logging.h"
#include "engine/wire/errors.h"

namespace shoal::backup {
namespace {

// Writes defined before they are handed to the transports together: fewer, fuller frames.
constexpr int kSendBatch = 64;
// A node failure is noticed, and its partitions taken over, within seconds: pauses that double
// from 20 ms to 2 s, 30 times (about a minute in all), outlast one.
constexpr int kMaxAttempts = 30;
constexpr absl::Duration kFirstPause = absl::Milliseconds(20);
constexpr absl::Duration kMaxPause = absl::Seconds(2);
constexpr absl::Duration kStallTimeout = absl::Seconds(60);
constexpr absl::Duration kPollSlice = absl::Milliseconds(100);

bool IsTemporary(uint16_t code) {
  return code == wire::kErTemporary || code == wire::kErLockWaitTimeout;
}

}  // namespace

RowPipeline::RowPipeline(api::Client* client, int parallelism) : client_(client) {
  SHOAL_CHECK(parallelism >= 1) << "a pipeline needs room for one write";
  for (int i = 0; i < parallelism; ++i) {
    auto slot = std::make_unique<Slot>();
    slot->owner = this;
    free_.push_back(slot.get());
    slots_.push_back(std::move(slot));
  }
}

absl::Status RowPipeline::Write(api::TablePtr table, absl::string_view row) {
  while (error_.ok() && free_.empty()) {
    if (absl::Status pumped = Pump(); !pumped.ok()) return pumped;
  }
  if (!error_.ok()) return error_;
  Slot* slot = free_.back();
  free_.pop_back();
  slot->table = std::move(table);
  slot->row.assign(row.data(), row.size());
  slot->attempts = 0;
  Issue(slot);
  if (++unsent_ >= kSendBatch) {
    client_->Send();
    unsent_ = 0;
  }
  return error_;
}

absl::Status RowPipeline::Drain() {
  while (in_flight_ > 0 || !retry_.empty()) {
    if (absl::Status pumped = Pump(); !pumped.ok()) return pumped;
  }
  return error_;
}

void RowPipeline::Issue(Slot* slot) {
  ++slot->attempts;
  // Counted first: a write the client fails at once completes inside Client::Write.
  ++in_flight_;
  client_->Write(*slot->table, slot->row, slot);
}

void RowPipeline::OnDone(Slot* slot, const api::Outcome& outcome) {
  --in_flight_;
  last_answer_ = absl::Now();
  if (outcome.ok()) {
    ++written_;
    free_.push_back(slot);
    return;
  }
  if (IsTemporary(outcome.code) && slot->attempts < kMaxAttempts && error_.ok()) {
    absl::Duration pause =
        std::min(kMaxPause, kFirstPause * (1 << std::min(slot->attempts - 1, 10)));
    slot->retry_at = last_answer_ + pause;
    retry_.push_back(slot);
    return;
  }
  if (error_.ok()) {
    const schema::TableDef& table = *slot->table;
    error_ = absl::AbortedError(absl::StrCat(
        "writing a row of ", table.database, ".", table.name, " failed with error ", outcome.code,
        ": ", outcome.message,
        IsTemporary(outcome.code) ? absl::StrCat(" (after ", slot->attempts, " attempts)") : ""));
  }
  free_.push_back(slot);
}

absl::Status RowPipeline::Pump() {
  const absl::Time now = absl::Now();
  absl::Time next_retry = now + kPollSlice;
  // Taken out first: a write sent again may be refused at once, back into retry_.
  std::vector<Slot*> due;
  for (size_t i = 0; i < retry_.size();) {
    if (!error_.ok() || retry_[i]->retry_at <= now) {
      due.push_back(retry_[i]);
      retry_[i] = retry_.back();
      retry_.pop_back();
    } else {
      next_retry = std::min(next_retry, retry_[i]->retry_at);
      ++i;
    }
  }
  for (Slot* slot : due) {
    if (!error_.ok()) {
      free_.push_back(slot);  // the load has failed: nothing is sent again
      continue;
    }
    ++retried_;
    Issue(slot);
  }
  client_->Send();
  unsent_ = 0;
  if (in_flight_ == 0) {
    // Only retries wait: nothing can answer before they are due.
    absl::SleepFor(std::max(absl::ZeroDuration(), next_retry - absl::Now()));
    last_answer_ = absl::Now();
    return absl::OkStatus();
  }
  client_->Poll(std::max(absl::ZeroDuration(), next_retry - absl::Now()));
  if (in_flight_ > 0 && absl::Now() - last_answer_ > kStallTimeout) {
    return absl::DeadlineExceededError(absl::StrCat("no data node answered any of ", in_flight_,
                                                    " writes in ",
                                                    absl::FormatDuration(kStallTimeout)));
  }
  return absl::OkStatus();
}

}  // namespace shoal::backup
