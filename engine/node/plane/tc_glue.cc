// The TC's traffic on the data plane: kCommitTxn in, two-phase commit out, results back.
#include "engine/node/plane/tc_glue.h"

#include <string>
#include <variant>

#include "engine/wire/errors.h"
#include "engine/wire/txn_ops.h"

namespace shoal::node {

TcGlue::TcGlue(int node_id, MetricsRegistry* metrics, Connections* connections, LdmHost* ldms,
               const Dictionary* dictionary)
    : node_id_(node_id),
      connections_(connections),
      ldms_(ldms),
      dictionary_(dictionary),
      tc_(
          node_id, [this](int node, const Coordinator::Message& message) { Send(node, message); },
          [this](uint32_t conn, uint64_t tag, uint16_t code, absl::string_view message) {
            if (code == wire::kResultOk) {
              wire::AppendResult(connections_->ReplyTo(conn), code, 0, tag, {});
            } else {
              wire::AppendResult(connections_->ReplyTo(conn), code, 0, tag, {message});
            }
          }) {
  commits_metric_ = metrics->GetCounter("shoal_datanode_tc_commits_total",
                                        "Transactions over several partitions this node's TC "
                                        "committed with two-phase commit.");
  aborts_metric_ = metrics->GetCounter(
      "shoal_datanode_tc_aborts_total",
      "Transactions over several partitions rolled back because one could not prepare.");
  takeovers_metric_ = metrics->GetCounter(
      "shoal_datanode_tc_takeovers_total",
      "Transactions of a failed TC this node finished (committed or rolled back) as master.");
}

void TcGlue::Commit(uint32_t conn, const wire::Op& op) {
  wire::CommitTxn commit;
  if (wire::CommitTxn::Decode(op, &commit) != wire::DecodeStatus::kOk) {
    wire::AppendResult(connections_->ReplyTo(conn), wire::kErInternal, 0, op.header.tag,
                       {"Internal error: malformed commit request"});
  } else {
    tc_.Commit(conn, commit);
  }
}

bool TcGlue::OnResults(uint32_t count, absl::string_view body) {
  for (uint32_t i = 0; i < count; ++i) {
    wire::Result result;
    if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) return false;
    tc_.OnResult(result);
  }
  return true;
}

void TcGlue::Send(int node, const Coordinator::Message& message) {
  auto append = [&message](wire::FrameBuilder* out) {
    std::visit([out](const auto& op) { op.Encode(out); }, message);
  };
  const uint32_t partition = std::visit([](const auto& op) { return op.partition; }, message);
  if (node != node_id_) {
    if (wire::FrameBuilder* out = connections_->ReplyTo(kToNode | static_cast<uint32_t>(node));
        out != nullptr) {
      append(out);
    }
    return;  // unreachable: the view will drop it, and the TC sends again (NodeLost)
  }
  scratch_.Clear();
  scratch_.Begin(wire::FrameType::kOpReq);
  append(&scratch_);
  scratch_.Finish();
  ldms_->RunOne(partition, scratch_.finished().substr(wire::kFrameHeaderSize), kTcConn);
}

void TcGlue::DrainResults() {
  if (results_.empty()) return;
  results_.Finish();
  // Results may send operations whose results land in results_ again: take them first.
  std::string frames(results_.finished());
  results_.Clear();
  for (absl::string_view rest = frames; !rest.empty();) {
    absl::string_view frame = wire::FirstFrame(rest);
    rest.remove_prefix(frame.size());
    wire::FrameHeader header;
    absl::string_view body;
    if (wire::DecodeFrame(frame, &header, &body) != wire::DecodeStatus::kOk) continue;
    for (uint32_t i = 0; i < header.count; ++i) {
      wire::Result result;
      if (wire::DecodeResult(&body, &result) != wire::DecodeStatus::kOk) break;
      tc_.OnResult(result);
    }
  }
}

void TcGlue::NodeLost(int node, bool take_over) { tc_.NodeLost(node, take_over, AllPartitions()); }

std::vector<std::pair<uint32_t, uint32_t>> TcGlue::AllPartitions() const {
  std::vector<std::pair<uint32_t, uint32_t>> all;
  for (const auto& [id, table] : dictionary_->tables()) {
    for (uint32_t p = 0; p < table->partitions; ++p) all.emplace_back(id, p);
  }
  return all;
}

void TcGlue::PublishStats() {
  const CoordinatorStats& tc = tc_.stats();
  commits_metric_->Increment(static_cast<int64_t>(tc.commits - published_.commits));
  aborts_metric_->Increment(static_cast<int64_t>(tc.aborts - published_.aborts));
  takeovers_metric_->Increment(static_cast<int64_t>(tc.takeovers - published_.takeovers));
  published_ = tc;
}

}  // namespace shoal::node
