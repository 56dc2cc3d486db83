#include "router/session/accounts.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "protocol/auth.h"

namespace shoal::router {

absl::StatusOr<Accounts> AccountsFromConfig(const std::vector<config::UserConfig>& users) {
  Accounts accounts;
  for (const config::UserConfig& user : users) {
    UserAccount& account = accounts[user.name];
    account.name = user.name;
    if (user.native_hash.empty()) {
      mysql::PasswordHashes empty = mysql::HashPassword("");
      account.native_hash = empty.native;
      account.sha256_hash = empty.caching_sha2;
      continue;
    }
    account.has_password = true;
    std::string sha256 = absl::HexStringToBytes(user.sha256_hash);
    if (!mysql::ParseNativeHash(user.native_hash, &account.native_hash) ||
        sha256.size() != account.sha256_hash.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("user ", user.name, ": malformed password hashes"));
    }
    std::copy(sha256.begin(), sha256.end(), account.sha256_hash.begin());
  }
  return accounts;
}

std::string FormatUserEntry(absl::string_view name, absl::string_view password) {
  mysql::PasswordHashes hashes = mysql::HashPassword(password);
  return absl::StrCat("  - name: ", name, "\n    native_hash: \"",
                      mysql::FormatNativeHash(hashes.native), "\"\n    sha256_hash: \"",
                      absl::BytesToHexString(mysql::DigestView(hashes.caching_sha2)), "\"\n");
}

}  // namespace shoal::router
