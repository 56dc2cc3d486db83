// LinkContext: TLS on the links between the cluster's own processes — native TCP (router ↔
// data node, data node ↔ data node) and the control links to the mgmd. Both ends present a
// node certificate and accept only a peer whose certificate the cluster's CA signed; the end
// that connects also requires the peer's certificate to name the host it dialled. TLS 1.3
// only: both ends are Shoal.
//
// A process finds its set in one directory (--tls-dir): ca.pem (the cluster's CA),
// node-cert.pem and node-key.pem (this host's certificate and key). `shoal-mgmd
// --make-cluster-certificates` makes a set per host of a configuration; a cluster on one host
// gets one made on first start (MakeLocalSet).
//
// Immutable once made; shared by every thread of the process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/tls/channel.h"
#include "common/tls/openssl_util.h"

namespace shoal::tls {

inline constexpr char kLinkCaFile[] = "ca.pem";
inline constexpr char kLinkCertFile[] = "node-cert.pem";
inline constexpr char kLinkKeyFile[] = "node-key.pem";

class LinkContext {
 public:
  // The set in `dir`: NotFound when `dir` holds no node-cert.pem, another error when the set
  // is incomplete or unusable (naming the file).
  static absl::StatusOr<std::unique_ptr<LinkContext>> Load(const std::string& dir);
  // The same for the tools' --tls-dir: null (clear text) when `dir` is empty or holds no set.
  static absl::StatusOr<std::unique_ptr<LinkContext>> LoadIfPresent(const std::string& dir);
  // From PEM text (tests).
  static absl::StatusOr<std::unique_ptr<LinkContext>> FromPem(const std::string& ca_pem,
                                                              const std::string& cert_pem,
                                                              const std::string& key_pem);

  // The accepting end of a new link, and the connecting end of one to `host`.
  std::unique_ptr<Channel> NewServerChannel() const;
  std::unique_ptr<Channel> NewClientChannel(const std::string& host) const;

  const std::string& dir() const { return dir_; }

 private:
  UniqueSslCtx ctx_;
  std::string dir_;
};

// Makes, in `dir` (which must not exist yet or be empty), the cluster's CA (ca.pem,
// ca-key.pem) and for each of `hosts` a directory `dir/<host>` holding that host's set
// (ca.pem, node-cert.pem, node-key.pem; its certificate names the host).
absl::Status MakeClusterCertificates(const std::string& dir, const std::vector<std::string>& hosts);

// For a cluster on one host: the set in `dir`, made there first when `dir` holds none — a CA
// and one node certificate naming `names` (and localhost, 127.0.0.1, ::1 and the host name).
// Made in a directory of its own and renamed into place, so processes starting at once agree.
absl::StatusOr<std::unique_ptr<LinkContext>> LoadOrMakeLocalSet(
    const std::string& dir, const std::vector<std::string>& names);

}  // namespace shoal::tls
