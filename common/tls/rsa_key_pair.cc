#include "common/tls/rsa_key_pair.h"

#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace shoal::tls {
namespace {

constexpr int kRsaBits = 2048;  // mysqld's

struct PkeyCtxFree {
  void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};

absl::StatusOr<std::string> PublicKeyPem(EVP_PKEY* key) {
  UniqueBio bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || PEM_write_bio_PUBKEY(bio.get(), key) != 1) {
    return OpenSslError("writing a public key");
  }
  return MemoryBioText(bio.get());
}

// Writes `text` to `path` (mode 0600) only if no file is there: written to a file of its own,
// then linked into place, so that of routers starting at once one key wins.
absl::Status WriteOnce(const std::string& path, const std::string& text) {
  std::string temporary = absl::StrCat(path, ".new-XXXXXX");
  int fd = mkstemp(temporary.data());
  if (fd < 0)
    return absl::InternalError(absl::StrCat("cannot write ", path, ": ", strerror(errno)));
  bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  written = close(fd) == 0 && written;
  int linked = written ? link(temporary.c_str(), path.c_str()) : -1;
  int link_error = errno;
  unlink(temporary.c_str());
  if (!written) return absl::InternalError(absl::StrCat("cannot write ", path));
  if (linked != 0 && link_error != EEXIST) {
    return absl::InternalError(absl::StrCat("cannot write ", path, ": ", strerror(link_error)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<RsaKeyPair>> RsaKeyPair::LoadOrMake(const std::string& dir) {
  auto pair = std::make_unique<RsaKeyPair>();
  std::string private_path = absl::StrCat(dir, "/private_key.pem");
  std::error_code error;
  if (!dir.empty() && std::filesystem::exists(private_path, error)) {
    absl::StatusOr<std::string> text = ReadPemFile(private_path);
    if (!text.ok()) return text.status();
    absl::StatusOr<UniquePkey> key = ParsePrivateKey(*text);
    if (!key.ok()) return key.status();
    pair->key_ = std::move(*key);
  } else {
    pair->key_.reset(EVP_RSA_gen(kRsaBits));
    if (pair->key_ == nullptr) return OpenSslError("RSA key generation");
    if (!dir.empty()) {
      std::filesystem::create_directories(dir, error);
      absl::StatusOr<std::string> pem = PrivateKeyPem(pair->key_.get());
      if (!pem.ok()) return pem.status();
      if (absl::Status written = WriteOnce(private_path, *pem); !written.ok()) return written;
      return LoadOrMake(dir);  // the key that won, if another router wrote one first
    }
  }
  if (EVP_PKEY_get_base_id(pair->key_.get()) != EVP_PKEY_RSA) {
    return absl::InvalidArgumentError(absl::StrCat(private_path, " is not an RSA key"));
  }
  absl::StatusOr<std::string> public_pem = PublicKeyPem(pair->key_.get());
  if (!public_pem.ok()) return public_pem.status();
  pair->public_pem_ = std::move(*public_pem);
  if (!dir.empty()) {
    // For clients given the key beforehand (--server-public-key-path); derived, so rewritten.
    std::ofstream(absl::StrCat(dir, "/public_key.pem"), std::ios::trunc) << pair->public_pem_;
  }
  return pair;
}

absl::StatusOr<std::string> RsaKeyPair::Decrypt(absl::string_view ciphertext) const {
  std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new(key_.get(), nullptr));
  if (ctx == nullptr || EVP_PKEY_decrypt_init(ctx.get()) != 1 ||
      EVP_PKEY_CTX_set_rsa_padding(ctx.get(), RSA_PKCS1_OAEP_PADDING) != 1) {
    return OpenSslError("RSA decryption");
  }
  const auto* in = reinterpret_cast<const unsigned char*>(ciphertext.data());
  size_t size = 0;
  if (EVP_PKEY_decrypt(ctx.get(), nullptr, &size, in, ciphertext.size()) != 1) {
    return OpenSslError("RSA decryption");
  }
  std::string plain(size, '\0');
  if (EVP_PKEY_decrypt(ctx.get(), reinterpret_cast<unsigned char*>(plain.data()), &size, in,
                       ciphertext.size()) != 1) {
    return OpenSslError("RSA decryption");
  }
  plain.resize(size);
  return plain;
}

}  // namespace shoal::tls
