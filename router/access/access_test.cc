#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "router/access/accounts.h"
#include "router/access/grants.h"
#include "router/access/login_failures.h"
#include "router/access/privileges.h"
#include "router/access/resource_limits.h"
#include "router/access/roles.h"
#include "router/access/sha2_cache.h"
#include "router/access/transport.h"

namespace shoal::access {
namespace {

wire::Account* Add(wire::AccessControl* access, const std::string& user, const std::string& host) {
  wire::Account* account = access->add_accounts();
  account->set_user(user);
  account->set_host(host);
  return account;
}

TEST(HostMatchTest, LocalhostMeansTheSocketAndLoopback) {
  EXPECT_TRUE(HostMatches("localhost", ClientHostOf("localhost")));
  EXPECT_TRUE(HostMatches("localhost", ClientHostOf("127.0.0.1")));
  EXPECT_TRUE(HostMatches("LOCALHOST", ClientHostOf("::1")));
  EXPECT_FALSE(HostMatches("localhost", ClientHostOf("10.0.0.5")));
}

TEST(HostMatchTest, PatternsAreLikeOverTheAddress) {
  EXPECT_TRUE(HostMatches("%", ClientHostOf("10.0.0.5")));
  EXPECT_TRUE(HostMatches("10.0.0.%", ClientHostOf("10.0.0.5")));
  EXPECT_FALSE(HostMatches("10.0.1.%", ClientHostOf("10.0.0.5")));
  EXPECT_TRUE(HostMatches("10.0.0._", ClientHostOf("10.0.0.5")));
  EXPECT_FALSE(HostMatches("10.0.0._", ClientHostOf("10.0.0.55")));
  EXPECT_TRUE(HostMatches("10.0.0.5", ClientHostOf("10.0.0.5")));
}

TEST(MatchAccountTest, TheMostSpecificHostWins) {
  wire::AccessControl access;
  Add(&access, "app", "%");
  Add(&access, "app", "10.0.%");
  Add(&access, "app", "10.0.0.5");
  Add(&access, "other", "10.0.0.5");
  EXPECT_EQ(MatchAccount(access, "app", ClientHostOf("10.0.0.5"))->host(), "10.0.0.5");
  EXPECT_EQ(MatchAccount(access, "app", ClientHostOf("10.0.9.9"))->host(), "10.0.%");
  EXPECT_EQ(MatchAccount(access, "app", ClientHostOf("192.168.1.1"))->host(), "%");
  EXPECT_EQ(MatchAccount(access, "nobody", ClientHostOf("10.0.0.5")), nullptr);
}

TEST(PrivilegesTest, NamesAndLists) {
  EXPECT_EQ(PrivilegeNamed("show view"), kShowView);
  EXPECT_EQ(PrivilegeNamed("GRANT OPTION"), kGrantOption);
  EXPECT_FALSE(PrivilegeNamed("FLY").has_value());
  EXPECT_EQ(FormatPrivileges(kInsert | kSelect | kGrantOption, Level::kDatabase), "SELECT, INSERT");
  EXPECT_EQ(FormatPrivileges(AllAt(Level::kTable), Level::kTable), "ALL PRIVILEGES");
  EXPECT_EQ(FormatPrivileges(kGrantOption, Level::kGlobal), "USAGE");
  EXPECT_EQ(AllAt(Level::kTable) & kCreateUser, 0u);
  EXPECT_NE(AllAt(Level::kGlobal) & kCreateUser, 0u);
}

TEST(GrantsTest, LevelsAddUp) {
  wire::Account account;
  account.set_user("app");
  account.set_host("%");
  Grant(&account, Level::kDatabase, "shop", "", kSelect);
  Grant(&account, Level::kTable, "shop", "orders", kInsert | kUpdate);
  EXPECT_EQ(TablePrivileges(account, "shop", "orders"), kSelect | kInsert | kUpdate);
  EXPECT_EQ(TablePrivileges(account, "shop", "items"), kSelect);
  EXPECT_EQ(TablePrivileges(account, "other", "orders"), 0u);
  EXPECT_TRUE(SeesDatabase(account, "shop"));
  EXPECT_FALSE(SeesDatabase(account, "other"));
  EXPECT_EQ(ShowGrants(account),
            (std::vector<std::string>{"GRANT USAGE ON *.* TO `app`@`%`",
                                      "GRANT SELECT ON `shop`.* TO `app`@`%`",
                                      "GRANT INSERT, UPDATE ON `shop`.`orders` TO `app`@`%`"}));
}

TEST(GrantsTest, RevokeRemovesEmptiedGrantsAndReportsMissingOnes) {
  wire::Account account;
  account.set_user("app");
  account.set_host("%");
  Grant(&account, Level::kTable, "shop", "orders", kSelect | kGrantOption);
  EXPECT_TRUE(Revoke(&account, Level::kTable, "shop", "orders", kSelect));
  EXPECT_EQ(account.grants_size(), 1);  // GRANT OPTION is left
  EXPECT_TRUE(Revoke(&account, Level::kTable, "shop", "orders", kGrantOption));
  EXPECT_EQ(account.grants_size(), 0);
  EXPECT_FALSE(Revoke(&account, Level::kDatabase, "shop", "", kSelect));
  EXPECT_TRUE(Revoke(&account, Level::kGlobal, "", "", kSelect));  // always there
}

TEST(SeedTest, UsersWithoutPasswordsStayOnThisHost) {
  std::vector<config::UserConfig> users(2);
  users[0].name = "root";
  users[1].name = "app";
  users[1].native_hash = "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7";
  users[1].sha256_hash = "3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7";
  absl::StatusOr<wire::AccessControl> seed = SeedAccessControl(users);
  ASSERT_TRUE(seed.ok());
  EXPECT_EQ(seed->generation(), 0u);
  EXPECT_EQ(seed->accounts(0).host(), "localhost");
  EXPECT_EQ(seed->accounts(1).host(), "%");
  EXPECT_EQ(seed->accounts(1).native_hash().size(), 20u);
  EXPECT_EQ(seed->accounts(1).global_privileges(), GrantableAt(Level::kGlobal));
  users[1].sha256_hash = "00";
  EXPECT_FALSE(SeedAccessControl(users).ok());
}

TEST(RolesTest, PrivilegesComeThroughRolesOfRoles) {
  wire::AccessControl access;
  wire::Account* reader = Add(&access, "reader", "%");
  Grant(reader, Level::kDatabase, "shop", "", kSelect);
  wire::Account* writer = Add(&access, "writer", "%");
  Grant(writer, Level::kTable, "shop", "orders", kInsert);
  GrantRole(writer, "reader", "%", false);
  wire::Account* app = Add(&access, "app", "%");
  GrantRole(app, "writer", "%", true);
  GrantRole(app, "writer", "%", false);  // WITH ADMIN OPTION stays
  ASSERT_EQ(app->roles_size(), 1);
  EXPECT_TRUE(app->roles(0).admin_option());

  EXPECT_EQ(TablePrivileges(*app, "shop", "orders"), 0u);
  wire::Account merged = WithRoles(access, *app, {{"writer", "%"}});
  EXPECT_EQ(TablePrivileges(merged, "shop", "orders"), kSelect | kInsert);
  EXPECT_EQ(TablePrivileges(merged, "shop", "items"), kSelect);

  EXPECT_TRUE(ReachesRole(access, {"writer", "%"}, {"reader", "%"}));
  EXPECT_FALSE(ReachesRole(access, {"reader", "%"}, {"writer", "%"}));
  EXPECT_EQ(ShowRoleGrants(*app),
            std::vector<std::string>{"GRANT `writer`@`%` TO `app`@`%` WITH ADMIN OPTION"});

  RenameMentions(&access, {"writer", "%"}, {"author", "%"});
  EXPECT_EQ(app->roles(0).user(), "author");
  ForgetAccount(&access, "author", "%");
  EXPECT_EQ(app->roles_size(), 0);
  EXPECT_FALSE(RevokeRole(app, "author", "%"));
}

TEST(LoginFailuresTest, BlocksAfterTheLimitUntilTheLockTimeOrAnUnlock) {
  wire::Account fay;
  fay.set_user("fay");
  fay.set_host("%");
  fay.set_failed_login_attempts(2);
  fay.set_password_lock_days(1);
  LoginFailures failures;
  absl::Time now = absl::FromUnixSeconds(1000000);
  EXPECT_FALSE(failures.Failed(fay, "h", now).has_value());
  failures.Succeeded(fay);  // the count starts again
  EXPECT_FALSE(failures.Failed(fay, "h", now).has_value());
  std::optional<mysql::SqlError> blocked = failures.Failed(fay, "h", now);
  ASSERT_TRUE(blocked.has_value());
  EXPECT_EQ(blocked->code, 3955);
  EXPECT_EQ(blocked->message,
            "Access denied for user 'fay'@'h'. Account is blocked for 1 day(s) (1 day(s) "
            "remaining) due to 2 consecutive failed logins.");
  EXPECT_TRUE(failures.Blocked(fay, "h", now + absl::Hours(23)).has_value());
  EXPECT_FALSE(failures.Blocked(fay, "h", now + absl::Hours(25)).has_value());
  ASSERT_TRUE(failures.Failed(fay, "h", now + absl::Hours(25)).has_value());  // again
  fay.set_login_tracking_serial(1);                                           // ACCOUNT UNLOCK
  EXPECT_FALSE(failures.Blocked(fay, "h", now + absl::Hours(25)).has_value());
  fay.set_password_lock_days(0);  // not tracked
  EXPECT_FALSE(failures.Failed(fay, "h", now).has_value());
  EXPECT_FALSE(failures.Failed(fay, "h", now).has_value());
}

TEST(LoginFailuresTest, WorkersCountTogether) {
  // The router's workers share one count: of 4 × 1000 failures, the 4000th alone blocks.
  wire::Account app;
  app.set_user("app");
  app.set_host("%");
  app.set_failed_login_attempts(4000);
  app.set_password_lock_days(-1);
  LoginFailures failures;
  std::atomic<int> blocked{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        if (failures.Failed(app, "h", absl::Now()).has_value()) ++blocked;
      }
    });
  }
  for (std::thread& t : workers) t.join();
  EXPECT_EQ(blocked.load(), 1);
  std::optional<mysql::SqlError> now = failures.Blocked(app, "h", absl::Now());
  ASSERT_TRUE(now.has_value());
  EXPECT_NE(now->message.find("blocked for unlimited day(s)"), std::string::npos);
}

TEST(TransportTest, RequireClausesAsMysqldChecksThem) {
  wire::Account account;
  const ClientTransport plain;
  ClientTransport tls;
  tls.tls = true;
  tls.version = "TLSv1.3";
  tls.cipher = "TLS_AES_256_GCM_SHA384";
  ClientTransport with_certificate = tls;
  with_certificate.certificate_verified = true;
  with_certificate.subject = "/CN=client";
  with_certificate.issuer = "/CN=ca";

  EXPECT_TRUE(MeetsRequirement(account, plain));
  EXPECT_EQ(RequireClause(account), " REQUIRE NONE");
  account.set_ssl_type("ANY");
  EXPECT_FALSE(MeetsRequirement(account, plain));
  EXPECT_TRUE(MeetsRequirement(account, tls));
  EXPECT_EQ(RequireClause(account), " REQUIRE SSL");
  account.set_ssl_type("X509");
  EXPECT_FALSE(MeetsRequirement(account, tls));
  EXPECT_TRUE(MeetsRequirement(account, with_certificate));
  EXPECT_EQ(RequireClause(account), " REQUIRE X509");

  account.set_ssl_type("SPECIFIED");
  account.set_ssl_cipher("TLS_AES_256_GCM_SHA384");
  EXPECT_TRUE(MeetsRequirement(account, tls));  // a cipher alone needs no certificate
  EXPECT_FALSE(MeetsRequirement(account, plain));
  account.set_x509_subject("/CN=client");
  EXPECT_FALSE(MeetsRequirement(account, tls));
  EXPECT_TRUE(MeetsRequirement(account, with_certificate));
  account.set_x509_issuer("/CN=other ca");
  EXPECT_FALSE(MeetsRequirement(account, with_certificate));
  account.set_x509_issuer("/CN=it's");
  EXPECT_EQ(RequireClause(account),
            " REQUIRE ISSUER '/CN=it''s' AND SUBJECT '/CN=client' AND CIPHER "
            "'TLS_AES_256_GCM_SHA384'");
}

// A router's workers learn and look up digests at once (ThreadSanitizer runs this in CI).
TEST(Sha2CacheTest, WorkersShareWhatEachLearned) {
  Sha2Cache cache;
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&cache, w] {
      for (int i = 0; i < 1000; ++i) {
        std::string stored = "$A$005$" + std::to_string(i % 50);
        mysql::Sha256Digest digest{};
        digest[0] = static_cast<uint8_t>(i % 50);
        if (i % 3 == w % 3) cache.Remember(stored, digest);
        std::optional<mysql::Sha256Digest> found = cache.Find(stored);
        if (found.has_value()) {
          EXPECT_EQ((*found)[0], i % 50);
        }
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  EXPECT_TRUE(cache.Find("$A$005$7").has_value());
  EXPECT_FALSE(cache.Find("$A$005$new password").has_value());
}

TEST(ResourceCountsTest, HourlyLimitsAsMysqldCountsThem) {
  wire::Account account;
  account.set_user("lim");
  account.set_host("%");
  account.set_max_questions(3);
  account.set_max_updates(1);
  account.set_max_connections_per_hour(1);
  ResourceCounts counts;
  const absl::Time start = absl::FromUnixSeconds(1000000);
  EXPECT_EQ(counts.CountStatement(account, 0, /*update=*/true, start), std::nullopt);
  // The second update is refused for max_updates, and counted as a question.
  std::optional<mysql::SqlError> refused = counts.CountStatement(account, 0, true, start);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->code, 1226);
  EXPECT_EQ(refused->message,
            "User 'lim' has exceeded the 'max_updates' resource (current value: 1)");
  EXPECT_EQ(counts.CountStatement(account, 0, false, start), std::nullopt);
  refused = counts.CountStatement(account, 0, false, start + absl::Minutes(59));
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->message,
            "User 'lim' has exceeded the 'max_questions' resource (current value: 3)");
  // An hour after the first one counted, the counts start again.
  EXPECT_EQ(counts.CountStatement(account, 0, false, start + absl::Hours(1)), std::nullopt);

  EXPECT_EQ(counts.CountConnection(account, 0, start), std::nullopt);
  refused = counts.CountConnection(account, 0, start);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->message,
            "User 'lim' has exceeded the 'max_connections_per_hour' resource (current value: 1)");
  // New limits start the counts again; so does a new epoch (FLUSH USER_RESOURCES).
  account.set_max_connections_per_hour(2);
  EXPECT_EQ(counts.CountConnection(account, 0, start), std::nullopt);
  EXPECT_EQ(counts.CountConnection(account, 0, start), std::nullopt);
  EXPECT_TRUE(counts.CountConnection(account, 0, start).has_value());
  EXPECT_EQ(counts.CountConnection(account, /*epoch=*/1, start), std::nullopt);
  // Without limits nothing is counted.
  EXPECT_FALSE(ResourceCounts::HasHourlyLimits(wire::Account()));
}

// A router's workers count one account's statements together: of 4 × 100, exactly its
// limit pass (ThreadSanitizer runs this in CI).
TEST(ResourceCountsTest, WorkersCountTogether) {
  wire::Account account;
  account.set_user("busy");
  account.set_host("%");
  account.set_max_questions(250);
  ResourceCounts counts;
  std::atomic<int> passed{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&] {
      for (int i = 0; i < 100; ++i) {
        if (!counts.CountStatement(account, 0, false, absl::FromUnixSeconds(1000)).has_value()) {
          ++passed;
        }
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  EXPECT_EQ(passed.load(), 250);
}

TEST(AccountNameTest, QuotesAreDoubled) {
  EXPECT_EQ(QuoteAccount("o'neil", "%"), "'o''neil'@'%'");
  EXPECT_EQ(BacktickAccount("a`b", "localhost"), "`a``b`@`localhost`");
}

}  // namespace
}  // namespace shoal::access
