// DictionaryRole: the data plane's part of the main role that keeps the dictionary
// (docs/architecture.md, "Schema"). Answers dictionary reads on any node; on the master
// (NodeView::IsMaster), runs DDL one request at a time (DdlQueue) and installs each new
// dictionary on every other STARTED data node before confirming, so a client that saw its DDL
// succeed finds the table on every node; elsewhere, installs what the master sends.
// AUTO_INCREMENT ranges too are handed out by the master, each once every other STARTED data
// node knows a ceiling above it (CeilingRaises). And the master holds the cluster's user-level
// locks (UserLockTable), in memory only: a node that becomes master grants none for
// kUserLockGrace, while the routers tell it which ones their sessions hold.
//
// A DDL request is queued, applied here when it reaches the front, then in flight until every
// peer it was sent to has confirmed (kDictConf) or left (PeerGone), and answered then. Each
// change here goes to `changed` (the LDMs, and the nodes being copied to) before any peer
// hears of it.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
#include "engine/node/plane/ceiling_raises.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/ddl_queue.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/user_lock_table.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::node {

class DictionaryRole {
 public:
  using Changed = absl::AnyInvocable<void(const DictionaryDelta& delta)>;
  // Saves the dictionary (and forwards it to the nodes being copied to) after a change of its
  // AUTO_INCREMENT ceilings only; `saved` runs on another thread once it is on disk.
  using CeilingsRaised = absl::AnyInvocable<void(std::function<void()> saved)>;

  // Every pointer outlives this. `changed` runs after a change of the dictionary's tables.
  DictionaryRole(int node_id, MetricsRegistry* metrics, Dictionary* dictionary,
                 const NodeView* view, Connections* connections, Changed changed,
                 CeilingsRaised ceilings_raised);
  DictionaryRole(const DictionaryRole&) = delete;
  DictionaryRole& operator=(const DictionaryRole&) = delete;

  // At start: installs `dictionary` (from the master, when another data node runs), else
  // begins a new incarnation with an empty dictionary.
  absl::Status Load(const std::optional<wire::Dictionary>& dictionary);
  // A kDictReq on `conn`: answered at once, or queued (DDL on the master).
  void HandleDict(Connection* conn, absl::string_view body);
  // A peer's kDictConf: its install of the DDL in flight.
  void OnPeerConf(const Connection& conn, const wire::DictConf& conf);
  // Peer `node_id` is gone: the DDL and ceiling raises in flight no longer wait for it.
  void PeerGone(int node_id);
  // After the view changed: a data node that began to serve gets every ceiling from the
  // master (raises since it fetched the dictionary went only to nodes serving then).
  void OnView();
  // A client's connection closed: a change of the accounts waits for it no more, and its
  // sessions' user-level locks go.
  void ClientGone(uint32_t conn);
  // On every turn of the data-plane loop: what waited for our disk, or for routers past their
  // time, goes on.
  void Tick();
  // Our dictionary, as an install, to data node connection `conn`; `truncated` names the
  // tables the latest change truncated.
  void SendDictionary(Connection* conn, absl::Span<const uint32_t> truncated);
  void PublishStats();

 private:
  // Master: GET_LOCK, RELEASE_LOCK and their kin.
  void HandleUserLock(Connection* conn, const wire::DictReq& req, wire::DictConf* conf);
  // Master: hands out an AUTO_INCREMENT range, once the other data nodes know its ceiling.
  void ReserveAutoIncrement(Connection* conn, const wire::DictReq& req);
  // Not the master: installs the master's ceilings and confirms.
  void RaiseCeilings(Connection* conn, const wire::DictReq& req);
  // Saves our ceilings; returns the save's number (saved_ reaches it once on disk).
  uint64_t SaveCeilings();
  // Saves `raise` here and sends it to every serving peer: the raise's number.
  uint64_t SendRaise(uint32_t table_id, const wire::RaiseAutoIncrement& raise);
  void Answer(std::vector<CeilingRaises::Held> held);
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
  CeilingsRaised ceilings_raised_;
  DdlQueue ddl_queue_;
  CeilingRaises raises_;
  absl::flat_hash_set<int> serving_peers_;  // in the last view (OnView)
  // Ceiling saves: posted, and on disk (set by the writer thread).
  uint64_t saves_ = 0;
  std::shared_ptr<std::atomic<uint64_t>> saved_ = std::make_shared<std::atomic<uint64_t>>(0);
  // What waits for a save: our own raises (confirmed for this node once saved), and the
  // confirmations of the master's raises (sent once saved).
  struct AfterSave {
    uint64_t save = 0;
    uint64_t raise = 0;  // our raise's number, or the master's tag to confirm
    uint32_t conn = 0;   // 0: our own raise; else the master's connection
  };
  std::deque<AfterSave> after_save_;
  absl::flat_hash_set<uint32_t> ending_alters_;  // orphaned ALTERs whose end is queued
  UserLockTable user_locks_;
  bool was_master_ = false;
  // Until then, as a new master, grants no user-level lock (the routers re-assert theirs).
  absl::Time user_lock_grace_ = absl::InfinitePast();
  const uint64_t run_;  // this run's number, in the ALTER locks granted here (AlterLock)
  Gauge* version_metric_;
  Counter* raises_metric_;
};

// Asks a running data node for its dictionary (used once at start-up; blocks).
absl::StatusOr<wire::Dictionary> FetchDictionary(const std::string& host, int port,
                                                 absl::Duration timeout,
                                                 const tls::LinkContext* link_tls);

}  // namespace shoal::node
