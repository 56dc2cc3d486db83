// The LDM's feed into its redo log (docs/architecture.md, I8): every partition of a logged
// table shows it what it commits (storage::CommitObserver), and the tap appends the committed
// image under the epoch of the commit being applied — set around each commit with an
// EpochScope by whoever applies it (the decider's epoch, or the one a replication message
// carries). The appends only fill the log's buffer; the node's redo writer thread writes and
// syncs it (I3: no I/O on an LDM thread).
//
// Owned by the LDM's thread (LdmContext). Without a log (a node without durability, tests)
// it logs nothing.
#pragma once

#include <cstdint>

#include "absl/strings/string_view.h"
#include "engine/redo/redo_log.h"
#include "engine/storage/partition.h"

namespace shoal::node {

class RedoTap : public storage::CommitObserver {
 public:
  explicit RedoTap(redo::RedoLog* log = nullptr) : log_(log) {}

  bool logging() const { return log_ != nullptr; }

  // Commits applied while it lives are logged under `epoch`.
  class EpochScope {
   public:
    EpochScope(RedoTap* tap, uint64_t epoch) : tap_(tap), outer_(tap->epoch_) {
      tap->epoch_ = epoch;
    }
    ~EpochScope() { tap_->epoch_ = outer_; }
    EpochScope(const EpochScope&) = delete;
    EpochScope& operator=(const EpochScope&) = delete;

   private:
    RedoTap* tap_;
    uint64_t outer_;
  };

  void Committed(uint32_t table_id, uint32_t partition, absl::string_view key,
                 absl::string_view row) override {
    if (log_ == nullptr) return;
    if (row.empty()) {
      log_->AppendDelete(epoch_, table_id, partition, key);
    } else {
      log_->AppendWrite(epoch_, table_id, partition, key, row);
    }
  }
  uint64_t epoch() const override { return epoch_; }
  // Every row of the partition is gone (TRUNCATE TABLE).
  void Truncated(uint32_t table_id, uint32_t partition, uint64_t epoch) {
    if (log_ != nullptr) log_->AppendTruncate(epoch, table_id, partition);
  }

 private:
  redo::RedoLog* log_;
  uint64_t epoch_ = 0;
};

}  // namespace shoal::node
