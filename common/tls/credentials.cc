#include "common/tls/credentials.h"

#include <openssl/x509v3.h>

#include <filesystem>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/tls/openssl_util.h"
#include "common/tls/signing.h"

namespace shoal::tls {
namespace {

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
  absl::Status written = MakeDirectoryOnce(dir, [&](const std::string& made_dir) {
    absl::StatusOr<MadeCredentials> made = MakeCredentials(names);
    if (!made.ok()) return made.status();
    for (const FileName& file : kFiles) {
      absl::Status s =
          WriteNewFile(absl::StrCat(made_dir, "/", file.name), (*made).*file.pem, file.secret);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  });
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
  absl::StatusOr<SignedKey> ca =
      Sign(absl::StrCat(prefix, "CA_Certificate"), nullptr, CaExtensions());
  if (!ca.ok()) return ca.status();
  Extensions server_extensions = LeafExtensions();
  server_extensions.emplace_back(NID_ext_key_usage, "serverAuth");
  std::string alt_names = SubjectAltNames(names);
  if (!alt_names.empty()) server_extensions.emplace_back(NID_subject_alt_name, alt_names);
  absl::StatusOr<SignedKey> server =
      Sign(absl::StrCat(prefix, "Server_Certificate"), &*ca, server_extensions);
  if (!server.ok()) return server.status();
  Extensions client_extensions = LeafExtensions();
  client_extensions.emplace_back(NID_ext_key_usage, "clientAuth");
  absl::StatusOr<SignedKey> client =
      Sign(absl::StrCat(prefix, "Client_Certificate"), &*ca, client_extensions);
  if (!client.ok()) return client.status();
  MadeCredentials made;
  for (auto [signed_key, cert_pem, key_pem] :
       {std::tuple{&*ca, &made.ca_pem, &made.ca_key_pem},
        std::tuple{&*server, &made.server_cert_pem, &made.server_key_pem},
        std::tuple{&*client, &made.client_cert_pem, &made.client_key_pem}}) {
    absl::StatusOr<PemPair> pem = ToPem(*signed_key);
    if (!pem.ok()) return pem.status();
    *cert_pem = std::move(pem->cert_pem);
    *key_pem = std::move(pem->key_pem);
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
