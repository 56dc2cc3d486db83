// CREATE/ALTER/DROP/RENAME USER, SET PASSWORD, GRANT, REVOKE, FLUSH PRIVILEGES, SHOW GRANTS and
// SHOW CREATE USER. A change is computed here on the accounts as this router has them and
// sent whole to the dictionary master, which takes it only if nobody changed them since
// (wire::SetAccessControl): every router then enforces it.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "protocol/access_errors.h"
#include "protocol/auth.h"
#include "protocol/messages.h"
#include "protocol/sha2_crypt.h"
#include "protocol/text_format.h"
#include "router/access/accounts.h"
#include "router/access/grants.h"
#include "router/access/roles.h"
#include "router/access/transport.h"
#include "router/sql/eval/result_columns.h"
#include "router/sql/exec/account_change.h"
#include "router/sql/exec/exec_internal.h"
#include "router/sql/exec/privilege_check.h"
#include "router/sql/exec/table_access.h"

namespace shoal::sql::internal {
namespace {

using access::Privileges;
using Row = std::vector<mysql::Value>;

}  // namespace

AccountName ResolvedAccount(const AccountName& name, const SessionState& state) {
  if (!name.current_user) {
    AccountName out = name;
    out.host = absl::AsciiStrToLower(name.host);
    return out;
  }
  return AccountName{state.user, state.account_host.empty() ? "%" : state.account_host, false};
}

std::string QuotedAccount(const AccountName& name) {
  return access::QuoteAccount(name.user, name.host);
}

void SkippedAccounts::Skip(const AccountName& name, bool exists) {
  if (!if_flag_) {
    failed_.push_back(QuotedAccount(name));
    return;
  }
  AddWarning(state_, Diagnostic::Level::kNote, exists ? 3163 : 3162,
             absl::StrCat("Authorization ID ", QuotedAccount(name),
                          exists ? " already exists." : " does not exist."));
}

std::optional<mysql::SqlError> SkippedAccounts::Error() const {
  if (failed_.empty()) return std::nullopt;
  return mysql::errors::AccountOperationFailed(operation_, absl::StrJoin(failed_, ","));
}

namespace {

// A salt for MySQL's caching_sha2_password form, of characters that need no escaping.
std::string NewCryptSalt() {
  constexpr absl::string_view kChars =
      "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  absl::BitGen random;
  std::string salt(mysql::kSha2CryptSaltSize, '.');
  for (char& c : salt) c = kChars[absl::Uniform<size_t>(random, 0, kChars.size())];
  return salt;
}

// Sets the password an IDENTIFIED clause gives (none: the account keeps its own).
std::optional<mysql::SqlError> SetAuthentication(const AccountSpec& spec, wire::Account* account) {
  std::string plugin = spec.plugin.empty() ? account->plugin() : spec.plugin;
  if (plugin.empty()) plugin = std::string(mysql::kCachingSha2PasswordPlugin);
  if (plugin != mysql::kCachingSha2PasswordPlugin && plugin != mysql::kNativePasswordPlugin) {
    return mysql::errors::PluginNotLoaded(plugin);
  }
  account->set_plugin(plugin);
  if (spec.hash.has_value()) {
    // AS 'hash': mysql.user's form of the plugin's hash — "*" and 40 hex digits for
    // mysql_native_password, "$A$005$…" for caching_sha2_password (from a MySQL 8 server's
    // SHOW CREATE USER). Neither gives the other plugin's, so such an account logs in with its
    // own plugin alone.
    account->clear_native_hash();
    account->clear_sha256_hash();
    account->clear_sha2_crypt();
    if (spec.hash->empty()) return std::nullopt;
    mysql::Sha1Digest native;
    if (mysql::ParseNativeHash(*spec.hash, &native)) {
      account->set_native_hash(std::string(mysql::DigestView(native)));
      account->set_plugin(std::string(mysql::kNativePasswordPlugin));
      return std::nullopt;
    }
    if (plugin == mysql::kCachingSha2PasswordPlugin && mysql::IsSha2Crypt(*spec.hash)) {
      account->set_sha2_crypt(*spec.hash);
      return std::nullopt;
    }
    return mysql::errors::PasswordFormat();
  }
  if (!spec.password.has_value()) return std::nullopt;
  account->clear_native_hash();
  account->clear_sha256_hash();
  account->clear_sha2_crypt();
  if (spec.password->empty()) return std::nullopt;
  mysql::PasswordHashes hashes = mysql::HashPassword(*spec.password);
  account->set_native_hash(std::string(mysql::DigestView(hashes.native)));
  account->set_sha256_hash(std::string(mysql::DigestView(hashes.caching_sha2)));
  account->set_sha2_crypt(mysql::MakeSha2Crypt(*spec.password, NewCryptSalt()));
  return std::nullopt;
}

// DEFAULT ROLE r, … of CREATE USER (which grants them) and ALTER USER (whose account must have
// them granted already): 3523 for a role that does not exist, 3530 for one not granted.
std::optional<mysql::SqlError> SetDefaultRoles(const AccountStmt& stmt, bool grant,
                                               const SessionState& state,
                                               wire::AccessControl* access,
                                               wire::Account* account) {
  if (!stmt.default_roles) return std::nullopt;
  account->clear_default_roles();
  for (const AccountName& written : *stmt.default_roles) {
    AccountName role = ResolvedAccount(written, state);
    if (access::FindAccount(*access, role.user, role.host) == nullptr) {
      return mysql::errors::UnknownAuthorizationId(role.user, role.host);
    }
    if (grant) {
      access::GrantRole(account, role.user, role.host, false);
    } else if (access::GrantedRole(*account, role.user, role.host) == nullptr) {
      return mysql::errors::RoleNotGranted(role.user, role.host, account->user(), account->host());
    }
    wire::AccountRef& ref = *account->add_default_roles();
    ref.set_user(role.user);
    ref.set_host(role.host);
  }
  return std::nullopt;
}

void SetOptions(const AccountStmt& stmt, wire::Account* account) {
  if (stmt.lock) account->set_locked(*stmt.lock);
  if (stmt.failed_login_attempts) account->set_failed_login_attempts(*stmt.failed_login_attempts);
  if (stmt.password_lock_days) account->set_password_lock_days(*stmt.password_lock_days);
  // Either, or ACCOUNT UNLOCK, starts the routers' counts of failed logins again (as MySQL).
  if (stmt.failed_login_attempts || stmt.password_lock_days || stmt.lock == false) {
    account->set_login_tracking_serial(account->login_tracking_serial() + 1);
  }
  if (stmt.password_expire) account->set_password_expired(*stmt.password_expire);
  if (stmt.max_user_connections) account->set_max_user_connections(*stmt.max_user_connections);
  if (stmt.max_questions) account->set_max_questions(*stmt.max_questions);
  if (stmt.max_updates) account->set_max_updates(*stmt.max_updates);
  if (stmt.max_connections_per_hour) {
    account->set_max_connections_per_hour(*stmt.max_connections_per_hour);
  }
  if (stmt.require) {
    account->set_ssl_type(stmt.require->type);
    account->set_x509_issuer(stmt.require->issuer);
    account->set_x509_subject(stmt.require->subject);
    account->set_ssl_cipher(stmt.require->cipher);
  }
}

}  // namespace

StatementResult StoreAccounts(AccountsNow changed, const ExecContext& ctx) {
  wire::DictReq request;
  request.mutable_set_access_control()->set_based_on(changed.generation);
  *request.mutable_set_access_control()->mutable_access() = std::move(changed.access);
  return RunDictionary(std::move(request), ctx, OkResult{});
}

std::variant<AccountsNow, mysql::SqlError> CurrentAccounts(const ExecContext& ctx) {
  if (auto err = RequireDataNodes(*ctx.state)) return *err;
  if (auto err = RequireCurrentDictionary(*ctx.state)) return *err;
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(*ctx.state);
  if (access == nullptr) return ClusterFailure();
  return AccountsNow{*access, access->generation()};
}

namespace {

StatementResult CreateUsers(const AccountStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  SkippedAccounts skipped("CREATE USER", stmt.if_flag, ctx.state);
  for (const AccountSpec& spec : stmt.accounts) {
    AccountName name = ResolvedAccount(spec.name, *ctx.state);
    if (access::FindAccount(now.access, name.user, name.host) != nullptr) {
      skipped.Skip(name, true);
      continue;
    }
    wire::Account& account = *now.access.add_accounts();
    account.set_user(name.user);
    account.set_host(name.host);
    if (auto err = SetAuthentication(spec, &account)) return *err;
    SetOptions(stmt, &account);
    if (auto err = SetDefaultRoles(stmt, true, *ctx.state, &now.access, &account)) return *err;
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

StatementResult AlterUsers(const AccountStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  const bool set_password = stmt.kind == AccountStmt::Kind::kSetPassword;
  SkippedAccounts skipped("ALTER USER", stmt.if_flag, ctx.state);
  for (const AccountSpec& spec : stmt.accounts) {
    AccountName name = ResolvedAccount(spec.name, *ctx.state);
    wire::Account* account = access::FindAccount(&now.access, name.user, name.host);
    if (account == nullptr) {
      if (set_password) return mysql::errors::PasswordNoMatch();
      skipped.Skip(name, false);
      continue;
    }
    if (spec.identified) {
      if (auto err = SetAuthentication(spec, account)) return *err;
      account->set_password_expired(false);
    }
    SetOptions(stmt, account);
    if (auto err = SetDefaultRoles(stmt, false, *ctx.state, &now.access, account)) return *err;
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

StatementResult DropUsers(const AccountStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  SkippedAccounts skipped("DROP USER", stmt.if_flag, ctx.state);
  for (const AccountSpec& spec : stmt.accounts) {
    AccountName name = ResolvedAccount(spec.name, *ctx.state);
    if (!access::DropAccount(&now.access, name.user, name.host)) skipped.Skip(name, false);
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

StatementResult RenameUsers(const AccountStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  SkippedAccounts skipped("RENAME USER", false, ctx.state);
  for (size_t i = 0; i < stmt.accounts.size(); ++i) {
    AccountName from = ResolvedAccount(stmt.accounts[i].name, *ctx.state);
    AccountName to = ResolvedAccount(stmt.renamed_to[i], *ctx.state);
    wire::Account* account = access::FindAccount(&now.access, from.user, from.host);
    if (account == nullptr || access::FindAccount(now.access, to.user, to.host) != nullptr) {
      skipped.Skip(from, account != nullptr);
      continue;
    }
    account->set_user(to.user);
    account->set_host(to.host);
    access::RenameMentions(&now.access, {from.user, from.host}, {to.user, to.host});
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

// The bits GRANT or REVOKE names at `level`: 1221 or 1144 for one the level does not take.
std::variant<Privileges, mysql::SqlError> NamedPrivileges(const GrantStmt& stmt,
                                                          access::Level level) {
  Privileges bits = 0;
  for (const std::string& name : stmt.privileges) {
    if (name == "ALL") {
      bits |= access::AllAt(level);
    } else if (name != "USAGE") {
      bits |= *access::PrivilegeNamed(name);  // the parser let only known names through
    }
  }
  if (stmt.with_grant_option) bits |= access::kGrantOption;
  if ((bits & ~access::GrantableAt(level)) != 0) {
    if (level == access::Level::kTable) return mysql::errors::IllegalGrantForTable();
    return mysql::errors::DatabaseGrantOfGlobalPrivileges();
  }
  return bits;
}

StatementResult RevokeEverything(const GrantStmt& stmt, const ExecContext& ctx, AccountsNow now) {
  if ((SessionGlobalPrivileges(*ctx.state) & access::kCreateUser) == 0) {
    return mysql::errors::SpecificAccessDenied("CREATE USER");
  }
  SkippedAccounts skipped("REVOKE", false, ctx.state);
  for (const AccountName& written : stmt.accounts) {
    AccountName name = ResolvedAccount(written, *ctx.state);
    wire::Account* account = access::FindAccount(&now.access, name.user, name.host);
    if (account == nullptr) {
      skipped.Skip(name, false);
      continue;
    }
    access::RevokeAll(account);
  }
  if (auto err = skipped.Error()) return *err;
  return StoreAccounts(std::move(now), ctx);
}

}  // namespace

StatementResult ExecuteAccount(const AccountStmt& stmt, const ExecContext& ctx) {
  auto now = CurrentAccounts(ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&now)) return *err;
  AccountsNow& current = std::get<AccountsNow>(now);
  switch (stmt.kind) {
    case AccountStmt::Kind::kCreate:
      return CreateUsers(stmt, ctx, std::move(current));
    case AccountStmt::Kind::kAlter:
    case AccountStmt::Kind::kSetPassword:
      return AlterUsers(stmt, ctx, std::move(current));
    case AccountStmt::Kind::kDrop:
      return DropUsers(stmt, ctx, std::move(current));
    case AccountStmt::Kind::kRename:
      return RenameUsers(stmt, ctx, std::move(current));
  }
  return OkResult{};
}

StatementResult ExecuteGrant(const GrantStmt& stmt, const ExecContext& ctx) {
  SessionState& s = *ctx.state;
  auto now = CurrentAccounts(ctx);
  if (auto* err = std::get_if<mysql::SqlError>(&now)) return *err;
  AccountsNow& current = std::get<AccountsNow>(now);
  if (stmt.revoke_everything) return RevokeEverything(stmt, ctx, std::move(current));

  access::Level level = stmt.global          ? access::Level::kGlobal
                        : stmt.table.empty() ? access::Level::kDatabase
                                             : access::Level::kTable;
  std::string database = stmt.current_database ? s.database : stmt.database;
  if (level != access::Level::kGlobal && database.empty()) {
    return mysql::errors::NoDatabaseSelected();
  }
  auto named = NamedPrivileges(stmt, level);
  if (auto* err = std::get_if<mysql::SqlError>(&named)) return *err;
  const Privileges bits = std::get<Privileges>(named);

  // The granter holds GRANT OPTION and every privilege it gives or takes, at that level.
  wire::Account merged;
  const wire::Account* granter = SessionPrivileges(current.access, s, &merged);
  Privileges held = granter == nullptr                ? 0
                    : level == access::Level::kGlobal ? granter->global_privileges()
                    : level == access::Level::kDatabase
                        ? access::DatabasePrivileges(*granter, database)
                        : access::TablePrivileges(*granter, database, stmt.table);
  if ((held & access::kGrantOption) == 0 || (bits & ~held) != 0) {
    switch (level) {
      case access::Level::kGlobal:
        return mysql::errors::AccessDenied(s.user, s.host, true);
      case access::Level::kDatabase:
        return mysql::errors::DatabaseAccessDenied(s.user, s.host, database);
      case access::Level::kTable:
        return mysql::errors::TableAccessDenied(stmt.revoke ? "REVOKE" : "GRANT", s.user, s.host,
                                                stmt.table);
    }
  }
  if (level == access::Level::kTable) {
    // A table grant names a table (or view) that exists.
    TableName name{database, stmt.table};
    std::shared_ptr<const api::Dictionary> dictionary = CurrentDictionary(s);
    if (dictionary != nullptr && dictionary->FindView(database, stmt.table) == nullptr) {
      auto resolved = ResolveTable(name, s);
      if (auto* err = std::get_if<mysql::SqlError>(&resolved)) return *err;
    }
  }

  for (const AccountName& written : stmt.accounts) {
    AccountName name = ResolvedAccount(written, s);
    wire::Account* account = access::FindAccount(&current.access, name.user, name.host);
    if (account == nullptr) {
      if (stmt.revoke) return mysql::errors::NonexistingGrant(name.user, name.host);
      return mysql::errors::CantCreateUserWithGrant();
    }
    if (!stmt.revoke) {
      access::Grant(account, level, database, stmt.table, bits);
    } else if (!access::Revoke(account, level, database, stmt.table, bits)) {
      if (level == access::Level::kTable) {
        return mysql::errors::NonexistingTableGrant(name.user, name.host, stmt.table);
      }
      return mysql::errors::NonexistingGrant(name.user, name.host);
    }
  }
  return StoreAccounts(std::move(current), ctx);
}

StatementResult ExecuteFlush(const FlushStmt& stmt, const ExecContext& ctx) {
  // Grants take effect when they are made: there is nothing to reload. The hourly counts start
  // again, as mysqld's, on every router: the accounts' resource_epoch grows.
  if (stmt.what != "USER_RESOURCES" && stmt.what != "PRIVILEGES") return OkResult{};
  auto current = CurrentAccounts(ctx);
  if (auto* error = std::get_if<mysql::SqlError>(&current)) return *error;
  AccountsNow now = std::get<AccountsNow>(std::move(current));
  now.access.set_resource_epoch(now.access.resource_epoch() + 1);
  return StoreAccounts(std::move(now), ctx);
}

std::string AccountColumnTitle(const ShowStmt& stmt, const SessionState& state) {
  AccountName name = ResolvedAccount(stmt.account, state);
  return absl::StrCat(stmt.kind == ShowKind::kGrants ? "Grants for " : "CREATE USER for ",
                      name.user, "@", name.host);
}

std::variant<std::vector<Row>, mysql::SqlError> AccountRows(const ShowStmt& stmt,
                                                            const SessionState& state) {
  std::shared_ptr<const wire::AccessControl> access = EffectiveAccess(state);
  AccountName name = ResolvedAccount(stmt.account, state);
  const wire::Account* account =
      access == nullptr ? nullptr : access::FindAccount(*access, name.user, name.host);
  if (account == nullptr) {
    if (stmt.kind == ShowKind::kGrants) {
      return mysql::errors::NonexistingGrant(name.user, name.host);
    }
    return mysql::errors::AccountOperationFailed("SHOW CREATE USER", QuotedAccount(name));
  }
  std::vector<Row> rows;
  if (stmt.kind == ShowKind::kGrants) {
    for (std::string& line : access::ShowGrants(*account)) rows.push_back({std::move(line)});
    for (std::string& line : access::ShowRoleGrants(*account)) rows.push_back({std::move(line)});
    return rows;
  }
  std::string text = absl::StrCat("CREATE USER ", access::BacktickAccount(name.user, name.host),
                                  " IDENTIFIED WITH '", account->plugin(), "'");
  // The plugin's hash as MySQL keeps it, which CREATE USER … AS takes back (here or in MySQL).
  std::string stored = access::StoredHash(*account);
  if (!stored.empty()) absl::StrAppend(&text, " AS ", mysql::QuoteSqlString(stored));
  absl::StrAppend(&text, access::RequireClause(*account));
  // MySQL's order: the resource limits that are set, after REQUIRE.
  const char* with = " WITH";
  for (const auto& [option, limit] :
       {std::pair{"MAX_QUERIES_PER_HOUR", account->max_questions()},
        std::pair{"MAX_UPDATES_PER_HOUR", account->max_updates()},
        std::pair{"MAX_CONNECTIONS_PER_HOUR", account->max_connections_per_hour()},
        std::pair{"MAX_USER_CONNECTIONS", account->max_user_connections()}}) {
    if (limit == 0) continue;
    absl::StrAppend(&text, with, " ", option, " ", limit);
    with = "";
  }
  absl::StrAppend(&text, " PASSWORD EXPIRE", account->password_expired() ? "" : " DEFAULT",
                  " ACCOUNT ", account->locked() ? "LOCK" : "UNLOCK");
  if (account->failed_login_attempts() > 0 || account->password_lock_days() != 0) {
    absl::StrAppend(
        &text, " FAILED_LOGIN_ATTEMPTS ", account->failed_login_attempts(), " PASSWORD_LOCK_TIME ",
        account->password_lock_days() < 0 ? std::string("UNBOUNDED")
                                          : absl::StrCat(account->password_lock_days()));
  }
  rows.push_back({std::move(text)});
  return rows;
}

}  // namespace shoal::sql::internal
