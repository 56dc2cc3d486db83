// GroupRole: the data plane's part of the main role that follows node-group membership
// (docs/architecture.md, "Replication"): applies each cluster view (the LDMs' GroupView, the
// TC's node groups, peers that left: their links closed, their transactions taken over on the
// master), and runs node-restart copies from either end.
//
// This node restarting, its copy goes: requested (RequestCopy, when the first view has a
// STARTED node of its group: the copy source) → copying (the source's kCopyDone reports,
// on_copy_progress with the percent, CopyProgress) → ready (every LDM of the source
// complete), or failed (the source unreachable, its link closed, or out of the view before
// that); either end runs on_ready once. With no copy source it is ready at once.
// The other end: a node asking for a copy (kCopyReq) becomes a copy target: its link is the
// asking connection, it gets our dictionary first and every change after (ForwardDictionary),
// it counts as not serving, and our LDMs copy to it (CopySteps on this thread, paced by its
// output queue), until a view newer than its request says it STARTED, or it leaves.
//
// Owned by the DataPlane; used on the data-plane thread only.
#pragma once

#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "common/control/control.pb.h"
#include "engine/node/dictionary.h"
#include "engine/node/plane/connections.h"
#include "engine/node/plane/copy_progress.h"
#include "engine/node/plane/dictionary_role.h"
#include "engine/node/plane/ldm_host.h"
#include "engine/node/plane/node_view.h"
#include "engine/node/plane/options.h"
#include "engine/node/plane/tc_glue.h"
#include "engine/wire/replica_ops.h"

namespace shoal::node {

class GroupRole {
 public:
  // Every pointer outlives this.
  GroupRole(DataPlaneOptions* options, NodeView* view, Connections* connections, LdmHost* ldms,
            DictionaryRole* dictionary, TcGlue* tc);
  GroupRole(const GroupRole&) = delete;
  GroupRole& operator=(const GroupRole&) = delete;

  // The first view (already in the NodeView): finds the copy source, if any.
  void FindCopySource();
  // Applies a newer cluster view (older ones are ignored).
  void OnView(control::ClusterView view);
  // Tells the LDMs and the TC who serves, from the view and the copy targets.
  void PushGroup();

  // This node restarting: asks the copy source for a copy (ready at once without one).
  void RequestCopy();
  // A kCopyDone from the copy source's LDM.
  void OnCopyProgress(const wire::CopyDone& progress);
  // A kCopyReq on `conn`, from its data node, which restored its own disk up to `since_epoch`
  // (0: it has nothing).
  void StartCopyTo(Connection* conn, uint64_t since_epoch);
  // A step of the copies to restarting nodes by the LDMs on this thread; true when it copied.
  bool CopySteps();
  // After a dictionary change here: the nodes copying from us, which the master does not
  // install on before they serve, get it in order with the copy.
  void ForwardDictionary(const DictionaryDelta& delta);

  // Connection `conn` closes (ConnectionEvents::OnClosing): the copy fails if it was the
  // copy source's.
  void OnClosing(const Connection& conn, absl::string_view why);
  // The link to `node_id` is gone, or must go: closed, and the DDL in flight stops waiting for
  // it.
  void PeerGone(int node_id);

 private:
  void Ready(absl::Status status);

  DataPlaneOptions* options_;
  NodeView* view_;
  Connections* connections_;
  LdmHost* ldms_;
  DictionaryRole* dictionary_;
  TcGlue* tc_;

  int copy_source_ = 0;          // the node this one copies from while it restarts (0: none)
  bool ready_reported_ = false;  // on_ready has run
  CopyProgress copy_progress_;
  // Nodes this one copies to, with the view version when they asked: until a newer view says
  // they started, they are not replicas that serve, whatever an older view said.
  absl::flat_hash_map<int, uint64_t> copy_targets_;
  uint32_t copy_conn_ = 0;  // the connection the copy goes out on
};

}  // namespace shoal::node
