// The account statements (parse_account.cc) as MySQL clients and tools write them.
#include <gtest/gtest.h>

#include "router/sql/parse/parser.h"
#include "router/sql/parse/parser_test_util.h"
#include "router/sql/parse/redact.h"

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::MustParseAs;

TEST(ParseAccountTest, CreateUserWithEveryClause) {
  auto s = MustParseAs<AccountStmt>(
      "CREATE USER IF NOT EXISTS 'app'@'10.0.%' IDENTIFIED BY 'pw', bob IDENTIFIED WITH "
      "mysql_native_password AS '*14E65567ABDB5135D0CFD9A70B3032C179A49EE7', carol@localhost "
      "REQUIRE NONE WITH MAX_USER_CONNECTIONS 5 PASSWORD EXPIRE ACCOUNT LOCK");
  EXPECT_EQ(s.kind, AccountStmt::Kind::kCreate);
  EXPECT_TRUE(s.if_flag);
  ASSERT_EQ(s.accounts.size(), 3u);
  EXPECT_EQ(s.accounts[0].name.user, "app");
  EXPECT_EQ(s.accounts[0].name.host, "10.0.%");
  EXPECT_EQ(s.accounts[0].password, "pw");
  EXPECT_EQ(s.accounts[1].name.host, "%");
  EXPECT_EQ(s.accounts[1].plugin, "mysql_native_password");
  EXPECT_EQ(s.accounts[1].hash, "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7");
  EXPECT_EQ(s.accounts[2].name.host, "localhost");
  EXPECT_FALSE(s.accounts[2].identified);
  EXPECT_EQ(s.max_user_connections, 5u);
  EXPECT_EQ(s.password_expire, true);
  EXPECT_EQ(s.lock, true);
  auto tracked =
      MustParseAs<AccountStmt>("ALTER USER u FAILED_LOGIN_ATTEMPTS 3 PASSWORD_LOCK_TIME UNBOUNDED");
  EXPECT_EQ(tracked.failed_login_attempts, 3u);
  EXPECT_EQ(tracked.password_lock_days, -1);
  EXPECT_EQ(MustParseAs<AccountStmt>("CREATE USER u PASSWORD_LOCK_TIME 2").password_lock_days, 2);
  auto limited = MustParseAs<AccountStmt>(
      "ALTER USER u WITH MAX_QUERIES_PER_HOUR 3 MAX_UPDATES_PER_HOUR 2 MAX_CONNECTIONS_PER_HOUR 1 "
      "MAX_USER_CONNECTIONS 4");
  EXPECT_EQ(limited.max_questions, 3u);
  EXPECT_EQ(limited.max_updates, 2u);
  EXPECT_EQ(limited.max_connections_per_hour, 1u);
  EXPECT_EQ(limited.max_user_connections, 4u);
}

TEST(ParseAccountTest, RequireTls) {
  EXPECT_EQ(MustParseAs<AccountStmt>("CREATE USER u REQUIRE NONE").require->type, "");
  EXPECT_EQ(MustParseAs<AccountStmt>("CREATE USER u REQUIRE SSL").require->type, "ANY");
  EXPECT_EQ(MustParseAs<AccountStmt>("ALTER USER u REQUIRE X509 ACCOUNT LOCK").require->type,
            "X509");
  EXPECT_FALSE(MustParseAs<AccountStmt>("ALTER USER u ACCOUNT LOCK").require.has_value());
  auto specified = MustParseAs<AccountStmt>(
      "CREATE USER u REQUIRE SUBJECT '/CN=c' AND CIPHER 'TLS_AES_256_GCM_SHA384' ISSUER '/CN=ca' "
      "WITH MAX_USER_CONNECTIONS 2");
  EXPECT_EQ(specified.require->type, "SPECIFIED");
  EXPECT_EQ(specified.require->subject, "/CN=c");
  EXPECT_EQ(specified.require->issuer, "/CN=ca");
  EXPECT_EQ(specified.require->cipher, "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(specified.max_user_connections, 2u);
  EXPECT_EQ(MustFail("CREATE USER u REQUIRE").code, 1064);
  EXPECT_EQ(MustFail("CREATE USER u REQUIRE ISSUER 'a' AND ISSUER 'b'").code, 1064);
  EXPECT_EQ(MustFail("CREATE USER u REQUIRE SSL X509").code, 1064);
}

TEST(ParseAccountTest, AlterDropRenameSetPassword) {
  auto alter = MustParseAs<AccountStmt>("ALTER USER USER() IDENTIFIED BY 'new'");
  EXPECT_EQ(alter.kind, AccountStmt::Kind::kAlter);
  EXPECT_TRUE(alter.accounts[0].name.current_user);
  EXPECT_EQ(MustParseAs<AccountStmt>("ALTER USER IF EXISTS u ACCOUNT UNLOCK").lock, false);
  auto drop = MustParseAs<AccountStmt>("DROP USER IF EXISTS a, 'b'@'h'");
  EXPECT_EQ(drop.kind, AccountStmt::Kind::kDrop);
  EXPECT_EQ(drop.accounts.size(), 2u);
  auto rename = MustParseAs<AccountStmt>("RENAME USER a TO b, 'c'@'%' TO 'd'@'localhost'");
  ASSERT_EQ(rename.renamed_to.size(), 2u);
  EXPECT_EQ(rename.renamed_to[1].host, "localhost");
  auto set = MustParseAs<AccountStmt>("SET PASSWORD FOR 'app'@'%' = 'x'");
  EXPECT_EQ(set.kind, AccountStmt::Kind::kSetPassword);
  EXPECT_EQ(set.accounts[0].name.user, "app");
  EXPECT_FALSE(set.accounts[0].name.current_user);
  auto own = MustParseAs<AccountStmt>("SET PASSWORD = PASSWORD('y')");
  EXPECT_EQ(own.accounts[0].password, "y");
  EXPECT_TRUE(own.accounts[0].name.current_user);
}

TEST(ParseAccountTest, GrantAndRevokeLevels) {
  auto global = MustParseAs<GrantStmt>("GRANT ALL PRIVILEGES ON *.* TO 'a'@'%' WITH GRANT OPTION");
  EXPECT_TRUE(global.global);
  EXPECT_EQ(global.privileges, std::vector<std::string>{"ALL"});
  EXPECT_TRUE(global.with_grant_option);
  auto db =
      MustParseAs<GrantStmt>("GRANT SELECT, SHOW VIEW, CREATE TEMPORARY TABLES ON shop.* TO a, b");
  EXPECT_EQ(db.database, "shop");
  EXPECT_TRUE(db.table.empty());
  EXPECT_EQ(db.privileges,
            (std::vector<std::string>{"SELECT", "SHOW VIEW", "CREATE TEMPORARY TABLES"}));
  EXPECT_EQ(db.accounts.size(), 2u);
  auto table = MustParseAs<GrantStmt>("REVOKE INSERT ON TABLE `shop`.`orders` FROM a");
  EXPECT_TRUE(table.revoke);
  EXPECT_EQ(table.table, "orders");
  auto here = MustParseAs<GrantStmt>("GRANT UPDATE ON orders TO a");
  EXPECT_TRUE(here.current_database);
  EXPECT_EQ(here.table, "orders");
  EXPECT_TRUE(MustParseAs<GrantStmt>("GRANT USAGE ON * TO a").current_database);
  EXPECT_TRUE(
      MustParseAs<GrantStmt>("REVOKE ALL PRIVILEGES, GRANT OPTION FROM a, b").revoke_everything);
}

TEST(ParseAccountTest, ShowGrantsAndCreateUser) {
  auto mine = MustParseAs<ShowStmt>("SHOW GRANTS");
  EXPECT_EQ(mine.kind, ShowKind::kGrants);
  EXPECT_TRUE(mine.account.current_user);
  auto theirs = MustParseAs<ShowStmt>("SHOW GRANTS FOR 'app'@'localhost'");
  EXPECT_FALSE(theirs.account.current_user);
  EXPECT_EQ(theirs.account.host, "localhost");
  auto create = MustParseAs<ShowStmt>("SHOW CREATE USER app");
  EXPECT_EQ(create.kind, ShowKind::kCreateUser);
  EXPECT_EQ(create.account.user, "app");
  EXPECT_EQ(MustParseAs<FlushStmt>("FLUSH PRIVILEGES").what, "PRIVILEGES");
  EXPECT_EQ(MustParseAs<FlushStmt>("FLUSH TABLES").what, "TABLES");
  EXPECT_EQ(MustParseAs<FlushStmt>("FLUSH LOCAL TABLE t, db.u").what, "TABLES");
  EXPECT_EQ(MustFail("FLUSH TABLES WITH READ LOCK").code, 1235);
  EXPECT_EQ(MustFail("FLUSH TABLES t FOR EXPORT").code, 1235);
  EXPECT_EQ(MustFail("FLUSH TABLES t,").code, 1064);
}

TEST(ParseAccountTest, Roles) {
  auto create = MustParseAs<RoleStmt>("CREATE ROLE IF NOT EXISTS reader, 'writer'@'localhost'");
  EXPECT_EQ(create.kind, RoleStmt::Kind::kCreate);
  EXPECT_TRUE(create.if_flag);
  ASSERT_EQ(create.roles.size(), 2u);
  EXPECT_EQ(create.roles[0].host, "%");
  EXPECT_EQ(create.roles[1].host, "localhost");
  EXPECT_EQ(MustParseAs<RoleStmt>("DROP ROLE IF EXISTS reader").kind, RoleStmt::Kind::kDrop);
  auto grant = MustParseAs<RoleStmt>("GRANT reader, writer TO app, 'bob'@'%' WITH ADMIN OPTION");
  EXPECT_EQ(grant.kind, RoleStmt::Kind::kGrant);
  EXPECT_EQ(grant.roles.size(), 2u);
  EXPECT_EQ(grant.accounts.size(), 2u);
  EXPECT_TRUE(grant.with_admin_option);
  EXPECT_EQ(MustParseAs<RoleStmt>("REVOKE reader FROM app").kind, RoleStmt::Kind::kRevoke);
  // REVOKE ALL … FROM and GRANT … ON are about privileges.
  EXPECT_TRUE(
      MustParseAs<GrantStmt>("REVOKE ALL PRIVILEGES, GRANT OPTION FROM app").revoke_everything);
  auto set = MustParseAs<RoleStmt>("SET ROLE ALL EXCEPT writer");
  EXPECT_EQ(set.which, RoleStmt::Which::kAllExcept);
  EXPECT_EQ(set.roles.size(), 1u);
  EXPECT_EQ(MustParseAs<RoleStmt>("SET ROLE DEFAULT").which, RoleStmt::Which::kDefault);
  EXPECT_EQ(MustParseAs<RoleStmt>("SET ROLE NONE").which, RoleStmt::Which::kNone);
  auto set_default = MustParseAs<RoleStmt>("SET DEFAULT ROLE reader TO app, bob");
  EXPECT_EQ(set_default.kind, RoleStmt::Kind::kSetDefault);
  EXPECT_EQ(set_default.accounts.size(), 2u);
  auto user = MustParseAs<AccountStmt>("CREATE USER u DEFAULT ROLE reader, writer");
  ASSERT_TRUE(user.default_roles.has_value());
  EXPECT_EQ(user.default_roles->size(), 2u);
}

TEST(ParseAccountTest, Refused) {
  EXPECT_EQ(MustFail("GRANT FLY ON *.* TO a").code, 1064);
  EXPECT_EQ(MustFail("GRANT SELECT ON *.* a").code, 1064);
  EXPECT_EQ(MustFail("CREATE USER").code, 1064);
  EXPECT_EQ(MustFail("FLUSH LOGS").code, 1235);
  EXPECT_EQ(MustFail("CREATE USER u IDENTIFIED BY RANDOM PASSWORD").code, 1235);
}

TEST(RedactTest, PasswordsBecomeSecret) {
  EXPECT_EQ(RedactSecrets("CREATE USER 'a'@'%' IDENTIFIED BY 'pw', b IDENTIFIED WITH "
                          "mysql_native_password AS '*ABC' ACCOUNT LOCK"),
            "CREATE USER 'a'@'%' IDENTIFIED BY <secret>, b IDENTIFIED WITH "
            "mysql_native_password AS <secret> ACCOUNT LOCK");
  EXPECT_EQ(RedactSecrets("SET PASSWORD FOR 'a'@'%' = 'x'"), "SET PASSWORD FOR 'a'@'%' = <secret>");
  EXPECT_EQ(RedactSecrets("SET PASSWORD = PASSWORD('x')"), "SET PASSWORD = PASSWORD(<secret>)");
  EXPECT_EQ(RedactSecrets("ALTER USER USER() IDENTIFIED BY 'it''s'"),
            "ALTER USER USER() IDENTIFIED BY <secret>");
  // Nothing to hide: as it was.
  EXPECT_EQ(RedactSecrets("UPDATE t SET password = 'x' WHERE 'IDENTIFIED' = 'a'"),
            "UPDATE t SET password = 'x' WHERE 'IDENTIFIED' = 'a'");
  EXPECT_EQ(RedactSecrets("SELECT 1"), "SELECT 1");
}

}  // namespace
}  // namespace shoal::sql
