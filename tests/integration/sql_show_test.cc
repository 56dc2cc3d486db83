// What a table looks like from outside, end to end against a running cluster (mgmd, two data
// nodes, one router): DESCRIBE / SHOW [FULL] COLUMNS, SHOW INDEX, SHOW CREATE TABLE and
// DATABASE, EXPLAIN of each native plan, the same through prepared statements, and
// COM_FIELD_LIST, which the mariadb CLI sends to complete column names. The expected texts
// are MySQL 8.0's, as the mariadb CLI prints them in --batch mode.
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/integration/test_cluster.h"

namespace shoal::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Every column type family, each kind of key, and defaults of several types.
constexpr char kCreateKinds[] =
    "CREATE TABLE kinds (id INT UNSIGNED NOT NULL AUTO_INCREMENT, code CHAR(120) NOT NULL, "
    "name VARCHAR(40) DEFAULT 'none', qty INT NOT NULL DEFAULT 0, price DECIMAL(10,2) DEFAULT "
    "1.50, seen DATETIME(3) DEFAULT '2024-01-02 03:04:05.678', big BIGINT, note TEXT, flag "
    "TINYINT(1) DEFAULT 1, PRIMARY KEY (id), UNIQUE KEY uk_code (code), KEY k_qty (qty), "
    "KEY k_name_qty (name, qty)) ENGINE=ndbcluster";

constexpr char kDescribeKinds[] =
    "Field\tType\tNull\tKey\tDefault\tExtra\n"
    "id\tint unsigned\tNO\tPRI\tNULL\tauto_increment\n"
    "code\tchar(120)\tNO\tUNI\tNULL\t\n"
    "name\tvarchar(40)\tYES\tMUL\tnone\t\n"
    "qty\tint\tNO\tMUL\t0\t\n"
    "price\tdecimal(10,2)\tYES\t\t1.50\t\n"
    "seen\tdatetime(3)\tYES\t\t2024-01-02 03:04:05.678\t\n"
    "big\tbigint\tYES\t\tNULL\t\n"
    "note\ttext\tYES\t\tNULL\t\n"
    "flag\ttinyint(1)\tYES\t\t1\t\n";

class SqlShowTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new TestCluster(TestCluster::FromConfig(RouterClusterConfig(), {"--launch"}));
    ASSERT_TRUE(cluster_->WaitForState({2, 3, 4}, "started")) << cluster_->MgmdLog();
    Query("CREATE DATABASE showdb", "");
    Query(kCreateKinds);
    Query(
        "CREATE TABLE parts (id INT PRIMARY KEY, v INT, KEY kv (v)) PARTITION BY KEY() "
        "PARTITIONS 4");
    // No primary key: Shoal's hidden one is never shown; the NOT NULL unique key is PRI.
    Query("CREATE TABLE nopk (a INT, b VARCHAR(10) NOT NULL, UNIQUE KEY ub (b))");
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  static std::string socket() { return cluster_->run_dir() + "/r4.sock"; }

  // The mariadb CLI in batch mode: a header line, then tab-separated rows.
  static CommandResult Mariadb(const std::string& sql, const std::string& database = "showdb") {
    std::vector<std::string> args = {"/usr/bin/mariadb", "--user=root", "--batch",
                                     "--socket=" + socket()};
    if (!database.empty()) args.push_back("--database=" + database);
    args.insert(args.end(), {"-e", sql});
    return RunCommand(args, absl::Seconds(60));
  }

  static std::string Query(const std::string& sql, const std::string& database = "showdb") {
    CommandResult r = Mariadb(sql, database);
    EXPECT_EQ(r.exit_code, 0) << sql << "\n" << r.out << r.err;
    return r.out;
  }

  static std::string Error(const std::string& sql, const std::string& database = "showdb") {
    CommandResult r = Mariadb(sql, database);
    EXPECT_NE(r.exit_code, 0) << sql << "\n" << r.out;
    return r.err;
  }

  // EXPLAIN's one row without the header.
  static std::string ExplainRow(const std::string& statement) {
    std::string out = Query("EXPLAIN " + statement);
    std::vector<std::string> lines = absl::StrSplit(out, '\n', absl::SkipEmpty());
    EXPECT_EQ(lines.size(), 2u) << out;
    return lines.size() == 2 ? lines[1] : out;
  }

  static std::string Python() { return SourceDir() + "/build/clients/pyvenv/bin/python"; }

  // Writes `script` to the run directory and runs it with the clients' Python (mysql-connector).
  static CommandResult RunPython(const std::string& name, const std::string& script) {
    std::string path = cluster_->run_dir() + "/" + name;
    std::ofstream(path) << script;
    return RunCommand({Python(), path, socket()}, absl::Seconds(60));
  }

  static TestCluster* cluster_;
};

TestCluster* SqlShowTest::cluster_ = nullptr;

TEST_F(SqlShowTest, DescribeAndShowColumns) {
  EXPECT_EQ(Query("DESCRIBE kinds"), kDescribeKinds);
  EXPECT_EQ(Query("DESC kinds"), kDescribeKinds);
  EXPECT_EQ(Query("EXPLAIN kinds"), kDescribeKinds);
  EXPECT_EQ(Query("SHOW COLUMNS FROM kinds"), kDescribeKinds);
  EXPECT_EQ(Query("SHOW FIELDS IN kinds FROM showdb", ""), kDescribeKinds);
  EXPECT_EQ(Query("SHOW COLUMNS FROM showdb.kinds", ""), kDescribeKinds);

  const std::string header = "Field\tType\tNull\tKey\tDefault\tExtra\n";
  EXPECT_EQ(Query("SHOW COLUMNS FROM kinds LIKE 'q%'"), header + "qty\tint\tNO\tMUL\t0\t\n");
  EXPECT_EQ(Query("DESCRIBE kinds 'pr%'"), header + "price\tdecimal(10,2)\tYES\t\t1.50\t\n");
  EXPECT_EQ(Query("DESCRIBE kinds qty"), header + "qty\tint\tNO\tMUL\t0\t\n");
  EXPECT_EQ(Query("SHOW COLUMNS FROM kinds WHERE `Key` = 'MUL'"),
            header + "name\tvarchar(40)\tYES\tMUL\tnone\t\nqty\tint\tNO\tMUL\t0\t\n");

  EXPECT_EQ(Query("DESCRIBE nopk"),
            header + "a\tint\tYES\t\tNULL\t\nb\tvarchar(10)\tNO\tPRI\tNULL\t\n");
  EXPECT_THAT(Query("SHOW COLUMNS FROM nopk"), Not(HasSubstr("$PK")));
}

// Connector/J reads the reserved words before Hibernate can choose its dialect.
TEST_F(SqlShowTest, KeywordsListsTheReservedWords) {
  EXPECT_EQ(Query("SELECT WORD, RESERVED FROM INFORMATION_SCHEMA.KEYWORDS WHERE RESERVED = 1 AND "
                  "WORD IN ('SELECT', 'ZEROFILL', 'NOTAWORD') ORDER BY WORD"),
            "WORD\tRESERVED\nSELECT\t1\nZEROFILL\t1\n");
}

TEST_F(SqlShowTest, ShowFullColumns) {
  const std::string priv = "select,insert,update,references";
  EXPECT_EQ(Query("SHOW FULL COLUMNS FROM kinds"),
            "Field\tType\tCollation\tNull\tKey\tDefault\tExtra\tPrivileges\tComment\n"
            "id\tint unsigned\tNULL\tNO\tPRI\tNULL\tauto_increment\t" +
                priv +
                "\t\n"
                "code\tchar(120)\tutf8mb4_0900_ai_ci\tNO\tUNI\tNULL\t\t" +
                priv +
                "\t\n"
                "name\tvarchar(40)\tutf8mb4_0900_ai_ci\tYES\tMUL\tnone\t\t" +
                priv +
                "\t\n"
                "qty\tint\tNULL\tNO\tMUL\t0\t\t" +
                priv +
                "\t\n"
                "price\tdecimal(10,2)\tNULL\tYES\t\t1.50\t\t" +
                priv +
                "\t\n"
                "seen\tdatetime(3)\tNULL\tYES\t\t2024-01-02 03:04:05.678\t\t" +
                priv +
                "\t\n"
                "big\tbigint\tNULL\tYES\t\tNULL\t\t" +
                priv +
                "\t\n"
                "note\ttext\tutf8mb4_0900_ai_ci\tYES\t\tNULL\t\t" +
                priv +
                "\t\n"
                "flag\ttinyint(1)\tNULL\tYES\t\t1\t\t" +
                priv + "\t\n");
  EXPECT_EQ(Query("SHOW FULL FIELDS FROM kinds LIKE 'big'"),
            "Field\tType\tCollation\tNull\tKey\tDefault\tExtra\tPrivileges\tComment\n"
            "big\tbigint\tNULL\tYES\t\tNULL\t\t" +
                priv + "\t\n");
}

TEST_F(SqlShowTest, ShowIndex) {
  const std::string header =
      "Table\tNon_unique\tKey_name\tSeq_in_index\tColumn_name\tCollation\tCardinality\tSub_part\t"
      "Packed\tNull\tIndex_type\tComment\tIndex_comment\tVisible\tExpression\n";
  const std::string tail = "\tBTREE\t\t\tYES\tNULL\n";
  EXPECT_EQ(Query("SHOW INDEX FROM kinds"),
            header + "kinds\t0\tPRIMARY\t1\tid\tA\t0\tNULL\tNULL\t" + tail +
                "kinds\t0\tuk_code\t1\tcode\tA\t0\tNULL\tNULL\t" + tail +
                "kinds\t1\tk_qty\t1\tqty\tA\t0\tNULL\tNULL\t" + tail +
                "kinds\t1\tk_name_qty\t1\tname\tA\t0\tNULL\tNULL\tYES" + tail +
                "kinds\t1\tk_name_qty\t2\tqty\tA\t0\tNULL\tNULL\t" + tail);
  EXPECT_EQ(Query("SHOW KEYS FROM kinds WHERE Key_name = 'k_qty'"),
            header + "kinds\t1\tk_qty\t1\tqty\tA\t0\tNULL\tNULL\t" + tail);
  EXPECT_EQ(Query("SHOW INDEXES IN nopk"), header + "nopk\t0\tub\t1\tb\tA\t0\tNULL\tNULL\t" + tail);
}

TEST_F(SqlShowTest, ShowCreate) {
  EXPECT_EQ(Query("SHOW CREATE TABLE kinds"),
            "Table\tCreate Table\n"
            "kinds\tCREATE TABLE `kinds` (\\n"
            "  `id` int unsigned NOT NULL AUTO_INCREMENT,\\n"
            "  `code` char(120) NOT NULL,\\n"
            "  `name` varchar(40) DEFAULT 'none',\\n"
            "  `qty` int NOT NULL DEFAULT '0',\\n"
            "  `price` decimal(10,2) DEFAULT '1.50',\\n"
            "  `seen` datetime(3) DEFAULT '2024-01-02 03:04:05.678',\\n"
            "  `big` bigint DEFAULT NULL,\\n"
            "  `note` text,\\n"
            "  `flag` tinyint(1) DEFAULT '1',\\n"
            "  PRIMARY KEY (`id`),\\n"
            "  UNIQUE KEY `uk_code` (`code`),\\n"
            "  KEY `k_qty` (`qty`),\\n"
            "  KEY `k_name_qty` (`name`,`qty`)\\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4\n");
  const std::string database =
      "Database\tCreate Database\n"
      "showdb\tCREATE DATABASE `showdb` /*!40100 DEFAULT CHARACTER SET utf8mb4 */ /*!80016 "
      "DEFAULT ENCRYPTION='N' */\n";
  EXPECT_EQ(Query("SHOW CREATE DATABASE showdb", ""), database);
  EXPECT_EQ(Query("SHOW CREATE SCHEMA showdb", ""), database);
}

// AUTO_INCREMENT = n at CREATE TABLE, and the counter an explicit value moved, as MySQL shows
// them: SHOW CREATE TABLE's AUTO_INCREMENT=n (only above 1), SHOW TABLE STATUS's Auto_increment
// and information_schema.TABLES.AUTO_INCREMENT (NULL without an AUTO_INCREMENT column).
TEST_F(SqlShowTest, AutoIncrementCounterShown) {
  Query(
      "CREATE TABLE counter_start (id INT PRIMARY KEY AUTO_INCREMENT, v INT) AUTO_INCREMENT=1000");
  Query("CREATE TABLE counter_moved (id INT PRIMARY KEY AUTO_INCREMENT, v INT)");
  const std::string create_moved =
      "Table\tCreate Table\n"
      "counter_moved\tCREATE TABLE `counter_moved` (\\n"
      "  `id` int NOT NULL AUTO_INCREMENT,\\n"
      "  `v` int DEFAULT NULL,\\n"
      "  PRIMARY KEY (`id`)\\n"
      ") ENGINE=ndbcluster";
  EXPECT_EQ(Query("SHOW CREATE TABLE counter_moved"), create_moved + " DEFAULT CHARSET=utf8mb4\n");
  EXPECT_EQ(Query("INSERT INTO counter_moved (id, v) VALUES (3, 0); "
                  "INSERT INTO counter_moved (v) VALUES (1), (2); SHOW CREATE TABLE counter_moved"),
            create_moved + " AUTO_INCREMENT=6 DEFAULT CHARSET=utf8mb4\n");
  EXPECT_EQ(Query("SHOW CREATE TABLE counter_start"),
            "Table\tCreate Table\n"
            "counter_start\tCREATE TABLE `counter_start` (\\n"
            "  `id` int NOT NULL AUTO_INCREMENT,\\n"
            "  `v` int DEFAULT NULL,\\n"
            "  PRIMARY KEY (`id`)\\n"
            ") ENGINE=ndbcluster AUTO_INCREMENT=1000 DEFAULT CHARSET=utf8mb4\n");
  EXPECT_EQ(Query("SELECT TABLE_NAME, AUTO_INCREMENT FROM information_schema.TABLES "
                  "WHERE TABLE_SCHEMA = 'showdb' AND TABLE_NAME IN "
                  "('counter_start', 'counter_moved', 'nopk') ORDER BY TABLE_NAME"),
            "TABLE_NAME\tAUTO_INCREMENT\ncounter_moved\t6\ncounter_start\t1000\nnopk\tNULL\n");
  EXPECT_THAT(Query("SHOW TABLE STATUS LIKE 'counter_start'"), HasSubstr("\t1000\t"));
  Query("DROP TABLE counter_start, counter_moved");
}

// Text columns are case-insensitive unless a _bin collation is named, and so are their keys:
// shown as MySQL 8.0 shows them, and a key in another case is the same key (1062 names the
// value as written), found through a const plan.
TEST_F(SqlShowTest, ColumnCollationsAndTheKeysThatFollowThem) {
  Query(
      "CREATE TABLE coll (name VARCHAR(20) PRIMARY KEY, code VARCHAR(10) COLLATE utf8mb4_bin, "
      "UNIQUE KEY uk_code (code))");
  EXPECT_EQ(Query("SHOW CREATE TABLE coll"),
            "Table\tCreate Table\n"
            "coll\tCREATE TABLE `coll` (\\n"
            "  `name` varchar(20) NOT NULL,\\n"
            "  `code` varchar(10) COLLATE utf8mb4_bin DEFAULT NULL,\\n"
            "  PRIMARY KEY (`name`),\\n"
            "  UNIQUE KEY `uk_code` (`code`)\\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4\n");
  EXPECT_EQ(Query("SELECT COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE "
                  "TABLE_NAME = 'coll' ORDER BY ORDINAL_POSITION"),
            "COLUMN_NAME\tCOLLATION_NAME\nname\tutf8mb4_0900_ai_ci\ncode\tutf8mb4_bin\n");
  EXPECT_THAT(Query("SHOW FULL COLUMNS FROM coll"), HasSubstr("code\tvarchar(10)\tutf8mb4_bin"));
  // A view's text columns are the connection's (case-insensitive) whatever their source.
  Query("CREATE VIEW coll_v AS SELECT name, UPPER(code) AS up FROM coll");
  EXPECT_EQ(Query("SELECT COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE "
                  "TABLE_NAME = 'coll_v' ORDER BY ORDINAL_POSITION"),
            "COLUMN_NAME\tCOLLATION_NAME\nname\tutf8mb4_0900_ai_ci\nup\tutf8mb4_0900_ai_ci\n");
  Query("DROP VIEW coll_v");

  Query("INSERT INTO coll VALUES ('Ada Lovelace', 'x1'), ('Alan Turing', 'X1')");
  EXPECT_THAT(Error("INSERT INTO coll VALUES ('ADA LOVELACE', 'y')"),
              HasSubstr("ERROR 1062 (23000) at line 1: Duplicate entry 'ADA LOVELACE' for key "
                        "'coll.PRIMARY'"));
  EXPECT_EQ(Query("SELECT name, code FROM coll WHERE name = 'ada lovelace'"),
            "name\tcode\nAda Lovelace\tx1\n");
  EXPECT_THAT(ExplainRow("SELECT * FROM coll WHERE name = 'ada lovelace'"), HasSubstr("\tconst\t"));
  EXPECT_EQ(Query("SELECT name FROM coll WHERE code = 'X1'"), "name\nAlan Turing\n");
  Query("DROP TABLE coll");
}

TEST_F(SqlShowTest, ErrorsAsMySqlGivesThem) {
  EXPECT_THAT(Error("DESCRIBE nosuch"),
              HasSubstr("ERROR 1146 (42S02) at line 1: Table 'showdb.nosuch' doesn't exist"));
  EXPECT_THAT(Error("SHOW FULL COLUMNS FROM nosuch"), HasSubstr("ERROR 1146 (42S02)"));
  EXPECT_THAT(Error("SHOW INDEX FROM nosuch"), HasSubstr("ERROR 1146 (42S02)"));
  EXPECT_THAT(Error("SHOW CREATE TABLE nosuch"), HasSubstr("ERROR 1146 (42S02)"));
  EXPECT_THAT(Error("EXPLAIN SELECT * FROM nosuch"), HasSubstr("ERROR 1146 (42S02)"));
  EXPECT_THAT(Error("DESCRIBE kinds", ""),
              HasSubstr("ERROR 1046 (3D000) at line 1: No database selected"));
  EXPECT_THAT(Error("SHOW INDEX FROM kinds", ""), HasSubstr("ERROR 1046 (3D000)"));
  EXPECT_THAT(Error("SHOW CREATE DATABASE nodb"),
              HasSubstr("ERROR 1049 (42000) at line 1: Unknown database 'nodb'"));
  // Window frames MySQL 8.0 refuses (MariaDB's are syntax errors, so not in the corpus).
  EXPECT_THAT(
      Error("SELECT SUM(qty) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM kinds"),
      HasSubstr("ERROR 3584 (HY000) at line 1: Window '<unnamed window>': frame start cannot be "
                "UNBOUNDED FOLLOWING."));
  EXPECT_THAT(
      Error("SELECT SUM(qty) OVER (ROWS BETWEEN CURRENT ROW AND UNBOUNDED PRECEDING) FROM kinds"),
      HasSubstr("ERROR 3585 (HY000) at line 1: Window '<unnamed window>': frame end cannot be "
                "UNBOUNDED PRECEDING."));
  // Named windows and HAVING beside windows: MySQL 8.0's errors (MariaDB's codes differ).
  EXPECT_THAT(Error("SELECT SUM(qty) OVER w FROM kinds"),
              HasSubstr("ERROR 3579 (HY000) at line 1: Window name 'w' is not defined."));
  EXPECT_THAT(Error("SELECT SUM(qty) OVER (w ORDER BY qty) FROM kinds WINDOW w AS (ORDER BY qty)"),
              HasSubstr("ERROR 3583 (HY000) at line 1: Window '<unnamed window>' cannot inherit "
                        "'w' since both contain an ORDER BY clause."));
  EXPECT_THAT(Error("SELECT qty, ROW_NUMBER() OVER () AS rn FROM kinds HAVING rn > 1"),
              HasSubstr("ERROR 3594 (HY000) at line 1: You cannot use the alias 'rn' of an "
                        "expression containing a window function in this context.'"));
}

// RANGE frames with INTERVAL offsets over dates and times, which MariaDB 10.11 refuses (so not
// in the corpus beside it); the sums are MySQL 8.0's. And the ORDER BY a RANGE offset needs.
TEST_F(SqlShowTest, RangeFramesWithIntervalsAndTheirErrors) {
  Query("CREATE TABLE visits (id INT PRIMARY KEY, day DATE, at DATETIME, n INT)");
  Query(
      "INSERT INTO visits VALUES (1, '2024-01-01', '2024-01-01 10:00:00', 1), "
      "(2, '2024-01-02', '2024-01-01 10:30:00', 2), (3, '2024-01-02', '2024-01-01 11:00:01', 4), "
      "(4, '2024-01-05', '2024-01-01 12:00:00', 8), (5, NULL, NULL, 16), "
      "(6, '2024-02-01', '2024-01-02 10:00:00', 32)");
  EXPECT_EQ(Query("SELECT id, SUM(n) OVER (ORDER BY day RANGE BETWEEN INTERVAL 1 DAY PRECEDING "
                  "AND CURRENT ROW) AS s, SUM(n) OVER (ORDER BY day DESC RANGE BETWEEN CURRENT "
                  "ROW AND INTERVAL 3 DAY FOLLOWING) AS d FROM visits ORDER BY id"),
            "id\ts\td\n1\t1\t1\n2\t7\t7\n3\t7\t7\n4\t8\t14\n5\t16\t16\n6\t32\t32\n");
  EXPECT_EQ(Query("SELECT id, COUNT(*) OVER (ORDER BY at RANGE BETWEEN INTERVAL 1 HOUR PRECEDING "
                  "AND INTERVAL '0:30' HOUR_MINUTE FOLLOWING) AS c FROM visits ORDER BY id"),
            "id\tc\n1\t2\n2\t2\n3\t2\n4\t2\n5\t1\n6\t1\n");
  EXPECT_THAT(Error("SELECT SUM(n) OVER (ORDER BY day RANGE 1 PRECEDING) FROM visits"),
              HasSubstr("ERROR 3588 (HY000) at line 1: Window '<unnamed window>' with RANGE "
                        "frame has ORDER BY expression of datetime type. Only INTERVAL bound "
                        "value allowed."));
  EXPECT_THAT(Error("SELECT SUM(n) OVER (ORDER BY n RANGE INTERVAL 1 DAY PRECEDING) FROM visits"),
              HasSubstr("ERROR 3589 (HY000)"));
  EXPECT_THAT(Error("SELECT SUM(n) OVER (ORDER BY n, id RANGE 1 PRECEDING) FROM visits"),
              HasSubstr("ERROR 3587 (HY000)"));
  EXPECT_THAT(Error("SELECT SUM(n) OVER (RANGE 1 PRECEDING) FROM visits"),
              HasSubstr("ERROR 3587 (HY000)"));
  Query("DROP TABLE visits");
}

TEST_F(SqlShowTest, ExplainEachPlan) {
  EXPECT_EQ(Query("EXPLAIN SELECT * FROM kinds WHERE id = 2"),
            "id\tselect_type\ttable\tpartitions\ttype\tpossible_keys\tkey\tkey_len\tref\trows\t"
            "filtered\tExtra\n"
            "1\tSIMPLE\tkinds\tp0\tconst\tPRIMARY\tPRIMARY\t4\tconst\t1\t100.00\t"
            "key lookup on PRIMARY; Using where\n");
  EXPECT_EQ(ExplainRow("SELECT * FROM kinds WHERE id IN (1, 2, 3)"),
            "1\tSIMPLE\tkinds\tp0\trange\tPRIMARY\tPRIMARY\t4\tNULL\t3\t100.00\t"
            "batched key lookups on PRIMARY (3 keys); Using where");
  EXPECT_EQ(ExplainRow("SELECT name FROM kinds WHERE qty BETWEEN 1 AND 5"),
            "1\tSIMPLE\tkinds\tp0\trange\tk_qty\tk_qty\t4\tNULL\tNULL\t100.00\t"
            "index range scan on k_qty (1 range); Using where");
  EXPECT_EQ(ExplainRow("SELECT * FROM kinds k WHERE k.qty = 1 OR k.qty BETWEEN 10 AND 20"),
            "1\tSIMPLE\tk\tp0\trange\tk_qty\tk_qty\t4\tNULL\tNULL\t100.00\t"
            "index range scan on k_qty (2 ranges); Using where");
  // A nullable VARCHAR(40) key part: 40 × 4 bytes, a length and a NULL flag.
  EXPECT_EQ(ExplainRow("SELECT * FROM kinds WHERE name = 'x'"),
            "1\tSIMPLE\tkinds\tp0\trange\tk_name_qty\tk_name_qty\t163\tNULL\tNULL\t100.00\t"
            "index range scan on k_name_qty (1 range); Using where");
  EXPECT_EQ(
      ExplainRow("SELECT * FROM kinds WHERE note = 'x'"),
      "1\tSIMPLE\tkinds\tp0\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\t100.00\tfull scan; Using where");
  EXPECT_EQ(ExplainRow("SELECT COUNT(*) FROM kinds"),
            "1\tSIMPLE\tkinds\tp0\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\t100.00\tfull scan");
  EXPECT_EQ(ExplainRow("SELECT 1"),
            "1\tSIMPLE\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNo tables used");
  EXPECT_EQ(ExplainRow("SELECT * FROM kinds WHERE id = NULL"),
            "1\tSIMPLE\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\t"
            "no rows (impossible WHERE)");
  EXPECT_EQ(Query("EXPLAIN SELECT AVG(id) FROM (SELECT * FROM kinds LIMIT 10) t WHERE t.qty > 0"),
            "id\tselect_type\ttable\tpartitions\ttype\tpossible_keys\tkey\tkey_len\tref\trows\t"
            "filtered\tExtra\n"
            "1\tPRIMARY\t<derived2>\tNULL\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\t100.00\tUsing where\n"
            "2\tDERIVED\tkinds\tp0\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\t100.00\tfull scan\n");
}

TEST_F(SqlShowTest, ExplainModifications) {
  // The direct path (key operations, no read) checks nothing again; the general one does.
  EXPECT_EQ(ExplainRow("UPDATE kinds SET qty = qty + 1 WHERE id = 1"),
            "1\tUPDATE\tkinds\tp0\tconst\tPRIMARY\tPRIMARY\t4\tconst\t1\t100.00\t"
            "key lookup on PRIMARY");
  EXPECT_EQ(ExplainRow("UPDATE kinds SET qty = 3 WHERE qty > 100"),
            "1\tUPDATE\tkinds\tp0\trange\tk_qty\tk_qty\t4\tNULL\tNULL\t100.00\t"
            "index range scan on k_qty (1 range); Using where");
  EXPECT_EQ(ExplainRow("DELETE FROM kinds WHERE id IN (1, 2)"),
            "1\tDELETE\tkinds\tp0\trange\tPRIMARY\tPRIMARY\t4\tNULL\t2\t100.00\t"
            "batched key lookups on PRIMARY (2 keys)");
  EXPECT_EQ(ExplainRow("DELETE FROM kinds WHERE id = 1 ORDER BY id"),
            "1\tDELETE\tkinds\tp0\tconst\tPRIMARY\tPRIMARY\t4\tconst\t1\t100.00\t"
            "key lookup on PRIMARY; Using where");
  EXPECT_EQ(
      ExplainRow("INSERT INTO kinds (code) VALUES ('x'), ('y')"),
      "1\tINSERT\tkinds\tp0\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tbatched inserts (2 rows)");
  EXPECT_EQ(ExplainRow("REPLACE INTO parts VALUES (1, 1)"),
            "1\tREPLACE\tparts\tp0,p1,p2,p3\tALL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\t"
            "batched inserts (1 row)");
  // EXPLAIN runs nothing.
  EXPECT_EQ(Query("SELECT COUNT(*) FROM kinds WHERE code IN ('x', 'y')"), "COUNT(*)\n0\n");
}

TEST_F(SqlShowTest, ExplainPrunesPartitions) {
  // A key lookup reaches its key's one partition; scans and batches reach every one.
  std::string one = ExplainRow("SELECT * FROM parts WHERE id = 7");
  std::vector<std::string> fields = absl::StrSplit(one, '\t');
  ASSERT_EQ(fields.size(), 12u) << one;
  EXPECT_THAT(fields[3], ::testing::MatchesRegex("p[0-3]"));
  EXPECT_EQ(ExplainRow("SELECT * FROM parts WHERE v = 1 OR v BETWEEN 10 AND 20"),
            "1\tSIMPLE\tparts\tp0,p1,p2,p3\trange\tkv\tkv\t5\tNULL\tNULL\t100.00\t"
            "index range scan on kv (2 ranges); Using where");
}

TEST_F(SqlShowTest, PreparedWithSqlPrepare) {
  EXPECT_EQ(Query("SET @k = 2; PREPARE s FROM 'EXPLAIN SELECT * FROM kinds WHERE id = ?'; "
                  "EXECUTE s USING @k"),
            "id\tselect_type\ttable\tpartitions\ttype\tpossible_keys\tkey\tkey_len\tref\trows\t"
            "filtered\tExtra\n"
            "1\tSIMPLE\tkinds\tp0\tconst\tPRIMARY\tPRIMARY\t4\tconst\t1\t100.00\t"
            "key lookup on PRIMARY; Using where\n");
  EXPECT_EQ(Query("PREPARE c FROM 'SHOW COLUMNS FROM kinds'; EXECUTE c"), kDescribeKinds);
  EXPECT_THAT(Query("PREPARE i FROM 'SHOW INDEX FROM kinds'; EXECUTE i"),
              HasSubstr("kinds\t1\tk_name_qty\t2\tqty\tA\t"));
  EXPECT_THAT(Query("PREPARE t FROM 'SHOW CREATE TABLE kinds'; EXECUTE t"),
              HasSubstr("kinds\tCREATE TABLE `kinds` (\\n"));
}

// mysql-connector-python's prepared cursor: COM_STMT_PREPARE / COM_STMT_EXECUTE, with the
// parameters planned as bound.
TEST_F(SqlShowTest, PreparedOverTheBinaryProtocol) {
  if (RunCommand({Python(), "-c", "import mysql.connector"}).exit_code != 0) {
    GTEST_SKIP() << "no mysql-connector-python in " << Python();
  }
  CommandResult r = RunPython("prepared.py", R"py(
import sys, mysql.connector
conn = mysql.connector.connect(unix_socket=sys.argv[1], user="root", database="showdb",
                               use_pure=True)
cur = conn.cursor(prepared=True)
for sql, params in [("EXPLAIN SELECT * FROM parts WHERE v BETWEEN %s AND %s", (1, 5)),
                    ("EXPLAIN SELECT * FROM kinds WHERE id IN (%s, %s)", (1, 2)),
                    ("DESCRIBE parts", ()), ("SHOW INDEX FROM parts", ()),
                    ("SHOW CREATE TABLE nopk", ())]:
    cur.execute(sql, params)
    print(",".join(d[0] for d in cur.description))
    for row in cur.fetchall():
        print("|".join("NULL" if v is None else
                       v.decode() if isinstance(v, (bytes, bytearray)) else str(v) for v in row))
)py");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "id,select_type,table,partitions,type,possible_keys,key,key_len,ref,rows,filtered,"
            "Extra\n"
            "1|SIMPLE|parts|p0,p1,p2,p3|range|kv|kv|5|NULL|NULL|100.0|"
            "index range scan on kv (1 range); Using where\n"
            "id,select_type,table,partitions,type,possible_keys,key,key_len,ref,rows,filtered,"
            "Extra\n"
            "1|SIMPLE|kinds|p0|range|PRIMARY|PRIMARY|4|NULL|2|100.0|"
            "batched key lookups on PRIMARY (2 keys); Using where\n"
            "Field,Type,Null,Key,Default,Extra\n"
            "id|int|NO|PRI|NULL|\n"
            "v|int|YES|MUL|NULL|\n"
            "Table,Non_unique,Key_name,Seq_in_index,Column_name,Collation,Cardinality,Sub_part,"
            "Packed,Null,Index_type,Comment,Index_comment,Visible,Expression\n"
            "parts|0|PRIMARY|1|id|A|0|NULL|NULL||BTREE|||YES|NULL\n"
            "parts|1|kv|1|v|A|0|NULL|NULL|YES|BTREE|||YES|NULL\n"
            "Table,Create Table\n"
            "nopk|CREATE TABLE `nopk` (\n"
            "  `a` int DEFAULT NULL,\n"
            "  `b` varchar(10) NOT NULL,\n"
            "  UNIQUE KEY `ub` (`b`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4\n");
}

// COM_FIELD_LIST on the wire: column definitions, each followed by the default a new row
// gets, then EOF; errors as before.
TEST_F(SqlShowTest, FieldListOnTheWire) {
  if (RunCommand({Python(), "-c", "import mysql.connector"}).exit_code != 0) {
    GTEST_SKIP() << "no mysql-connector-python in " << Python();
  }
  CommandResult r = RunPython("field_list.py", R"py(
import sys, mysql.connector
from mysql.connector.constants import ServerCmd
conn = mysql.connector.connect(unix_socket=sys.argv[1], user="root", database="showdb",
                               use_pure=True)

def lenenc(b, i):
    if b[i] < 0xFB: return b[i], i + 1
    if b[i] == 0xFB: return None, i + 1
    n = {0xFC: 2, 0xFD: 3, 0xFE: 8}[b[i]]
    return int.from_bytes(b[i + 1:i + 1 + n], "little"), i + 1 + n

def field_list(table, wild):
    packet = conn._send_cmd(ServerCmd.FIELD_LIST, table + b"\0" + wild)
    while True:
        body = packet[4:]
        if body[0] == 0xFF:
            print("ERR", int.from_bytes(body[1:3], "little"))
            return
        if body[0] == 0xFE and len(body) < 9:
            print("EOF")
            return
        i, names = 0, []
        for _ in range(6):
            n, i = lenenc(body, i)
            names.append(body[i:i + n].decode())
            i += n
        fixed, i = lenenc(body, i)
        type_code = body[i + 6]
        n, i = lenenc(body, i + fixed)
        default = "NULL" if n is None else body[i:i + n].decode()
        assert i + (n or 0) == len(body)
        print(".".join(names[1:3] + names[4:5]), type_code, default)
        packet = conn._socket.recv()

field_list(b"kinds", b"")
field_list(b"kinds", b"Q%")
field_list(b"nopk", b"")
field_list(b"nosuch", b"")
)py");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "showdb.kinds.id 3 0\n"
            "showdb.kinds.code 254 \n"
            "showdb.kinds.name 253 none\n"
            "showdb.kinds.qty 3 0\n"
            "showdb.kinds.price 246 1.50\n"
            "showdb.kinds.seen 12 2024-01-02 03:04:05.678\n"
            "showdb.kinds.big 8 NULL\n"
            "showdb.kinds.note 252 NULL\n"
            "showdb.kinds.flag 1 1\n"
            "EOF\n"
            "showdb.kinds.qty 3 0\n"
            "EOF\n"
            "showdb.nopk.a 3 NULL\n"
            "showdb.nopk.b 253 \n"
            "EOF\n"
            "ERR 1146\n");
}

// The interactive mariadb CLI lists every table's columns with COM_FIELD_LIST to complete
// names (auto-rehash); it needs a terminal, which `script` gives it.
TEST_F(SqlShowTest, MariadbCompletionReadsTheColumns) {
  if (RunCommand({"/usr/bin/script", "--version"}).exit_code != 0) {
    GTEST_SKIP() << "no /usr/bin/script to give the mariadb CLI a terminal";
  }
  std::string mariadb = absl::StrCat("/usr/bin/mariadb --user=root --socket=", socket(),
                                     " --auto-rehash --database=showdb");
  CommandResult r =
      RunCommand({"/bin/sh", "-c",
                  absl::StrCat("printf 'SELECT 6 * 7;\\nquit\\n' | /usr/bin/script -qec '", mariadb,
                               "' /dev/null")},
                 absl::Seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("Reading table information for completion"));
  EXPECT_THAT(r.out, HasSubstr("| 6 * 7 |"));
  EXPECT_THAT(r.out, HasSubstr("|    42 |"));
  EXPECT_THAT(r.out, Not(HasSubstr("Didn't find any fields")));
  EXPECT_THAT(r.out, Not(HasSubstr("ERROR")));
}

}  // namespace
}  // namespace shoal::testing
