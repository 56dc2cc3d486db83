#include "mgmd/link_tls.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shoal::mgmd {

absl::StatusOr<std::unique_ptr<tls::LinkContext>> LinkTlsFor(const config::ClusterConfig& config,
                                                             const std::string& dir) {
  if (!config.LinksUseTls()) return nullptr;
  if (!config.SpansHosts()) return tls::LoadOrMakeLocalSet(dir, config.Hosts());
  absl::StatusOr<std::unique_ptr<tls::LinkContext>> loaded = tls::LinkContext::Load(dir);
  if (!absl::IsNotFound(loaded.status())) return loaded;
  return absl::FailedPreconditionError(absl::StrCat(
      "the cluster spans hosts (", absl::StrJoin(config.Hosts(), ", "),
      ") and its links use TLS (cluster.tls: ", config.cluster.tls, "), but ", dir,
      " holds no certificates: make them with `shoal-mgmd --config-file ", config.source,
      " --make-cluster-certificates DIR`, copy DIR/<host> to ", dir,
      " on each host (--tls-dir elsewhere), or set cluster.tls: false to run in clear text"));
}

absl::StatusOr<std::string> MakeCertificatesFor(const config::ClusterConfig& config,
                                                const std::string& dir) {
  std::vector<std::string> hosts = config.Hosts();
  if (absl::Status made = tls::MakeClusterCertificates(dir, hosts); !made.ok()) return made;
  std::string text = absl::StrCat(
      "Made the cluster's CA (", dir, "/ca.pem; keep ", dir,
      "/ca-key.pem off the cluster's hosts: it makes new members) and a set for each host:\n");
  for (const std::string& host : hosts) {
    absl::StrAppend(&text, "  ", dir, "/", host, "/  ->  ", kDefaultTlsDir, "/ on ", host, "\n");
  }
  absl::StrAppend(&text,
                  "Each process of a host reads its set from there (or from --tls-dir); the "
                  "console too. Links use TLS ",
                  config.LinksUseTls() ? "with this configuration"
                                       : "once cluster.tls is true (or auto on several hosts)",
                  ".\n");
  return text;
}

}  // namespace shoal::mgmd
