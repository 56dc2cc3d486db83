// The DDL grammar (parse_ddl.cc) and the table forms of SHOW (parse_show.cc): the statements
// sysbench, ORMs and mysqldump send, what the tree keeps of them, and the 1235s and 1064s for
// what Shoal refuses.
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser.h"
#include "router/sql/parse/parser_test_util.h"

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::MustParse;
using testing::MustParseAs;
using testing::Syntax;

std::string NotSupported(absl::string_view what) { return testing::NotYet(what); }

constexpr char kSysbench[] =
    "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT "
    "NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY "
    "(id)\n) /*! ENGINE = ndbcluster */ ";

TEST(ParseDdlTest, SysbenchCreateTable) {
  auto t = MustParseAs<CreateTableStmt>(kSysbench);
  EXPECT_EQ(t.table.name, "sbtest1");
  EXPECT_EQ(t.table.database, "");
  EXPECT_FALSE(t.if_not_exists);
  EXPECT_EQ(t.engine, "ndbcluster");
  ASSERT_EQ(t.columns.size(), 4u);
  EXPECT_EQ(t.columns[0].name, "id");
  EXPECT_EQ(t.columns[0].type.name, "INT");
  EXPECT_EQ(t.columns[0].nullable, false);
  EXPECT_TRUE(t.columns[0].auto_increment);
  EXPECT_EQ(t.columns[0].default_value, nullptr);
  EXPECT_EQ(t.columns[1].type.name, "INT");
  ASSERT_NE(t.columns[1].default_value, nullptr);
  EXPECT_EQ(t.columns[1].default_value->literal, LiteralKind::kString);
  EXPECT_EQ(t.columns[1].default_value->text, "0");
  EXPECT_EQ(t.columns[2].type.name, "CHAR");
  EXPECT_EQ(t.columns[2].type.length, 120u);
  EXPECT_EQ(t.columns[2].default_value->text, "");
  EXPECT_EQ(t.columns[3].type.length, 60u);
  ASSERT_EQ(t.indexes.size(), 1u);
  EXPECT_EQ(t.indexes[0].kind, IndexSpec::Kind::kPrimary);
  EXPECT_EQ(t.indexes[0].columns, std::vector<std::string>{"id"});
}

TEST(ParseDdlTest, SysbenchSecondaryWithoutAutoIncrement) {
  // --auto_inc=off --secondary --mysql_storage_engine=innodb, and the index sysbench adds.
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE sbtest7(\n  id INTEGER NOT NULL,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c "
      "CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  KEY xid (id)\n) /*! "
      "ENGINE = innodb */ ");
  EXPECT_FALSE(t.columns[0].auto_increment);
  EXPECT_EQ(t.engine, "innodb");
  ASSERT_EQ(t.indexes.size(), 1u);
  EXPECT_EQ(t.indexes[0].kind, IndexSpec::Kind::kIndex);
  EXPECT_EQ(t.indexes[0].name, "xid");

  auto index = MustParseAs<CreateIndexStmt>("CREATE INDEX k_7 ON sbtest7(k)");
  EXPECT_EQ(index.table.name, "sbtest7");
  EXPECT_EQ(index.index.name, "k_7");
  EXPECT_EQ(index.index.kind, IndexSpec::Kind::kIndex);
  EXPECT_EQ(index.index.columns, std::vector<std::string>{"k"});
}

TEST(ParseDdlTest, DropTable) {
  auto d = MustParseAs<DropTableStmt>("DROP TABLE IF EXISTS sbtest1");
  EXPECT_TRUE(d.if_exists);
  ASSERT_EQ(d.tables.size(), 1u);
  EXPECT_EQ(d.tables[0].name, "sbtest1");

  d = MustParseAs<DropTableStmt>("drop tables a, `db`.`b` cascade");
  EXPECT_FALSE(d.if_exists);
  ASSERT_EQ(d.tables.size(), 2u);
  EXPECT_EQ(d.tables[1].database, "db");
  EXPECT_EQ(d.tables[1].name, "b");
  EXPECT_EQ(MustFail("DROP TEMPORARY TABLE t").message, NotSupported("DROP TEMPORARY TABLE"));
  EXPECT_EQ(MustFail("DROP TABLE IF t").code, 1064);
}

TEST(ParseDdlTest, Databases) {
  auto c = MustParseAs<CreateDatabaseStmt>(
      "CREATE DATABASE IF NOT EXISTS sbtest DEFAULT CHARACTER SET utf8mb4 COLLATE "
      "utf8mb4_0900_ai_ci DEFAULT ENCRYPTION='N'");
  EXPECT_EQ(c.name, "sbtest");
  EXPECT_TRUE(c.if_not_exists);
  c = MustParseAs<CreateDatabaseStmt>(
      "create schema `my db` charset = latin1 default collate = utf8_bin");
  EXPECT_EQ(c.name, "my db");
  EXPECT_FALSE(c.if_not_exists);
  EXPECT_EQ(MustFail("CREATE DATABASE d CHARACTER SET klingon").message,
            NotSupported("CHARACTER SET klingon"));

  auto d = MustParseAs<DropDatabaseStmt>("DROP DATABASE IF EXISTS sbtest");
  EXPECT_EQ(d.name, "sbtest");
  EXPECT_TRUE(d.if_exists);
  EXPECT_FALSE(MustParseAs<DropDatabaseStmt>("DROP SCHEMA x").if_exists);
}

TEST(ParseDdlTest, TypesAreCanonical) {
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE t (a TINYINT(3) UNSIGNED, b INT1, c MIDDLEINT SIGNED, d BIGINT(20) unsigned "
      "zerofill, e BOOL, f BOOLEAN, g FLOAT(7,2), h DOUBLE PRECISION, i REAL, j DEC(10,2), "
      "k NUMERIC(5), l FIXED, m CHARACTER(10), n CHARACTER VARYING(20), o NATIONAL CHAR(3), "
      "p NCHAR VARCHAR(4), q NVARCHAR(5), r VARBINARY(6), s TINYTEXT, u TEXT(100), "
      "v LONGBLOB, w TIME(3), x DATETIME(6), y TIMESTAMP, z YEAR, aa BIT(8), "
      "ab ENUM('x', 'y'), ac SET('a'), ad JSON, ae GEOMETRY, af LONG VARCHAR, "
      "ag CHAR(10) CHARACTER SET latin1 COLLATE latin1_bin, ah VARCHAR(5) BINARY, "
      "ai VARCHAR(5) BYTE, aj DOUBLE(10, 2))");
  struct Want {
    const char* name;
    std::optional<uint32_t> length;
    std::optional<uint32_t> scale;
  };
  const Want kWant[] = {
      {"TINYINT", 3, {}},   {"TINYINT", {}, {}},  {"MEDIUMINT", {}, {}},  {"BIGINT", 20, {}},
      {"TINYINT", 1, {}},   {"TINYINT", 1, {}},   {"FLOAT", 7, 2},        {"DOUBLE", {}, {}},
      {"DOUBLE", {}, {}},   {"DECIMAL", 10, 2},   {"DECIMAL", 5, {}},     {"DECIMAL", {}, {}},
      {"CHAR", 10, {}},     {"VARCHAR", 20, {}},  {"CHAR", 3, {}},        {"VARCHAR", 4, {}},
      {"VARCHAR", 5, {}},   {"VARBINARY", 6, {}}, {"TINYTEXT", {}, {}},   {"TEXT", 100, {}},
      {"LONGBLOB", {}, {}}, {"TIME", 3, {}},      {"DATETIME", 6, {}},    {"TIMESTAMP", {}, {}},
      {"YEAR", {}, {}},     {"BIT", 8, {}},       {"ENUM", {}, {}},       {"SET", {}, {}},
      {"JSON", {}, {}},     {"GEOMETRY", {}, {}}, {"MEDIUMTEXT", {}, {}}, {"CHAR", 10, {}},
      {"VARCHAR", 5, {}},   {"VARCHAR", 5, {}},   {"DOUBLE", 10, 2},
  };
  ASSERT_EQ(t.columns.size(), std::size(kWant));
  for (size_t i = 0; i < std::size(kWant); ++i) {
    SCOPED_TRACE(t.columns[i].name);
    EXPECT_EQ(t.columns[i].type.name, kWant[i].name);
    EXPECT_EQ(t.columns[i].type.length, kWant[i].length);
    EXPECT_EQ(t.columns[i].type.scale, kWant[i].scale);
  }
  EXPECT_TRUE(t.columns[0].type.is_unsigned);
  EXPECT_FALSE(t.columns[2].type.is_unsigned);
  EXPECT_TRUE(t.columns[3].type.is_unsigned);
  EXPECT_TRUE(t.columns[3].type.zerofill);
  EXPECT_EQ(t.columns[14].type.charset, "utf8mb3");  // NATIONAL CHAR
  EXPECT_EQ(t.columns[16].type.charset, "utf8mb3");  // NVARCHAR
  EXPECT_EQ(t.columns[31].type.charset, "latin1");
  EXPECT_EQ(t.columns[31].type.collation, "latin1_bin");
  EXPECT_EQ(t.columns[32].type.charset, "");
  EXPECT_EQ(t.columns[33].type.charset, "binary");
}

TEST(ParseDdlTest, SerialIsBigintUnsignedNotNullAutoIncrementUnique) {
  auto t = MustParseAs<CreateTableStmt>("CREATE TABLE t (id SERIAL, n INT SERIAL DEFAULT VALUE)");
  for (const ColumnSpec& c : t.columns) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.nullable, false);
    EXPECT_TRUE(c.auto_increment);
    EXPECT_TRUE(c.unique);
  }
  EXPECT_EQ(t.columns[0].type.name, "BIGINT");
  EXPECT_TRUE(t.columns[0].type.is_unsigned);
  EXPECT_EQ(t.columns[1].type.name, "INT");
}

TEST(ParseDdlTest, ColumnAttributesInAnyOrder) {
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE t (a INT NOT NULL DEFAULT -5 COMMENT 'the a' PRIMARY KEY, "
      "b VARCHAR(10) COLLATE UTF8MB4_BIN UNIQUE KEY NULL DEFAULT 'x' 'y' VISIBLE, "
      "c DECIMAL(5,2) DEFAULT +1.5 COLUMN_FORMAT FIXED STORAGE MEMORY KEY, "
      "d INT DEFAULT NULL CHECK (d > 0) REFERENCES p (id) ON DELETE CASCADE, "
      "e DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), f TIMESTAMP DEFAULT NOW(), "
      "g INT DEFAULT (1 + 2), h TINYINT DEFAULT TRUE, i VARCHAR(3) DEFAULT _utf8mb4'z', "
      "j INT CONSTRAINT positive CHECK (j >= 0) NOT ENFORCED, k BINARY(2) DEFAULT 0x4142)");
  const auto& a = t.columns[0];
  EXPECT_EQ(a.nullable, false);
  EXPECT_TRUE(a.primary_key);
  EXPECT_EQ(a.comment, "the a");
  ASSERT_NE(a.default_value, nullptr);
  EXPECT_EQ(a.default_value->kind, ExprKind::kUnary);
  EXPECT_EQ(a.default_value->unary_op, UnaryOp::kNeg);
  EXPECT_EQ(a.default_value->args[0]->text, "5");
  const auto& b = t.columns[1];
  EXPECT_EQ(b.type.collation, "utf8mb4_bin");
  // A table's charset alone names its default collation; a COLLATE, before or after, wins.
  EXPECT_EQ(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT) DEFAULT CHARSET=latin1").collation,
            "latin1_swedish_ci");
  EXPECT_EQ(
      MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT) CHARSET utf8mb4 COLLATE utf8mb4_bin")
          .collation,
      "utf8mb4_bin");
  EXPECT_EQ(
      MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT) COLLATE utf8mb4_bin CHARSET utf8mb4")
          .collation,
      "utf8mb4_bin");
  EXPECT_TRUE(b.unique);
  EXPECT_EQ(b.nullable, true);
  EXPECT_EQ(b.default_value->text, "xy");
  EXPECT_TRUE(t.columns[2].primary_key);  // a column's KEY is its PRIMARY KEY
  EXPECT_EQ(t.columns[2].default_value->literal, LiteralKind::kDecimal);
  EXPECT_EQ(t.columns[2].default_value->text, "1.5");
  EXPECT_EQ(t.columns[3].default_value->literal, LiteralKind::kNull);
  EXPECT_EQ(t.columns[4].default_value->kind, ExprKind::kFunction);
  EXPECT_EQ(t.columns[4].default_value->name, "CURRENT_TIMESTAMP");
  EXPECT_EQ(t.columns[5].default_value->name, "NOW");
  EXPECT_EQ(t.columns[6].default_value->kind, ExprKind::kBinary);
  EXPECT_EQ(t.columns[7].default_value->literal, LiteralKind::kBool);
  EXPECT_EQ(t.columns[8].default_value->charset, "utf8mb4");
  EXPECT_EQ(t.columns[10].default_value->literal, LiteralKind::kHex);
  EXPECT_TRUE(t.indexes.empty());  // CHECK constraints are not kept
}

// What frameworks create: DEFAULT and ON UPDATE CURRENT_TIMESTAMP in every spelling, the
// precision kept for CREATE TABLE to check against the column's.
TEST(ParseDdlTest, OnUpdateCurrentTimestamp) {
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE t (a TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, "
      "b datetime(6) NOT NULL on update now(6) default now(6), "
      "c DATETIME ON UPDATE LOCALTIMESTAMP, d DATETIME DEFAULT LOCALTIME ON UPDATE LOCALTIME(), "
      "e INT ON UPDATE CURRENT_TIMESTAMP)");
  ASSERT_NE(t.columns[0].on_update, nullptr);
  EXPECT_EQ(t.columns[0].on_update->name, "CURRENT_TIMESTAMP");
  EXPECT_TRUE(t.columns[0].on_update->args.empty());
  EXPECT_EQ(t.columns[0].default_value->name, "CURRENT_TIMESTAMP");
  ASSERT_NE(t.columns[1].on_update, nullptr);
  EXPECT_EQ(t.columns[1].on_update->name, "NOW");
  ASSERT_EQ(t.columns[1].on_update->args.size(), 1u);
  EXPECT_EQ(t.columns[1].on_update->args[0]->text, "6");
  EXPECT_EQ(t.columns[1].default_value->args[0]->text, "6");
  EXPECT_EQ(t.columns[1].nullable, false);
  EXPECT_EQ(t.columns[2].on_update->name, "LOCALTIMESTAMP");
  EXPECT_EQ(t.columns[2].default_value, nullptr);
  EXPECT_EQ(t.columns[3].on_update->name, "LOCALTIME");
  EXPECT_NE(t.columns[4].on_update, nullptr);  // the type is CREATE TABLE's to refuse (1294)
  // Only the current time: anything else is a syntax error, as in MySQL.
  EXPECT_EQ(MustFail("CREATE TABLE t (a DATETIME ON UPDATE 5)").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t (a DATETIME ON UPDATE CURRENT_DATE)").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t (a DATETIME ON UPDATE)").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t (a DATETIME ON DELETE NOW())").code, 1064);
}

TEST(ParseDdlTest, TableConstraintsAndIndexes) {
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE IF NOT EXISTS db.t (a INT, b INT, c INT, d INT, e INT, "
      "CONSTRAINT pk PRIMARY KEY USING HASH (a, b), CONSTRAINT uq UNIQUE (c), "
      "UNIQUE INDEX u2 USING BTREE (d DESC) COMMENT 'x' INVISIBLE, INDEX (e) USING HASH, "
      "KEY ke (e ASC, d) KEY_BLOCK_SIZE = 8, CHECK (a > 0), CONSTRAINT ck CHECK (b < 10) NOT "
      "ENFORCED, UNIQUE KEY (a))");
  EXPECT_TRUE(t.if_not_exists);
  EXPECT_EQ(t.table.database, "db");
  ASSERT_EQ(t.indexes.size(), 6u);
  EXPECT_EQ(t.indexes[0].kind, IndexSpec::Kind::kPrimary);
  EXPECT_EQ(t.indexes[0].name, "");
  EXPECT_EQ(t.indexes[0].columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.indexes[1].kind, IndexSpec::Kind::kUnique);
  EXPECT_EQ(t.indexes[1].name, "uq");  // named after its constraint
  EXPECT_EQ(t.indexes[2].name, "u2");
  EXPECT_EQ(t.indexes[3].kind, IndexSpec::Kind::kIndex);
  EXPECT_EQ(t.indexes[3].name, "");
  EXPECT_EQ(t.indexes[4].columns, (std::vector<std::string>{"e", "d"}));
  EXPECT_EQ(t.indexes[5].kind, IndexSpec::Kind::kUnique);
  EXPECT_EQ(t.indexes[5].name, "");
}

TEST(ParseDdlTest, TableOptions) {
  auto t = MustParseAs<CreateTableStmt>(
      "CREATE TABLE t (a INT) ENGINE=InnoDB AUTO_INCREMENT=5 DEFAULT CHARSET=utf8mb4 "
      "COLLATE=utf8mb4_0900_ai_ci COMMENT='hello', ROW_FORMAT=DYNAMIC STATS_PERSISTENT=0 "
      "MAX_ROWS 100 TABLESPACE ts STORAGE DISK, KEY_BLOCK_SIZE=8 PACK_KEYS=DEFAULT CHECKSUM=1 "
      "DELAY_KEY_WRITE=0 MIN_ROWS=1 AVG_ROW_LENGTH=10 STATS_AUTO_RECALC=DEFAULT "
      "STATS_SAMPLE_PAGES=4 CHARACTER SET = latin1 COMPRESSION='zlib' ENCRYPTION='N'");
  EXPECT_EQ(t.engine, "innodb");
  EXPECT_EQ(t.auto_increment, 5u);
  EXPECT_EQ(t.comment, "hello");
  EXPECT_EQ(t.partitions, std::nullopt);
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) ENGINE=InnoDB,").message, Syntax(""));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) COLLATE=nope").message, NotSupported("COLLATE nope"));
}

TEST(ParseDdlTest, PartitionByKey) {
  EXPECT_EQ(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT PRIMARY KEY) PARTITION BY KEY() "
                                         "PARTITIONS 8")
                .partitions,
            8u);
  EXPECT_EQ(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT PRIMARY KEY) ENGINE=ndbcluster "
                                         "/*!50100 PARTITION BY LINEAR KEY ALGORITHM = 2 (a) "
                                         "PARTITIONS 4 */")
                .partitions,
            4u);
  EXPECT_EQ(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT PRIMARY KEY) PARTITION BY KEY (a)")
                .partitions,
            std::nullopt);
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) PARTITION BY HASH (a) PARTITIONS 2").message,
            NotSupported("PARTITION BY HASH"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) PARTITION BY RANGE (a) (PARTITION p0 VALUES LESS "
                     "THAN (10))")
                .message,
            NotSupported("PARTITION BY RANGE"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) PARTITION BY KEY (a) (PARTITION p0)").message,
            NotSupported("partition definitions"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) PARTITION BY KEY (a) PARTITIONS 0").message,
            Syntax("0"));
}

TEST(ParseDdlTest, OrmDdl) {
  const char* kStatements[] = {
      // Django
      "CREATE TABLE `polls_question` (`id` bigint AUTO_INCREMENT NOT NULL PRIMARY KEY, "
      "`question_text` varchar(200) NOT NULL, `pub_date` datetime(6) NOT NULL)",
      "CREATE TABLE `auth_user` (`id` integer AUTO_INCREMENT NOT NULL PRIMARY KEY, `password` "
      "varchar(128) NOT NULL, `last_login` datetime(6) NULL, `is_superuser` bool NOT NULL, "
      "`username` varchar(150) NOT NULL UNIQUE, `first_name` varchar(150) NOT NULL)",
      "CREATE TABLE `shop_item` (`id` bigint AUTO_INCREMENT NOT NULL PRIMARY KEY, `count` "
      "integer UNSIGNED NOT NULL CHECK (`count` >= 0), `price` numeric(10, 2) NOT NULL, `data` "
      "longtext NOT NULL)",
      // Hibernate
      "create table Person (id bigint not null auto_increment, name varchar(255), birth date, "
      "primary key (id)) engine=InnoDB",
      "create table orders (id bigint not null, amount decimal(19,2), created_at datetime(6), "
      "customer_id bigint, primary key (id)) engine=InnoDB",
      // Rails
      "CREATE TABLE `users` (`id` bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, `email` "
      "varchar(255) DEFAULT '' NOT NULL, `created_at` datetime(6) NOT NULL, `updated_at` "
      "datetime(6) NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci",
      // mysqldump of a sysbench table
      "CREATE TABLE `sbtest1` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `k` int NOT NULL DEFAULT "
      "'0',\n  `c` char(120) NOT NULL DEFAULT '',\n  `pad` char(60) NOT NULL DEFAULT '',\n  "
      "PRIMARY KEY (`id`),\n  KEY `k_1` (`k`)\n) ENGINE=InnoDB AUTO_INCREMENT=10001 DEFAULT "
      "CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci;",
      // SQLAlchemy
      "\nCREATE TABLE user_account (\n\tid INTEGER NOT NULL AUTO_INCREMENT, \n\tname "
      "VARCHAR(30) NOT NULL, \n\tfullname VARCHAR(50), \n\tPRIMARY KEY (id)\n)\n\n",
      "\nCREATE TABLE orders (\n\tid INTEGER NOT NULL AUTO_INCREMENT, \n\tcustomer_id INTEGER "
      "NOT NULL, \n\tPRIMARY KEY (id), \n\tFOREIGN KEY(customer_id) REFERENCES customer (id) ON "
      "DELETE CASCADE\n)\n\n",
  };
  for (const char* sql : kStatements) {
    SCOPED_TRACE(sql);
    MustParseAs<CreateTableStmt>(sql);
  }
}

TEST(ParseDdlTest, CreateTableLike) {
  auto create = MustParseAs<CreateTableStmt>("CREATE TABLE IF NOT EXISTS db.t LIKE src.u");
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(create.table.database, "db");
  EXPECT_EQ(create.table.name, "t");
  ASSERT_TRUE(create.like.has_value());
  EXPECT_EQ(create.like->database, "src");
  EXPECT_EQ(create.like->name, "u");
  create = MustParseAs<CreateTableStmt>("CREATE TABLE t (LIKE `u`)");
  ASSERT_TRUE(create.like.has_value());
  EXPECT_EQ(create.like->name, "u");
  EXPECT_FALSE(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT)").like.has_value());
  EXPECT_EQ(MustFail("CREATE TABLE t LIKE u ENGINE=InnoDB").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t (LIKE u").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t LIKE").code, 1064);
}

// CREATE TABLE … [IGNORE | REPLACE] [AS] query: the query as INSERT … SELECT's into the table,
// the definitions and options kept as written.
TEST(ParseDdlTest, CreateTableSelect) {
  auto create = MustParseAs<CreateTableStmt>("CREATE TABLE t AS SELECT 1 AS a");
  ASSERT_NE(create.insert_select, nullptr);
  EXPECT_EQ(create.insert_select->table.name, "t");
  ASSERT_NE(create.insert_select->select, nullptr);
  EXPECT_EQ(create.insert_select->select->items.size(), 1u);
  EXPECT_TRUE(create.element_texts.empty());
  EXPECT_TRUE(create.options_text.empty());

  create = MustParseAs<CreateTableStmt>(
      "CREATE TABLE IF NOT EXISTS db.t (id INT PRIMARY KEY, KEY (b)) ENGINE=InnoDB COMMENT 'c' "
      "IGNORE SELECT id, b FROM u UNION SELECT 1, 2");
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(create.columns.size(), 1u);
  ASSERT_EQ(create.element_texts.size(), 2u);
  EXPECT_EQ(create.element_texts[0].column, "id");
  EXPECT_EQ(create.element_texts[0].text, "id INT PRIMARY KEY");
  EXPECT_EQ(create.element_texts[1].column, "");
  EXPECT_EQ(create.element_texts[1].text, "KEY (b)");
  EXPECT_EQ(create.options_text, "ENGINE=InnoDB COMMENT 'c'");
  ASSERT_NE(create.insert_select, nullptr);
  EXPECT_TRUE(create.insert_select->ignore);
  EXPECT_EQ(create.insert_select->table.database, "db");
  EXPECT_EQ(create.insert_select->select->unions.size(), 1u);

  EXPECT_TRUE(MustParseAs<CreateTableStmt>("CREATE TABLE t REPLACE (SELECT 1) UNION (SELECT 2)")
                  .insert_select->replace);
  EXPECT_NE(MustParseAs<CreateTableStmt>("CREATE TABLE t (SELECT 1)").insert_select, nullptr);
  EXPECT_NE(MustParseAs<CreateTableStmt>("CREATE TABLE t WITH c AS (SELECT 1) SELECT * FROM c")
                .insert_select,
            nullptr);
  EXPECT_EQ(MustParseAs<CreateTableStmt>("CREATE TABLE t (a INT)").insert_select, nullptr);
  EXPECT_EQ(MustFail("CREATE TABLE t AS").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t IGNORE").code, 1064);
  EXPECT_EQ(MustFail("CREATE TABLE t AS SELECT 1 garbage here").code, 1064);
}

TEST(ParseDdlTest, UnsupportedCreate) {
  const std::pair<const char*, const char*> kCases[] = {
      {"CREATE TEMPORARY TABLE t (a INT)", "CREATE TEMPORARY TABLE"},
      {"CREATE TABLE t AS TABLE u", "CREATE TABLE ... TABLE"},
      {"CREATE TABLE t (a TEXT, FULLTEXT KEY (a))", "FULLTEXT indexes"},
      {"CREATE TABLE t (a GEOMETRY NOT NULL, SPATIAL INDEX (a))", "SPATIAL indexes"},
      {"CREATE TABLE t (a VARCHAR(100), KEY (a(10)))", "key prefix lengths"},
      {"CREATE TABLE t (a INT, KEY ((a + 1)))", "functional key parts"},
      {"CREATE TABLE t (a INT, b INT GENERATED ALWAYS AS (a + 1))", "generated columns"},
      {"CREATE TABLE t (a INT, b INT AS (a + 1) STORED)", "generated columns"},
      {"CREATE TABLE t (a INT INVISIBLE)", "INVISIBLE columns"},
      {"CREATE FULLTEXT INDEX i ON t (a)", "FULLTEXT INDEX"},
      {"CREATE SPATIAL INDEX i ON t (a)", "SPATIAL INDEX"},
      {"CREATE PROCEDURE p() BEGIN END", "CREATE PROCEDURE"},
      {"CREATE FUNCTION f() RETURNS INT RETURN 1", "CREATE FUNCTION"},
      {"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @a = 1", "CREATE TRIGGER"},
      {"CREATE DEFINER = u@h TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET @a = 1",
       "CREATE TRIGGER"},
      {"CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1", "CREATE EVENT"},
      {"CREATE TABLESPACE ts ADD DATAFILE 'f'", "CREATE TABLESPACE"},
      {"CREATE LOGFILE GROUP lg ADD UNDOFILE 'u'", "CREATE LOGFILE"},
      {"CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'u')", "CREATE SERVER"},
      {"DROP PROCEDURE IF EXISTS p", "DROP PROCEDURE"},
      {"GRANT SELECT (a) ON t TO u", "column privileges"},
      {"ANALYZE TABLE t UPDATE HISTOGRAM ON a", "histograms"},
  };
  for (const auto& [sql, what] : kCases) {
    SCOPED_TRACE(sql);
    mysql::SqlError e = MustFail(sql);
    EXPECT_EQ(e.code, 1235);
    EXPECT_EQ(e.sqlstate, "42000");
    EXPECT_EQ(e.message, NotSupported(what));
  }
}

TEST(ParseDdlTest, SyntaxErrors) {
  EXPECT_EQ(MustFail("CREATE TABLE t (a VARCHAR)").message, Syntax(")"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a VARBINARY NOT NULL)").message, Syntax("NOT NULL)"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT,)").message, Syntax(")"));
  EXPECT_EQ(MustFail("CREATE TABLE t ()").message, Syntax(")"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT DEFAULT foo)").message, Syntax("foo)"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT DEFAULT -'1')").message, Syntax("'1')"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a FOO)").message, Syntax("FOO)"));
  EXPECT_EQ(MustFail("CREATE TABLE t (order INT)").message, Syntax("order INT)"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT) ENGINE").message, Syntax(""));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT PRIMARY)").message, Syntax(")"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT, CONSTRAINT c KEY (a))").message, Syntax("KEY (a))"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT, KEY (a) USING RTREE)").message, Syntax("RTREE)"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a ENUM())").message, Syntax("))"));
  EXPECT_EQ(MustFail("CREATE TABLE t (a INT CHECK (a > 0)").message, Syntax(""));
  EXPECT_EQ(MustFail("CREATE INDEX ON t (a)").message, Syntax("ON t (a)"));
  EXPECT_EQ(MustFail("CREATE UNIQUE KEY k ON t (a)").message, Syntax("KEY k ON t (a)"));
  EXPECT_EQ(MustFail("DROP INDEX PRIMARY ON t").message, Syntax("PRIMARY ON t"));
  EXPECT_EQ(MustFail("CREATE").message, Syntax(""));
}

TEST(ParseDdlTest, IndexStatements) {
  auto c = MustParseAs<CreateIndexStmt>(
      "CREATE UNIQUE INDEX `u` USING BTREE ON db.t (a, b DESC) COMMENT 'x' ALGORITHM = INPLACE "
      "LOCK=NONE");
  EXPECT_EQ(c.index.kind, IndexSpec::Kind::kUnique);
  EXPECT_EQ(c.index.name, "u");
  EXPECT_EQ(c.table.database, "db");
  EXPECT_EQ(c.table.name, "t");
  EXPECT_EQ(c.index.columns, (std::vector<std::string>{"a", "b"}));

  auto d = MustParseAs<DropIndexStmt>("DROP INDEX k_1 ON sbtest1 ALGORITHM=DEFAULT LOCK DEFAULT");
  EXPECT_EQ(d.name, "k_1");
  EXPECT_EQ(d.table.name, "sbtest1");
  EXPECT_EQ(MustParseAs<DropIndexStmt>("DROP INDEX `primary` ON t").name, "PRIMARY");
}

TEST(ParseDdlTest, TruncateAndTableMaintenance) {
  EXPECT_EQ(MustParseAs<TruncateStmt>("TRUNCATE TABLE db.sbtest1").table.database, "db");
  EXPECT_EQ(MustParseAs<TruncateStmt>("truncate sbtest1").table.name, "sbtest1");
  auto a = MustParseAs<TableMaintenanceStmt>("ANALYZE TABLE sbtest1, db.sbtest2");
  ASSERT_EQ(a.tables.size(), 2u);
  EXPECT_EQ(a.tables[1].database, "db");
  EXPECT_EQ(MustParseAs<TableMaintenanceStmt>("ANALYZE NO_WRITE_TO_BINLOG TABLE t").tables.size(),
            1u);
  EXPECT_EQ(MustParseAs<TableMaintenanceStmt>("analyze local tables t").tables.size(), 1u);
  EXPECT_EQ(MustFail("ANALYZE t").code, 1064);
  using Op = TableMaintenanceStmt::Op;
  EXPECT_EQ(MustParseAs<TableMaintenanceStmt>("CHECK TABLE t, u FOR UPGRADE QUICK").op, Op::kCheck);
  EXPECT_EQ(MustParseAs<TableMaintenanceStmt>("OPTIMIZE LOCAL TABLE t").op, Op::kOptimize);
  auto repair =
      MustParseAs<TableMaintenanceStmt>("REPAIR NO_WRITE_TO_BINLOG TABLE t EXTENDED USE_FRM");
  EXPECT_EQ(repair.op, Op::kRepair);
  EXPECT_EQ(repair.tables.size(), 1u);
  EXPECT_EQ(MustFail("CHECK TABLE t FOR").code, 1064);
  EXPECT_EQ(MustFail("OPTIMIZE TABLE t QUICK").code, 1064);
}

TEST(ParseDdlTest, DescribeIsShowColumns) {
  auto s = MustParseAs<ShowStmt>("DESCRIBE sbtest1");
  EXPECT_EQ(s.kind, ShowKind::kColumns);
  EXPECT_EQ(s.table.name, "sbtest1");
  EXPECT_FALSE(s.like.has_value());
  s = MustParseAs<ShowStmt>("desc db.t");
  EXPECT_EQ(s.table.database, "db");
  EXPECT_EQ(MustParseAs<ShowStmt>("EXPLAIN t").kind, ShowKind::kColumns);
  EXPECT_EQ(MustParseAs<ShowStmt>("DESCRIBE t id").like, "id");
  EXPECT_EQ(MustParseAs<ShowStmt>("DESCRIBE t 'c%'").like, "c%");
  EXPECT_EQ(MustParseAs<ShowStmt>("DESCRIBE format").table.name, "format");
}

TEST(ParseDdlTest, ExplainStatement) {
  auto e = MustParseAs<ExplainStmt>("EXPLAIN SELECT 1");
  ASSERT_NE(e.statement, nullptr);
  EXPECT_TRUE(std::holds_alternative<SelectStmt>(e.statement->node));
  e = MustParseAs<ExplainStmt>("DESCRIBE FORMAT=TRADITIONAL SELECT 1");
  EXPECT_TRUE(std::holds_alternative<SelectStmt>(e.statement->node));

  Statement s = MustParse("EXPLAIN SELECT ?, ?", ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 2);
  ASSERT_TRUE(std::holds_alternative<ExplainStmt>(s.node));
  EXPECT_EQ(std::get<ExplainStmt>(s.node).statement->param_count, 2);

  EXPECT_EQ(MustFail("EXPLAIN FORMAT=JSON SELECT 1").message, NotSupported("EXPLAIN FORMAT=JSON"));
  EXPECT_EQ(MustFail("EXPLAIN FORMAT=TREE SELECT 1").message, NotSupported("EXPLAIN FORMAT=TREE"));
  EXPECT_EQ(MustFail("EXPLAIN ANALYZE SELECT 1").message, NotSupported("EXPLAIN ANALYZE"));
  EXPECT_EQ(MustFail("EXPLAIN FOR CONNECTION 5").message, NotSupported("EXPLAIN FOR CONNECTION"));
  EXPECT_EQ(MustFail("EXPLAIN FORMAT=XML SELECT 1").message, Syntax("XML SELECT 1"));
  EXPECT_EQ(MustFail("EXPLAIN FORMAT=TRADITIONAL SET @a = 1").message, Syntax("SET @a = 1"));
}

TEST(ParseDdlTest, ShowColumnsAndIndex) {
  auto s = MustParseAs<ShowStmt>("SHOW COLUMNS FROM sbtest1");
  EXPECT_EQ(s.kind, ShowKind::kColumns);
  EXPECT_EQ(s.table.name, "sbtest1");
  EXPECT_FALSE(s.full);

  s = MustParseAs<ShowStmt>("SHOW FULL FIELDS IN t FROM db LIKE 'a%'");
  EXPECT_EQ(s.kind, ShowKind::kColumns);
  EXPECT_TRUE(s.full);
  EXPECT_EQ(s.from_database, "db");
  EXPECT_EQ(s.table.database, "db");
  EXPECT_EQ(s.like, "a%");

  s = MustParseAs<ShowStmt>("show columns from db.t where Field = 'id'");
  EXPECT_EQ(s.table.database, "db");
  EXPECT_NE(s.where, nullptr);

  s = MustParseAs<ShowStmt>("SHOW INDEX FROM sbtest1");
  EXPECT_EQ(s.kind, ShowKind::kIndex);
  EXPECT_EQ(s.table.name, "sbtest1");
  s = MustParseAs<ShowStmt>("SHOW KEYS IN t FROM db WHERE Key_name = 'PRIMARY'");
  EXPECT_EQ(s.kind, ShowKind::kIndex);
  EXPECT_EQ(s.table.database, "db");
  EXPECT_NE(s.where, nullptr);
  EXPECT_EQ(MustParseAs<ShowStmt>("SHOW INDEXES IN t").kind, ShowKind::kIndex);
  EXPECT_EQ(MustFail("SHOW INDEX FROM t LIKE 'a'").message, Syntax("LIKE 'a'"));
  EXPECT_EQ(MustFail("SHOW COLUMNS t").message, Syntax("t"));
}

TEST(ParseDdlTest, ShowCreate) {
  auto s = MustParseAs<ShowStmt>("SHOW CREATE TABLE db.sbtest1");
  EXPECT_EQ(s.kind, ShowKind::kCreateTable);
  EXPECT_EQ(s.table.database, "db");
  EXPECT_EQ(s.table.name, "sbtest1");
  s = MustParseAs<ShowStmt>("SHOW CREATE DATABASE IF NOT EXISTS sbtest");
  EXPECT_EQ(s.kind, ShowKind::kCreateDatabase);
  EXPECT_EQ(s.table.name, "sbtest");
  EXPECT_EQ(MustParseAs<ShowStmt>("show create schema `x`").table.name, "x");
  EXPECT_EQ(MustFail("SHOW CREATE TABLE t LIKE 'a'").code, 1064);
  s = MustParseAs<ShowStmt>("SHOW CREATE VIEW db.v");
  EXPECT_EQ(s.kind, ShowKind::kCreateView);
  EXPECT_EQ(s.table.database, "db");
  EXPECT_EQ(s.table.name, "v");
  EXPECT_EQ(MustFail("SHOW CREATE TRIGGER tr").message, NotSupported("SHOW CREATE TRIGGER"));
  EXPECT_EQ(MustFail("SHOW FULL EVENTS").message, NotSupported("SHOW FULL EVENTS"));
}

TEST(ParseDdlTest, CreateView) {
  auto v = MustParseAs<CreateViewStmt>(
      "CREATE OR REPLACE ALGORITHM = MERGE DEFINER = 'app'@'%' SQL SECURITY INVOKER VIEW db.v "
      "(a, `b c`) AS SELECT id, k + 1 FROM t WHERE id > 1 WITH LOCAL CHECK OPTION");
  EXPECT_TRUE(v.or_replace);
  EXPECT_FALSE(v.alter);
  EXPECT_EQ(v.algorithm, "MERGE");
  EXPECT_EQ(v.definer_user, "app");
  EXPECT_EQ(v.definer_host, "%");
  EXPECT_EQ(v.security, CreateViewStmt::Security::kInvoker);
  EXPECT_EQ(v.view.database, "db");
  EXPECT_EQ(v.view.name, "v");
  EXPECT_EQ(v.columns, (std::vector<std::string>{"a", "b c"}));
  // The SELECT is kept as written, the check option apart.
  EXPECT_EQ(v.select_text, "SELECT id, k + 1 FROM t WHERE id > 1");
  EXPECT_EQ(v.check_option, CreateViewStmt::CheckOption::kLocal);

  v = MustParseAs<CreateViewStmt>("create view v as select * from t union select * from u");
  EXPECT_FALSE(v.or_replace);
  EXPECT_EQ(v.select_text, "select * from t union select * from u");
  EXPECT_EQ(v.check_option, CreateViewStmt::CheckOption::kNone);
  EXPECT_EQ(MustParseAs<CreateViewStmt>("CREATE VIEW v AS SELECT 1 WITH CHECK OPTION").check_option,
            CreateViewStmt::CheckOption::kCascaded);
  EXPECT_EQ(MustParseAs<CreateViewStmt>("CREATE DEFINER = CURRENT_USER() VIEW v AS SELECT 1")
                .definer_user,
            "");

  v = MustParseAs<CreateViewStmt>("ALTER SQL SECURITY DEFINER VIEW v AS SELECT 2");
  EXPECT_TRUE(v.alter);
  EXPECT_EQ(v.security, CreateViewStmt::Security::kDefiner);
  EXPECT_EQ(v.select_text, "SELECT 2");

  // A query in parentheses, kept as written, parentheses and all.
  v = MustParseAs<CreateViewStmt>("CREATE VIEW v AS (SELECT a FROM t) WITH CHECK OPTION");
  EXPECT_EQ(v.select_text, "(SELECT a FROM t)");
  EXPECT_EQ(v.check_option, CreateViewStmt::CheckOption::kCascaded);
  v = MustParseAs<CreateViewStmt>("CREATE VIEW v AS ((SELECT a FROM t) UNION (SELECT 2)) LIMIT 1");
  EXPECT_EQ(v.select_text, "((SELECT a FROM t) UNION (SELECT 2)) LIMIT 1");
  v = MustParseAs<CreateViewStmt>("CREATE VIEW v AS (SELECT a FROM t ORDER BY a LIMIT 2)");
  EXPECT_EQ(v.select_text, "(SELECT a FROM t ORDER BY a LIMIT 2)");
  EXPECT_EQ(MustFail("CREATE VIEW v AS (1)").code, 1064);
  EXPECT_EQ(MustFail("CREATE VIEW v AS (SELECT 1").code, 1064);

  EXPECT_EQ(MustFail("CREATE VIEW v AS SELEC 1").code, 1064);
  EXPECT_EQ(MustFail("CREATE VIEW v").code, 1064);
  EXPECT_EQ(MustFail("CREATE VIEW v () AS SELECT 1").code, 1064);
  EXPECT_EQ(MustFail("CREATE ALGORITHM = FAST VIEW v AS SELECT 1").code, 1064);
  EXPECT_EQ(MustFail("ALTER OR REPLACE VIEW v AS SELECT 1").code, 1064);

  auto drop = MustParseAs<DropViewStmt>("DROP VIEW IF EXISTS v, db.w CASCADE");
  EXPECT_TRUE(drop.if_exists);
  ASSERT_EQ(drop.views.size(), 2u);
  EXPECT_EQ(drop.views[1].database, "db");
  EXPECT_EQ(drop.views[1].name, "w");
  EXPECT_EQ(MustFail("DROP VIEW").code, 1064);
}

// Untrusted text: every prefix of a long DDL statement parses or fails, never crashes or loops.
TEST(ParseDdlTest, EveryPrefixEndsCleanly) {
  const std::string kStatements[] = {
      kSysbench,
      "CREATE TABLE IF NOT EXISTS db.t (a INT UNSIGNED NOT NULL DEFAULT -1 COMMENT 'x' "
      "COLLATE utf8mb4_bin CHECK (a > (1)), b VARCHAR(10) CHARACTER SET latin1 REFERENCES p (id) "
      "ON DELETE SET NULL, CONSTRAINT pk PRIMARY KEY USING HASH (a DESC), UNIQUE KEY u (b) "
      "COMMENT 'y') ENGINE = ndbcluster, DEFAULT CHARSET utf8mb4 TABLESPACE ts STORAGE DISK "
      "PARTITION BY LINEAR KEY ALGORITHM = 2 (a) PARTITIONS 4",
      "CREATE UNIQUE INDEX u USING BTREE ON db.t (a, b) ALGORITHM = INPLACE LOCK = NONE",
      "CREATE DATABASE IF NOT EXISTS d DEFAULT CHARACTER SET = utf8mb4 DEFAULT ENCRYPTION = 'N'",
      "EXPLAIN FORMAT = TRADITIONAL SELECT 1",
      "SHOW FULL COLUMNS FROM t FROM db WHERE Field = 'a'",
  };
  for (const std::string& sql : kStatements) {
    for (size_t n = 0; n <= sql.size(); ++n) {
      auto r = Parse(absl::string_view(sql).substr(0, n), ParseOptions{});
      if (n < sql.size() && std::holds_alternative<mysql::SqlError>(r)) {
        EXPECT_NE(std::get<mysql::SqlError>(r).code, 0) << sql.substr(0, n);
      }
    }
  }
}

TEST(ParseDdlTest, ForeignKeys) {
  using testing::MustParseAs;
  using Action = ForeignKeySpec::Action;
  auto stmt = MustParseAs<CreateTableStmt>(
      "CREATE TABLE c (a INT, b INT, p INT REFERENCES ignored (id), "
      "CONSTRAINT named FOREIGN KEY idx (a, b) REFERENCES db.parent (x, y) MATCH SIMPLE "
      "ON DELETE CASCADE ON UPDATE NO ACTION, FOREIGN KEY (p) REFERENCES p (id) ON UPDATE SET "
      "NULL ON DELETE RESTRICT)");
  ASSERT_EQ(stmt.foreign_keys.size(), 2u);  // a column's inline REFERENCES makes none (MySQL)
  const ForeignKeySpec& first = stmt.foreign_keys[0];
  EXPECT_EQ(first.name, "named");
  EXPECT_EQ(first.index_name, "idx");
  EXPECT_EQ(first.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(first.parent.database, "db");
  EXPECT_EQ(first.parent.name, "parent");
  EXPECT_EQ(first.on_delete, Action::kCascade);
  EXPECT_EQ(first.on_update, Action::kNoAction);
  const ForeignKeySpec& second = stmt.foreign_keys[1];
  EXPECT_EQ(second.name, "");
  EXPECT_EQ(second.on_update, Action::kSetNull);
  EXPECT_EQ(second.on_delete, Action::kRestrict);
  EXPECT_EQ(MustParseAs<CreateTableStmt>(
                "CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES p (id) ON DELETE SET DEFAULT)")
                .foreign_keys[0]
                .on_delete,
            Action::kSetDefault);
  EXPECT_EQ(MustFail("CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES p (id) ON DELETE "
                     "NOTHING)")
                .code,
            1064);
  EXPECT_EQ(MustFail("CREATE TABLE c (a INT, FOREIGN KEY () REFERENCES p (id))").code, 1064);
}

}  // namespace
}  // namespace shoal::sql
