// MySQL accounts ('user'@'host') in the dictionary's AccessControl: which account a client
// logs in as, finding one by name, and how names are written.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/config/config.h"
#include "engine/wire/dictionary.pb.h"

namespace shoal::access {

// Where a client connects from, as an account's host part matches it.
struct ClientHost {
  std::string address;  // its IP address, or "localhost" over a Unix socket
  // A Unix socket or a loopback address: the host 'localhost' matches it (MySQL resolves
  // 127.0.0.1 to localhost).
  bool local = false;
};
// `peer` as a router's session knows it: "localhost" for a Unix socket, else the address.
ClientHost ClientHostOf(absl::string_view peer);

// Whether an account's host part matches `client`: 'localhost' matches local clients, any
// other part is a LIKE pattern ('%', '_') over the address, case-insensitive.
bool HostMatches(absl::string_view pattern, const ClientHost& client);

// The account a login as `user` from `client` is checked against: of those named `user`
// whose host matches, the one MySQL picks — literal hosts before patterns, and of patterns
// the one whose first wildcard comes latest ('10.0.%' before '%'). Null when none matches.
const wire::Account* MatchAccount(const wire::AccessControl& access, absl::string_view user,
                                  const ClientHost& client);

// The account named exactly `user`@`host` (host compared case-insensitively), or null.
const wire::Account* FindAccount(const wire::AccessControl& access, absl::string_view user,
                                 absl::string_view host);
wire::Account* FindAccount(wire::AccessControl* access, absl::string_view user,
                           absl::string_view host);

// 'user'@'host', as error messages quote an account.
std::string QuoteAccount(absl::string_view user, absl::string_view host);
// `user`@`host`, as SHOW GRANTS and SHOW CREATE USER write it.
std::string BacktickAccount(absl::string_view user, absl::string_view host);

// The account's password hash as mysql.user's authentication_string and SHOW CREATE USER's
// AS '…' give it: "*…" for mysql_native_password, "$A$005$…" for caching_sha2_password
// (empty for an account without a password, or seeded from the configuration with a SHA-256
// hash alone).
std::string StoredHash(const wire::Account& account);

// The accounts of a cluster whose accounts were never changed: each of the configuration's
// `users:` with every privilege, at host '%' — or 'localhost' for one without a password, so
// that it is reached from this host only (generation 0). Fails on malformed hashes.
absl::StatusOr<wire::AccessControl> SeedAccessControl(const std::vector<config::UserConfig>& users);

// The `users:` entry for `password`, as YAML text (for --hash-password).
std::string FormatUserEntry(absl::string_view name, absl::string_view password);

}  // namespace shoal::access
