#include "common/tls/signing.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace shoal::tls {
namespace {

// ECDSA keys: made in microseconds where RSA-2048 takes a tenth of a second, and a TLS handshake
// signs with one in a fraction of the time (every client of OpenSSL, GnuTLS, Java, Go and
// Python takes them).
constexpr char kCurve[] = "P-256";
constexpr long kValidSeconds = 10L * 365 * 24 * 3600;  // as mysqld's: ten years

absl::Status AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX context;
  X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_nconf_nid(nullptr, &context, nid, value.c_str());
  if (extension == nullptr) return OpenSslError(absl::StrCat("extension ", value));
  int added = X509_add_ext(cert, extension, -1);
  X509_EXTENSION_free(extension);
  if (added != 1) return OpenSslError(absl::StrCat("extension ", value));
  return absl::OkStatus();
}

}  // namespace

Extensions CaExtensions() {
  return {{NID_basic_constraints, "critical,CA:TRUE"},
          {NID_key_usage, "critical,keyCertSign,cRLSign"},
          {NID_subject_key_identifier, "hash"},
          {NID_authority_key_identifier, "keyid:always"}};
}

Extensions LeafExtensions() {
  return {{NID_basic_constraints, "critical,CA:FALSE"},
          {NID_key_usage, "critical,digitalSignature"},
          {NID_subject_key_identifier, "hash"},
          {NID_authority_key_identifier, "keyid:always"}};
}

absl::StatusOr<SignedKey> Sign(const std::string& common_name, const SignedKey* issuer,
                               const Extensions& extensions) {
  SignedKey made;
  made.key.reset(EVP_EC_gen(kCurve));
  made.cert.reset(X509_new());
  if (made.key == nullptr || made.cert == nullptr) return OpenSslError("key generation");
  X509* cert = made.cert.get();
  uint64_t serial = 0;
  RAND_bytes(reinterpret_cast<unsigned char*>(&serial), sizeof(serial));
  serial &= 0x7fffffffffffffffULL;  // a positive INTEGER
  X509_NAME* name = X509_get_subject_name(cert);
  bool ok = X509_set_version(cert, 2) == 1 &&
            ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert), serial) == 1 &&
            X509_gmtime_adj(X509_getm_notBefore(cert), -24 * 3600) != nullptr &&
            X509_gmtime_adj(X509_getm_notAfter(cert), kValidSeconds) != nullptr &&
            X509_set_pubkey(cert, made.key.get()) == 1 &&
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                       reinterpret_cast<const unsigned char*>(common_name.c_str()),
                                       -1, -1, 0) == 1 &&
            X509_set_issuer_name(
                cert, issuer == nullptr ? name : X509_get_subject_name(issuer->cert.get())) == 1;
  if (!ok) return OpenSslError("certificate");
  X509* issuer_cert = issuer == nullptr ? cert : issuer->cert.get();
  for (const auto& [nid, value] : extensions) {
    if (absl::Status added = AddExtension(cert, issuer_cert, nid, value); !added.ok()) {
      return added;
    }
  }
  EVP_PKEY* signer = issuer == nullptr ? made.key.get() : issuer->key.get();
  if (X509_sign(cert, signer, EVP_sha256()) == 0) return OpenSslError("signing");
  return made;
}

std::string SubjectAltNames(const std::vector<std::string>& names) {
  std::vector<std::string> entries;
  for (const std::string& name : names) {
    if (name.empty()) continue;
    bool address = name.find_first_not_of("0123456789.") == std::string::npos ||
                   name.find(':') != std::string::npos;
    std::string entry = absl::StrCat(address ? "IP:" : "DNS:", name);
    if (std::find(entries.begin(), entries.end(), entry) == entries.end()) {
      entries.push_back(std::move(entry));
    }
  }
  return absl::StrJoin(entries, ",");
}

absl::StatusOr<PemPair> ToPem(const SignedKey& signed_key) {
  absl::StatusOr<std::string> cert = CertificatePem(signed_key.cert.get());
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = PrivateKeyPem(signed_key.key.get());
  if (!key.ok()) return key.status();
  return PemPair{std::move(*cert), std::move(*key)};
}

absl::Status MakeDirectoryOnce(const std::string& dir,
                               absl::FunctionRef<absl::Status(const std::string& made)> fill) {
  std::error_code error;
  std::filesystem::path parent = std::filesystem::path(dir).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  std::string made = absl::StrCat(dir, ".new-XXXXXX");
  if (mkdtemp(made.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot make ", made, ": ", strerror(errno)));
  }
  absl::Status filled = fill(made);
  // rename() replaces an empty directory and fails on one with files: another process's, which
  // then wins.
  if (!filled.ok() || rename(made.c_str(), dir.c_str()) != 0) {
    std::filesystem::remove_all(made, error);
  }
  return filled;
}

absl::Status WriteNewFile(const std::string& path, const std::string& text, bool secret) {
  FILE* file = fopen(path.c_str(), "wx");
  if (file == nullptr) {
    return absl::InternalError(absl::StrCat("cannot write ", path, ": ", strerror(errno)));
  }
  if (secret) fchmod(fileno(file), 0600);
  bool ok = fwrite(text.data(), 1, text.size(), file) == text.size();
  ok = fclose(file) == 0 && ok;
  if (!ok) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace shoal::tls
