// The cluster configuration: one YAML file describes every node of the cluster.
//
// The mgmd loads and validates it (LoadConfigFile), then hands the validated configuration to
// every node as canonical YAML (ToYaml → LoadConfigString), so the loader is the single
// definition of what a configuration means. Values are plain data; copy freely.
//
//   cluster:                    # cluster-wide defaults, all optional
//     replicas: 2               # data nodes per node group (1..4)
//     data_memory: 512M         # per data node; K, M, G, T suffixes (powers of 1024)
//     heartbeat_interval: 500ms # data nodes; absl duration syntax: 100ms, 1s, 1.5s
//     router_heartbeat_interval: 1500ms  # routers
//     missed_heartbeats: 4      # a node silent this many intervals is declared failed
//     arbitration_timeout: 7500ms  # a node waiting longer for arbitration stops
//     realtime_scheduler: false # SCHED_RR for the threads that carry heartbeats
//     epoch_interval: 1s        # global checkpoint interval
//     start_partial_timeout: 30s  # a whole-cluster restart waits this long for every data node
//     lock_wait_timeout: 1200ms # row lock waits end in ER_LOCK_WAIT_TIMEOUT (1205)
//     lock_pages_in_memory: false  # data nodes mlockall() their memory (never swapped out)
//     checkpoint_after_redo: 64M  # a local checkpoint starts once this much redo was written
//     checkpoint_write_rate: 20M  # bytes per second a local checkpoint writes, per data node
//     tls: auto                 # TLS on links between processes: auto = when on several hosts
//   mgmd:
//     id: 1
//     host: 127.0.0.1
//     port: 1186
//     data_dir: /var/lib/shoal/mgmd        # required
//     metrics_port: 9301                   # 0 = no /metrics endpoint
//   datanodes:                             # a multiple of `replicas`; node groups in order
//     - id: 2
//       host: 127.0.0.1
//       data_dir: /var/lib/shoal/dn2       # required
//       backup_dir: /backup/shoal/dn2      # START BACKUP writes here (default <data_dir>/backups)
//       cpus: 0-1                          # optional CPU list: "0-3,6"
//       metrics_port: 9302
//       socket: /run/shoal/datanode-2.sock # shared memory for clients on this host (optional)
//       port: 11860                        # native TCP port; 0 = any free port
//       threads: 0                         # 0 = automatic thread layout
//       spin: 0ms                          # busy-poll before sleeping (0 on small machines)
//   routers:
//     - id: 4
//       host: 127.0.0.1
//       socket: /run/shoal/router-4.sock   # Unix socket; optional if port is set
//       port: 3306                         # TCP port; 0 = no TCP listener
//       threads: 0                         # worker threads; 0 = automatic
//       cpus: "0"
//       metrics_port: 9304
//       max_connections: 1024                # ER_CON_COUNT_ERROR (1040) beyond this
//       spin: 0ms                            # workers busy-poll before sleeping
//       local_infile: true                   # LOAD DATA LOCAL allowed (SET GLOBAL changes it)
//       load_data_batch_rows: 1000           # LOAD DATA: rows per native transaction
//       load_data_batches_in_flight: 2       # LOAD DATA: batches out before reading stops
//       ssl: true                            # offer TLS to clients (false: have_ssl DISABLED)
//       ssl_dir: /var/lib/shoal/tls          # CA and certificates made here on first start
//       ssl_cert: /etc/shoal/cert.pem        # or: these files (ssl_key with it, ssl_ca optional)
//       require_secure_transport: false      # TCP clients must use TLS (3159 otherwise)
//   users:                                   # MySQL accounts; only password hashes, never text
//     - name: root                           # no hash: an empty password
//     - name: app
//       native_hash: "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7"   # SHA1(SHA1(pw)), as MySQL
//       sha256_hash: "…64 hex digits…"       # SHA256(SHA256(pw)), for caching_sha2_password
//   (`shoal-router --hash-password` prints both for a password read from standard input.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace shoal::config {

enum class NodeType { kMgmd, kDataNode, kRouter };
std::string_view NodeTypeName(NodeType type);  // "mgmd", "datanode", "router"

inline constexpr int kMaxNodeId = 255;
inline constexpr uint64_t kMiB = uint64_t{1} << 20;

struct ClusterDefaults {
  int replicas = 2;
  uint64_t data_memory = 512 * kMiB;
  // Data nodes heartbeat to the mgmd and ping each other this often (NDB's
  // HeartbeatIntervalDbDb); silent for `missed_heartbeats` of them — counted in time the
  // observer ran and the node could run (docs/architecture.md, "Failure detection") — a data
  // node is declared failed, unless it is the last live replica of its node group.
  absl::Duration heartbeat_interval = absl::Milliseconds(500);
  // Routers heartbeat this often (NDB's HeartbeatIntervalDbApi, 1500 ms there too): a router
  // holds no data, and killing a slow one drops its clients.
  absl::Duration router_heartbeat_interval = absl::Milliseconds(1500);
  int missed_heartbeats = 4;
  // How long a data node that lost sight of a peer waits for the arbitrator's answer before it
  // stops (NDB's ArbitrationTimeout, 7500 ms there too); counted in time the node ran.
  absl::Duration arbitration_timeout = absl::Milliseconds(7500);
  // Runs the threads that carry heartbeats (every process's control thread, the data
  // nodes' data-plane threads) under SCHED_RR, where the system permits it (NDB's
  // RealtimeScheduler): a busy neighbour then cannot starve them.
  bool realtime_scheduler = false;
  absl::Duration epoch_interval = absl::Seconds(1);
  // A whole-cluster restart (no data node serving) waits for every configured data node to
  // register and report its disk before the mgmd chooses the epoch to recover; once this long
  // has passed since the first one did, it goes on without the others if every node group has
  // one (NDB's StartPartialTimeout, 30 s there too). Those late start as a restarted node does.
  absl::Duration start_partial_timeout = absl::Seconds(30);
  // How long an operation waits for a row lock before ER_LOCK_WAIT_TIMEOUT (1205); NDB's
  // TransactionDeadlockDetectionTimeout.
  absl::Duration lock_wait_timeout = absl::Milliseconds(1200);
  // Data nodes lock their memory (mlockall of what they have and will map; NDB's
  // LockPagesInMainMemory): a swapped-out page would stall an LDM thread for milliseconds and
  // its heartbeats with it. Where the system refuses (RLIMIT_MEMLOCK, no CAP_IPC_LOCK), the
  // node warns once and runs unlocked.
  bool lock_pages_in_memory = false;
  // A data node starts a local checkpoint (NDB's LCP) once this much redo was written since
  // the last one started: the redo kept on disk, and replayed by a system restart, stays
  // around twice this (docs/architecture.md, "Local checkpoints").
  uint64_t checkpoint_after_redo = 64 * kMiB;
  // How fast a local checkpoint writes, in bytes per second per data node (NDB's
  // MaxDiskWriteSpeed): it runs between the operations, and this keeps it from taking the
  // LDM threads' time or the disk's bandwidth away from them.
  uint64_t checkpoint_write_rate = 20 * kMiB;
  // TLS on the links between the cluster's processes (native TCP and the control links;
  // common/tls/link_context.h): "true", "false", or "auto" — on when the processes are on more
  // than one host (every loopback address counts as this one host).
  std::string tls = "auto";
};

struct MgmdConfig {
  int id = 1;
  std::string host = "127.0.0.1";
  int port = 1186;
  std::string data_dir;
  int metrics_port = 0;
};

struct DataNodeConfig {
  int id = 0;
  std::string host = "127.0.0.1";
  std::string data_dir;
  std::vector<int> cpus;  // empty: not pinned
  int metrics_port = 0;
  // Native clients on the same host attach over shared memory through this Unix socket
  // (empty: no shared memory); others use the TCP `port` (0: any free port, published in the
  // cluster view).
  std::string socket;
  int port = 0;
  int threads = 0;  // 0: automatic, from `cpus` or the machine's CPU count
  absl::Duration spin = absl::ZeroDuration();  // busy-poll this long before sleeping
  int node_group = 0;                          // derived: index in `datanodes` / replicas
  // Where this node writes its part of each online backup; empty: <data_dir>/backups.
  std::string backup_dir;
};

struct RouterConfig {
  int id = 0;
  std::string host = "127.0.0.1";
  std::string socket;  // empty: no Unix socket listener
  int port = 0;        // 0: no TCP listener
  int threads = 0;     // 0: automatic, from `cpus` or the machine's CPU count
  std::vector<int> cpus;
  int metrics_port = 0;
  int max_connections = 1024;
  absl::Duration spin = absl::ZeroDuration();  // workers busy-poll this long before sleeping
  bool local_infile = true;                    // local_infile's global value at start
  int load_data_batch_rows = 1000;             // LOAD DATA: rows per native transaction
  int load_data_batches_in_flight = 2;         // LOAD DATA: batches out before reading stops
  // TLS for MySQL clients (common/tls/credentials.h): offered unless `ssl` is false, with the
  // files ssl_cert/ssl_key (and ssl_ca, which verifies client certificates) when given, else
  // with a set made once in ssl_dir, else with one made in memory at each start.
  bool ssl = true;
  std::string ssl_dir, ssl_ca, ssl_cert, ssl_key;
  bool require_secure_transport = false;  // TCP clients must use TLS (SET GLOBAL changes it)
};

// A MySQL account. Both hashes empty: the account has an empty password.
struct UserConfig {
  std::string name;
  std::string native_hash;  // "*" + 40 upper-case hex digits: SHA1(SHA1(password))
  std::string sha256_hash;  // 64 lower-case hex digits: SHA256(SHA256(password))
};

struct ClusterConfig {
  ClusterDefaults cluster;
  MgmdConfig mgmd;
  std::vector<DataNodeConfig> datanodes;
  std::vector<RouterConfig> routers;
  std::vector<UserConfig> users;
  std::string source;  // the file it came from, or "<embedded default>"

  const DataNodeConfig* FindDataNode(int id) const;
  const RouterConfig* FindRouter(int id) const;
  // The type of node `id`, or NotFound when no node of the configuration has that id.
  absl::StatusOr<NodeType> TypeOf(int id) const;
  int node_groups() const { return static_cast<int>(datanodes.size()) / cluster.replicas; }
  // Every host named, each once, in order (the mgmd, data nodes, routers).
  std::vector<std::string> Hosts() const;
  // Whether the processes are on more than one host (every loopback address is this one).
  bool SpansHosts() const;
  // Whether the links between processes use TLS (cluster.tls; "auto": when SpansHosts()).
  bool LinksUseTls() const;
};

// Loads and validates a configuration. Errors are InvalidArgument with one line of the form
// `<source>:<line>: <field>: <what is wrong>`, e.g.
// `shoal.yaml:9: datanodes[1].id: duplicate node id 2 (first used at line 5)`.
absl::StatusOr<ClusterConfig> LoadConfigFile(const std::string& path);
absl::StatusOr<ClusterConfig> LoadConfigString(std::string_view yaml, std::string_view source);

// Canonical YAML for `config`; LoadConfigString(ToYaml(c)) yields c again.
std::string ToYaml(const ClusterConfig& config);

struct EmbeddedDefaultOptions {
  std::string run_dir;          // every data dir and socket lives under it
  int mgmd_port = 1186;         // 0: pick a free port when listening
  int router_base_port = 3306;  // router i (0-based) listens on base + i
  int metrics_base_port = 0;    // 0: no /metrics; else node id N serves on base + N
};

// The cluster in a box: mgmd 1, data nodes 2 and 3 (node group 0, replicas 2), routers 4 and
// 5, all on 127.0.0.1 under `run_dir` (sockets `<run_dir>/router-<id>.sock`), and the account
// `root` with an empty password (this default only).
ClusterConfig EmbeddedDefault(const EmbeddedDefaultOptions& options);

// "512M", "4G", "1048576", "64k" → bytes. Suffixes K, M, G, T (either case) are powers of 1024.
absl::StatusOr<uint64_t> ParseSize(std::string_view text);
std::string FormatSize(uint64_t bytes);  // largest exact unit: 536870912 → "512M"
// "0-3,6" → {0,1,2,3,6}; sorted, no duplicates, each < 1024.
absl::StatusOr<std::vector<int>> ParseCpuList(std::string_view text);
std::string FormatCpuList(const std::vector<int>& cpus);

}  // namespace shoal::config
