// BackupCoordinator: runs online backups for the console (START BACKUP, ABORT BACKUP; NDB's
// backup master, here in the mgmd, which already hears every data node). A backup goes
// through the cluster view and the data nodes' heartbeats (control.proto BackupRun and
// BackupReport; docs/architecture.md, "Online backup"):
//
//   Start:   every STARTED data node takes part (each node group needs one); the view names
//            the backup with stop epoch 0.
//   noted:   once every participant has reported NOTED, the stop epoch is the latest epoch any
//            of them was in — every commit acknowledged before START BACKUP is of an epoch
//            <= it — and the view says so ("WAIT STARTED" answers now).
//   done:    once every participant has reported DONE, the backup is complete: the cluster log
//            says so with its numbers, the view drops it, "WAIT COMPLETED" answers.
//   aborted: a participant FAILED, left or stopped serving, or ABORT BACKUP: the view drops the
//            backup and the nodes remove their files.
// Ids grow: the next is above every id a data node reports having in its backup directory.
//
// Used on the mgmd's loop thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "common/control/control.pb.h"
#include "mgmd/membership.h"

namespace shoal::mgmd {

class BackupCoordinator {
 public:
  struct Hooks {
    // A line for the cluster log (severity, text), under the mgmd's node id.
    std::function<void(const std::string& severity, const std::string& text)> log;
    // The backup in the view changed: publish a new view.
    std::function<void()> publish;
    // A console waiting on the backup gets its answer.
    std::function<void(uint64_t connection_id, const control::ConsoleRep& rep)> reply;
  };

  BackupCoordinator(const Membership* membership, int mgmd_id, Hooks hooks)
      : membership_(membership), mgmd_id_(mgmd_id), hooks_(std::move(hooks)) {}

  // START BACKUP from console connection `connection_id`. The answer, or nullopt when it comes
  // later through Hooks::reply, as `wait` asks.
  std::optional<control::ConsoleRep> Start(uint64_t connection_id, control::ConsoleReq::Wait wait);
  // ABORT BACKUP `id`.
  control::ConsoleRep Abort(uint32_t id);
  // A data node's heartbeat carried its backup report.
  void OnReport(int node_id, const control::BackupReport& report);
  // A node changed state: a participant that no longer serves aborts the backup.
  void OnNodeState(int node_id, control::NodeState state);
  // SHOW BACKUPS: the complete backups the connected data nodes hold, newest first, and
  // whether each has a part of every node group (what shoal-restore needs).
  std::string ShowBackups() const;

  // The backup in progress, for the view (nullopt: none).
  const std::optional<control::BackupRun>& run() const { return run_; }

 private:
  struct Waiter {
    uint64_t connection_id;
    control::ConsoleReq::Wait wait;
  };

  bool Participates(int node_id) const;
  void Advance();
  void Complete();
  void Fail(const std::string& why);
  std::string StartedText() const;
  void Answer(control::ConsoleReq::Wait wait, const control::ConsoleRep& rep);

  const Membership* membership_;
  const int mgmd_id_;
  Hooks hooks_;
  std::optional<control::BackupRun> run_;
  absl::btree_map<int, control::BackupReport> reports_;  // of the participants, for run_
  std::vector<Waiter> waiters_;
  // What each connected data node last said it holds (BackupReport.held).
  absl::btree_map<int, std::vector<control::BackupPart>> held_;
  uint32_t last_id_ = 0;  // the largest id handed out here or reported by a data node
};

}  // namespace shoal::mgmd
