#include "router/sql/exec/executor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "protocol/constants.h"
#include "router/sql/exec/view_expansion.h"

namespace shoal::sql {
namespace {

using mysql::Value;
namespace flag = mysql::column_flag;
using ::testing::ElementsAre;

constexpr absl::string_view kConnectorJ =
    "/* mysql-connector-j-26.10.0 (Revision: fac9201148ebe3f84a5754cb86ebbacaf1cdce7f) */SELECT  "
    "@@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS "
    "character_set_client, @@character_set_connection AS character_set_connection, "
    "@@character_set_results AS character_set_results, @@character_set_server AS "
    "character_set_server, @@collation_server AS collation_server, @@collation_connection AS "
    "collation_connection, @@init_connect AS init_connect, @@interactive_timeout AS "
    "interactive_timeout, @@license AS license, @@lower_case_table_names AS "
    "lower_case_table_names, @@max_allowed_packet AS max_allowed_packet, @@net_write_timeout AS "
    "net_write_timeout, @@performance_schema AS performance_schema, @@sql_mode AS sql_mode, "
    "@@system_time_zone AS system_time_zone, @@time_zone AS time_zone, @@transaction_isolation "
    "AS transaction_isolation, @@wait_timeout AS wait_timeout";

Value DT(int y, int mo, int d, int h, int mi, int s, uint32_t us) {
  mysql::DateTime t;
  t.year = static_cast<uint16_t>(y);
  t.month = static_cast<uint8_t>(mo);
  t.day = static_cast<uint8_t>(d);
  t.hour = static_cast<uint8_t>(h);
  t.minute = static_cast<uint8_t>(mi);
  t.second = static_cast<uint8_t>(s);
  t.microsecond = us;
  return t;
}

class ExecutorTest : public ::testing::Test {
 protected:
  ExecutorTest() {
    server_.version = "8.0.36-shoal-0.1.0";
    server_.hostname = "node1";
    server_.port = 3306;
    server_.started = absl::FromUnixSeconds(1700000000 - 100);
    server_.now = [] { return absl::FromUnixSeconds(1700000000) + absl::Microseconds(123456); };
    state_.server = &server_;
    state_.user = "sbtest";
    state_.host = "127.0.0.1";
    state_.connection_id = 7;
    ApplyHandshakeCollation(mysql::charset::kUtf8mb4GeneralCi, &state_);
  }

  StatementResult Run(absl::string_view sql) { return ExecuteText(sql, &state_); }

  mysql::ResultSet Rows(absl::string_view sql) {
    StatementResult r = Run(sql);
    if (auto* err = std::get_if<mysql::SqlError>(&r)) {
      ADD_FAILURE() << sql << ": " << err->code << " " << err->message;
    }
    if (!std::holds_alternative<mysql::ResultSet>(r)) {
      ADD_FAILURE() << sql << ": no result set";
      return {};
    }
    return std::get<mysql::ResultSet>(std::move(r));
  }

  // The single value of a one-row, one-column result.
  Value One(absl::string_view sql) {
    mysql::ResultSet rs = Rows(sql);
    if (rs.rows.size() != 1 || rs.rows[0].size() != 1) {
      ADD_FAILURE() << sql << ": not one value";
      return Value{};
    }
    return rs.rows[0][0];
  }

  OkResult Ok(absl::string_view sql) {
    StatementResult r = Run(sql);
    if (auto* err = std::get_if<mysql::SqlError>(&r)) {
      ADD_FAILURE() << sql << ": " << err->code << " " << err->message;
    }
    if (!std::holds_alternative<OkResult>(r)) return {};
    return std::get<OkResult>(r);
  }

  mysql::SqlError Error(absl::string_view sql) {
    StatementResult r = Run(sql);
    if (!std::holds_alternative<mysql::SqlError>(r)) {
      ADD_FAILURE() << sql << ": no error";
      return {};
    }
    return std::get<mysql::SqlError>(r);
  }

  ServerInfo server_;
  SessionState state_;
};

TEST_F(ExecutorTest, SelectOneMetadata) {
  mysql::ResultSet rs = Rows("SELECT 1");
  ASSERT_EQ(rs.columns.size(), 1u);
  const mysql::ColumnDefinition& c = rs.columns[0];
  EXPECT_EQ(c.name, "1");
  EXPECT_EQ(c.type, mysql::ColumnType::kLongLong);
  EXPECT_EQ(c.charset, mysql::charset::kBinary);
  EXPECT_EQ(c.length, 1u);
  EXPECT_EQ(c.flags, flag::kNotNull | flag::kBinary);
  EXPECT_EQ(c.decimals, 0);
  ASSERT_EQ(rs.rows.size(), 1u);
  EXPECT_EQ(rs.rows[0][0], Value{int64_t{1}});
}

TEST_F(ExecutorTest, LiteralKinds) {
  mysql::ResultSet rs = Rows("SELECT 'a', 2, NULL, 1.5, 1e3, 18446744073709551615, -3, X'41'");
  ASSERT_EQ(rs.columns.size(), 8u);
  EXPECT_EQ(rs.columns[0].type, mysql::ColumnType::kVarString);
  EXPECT_EQ(rs.columns[0].charset, mysql::charset::kUtf8mb4GeneralCi);
  EXPECT_EQ(rs.columns[0].length, 4u);
  EXPECT_EQ(rs.columns[0].name, "a");
  EXPECT_EQ(rs.columns[2].type, mysql::ColumnType::kNull);
  EXPECT_EQ(rs.columns[3].type, mysql::ColumnType::kNewDecimal);
  EXPECT_EQ(rs.columns[3].decimals, 1);
  EXPECT_EQ(rs.columns[4].type, mysql::ColumnType::kDouble);
  EXPECT_EQ(rs.columns[5].flags & flag::kUnsigned, flag::kUnsigned);
  EXPECT_EQ(rs.columns[7].charset, mysql::charset::kBinary);
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{std::string("a")}, Value{int64_t{2}}, Value{},
                                      Value{mysql::Decimal{"1.5"}}, Value{1000.0},
                                      Value{uint64_t{18446744073709551615u}}, Value{int64_t{-3}},
                                      Value{std::string("A")}));
}

TEST_F(ExecutorTest, Arithmetic) {
  EXPECT_EQ(One("SELECT 1+1"), Value{int64_t{2}});
  EXPECT_EQ(One("SELECT 7/2"), Value{mysql::Decimal{"3.5000"}});
  EXPECT_EQ(One("SELECT 1/3"), Value{mysql::Decimal{"0.3333"}});
  EXPECT_EQ(One("SELECT 2/3"), Value{mysql::Decimal{"0.6667"}});
  EXPECT_EQ(One("SELECT 1.5 + 1"), Value{mysql::Decimal{"2.5"}});
  EXPECT_EQ(One("SELECT 1.25 * 2"), Value{mysql::Decimal{"2.50"}});
  EXPECT_EQ(One("SELECT 1e0 + 1"), Value{2.0});
  EXPECT_EQ(One("SELECT 7 DIV 2"), Value{int64_t{3}});
  EXPECT_EQ(One("SELECT 7 % 4"), Value{int64_t{3}});
  EXPECT_EQ(One("SELECT 1/0"), Value{});
  EXPECT_EQ(state_.warnings.size(), 1u);
  EXPECT_EQ(One("SELECT 2 > 1 AND 'a' = 'A'"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT NULL = NULL"), Value{});
  EXPECT_EQ(One("SELECT NULL <=> NULL"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT 3 IN (1, 2, 3)"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT 3 NOT BETWEEN 1 AND 2"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT 'abc' LIKE 'A_c'"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT 5 & 3 | 8"), Value{uint64_t{9}});
  EXPECT_EQ(One("SELECT CONCAT('a', 1, 1.5)"), Value{std::string("a11.5")});
  EXPECT_EQ(One("SELECT COALESCE(NULL, 2)"), Value{int64_t{2}});
  EXPECT_EQ(Error("SELECT 9223372036854775807 + 1").code, 1690);
}

TEST_F(ExecutorTest, VersionCommentLimit) {
  mysql::ResultSet rs = Rows("select @@version_comment limit 1");
  ASSERT_EQ(rs.columns.size(), 1u);
  EXPECT_EQ(rs.columns[0].name, "@@version_comment");
  EXPECT_EQ(rs.columns[0].type, mysql::ColumnType::kVarString);
  EXPECT_EQ(rs.rows[0][0],
            Value{std::string("Shoal (MySQL-compatible, NDB-style in-memory cluster)")});
  EXPECT_TRUE(Rows("SELECT 1 LIMIT 0").rows.empty());
  EXPECT_TRUE(Rows("SELECT 1 LIMIT 1, 1").rows.empty());
  EXPECT_TRUE(Rows("SELECT 1 FROM DUAL WHERE 1 = 0").rows.empty());
}

TEST_F(ExecutorTest, ConnectorJInitQuery) {
  mysql::ResultSet rs = Rows(kConnectorJ);
  ASSERT_EQ(rs.columns.size(), 19u);
  ASSERT_EQ(rs.rows.size(), 1u);
  const auto& row = rs.rows[0];
  EXPECT_EQ(rs.columns[0].name, "auto_increment_increment");
  EXPECT_EQ(rs.columns[0].type, mysql::ColumnType::kLongLong);
  EXPECT_EQ(rs.columns[0].flags, flag::kUnsigned | flag::kBinary);
  EXPECT_EQ(rs.columns[0].length, 21u);
  EXPECT_EQ(row[0], Value{uint64_t{1}});
  EXPECT_EQ(rs.columns[1].type, mysql::ColumnType::kVarString);
  EXPECT_EQ(rs.columns[1].charset, mysql::charset::kUtf8mb4GeneralCi);
  EXPECT_EQ(rs.columns[1].length, 28u);
  EXPECT_EQ(row[1], Value{std::string("utf8mb4")});
  EXPECT_EQ(row[5], Value{std::string("utf8mb4_0900_ai_ci")});  // collation_server
  EXPECT_EQ(row[6], Value{std::string("utf8mb4_general_ci")});  // from the handshake
  EXPECT_EQ(row[7], Value{std::string("")});
  EXPECT_EQ(rs.columns[7].length, 0u);
  EXPECT_EQ(row[8], Value{uint64_t{28800}});
  EXPECT_EQ(row[9], Value{std::string("GPL")});
  EXPECT_EQ(row[10], Value{uint64_t{0}});
  EXPECT_EQ(row[11], Value{uint64_t{64 << 20}});
  EXPECT_EQ(row[12], Value{uint64_t{60}});
  EXPECT_EQ(rs.columns[13].length, 1u);  // performance_schema: a boolean
  EXPECT_EQ(rs.columns[13].flags, flag::kBinary);
  EXPECT_EQ(row[13], Value{int64_t{0}});
  EXPECT_EQ(row[14], Value{std::string("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,"
                                       "NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
                                       "NO_ENGINE_SUBSTITUTION")});
  EXPECT_EQ(row[15], Value{std::string("UTC")});
  EXPECT_EQ(row[16], Value{std::string("SYSTEM")});
  EXPECT_EQ(row[17], Value{std::string("READ-COMMITTED")});
  EXPECT_EQ(row[18], Value{uint64_t{28800}});
}

TEST_F(ExecutorTest, ConnectorJOldServerVariables) {
  mysql::ResultSet rs = Rows(
      "SELECT @@tx_isolation AS transaction_isolation, @@query_cache_size, "
      "@@query_cache_type");
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{std::string("READ-COMMITTED")}, Value{uint64_t{0}},
                                      Value{std::string("OFF")}));
  EXPECT_EQ(state_.warnings.size(), 1u);  // @@tx_isolation is deprecated
  EXPECT_EQ(state_.warnings[0].code, 1287);
}

TEST_F(ExecutorTest, SessionSqlMode) {
  mysql::ResultSet rs = Rows("SELECT @@session.sql_mode");
  EXPECT_EQ(rs.columns[0].name, "@@session.sql_mode");
  EXPECT_EQ(Error("SELECT @@session.max_connections").code, 1238);
  EXPECT_EQ(Error("SELECT @@global.warning_count").code, 1238);
  EXPECT_EQ(One("SELECT @@global.max_connections"), Value{uint64_t{1024}});
  EXPECT_EQ(Error("SELECT @@nosuch").message, "Unknown system variable 'nosuch'");
}

TEST_F(ExecutorTest, ConnectStatements) {
  const char* kOk[] = {
      "SET NAMES utf8mb4",
      "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_general_ci'",
      "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_0900_ai_ci'",
      "SET NAMES utf8mb4 COLLATE utf8mb4_bin",
      "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci",
      "SET NAMES latin1",
      "SET NAMES binary",
      "SET NAMES ascii",
      "SET NAMES utf8mb3",
      "SET AUTOCOMMIT = 0",
      "set autocommit=0",
      "SET autocommit=1",
      "SET @@session.autocommit = OFF",
      "SET character_set_results = NULL",
      "START TRANSACTION",
      "BEGIN",
      "COMMIT",
      "commit",
      "ROLLBACK",
      "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
      "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
      "DO 1",
  };
  for (const char* sql : kOk) Ok(sql);
}

TEST_F(ExecutorTest, SetNames) {
  Ok("SET NAMES 'utf8mb4' COLLATE 'utf8mb4_0900_ai_ci'");
  EXPECT_EQ(One("SELECT @@collation_connection"), Value{std::string("utf8mb4_0900_ai_ci")});
  EXPECT_EQ(Rows("SELECT 'x'").columns[0].charset, mysql::charset::kUtf8mb4_0900AiCi);
  Ok("SET NAMES utf8");
  EXPECT_EQ(One("SELECT @@character_set_client"), Value{std::string("utf8mb3")});
  EXPECT_EQ(One("SELECT @@collation_connection"), Value{std::string("utf8mb3_general_ci")});
  EXPECT_EQ(Rows("SELECT 'x'").columns[0].length, 3u);
  // The result encoding the session keeps follows every change (result_encoding).
  Ok("SET character_set_results = NULL");
  EXPECT_EQ(TableResultCharsetMaxLen(state_), 0);
  Ok("SET NAMES utf8mb4");
  EXPECT_EQ(TableResultCharsetMaxLen(state_), 4);
  EXPECT_EQ(Rows("SELECT 'x'").columns[0].length, 4u);
  Ok("SET NAMES utf8 COLLATE utf8_general_ci");
  EXPECT_EQ(WarningCount(state_), 1);
  EXPECT_EQ(Error("SET NAMES nosuch").code, 1115);
  EXPECT_EQ(Error("SET NAMES utf8mb4 COLLATE nosuch").code, 1273);
  EXPECT_EQ(Error("SET NAMES utf8mb4 COLLATE latin1_bin").code, 1253);
  Ok("SET CHARACTER SET latin1");
  EXPECT_EQ(One("SELECT @@character_set_results"), Value{std::string("latin1")});
  EXPECT_EQ(One("SELECT @@character_set_connection"), Value{std::string("utf8mb4")});
}

TEST_F(ExecutorTest, SetVariables) {
  Ok("SET wait_timeout = 100, @@session.net_write_timeout = 120, SESSION interactive_timeout=5");
  EXPECT_EQ(One("SELECT @@wait_timeout"), Value{uint64_t{100}});
  EXPECT_EQ(One("SELECT @@net_write_timeout"), Value{uint64_t{120}});
  EXPECT_EQ(One("SELECT @@global.wait_timeout"), Value{uint64_t{28800}});
  Ok("SET wait_timeout = DEFAULT");
  EXPECT_EQ(One("SELECT @@wait_timeout"), Value{uint64_t{28800}});
  Ok("SET sql_mode = 'TRADITIONAL'");
  EXPECT_EQ(One("SELECT @@sql_mode"),
            Value{std::string("STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
                              "ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION")});
  Ok("SET time_zone = '+02:00', transaction_isolation = 'serializable'");
  EXPECT_EQ(One("SELECT @@transaction_isolation"), Value{std::string("SERIALIZABLE")});
  EXPECT_EQ(One("SELECT NOW()"), DT(2023, 11, 15, 0, 13, 20, 0));
  Ok("SET sql_safe_updates = ON, sql_select_limit = 10");
  EXPECT_EQ(One("SELECT @@sql_safe_updates"), Value{int64_t{1}});
  // Clamped with a warning, as MySQL.
  Ok("SET wait_timeout = 0");
  EXPECT_EQ(One("SELECT @@wait_timeout"), Value{uint64_t{1}});
}

// sql_mode and sql_select_limit are read by every statement: the session keeps what they say
// in fields, in step with every way their values change.
TEST_F(ExecutorTest, DerivedSessionFieldsFollowTheirVariables) {
  EXPECT_TRUE(state_.only_full_group_by);  // MySQL 8.0's default sql_mode has it
  EXPECT_FALSE(state_.ansi_quotes || state_.pipes_as_concat || state_.no_backslash_escapes);
  EXPECT_FALSE(state_.select_limit.has_value());
  Ok("SET sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT', sql_select_limit = 3");
  EXPECT_FALSE(state_.only_full_group_by);
  EXPECT_TRUE(state_.ansi_quotes && state_.pipes_as_concat);
  EXPECT_EQ(state_.select_limit, std::optional<uint64_t>(3));
  Ok("SET SESSION sql_mode = 'ANSI'");  // ANSI includes ONLY_FULL_GROUP_BY
  EXPECT_TRUE(state_.only_full_group_by && state_.ansi_quotes && state_.pipes_as_concat);
  Ok("SET sql_mode = DEFAULT, @@sql_select_limit = DEFAULT");
  EXPECT_TRUE(state_.only_full_group_by);
  EXPECT_FALSE(state_.ansi_quotes || state_.pipes_as_concat);
  EXPECT_FALSE(state_.select_limit.has_value());
  Ok("SET sql_select_limit = 0");
  EXPECT_EQ(state_.select_limit, std::optional<uint64_t>(0));
  Ok("SET sql_select_limit = 18446744073709551615");
  EXPECT_FALSE(state_.select_limit.has_value());
}

TEST_F(ExecutorTest, SetErrors) {
  EXPECT_EQ(Error("SET nosuch = 1").code, 1193);
  EXPECT_EQ(Error("SET nosuch = 1").message, "Unknown system variable 'nosuch'");
  EXPECT_EQ(Error("SET autocommit = 2").code, 1231);
  EXPECT_EQ(Error("SET autocommit = 'maybe'").message,
            "Variable 'autocommit' can't be set to the value of 'maybe'");
  EXPECT_EQ(Error("SET autocommit = 1.5").code, 1232);
  EXPECT_EQ(Error("SET wait_timeout = 'x'").code, 1232);
  EXPECT_EQ(Error("SET sql_mode = 'NOPE'").code, 1231);
  EXPECT_EQ(Error("SET transaction_isolation = 'SOMETIMES'").code, 1231);
  EXPECT_EQ(Error("SET version = 'x'").code, 1238);
  EXPECT_EQ(Error("SET GLOBAL warning_count = 1").code, 1238);
  EXPECT_EQ(Error("SET GLOBAL sql_log_bin = 1").code, 1228);
  EXPECT_EQ(Error("SET max_connections = 10").code, 1229);
  EXPECT_EQ(Error("SET SESSION max_connections = 10").code, 1229);
  EXPECT_EQ(Error("SET character_set_client = 'nope'").code, 1115);
  EXPECT_EQ(Error("SET collation_connection = 'nope'").code, 1273);
  EXPECT_EQ(Error("SET time_zone = 'Mars/Base'").code, 1298);
  EXPECT_EQ(Error("SET GLOBAL wait_timeout = 10").code, 1235);
  EXPECT_EQ(Error("SET sql_mode = NULL").code, 1231);
  // A failing SET changes nothing.
  EXPECT_EQ(Error("SET wait_timeout = 5, autocommit = 7").code, 1231);
  EXPECT_EQ(One("SELECT @@wait_timeout"), Value{uint64_t{28800}});
}

TEST_F(ExecutorTest, CharacterSetResultsNull) {
  Ok("SET character_set_results = NULL");
  mysql::ResultSet rs = Rows("SELECT @@character_set_results");
  EXPECT_EQ(rs.rows[0][0], Value{});
}

TEST_F(ExecutorTest, UserVariables) {
  Ok("SET @a = 3, @b := 'x'");
  EXPECT_EQ(One("SELECT @a"), Value{int64_t{3}});
  EXPECT_EQ(One("SELECT @A + 1"), Value{int64_t{4}});
  EXPECT_EQ(One("SELECT @b"), Value{std::string("x")});
  EXPECT_EQ(One("SELECT @unset"), Value{});
  EXPECT_EQ(One("SELECT @c := 5"), Value{int64_t{5}});
  EXPECT_EQ(One("SELECT @c"), Value{int64_t{5}});
}

TEST_F(ExecutorTest, Functions) {
  EXPECT_EQ(One("SELECT DATABASE()"), Value{});
  Ok("USE sbtest");
  EXPECT_EQ(One("SELECT DATABASE()"), Value{std::string("sbtest")});
  EXPECT_EQ(One("SELECT SCHEMA()"), Value{std::string("sbtest")});
  EXPECT_EQ(One("SELECT USER()"), Value{std::string("sbtest@127.0.0.1")});
  EXPECT_EQ(One("SELECT CURRENT_USER"), Value{std::string("sbtest@%")});
  EXPECT_EQ(One("SELECT CONNECTION_ID()"), Value{uint64_t{7}});
  EXPECT_EQ(One("SELECT VERSION()"), Value{std::string("8.0.36-shoal-0.1.0")});
  EXPECT_EQ(One("SELECT @@version"), Value{std::string("8.0.36-shoal-0.1.0")});
  state_.last_insert_id = 42;
  EXPECT_EQ(One("SELECT LAST_INSERT_ID()"), Value{uint64_t{42}});
  EXPECT_EQ(One("SELECT @@identity"), Value{uint64_t{42}});
  EXPECT_EQ(One("SELECT LAST_INSERT_ID(9)"), Value{uint64_t{9}});
  EXPECT_EQ(state_.last_insert_id, 9u);
  mysql::ResultSet now =
      Rows("SELECT NOW(), CURRENT_TIMESTAMP, UTC_TIMESTAMP(), CURDATE(), NOW(3)");
  EXPECT_EQ(now.columns[0].type, mysql::ColumnType::kDateTime);
  EXPECT_EQ(now.columns[0].length, 19u);
  EXPECT_EQ(now.columns[3].type, mysql::ColumnType::kDate);
  EXPECT_EQ(now.columns[4].length, 23u);
  EXPECT_EQ(now.rows[0][0], DT(2023, 11, 14, 22, 13, 20, 0));
  EXPECT_EQ(now.rows[0][3], DT(2023, 11, 14, 0, 0, 0, 0));
  EXPECT_EQ(now.rows[0][4], DT(2023, 11, 14, 22, 13, 20, 123000));
  EXPECT_EQ(Error("SELECT NOW(7)").code, 1426);
  EXPECT_EQ(Error("SELECT nosuch()").code, 1305);
  // Without a worker's event loop to wait on (no data nodes here), SLEEP answers at once.
  EXPECT_EQ(Rows("SELECT SLEEP(0.5)").rows[0][0], mysql::Value{int64_t{0}});
  EXPECT_EQ(Error("SELECT SLEEP(-0.5)").message, "Incorrect arguments to sleep.");
  EXPECT_EQ(Error("SELECT SLEEP()").code, 1582);
  // An aggregate where MySQL takes none is 1111; in a SELECT without tables it aggregates
  // over one row.
  EXPECT_EQ(Error("SELECT 1 WHERE COUNT(*) > 1").message, "Invalid use of group function");
  EXPECT_EQ(Error("SELECT MAX(COUNT(*))").code, 1111);
  EXPECT_EQ(Error("SELECT SUM(1) OVER () WHERE 1").code, 1235);
  mysql::ResultSet one = Rows("SELECT COUNT(*), SUM(2), MAX('a')");
  ASSERT_EQ(one.rows.size(), 1u);
  EXPECT_EQ(one.rows[0][0], mysql::Value{int64_t{1}});
  EXPECT_EQ(Error("SELECT VERSION(1)").code, 1582);
  EXPECT_EQ(Error("SELECT nosuchcolumn").message, "Unknown column 'nosuchcolumn' in 'field list'");
  EXPECT_EQ(Error("SELECT *").code, 1096);
}

TEST_F(ExecutorTest, ShowVariables) {
  mysql::ResultSet rs = Rows("SHOW VARIABLES LIKE 'char%'");
  ASSERT_EQ(rs.columns.size(), 2u);
  EXPECT_EQ(rs.columns[0].name, "Variable_name");
  EXPECT_EQ(rs.columns[1].name, "Value");
  ASSERT_EQ(rs.rows.size(), 7u);
  EXPECT_EQ(rs.rows[0][0], Value{std::string("character_set_client")});
  EXPECT_EQ(rs.rows[0][1], Value{std::string("utf8mb4")});
  rs = Rows(
      "SHOW SESSION VARIABLES WHERE Variable_name = 'autocommit' OR variable_name LIKE "
      "'wait%'");
  ASSERT_EQ(rs.rows.size(), 2u);
  EXPECT_EQ(rs.rows[0][1], Value{std::string("ON")});
  EXPECT_EQ(rs.rows[1][0], Value{std::string("wait_timeout")});
  EXPECT_EQ(Rows("SHOW GLOBAL VARIABLES LIKE 'warning_count'").rows.size(), 0u);
  EXPECT_GT(Rows("SHOW VARIABLES").rows.size(), 80u);
  EXPECT_EQ(Error("SHOW VARIABLES WHERE nosuch = 1").message,
            "Unknown column 'nosuch' in 'where clause'");
}

TEST_F(ExecutorTest, ShowStatus) {
  state_.questions = 0;
  mysql::ResultSet rs = Rows("SHOW STATUS LIKE 'Uptime'");
  ASSERT_EQ(rs.rows.size(), 1u);
  EXPECT_EQ(rs.rows[0][1], Value{std::string("100")});
  rs = Rows("SHOW GLOBAL STATUS WHERE Variable_name = 'Questions'");
  EXPECT_EQ(rs.rows[0][1], Value{std::string("2")});
}

TEST_F(ExecutorTest, ShowMisc) {
  mysql::ResultSet engines = Rows("SHOW ENGINES");
  EXPECT_EQ(engines.columns.size(), 6u);
  EXPECT_EQ(engines.rows[0][0], Value{std::string("ndbcluster")});
  mysql::ResultSet coll = Rows("SHOW COLLATION LIKE 'utf8mb4_0900_ai_ci'");
  ASSERT_EQ(coll.rows.size(), 1u);
  EXPECT_EQ(coll.rows[0][2], Value{uint64_t{255}});
  EXPECT_EQ(coll.rows[0][3], Value{std::string("Yes")});
  mysql::ResultSet cs = Rows("SHOW CHARACTER SET LIKE 'utf8%'");
  EXPECT_EQ(cs.rows.size(), 2u);
  EXPECT_EQ(Rows("SHOW CHARSET").rows.size(), Rows("SHOW CHARACTER SET").rows.size());
}

TEST_F(ExecutorTest, ShowDatabasesAndTables) {
  mysql::ResultSet dbs = Rows("show databases");
  EXPECT_EQ(dbs.columns[0].name, "Database");
  EXPECT_EQ(dbs.rows.size(), 4u);
  EXPECT_EQ(Error("show tables").code, 1046);
  Ok("USE sbtest");
  dbs = Rows("SHOW DATABASES");
  EXPECT_EQ(dbs.rows.size(), 5u);
  EXPECT_EQ(dbs.rows[3][0], Value{std::string("sbtest")});
  EXPECT_EQ(Rows("SHOW DATABASES LIKE 'sb%'").columns[0].name, "Database (sb%)");
  mysql::ResultSet tables = Rows("show tables");
  EXPECT_EQ(tables.columns[0].name, "Tables_in_sbtest");
  EXPECT_TRUE(tables.rows.empty());
  EXPECT_EQ(Rows("SHOW FULL TABLES FROM other").columns.size(), 2u);
}

TEST_F(ExecutorTest, Use) {
  Ok("USE `my db`");
  EXPECT_EQ(state_.database, "my db");
  EXPECT_EQ(Error("USE ``").code, 1102);
}

TEST_F(ExecutorTest, WarningsAndErrors) {
  Ok("SET NAMES utf8");
  EXPECT_EQ(Ok("SET NAMES utf8").warnings, 1);
  mysql::ResultSet w = Rows("SHOW WARNINGS");
  ASSERT_EQ(w.rows.size(), 1u);
  EXPECT_EQ(w.rows[0][0], Value{std::string("Warning")});
  EXPECT_EQ(w.rows[0][1], Value{uint64_t{1287}});
  EXPECT_EQ(One("SELECT @@warning_count"), Value{uint64_t{1}});
  EXPECT_EQ(One("SHOW COUNT(*) WARNINGS"), Value{uint64_t{1}});
  EXPECT_TRUE(Rows("SHOW WARNINGS LIMIT 0").rows.empty());
  Rows("SELECT 1");
  EXPECT_TRUE(Rows("SHOW WARNINGS").rows.empty());
  Error("SELECT @@nosuch");
  mysql::ResultSet e = Rows("SHOW ERRORS");
  ASSERT_EQ(e.rows.size(), 1u);
  EXPECT_EQ(e.rows[0][0], Value{std::string("Error")});
  EXPECT_EQ(e.rows[0][1], Value{uint64_t{1193}});
  EXPECT_EQ(One("SELECT @@error_count"), Value{uint64_t{1}});
}

TEST_F(ExecutorTest, StatusFlagsFollowTransactions) {
  using mysql::status::kAutocommit;
  using mysql::status::kInTrans;
  EXPECT_EQ(StatusFlags(state_), kAutocommit);
  Ok("BEGIN");
  EXPECT_EQ(StatusFlags(state_), kAutocommit | kInTrans);
  Ok("COMMIT");
  EXPECT_EQ(StatusFlags(state_), kAutocommit);
  Ok("START TRANSACTION READ ONLY");
  EXPECT_EQ(StatusFlags(state_), kAutocommit | kInTrans | mysql::status::kInTransReadonly);
  Ok("ROLLBACK");
  Ok("SET autocommit = 0");
  EXPECT_EQ(StatusFlags(state_), 0);
  Rows("SELECT 1");  // no tables: MySQL does not open a transaction for this
  EXPECT_EQ(StatusFlags(state_), 0);
  EXPECT_EQ(One("SELECT @@autocommit"), Value{int64_t{0}});
  Ok("BEGIN");
  EXPECT_EQ(StatusFlags(state_), kInTrans);
  Ok("SET autocommit = 1");  // commits
  EXPECT_EQ(StatusFlags(state_), kAutocommit);
  Ok("COMMIT AND CHAIN");
  EXPECT_EQ(StatusFlags(state_), kAutocommit | kInTrans);
  EXPECT_EQ(Error("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE").code, 1568);
  Ok("ROLLBACK");
  Ok("SET sql_mode = 'NO_BACKSLASH_ESCAPES'");
  EXPECT_EQ(StatusFlags(state_), kAutocommit | mysql::status::kNoBackslashEscapes);
  EXPECT_EQ(One("SELECT 'a\\'"), Value{std::string("a\\")});
}

// ANSI_QUOTES makes "…" an identifier; PIPES_AS_CONCAT makes || CONCAT, tighter than any
// binary operator. ANSI and TRADITIONAL are stored with the modes they stand for, and
// SELECT @@sql_mode shows both, in MySQL 8.0's order.
TEST_F(ExecutorTest, SqlModeChangesHowStatementsRead) {
  EXPECT_EQ(One("SELECT \"x\""), Value{std::string("x")});
  EXPECT_EQ(One("SELECT 'a' || 'b'"), Value{int64_t{0}});
  Ok("SET sql_mode = 'ansi'");
  EXPECT_EQ(One("SELECT @@sql_mode"),
            Value{std::string("REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,"
                              "ONLY_FULL_GROUP_BY,ANSI")});
  EXPECT_EQ(One("SELECT 'a' || 'b' || 'c'"), Value{std::string("abc")});
  EXPECT_EQ(One("SELECT 'a' || 'b' = 'ab'"), Value{int64_t{1}});
  EXPECT_EQ(One("SELECT - 1 || 2"), Value{std::string("-12")});
  mysql::SqlError unknown = Error("SELECT \"x\"");
  EXPECT_EQ(unknown.code, 1054);
  EXPECT_EQ(unknown.message, "Unknown column 'x' in 'field list'");
  EXPECT_EQ(Rows("SELECT 7 AS \"a\"\"b\"").columns[0].name, "a\"b");
  Ok("SET sql_mode = 'PIPES_AS_CONCAT'");
  EXPECT_EQ(One("SELECT \"x\" || 'y'"), Value{std::string("xy")});
  Ok("SET sql_mode = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES'");
  EXPECT_EQ(One("SELECT 'a' || 'b'"), Value{int64_t{0}});
  EXPECT_EQ(One("SELECT 'a\\'"), Value{std::string("a\\")});
  Ok("SET sql_mode = DEFAULT");
  EXPECT_EQ(One("SELECT \"x\""), Value{std::string("x")});
}

// sql_select_limit caps the statement's own SELECT when it has no LIMIT, a UNION's rows put
// together, not its parts.
TEST_F(ExecutorTest, SqlSelectLimit) {
  Ok("SET sql_select_limit = 1");
  EXPECT_EQ(Rows("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3").rows.size(), 1u);
  EXPECT_EQ(Rows("SELECT 1 UNION ALL SELECT 2 ORDER BY 1 DESC").rows.size(), 1u);
  EXPECT_EQ(Rows("SELECT 1 UNION ALL SELECT 2 LIMIT 2").rows.size(), 2u);
  Ok("PREPARE s FROM 'SELECT 1 UNION ALL SELECT 2'");
  EXPECT_EQ(Rows("EXECUTE s").rows.size(), 1u);  // what EXECUTE runs is the statement's own
  Ok("SET sql_select_limit = 0");
  EXPECT_TRUE(Rows("SELECT 1").rows.empty());
  EXPECT_EQ(Rows("SELECT 1 LIMIT 1").rows.size(), 1u);
  EXPECT_EQ(One("SELECT (SELECT 5) LIMIT 1"), Value{int64_t{5}});
  Ok("SET sql_select_limit = DEFAULT");
  EXPECT_EQ(Rows("SELECT 1 UNION ALL SELECT 2").rows.size(), 2u);
}

// SET TRANSACTION without SESSION or GLOBAL sets the next transaction's access mode: it holds
// until a transaction takes it (begun, or ended by COMMIT or ROLLBACK), and cannot be set
// inside one (1568).
TEST_F(ExecutorTest, SetTransactionIsForTheNextTransaction) {
  Ok("SET TRANSACTION READ ONLY");
  mysql::SqlError ro = Error("INSERT INTO d.t VALUES (1)");
  EXPECT_EQ(ro.code, 1792);
  EXPECT_EQ(ro.sqlstate, "25006");
  EXPECT_EQ(ro.message, "Cannot execute statement in a READ ONLY transaction.");
  EXPECT_EQ(Error("INSERT INTO d.t VALUES (1)").code, 1792);  // a refused statement takes none
  Ok("BEGIN");
  EXPECT_EQ(Error("DELETE FROM d.t").code, 1792);
  mysql::SqlError busy = Error("SET TRANSACTION READ WRITE");
  EXPECT_EQ(busy.code, 1568);
  EXPECT_EQ(busy.message,
            "Transaction characteristics can't be changed while a transaction is in progress");
  Ok("COMMIT");
  EXPECT_NE(Error("INSERT INTO d.t VALUES (1)").code, 1792);
  Ok("SET TRANSACTION READ ONLY");
  Ok("ROLLBACK");  // ends it though no transaction was open
  EXPECT_NE(Error("INSERT INTO d.t VALUES (1)").code, 1792);
  Ok("SET SESSION TRANSACTION READ ONLY");
  Ok("SET TRANSACTION READ WRITE");
  Ok("START TRANSACTION");
  Ok("COMMIT");
  EXPECT_EQ(Error("INSERT INTO d.t VALUES (1)").code, 1792);
  Ok("SET SESSION TRANSACTION READ WRITE");
}

TEST_F(ExecutorTest, SqlPrepareExecute) {
  EXPECT_EQ(Ok("PREPARE s FROM 'SELECT ?+1, ?'").info, "Statement prepared");
  Ok("SET @a = 3, @b = 'x'");
  mysql::ResultSet rs = Rows("EXECUTE s USING @a, @b");
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{int64_t{4}}, Value{std::string("x")}));
  EXPECT_EQ(rs.columns[0].name, "?+1");
  EXPECT_EQ(Error("EXECUTE s USING @a").code, 1210);
  Ok("SET @q = 'SELECT @@version_comment'");
  Ok("PREPARE t FROM @q");
  EXPECT_EQ(Rows("EXECUTE t").rows.size(), 1u);
  Ok("DEALLOCATE PREPARE s");
  EXPECT_EQ(Error("EXECUTE s USING @a, @b").message,
            "Unknown prepared statement handler (s) given to EXECUTE");
  EXPECT_EQ(Error("DROP PREPARE s").code, 1243);
  EXPECT_EQ(Error("PREPARE u FROM 'PREPARE v FROM ''SELECT 1'''").code, 1295);
  EXPECT_EQ(Error("PREPARE u FROM 'SELEC 1'").code, 1064);
  // Table statements need the data nodes; this session has none: NDB's cluster failure.
  EXPECT_EQ(Error("PREPARE c FROM 'SELECT c FROM sbtest1 WHERE id=?'").code, 1297);
}

TEST_F(ExecutorTest, BinaryPrepare) {
  auto prepared = Prepare("SELECT ?+1", state_);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<PreparedStatement>>(prepared));
  std::shared_ptr<const PreparedStatement> ps =
      std::move(std::get<std::unique_ptr<PreparedStatement>>(prepared));
  EXPECT_EQ(ps->param_count(), 1);
  EXPECT_EQ(ps->columns().size(), 1u);
  Value params[] = {int64_t{41}};
  StatementResult r = Execute(ps, params, &state_);
  ASSERT_TRUE(std::holds_alternative<mysql::ResultSet>(r));
  const auto& rs = std::get<mysql::ResultSet>(r);
  EXPECT_EQ(rs.columns[0].type, mysql::ColumnType::kLongLong);
  EXPECT_EQ(rs.rows[0][0], Value{int64_t{42}});
  Value strings[] = {std::string("abc")};
  auto p2 = Prepare("SELECT ?", state_);
  std::shared_ptr<const PreparedStatement> select_param =
      std::move(std::get<std::unique_ptr<PreparedStatement>>(p2));
  StatementResult r2 = Execute(select_param, strings, &state_);
  EXPECT_EQ(std::get<mysql::ResultSet>(r2).columns[0].type, mysql::ColumnType::kVarString);
  EXPECT_EQ(std::get<mysql::ResultSet>(r2).rows[0][0], Value{std::string("abc")});
  EXPECT_EQ(std::get<mysql::SqlError>(Execute(select_param, {}, &state_)).code, 1210);

  auto begin = Prepare("BEGIN", state_);
  std::shared_ptr<const PreparedStatement> b =
      std::move(std::get<std::unique_ptr<PreparedStatement>>(begin));
  EXPECT_EQ(b->param_count(), 0);
  EXPECT_TRUE(b->columns().empty());
  EXPECT_TRUE(std::holds_alternative<OkResult>(Execute(b, {}, &state_)));
  EXPECT_TRUE(state_.in_transaction);

  EXPECT_EQ(std::get<mysql::SqlError>(Prepare("SELECT @@nosuch", state_)).code, 1193);
  EXPECT_EQ(std::get<mysql::SqlError>(Prepare("USE db", state_)).code, 1295);
  EXPECT_EQ(std::get<mysql::SqlError>(Prepare("SELECT c FROM sbtest1 WHERE id=?", state_)).code,
            1297);
  auto show = Prepare("SHOW VARIABLES", state_);
  EXPECT_EQ(std::get<std::unique_ptr<PreparedStatement>>(show)->columns().size(), 2u);
}

TEST_F(ExecutorTest, EmptyAndMultiStatements) {
  EXPECT_EQ(Error("").code, 1065);
  EXPECT_EQ(Error("  -- nothing").code, 1065);
  std::vector<absl::string_view> parts = SplitStatements("SET @a=1; SELECT @a;");
  ASSERT_EQ(parts.size(), 2u);
  Ok(parts[0]);
  EXPECT_EQ(One(parts[1]), Value{int64_t{1}});
}

TEST_F(ExecutorTest, QuestionsAreCounted) {
  state_.questions = 0;
  Rows("SELECT 1");
  Error("SELEC 1");
  EXPECT_EQ(state_.questions, 2u);
}

// Savepoints as a dump (--single-transaction) and read-only nesting use them; rolling back
// to one with writes after it needs a cluster and is covered end to end.
TEST_F(ExecutorTest, Savepoints) {
  Ok("SAVEPOINT outside");  // outside a transaction: accepted, not kept
  EXPECT_EQ(Error("ROLLBACK TO outside").code, 1305);
  Ok("BEGIN");
  Ok("SAVEPOINT a");
  Ok("SAVEPOINT b");
  Ok("SAVEPOINT A");              // names ignore case: a moves after b
  Ok("ROLLBACK WORK TO a");       // keeps both
  Ok("ROLLBACK TO SAVEPOINT b");  // drops a, set after b
  EXPECT_EQ(Error("ROLLBACK TO a").code, 1305);
  Ok("SAVEPOINT a");
  Ok("RELEASE SAVEPOINT b");  // and every later one
  mysql::SqlError e = Error("RELEASE SAVEPOINT a");
  EXPECT_EQ(e.code, 1305);
  EXPECT_EQ(e.sqlstate, "42000");
  EXPECT_EQ(e.message, "SAVEPOINT a does not exist");
  Ok("SAVEPOINT c");
  Ok("COMMIT");
  EXPECT_EQ(Error("ROLLBACK TO c").code, 1305);  // gone with the transaction
  Ok("BEGIN");
  EXPECT_EQ(Error("RELEASE SAVEPOINT c").code, 1305);
  Ok("ROLLBACK");
}

TEST_F(ExecutorTest, RowComparisons) {
  mysql::ResultSet rs = Rows(
      "SELECT (1,2) = (1,2), (1,NULL) = (1,2), (1,2) IN ((3,4),(1,2)), (1,2) < (1,3), "
      "(1,NULL) = (2,2), (1,NULL) <=> (1,NULL), (1,NULL) <> (2,2), ROW(1,'a') = (1,'A')");
  ASSERT_EQ(rs.rows.size(), 1u);
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{int64_t{1}}, Value{}, Value{int64_t{1}},
                                      Value{int64_t{1}}, Value{int64_t{0}}, Value{int64_t{1}},
                                      Value{int64_t{1}}, Value{int64_t{1}}));
  EXPECT_EQ(rs.columns[0].flags & flag::kNotNull, flag::kNotNull);
  EXPECT_EQ(rs.columns[1].flags & flag::kNotNull, 0);
  // Lexicographic: the first difference decides; a NULL before it makes the result NULL.
  rs = Rows(
      "SELECT (1,NULL) < (2,1), (NULL,1) < (2,1), (1,2) <= (1,2), (2,1) > (1,9), "
      "(1,2) >= (1,3), (1,2,3) < (1,2,4), ((1,2),3) = ((1,2),3), ((1,NULL),3) = ((1,2),4)");
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{int64_t{1}}, Value{}, Value{int64_t{1}},
                                      Value{int64_t{1}}, Value{int64_t{0}}, Value{int64_t{1}},
                                      Value{int64_t{1}}, Value{int64_t{0}}));
  // IN is the OR of row equalities, with their NULLs.
  rs = Rows(
      "SELECT (1,2) IN ((1,NULL),(3,4)), (1,2) IN ((2,NULL),(3,4)), (1,2) NOT IN ((3,4)), "
      "(NULL,2) IN ((1,2)), (NULL,2) IN ((1,3)), (1,2) NOT IN ((1,NULL))");
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{}, Value{int64_t{0}}, Value{int64_t{1}}, Value{},
                                      Value{int64_t{0}}, Value{}));
  EXPECT_EQ(One("SELECT 1 WHERE (1, 2) IN ((1, 2))"), Value{int64_t{1}});
}

TEST_F(ExecutorTest, RowWhereOneValueBelongsIs1241) {
  for (const char* sql :
       {"SELECT (1,2)", "SELECT (1,2) + 1", "SELECT NOT (1,2)", "SELECT (1,2) IS NULL",
        "SELECT 1 = (1,2)", "SELECT 1 IN ((1,2))", "SELECT ROW(1,2) LIKE 'a'",
        "SELECT 1 WHERE (1,2)", "SELECT @a := (1,2)"}) {
    mysql::SqlError e = Error(sql);
    EXPECT_EQ(e.code, 1241) << sql;
    EXPECT_EQ(e.sqlstate, "21000") << sql;
    EXPECT_EQ(e.message, "Operand should contain 1 column(s)") << sql;
  }
  for (const char* sql : {"SELECT (1,2) = (1,2,3)", "SELECT (1,2) = 1", "SELECT (1,2) IN (1, 2)",
                          "SELECT (1,2) IN ((1,2),(1,2,3))", "SELECT (1,2) < ROW(1,2,3)",
                          "SELECT ((1,2),3) = (1,2)"}) {
    EXPECT_EQ(Error(sql).message, "Operand should contain 2 column(s)") << sql;
  }
  EXPECT_EQ(Error("SELECT (1,2,3) <=> (1,2)").message, "Operand should contain 3 column(s)");
  EXPECT_EQ(Error("SELECT (1,2) IN (SELECT 1, 2)").code, 1235);
}

TEST_F(ExecutorTest, SubqueriesWithoutTables) {
  mysql::ResultSet rs = Rows(
      "SELECT 1 IN (SELECT 1), 2 IN (SELECT 1), 2 NOT IN (SELECT 1), NULL IN (SELECT 1), "
      "EXISTS (SELECT 1), EXISTS (SELECT 1 FROM DUAL WHERE 0), (SELECT 'x'), "
      "(SELECT 1 FROM DUAL WHERE 0), 1 IN (SELECT 2 IN (SELECT 2))");
  ASSERT_EQ(rs.rows.size(), 1u);
  EXPECT_THAT(rs.rows[0], ElementsAre(Value{int64_t{1}}, Value{int64_t{0}}, Value{int64_t{1}},
                                      Value{}, Value{int64_t{1}}, Value{int64_t{0}},
                                      Value{std::string("x")}, Value{}, Value{int64_t{1}}));
  EXPECT_EQ(Error("SELECT (SELECT 1, 2)").code, 1241);
  EXPECT_EQ(Error("SELECT 1 IN (SELECT 1, 2)").code, 1241);
  EXPECT_EQ(One("SELECT EXISTS (SELECT 1, 2)"), Value{int64_t{1}});
  Ok("SET @s = (SELECT 5)");
  EXPECT_EQ(One("SELECT @s"), Value{int64_t{5}});
  // Without a cluster there is no table to read (sql_corpus/subqueries.sql reads some).
  EXPECT_EQ(Error("SELECT 1 IN (SELECT a FROM t)").code, 1297);
}

// Counts at the ends of BIGINT: no signed overflow (UBSan checks this in CI), MySQL's answers.
TEST_F(ExecutorTest, ExtremeCountsDoNotOverflow) {
  EXPECT_EQ(One("SELECT SUBSTRING_INDEX('a.b.c', '.', -9223372036854775808)"),
            Value{std::string("a.b.c")});
  EXPECT_EQ(One("SELECT SUBSTRING_INDEX('a.b.c', '.', -2)"), Value{std::string("b.c")});
  Rows("SELECT PERIOD_ADD(200801, 9223372036854775807)");
}

TEST_F(ExecutorTest, QuantifiedSubqueriesWithoutTables) {
  // ANY is true when one comparison is, ALL false when one is; else a NULL comparison decides.
  mysql::ResultSet rs = Rows(
      "SELECT 2 > ANY (SELECT 1 UNION SELECT 3), 0 > ANY (SELECT 1 UNION SELECT 3), "
      "2 > ALL (SELECT 1 UNION SELECT 3), 4 > ALL (SELECT 1 UNION SELECT 3), "
      "4 > ALL (SELECT 1 UNION SELECT NULL), 0 > ALL (SELECT 1 UNION SELECT NULL), "
      "2 > SOME (SELECT NULL UNION SELECT 1), 0 > SOME (SELECT NULL UNION SELECT 1), "
      "NULL > ALL (SELECT 1 FROM DUAL WHERE 0), NULL < ANY (SELECT 1 FROM DUAL WHERE 0), "
      "NULL = ALL (SELECT 1), 1 = ALL (SELECT 1 UNION ALL SELECT 1), 1 <> ANY (SELECT 1), "
      "'a' = ALL (SELECT 'A'), 'a' = ALL (SELECT 'A' COLLATE utf8mb4_bin)");
  ASSERT_EQ(rs.rows.size(), 1u);
  const Value t{int64_t{1}}, f{int64_t{0}}, null{};
  EXPECT_THAT(rs.rows[0], ElementsAre(t, f, f, t, null, f, t, null, t, f, null, t, f, t, f));
  EXPECT_EQ(Error("SELECT 1 > ANY (SELECT 1, 2)").code, 1241);
  EXPECT_EQ(Error("SELECT (1, 2) > ANY (SELECT 1)").code, 1241);
}

TEST_F(ExecutorTest, Collate) {
  mysql::ResultSet rs = Rows(
      "SELECT 'a' = 'A', 'a' = 'A' COLLATE utf8mb4_bin, 'a' COLLATE utf8mb4_bin = 'A', "
      "'b' COLLATE utf8mb4_bin > 'A', 'a' COLLATE utf8mb4_general_ci IN ('A'), "
      "'a' COLLATE utf8mb4_bin IN ('A'), 'abc' LIKE 'A%' COLLATE utf8mb4_bin");
  ASSERT_EQ(rs.rows.size(), 1u);
  const Value t{int64_t{1}}, f{int64_t{0}};
  EXPECT_THAT(rs.rows[0], ElementsAre(t, f, f, t, t, f, f));
  EXPECT_EQ(rs.columns[1].name, "'a' = 'A' COLLATE utf8mb4_bin");
  rs = Rows("SELECT 'x' COLLATE utf8mb4_bin, 'y' COLLATE UTF8MB4_GENERAL_CI");
  EXPECT_EQ(rs.columns[0].charset, 46);  // utf8mb4_bin
  EXPECT_EQ(rs.columns[1].charset, 45);  // utf8mb4_general_ci
  rs = Rows(
      "SELECT collation_name FROM information_schema.collations WHERE collation_name LIKE "
      "'utf8mb4_b%' OR collation_name LIKE 'UTF8MB4_G%' COLLATE utf8mb4_bin ORDER BY 1");
  ASSERT_EQ(rs.rows.size(), 1u);
  EXPECT_EQ(rs.rows[0][0], Value{std::string("utf8mb4_bin")});
  mysql::SqlError unknown = Error("SELECT 'a' COLLATE nosuch");
  EXPECT_EQ(unknown.code, 1273);
  EXPECT_EQ(unknown.message, "Unknown collation: 'nosuch'");
  mysql::SqlError mismatch = Error("SELECT 'a' COLLATE latin1_bin");
  EXPECT_EQ(mismatch.code, 1253);
  EXPECT_EQ(mismatch.message, "COLLATION 'latin1_bin' is not valid for CHARACTER SET 'utf8mb4'");
  EXPECT_EQ(Error("SELECT x'41' COLLATE utf8mb4_bin").code, 1253);
  EXPECT_EQ(Error("SELECT 1 FROM DUAL WHERE 'a' = 'b' COLLATE nosuch").code, 1273);
  EXPECT_EQ(One("SELECT 1 COLLATE latin1_bin"), Value{std::string("1")});
}

TEST_F(ExecutorTest, FoundRows) {
  const Value total = One("SELECT COUNT(*) FROM information_schema.collations");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{1}});  // the COUNT(*)'s one row
  ASSERT_EQ(state_.warnings.size(), 1u);
  EXPECT_EQ(state_.warnings[0].code, 1287);
  mysql::ResultSet rs = Rows(
      "SELECT SQL_CALC_FOUND_ROWS collation_name FROM information_schema.collations ORDER BY 1 "
      "LIMIT 2, 3");
  EXPECT_EQ(rs.rows.size(), 3u);
  ASSERT_EQ(state_.warnings.size(), 1u);
  EXPECT_EQ(state_.warnings[0].code, 1287);
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), total);
  Rows("SELECT collation_name FROM information_schema.collations LIMIT 4");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{4}});
  Rows("SELECT SQL_CALC_FOUND_ROWS 1 LIMIT 0");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{1}});
  Rows("SELECT SQL_CALC_FOUND_ROWS 1 FROM DUAL WHERE 0");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{0}});
  Rows("SELECT SQL_CALC_FOUND_ROWS 1 UNION ALL SELECT 2 UNION ALL SELECT 3 LIMIT 1");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{3}});
  // Without a LIMIT after it the union counts whole, not its first SELECT.
  Rows("SELECT SQL_CALC_FOUND_ROWS 1 UNION ALL SELECT 2 UNION ALL SELECT 3");
  EXPECT_EQ(One("SELECT FOUND_ROWS()"), Value{int64_t{3}});
}

TEST_F(ExecutorTest, InformationSchemaWithoutTables) {
  mysql::ResultSet rs = Rows(
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name IN "
      "(SELECT 'mysql') OR schema_name LIKE 'info%' ORDER BY 1");
  ASSERT_EQ(rs.columns.size(), 1u);
  EXPECT_EQ(rs.columns[0].name, "SCHEMA_NAME");  // MySQL 8.0 keeps the view's column name
  ASSERT_EQ(rs.rows.size(), 2u);
  EXPECT_EQ(rs.rows[0][0], Value{std::string("information_schema")});
  EXPECT_EQ(rs.rows[1][0], Value{std::string("mysql")});
  EXPECT_EQ(One("SELECT COUNT(*) FROM information_schema.files"), Value{int64_t{0}});
  EXPECT_EQ(One("SELECT engine FROM information_schema.ENGINES"), Value{std::string("ndbcluster")});
  EXPECT_EQ(One("SELECT maxlen FROM information_schema.character_sets "
                "WHERE character_set_name = 'utf8mb4'"),
            Value{uint64_t{4}});
  EXPECT_EQ(One("SELECT COUNT(*) FROM information_schema.tables "
                "WHERE table_schema = 'information_schema' AND table_name = 'COLUMNS'"),
            Value{int64_t{1}});
  mysql::SqlError e = Error("SELECT * FROM information_schema.nope");
  EXPECT_EQ(e.code, 1109);
  EXPECT_EQ(e.message, "Unknown table 'nope' in information_schema");
  // Prepared: the view's columns are known before it runs.
  auto prepared = Prepare("SELECT table_name, version FROM information_schema.tables", state_);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<PreparedStatement>>(prepared));
  const auto& columns = std::get<std::unique_ptr<PreparedStatement>>(prepared)->columns();
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[1].type, mysql::ColumnType::kLongLong);
}

TEST_F(ExecutorTest, StoredProgramListingsAreEmpty) {
  Ok("USE shop");
  for (const char* sql : {"SHOW EVENTS", "SHOW TRIGGERS", "SHOW PROCEDURE STATUS",
                          "SHOW FUNCTION STATUS WHERE Db = 'shop'"}) {
    SCOPED_TRACE(sql);
    mysql::ResultSet rs = Rows(sql);
    EXPECT_TRUE(rs.rows.empty());
    EXPECT_GE(rs.columns.size(), 11u);
  }
  EXPECT_EQ(Rows("SHOW TRIGGERS").columns[0].name, "Trigger");
}

// A view keeps the quoting modes it was made under; one from a dictionary of before has none.
TEST(ViewParseOptionsTest, ModesOfTheCreatingSession) {
  wire::View old_view;
  old_view.set_select("SELECT \"a\" || 'b'");
  ParseOptions options = internal::ViewParseOptions(old_view);
  EXPECT_EQ(options.double_quotes, DoubleQuotes::kString);
  EXPECT_FALSE(options.pipes_as_concat);
  EXPECT_EQ(options.escapes, BackslashEscapes::kOn);
  wire::View view = old_view;
  view.set_ansi_quotes(true);
  view.set_pipes_as_concat(true);
  view.set_no_backslash_escapes(true);
  options = internal::ViewParseOptions(view);
  EXPECT_EQ(options.double_quotes, DoubleQuotes::kIdentifier);
  EXPECT_TRUE(options.pipes_as_concat);
  EXPECT_EQ(options.escapes, BackslashEscapes::kOff);
  // The fields are new: a View serialized before them reads back without them.
  wire::View parsed;
  ASSERT_TRUE(parsed.ParseFromString(old_view.SerializeAsString()));
  EXPECT_FALSE(parsed.ansi_quotes() || parsed.pipes_as_concat() || parsed.no_backslash_escapes());
}

}  // namespace
}  // namespace shoal::sql
