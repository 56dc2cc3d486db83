// The LDM's part of a local checkpoint (NDB's LCP; docs/architecture.md, "Local checkpoints"):
// every row of this LDM's partitions of logged tables, scanned a chunk at a time between the
// operations and handed to the node's I/O thread (the redo writer) to write, so that the LDM
// thread never does file I/O. The checkpoint is fuzzy: rows may change while it scans; the redo
// replayed from the checkpoint's start epoch at a restore brings every row to its last image.
//
// A checkpoint here is
//   started   by Start(part): the partitions of logged tables are listed;
//   scanning  a chunk per Step() (at most ~1,000 rows), when its pace allows: the rows of the
//             chunk go to the part's file, the bytes to the I/O thread. A partition dropped
//             meanwhile is skipped (dictionary deltas reach the LDM in order with the steps);
//             a partition truncated or re-created goes on from the same key in the new one
//             (the redo holds the truncation, and replays it after these rows);
//   done      when every listed partition is scanned: the part says so (`scanned`), and the
//             data-plane's CheckpointRole, which polls it, finishes the files;
//   dropped   when the role cancels the part (a write failed, the node stops): the next Step
//             forgets it.
//
// Owned by the Ldm; used on its thread only. The CheckpointPart is shared with the role (on the
// data-plane thread) and the I/O thread, through its atomics only, as said there.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "engine/node/ldm/context.h"
#include "engine/node/ldm/tables.h"
#include "engine/redo/checkpoint.h"
#include "engine/redo/redo_writer.h"
#include "engine/schema/row.h"

namespace shoal::node {

// One LDM's file of one checkpoint, and what the three threads that touch it tell each other.
// Made by the role before the checkpoint starts; the LDM adds rows to `file` and takes its
// buffered bytes; `io` writes them, in the order handed over; the role finishes `file` on `io`
// once `scanned` says the LDM is done with it.
struct CheckpointPart {
  uint64_t id = 0;
  std::unique_ptr<redo::CheckpointWriter> file;
  // The I/O thread; null: bytes are written on the LDM's own thread (tests only).
  redo::RedoWriter* io = nullptr;
  uint64_t bytes_per_second = 0;  // this LDM's share of the write rate; 0: unpaced
  uint64_t rows_per_step = 1000;

  // LDM thread → role: every row is in `file` and every byte handed to `io` (release).
  std::atomic<bool> scanned{false};
  // Role → LDM thread: stop scanning; the part is abandoned.
  std::atomic<bool> cancelled{false};
  // Progress, for logs and metrics (LDM thread).
  std::atomic<uint64_t> rows{0};
  std::atomic<uint64_t> bytes_handed{0};

  // I/O thread: a write failed; the checkpoint is unusable. Set once.
  void Fail(const absl::Status& status);
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  absl::Status error() const;

 private:
  std::atomic<bool> failed_{false};
  mutable std::mutex error_mu_;
  absl::Status error_;
};

class Checkpointer {
 public:
  Checkpointer(LdmContext* context, const LdmTables* tables) : context_(context), tables_(tables) {}

  // Starts this LDM's part of a checkpoint (a part still running is dropped: the role starts
  // one only when the last is over, so that happens only when it gave up on it).
  void Start(std::shared_ptr<CheckpointPart> part, absl::Time now);
  // Scans the next chunk if the pace allows it now; false when it did nothing.
  bool Step(absl::Time now);
  bool active() const { return part_ != nullptr; }

 private:
  // Scans partition (table_id, p) from resume_ for at most `max_rows` rows into the part's file;
  // returns the rows added and whether the partition is done.
  std::pair<uint32_t, bool> ScanChunk(uint32_t table_id, uint32_t p, uint32_t max_rows);
  // Hands the file's buffered bytes to the I/O thread; returns how many.
  size_t HandOver();
  // Forgets the part (cancelled, or replaced).
  void Drop();

  LdmContext* context_;
  const LdmTables* tables_;
  std::shared_ptr<CheckpointPart> part_;
  std::deque<std::pair<uint32_t, uint32_t>> todo_;  // (table, partition) not done yet
  std::string resume_;                              // in todo_.front(); empty: from the start
  absl::Time next_step_ = absl::InfinitePast();
  absl::Time started_;
  schema::RowWriter out_;
  std::vector<uint16_t> columns_;
  std::vector<schema::Field> fields_;
};

}  // namespace shoal::node
