// RouterContext: what every session of a router process shares — server identity (with the
// configuration's accounts), limits, metrics. Built once at start-up and immutable after; safe to
// read from any worker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/metrics.h"
#include "common/tls/rsa_key_pair.h"
#include "common/tls/server_context.h"
#include "engine/api/cluster.h"
#include "router/access/login_failures.h"
#include "router/access/sha2_cache.h"
#include "router/sql/exec/executor.h"

namespace shoal::router {

enum class Transport { kUnixSocket, kTcp };

struct RouterContext {
  sql::ServerInfo server;
  uint32_t max_allowed_packet = 64 << 20;
  MetricsRegistry* metrics = nullptr;
  // The data nodes; null in tests of the protocol alone (table statements then fail).
  api::Cluster* cluster = nullptr;
  // Failed logins counted for FAILED_LOGIN_ATTEMPTS, shared by the router's workers.
  std::shared_ptr<access::LoginFailures> login_failures = std::make_shared<access::LoginFailures>();
  // TLS for clients; null when the router offers none (no CLIENT_SSL in the greeting).
  std::shared_ptr<const tls::ServerContext> tls;
  // caching_sha2_password's full authentication: the RSA key a client without TLS encrypts its
  // password with (null: such clients are refused), and the digests learned from it.
  std::shared_ptr<const tls::RsaKeyPair> rsa;
  std::shared_ptr<access::Sha2Cache> sha2_cache = std::make_shared<access::Sha2Cache>();
};

}  // namespace shoal::router
