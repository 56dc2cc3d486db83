// Credentials: the certificate, key and CA a router serves TLS with, as PEM text, and where
// they came from. Either the files the configuration names (ssl_cert, ssl_key, ssl_ca), or —
// as mysqld's auto_generate_certs — a set made on first start in `ssl_dir` and read from
// there on every start after (so clients can pin its CA, and routers on one host share it),
// or, with neither, a set made in memory for this run alone.
//
// A made set (ECDSA P-256 keys) is a self-signed CA, a server certificate it signs for the router's
// names and addresses (localhost, 127.0.0.1, ::1, the host name, the configured host), and a client
// certificate it signs, for accounts that REQUIRE X509. ssl_dir holds them under mysqld's
// file names: ca.pem, ca-key.pem, server-cert.pem, server-key.pem, client-cert.pem,
// client-key.pem (keys mode 0600).
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace shoal::tls {

struct Credentials {
  std::string ca_pem;    // may be empty: client certificates are then not verified
  std::string cert_pem;  // the server certificate, then any chain
  std::string key_pem;
  // Where each came from, for @@ssl_ca, @@ssl_cert, @@ssl_key (empty: made in memory).
  std::string ca_file, cert_file, key_file;
};

struct CredentialOptions {
  std::string ca_file, cert_file, key_file;  // explicit files; cert and key go together
  std::string dir;                           // else: made here once, read from here after
  std::vector<std::string> names;            // host names and addresses the server answers to
};

absl::StatusOr<Credentials> LoadOrMakeCredentials(const CredentialOptions& options);

// A new CA, and a server and a client certificate it signs for `names` (tests and
// LoadOrMakeCredentials): the files of an ssl_dir, by name ("ca.pem" → PEM text).
struct MadeCredentials {
  std::string ca_pem, ca_key_pem, server_cert_pem, server_key_pem, client_cert_pem, client_key_pem;
};
absl::StatusOr<MadeCredentials> MakeCredentials(const std::vector<std::string>& names);

}  // namespace shoal::tls
