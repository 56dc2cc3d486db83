// ClusterLog: the cluster's event history (nodes connecting, starting, failing, restarting),
// appended to `<mgmd data_dir>/cluster.log` and kept in memory for the console's CLUSTERLOG.
//
// Owned by the MgmdServer; used only on its loop thread.
#pragma once

#include <cstdio>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/control/control.pb.h"

namespace shoal::mgmd {

class ClusterLog {
 public:
  static constexpr size_t kKeptInMemory = 1000;

  // Opens (appending) `path`; an empty path keeps events in memory only.
  static absl::StatusOr<std::unique_ptr<ClusterLog>> Open(const std::string& path);
  ~ClusterLog();

  // Records one event; node_id 0 is the cluster as a whole. Also logged to stderr.
  void Add(absl::string_view severity, int node_id, absl::string_view text);
  // The most recent `limit` events, oldest first.
  std::vector<control::ClusterEvent> Recent(size_t limit) const;

 private:
  explicit ClusterLog(std::FILE* file) : file_(file) {}

  std::FILE* file_;
  std::deque<control::ClusterEvent> events_;
};

}  // namespace shoal::mgmd
