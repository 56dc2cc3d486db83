// The configuration model's own behaviour: lookups, the canonical YAML form the mgmd hands to
// every node, and the built-in cluster-in-a-box. Loading lives in loader.cc.
#include "common/config/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/config/internal.h"

namespace shoal::config {
namespace {

void EmitCpus(YAML::Emitter& out, const std::vector<int>& cpus) {
  // Quoted, so that other YAML readers see a string whatever the list ("0" would be an int).
  if (cpus.empty()) return;
  out << YAML::Key << "cpus" << YAML::Value << YAML::DoubleQuoted << FormatCpuList(cpus);
}

void EmitCluster(YAML::Emitter& out, const ClusterDefaults& c) {
  out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "replicas" << YAML::Value << c.replicas;
  out << YAML::Key << "data_memory" << YAML::Value << FormatSize(c.data_memory);
  out << YAML::Key << "heartbeat_interval" << YAML::Value
      << internal::FormatConfigDuration(c.heartbeat_interval);
  out << YAML::Key << "router_heartbeat_interval" << YAML::Value
      << internal::FormatConfigDuration(c.router_heartbeat_interval);
  out << YAML::Key << "missed_heartbeats" << YAML::Value << c.missed_heartbeats;
  out << YAML::Key << "arbitration_timeout" << YAML::Value
      << internal::FormatConfigDuration(c.arbitration_timeout);
  out << YAML::Key << "realtime_scheduler" << YAML::Value << c.realtime_scheduler;
  out << YAML::Key << "epoch_interval" << YAML::Value
      << internal::FormatConfigDuration(c.epoch_interval);
  out << YAML::Key << "start_partial_timeout" << YAML::Value
      << internal::FormatConfigDuration(c.start_partial_timeout);
  out << YAML::Key << "lock_wait_timeout" << YAML::Value
      << internal::FormatConfigDuration(c.lock_wait_timeout);
  out << YAML::Key << "lock_pages_in_memory" << YAML::Value << c.lock_pages_in_memory;
  out << YAML::Key << "checkpoint_after_redo" << YAML::Value << FormatSize(c.checkpoint_after_redo);
  out << YAML::Key << "checkpoint_write_rate" << YAML::Value << FormatSize(c.checkpoint_write_rate);
  out << YAML::Key << "tls" << YAML::Value << c.tls;
  out << YAML::EndMap;
}

void EmitMgmd(YAML::Emitter& out, const MgmdConfig& m) {
  out << YAML::Key << "mgmd" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "id" << YAML::Value << m.id;
  out << YAML::Key << "host" << YAML::Value << m.host;
  out << YAML::Key << "port" << YAML::Value << m.port;
  out << YAML::Key << "data_dir" << YAML::Value << m.data_dir;
  out << YAML::Key << "metrics_port" << YAML::Value << m.metrics_port;
  out << YAML::EndMap;
}

void EmitDataNode(YAML::Emitter& out, const DataNodeConfig& d) {
  out << YAML::BeginMap;
  out << YAML::Key << "id" << YAML::Value << d.id;
  out << YAML::Key << "host" << YAML::Value << d.host;
  out << YAML::Key << "data_dir" << YAML::Value << d.data_dir;
  if (!d.backup_dir.empty()) out << YAML::Key << "backup_dir" << YAML::Value << d.backup_dir;
  EmitCpus(out, d.cpus);
  out << YAML::Key << "metrics_port" << YAML::Value << d.metrics_port;
  if (!d.socket.empty()) out << YAML::Key << "socket" << YAML::Value << d.socket;
  out << YAML::Key << "port" << YAML::Value << d.port;
  out << YAML::Key << "threads" << YAML::Value << d.threads;
  out << YAML::Key << "spin" << YAML::Value << internal::FormatConfigDuration(d.spin);
  out << YAML::EndMap;
}

void EmitRouter(YAML::Emitter& out, const RouterConfig& r) {
  out << YAML::BeginMap;
  out << YAML::Key << "id" << YAML::Value << r.id;
  out << YAML::Key << "host" << YAML::Value << r.host;
  if (!r.socket.empty()) out << YAML::Key << "socket" << YAML::Value << r.socket;
  out << YAML::Key << "port" << YAML::Value << r.port;
  out << YAML::Key << "threads" << YAML::Value << r.threads;
  EmitCpus(out, r.cpus);
  out << YAML::Key << "metrics_port" << YAML::Value << r.metrics_port;
  out << YAML::Key << "max_connections" << YAML::Value << r.max_connections;
  out << YAML::Key << "spin" << YAML::Value << internal::FormatConfigDuration(r.spin);
  out << YAML::Key << "local_infile" << YAML::Value << r.local_infile;
  out << YAML::Key << "load_data_batch_rows" << YAML::Value << r.load_data_batch_rows;
  out << YAML::Key << "load_data_batches_in_flight" << YAML::Value << r.load_data_batches_in_flight;
  out << YAML::Key << "ssl" << YAML::Value << r.ssl;
  for (const auto& [key, value] :
       {std::pair{"ssl_dir", &r.ssl_dir}, std::pair{"ssl_ca", &r.ssl_ca},
        std::pair{"ssl_cert", &r.ssl_cert}, std::pair{"ssl_key", &r.ssl_key}}) {
    if (!value->empty()) out << YAML::Key << key << YAML::Value << *value;
  }
  out << YAML::Key << "require_secure_transport" << YAML::Value << r.require_secure_transport;
  out << YAML::EndMap;
}

void EmitUser(YAML::Emitter& out, const UserConfig& u) {
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << u.name;
  if (!u.native_hash.empty()) out << YAML::Key << "native_hash" << YAML::Value << u.native_hash;
  if (!u.sha256_hash.empty()) out << YAML::Key << "sha256_hash" << YAML::Value << u.sha256_hash;
  out << YAML::EndMap;
}

}  // namespace

std::string_view NodeTypeName(NodeType type) {
  switch (type) {
    case NodeType::kMgmd:
      return "mgmd";
    case NodeType::kDataNode:
      return "datanode";
    case NodeType::kRouter:
      return "router";
  }
  return "unknown";
}

const DataNodeConfig* ClusterConfig::FindDataNode(int id) const {
  for (const DataNodeConfig& node : datanodes) {
    if (node.id == id) return &node;
  }
  return nullptr;
}

const RouterConfig* ClusterConfig::FindRouter(int id) const {
  for (const RouterConfig& router : routers) {
    if (router.id == id) return &router;
  }
  return nullptr;
}

std::vector<std::string> ClusterConfig::Hosts() const {
  std::vector<std::string> hosts = {mgmd.host};
  auto add = [&](const std::string& host) {
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  };
  for (const DataNodeConfig& node : datanodes) add(node.host);
  for (const RouterConfig& router : routers) add(router.host);
  return hosts;
}

bool ClusterConfig::SpansHosts() const {
  auto is_loopback = [](absl::string_view host) {
    return host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
  };
  std::vector<std::string> hosts = Hosts();
  return hosts.size() > 1 && !std::all_of(hosts.begin(), hosts.end(), is_loopback);
}

bool ClusterConfig::LinksUseTls() const {
  return cluster.tls == "auto" ? SpansHosts() : cluster.tls == "true";
}

absl::StatusOr<NodeType> ClusterConfig::TypeOf(int id) const {
  if (mgmd.id == id) return NodeType::kMgmd;
  if (FindDataNode(id) != nullptr) return NodeType::kDataNode;
  if (FindRouter(id) != nullptr) return NodeType::kRouter;
  return absl::NotFoundError(absl::StrCat("no node with id ", id, " in ", source));
}

std::string ToYaml(const ClusterConfig& config) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  EmitCluster(out, config.cluster);
  EmitMgmd(out, config.mgmd);
  out << YAML::Key << "datanodes" << YAML::Value << YAML::BeginSeq;
  for (const DataNodeConfig& node : config.datanodes) EmitDataNode(out, node);
  out << YAML::EndSeq;
  if (!config.routers.empty()) {
    out << YAML::Key << "routers" << YAML::Value << YAML::BeginSeq;
    for (const RouterConfig& router : config.routers) EmitRouter(out, router);
    out << YAML::EndSeq;
  }
  if (!config.users.empty()) {
    out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq;
    for (const UserConfig& user : config.users) EmitUser(out, user);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return absl::StrCat(out.c_str(), "\n");
}

ClusterConfig EmbeddedDefault(const EmbeddedDefaultOptions& options) {
  auto metrics_port = [&](int id) {
    return options.metrics_base_port == 0 ? 0 : options.metrics_base_port + id;
  };
  ClusterConfig config;
  config.source = "<embedded default>";
  config.mgmd.id = 1;
  config.mgmd.port = options.mgmd_port;
  config.mgmd.data_dir = absl::StrCat(options.run_dir, "/mgmd-1");
  config.mgmd.metrics_port = metrics_port(1);
  for (int id : {2, 3}) {
    DataNodeConfig& node = config.datanodes.emplace_back();
    node.id = id;
    node.data_dir = absl::StrCat(options.run_dir, "/datanode-", id);
    node.metrics_port = metrics_port(id);
    node.socket = absl::StrCat(options.run_dir, "/datanode-", id, ".sock");
    node.node_group = 0;
  }
  for (int id : {4, 5}) {
    RouterConfig& router = config.routers.emplace_back();
    router.id = id;
    router.socket = absl::StrCat(options.run_dir, "/router-", id, ".sock");
    // Port 0 means "no TCP listener", so a zero base leaves both routers on their sockets only
    // rather than putting the second one on port 1.
    router.port = options.router_base_port == 0 ? 0 : options.router_base_port + (id - 4);
    router.metrics_port = metrics_port(id);
    router.ssl_dir = absl::StrCat(options.run_dir, "/tls");  // shared: one CA for both routers
  }
  UserConfig& root = config.users.emplace_back();
  root.name = "root";
  return config;
}

}  // namespace shoal::config
