#include "common/tls/server_context.h"

#include "absl/strings/str_cat.h"

namespace shoal::tls {
namespace {

// Every session of a router shares one context: resumed TLS sessions are tied to it.
constexpr unsigned char kRouterSessionIdContext[] = "shoal-router";

}  // namespace

absl::StatusOr<std::unique_ptr<ServerContext>> ServerContext::Create(
    const Credentials& credentials) {
  auto context = std::make_unique<ServerContext>();
  context->ca_file_ = credentials.ca_file;
  context->cert_file_ = credentials.cert_file;
  context->key_file_ = credentials.key_file;
  context->ctx_.reset(SSL_CTX_new(TLS_server_method()));
  SSL_CTX* ctx = context->ctx_.get();
  if (ctx == nullptr || SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
    return OpenSslError("SSL_CTX_new");
  }
  absl::StatusOr<std::vector<UniqueX509>> chain = ParseCertificates(credentials.cert_pem);
  if (!chain.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ssl_cert ", credentials.cert_file, ": ", chain.status().message()));
  }
  absl::StatusOr<UniquePkey> key = ParsePrivateKey(credentials.key_pem);
  if (!key.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ssl_key ", credentials.key_file, ": ", key.status().message()));
  }
  if (SSL_CTX_use_certificate(ctx, (*chain)[0].get()) != 1) return OpenSslError("ssl_cert");
  for (size_t i = 1; i < chain->size(); ++i) {
    // SSL_CTX_add1_chain_cert takes its own reference.
    if (SSL_CTX_add1_chain_cert(ctx, (*chain)[i].get()) != 1) return OpenSslError("ssl_cert");
  }
  if (SSL_CTX_use_PrivateKey(ctx, key->get()) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
    return OpenSslError(absl::StrCat("ssl_key ", credentials.key_file, " with its certificate"));
  }
  if (!credentials.ca_pem.empty()) {
    absl::StatusOr<std::vector<UniqueX509>> cas = ParseCertificates(credentials.ca_pem);
    if (!cas.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("ssl_ca ", credentials.ca_file, ": ", cas.status().message()));
    }
    X509_STORE* store = SSL_CTX_get_cert_store(ctx);
    for (const UniqueX509& ca : *cas) {
      if (X509_STORE_add_cert(store, ca.get()) != 1 || SSL_CTX_add_client_CA(ctx, ca.get()) != 1) {
        return OpenSslError("ssl_ca");
      }
    }
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  }
  SSL_CTX_set_session_id_context(ctx, kRouterSessionIdContext, sizeof(kRouterSessionIdContext) - 1);
  // Records are written to memory and sent by the connection: a partial write never happens,
  // and a buffer that moves between SSL_write calls is fine.
  SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  return context;
}

}  // namespace shoal::tls
