#include "common/tls/link_context.h"

#include <openssl/x509v3.h>
#include <unistd.h>

#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/tls/signing.h"

namespace shoal::tls {
namespace {

// Links between processes of one cluster resume nothing across processes; the context only
// needs one name for its sessions.
constexpr unsigned char kLinkSessionIdContext[] = "shoal-link";

// Every node certificate names these too: a process reaches the mgmd that launched it, and
// its peers on the same host, over loopback.
constexpr const char* kLoopbackNames[] = {"localhost", "127.0.0.1", "::1"};

std::string PathIn(const std::string& dir, const char* file) {
  return absl::StrCat(dir, "/", file);
}

// A node certificate: for both ends of a link (serverAuth and clientAuth), naming `names`.
absl::StatusOr<PemPair> NodeCertificate(const SignedKey& ca, const std::string& common_name,
                                        const std::vector<std::string>& names) {
  Extensions extensions = LeafExtensions();
  extensions.emplace_back(NID_ext_key_usage, "serverAuth,clientAuth");
  std::string alt_names = SubjectAltNames(names);
  if (!alt_names.empty()) extensions.emplace_back(NID_subject_alt_name, alt_names);
  absl::StatusOr<SignedKey> node = Sign(common_name, &ca, extensions);
  if (!node.ok()) return node.status();
  return ToPem(*node);
}

absl::Status WriteSet(const std::string& dir, const std::string& ca_pem, const PemPair& node) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot make ", dir, ": ", error.message()));
  if (absl::Status s = WriteNewFile(PathIn(dir, kLinkCaFile), ca_pem, false); !s.ok()) return s;
  if (absl::Status s = WriteNewFile(PathIn(dir, kLinkCertFile), node.cert_pem, false); !s.ok()) {
    return s;
  }
  return WriteNewFile(PathIn(dir, kLinkKeyFile), node.key_pem, true);
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

// A new CA and one node certificate naming `names`, as a set in `dir`.
absl::Status WriteLocalSet(const std::string& dir, const std::vector<std::string>& names) {
  absl::StatusOr<SignedKey> ca = Sign("Shoal_Cluster_CA", nullptr, CaExtensions());
  if (!ca.ok()) return ca.status();
  absl::StatusOr<PemPair> ca_pem = ToPem(*ca);
  if (!ca_pem.ok()) return ca_pem.status();
  absl::StatusOr<PemPair> node = NodeCertificate(*ca, "Shoal_Node", names);
  if (!node.ok()) return node.status();
  return WriteSet(dir, ca_pem->cert_pem, *node);
}

}  // namespace

absl::StatusOr<std::unique_ptr<LinkContext>> LinkContext::LoadIfPresent(const std::string& dir) {
  if (dir.empty()) return nullptr;
  absl::StatusOr<std::unique_ptr<LinkContext>> loaded = Load(dir);
  if (absl::IsNotFound(loaded.status())) return nullptr;
  return loaded;
}

absl::StatusOr<std::unique_ptr<LinkContext>> LinkContext::Load(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::exists(PathIn(dir, kLinkCertFile), error)) {
    return absl::NotFoundError(absl::StrCat("no ", kLinkCertFile, " in ", dir));
  }
  std::string pems[3];
  const char* files[3] = {kLinkCaFile, kLinkCertFile, kLinkKeyFile};
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<std::string> text = ReadPemFile(PathIn(dir, files[i]));
    if (!text.ok()) return text.status();
    pems[i] = std::move(*text);
  }
  absl::StatusOr<std::unique_ptr<LinkContext>> context = FromPem(pems[0], pems[1], pems[2]);
  if (!context.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the TLS set in ", dir, ": ", context.status().message()));
  }
  (*context)->dir_ = dir;
  return context;
}

absl::StatusOr<std::unique_ptr<LinkContext>> LinkContext::FromPem(const std::string& ca_pem,
                                                                  const std::string& cert_pem,
                                                                  const std::string& key_pem) {
  auto context = std::unique_ptr<LinkContext>(new LinkContext());
  context->ctx_.reset(SSL_CTX_new(TLS_method()));
  SSL_CTX* ctx = context->ctx_.get();
  if (ctx == nullptr || SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) != 1) {
    return OpenSslError("SSL_CTX_new");
  }
  absl::StatusOr<std::vector<UniqueX509>> chain = ParseCertificates(cert_pem);
  if (!chain.ok())
    return absl::InvalidArgumentError(absl::StrCat(kLinkCertFile, ": ", chain.status().message()));
  absl::StatusOr<UniquePkey> key = ParsePrivateKey(key_pem);
  if (!key.ok())
    return absl::InvalidArgumentError(absl::StrCat(kLinkKeyFile, ": ", key.status().message()));
  absl::StatusOr<std::vector<UniqueX509>> cas = ParseCertificates(ca_pem);
  if (!cas.ok())
    return absl::InvalidArgumentError(absl::StrCat(kLinkCaFile, ": ", cas.status().message()));
  if (SSL_CTX_use_certificate(ctx, (*chain)[0].get()) != 1) return OpenSslError(kLinkCertFile);
  for (size_t i = 1; i < chain->size(); ++i) {
    if (SSL_CTX_add1_chain_cert(ctx, (*chain)[i].get()) != 1) return OpenSslError(kLinkCertFile);
  }
  if (SSL_CTX_use_PrivateKey(ctx, key->get()) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
    return OpenSslError(absl::StrCat(kLinkKeyFile, " with ", kLinkCertFile));
  }
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  for (const UniqueX509& ca : *cas) {
    if (X509_STORE_add_cert(store, ca.get()) != 1) return OpenSslError(kLinkCaFile);
  }
  // Both ends prove they belong to the cluster.
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  SSL_CTX_set_session_id_context(ctx, kLinkSessionIdContext, sizeof(kLinkSessionIdContext) - 1);
  SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  return context;
}

std::unique_ptr<Channel> LinkContext::NewServerChannel() const {
  return std::make_unique<Channel>(ctx_.get(), Channel::Side::kServer);
}

std::unique_ptr<Channel> LinkContext::NewClientChannel(const std::string& host) const {
  return std::make_unique<Channel>(ctx_.get(), Channel::Side::kClient, host);
}

absl::Status MakeClusterCertificates(const std::string& dir,
                                     const std::vector<std::string>& hosts) {
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_empty(dir, error)) {
    return absl::FailedPreconditionError(
        absl::StrCat(dir, " is not empty: the cluster's certificates are made in a new directory"));
  }
  absl::StatusOr<SignedKey> ca = Sign("Shoal_Cluster_CA", nullptr, CaExtensions());
  if (!ca.ok()) return ca.status();
  absl::StatusOr<PemPair> ca_pem = ToPem(*ca);
  if (!ca_pem.ok()) return ca_pem.status();
  std::filesystem::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot make ", dir, ": ", error.message()));
  if (absl::Status s = WriteNewFile(PathIn(dir, "ca.pem"), ca_pem->cert_pem, false); !s.ok()) {
    return s;
  }
  if (absl::Status s = WriteNewFile(PathIn(dir, "ca-key.pem"), ca_pem->key_pem, true); !s.ok()) {
    return s;
  }
  for (const std::string& host : hosts) {
    std::vector<std::string> names = {host};
    names.insert(names.end(), std::begin(kLoopbackNames), std::end(kLoopbackNames));
    absl::StatusOr<PemPair> node = NodeCertificate(*ca, absl::StrCat("Shoal_Node_", host), names);
    if (!node.ok()) return node.status();
    if (absl::Status s = WriteSet(absl::StrCat(dir, "/", host), ca_pem->cert_pem, *node); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<LinkContext>> LoadOrMakeLocalSet(
    const std::string& dir, const std::vector<std::string>& names) {
  absl::StatusOr<std::unique_ptr<LinkContext>> loaded = LinkContext::Load(dir);
  if (!absl::IsNotFound(loaded.status())) return loaded;
  std::vector<std::string> all = names;
  all.insert(all.end(), std::begin(kLoopbackNames), std::end(kLoopbackNames));
  all.push_back(HostName());
  absl::Status written =
      MakeDirectoryOnce(dir, [&](const std::string& made) { return WriteLocalSet(made, all); });
  if (!written.ok()) return written;
  return LinkContext::Load(dir);
}

}  // namespace shoal::tls
