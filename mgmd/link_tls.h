// The mgmd's side of TLS between the cluster's processes (common/tls/link_context.h): which set
// it serves its control links with, and the per-host sets --make-cluster-certificates makes.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "common/config/config.h"
#include "common/tls/link_context.h"

namespace shoal::mgmd {

// Where a process looks for its set unless told otherwise (--tls-dir).
inline constexpr char kDefaultTlsDir[] = "/etc/shoal/cluster-tls";

// The set in `dir` when the configuration's links use TLS; null when they do not. A cluster on
// one host gets a set made in `dir` on first start (as mysqld makes its certificates); one on
// several hosts must be given its sets (MakeClusterCertificates), and without one here the
// error says how.
absl::StatusOr<std::unique_ptr<tls::LinkContext>> LinkTlsFor(const config::ClusterConfig& config,
                                                             const std::string& dir);

// --make-cluster-certificates: the cluster's CA and a set per host of `config` in `dir`; what to
// copy where, for the person who asked.
absl::StatusOr<std::string> MakeCertificatesFor(const config::ClusterConfig& config,
                                                const std::string& dir);

}  // namespace shoal::mgmd
