// shoal-datanode: a data node. It joins the cluster through the management daemon, which gives
// it its node id and the cluster configuration, fetches the dictionary from a running data
// node if there is one, copies its partitions from the other replica of its node group if that
// one serves (a restart), and serves the native API over shared memory and TCP.
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/control/managed_node.h"
#include "common/dir_lock.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "engine/node/data_plane.h"
#include "engine/node/node_files.h"
#include "engine/node/thread_layout.h"
#include "engine/redo/node_state.h"
#include "engine/redo/redo_reader.h"

namespace {

constexpr char kUsage[] =
    "a Shoal data node.\n\n"
    "  shoal-datanode --connect-string mgmd-host:1186 [--node-id N]\n\n"
    "The node id and everything else come from the management daemon's configuration.";

std::unique_ptr<shoal::node::DataPlane> data_plane;
// Held for the process's life: no second process works in this node's data directory.
std::optional<shoal::DirLock> data_dir_lock;

// The dictionary of the lowest-id data node already serving, if any.
absl::StatusOr<std::optional<shoal::wire::Dictionary>> DictionaryFromPeers(
    const shoal::control::ClusterView& view, int self, const shoal::tls::LinkContext* link_tls) {
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
      source->host(), static_cast<int>(source->data_port()), absl::Seconds(10), link_tls);
  if (!dictionary.ok()) {
    return absl::UnavailableError(absl::StrCat("cannot fetch the dictionary from data node ",
                                               source->node_id(), ": ",
                                               dictionary.status().message()));
  }
  SHOAL_LOG(kInfo) << "dictionary version " << dictionary->version() << " from data node "
                   << source->node_id();
  return std::optional<shoal::wire::Dictionary>(std::move(*dictionary));
}

// NDB's LockPagesInMainMemory: with `wanted`, every page the node has and will map stays in
// RAM (mlockall), so no LDM or heartbeat thread ever waits for a page to come back from swap.
// Where the system refuses, one warning says why and what to do, and the node goes on
// unlocked: a node that runs is better than one that would not start. The gauge says which.
void LockMemory(bool wanted, shoal::MetricsRegistry* metrics) {
  shoal::Gauge* locked = metrics->GetGauge(
      "shoal_datanode_memory_locked",
      "1 when the data node's memory is locked in RAM (lock_pages_in_memory), else 0.");
  locked->Set(0);
  if (!wanted) return;
  if (::mlockall(MCL_CURRENT | MCL_FUTURE) == 0) {
    locked->Set(1);
    SHOAL_LOG(kInfo) << "lock_pages_in_memory: the node's memory is locked in RAM";
    return;
  }
  const int error = errno;
  struct rlimit limit {};
  std::string memlock = "unknown";
  if (::getrlimit(RLIMIT_MEMLOCK, &limit) == 0) {
    memlock = limit.rlim_cur == RLIM_INFINITY ? std::string("unlimited")
                                              : shoal::config::FormatSize(limit.rlim_cur);
  }
  SHOAL_LOG(kWarning) << "lock_pages_in_memory: mlockall failed (" << std::strerror(error)
                      << "; RLIMIT_MEMLOCK is " << memlock
                      << "): running with memory that may be swapped out. Raise the limit "
                         "(ulimit -l unlimited, or LimitMEMLOCK=infinity for a systemd "
                         "service) or run the data node with CAP_IPC_LOCK";
}

// What this start does with the node's disk (docs/architecture.md, "Durability").
enum class StartKind {
  kCopy,     // a node of its group serves: copy from it (the disk is replaced)
  kRestore,  // a system restart: restore the disk to the epoch the mgmd decided
  kEmpty,    // nothing to restore (a new cluster, or a node group nobody can restore)
};

std::mutex start_mutex;
// While the start waits for the mgmd's system-restart decision: where views go.
std::function<void(const shoal::control::ClusterView&)> waiting_for_restart;
std::thread restore_thread;
// The latest view, for a data plane that starts after it came (a restore takes a while).
std::optional<shoal::control::ClusterView> latest_view;

bool GroupServes(const shoal::control::ClusterView& view,
                 const shoal::config::ClusterConfig& config, int self_group) {
  for (const auto& node : view.nodes()) {
    if (node.type() != shoal::control::DATANODE || node.state() != shoal::control::STARTED) {
      continue;
    }
    const shoal::config::DataNodeConfig* peer =
        config.FindDataNode(static_cast<int>(node.node_id()));
    if (peer != nullptr && peer->node_group == self_group) return true;
  }
  return false;
}

bool AnyDataNodeServes(const shoal::control::ClusterView& view) {
  for (const auto& node : view.nodes()) {
    if (node.type() == shoal::control::DATANODE && node.state() == shoal::control::STARTED) {
      return true;
    }
  }
  return false;
}

// Everything the start needs once it knows what to do with the disk; runs on the control
// thread, or on the restore thread for a system restart.
// A node restart from its own disk (docs/architecture.md, "Durability"): when the node's disk
// restores its last saved epoch and its dictionary is of the same life as the serving peer's
// (`peer`), it restores that, and its copy from the peer sends only rows changed since (two
// epochs earlier: a node dropped from its group may have saved an epoch whose last commits
// missed it). Returns the dictionary to restore with, or nullopt for a whole copy.
std::optional<shoal::wire::Dictionary> FromOwnDisk(const shoal::wire::Dictionary& peer,
                                                   uint64_t saved_epoch,
                                                   shoal::node::DataPlaneOptions* options) {
  const shoal::redo::NodeState& state = options->node_state;
  if (state.restorable_from == 0 || saved_epoch < state.restorable_from) return std::nullopt;
  absl::StatusOr<std::optional<shoal::wire::Dictionary>> own =
      shoal::node::LoadDictionary(options->data_dir);
  if (!own.ok() || !own->has_value() || (*own)->incarnation() != peer.incarnation()) {
    return std::nullopt;
  }
  options->restore_epoch = saved_epoch;
  options->copy_since_epoch = saved_epoch > 3 ? saved_epoch - 2 : 1;
  SHOAL_LOG(kInfo) << "node restart from disk: restoring epoch " << saved_epoch
                   << ", then copying what changed since epoch " << options->copy_since_epoch;
  return std::move(**own);
}

absl::Status StartPlane(shoal::node::DataPlaneOptions options,
                        const shoal::control::ClusterView& view, StartKind kind,
                        uint64_t saved_epoch, const shoal::control::ManagedNodeContext& context) {
  const std::string data_dir = options.data_dir;
  std::optional<shoal::wire::Dictionary> dictionary;
  if (kind == StartKind::kRestore) {
    absl::StatusOr<std::optional<shoal::wire::Dictionary>> saved =
        shoal::node::LoadDictionary(data_dir);
    if (!saved.ok()) return saved.status();
    if (!saved->has_value()) {
      return absl::DataLossError(absl::StrCat(
          "cannot restore epoch ", options.restore_epoch, ": ", data_dir,
          " has no dictionary.pb (the data directory is not this node's, or was removed)"));
    }
    dictionary = std::move(*saved);
  } else {
    absl::StatusOr<std::optional<shoal::wire::Dictionary>> fetched =
        DictionaryFromPeers(view, context.node_id, options.link_tls);
    if (!fetched.ok()) return fetched.status();
    if (kind == StartKind::kCopy && fetched->has_value()) {
      dictionary = FromOwnDisk(**fetched, saved_epoch, &options);
    }
    if (!dictionary.has_value()) {
      // What was on disk is of no use: a copy replaces it, an empty start forgets it.
      SHOAL_RETURN_IF_ERROR(shoal::node::RemoveNodeData(data_dir));
      options.node_state.first_run = options.node_state.run;
      options.node_state.restorable_from = 0;
      options.node_state.checkpoint_id = options.node_state.prev_checkpoint_id = 0;
      SHOAL_RETURN_IF_ERROR(shoal::redo::WriteNodeState(data_dir, options.node_state));
      dictionary = std::move(*fetched);
    }
  }
  // Before the data-plane thread runs: it may report the node started at once.
  options.on_listening = [data_port = context.data_port](int port) { *data_port = port; };
  absl::StatusOr<std::unique_ptr<shoal::node::DataPlane>> plane =
      shoal::node::DataPlane::Start(std::move(options), view, dictionary);
  if (!plane.ok()) return plane.status();
  std::lock_guard<std::mutex> lock(start_mutex);
  data_plane = std::move(*plane);
  if (latest_view.has_value() && latest_view->version() > view.version()) {
    data_plane->SetView(*latest_view);
  }
  return absl::OkStatus();
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
  if (!data_dir_lock.has_value()) {
    absl::StatusOr<shoal::DirLock> lock = shoal::DirLock::Acquire(self->data_dir, "data directory");
    if (!lock.ok()) return lock.status();
    data_dir_lock = std::move(*lock);
  }
  LockMemory(config.cluster.lock_pages_in_memory, context.metrics);
  shoal::node::ThreadLayout layout = shoal::node::ChooseThreadLayout(
      self->threads, self->cpus, static_cast<int>(std::thread::hardware_concurrency()));
  SHOAL_LOG(kInfo) << "data directory " << self->data_dir << ", node group " << self->node_group
                   << ", data memory " << shoal::config::FormatSize(config.cluster.data_memory)
                   << ", " << layout.Describe();

  // The disk: what this node can restore, told to the mgmd, which decides system restarts.
  absl::StatusOr<std::optional<shoal::redo::NodeState>> read =
      shoal::redo::ReadNodeState(self->data_dir);
  if (!read.ok()) return read.status();
  shoal::redo::NodeState state = read->value_or(shoal::redo::NodeState{});
  // Left behind by a start that stopped between writing the node state and removing them, or
  // by a crash in the middle of a local checkpoint (a torn file no state names).
  shoal::node::RemoveRunsBefore(self->data_dir, state.first_run);
  shoal::node::RemoveCheckpointsNotIn(self->data_dir, state);
  absl::StatusOr<uint64_t> saved = shoal::redo::SavedEpoch(shoal::node::RedoDir(self->data_dir));
  if (!saved.ok()) return saved.status();
  ++state.run;  // every start logs to redo files of its own
  SHOAL_RETURN_IF_ERROR(shoal::redo::WriteNodeState(self->data_dir, state));
  SHOAL_LOG(kInfo) << "disk: run " << state.run << ", last complete epoch " << state.complete_epoch
                   << ", redo saved to epoch " << *saved
                   << (state.restorable_from == 0
                           ? std::string(", nothing restorable")
                           : absl::StrCat(", restorable from epoch ", state.restorable_from));
  const uint64_t restorable_from = state.restorable_from;
  shoal::control::DiskReporter disk = context.disk;
  disk.Report(state.complete_epoch, *saved, restorable_from);

  shoal::node::DataPlaneOptions options;
  options.node_id = context.node_id;
  options.node_group = self->node_group;
  options.node_groups = config.node_groups();
  options.replicas = config.cluster.replicas;
  options.host = self->host;
  options.port = self->port;
  options.socket = self->socket;
  options.link_tls = context.link_tls;
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
  options.data_dir = self->data_dir;
  options.backup_dir = self->backup_dir.empty() ? self->data_dir + "/backups" : self->backup_dir;
  options.epoch_interval = config.cluster.epoch_interval;
  options.checkpoint_after_redo = config.cluster.checkpoint_after_redo;
  options.checkpoint_write_rate = config.cluster.checkpoint_write_rate;
  options.node_state = state;
  options.on_restore_progress = [progress](const std::string& phase, int percent) {
    progress.Report(phase, percent);
  };
  options.on_disk_state = [disk](const shoal::redo::NodeState& now, uint64_t saved_epoch) {
    disk.Report(now.complete_epoch, saved_epoch, now.restorable_from);
  };

  const shoal::control::ClusterView& view = *context.view;
  if (GroupServes(view, config, self->node_group)) {
    // A node restart: restoring from disk may take a while, off the control thread.
    std::lock_guard<std::mutex> lock(start_mutex);
    restore_thread = std::thread(
        [options = std::move(options), view, context, progress, saved_epoch = *saved]() mutable {
          absl::Status started =
              StartPlane(std::move(options), view, StartKind::kCopy, saved_epoch, context);
          if (!started.ok()) progress.Done(started);
        });
    return absl::OkStatus();
  }
  if (AnyDataNodeServes(view)) {
    // Another node group serves while nobody of ours does: the cluster did not stop as a
    // whole (the mgmd stops every data node on a cluster failure), so there is no epoch to
    // agree on; start empty and say so.
    SHOAL_LOG(kWarning) << "node group " << self->node_group
                        << " has no serving node while others serve: starting empty";
    return StartPlane(std::move(options), view, StartKind::kEmpty, *saved, context);
  }
  // A system restart: wait for the mgmd to decide the epoch every data node restores.
  progress.Report("waiting for the other data nodes", -1);
  const uint64_t saved_epoch = *saved;
  std::lock_guard<std::mutex> lock(start_mutex);
  waiting_for_restart = [options =
                             std::make_shared<shoal::node::DataPlaneOptions>(std::move(options)),
                         context, progress, restorable_from,
                         saved_epoch](const shoal::control::ClusterView& decided) mutable {
    if (!decided.system_restart().decided()) return;
    waiting_for_restart = nullptr;  // runs once; the caller holds a copy of this lambda
    const uint64_t epoch = decided.system_restart().epoch();
    StartKind kind = StartKind::kEmpty;
    if (epoch != 0) {
      if (restorable_from == 0 || restorable_from > epoch || saved_epoch < epoch) {
        progress.Done(absl::UnavailableError(absl::StrCat(
            "the cluster restarts from epoch ", epoch, ", which this node's disk does not hold (",
            restorable_from == 0 ? std::string("nothing restorable")
                                 : absl::StrCat("epochs ", restorable_from, " to ", saved_epoch),
            "): it will copy from a node of its group once one serves")));
        return;
      }
      kind = StartKind::kRestore;
      options->restore_epoch = epoch;
    }
    restore_thread =
        std::thread([options, decided, kind, context, progress, saved_epoch]() mutable {
          absl::Status started =
              StartPlane(std::move(*options), decided, kind, saved_epoch, context);
          if (!started.ok()) progress.Done(started);
        });
  };
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  shoal::control::ManagedNodeHooks hooks;
  hooks.start = &StartDataNode;
  hooks.stop = [] {
    if (restore_thread.joinable()) restore_thread.join();
    std::lock_guard<std::mutex> lock(start_mutex);
    waiting_for_restart = nullptr;
    if (data_plane == nullptr) return;
    // A clean stop: every commit acknowledged so far goes into a complete epoch first.
    if (!data_plane->CompleteEpoch(absl::Seconds(3))) {
      SHOAL_LOG(kWarning) << "stopping without a last complete epoch (no answer in 3s)";
    }
    data_plane.reset();
  };
  hooks.memory_usage = []() -> std::optional<shoal::control::MemoryUsage> {
    std::lock_guard<std::mutex> lock(start_mutex);
    if (data_plane == nullptr) return std::nullopt;
    shoal::control::MemoryUsage memory;
    memory.set_data_used_bytes(data_plane->data_memory_used());
    memory.set_data_limit_bytes(data_plane->data_memory_limit());
    return memory;
  };
  hooks.backup_report = []() -> std::optional<shoal::control::BackupReport> {
    std::lock_guard<std::mutex> lock(start_mutex);
    if (data_plane == nullptr) return std::nullopt;
    return data_plane->backup_report();
  };
  hooks.on_view = [](const shoal::control::ClusterView& view) {
    std::lock_guard<std::mutex> lock(start_mutex);
    latest_view = view;
    if (data_plane != nullptr) {
      data_plane->SetView(view);
    } else if (waiting_for_restart) {
      auto waiting = waiting_for_restart;  // it clears itself when it acts
      waiting(view);
    }
  };
  return shoal::control::RunManagedNode(shoal::control::DATANODE, "shoal-datanode", kUsage, argc,
                                        argv, std::move(hooks));
}
