// Fuzzes what a client sends after its SSLRequest: the TLS records a router's Channel takes
// before any authentication. Whatever arrives, in whatever pieces, the channel never crashes:
// it reads plaintext, waits for more, or fails with an error the connection closes on.
//
// Input: int<1> split seed | bytes from the client.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "router/tls/channel.h"
#include "router/tls/credentials.h"
#include "router/tls/server_context.h"

namespace {

const shoal::tls::ServerContext& Context() {
  static const auto* context = [] {
    auto made = shoal::tls::MakeCredentials({"localhost"});
    if (!made.ok()) abort();
    shoal::tls::Credentials credentials;
    credentials.ca_pem = made->ca_pem;
    credentials.cert_pem = made->server_cert_pem;
    credentials.key_pem = made->server_key_pem;
    auto created = shoal::tls::ServerContext::Create(credentials);
    if (!created.ok()) abort();
    return created->release();
  }();
  return *context;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t split_seed = data[0];
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  shoal::tls::Channel channel(Context().get());
  char plain[4096];
  size_t at = 0;
  uint32_t state = split_seed;
  while (at < bytes.size()) {
    state = state * 1103515245u + 12345u;
    size_t piece = std::min<size_t>(bytes.size() - at, 1 + (state >> 16) % 512);
    channel.Feed(absl::string_view(bytes).substr(at, piece));
    at += piece;
    for (;;) {
      absl::StatusOr<size_t> n = channel.Read(plain, sizeof(plain));
      if (!n.ok()) return 0;
      if (*n == 0) break;
      if (*n > sizeof(plain)) abort();
    }
    channel.output().clear();
    if (channel.established() && !channel.Write("reply").ok()) return 0;
  }
  return 0;
}
