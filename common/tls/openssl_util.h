// Owning pointers for OpenSSL objects, PEM text in and out, and OpenSSL's error queue as an
// absl::Status.
#pragma once

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::tls {

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using UniquePkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using UniqueX509 = std::unique_ptr<X509, X509Free>;
using UniqueSslCtx = std::unique_ptr<SSL_CTX, SslCtxFree>;
using UniqueBio = std::unique_ptr<BIO, BioFree>;

// The bytes a memory BIO holds.
std::string MemoryBioText(BIO* bio);

// `what` failed, with the reasons OpenSSL queued (the queue is emptied).
absl::Status OpenSslError(absl::string_view what);
// The reasons OpenSSL queued, joined; empties the queue.
std::string TakeOpenSslErrors();

// A PEM file's text (NotFound, naming the file and why, when it cannot be read).
absl::StatusOr<std::string> ReadPemFile(const std::string& path);
absl::StatusOr<std::string> CertificatePem(X509* cert);
absl::StatusOr<std::string> PrivateKeyPem(EVP_PKEY* key);
// Every certificate in `pem`, in order (none is an error).
absl::StatusOr<std::vector<UniqueX509>> ParseCertificates(absl::string_view pem);
absl::StatusOr<UniquePkey> ParsePrivateKey(absl::string_view pem);
// A name as MySQL shows and compares it (X509_NAME_oneline: "/C=SE/CN=client").
std::string OneLineName(const X509_NAME* name);

}  // namespace shoal::tls
