#include "mgmd/backup_coordinator.h"

#include <algorithm>
#include <functional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"

namespace shoal::mgmd {
namespace {

control::ConsoleRep Error(std::string message) {
  control::ConsoleRep rep;
  rep.set_ok(false);
  rep.set_error(std::move(message));
  return rep;
}

control::ConsoleRep Ok(std::string message) {
  control::ConsoleRep rep;
  rep.set_ok(true);
  rep.set_message(std::move(message));
  return rep;
}

}  // namespace

std::optional<control::ConsoleRep> BackupCoordinator::Start(uint64_t connection_id,
                                                            control::ConsoleReq::Wait wait) {
  if (run_.has_value()) {
    return Error(absl::StrCat("Backup ", run_->id(), " is running; wait for it or ABORT BACKUP ",
                              run_->id()));
  }
  control::BackupRun run;
  absl::flat_hash_set<int> groups_serving;
  absl::flat_hash_set<int> groups;
  for (const auto& [id, slot] : membership_->slots()) {
    if (slot.type != control::DATANODE) continue;
    groups.insert(slot.node_group);
    if (slot.state != control::STARTED) continue;
    run.add_nodes(static_cast<uint32_t>(id));
    groups_serving.insert(slot.node_group);
  }
  if (groups_serving.size() != groups.size() || groups.empty()) {
    return Error(
        "Backup failed: the cluster is not started (a node group has no started data node)");
  }
  run.set_id(last_id_ + 1);
  last_id_ = run.id();
  run_ = std::move(run);
  reports_.clear();
  hooks_.log("INFO", StartedText());
  hooks_.publish();
  if (wait == control::ConsoleReq::NOWAIT) return Ok(StartedText());
  waiters_.push_back({connection_id, wait});
  return std::nullopt;
}

control::ConsoleRep BackupCoordinator::Abort(uint32_t id) {
  if (!run_.has_value() || run_->id() != id) {
    return Error(absl::StrCat("Backup ", id, " is not running"));
  }
  Fail("aborted from the console");
  return Ok(absl::StrCat("Backup ", id, " aborted"));
}

void BackupCoordinator::OnReport(int node_id, const control::BackupReport& report) {
  last_id_ = std::max(last_id_, report.last_id());
  held_[node_id].assign(report.held().begin(), report.held().end());
  if (!run_.has_value() || report.id() != run_->id() || !Participates(node_id)) return;
  reports_[node_id] = report;
  Advance();
}

void BackupCoordinator::OnNodeState(int node_id, control::NodeState state) {
  if (state == control::NOT_CONNECTED) held_.erase(node_id);
  if (!run_.has_value() || !Participates(node_id) || state == control::STARTED) return;
  auto it = reports_.find(node_id);
  if (it != reports_.end() && it->second.state() == control::BackupReport::DONE) return;
  Fail(absl::StrCat("data node ", node_id, " is ", control::NodeState_Name(state)));
}

bool BackupCoordinator::Participates(int node_id) const {
  return std::find(run_->nodes().begin(), run_->nodes().end(), static_cast<uint32_t>(node_id)) !=
         run_->nodes().end();
}

void BackupCoordinator::Advance() {
  for (const auto& [id, report] : reports_) {
    if (report.state() == control::BackupReport::FAILED) {
      Fail(absl::StrCat("data node ", id, ": ", report.error()));
      return;
    }
  }
  if (reports_.size() != static_cast<size_t>(run_->nodes_size())) return;
  if (run_->stop_epoch() == 0) {
    uint64_t stop = 0;
    for (const auto& [id, report] : reports_) stop = std::max(stop, report.current_epoch());
    run_->set_stop_epoch(stop);
    hooks_.publish();
    Answer(control::ConsoleReq::WAIT_STARTED, Ok(StartedText()));
    return;
  }
  for (const auto& [id, report] : reports_) {
    if (report.state() != control::BackupReport::DONE) return;
  }
  Complete();
}

void BackupCoordinator::Complete() {
  // A part per node group is the backup (the replicas' parts hold the same rows): count those.
  absl::flat_hash_set<int> counted_groups;
  uint64_t start = 0, rows = 0, records = 0, data_bytes = 0, log_bytes = 0;
  std::vector<std::string> paths;
  for (const auto& [id, report] : reports_) {
    paths.push_back(absl::StrCat("node ", id, ": ", report.path()));
    const NodeSlot* slot = membership_->Find(id);
    if (slot == nullptr || !counted_groups.insert(slot->node_group).second) continue;
    start = start == 0 ? report.replay_from() : std::min(start, report.replay_from());
    rows += report.data_rows();
    records += report.log_records();
    data_bytes += report.data_bytes();
    log_bytes += report.log_bytes();
  }
  const std::string text = absl::StrCat(
      StartedText(), " completed\n StartGCP: ", start, " StopGCP: ", run_->stop_epoch(),
      "\n #Records: ", rows, " #LogRecords: ", records, "\n Data: ", data_bytes,
      " bytes Log: ", log_bytes, " bytes\n Files: ", absl::StrJoin(paths, "; "));
  hooks_.log("INFO", text);
  Answer(control::ConsoleReq::WAIT_COMPLETED, Ok(text));
  run_.reset();
  reports_.clear();
  hooks_.publish();
}

void BackupCoordinator::Fail(const std::string& why) {
  const std::string text = absl::StrCat("Backup ", run_->id(), " failed: ", why);
  hooks_.log("ALERT", text);
  for (const Waiter& waiter : waiters_) hooks_.reply(waiter.connection_id, Error(text));
  waiters_.clear();
  run_.reset();
  reports_.clear();
  hooks_.publish();
}

std::string BackupCoordinator::ShowBackups() const {
  struct Holder {
    int node;
    int group;
    const control::BackupPart* part;
  };
  absl::btree_map<uint32_t, std::vector<Holder>, std::greater<uint32_t>> by_id;
  for (const auto& [node, parts] : held_) {
    const NodeSlot* slot = membership_->Find(node);
    if (slot == nullptr) continue;
    for (const control::BackupPart& part : parts) {
      by_id[part.id()].push_back({node, slot->node_group, &part});
    }
  }
  absl::flat_hash_set<int> groups;
  for (const auto& [id, slot] : membership_->slots()) {
    if (slot.type == control::DATANODE) groups.insert(slot.node_group);
  }
  if (by_id.empty()) return "No backups on the connected data nodes";
  std::string out;
  for (const auto& [id, holders] : by_id) {
    absl::flat_hash_set<int> covered;
    for (const Holder& holder : holders) covered.insert(holder.group);
    const control::BackupPart& first = *holders.front().part;
    absl::StrAppend(
        &out, "Backup ", id, ": stop epoch ", first.stop_epoch(), ", finished ",
        absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::FromUnixMillis(first.finished_unix_ms()),
                         absl::UTCTimeZone()),
        covered.size() == groups.size()
            ? ", every node group has a part"
            : ", NOT RESTORABLE from these nodes: a node group has no part",
        "\n");
    for (const Holder& holder : holders) {
      absl::StrAppend(&out, "  node ", holder.node, " (node group ", holder.group,
                      "): ", holder.part->path(), ", ", holder.part->bytes(), " bytes\n");
    }
  }
  out.pop_back();
  return out;
}

std::string BackupCoordinator::StartedText() const {
  return absl::StrCat("Backup ", run_->id(), " started from node ", mgmd_id_);
}

void BackupCoordinator::Answer(control::ConsoleReq::Wait wait, const control::ConsoleRep& rep) {
  for (auto it = waiters_.begin(); it != waiters_.end();) {
    if (it->wait == wait) {
      hooks_.reply(it->connection_id, rep);
      it = waiters_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace shoal::mgmd
