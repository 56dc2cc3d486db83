// Making keys and certificates: what the router's auto-generated set (credentials.h) and the
// cluster's own CA (cluster_credentials.h) are both made of.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/tls/openssl_util.h"

namespace shoal::tls {

// A key and its certificate.
struct SignedKey {
  UniquePkey key;
  UniqueX509 cert;
};

// Extensions as openssl.cnf writes them: {NID_basic_constraints, "critical,CA:TRUE"}.
using Extensions = std::vector<std::pair<int, std::string>>;

// The extensions of a CA, and of a leaf certificate (to which the caller adds its key usage).
Extensions CaExtensions();
Extensions LeafExtensions();

// A new ECDSA P-256 key and a ten-year certificate for it named `common_name`, signed by
// `issuer` (self-signed when null), with `extensions`.
absl::StatusOr<SignedKey> Sign(const std::string& common_name, const SignedKey* issuer,
                               const Extensions& extensions);

// "DNS:localhost,IP:127.0.0.1" for these names and addresses (empty and repeated ones left out).
std::string SubjectAltNames(const std::vector<std::string>& names);

// The certificate and the key as PEM text.
struct PemPair {
  std::string cert_pem, key_pem;
};
absl::StatusOr<PemPair> ToPem(const SignedKey& signed_key);

// Writes `text` to a file that must not exist yet; a `secret` one is readable by its owner alone.
absl::Status WriteNewFile(const std::string& path, const std::string& text, bool secret);

// Makes the directory `dir` with the files `fill` writes into the directory it is given — one
// of its own beside `dir`, renamed into place once filled — so that of processes making `dir`
// at once (routers, or nodes, starting together on one host) one wins whole and every one of
// them then reads the same files. OK when `dir` holds files afterwards, whoever wrote them;
// `fill`'s error otherwise.
absl::Status MakeDirectoryOnce(const std::string& dir,
                               absl::FunctionRef<absl::Status(const std::string& made)> fill);

}  // namespace shoal::tls
