// DictionaryRole: the data plane's part of the main role that keeps the dictionary
// (docs/architecture.md, "Schema"). Answers dictionary reads on any node; on the master
// (NodeView::IsMaster), runs DDL one request at a time (DdlQueue) and installs each new
// dictionary on every other STARTED data node before confirming, so a client that saw its DDL
// succeed finds the table on every node; elsewhere, installs what the master sends.
//
// A DDL request is queued, applied here when it reaches the front, then in flight until every
// peer it was sent to has confirmed (kDictConf) or left (PeerGone), and answered then. Each
// change here goes to `changed` (the LDMs, and the nodes being copied to) before any peer
// hears of it.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/metrics.h"
#include "common/tls/link_context.h"
#include "engine/node/dictionary.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/ddl_queue.h"
#include "engine/node/plane/node_view.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

class DictionaryRole {
 public:
  using Changed = absl::AnyInvocable<void(const DictionaryDelta& delta)>;

  // Every pointer outlives this.
  DictionaryRole(int node_id, MetricsRegistry* metrics, Dictionary* dictionary,
                 const NodeView* view, Connections* connections, Changed changed);
  DictionaryRole(const DictionaryRole&) = delete;
  DictionaryRole& operator=(const DictionaryRole&) = delete;

  // At start: installs `dictionary` (from the master, when another data node runs), else
  // begins a new incarnation with an empty dictionary.
  absl::Status Load(const std::optional<wire::Dictionary>& dictionary);
  // A kDictReq on `conn`: answered at once, or queued (DDL on the master).
  void HandleDict(Connection* conn, absl::string_view body);
  // A peer's kDictConf: its install of the DDL in flight.
  void OnPeerConf(const Connection& conn, const wire::DictConf& conf);
  // Peer `node_id` is gone: the DDL in flight no longer waits for it.
  void PeerGone(int node_id);
  // Our dictionary, as an install, to data node connection `conn`; `truncated` names the
  // tables the latest change truncated.
  void SendDictionary(Connection* conn, absl::Span<const uint32_t> truncated);
  void PublishStats();

 private:
  void StartNextDdl();
  void FinishDdl();
  // Whether `table_id` is locked for an ALTER TABLE; one whose client connection is gone is
  // ended (as failed) on the way.
  bool EndOrphanedAlter(uint32_t table_id);

  int node_id_;
  Dictionary* dictionary_;
  const NodeView* view_;
  Connections* connections_;
  Changed changed_;
  DdlQueue ddl_queue_;
  absl::flat_hash_set<uint32_t> ending_alters_;  // orphaned ALTERs whose end is queued
  const uint64_t run_;  // this run's number, in the ALTER locks granted here (AlterLock)
  Gauge* version_metric_;
};

// Asks a running data node for its dictionary (used once at start-up; blocks).
absl::StatusOr<wire::Dictionary> FetchDictionary(const std::string& host, int port,
                                                 absl::Duration timeout,
                                                 const tls::LinkContext* link_tls);

}  // namespace shoal::node
