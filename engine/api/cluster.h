// What a native client knows about the cluster: which data nodes serve, where to reach them,
// how partitions map to them (I2), and the cached dictionary. Shared by every Client of a
// process; thread-safe. Snapshots are immutable and swapped whole (shared_ptr), so a Client
// reads them without locks on the operation path.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/control/control.pb.h"
#include "common/tls/link_context.h"
#include "engine/schema/schema.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::api {

using TablePtr = std::shared_ptr<const schema::TableDef>;

struct DataNodeInfo {
  int id = 0;
  std::string host;
  int port = 0;        // native TCP; 0 until the node has started
  std::string socket;  // shared-memory handshake socket; empty if none
  int node_group = 0;
  bool started = false;
};

// The data nodes and partition placement as of one cluster view.
struct Topology {
  uint64_t view_version = 0;
  std::vector<DataNodeInfo> nodes;       // by id order
  std::vector<std::vector<int>> groups;  // node group → indexes into `nodes`, config order

  const DataNodeInfo* Find(int id) const;
  // The data node serving the primary replica of `partition`: replica r = (p / groups) %
  // replicas of group p % groups, or the next started replica of that group when it is down.
  // -1 when no replica of the group has started.
  int PrimaryOf(uint32_t partition) const;
  // A started replica of `partition` other than data node `not_node`: where a committed read
  // goes when that node cannot be reached. -1 if none.
  int OtherReplicaOf(uint32_t partition, int not_node) const;
  // For committed reads of read-backup tables: the primary if it is on `host`, else a started
  // replica on `host`, else the primary.
  int NearestReplicaOf(uint32_t partition, const std::string& host) const;
  // The lowest-id started data node: the dictionary master. -1 if none.
  int Master() const;
};

struct Dictionary {
  uint32_t version = 0;
  uint64_t incarnation = 0;  // versions compare within one (wire::Dictionary)
  std::vector<std::string> databases;
  absl::flat_hash_map<std::string, TablePtr> by_name;  // "db.table"
  absl::flat_hash_map<uint32_t, TablePtr> by_id;
  // Tables a copying ALTER TABLE is rebuilding (wire::AlterLock): writes wait for it to end.
  absl::flat_hash_set<uint32_t> altering;
  // The foreign keys that name each parent table, by the parent's "db.table": the child
  // and the constraint's position in its foreign_keys. Empty when no table has one.
  struct Reference {
    TablePtr child;
    size_t key;
  };
  absl::flat_hash_map<std::string, std::vector<Reference>> referenced_by;
  // Views by "db.view": no rows, a SELECT that is parsed again where the view is named.
  absl::flat_hash_map<std::string, wire::View> views;
  // Accounts and privileges (generation 0: never set; the configuration's `users:` hold).
  wire::AccessControl access;

  TablePtr Find(absl::string_view db, absl::string_view table) const;
  // The view db.name, or null.
  const wire::View* FindView(absl::string_view db, absl::string_view name) const;
  // The foreign keys that reference `parent`, or null when none does.
  const std::vector<Reference>* ReferencesTo(const schema::TableDef& parent) const;
};

class Cluster {
 public:
  struct Options {
    // Clients on this host use shared memory with data nodes configured on the same host.
    std::string local_host = "127.0.0.1";
    bool use_shared_memory = true;
    uint32_t client_id = 0;  // sent in the hello, for the data node's logs
    // Poll() busy-polls this long before it sleeps: lower latency for one operation at a time
    // (no wake-up on either side when the data node spins too), at the price of a busy core.
    absl::Duration spin = absl::ZeroDuration();
    // TLS on native TCP links (common/tls/link_context.h; must outlive the cluster); null:
    // clear text.
    const tls::LinkContext* link_tls = nullptr;
  };
  explicit Cluster(Options options) : options_(std::move(options)) {}

  const Options& options() const { return options_; }

  void SetView(const control::ClusterView& view);
  std::shared_ptr<const Topology> topology() const;
  // Grows whenever SetView installs a new topology: a cheap way for clients to notice.
  uint64_t topology_generation() const {
    return topology_generation_.load(std::memory_order_acquire);
  }

  // Keeps `dictionary` if it is newer than the one held, or of another incarnation (the data
  // nodes restarted empty after a cluster failure).
  void SetDictionary(const wire::Dictionary& dictionary);
  // Takes the lock: for a Client noticing a new generation, and tools (Client::dictionary()
  // keeps a snapshot for the operation path).
  std::shared_ptr<const Dictionary> dictionary() const;
  // Grows whenever SetDictionary installs a dictionary: a cheap way for clients to notice.
  uint64_t dictionary_generation() const {
    return dictionary_generation_.load(std::memory_order_acquire);
  }

  // For programs that are not cluster members (benchmarks, tools): asks the mgmd for its view
  // over the console protocol (with TLS when `tls` is given). Blocks.
  static absl::StatusOr<control::ClusterView> FetchView(const std::string& mgmd_host, int mgmd_port,
                                                        absl::Duration timeout,
                                                        const tls::LinkContext* tls = nullptr);

 private:
  const Options options_;
  mutable std::mutex mutex_;
  std::shared_ptr<const Topology> topology_;  // guarded by mutex_
  std::atomic<uint64_t> topology_generation_{0};
  std::shared_ptr<const Dictionary> dictionary_;  // guarded by mutex_
  std::atomic<uint64_t> dictionary_generation_{0};
};

}  // namespace shoal::api
