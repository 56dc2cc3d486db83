// Channel: TLS on one connection, over memory rather than the socket. The connection
// keeps its own recv()/send() loop and hands the channel what arrived (Feed) and takes what is
// to be sent (output()); the channel decrypts into the connection's input buffer (Read) and
// encrypts the session's replies (Write). So a connection that switches to TLS after the
// client's SSLRequest keeps the bytes that followed it in the same read — the start of the
// TLS handshake — and one statement still costs one recv() and one send().
//
// Used on one thread (its connection's worker).
#pragma once

#include <openssl/ssl.h>

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::tls {

class Channel {
 public:
  enum class Side { kServer, kClient };
  // A channel of `ctx` (which must outlive it). A client starts the handshake at once (its
  // first flight waits in output()) and, when `peer_host` is not empty, accepts only a
  // certificate that names it (a DNS name or an IP address in its subjectAltName).
  explicit Channel(SSL_CTX* ctx, Side side = Side::kServer, const std::string& peer_host = "");
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Bytes from the peer.
  void Feed(absl::string_view bytes);
  // Decrypts what was fed into `buffer` (at most `capacity` bytes): how many, 0 when more must
  // be fed. Drives the handshake as well. An error (a failed handshake, a bad record, the
  // peer's close_notify) ends the connection; output() may then hold an alert to send first.
  absl::StatusOr<size_t> Read(char* buffer, size_t capacity);
  // Encrypts `plain` onto output(); before the handshake has finished, keeps it and encrypts
  // it once it has (in the Read() that finishes it).
  absl::Status Write(absl::string_view plain);
  // Bytes to send to the peer (the owner sends them and erases what it sent); moved out of
  // the channel's memory by each call.
  std::string& output();
  // How many bytes output() would hold now.
  size_t pending_output() const { return output_.size() + BIO_ctrl_pending(out_); }

  bool established() const { return SSL_is_init_finished(ssl_) == 1; }
  // Once established: "TLSv1.3", "TLS_AES_256_GCM_SHA384" — as Ssl_version and Ssl_cipher.
  std::string version() const;
  std::string cipher() const;
  // The client's certificate, if it gave one that the CA verified: its subject and issuer as
  // MySQL compares them ("/CN=…"); empty when none.
  bool peer_verified() const;
  std::string peer_subject() const;
  std::string peer_issuer() const;

 private:
  SSL* ssl_;
  BIO* in_;   // owned by ssl_
  BIO* out_;  // owned by ssl_
  std::string output_;
  std::string early_;  // written before the handshake finished
};

}  // namespace shoal::tls
