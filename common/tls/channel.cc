#include "common/tls/channel.h"

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <climits>
#include <utility>

#include "common/tls/openssl_util.h"

namespace shoal::tls {

Channel::Channel(SSL_CTX* ctx, Side side, const std::string& peer_host)
    : ssl_(SSL_new(ctx)), in_(BIO_new(BIO_s_mem())), out_(BIO_new(BIO_s_mem())) {
  // Reading an empty memory BIO is "retry later", not end of file.
  BIO_set_mem_eof_return(in_, -1);
  BIO_set_mem_eof_return(out_, -1);
  SSL_set_bio(ssl_, in_, out_);
  if (side == Side::kServer) {
    SSL_set_accept_state(ssl_);
    return;
  }
  SSL_set_connect_state(ssl_);
  if (!peer_host.empty()) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
    // An address is matched against the certificate's IP entries, a name against its DNS ones.
    if (X509_VERIFY_PARAM_set1_ip_asc(param, peer_host.c_str()) != 1) {
      SSL_set1_host(ssl_, peer_host.c_str());
      SSL_set_tlsext_host_name(ssl_, peer_host.c_str());
    }
  }
  ERR_clear_error();
  SSL_do_handshake(ssl_);  // the ClientHello, into out_; the rest comes with Read()
}

Channel::~Channel() { SSL_free(ssl_); }

void Channel::Feed(absl::string_view bytes) {
  while (!bytes.empty()) {
    int chunk = static_cast<int>(std::min<size_t>(bytes.size(), INT_MAX));
    int written = BIO_write(in_, bytes.data(), chunk);
    if (written <= 0) return;  // only when out of memory
    bytes.remove_prefix(static_cast<size_t>(written));
  }
}

absl::StatusOr<size_t> Channel::Read(char* buffer, size_t capacity) {
  ERR_clear_error();
  int n = SSL_read(ssl_, buffer, static_cast<int>(std::min<size_t>(capacity, INT_MAX)));
  // Asked before anything else runs on ssl_: the answer is about the last call.
  const int error = n > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl_, n);
  if (!early_.empty() && established()) {
    if (absl::Status written = Write(std::exchange(early_, {})); !written.ok()) return written;
  }
  if (n > 0) return static_cast<size_t>(n);
  switch (error) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:
      return 0;
    case SSL_ERROR_ZERO_RETURN:
      return absl::CancelledError("the peer closed the TLS session");
    default:
      return OpenSslError(established() ? "TLS read" : "TLS handshake");
  }
}

absl::Status Channel::Write(absl::string_view plain) {
  if (!established()) {
    early_.append(plain.data(), plain.size());
    return absl::OkStatus();
  }
  while (!plain.empty()) {
    ERR_clear_error();
    int chunk = static_cast<int>(std::min<size_t>(plain.size(), INT_MAX));
    int n = SSL_write(ssl_, plain.data(), chunk);
    if (n <= 0) return OpenSslError("TLS write");
    plain.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

std::string& Channel::output() {
  // Read out rather than BIO_reset(): a reset zeroes the memory BIO's whole buffer, as large as
  // the largest write ever made — a memset per statement.
  const size_t pending = BIO_ctrl_pending(out_);
  if (pending > 0) {
    const size_t start = output_.size();
    output_.resize(start + pending);
    int n = BIO_read(out_, output_.data() + start,
                     static_cast<int>(std::min<size_t>(pending, INT_MAX)));
    output_.resize(start + static_cast<size_t>(std::max(n, 0)));
  }
  return output_;
}

std::string Channel::version() const { return SSL_get_version(ssl_); }

std::string Channel::cipher() const {
  const char* name = SSL_get_cipher_name(ssl_);
  return name == nullptr ? "" : name;
}

bool Channel::peer_verified() const {
  X509* peer = SSL_get0_peer_certificate(ssl_);
  return peer != nullptr && SSL_get_verify_result(ssl_) == X509_V_OK;
}

std::string Channel::peer_subject() const {
  if (!peer_verified()) return "";
  return OneLineName(X509_get_subject_name(SSL_get0_peer_certificate(ssl_)));
}

std::string Channel::peer_issuer() const {
  if (!peer_verified()) return "";
  return OneLineName(X509_get_issuer_name(SSL_get0_peer_certificate(ssl_)));
}

}  // namespace shoal::tls
