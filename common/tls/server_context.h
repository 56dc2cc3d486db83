// ServerContext: the router's TLS configuration, one SSL_CTX shared by every connection (OpenSSL
// makes an SSL_CTX safe to use from many threads once set up). TLS 1.2 and 1.3, as MySQL
// 8.0's default tls_version; a client certificate is asked for and verified against the CA
// when one is given (accounts that REQUIRE X509 need one), never demanded.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "common/tls/credentials.h"
#include "common/tls/openssl_util.h"

namespace shoal::tls {

class ServerContext {
 public:
  static absl::StatusOr<std::unique_ptr<ServerContext>> Create(const Credentials& credentials);

  SSL_CTX* get() const { return ctx_.get(); }
  // The files it was made from, for @@ssl_ca, @@ssl_cert and @@ssl_key (empty: in memory).
  const std::string& ca_file() const { return ca_file_; }
  const std::string& cert_file() const { return cert_file_; }
  const std::string& key_file() const { return key_file_; }

 private:
  UniqueSslCtx ctx_;
  std::string ca_file_, cert_file_, key_file_;
};

}  // namespace shoal::tls
