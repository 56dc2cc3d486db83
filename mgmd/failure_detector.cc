#include "mgmd/failure_detector.h"

#include "absl/strings/str_cat.h"

namespace shoal::mgmd {

FailureDetector::FailureDetector(const config::ClusterDefaults& cluster, absl::Time now,
                                 std::string proc_root)
    : cluster_(cluster), silence_(kCheckInterval, now), probe_(std::move(proc_root)) {}

absl::Duration FailureDetector::WindowFor(control::NodeType type) const {
  absl::Duration interval =
      type == control::ROUTER ? cluster_.router_heartbeat_interval : cluster_.heartbeat_interval;
  return interval * cluster_.missed_heartbeats;
}

void FailureDetector::Watch(const NodeSlot& slot, absl::Time now) {
  withheld_.erase(slot.id);
  silence_.Watch(slot.id, WindowFor(slot.type), now, slot.identity);
}

void FailureDetector::Forget(int id) {
  withheld_.erase(id);
  silence_.Forget(id);
}

void FailureDetector::Heard(int id, absl::Time now) {
  withheld_.erase(id);
  silence_.Heard(id, now);
}

FailureDetector::Verdict FailureDetector::Check(absl::Time now, const Membership& membership) {
  liveness::SilenceDetector::Report report = silence_.Check(now, &probe_);
  Verdict verdict;
  verdict.tick = report.tick;
  for (const liveness::SilenceDetector::Note& note : report.notes) {
    verdict.warnings.emplace_back(note.peer, liveness::SilenceDetector::Describe(note));
  }
  for (int id : report.failed) {
    const NodeSlot* slot = membership.Find(id);
    if (slot == nullptr) continue;
    // Another replica past its own window does not count as live.
    if (membership.IsLastLiveReplica(id, report.failed)) {
      if (withheld_.insert(id).second) {
        verdict.warnings.emplace_back(
            id, absl::StrCat(
                    "silent for ",
                    absl::FormatDuration(absl::Trunc(silence_.counted(id), absl::Milliseconds(10))),
                    ", but it is the last live replica of node group ", slot->node_group,
                    ": not declared failed on silence (its data would be lost); the "
                    "node group serves again when it answers"));
      }
      continue;
    }
    verdict.failed.push_back(id);
  }
  return verdict;
}

}  // namespace shoal::mgmd
