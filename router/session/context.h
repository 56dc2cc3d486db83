// RouterContext: what every session of a router process shares — users, server identity,
// limits, metrics. Built once at start-up and immutable after; safe to read from any worker.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "common/metrics.h"
#include "engine/api/cluster.h"
#include "protocol/sha.h"
#include "router/sql/exec/executor.h"

namespace shoal::router {

// A MySQL account. Passwords are kept only as the hashes the two auth plugins verify against
// (an empty password as the hashes of the empty string).
struct UserAccount {
  std::string name;
  bool has_password = false;
  mysql::Sha1Digest native_hash{};    // SHA1(SHA1(password))
  mysql::Sha256Digest sha256_hash{};  // SHA256(SHA256(password))
};

using Accounts = absl::flat_hash_map<std::string, UserAccount>;  // by name

enum class Transport { kUnixSocket, kTcp };

struct RouterContext {
  sql::ServerInfo server;
  Accounts users;
  uint32_t max_allowed_packet = 64 << 20;
  MetricsRegistry* metrics = nullptr;
  // The data nodes; null in tests of the protocol alone (table statements then fail).
  api::Cluster* cluster = nullptr;
};

}  // namespace shoal::router
