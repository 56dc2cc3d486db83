#include "mgmd/membership.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>

#include "absl/container/btree_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "common/control/view_text.h"
#include "common/utf8.h"

namespace shoal::mgmd {

using control::NodeState;
using control::NodeType;

bool IsLoopbackAddress(const std::string& ip) {
  return absl::StartsWith(ip, "127.") || ip == "::1" || absl::StartsWith(ip, "::ffff:127.");
}

std::vector<std::string> ResolveHost(const std::string& host) {
  std::vector<std::string> out;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* result = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &result) != 0) return out;
  for (addrinfo* ai = result; ai != nullptr; ai = ai->ai_next) {
    char buf[INET6_ADDRSTRLEN] = {};
    const void* addr =
        ai->ai_family == AF_INET
            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr)
            : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr);
    if (inet_ntop(ai->ai_family, addr, buf, sizeof(buf)) != nullptr) out.emplace_back(buf);
  }
  freeaddrinfo(result);
  return out;
}

Membership::Membership(const config::ClusterConfig& config, absl::Time now) {
  auto add = [&](int id, NodeType type, const std::string& host, int node_group) {
    NodeSlot& slot = slots_[id];
    slot.id = id;
    slot.type = type;
    slot.host = host;
    slot.node_group = node_group;
    slot.state_since = now;
    host_addresses_[id] = ResolveHost(host);
  };
  add(config.mgmd.id, control::MGMD, config.mgmd.host, -1);
  for (const auto& dn : config.datanodes) {
    add(dn.id, control::DATANODE, dn.host, dn.node_group);
    slots_[dn.id].data_socket = dn.socket;
  }
  for (const auto& r : config.routers) add(r.id, control::ROUTER, r.host, -1);
}

bool Membership::HostMatches(const NodeSlot& slot, const std::string& peer_ip) const {
  auto it = host_addresses_.find(slot.id);
  if (it == host_addresses_.end()) return false;
  for (const std::string& ip : it->second) {
    if (ip == peer_ip) return true;
    // A node configured on loopback talks to the mgmd over loopback, from whichever address.
    if (IsLoopbackAddress(ip) && IsLoopbackAddress(peer_ip)) return true;
  }
  return false;
}

absl::StatusOr<int> Membership::Allocate(NodeType type, int requested_id,
                                         const std::string& peer_ip) const {
  absl::string_view type_name = control::NodeTypeLabel(type);
  if (type != control::DATANODE && type != control::ROUTER) {
    return absl::InvalidArgumentError(absl::StrCat("a ", type_name, " cannot register as a node"));
  }
  if (requested_id != 0) {
    const NodeSlot* slot = Find(requested_id);
    if (slot == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("node id ", requested_id, " is not in the configuration"));
    }
    if (slot->type != type) {
      return absl::InvalidArgumentError(absl::StrCat("node id ", requested_id, " is a ",
                                                     control::NodeTypeLabel(slot->type), ", not a ",
                                                     type_name));
    }
    if (slot->state != control::NOT_CONNECTED) {
      return absl::AlreadyExistsError(
          absl::StrCat("node id ", requested_id, " is already in use by a connected node"));
    }
    if (!HostMatches(*slot, peer_ip)) {
      return absl::PermissionDeniedError(absl::StrCat(
          "node id ", requested_id, " is configured for host ", slot->host, ", not for ", peer_ip));
    }
    return requested_id;
  }
  int configured_here = 0;
  for (const auto& [id, slot] : slots_) {
    if (slot.type != type || !HostMatches(slot, peer_ip)) continue;
    ++configured_here;
    if (slot.state == control::NOT_CONNECTED) return id;
  }
  if (configured_here == 0) {
    return absl::NotFoundError(absl::StrCat("no ", type_name, " is configured for host ", peer_ip));
  }
  return absl::ResourceExhaustedError(absl::StrCat("no free node id for a ", type_name, " on ",
                                                   peer_ip, ": all ", configured_here,
                                                   " configured are connected"));
}

bool Membership::SetState(int id, NodeState state, absl::Time now) {
  NodeSlot* slot = Find(id);
  if (slot == nullptr || slot->state == state) return false;
  slot->state = state;
  slot->state_since = now;
  slot->start_phase.clear();
  slot->start_percent = -1;
  if (state == control::NOT_CONNECTED) {
    slot->disk.Clear();
    slot->memory.reset();
    slot->threads.clear();
  }
  ++version_;
  return true;
}

void Membership::SetMemoryUsage(int id, const control::MemoryUsage& memory) {
  NodeSlot* slot = Find(id);
  if (slot != nullptr && slot->state != control::NOT_CONNECTED) slot->memory = memory;
}

void Membership::SetThreads(
    int id, const google::protobuf::RepeatedPtrField<control::ThreadUsage>& threads) {
  NodeSlot* slot = Find(id);
  if (slot != nullptr && slot->state != control::NOT_CONNECTED) {
    slot->threads.assign(threads.begin(), threads.end());
  }
}

bool Membership::SetDiskState(int id, const control::DiskState& disk) {
  NodeSlot* slot = Find(id);
  if (slot == nullptr || slot->type != control::DATANODE || slot->state == control::NOT_CONNECTED ||
      !disk.known()) {
    return false;
  }
  bool first = !slot->disk.known();
  slot->disk = disk;
  if (first) ++version_;
  return first;
}

Membership::SystemRestartChange Membership::UpdateSystemRestart(absl::Time now,
                                                                absl::Duration partial_timeout) {
  bool any_started = false;
  bool any_connected = false;
  bool all_reported = true;
  std::vector<const NodeSlot*> reported;  // STARTING, disk known: the candidates
  absl::btree_set<int> groups;
  absl::btree_set<int> groups_reported;
  for (const auto& [id, slot] : slots_) {
    if (slot.type != control::DATANODE) continue;
    groups.insert(slot.node_group);
    any_started = any_started || slot.state == control::STARTED;
    any_connected = any_connected || slot.state != control::NOT_CONNECTED;
    if (slot.state == control::STARTING && slot.disk.known()) {
      reported.push_back(&slot);
      groups_reported.insert(slot.node_group);
    } else {
      all_reported = false;
    }
  }
  // A started data node means the cluster serves: whoever starts now copies from it (a node
  // restart). No data node at all: the next to come begin a new wait.
  if (any_started || !any_connected) {
    restart_wait_since_.reset();
    if (!system_restart_.has_value()) return SystemRestartChange::kNone;
    system_restart_.reset();
    ++version_;
    return SystemRestartChange::kCleared;
  }
  if (system_restart_.has_value()) return SystemRestartChange::kNone;
  if (reported.empty()) {
    restart_wait_since_.reset();
    return SystemRestartChange::kNone;
  }
  if (!restart_wait_since_.has_value()) restart_wait_since_ = now;
  bool partial =
      now - *restart_wait_since_ >= partial_timeout && groups_reported.size() == groups.size();
  if (!all_reported && !partial) return SystemRestartChange::kNone;

  SystemRestartDecision decision;
  for (const NodeSlot* slot : reported) {
    decision.epoch = std::max(decision.epoch, slot->disk.complete_epoch());
  }
  absl::btree_set<int> groups_restorable;
  for (const NodeSlot* slot : reported) {
    const control::DiskState& disk = slot->disk;
    bool can = decision.epoch == 0 ||
               (disk.restorable_from() != 0 && disk.restorable_from() <= decision.epoch &&
                disk.saved_epoch() >= decision.epoch);
    if (!can) continue;
    decision.nodes.push_back(slot->id);
    groups_restorable.insert(slot->node_group);
  }
  if (decision.epoch != 0) {
    for (int group : groups) {
      if (!groups_restorable.contains(group)) decision.groups_lost.push_back(group);
    }
  }
  for (const auto& [id, slot] : slots_) {
    if (slot.type == control::DATANODE && !(slot.state == control::STARTING && slot.disk.known())) {
      decision.missing.push_back(id);
    }
  }
  system_restart_ = std::move(decision);
  ++version_;
  return SystemRestartChange::kDecided;
}

bool Membership::SetStartProgress(int id, absl::string_view phase, int percent) {
  NodeSlot* slot = Find(id);
  if (slot == nullptr || slot->state != control::STARTING) return false;
  phase = Utf8Prefix(phase, kMaxStartPhaseBytes);  // the view's strings stay valid UTF-8
  slot->start_percent = std::clamp(percent, -1, 100);
  if (slot->start_phase == phase) return false;
  slot->start_phase = std::string(phase);
  ++version_;
  return true;
}

ArbitrationVerdict Membership::Arbitrate(int asker, int lost) const {
  using Outcome = ArbitrationVerdict::Outcome;
  const NodeSlot* a = Find(asker);
  const NodeSlot* b = Find(lost);
  if (a == nullptr || a->type != control::DATANODE) {
    return {Outcome::kRefuse, absl::StrCat("node ", asker, " is not a data node")};
  }
  if (b == nullptr || b->type != control::DATANODE) {
    return {Outcome::kRefuse, absl::StrCat("node ", lost, " is not a data node")};
  }
  if (asker == lost) return {Outcome::kRefuse, "a node cannot lose itself"};
  if (b->state != control::STARTED) {
    return {Outcome::kGrant, absl::StrCat("node ", lost, " is not serving (it is '",
                                          control::NodeStateLabel(b->state), "')")};
  }
  if (a->state != control::STARTED) {
    return {Outcome::kRefuse, absl::StrCat("node ", asker, " is not started (it is '",
                                           control::NodeStateLabel(a->state), "')")};
  }
  return {Outcome::kAskerWins,
          absl::StrCat("node ", lost, " was declared failed: node ", asker, " asked first")};
}

int Membership::StartedDataNodes(int group, absl::Span<const int> except) const {
  int started = 0;
  for (const auto& [id, slot] : slots_) {
    if (slot.type == control::DATANODE && slot.node_group == group &&
        slot.state == control::STARTED &&
        std::find(except.begin(), except.end(), id) == except.end()) {
      ++started;
    }
  }
  return started;
}

bool Membership::IsLastLiveReplica(int id, absl::Span<const int> except) const {
  const NodeSlot* slot = Find(id);
  if (slot == nullptr || slot->type != control::DATANODE || slot->state != control::STARTED) {
    return false;
  }
  std::vector<int> others(except.begin(), except.end());
  others.push_back(id);
  return StartedDataNodes(slot->node_group, others) == 0;
}

NodeSlot* Membership::Find(int id) {
  auto it = slots_.find(id);
  return it == slots_.end() ? nullptr : &it->second;
}

const NodeSlot* Membership::Find(int id) const {
  auto it = slots_.find(id);
  return it == slots_.end() ? nullptr : &it->second;
}

control::ClusterView Membership::View() const {
  control::ClusterView view;
  view.set_version(version_);
  for (const auto& [id, slot] : slots_) {
    control::NodeStatus* node = view.add_nodes();
    node->set_node_id(static_cast<uint32_t>(id));
    node->set_type(slot.type);
    node->set_host(slot.host);
    node->set_state(slot.state);
    node->set_version(slot.version);
    node->set_node_group(slot.node_group);
    node->set_pid(slot.pid);
    node->set_boot_id(slot.identity.boot_id);
    node->set_start_ticks(slot.identity.start_ticks);
    node->set_metrics_port(static_cast<uint32_t>(slot.metrics_port));
    node->set_data_port(static_cast<uint32_t>(slot.data_port));
    node->set_data_socket(slot.data_socket);
    node->set_state_since_unix_ms(absl::ToUnixMillis(slot.state_since));
    node->set_supervised(slot.supervised);
    node->set_restarts(static_cast<uint32_t>(slot.restarts));
    if (!slot.start_phase.empty()) {
      node->set_start_phase(slot.start_phase);
      node->set_start_percent(slot.start_percent);
    }
    if (slot.disk.known()) *node->mutable_disk() = slot.disk;
    if (slot.memory.has_value()) *node->mutable_memory() = *slot.memory;
    for (const control::ThreadUsage& thread : slot.threads) *node->add_threads() = thread;
  }
  if (system_restart_.has_value()) {
    control::SystemRestart* restart = view.mutable_system_restart();
    restart->set_decided(true);
    restart->set_epoch(system_restart_->epoch);
    for (int id : system_restart_->nodes) restart->add_nodes(static_cast<uint32_t>(id));
  }
  return view;
}

}  // namespace shoal::mgmd
