// CheckpointRole: when this data node takes a local checkpoint (NDB's LCP; docs/architecture.md,
// "Local checkpoints"), and what follows one: the node state names it, and the previous one
// and the redo before it go. Without checkpoints the redo would grow for ever, and a system
// restart would replay all of it.
//
// One checkpoint at a time, each going through:
//   kIdle      → kOpening   once this node is STARTED and the redo written since the last
//                           checkpoint started passes `checkpoint_after_redo` (or at once after
//                           a system restart's restore, which logged every row again): id = the
//                           last + 1, start epoch = the clock's current − 1 (every commit of an
//                           earlier epoch is applied on every replica: rounds are sequential,
//                           epoch_clock.h), at least the restored epoch + 1; the I/O thread
//                           creates one file per LDM.
//   kOpening   → kScanning  the files are open: every LDM scans its partitions into its file,
//                           paced to `checkpoint_write_rate` (ldm/checkpointer.h).
//   kScanning  → kFinishing every LDM has scanned: the I/O thread writes each file's footer
//                           and syncs it.
//   kFinishing → kTrimming  synced: end epoch = the clock's current (no row scanned is of a
//                           later one); EpochRole makes it the node state's checkpoint.
//   kTrimming  → kIdle      once an epoch >= the end epoch is complete (and so recorded in the
//                           node state before what follows): a restore now always picks the new
//                           checkpoint, so the state forgets the previous one, and the I/O thread
//                           removes its files and the redo segments below the new start epoch.
// Any failure (a file that cannot be written, a disk full) abandons the checkpoint: its files
// go, and another is tried a little later. The redo keeps everything meanwhile.
//
// Owned by the DataPlane; used on the data-plane thread only. File I/O runs on the redo writer
// thread (Post), never here.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/node/epoch_clock.h"
#include "engine/node/ldm/checkpointer.h"
#include "engine/node/plane/epoch_role.h"
#include "engine/node/plane/ldm_host.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/options.h"
#include "engine/redo/redo_log.h"
#include "engine/redo/redo_writer.h"

namespace shoal::node {

class CheckpointRole {
 public:
  // `writer` null: nothing is on disk, and no checkpoint is taken. `logs` are the LDMs' redo
  // logs (their bytes written decide when; they are trimmed after). All outlive the role.
  CheckpointRole(const DataPlaneOptions* options, const NodeView* view, EpochClock* clock,
                 LdmHost* ldms, EpochRole* epoch, std::vector<redo::RedoLog*> logs,
                 redo::RedoWriter* writer);
  ~CheckpointRole();  // abandons a checkpoint under way
  CheckpointRole(const CheckpointRole&) = delete;
  CheckpointRole& operator=(const CheckpointRole&) = delete;

  // A system restart restored this node to `epoch` and logged every row again, under epochs
  // up to it: checkpoint as soon as the node serves, from epoch + 1 on — every commit of
  // `epoch` or before is applied, and every node's clock starts after it — so that the trim
  // after it drops all the redo the restore wrote.
  void Restored(uint64_t epoch) {
    due_ = true;
    min_start_epoch_ = epoch + 1;
  }
  // While held, no checkpoint files or redo are removed: a backup is reading them
  // (backup_role.h). A checkpoint may still complete; its trim waits (and with it the next).
  void HoldTrims() { ++trim_holds_; }
  void ReleaseTrims() { --trim_holds_; }
  // Every loop turn: moves the checkpoint along; cheap when there is nothing to do.
  void Tick(absl::Time now);
  // Every 100 ms: metrics (and, now and then, the redo's size on disk).
  void PublishStats(absl::Time now);

 private:
  enum class Phase : uint8_t { kIdle, kOpening, kScanning, kFinishing, kTrimming };

  // What the I/O thread's tasks for one checkpoint share with this thread.
  struct Checkpoint {
    uint64_t id = 0;
    uint64_t start_epoch = 0;
    uint64_t end_epoch = 0;
    absl::Time started;
    std::vector<std::shared_ptr<CheckpointPart>> parts;  // one per LDM
    // I/O thread → here: the task posted last (open, finish) is over (release), with this.
    std::atomic<bool> io_done{false};
    absl::Status io_status;
  };

  uint64_t RedoWritten() const;
  bool Due() const;
  void Begin(absl::Time now);
  void Scanned();
  void Finished(absl::Time now);
  // Whether the writer thread finished its part of the current phase, and well; a failure
  // abandons the checkpoint (false).
  bool WriterSucceeded(absl::Time now);
  void Trim();
  // Gives the checkpoint up: its files go (on the I/O thread) and another is tried later.
  void Abandon(absl::Time now, const absl::Status& why);
  // Posts `fn` to the I/O thread; it sets io_done when it returns.
  void PostIo(std::function<absl::Status(Checkpoint*)> fn);
  void MeasureRedo();

  const DataPlaneOptions* options_;
  const NodeView* view_;
  EpochClock* clock_;
  LdmHost* ldms_;
  EpochRole* epoch_;
  const std::vector<redo::RedoLog*> logs_;
  redo::RedoWriter* writer_;
  const std::string checkpoint_dir_;
  const std::string redo_dir_;

  Phase phase_ = Phase::kIdle;
  std::shared_ptr<Checkpoint> current_;
  bool due_ = false;  // a checkpoint is wanted whatever the redo says
  int trim_holds_ = 0;
  uint64_t min_start_epoch_ = 0;
  uint64_t redo_at_last_start_ = 0;  // RedoWritten() when the last checkpoint started
  // kIdle: when to look at the redo again (soon; a while after a failure).
  absl::Time next_check_ = absl::InfinitePast();
  absl::Time next_measure_ = absl::InfinitePast();
  std::shared_ptr<std::atomic<int64_t>> redo_on_disk_;  // measured on the I/O thread

  Counter* checkpoints_metric_;
  Gauge* rows_metric_;
  Gauge* bytes_metric_;
  Gauge* seconds_metric_;
  Gauge* redo_bytes_metric_;
  Counter* redo_written_metric_;
  uint64_t redo_written_published_ = 0;
};

}  // namespace shoal::node
