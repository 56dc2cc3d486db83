#include "mgmd/cluster_log.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "common/logging.h"

namespace shoal::mgmd {

absl::StatusOr<std::unique_ptr<ClusterLog>> ClusterLog::Open(const std::string& path) {
  std::FILE* file = nullptr;
  if (!path.empty()) {
    file = std::fopen(path.c_str(), "ae");
    if (file == nullptr) {
      return absl::UnavailableError(
          absl::StrCat("cannot open the cluster log ", path, ": ", std::strerror(errno)));
    }
  }
  return std::unique_ptr<ClusterLog>(new ClusterLog(file));
}

ClusterLog::~ClusterLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void ClusterLog::Add(absl::string_view severity, int node_id, absl::string_view text) {
  absl::Time now = absl::Now();
  control::ClusterEvent& event = events_.emplace_back();
  event.set_unix_ms(absl::ToUnixMillis(now));
  event.set_severity(std::string(severity));
  event.set_node_id(static_cast<uint32_t>(node_id));
  event.set_text(std::string(text));
  if (events_.size() > kKeptInMemory) events_.pop_front();

  std::string subject = node_id == 0 ? "Cluster" : absl::StrCat("Node ", node_id);
  if (severity == "INFO") {
    SHOAL_LOG(kInfo) << subject << ": " << text;
  } else {
    SHOAL_LOG(kWarning) << subject << ": " << text;
  }
  if (file_ != nullptr) {
    std::string line =
        absl::StrCat(absl::FormatTime("%Y-%m-%d %H:%M:%E3S", now, absl::LocalTimeZone()), " [",
                     severity, "] ", subject, ": ", text, "\n");
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fflush(file_);
  }
}

std::vector<control::ClusterEvent> ClusterLog::Recent(size_t limit) const {
  size_t start = events_.size() > limit ? events_.size() - limit : 0;
  return std::vector<control::ClusterEvent>(events_.begin() + static_cast<ptrdiff_t>(start),
                                            events_.end());
}

}  // namespace shoal::mgmd
