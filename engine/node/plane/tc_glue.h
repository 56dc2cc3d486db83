// TcGlue: the data plane's tc role (docs/architecture.md I3). Owns this node's transaction
// coordinator (coordinator.h) and carries its traffic: a client's kCommitTxn in, the TC's
// operations out to each partition's primary (peers over their links, this node's own LDMs
// under the connection id kTcConn), and the participants' results back to it, from peers'
// kOpConf frames and from the results our LDMs put in ReplyTo(kTcConn)'s frame.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/metrics.h"
#include "engine/node/coordinator.h"
#include "engine/node/dictionary.h"
#include "engine/node/ldm/context.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/ldm_host.h"
#include "engine/wire/frame.h"
#include "engine/wire/op.h"

namespace shoal::node {

// The connection id under which the TC's operations run on this node's own LDMs.
inline constexpr uint32_t kTcConn = kOpsOn - 1;

class TcGlue {
 public:
  // Every pointer outlives this.
  TcGlue(int node_id, MetricsRegistry* metrics, Connections* connections, LdmHost* ldms,
         const Dictionary* dictionary);
  TcGlue(const TcGlue&) = delete;
  TcGlue& operator=(const TcGlue&) = delete;

  // ReplyTo(kTcConn): the frame our LDMs answer the TC's operations in.
  wire::FrameBuilder* results() {
    if (!results_.in_frame()) results_.Begin(wire::FrameType::kOpConf);
    return &results_;
  }
  // A client's kCommitTxn `op` on connection `conn` (a malformed one answered with an error).
  void Commit(uint32_t conn, const wire::Op& op);
  // A peer's kOpConf frame body of `count` results. False when malformed (those before the
  // malformed one are taken).
  bool OnResults(uint32_t count, absl::string_view body);
  // Hands the TC what our LDMs answered it this turn.
  void DrainResults();

  void SetDecider(EpochClock::Decider* decider) { tc_.SetDecider(decider); }
  void SetGroups(std::vector<std::vector<std::pair<int, bool>>> groups) {
    tc_.SetGroups(std::move(groups));
  }
  // Data node `node` left; with `take_over` (this node is the master), finishes its
  // transactions, asking about every partition of the dictionary.
  void NodeLost(int node, bool take_over);
  void ReportStuck(absl::Time now, absl::Duration age) const { tc_.ReportStuck(now, age); }
  void PublishStats();

 private:
  void Send(int node, const Coordinator::Message& message);
  std::vector<std::pair<uint32_t, uint32_t>> AllPartitions() const;

  int node_id_;
  Connections* connections_;
  LdmHost* ldms_;
  const Dictionary* dictionary_;
  Coordinator tc_;
  wire::FrameBuilder results_;  // our LDMs' results for the TC (ReplyTo(kTcConn))
  wire::FrameBuilder scratch_;
  Counter* commits_metric_;
  Counter* aborts_metric_;
  Counter* takeovers_metric_;
  CoordinatorStats published_;
};

}  // namespace shoal::node
