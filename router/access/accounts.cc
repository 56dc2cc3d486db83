#include "router/access/accounts.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "protocol/auth.h"
#include "protocol/messages.h"
#include "router/access/privileges.h"

namespace shoal::access {
namespace {

bool IsLoopback(absl::string_view address) {
  return absl::StartsWith(address, "127.") || address == "::1" ||
         absl::StartsWith(address, "::ffff:127.");
}

// LIKE over ASCII text, case-insensitive, without escapes (host names have none).
bool Like(absl::string_view pattern, absl::string_view text) {
  size_t p = 0, t = 0, star_p = absl::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() &&
        (pattern[p] == '_' || absl::ascii_tolower(static_cast<unsigned char>(pattern[p])) ==
                                  absl::ascii_tolower(static_cast<unsigned char>(text[t])))) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (star_p != absl::string_view::npos) {
      p = star_p + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

// Where a host part's first wildcard is (its length when it has none): the larger, the more
// specific. An empty host is '%'.
size_t Specificity(absl::string_view host) {
  size_t wildcard = host.find_first_of("%_");
  return wildcard == absl::string_view::npos ? host.size() + 1 : wildcard;
}

std::string Quote(absl::string_view name, char quote) {
  std::string doubled(1, quote);
  doubled += quote;
  return absl::StrCat(absl::string_view(&quote, 1),
                      absl::StrReplaceAll(name, {{absl::string_view(&quote, 1), doubled}}),
                      absl::string_view(&quote, 1));
}

}  // namespace

ClientHost ClientHostOf(absl::string_view peer) {
  return ClientHost{std::string(peer), peer == "localhost" || IsLoopback(peer)};
}

bool HostMatches(absl::string_view pattern, const ClientHost& client) {
  if (absl::EqualsIgnoreCase(pattern, "localhost")) return client.local;
  if (pattern.empty()) return true;
  return Like(pattern, client.address);
}

const wire::Account* MatchAccount(const wire::AccessControl& access, absl::string_view user,
                                  const ClientHost& client) {
  const wire::Account* best = nullptr;
  for (const wire::Account& account : access.accounts()) {
    if (account.user() != user || !HostMatches(account.host(), client)) continue;
    if (best == nullptr || Specificity(account.host()) > Specificity(best->host())) {
      best = &account;
    }
  }
  return best;
}

const wire::Account* FindAccount(const wire::AccessControl& access, absl::string_view user,
                                 absl::string_view host) {
  for (const wire::Account& account : access.accounts()) {
    if (account.user() == user && absl::EqualsIgnoreCase(account.host(), host)) return &account;
  }
  return nullptr;
}

wire::Account* FindAccount(wire::AccessControl* access, absl::string_view user,
                           absl::string_view host) {
  return const_cast<wire::Account*>(FindAccount(std::as_const(*access), user, host));
}

std::string StoredHash(const wire::Account& account) {
  if (account.plugin() == mysql::kCachingSha2PasswordPlugin) return account.sha2_crypt();
  if (account.native_hash().size() != 20) return "";
  return absl::StrCat("*", absl::AsciiStrToUpper(absl::BytesToHexString(account.native_hash())));
}

std::string QuoteAccount(absl::string_view user, absl::string_view host) {
  return absl::StrCat(Quote(user, '\''), "@", Quote(host, '\''));
}

std::string BacktickAccount(absl::string_view user, absl::string_view host) {
  return absl::StrCat(Quote(user, '`'), "@", Quote(host, '`'));
}

absl::StatusOr<wire::AccessControl> SeedAccessControl(
    const std::vector<config::UserConfig>& users) {
  wire::AccessControl access;
  for (const config::UserConfig& user : users) {
    wire::Account& account = *access.add_accounts();
    account.set_user(user.name);
    // Without a password, only from this host (a cluster in a box); with one, from anywhere.
    account.set_host(user.native_hash.empty() ? "localhost" : "%");
    account.set_plugin(std::string(mysql::kCachingSha2PasswordPlugin));
    account.set_global_privileges(GrantableAt(Level::kGlobal));
    if (user.native_hash.empty()) continue;
    mysql::Sha1Digest native;
    std::string sha256 = absl::HexStringToBytes(user.sha256_hash);
    if (!mysql::ParseNativeHash(user.native_hash, &native) ||
        sha256.size() != mysql::Sha256Digest{}.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("user ", user.name, ": malformed password hashes"));
    }
    account.set_native_hash(std::string(mysql::DigestView(native)));
    account.set_sha256_hash(std::move(sha256));
  }
  return access;
}

std::string FormatUserEntry(absl::string_view name, absl::string_view password) {
  mysql::PasswordHashes hashes = mysql::HashPassword(password);
  return absl::StrCat("  - name: ", name, "\n    native_hash: \"",
                      mysql::FormatNativeHash(hashes.native), "\"\n    sha256_hash: \"",
                      absl::BytesToHexString(mysql::DigestView(hashes.caching_sha2)), "\"\n");
}

}  // namespace shoal::access
