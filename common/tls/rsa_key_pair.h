// RsaKeyPair: the key with which caching_sha2_password's full authentication takes a password
// over a connection without TLS (the client asks for the public key, then sends the password
// XORed with the scramble and RSA-OAEP encrypted). Kept, as mysqld's
// caching_sha2_password_auto_generate_rsa_keys does, as private_key.pem and public_key.pem in
// a directory (the router's ssl_dir) — made there once — or made in memory for one run.
// Immutable once made; shared by every worker.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/tls/openssl_util.h"

namespace shoal::tls {

class RsaKeyPair {
 public:
  // From `dir`/private_key.pem, made there first if missing; `dir` empty: in memory.
  static absl::StatusOr<std::unique_ptr<RsaKeyPair>> LoadOrMake(const std::string& dir);

  // PEM text of the public key, as the server sends it to a client that asks.
  const std::string& public_pem() const { return public_pem_; }
  // Decrypts what a client encrypted with the public key (RSA-OAEP).
  absl::StatusOr<std::string> Decrypt(absl::string_view ciphertext) const;

 private:
  UniquePkey key_;
  std::string public_pem_;
};

}  // namespace shoal::tls
