// BackupRole: this data node's part of an online backup (NDB's START BACKUP; docs/
// architecture.md, "Online backup"). The mgmd runs a backup through the cluster view
// (control::BackupRun) and hears of each part in the nodes' heartbeats (Report):
//
//   the view names a new backup with this node in it
//        ──▶ kNoted:   note the epoch the clock is in and the dictionary's version, and hold
//                      the local checkpoints' trims; report NOTED with the epoch
//   the view gives the stop epoch (the latest any node noted)
//        ──▶ kWaiting: until the stop epoch is complete — saved on every serving node
//        ──▶ kWriting: a thread of its own writes the part (backup_part.h): the checkpoint a
//                      restore of the stop epoch would load, and the redo up to the epoch
//        ──▶ kDone (report DONE) or kFailed (report FAILED; the files are removed)
//   the backup leaves the view before this node's part is done (aborted, or the mgmd
//   restarted): the part is given up and its files removed.
// A DDL statement between kNoted and the stop epoch fails the part: the dictionary the backup
// holds would not be the one its rows were written under.
//
// Owned by the DataPlane; used on the data-plane thread, except Report (any thread).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"
#include "common/metrics.h"
#include "engine/backup/backup.pb.h"
#include "engine/node/dictionary.h"
#include "engine/node/epoch_clock.h"
#include "engine/node/plane/checkpoint_role.h"
#include "engine/node/plane/epoch_role.h"
#include "engine/node/plane/options.h"

namespace shoal::node {

class BackupRole {
 public:
  BackupRole(const DataPlaneOptions* options, EpochClock* clock, EpochRole* epoch,
             CheckpointRole* checkpoint, const Dictionary* dictionary);
  ~BackupRole();  // gives up a part being written
  BackupRole(const BackupRole&) = delete;
  BackupRole& operator=(const BackupRole&) = delete;

  // Every new view: the backup it names, if any.
  void OnView(const control::BackupRun& run);
  // Every loop turn: cheap unless a part waits for its epoch or is being written.
  void Tick(absl::Time now);
  // Any thread: what the next heartbeat tells the mgmd.
  control::BackupReport Report() const;

 private:
  enum class Phase : uint8_t { kIdle, kNoted, kWaiting, kWriting, kDone, kFailed };

  // What the writing thread hands back.
  struct Job {
    uint32_t id = 0;
    std::atomic<bool> cancelled{false};
    std::atomic<bool> finished{false};
    absl::StatusOr<backup::Manifest> result = absl::UnknownError("not finished");
    std::thread thread;
  };

  void Note(const control::BackupRun& run);
  void StartWriting();
  void Finish(absl::StatusOr<backup::Manifest> result);
  // The part is over: the trims go on, the report says how it ended.
  void Settle(Phase phase, control::BackupReport report);
  void Abandon(const std::string& why);
  void Publish(const control::BackupReport& report);
  void Hold(const backup::Manifest& manifest);

  const DataPlaneOptions* options_;
  EpochClock* clock_;
  EpochRole* epoch_;
  CheckpointRole* checkpoint_;
  const Dictionary* dictionary_;
  const std::string backup_dir_;

  Phase phase_ = Phase::kIdle;
  uint32_t id_ = 0;
  uint64_t stop_epoch_ = 0;
  uint32_t dictionary_version_ = 0;
  bool holding_trims_ = false;
  std::unique_ptr<Job> job_;
  // Parts given up while their thread still ran: their files go once it has returned.
  std::vector<std::unique_ptr<Job>> retiring_;
  uint32_t last_id_ = 0;  // the largest backup id seen in backup_dir_ or taken part in
  std::vector<control::BackupPart> held_;  // this node's complete parts on disk, by id

  mutable std::mutex report_mutex_;
  control::BackupReport report_;  // guarded by report_mutex_

  Counter* completed_metric_;
  Counter* failed_metric_;
};

}  // namespace shoal::node
