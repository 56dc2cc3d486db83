#include "engine/api/cluster.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/control/blocking_connection.h"
#include "engine/wire/placement.h"

namespace shoal::api {

const DataNodeInfo* Topology::Find(int id) const {
  for (const DataNodeInfo& node : nodes) {
    if (node.id == id) return &node;
  }
  return nullptr;
}

int Topology::PrimaryOf(uint32_t partition) const {
  if (groups.empty()) return -1;
  const std::vector<int>& group =
      groups[wire::NodeGroupOf(partition, static_cast<int>(groups.size()))];
  int replica = wire::PrimaryReplica(partition, static_cast<int>(groups.size()),
                                     static_cast<int>(group.size()), [&](int i) {
                                       const DataNodeInfo& node = nodes[group[i]];
                                       return node.started && node.port != 0;
                                     });
  return replica < 0 ? -1 : nodes[group[replica]].id;
}

int Topology::OtherReplicaOf(uint32_t partition, int not_node) const {
  if (groups.empty()) return -1;
  for (int index : groups[wire::NodeGroupOf(partition, static_cast<int>(groups.size()))]) {
    const DataNodeInfo& node = nodes[index];
    if (node.id != not_node && node.started && node.port != 0) return node.id;
  }
  return -1;
}

int Topology::NearestReplicaOf(uint32_t partition, const std::string& host) const {
  int primary = PrimaryOf(partition);
  const DataNodeInfo* node = Find(primary);
  if (node == nullptr || node->host == host || groups.empty()) return primary;
  for (int index : groups[wire::NodeGroupOf(partition, static_cast<int>(groups.size()))]) {
    const DataNodeInfo& replica = nodes[index];
    if (replica.host == host && replica.started && replica.port != 0) return replica.id;
  }
  return primary;
}

int Topology::Master() const {
  for (const DataNodeInfo& node : nodes) {
    if (node.started && node.port != 0) return node.id;
  }
  return -1;
}

TablePtr Dictionary::Find(absl::string_view db, absl::string_view table) const {
  auto it = by_name.find(absl::StrCat(db, ".", table));
  return it == by_name.end() ? nullptr : it->second;
}

const wire::View* Dictionary::FindView(absl::string_view db, absl::string_view name) const {
  if (views.empty()) return nullptr;
  auto it = views.find(absl::StrCat(db, ".", name));
  return it == views.end() ? nullptr : &it->second;
}

const std::vector<Dictionary::Reference>* Dictionary::ReferencesTo(
    const schema::TableDef& parent) const {
  if (referenced_by.empty()) return nullptr;
  auto it = referenced_by.find(absl::StrCat(parent.database, ".", parent.name));
  return it == referenced_by.end() ? nullptr : &it->second;
}

void Cluster::SetView(const control::ClusterView& view) {
  auto topology = std::make_shared<Topology>();
  topology->view_version = view.version();
  for (const control::NodeStatus& status : view.nodes()) {
    if (status.type() != control::DATANODE) continue;
    DataNodeInfo& node = topology->nodes.emplace_back();
    node.id = static_cast<int>(status.node_id());
    node.host = status.host();
    node.port = static_cast<int>(status.data_port());
    node.socket = status.data_socket();
    node.node_group = status.node_group();
    node.started = status.state() == control::STARTED;
  }
  std::sort(topology->nodes.begin(), topology->nodes.end(),
            [](const DataNodeInfo& a, const DataNodeInfo& b) { return a.id < b.id; });
  for (size_t i = 0; i < topology->nodes.size(); ++i) {
    int group = std::max(0, topology->nodes[i].node_group);
    if (topology->groups.size() <= static_cast<size_t>(group)) topology->groups.resize(group + 1);
    topology->groups[group].push_back(static_cast<int>(i));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (topology_ == nullptr || topology_->view_version <= topology->view_version) {
    topology_ = std::move(topology);
    topology_generation_.fetch_add(1, std::memory_order_release);
  }
}

std::shared_ptr<const Topology> Cluster::topology() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return topology_;
}

void Cluster::SetDictionary(const wire::Dictionary& proto) {
  auto dictionary = std::make_shared<Dictionary>();
  dictionary->version = proto.version();
  dictionary->incarnation = proto.incarnation();
  dictionary->databases.assign(proto.databases().begin(), proto.databases().end());
  for (const std::string& bytes : proto.tables()) {
    absl::string_view in = bytes;
    absl::StatusOr<schema::TableDef> table = schema::ParseTableDef(&in);
    if (!table.ok()) continue;
    auto shared = std::make_shared<const schema::TableDef>(std::move(*table));
    if (!absl::StartsWith(shared->name, schema::kAlterCopyPrefix)) {
      dictionary->by_name[absl::StrCat(shared->database, ".", shared->name)] = shared;
      for (size_t k = 0; k < shared->foreign_keys.size(); ++k) {
        const schema::ForeignKeyDef& fk = shared->foreign_keys[k];
        dictionary->referenced_by[absl::StrCat(fk.parent_database, ".", fk.parent_table)].push_back(
            {shared, k});
      }
    }
    dictionary->by_id[shared->id] = shared;
  }
  for (const wire::AlterLock& lock : proto.alter_locks())
    dictionary->altering.insert(lock.table_id());
  for (const wire::View& view : proto.views())
    dictionary->views[absl::StrCat(view.database(), ".", view.name())] = view;
  dictionary->access = proto.access();
  std::lock_guard<std::mutex> lock(mutex_);
  if (dictionary_ == nullptr || dictionary_->incarnation != dictionary->incarnation ||
      dictionary_->version <= dictionary->version) {
    dictionary_ = std::move(dictionary);
    dictionary_generation_.fetch_add(1, std::memory_order_release);
  }
}

std::shared_ptr<const Dictionary> Cluster::dictionary() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dictionary_;
}

absl::StatusOr<control::ClusterView> Cluster::FetchView(const std::string& mgmd_host, int mgmd_port,
                                                        absl::Duration timeout,
                                                        const tls::LinkContext* tls) {
  absl::Time deadline = absl::Now() + timeout;
  absl::StatusOr<control::BlockingConnection> connection =
      control::BlockingConnection::Connect(mgmd_host, mgmd_port, timeout, tls);
  if (!connection.ok()) {
    return absl::UnavailableError(absl::StrCat("cannot connect to the management daemon at ",
                                               mgmd_host, ":", mgmd_port, ": ",
                                               connection.status().message()));
  }
  control::ControlMessage request;
  request.mutable_console_req()->set_verb(control::ConsoleReq::SHOW);
  if (connection->Send(request, timeout).ok()) {
    absl::StatusOr<control::ControlMessage> reply =
        connection->Receive(std::max(absl::ZeroDuration(), deadline - absl::Now()));
    if (reply.ok()) {
      if (!reply->has_console_rep() || !reply->console_rep().ok()) {
        return absl::UnavailableError("the management daemon refused SHOW");
      }
      return reply->console_rep().view();
    }
  }
  return absl::UnavailableError(
      absl::StrCat("no cluster view from the management daemon at ", mgmd_host, ":", mgmd_port));
}

}  // namespace shoal::api
