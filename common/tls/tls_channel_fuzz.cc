// Fuzzes the TLS records a Channel takes before its peer proved anything: what a MySQL client
// sends after its SSLRequest to a router, or — with the seed's top bit set — what a peer answers
// a cluster member that connected to it (the connecting end of a link, common/tls/link_context.h).
// Whatever arrives, in whatever pieces, the channel never crashes: it reads plaintext, waits
// for more, or fails with an error the connection closes on.
//
// Input: int<1> split seed (bit 7: the connecting end of a link) | bytes from the peer.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "common/tls/channel.h"
#include "common/tls/credentials.h"
#include "common/tls/link_context.h"
#include "common/tls/server_context.h"

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

const shoal::tls::LinkContext& Link() {
  static const auto* context = [] {
    char dir[] = "/tmp/shoal-fuzz-link-XXXXXX";
    if (mkdtemp(dir) == nullptr) abort();
    auto made = shoal::tls::LoadOrMakeLocalSet(std::string(dir) + "/set", {});
    if (!made.ok()) abort();
    std::filesystem::remove_all(dir);
    return made->release();
  }();
  return *context;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t split_seed = data[0];
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  std::unique_ptr<shoal::tls::Channel> link;
  if (split_seed & 0x80) link = Link().NewClientChannel("127.0.0.1");
  shoal::tls::Channel router_side(Context().get());
  shoal::tls::Channel& channel = link != nullptr ? *link : router_side;
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
