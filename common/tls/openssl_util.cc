#include "common/tls/openssl_util.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace shoal::tls {
namespace {

UniqueBio ReadBio(absl::string_view pem) {
  return UniqueBio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

}  // namespace

std::string TakeOpenSslErrors() {
  std::string reasons;
  while (unsigned long code = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(code, text, sizeof(text));
    absl::StrAppend(&reasons, reasons.empty() ? "" : "; ", text);
  }
  return reasons;
}

absl::Status OpenSslError(absl::string_view what) {
  std::string reasons = TakeOpenSslErrors();
  return absl::InternalError(absl::StrCat(what, " failed", reasons.empty() ? "" : ": ", reasons));
}

absl::StatusOr<std::string> ReadPemFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<std::string> CertificatePem(X509* cert) {
  UniqueBio bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || PEM_write_bio_X509(bio.get(), cert) != 1) {
    return OpenSslError("writing a certificate");
  }
  return MemoryBioText(bio.get());
}

absl::StatusOr<std::string> PrivateKeyPem(EVP_PKEY* key) {
  UniqueBio bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr ||
      PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return OpenSslError("writing a key");
  }
  return MemoryBioText(bio.get());
}

absl::StatusOr<std::vector<UniqueX509>> ParseCertificates(absl::string_view pem) {
  UniqueBio bio = ReadBio(pem);
  std::vector<UniqueX509> certs;
  while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
    certs.emplace_back(cert);
  }
  ERR_clear_error();  // the end of the text reads as an error
  if (certs.empty()) return absl::InvalidArgumentError("no PEM certificate");
  return certs;
}

absl::StatusOr<UniquePkey> ParsePrivateKey(absl::string_view pem) {
  UniqueBio bio = ReadBio(pem);
  UniquePkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  if (key == nullptr) return OpenSslError("reading a PEM private key");
  return key;
}

std::string OneLineName(const X509_NAME* name) {
  if (name == nullptr) return "";
  char* text = X509_NAME_oneline(name, nullptr, 0);
  if (text == nullptr) return "";
  std::string line(text);
  OPENSSL_free(text);
  return line;
}

std::string MemoryBioText(BIO* bio) {
  char* data = nullptr;
  long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

}  // namespace shoal::tls
