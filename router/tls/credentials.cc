#include "router/tls/credentials.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "router/tls/openssl_util.h"

namespace shoal::tls {
namespace {

// ECDSA keys: made in microseconds where RSA-2048 takes a tenth of a second, and a TLS handshake
// signs with one in a fraction of the time (every client of OpenSSL, GnuTLS, Java, Go and
// Python takes them).
constexpr char kCurve[] = "P-256";
constexpr long kValidSeconds = 10L * 365 * 24 * 3600;  // as mysqld's: ten years

struct FileName {
  const char* name;
  std::string MadeCredentials::*pem;
  bool secret;
};
constexpr FileName kFiles[] = {
    {"ca.pem", &MadeCredentials::ca_pem, false},
    {"ca-key.pem", &MadeCredentials::ca_key_pem, true},
    {"server-cert.pem", &MadeCredentials::server_cert_pem, false},
    {"server-key.pem", &MadeCredentials::server_key_pem, true},
    {"client-cert.pem", &MadeCredentials::client_cert_pem, false},
    {"client-key.pem", &MadeCredentials::client_key_pem, true},
};

absl::Status WriteFile(const std::string& path, const std::string& text, bool secret) {
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

// Adds an extension written as in openssl.cnf ("critical,CA:TRUE").
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

struct Signed {
  UniquePkey key;
  UniqueX509 cert;
};

// A new key and a certificate for it named `common_name`, signed by `issuer` (self-signed
// when null) with the extensions in `extensions` (nid, value).
absl::StatusOr<Signed> Sign(const std::string& common_name, const Signed* issuer,
                            const std::vector<std::pair<int, std::string>>& extensions) {
  Signed made;
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

absl::StatusOr<Credentials> ReadDir(const std::string& dir) {
  Credentials credentials;
  credentials.ca_file = absl::StrCat(dir, "/ca.pem");
  credentials.cert_file = absl::StrCat(dir, "/server-cert.pem");
  credentials.key_file = absl::StrCat(dir, "/server-key.pem");
  for (auto [file, pem] : {std::pair{&credentials.ca_file, &credentials.ca_pem},
                           std::pair{&credentials.cert_file, &credentials.cert_pem},
                           std::pair{&credentials.key_file, &credentials.key_pem}}) {
    absl::StatusOr<std::string> text = ReadPemFile(*file);
    if (!text.ok()) return text.status();
    *pem = std::move(*text);
  }
  return credentials;
}

// Makes the set in a directory of its own beside `dir`, then renames it into place: of
// routers starting at once on one host, one set wins and every router reads that one.
absl::StatusOr<Credentials> MakeDir(const std::string& dir, const std::vector<std::string>& names) {
  std::error_code error;
  std::filesystem::path parent = std::filesystem::path(dir).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, error);
  std::string pattern = absl::StrCat(dir, ".new-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot make ", pattern, ": ", strerror(errno)));
  }
  absl::StatusOr<MadeCredentials> made = MakeCredentials(names);
  absl::Status written = made.status();
  for (const FileName& file : kFiles) {
    if (!written.ok()) break;
    written = WriteFile(absl::StrCat(pattern, "/", file.name), (*made).*file.pem, file.secret);
  }
  // rename() replaces an empty directory and fails on one with files: another router's set.
  if (written.ok() && rename(pattern.c_str(), dir.c_str()) == 0) return ReadDir(dir);
  std::filesystem::remove_all(pattern, error);
  if (!written.ok()) return written;
  absl::StatusOr<Credentials> theirs = ReadDir(dir);
  if (!theirs.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "ssl_dir ", dir, " holds files but no certificate set (", theirs.status().message(),
        "): empty it to have one made there, or give ssl_cert and ssl_key"));
  }
  return theirs;
}

}  // namespace

absl::StatusOr<MadeCredentials> MakeCredentials(const std::vector<std::string>& names) {
  const std::string prefix = "Shoal_Router_Auto_Generated_";
  absl::StatusOr<Signed> ca = Sign(absl::StrCat(prefix, "CA_Certificate"), nullptr,
                                   {{NID_basic_constraints, "critical,CA:TRUE"},
                                    {NID_key_usage, "critical,keyCertSign,cRLSign"},
                                    {NID_subject_key_identifier, "hash"},
                                    {NID_authority_key_identifier, "keyid:always"}});
  if (!ca.ok()) return ca.status();
  std::vector<std::pair<int, std::string>> leaf = {{NID_basic_constraints, "critical,CA:FALSE"},
                                                   {NID_key_usage, "critical,digitalSignature"},
                                                   {NID_subject_key_identifier, "hash"},
                                                   {NID_authority_key_identifier, "keyid:always"}};
  std::vector<std::pair<int, std::string>> server_extensions = leaf;
  server_extensions.emplace_back(NID_ext_key_usage, "serverAuth");
  std::string alt_names = SubjectAltNames(names);
  if (!alt_names.empty()) server_extensions.emplace_back(NID_subject_alt_name, alt_names);
  absl::StatusOr<Signed> server =
      Sign(absl::StrCat(prefix, "Server_Certificate"), &*ca, server_extensions);
  if (!server.ok()) return server.status();
  std::vector<std::pair<int, std::string>> client_extensions = leaf;
  client_extensions.emplace_back(NID_ext_key_usage, "clientAuth");
  absl::StatusOr<Signed> client =
      Sign(absl::StrCat(prefix, "Client_Certificate"), &*ca, client_extensions);
  if (!client.ok()) return client.status();
  MadeCredentials made;
  for (auto [signed_pair, cert_pem, key_pem] :
       {std::tuple{&*ca, &made.ca_pem, &made.ca_key_pem},
        std::tuple{&*server, &made.server_cert_pem, &made.server_key_pem},
        std::tuple{&*client, &made.client_cert_pem, &made.client_key_pem}}) {
    absl::StatusOr<std::string> cert = CertificatePem(signed_pair->cert.get());
    absl::StatusOr<std::string> key = PrivateKeyPem(signed_pair->key.get());
    if (!cert.ok()) return cert.status();
    if (!key.ok()) return key.status();
    *cert_pem = std::move(*cert);
    *key_pem = std::move(*key);
  }
  return made;
}

absl::StatusOr<Credentials> LoadOrMakeCredentials(const CredentialOptions& options) {
  if (!options.cert_file.empty()) {
    Credentials credentials;
    credentials.cert_file = options.cert_file;
    credentials.key_file = options.key_file;
    credentials.ca_file = options.ca_file;
    for (auto [file, pem] : {std::pair{&credentials.ca_file, &credentials.ca_pem},
                             std::pair{&credentials.cert_file, &credentials.cert_pem},
                             std::pair{&credentials.key_file, &credentials.key_pem}}) {
      if (file->empty()) continue;
      absl::StatusOr<std::string> text = ReadPemFile(*file);
      if (!text.ok()) return text.status();
      *pem = std::move(*text);
    }
    return credentials;
  }
  if (!options.dir.empty()) {
    std::error_code error;
    if (std::filesystem::exists(absl::StrCat(options.dir, "/server-cert.pem"), error)) {
      return ReadDir(options.dir);
    }
    return MakeDir(options.dir, options.names);
  }
  absl::StatusOr<MadeCredentials> made = MakeCredentials(options.names);
  if (!made.ok()) return made.status();
  Credentials credentials;
  credentials.ca_pem = std::move(made->ca_pem);
  credentials.cert_pem = std::move(made->server_cert_pem);
  credentials.key_pem = std::move(made->server_key_pem);
  return credentials;
}

}  // namespace shoal::tls
