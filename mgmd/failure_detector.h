// FailureDetector: the mgmd's judgement of silent nodes (docs/architecture.md, "Failure
// detection").
//
// Every registered node is watched from registration until it disconnects. Anything it sends
// counts as a heartbeat. Silence is counted by a liveness::SilenceDetector: in time the mgmd
// itself ran, not while this host's kernel shows the node runnable but starved, and with one
// more window for nodes that fall silent together. A node silent past its window (data nodes:
// heartbeat_interval × missed_heartbeats; routers: router_heartbeat_interval × the same) is
// declared failed — except the last live replica of a node group (no other replica of the group
// serving and heard from): without it the cluster cannot serve that data, and killing it would
// turn a stall into losing it. A process that
// dies closes its connection, which the mgmd sees at once; silence alone never takes the last
// copy of anything.
//
// Pure judgement: MgmdServer acts on the verdict. Owned by the MgmdServer; used on its loop
// thread only.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "common/config/config.h"
#include "common/liveness/process_probe.h"
#include "common/liveness/silence_detector.h"
#include "mgmd/membership.h"

namespace shoal::mgmd {

class FailureDetector {
 public:
  // How often Check() runs: short, so that a stall of the mgmd longer than two of these is
  // left out of every node's silence.
  static constexpr absl::Duration kCheckInterval = absl::Milliseconds(100);

  // `proc_root` is /proc except in tests.
  FailureDetector(const config::ClusterDefaults& cluster, absl::Time now,
                  std::string proc_root = "/proc");

  // `slot` registered (a new process in it): watch it afresh.
  void Watch(const NodeSlot& slot, absl::Time now);
  void Forget(int id);
  // Node `id` sent something.
  void Heard(int id, absl::Time now);

  struct Verdict {
    liveness::RunningClock::Tick tick;
    std::vector<int> failed;  // declare these failed now, in this order
    // Cluster log lines (node id, text) for nodes silent past their window by the clock but
    // not declared failed: why not. At most one per node and silence.
    std::vector<std::pair<int, std::string>> warnings;
  };
  Verdict Check(absl::Time now, const Membership& membership);

  // The node's silence as the detector counts it, for the ALERT that declares it failed.
  absl::Duration counted(int id) const { return silence_.counted(id); }

 private:
  absl::Duration WindowFor(control::NodeType type) const;

  config::ClusterDefaults cluster_;
  liveness::SilenceDetector silence_;
  liveness::ProcessProbe probe_;
  absl::flat_hash_set<int> withheld_;  // last replicas spared in their current silence
};

}  // namespace shoal::mgmd
