// shoal-datanode: a data node. It joins the cluster through the management daemon, which gives
// it its node id and the cluster configuration, fetches the dictionary from a running data
// node if there is one, copies its partitions from the other replica of its node group if that
// one serves (a restart), and serves the native API over shared memory and TCP.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/control/managed_node.h"
#include "common/logging.h"
#include "engine/node/data_plane.h"
#include "engine/node/thread_layout.h"

namespace {

constexpr char kUsage[] =
    "a Shoal data node.\n\n"
    "  shoal-datanode --connect-string mgmd-host:1186 [--node-id N]\n\n"
    "The node id and everything else come from the management daemon's configuration.";

std::unique_ptr<shoal::node::DataPlane> data_plane;

// The dictionary of the lowest-id data node already serving, if any.
absl::StatusOr<std::optional<shoal::wire::Dictionary>> DictionaryFromPeers(
    const shoal::control::ClusterView& view, int self) {
  const shoal::control::NodeStatus* source = nullptr;
  for (const auto& node : view.nodes()) {
    if (node.type() != shoal::control::DATANODE || node.state() != shoal::control::STARTED ||
        static_cast<int>(node.node_id()) == self || node.data_port() == 0) {
      continue;
    }
    if (source == nullptr || node.node_id() < source->node_id()) source = &node;
  }
  if (source == nullptr) return std::nullopt;
  absl::StatusOr<shoal::wire::Dictionary> dictionary = shoal::node::FetchDictionary(
      source->host(), static_cast<int>(source->data_port()), absl::Seconds(10));
  if (!dictionary.ok()) {
    return absl::UnavailableError(absl::StrCat("cannot fetch the dictionary from data node ",
                                               source->node_id(), ": ",
                                               dictionary.status().message()));
  }
  SHOAL_LOG(kInfo) << "dictionary version " << dictionary->version() << " from data node "
                   << source->node_id();
  return std::optional<shoal::wire::Dictionary>(std::move(*dictionary));
}

absl::Status StartDataNode(const shoal::control::ManagedNodeContext& context) {
  const shoal::config::ClusterConfig& config = *context.config;
  const shoal::config::DataNodeConfig* self = config.FindDataNode(context.node_id);
  if (self == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("node ", context.node_id, " is not a data node in the configuration"));
  }
  std::error_code ec;
  std::filesystem::create_directories(self->data_dir, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot create the data directory ", self->data_dir, ": ", ec.message()));
  }
  shoal::node::ThreadLayout layout = shoal::node::ChooseThreadLayout(
      self->threads, self->cpus, static_cast<int>(std::thread::hardware_concurrency()));
  SHOAL_LOG(kInfo) << "data directory " << self->data_dir << ", node group " << self->node_group
                   << ", data memory " << shoal::config::FormatSize(config.cluster.data_memory)
                   << ", " << layout.Describe();
  absl::StatusOr<std::optional<shoal::wire::Dictionary>> dictionary =
      DictionaryFromPeers(*context.view, context.node_id);
  if (!dictionary.ok()) return dictionary.status();

  shoal::node::DataPlaneOptions options;
  options.node_id = context.node_id;
  options.node_group = self->node_group;
  options.node_groups = config.node_groups();
  options.replicas = config.cluster.replicas;
  options.host = self->host;
  options.port = self->port;
  options.socket = self->socket;
  options.ldm_count = layout.ldm_count;
  options.ldm_threads = layout.threads > 1;
  options.spin = self->spin;
  options.lock_wait_timeout = config.cluster.lock_wait_timeout;
  options.data_memory = config.cluster.data_memory;
  // Enough partitions that every LDM of every replica is primary for some (PartitionPlacement
  // in ldm/context.h), and at least 8 per node group so that small layouts still spread.
  options.default_partitions = static_cast<uint32_t>(
      config.node_groups() * std::max(8, config.cluster.replicas * layout.ldm_count));
  options.metrics = context.metrics;
  options.peer_timeout = config.cluster.heartbeat_interval * config.cluster.missed_heartbeats;
  options.realtime = config.cluster.realtime_scheduler;
  // I5: without a peer of its group, a node serves on only if the arbitrator (the mgmd) says
  // so; refused, or with no answer in time, it stops (its supervisor restarts it, and it
  // copies everything from the side that won).
  shoal::control::Arbitrator arbitrator = context.arbitrator;
  absl::Duration arbitration_timeout = config.cluster.arbitration_timeout;
  options.on_note = [arbitrator](std::string line) { arbitrator.Note(std::move(line)); };
  options.on_peer_lost = [arbitrator, arbitration_timeout](int node) {
    arbitrator.Arbitrate(
        node, arbitration_timeout, [arbitrator, node](bool granted, std::string why) {
          if (granted) {
            SHOAL_LOG(kInfo) << "arbitration: serving on without data node " << node;
            return;
          }
          arbitrator.StopNode(absl::StrCat("lost data node ", node, " and arbitration: ", why), 1);
        });
  };
  // "Started" waits until this node holds a complete replica: copied from the other node of
  // its group when that one serves (a restart), at once otherwise.
  shoal::control::StartProgress progress = context.start_progress;
  progress.Defer();
  options.on_copy_progress = [progress](int percent) { progress.Report("copying data", percent); };
  options.on_ready = [progress](absl::Status status) { progress.Done(std::move(status)); };
  absl::StatusOr<std::unique_ptr<shoal::node::DataPlane>> plane =
      shoal::node::DataPlane::Start(std::move(options), *context.view, *dictionary);
  if (!plane.ok()) return plane.status();
  data_plane = std::move(*plane);
  *context.data_port = data_plane->port();
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  shoal::control::ManagedNodeHooks hooks;
  hooks.start = &StartDataNode;
  hooks.stop = [] { data_plane.reset(); };
  hooks.on_view = [](const shoal::control::ClusterView& view) {
    if (data_plane != nullptr) data_plane->SetView(view);
  };
  return shoal::control::RunManagedNode(shoal::control::DATANODE, "shoal-datanode", kUsage, argc,
                                        argv, std::move(hooks));
}
