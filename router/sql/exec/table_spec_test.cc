// CREATE TABLE to TableDef (types, keys, defaults and MySQL's errors) and SHOW CREATE TABLE.
// Defaults other than NULL go through EncodeField (field_codec.cc).
#include "router/sql/exec/table_spec.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "engine/schema/row.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
namespace {

using schema::ColumnType;
using schema::TableDef;

CreateTableStmt ParseCreate(absl::string_view sql) {
  auto r = Parse(sql, ParseOptions{});
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << sql << ": " << err->message;
    return {};
  }
  Statement s = std::get<Statement>(std::move(r));
  if (!std::holds_alternative<CreateTableStmt>(s.node)) {
    ADD_FAILURE() << sql << ": not CREATE TABLE";
    return {};
  }
  return std::get<CreateTableStmt>(std::move(s.node));
}

TableDef MustBuild(absl::string_view sql) {
  auto r = TableDefFromSpec(ParseCreate(sql), "db");
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << sql << ": " << err->code << " " << err->message;
    return {};
  }
  return std::get<TableDef>(std::move(r));
}

mysql::SqlError MustRefuse(absl::string_view sql, const std::string& database = "db") {
  auto r = TableDefFromSpec(ParseCreate(sql), database);
  if (!std::holds_alternative<mysql::SqlError>(r)) {
    ADD_FAILURE() << sql << ": accepted";
    return {};
  }
  return std::get<mysql::SqlError>(r);
}

std::string Le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  return out;
}

constexpr char kSysbench[] =
    "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT "
    "NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY "
    "(id)\n) /*! ENGINE = ndbcluster */ ";

TEST(TableSpecTest, TheTablesCollateIsItsTextColumnsDefault) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a VARCHAR(10) PRIMARY KEY, b TEXT, c CHAR(2) COLLATE utf8mb4_general_ci, "
      "d INT, e VARCHAR(3) CHARACTER SET utf8mb4) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin");
  ASSERT_EQ(t.columns.size(), 5u);
  EXPECT_EQ(t.columns[0].collation, schema::Collation::kBinary);
  EXPECT_EQ(t.columns[1].collation, schema::Collation::kBinary);
  EXPECT_EQ(t.columns[2].collation, schema::Collation::kCaseInsensitive);  // its own
  EXPECT_EQ(t.columns[4].collation, schema::Collation::kCaseInsensitive);  // its charset's
  EXPECT_EQ(t.collation, schema::Collation::kBinary);
  TableDef ci = MustBuild("CREATE TABLE t (a VARCHAR(10)) COLLATE utf8mb4_general_ci");
  EXPECT_EQ(ci.columns[0].collation, schema::Collation::kCaseInsensitive);
  EXPECT_EQ(ci.collation, schema::Collation::kCaseInsensitive);

  // SHOW CREATE TABLE names the table's collation and only the columns' that differ from it.
  std::string shown = ShowCreateTableText(t);
  EXPECT_NE(shown.find("  `a` varchar(10) NOT NULL,\n"), std::string::npos) << shown;
  EXPECT_NE(shown.find("  `c` char(2) COLLATE utf8mb4_general_ci DEFAULT NULL,\n"),
            std::string::npos)
      << shown;
  EXPECT_NE(shown.find(") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"),
            std::string::npos)
      << shown;
  TableDef again = MustBuild(shown);
  for (size_t i = 0; i < t.columns.size(); ++i) {
    EXPECT_EQ(again.columns[i].collation, t.columns[i].collation) << i;
  }
  EXPECT_EQ(again.collation, t.collation);
  std::string shown_ci =
      ShowCreateTableText(MustBuild("CREATE TABLE t (a VARCHAR(10), b TEXT COLLATE utf8mb4_bin)"));
  EXPECT_NE(shown_ci.find("  `a` varchar(10) DEFAULT NULL,\n"), std::string::npos) << shown_ci;
  EXPECT_NE(shown_ci.find("  `b` text COLLATE utf8mb4_bin"), std::string::npos) << shown_ci;
  EXPECT_EQ(shown_ci.find("COLLATE="), std::string::npos)
      << "no COLLATE for a case-insensitive table: " << shown_ci;
}

TEST(TableSpecTest, Sysbench) {
  TableDef t = MustBuild(kSysbench);
  EXPECT_EQ(t.database, "db");
  EXPECT_EQ(t.name, "sbtest1");
  EXPECT_EQ(t.partitions, 0u);
  ASSERT_EQ(t.columns.size(), 4u);
  EXPECT_EQ(t.columns[0].type, ColumnType::kInt);
  EXPECT_TRUE(t.columns[0].auto_increment);
  EXPECT_FALSE(t.columns[0].nullable);
  EXPECT_FALSE(t.columns[0].default_value.has_value());
  EXPECT_EQ(t.columns[1].default_value, schema::EncodeValue(t.columns[1], Le(0, 4)));
  EXPECT_EQ(t.columns[2].type, ColumnType::kChar);
  EXPECT_EQ(t.columns[2].length, 120u);
  EXPECT_EQ(t.columns[2].default_value, schema::EncodeValue(t.columns[2], ""));
  EXPECT_FALSE(t.columns[3].nullable);
  ASSERT_EQ(t.indexes.size(), 1u);
  EXPECT_TRUE(t.indexes[0].primary);
  EXPECT_EQ(t.indexes[0].name, "PRIMARY");
  EXPECT_EQ(t.indexes[0].columns, std::vector<int>{0});
  EXPECT_FALSE(t.has_hidden_key());
}

TEST(TableSpecTest, SysbenchSecondaryGetsHiddenKey) {
  TableDef t = MustBuild(
      "CREATE TABLE sbtest1(\n  id INTEGER NOT NULL,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c "
      "CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  KEY xid (id)\n) /*! "
      "ENGINE = innodb */ ");
  EXPECT_TRUE(t.has_hidden_key());
  ASSERT_EQ(t.indexes.size(), 2u);
  EXPECT_TRUE(t.indexes[0].primary);
  EXPECT_EQ(t.indexes[1].name, "xid");
  EXPECT_FALSE(t.indexes[1].unique);

  // With AUTO_INCREMENT the key on id is what makes the column legal.
  t = MustBuild(
      "CREATE TABLE sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER, KEY xid (id))");
  EXPECT_EQ(t.auto_increment_column(), 0);
}

TEST(TableSpecTest, ShowCreateTableSysbench) {
  TableDef t = MustBuild(kSysbench);
  schema::IndexDef k;
  k.name = "k_1";
  k.columns = {1};
  t.indexes.push_back(k);
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `sbtest1` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `k` int NOT NULL "
            "DEFAULT '0',\n  `c` char(120) NOT NULL DEFAULT '',\n  `pad` char(60) NOT NULL DEFAULT "
            "'',\n  PRIMARY KEY (`id`),\n  KEY `k_1` (`k`)\n) ENGINE=ndbcluster DEFAULT "
            "CHARSET=utf8mb4");
  EXPECT_EQ(ShowCreateTableText(t, 10001).substr(ShowCreateTableText(t, 10001).find(") ENGINE")),
            ") ENGINE=ndbcluster AUTO_INCREMENT=10001 DEFAULT CHARSET=utf8mb4");
}

TEST(TableSpecTest, ShowCreateTableHidesTheHiddenKey) {
  TableDef t = MustBuild("CREATE TABLE t (a INT, b VARCHAR(10) NOT NULL, KEY (a)) COMMENT 'it''s'");
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `t` (\n  `a` int DEFAULT NULL,\n  `b` varchar(10) NOT NULL,\n  KEY `a` "
            "(`a`)\n) ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4 COMMENT='it''s'");
}

TEST(TableSpecTest, ShowCreateTableTypesAndDefaults) {
  TableDef t = MustBuild(
      "CREATE TABLE `we``ird` (a TINYINT(1) NOT NULL DEFAULT 1, b BIGINT UNSIGNED DEFAULT 7, "
      "c DECIMAL(10,2) DEFAULT -1.5, d VARCHAR(20) DEFAULT 'it''s\\\\', e TEXT, f TIMESTAMP, "
      "g DATETIME(3), h BINARY(2) DEFAULT 0x4100, i VARBINARY(4) DEFAULT 0xFF01, j DOUBLE, "
      "k FLOAT UNSIGNED, l TIME(2), m DATE, n BLOB NOT NULL, o INT NOT NULL UNIQUE, "
      "p INT, q INT, UNIQUE KEY up (p, q), PRIMARY KEY (a))");
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `we``ird` (\n"
            "  `a` tinyint(1) NOT NULL DEFAULT '1',\n"
            "  `b` bigint unsigned DEFAULT '7',\n"
            "  `c` decimal(10,2) DEFAULT '-1.50',\n"
            "  `d` varchar(20) DEFAULT 'it''s\\\\',\n"
            "  `e` text,\n"
            "  `f` timestamp NULL DEFAULT NULL,\n"
            "  `g` datetime(3) DEFAULT NULL,\n"
            "  `h` binary(2) DEFAULT 'A\\0',\n"
            "  `i` varbinary(4) DEFAULT 0xFF01,\n"
            "  `j` double DEFAULT NULL,\n"
            "  `k` float unsigned DEFAULT NULL,\n"
            "  `l` time(2) DEFAULT NULL,\n"
            "  `m` date DEFAULT NULL,\n"
            "  `n` blob NOT NULL,\n"
            "  `o` int NOT NULL,\n"
            "  `p` int DEFAULT NULL,\n"
            "  `q` int DEFAULT NULL,\n"
            "  PRIMARY KEY (`a`),\n"
            "  UNIQUE KEY `o` (`o`),\n"
            "  UNIQUE KEY `up` (`p`,`q`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
}

// A binary default is quoted only if it is text as MariaDB's utf8mb4 reads it (MariaDB 10.11
// shows an overlong X'C0AF' as '??' and keeps X'EDA080' as it is); anything else is hex.
TEST(TableSpecTest, EnumAndSet) {
  TableDef t = MustBuild(
      "CREATE TABLE t (id INT PRIMARY KEY, size ENUM('small', 'it''s ', '') NOT NULL, "
      "tags SET('red','green') DEFAULT 'GREEN,red', mood ENUM('x') DEFAULT 'X')");
  EXPECT_EQ(t.columns[1].elements, (std::vector<std::string>{"small", "it's", ""}));
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `t` (\n"
            "  `id` int NOT NULL,\n"
            "  `size` enum('small','it''s','') NOT NULL,\n"
            "  `tags` set('red','green') DEFAULT 'red,green',\n"
            "  `mood` enum('x') DEFAULT 'x',\n"
            "  PRIMARY KEY (`id`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  std::string too_many = "CREATE TABLE t (s SET(";
  for (int i = 0; i < 65; ++i) absl::StrAppend(&too_many, i > 0 ? "," : "", "'m", i, "'");
  mysql::SqlError e = MustRefuse(too_many + "))");
  EXPECT_EQ(e.code, 1097);
  EXPECT_EQ(e.message, "Too many strings for column s and SET");
  e = MustRefuse(absl::StrCat("CREATE TABLE t (e ENUM('", std::string(256, 'x'), "'))"));
  EXPECT_EQ(e.code, 3504);
  EXPECT_EQ(e.message, "Too long enumeration/set value for column e.");
}

// The TEXT and BLOB sizes keep their names (the engine holds 65535 bytes of any of them);
// BIT(M) shows its width and a bit-literal default, as MySQL 8.0.
TEST(TableSpecTest, TextSizesAndBits) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a TINYTEXT, b MEDIUMTEXT, c LONGTEXT, d TEXT(70000), e LONGBLOB, "
      "f BIT, g BIT(10) NOT NULL DEFAULT b'101', h BIT(1) DEFAULT 0)");
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `t` (\n"
            "  `a` tinytext,\n"
            "  `b` mediumtext,\n"
            "  `c` longtext,\n"
            "  `d` mediumtext,\n"
            "  `e` longblob,\n"
            "  `f` bit(1) DEFAULT NULL,\n"
            "  `g` bit(10) NOT NULL DEFAULT b'101',\n"
            "  `h` bit(1) DEFAULT b'0'\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  EXPECT_EQ(MustRefuse("CREATE TABLE t (b BIT(2) DEFAULT 4)").code, 1067);
}

TEST(TableSpecTest, ColumnComments) {
  TableDef t = MustBuild(
      "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY COMMENT 'the key', "
      "cc VARCHAR(2) COMMENT 'ISO 3166 it''s')");
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `t` (\n"
            "  `id` int NOT NULL AUTO_INCREMENT COMMENT 'the key',\n"
            "  `cc` varchar(2) DEFAULT NULL COMMENT 'ISO 3166 it''s',\n"
            "  PRIMARY KEY (`id`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  mysql::SqlError e =
      MustRefuse(absl::StrCat("CREATE TABLE t (c INT COMMENT '", std::string(1025, 'x'), "')"));
  EXPECT_EQ(e.code, 1629);
  EXPECT_EQ(e.message, "Comment for field 'c' is too long (max = 1024)");
}

TEST(TableSpecTest, ShowCreateTableBinaryDefaults) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a VARBINARY(4) DEFAULT 0xC3A9, b VARBINARY(4) DEFAULT 0xC0AF, "
      "c VARBINARY(4) DEFAULT 0xF4908080, d VARBINARY(4) DEFAULT 0xEDA080, "
      "e VARBINARY(4) DEFAULT 0xE282)");
  std::string text = ShowCreateTableText(t);
  EXPECT_NE(text.find("`a` varbinary(4) DEFAULT '\xC3\xA9'"), std::string::npos) << text;
  EXPECT_NE(text.find("`b` varbinary(4) DEFAULT 0xC0AF"), std::string::npos) << text;
  EXPECT_NE(text.find("`c` varbinary(4) DEFAULT 0xF4908080"), std::string::npos) << text;
  EXPECT_NE(text.find("`d` varbinary(4) DEFAULT '\xED\xA0\x80'"), std::string::npos) << text;
  EXPECT_NE(text.find("`e` varbinary(4) DEFAULT 0xE282"), std::string::npos) << text;
}

TEST(TableSpecTest, ShowCreateTableTemporalDefaults) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a DATE DEFAULT '2024-02-29', b DATETIME(2) DEFAULT '2024-01-02 03:04:05.5', "
      "c TIME DEFAULT '-10:00:01', d TIMESTAMP(6) NOT NULL DEFAULT '2001-01-01 00:00:00')");
  std::string text = ShowCreateTableText(t);
  EXPECT_NE(text.find("`a` date DEFAULT '2024-02-29'"), std::string::npos) << text;
  EXPECT_NE(text.find("`b` datetime(2) DEFAULT '2024-01-02 03:04:05.50'"), std::string::npos)
      << text;
  EXPECT_NE(text.find("`c` time DEFAULT '-10:00:01'"), std::string::npos) << text;
  EXPECT_NE(text.find("`d` timestamp(6) NOT NULL DEFAULT '2001-01-01 00:00:00.000000'"),
            std::string::npos)
      << text;
}

TEST(TableSpecTest, TypeMapping) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a BOOL, b SMALLINT UNSIGNED, c MEDIUMINT, d BIGINT, e FLOAT, f FLOAT(30), "
      "g DOUBLE, h DECIMAL, i NUMERIC(5,2), j CHAR, k VARCHAR(16383), l BINARY, m "
      "VARBINARY(65535), "
      "n TINYTEXT, o MEDIUMTEXT, p LONGTEXT, q TINYBLOB, r LONGBLOB, s DATE, u TIME(6), "
      "v DATETIME, w TIMESTAMP(3), x SERIAL, y CHAR(3) CHARACTER SET binary, "
      "z VARCHAR(3) CHARSET binary, aa TEXT CHARACTER SET binary, ab VARCHAR(3) CHARSET latin1 "
      "COLLATE latin1_bin, ac INT(11), ad TINYINT(4))");
  struct Want {
    ColumnType type;
    uint32_t length;
    uint8_t precision;
    uint8_t scale;
  };
  const Want kWant[] = {
      {ColumnType::kTinyInt, 1, 0, 0},       {ColumnType::kSmallInt, 0, 0, 0},
      {ColumnType::kMediumInt, 0, 0, 0},     {ColumnType::kBigInt, 0, 0, 0},
      {ColumnType::kFloat, 0, 0, 0},         {ColumnType::kDouble, 0, 0, 0},
      {ColumnType::kDouble, 0, 0, 0},        {ColumnType::kDecimal, 0, 10, 0},
      {ColumnType::kDecimal, 0, 5, 2},       {ColumnType::kChar, 1, 0, 0},
      {ColumnType::kVarChar, 16383, 0, 0},   {ColumnType::kBinary, 1, 0, 0},
      {ColumnType::kVarBinary, 65535, 0, 0}, {ColumnType::kText, 255, 0, 0},
      {ColumnType::kText, 16777215, 0, 0},   {ColumnType::kText, 4294967295, 0, 0},
      {ColumnType::kBlob, 255, 0, 0},        {ColumnType::kBlob, 4294967295, 0, 0},
      {ColumnType::kDate, 0, 0, 0},          {ColumnType::kTime, 0, 6, 0},
      {ColumnType::kDateTime, 0, 0, 0},      {ColumnType::kTimestamp, 0, 3, 0},
      {ColumnType::kBigInt, 0, 0, 0},        {ColumnType::kBinary, 3, 0, 0},
      {ColumnType::kVarBinary, 3, 0, 0},     {ColumnType::kBlob, 65535, 0, 0},
      {ColumnType::kVarChar, 3, 0, 0},       {ColumnType::kInt, 0, 0, 0},
      {ColumnType::kTinyInt, 0, 0, 0},
  };
  ASSERT_EQ(t.columns.size(), std::size(kWant) + 1);  // + the hidden key
  for (size_t i = 0; i < std::size(kWant); ++i) {
    SCOPED_TRACE(t.columns[i].name);
    EXPECT_EQ(t.columns[i].type, kWant[i].type);
    EXPECT_EQ(t.columns[i].length, kWant[i].length);
    EXPECT_EQ(t.columns[i].precision, kWant[i].precision);
    EXPECT_EQ(t.columns[i].scale, kWant[i].scale);
  }
  EXPECT_TRUE(t.columns[1].is_unsigned);
  const schema::ColumnDef& serial = t.columns[22];
  EXPECT_TRUE(serial.is_unsigned);
  EXPECT_FALSE(serial.nullable);
  EXPECT_TRUE(serial.auto_increment);
  ASSERT_GE(t.indexes.size(), 2u);
  EXPECT_EQ(t.indexes[1].name, "x");  // SERIAL's UNIQUE
  EXPECT_TRUE(t.indexes[1].unique);
}

TEST(TableSpecTest, TypeErrors) {
  struct Case {
    const char* sql;
    int code;
    const char* message;
  };
  const Case kCases[] = {
      {"CREATE TABLE t (c CHAR(256))", 1074,
       "Column length too big for column 'c' (max = 255); use BLOB or TEXT instead"},
      {"CREATE TABLE t (c BINARY(256))", 1074,
       "Column length too big for column 'c' (max = 255); use BLOB or TEXT instead"},
      {"CREATE TABLE t (c VARCHAR(16384))", 1074,
       "Column length too big for column 'c' (max = 16383); use BLOB or TEXT instead"},
      {"CREATE TABLE t (c VARBINARY(65536))", 1074,
       "Column length too big for column 'c' (max = 65535); use BLOB or TEXT instead"},
      {"CREATE TABLE t (c DECIMAL(70))", 1426,
       "Too-big precision 70 specified for 'c'. Maximum is 65."},
      {"CREATE TABLE t (c DECIMAL(40,31))", 1425,
       "Too big scale 31 specified for column 'c'. Maximum is 30."},
      {"CREATE TABLE t (c DECIMAL(5,6))", 1427,
       "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column 'c')."},
      {"CREATE TABLE t (c TIME(7))", 1426, "Too-big precision 7 specified for 'c'. Maximum is 6."},
      {"CREATE TABLE t (c DATETIME(9))", 1426,
       "Too-big precision 9 specified for 'c'. Maximum is 6."},
      {"CREATE TABLE t (c INT(256))", 1439,
       "Display width out of range for column 'c' (max = 255)"},
      {"CREATE TABLE t (c FLOAT(54))", 1063, "Incorrect column specifier for column 'c'"},
      {"CREATE TABLE t (c YEAR)", 1235, "This version of MySQL doesn't yet support 'YEAR'"},
      {"CREATE TABLE t (c BIT(65))", 1439, "Display width out of range for column 'c' (max = 64)"},
      {"CREATE TABLE t (c ENUM('a','b','A'))", 1291, "Column 'c' has duplicated value 'a' in ENUM"},
      {"CREATE TABLE t (c SET('x','b ','B','x'))", 1291,
       "Column 'c' has duplicated value 'x' in SET"},
      {"CREATE TABLE t (c SET('a','b,c'))", 1367, "Illegal set 'b,c' value found during parsing"},
      {"CREATE TABLE t (c ENUM('a','b') DEFAULT 'c')", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c SET('a','b') DEFAULT 'a,c')", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c GEOMETRY)", 1235, "This version of MySQL doesn't yet support 'GEOMETRY'"},
      {"CREATE TABLE t (c INT ZEROFILL)", 1235,
       "This version of MySQL doesn't yet support 'ZEROFILL'"},
      {"CREATE TABLE t (c FLOAT(7,2))", 1235,
       "This version of MySQL doesn't yet support 'FLOAT(M,D)'"},
      {"CREATE TABLE t (c VARCHAR(3) CHARACTER SET klingon)", 1115,
       "Unknown character set: 'klingon'"},
      {"CREATE TABLE t (c VARCHAR(3) CHARACTER SET ucs2)", 1235,
       "This version of MySQL doesn't yet support 'CHARACTER SET ucs2'"},
      {"CREATE TABLE t (c VARCHAR(3) COLLATE nope_ci)", 1273, "Unknown collation: 'nope_ci'"},
      {"CREATE TABLE t (c VARCHAR(3) CHARACTER SET latin1 COLLATE utf8mb4_bin)", 1253,
       "COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET 'latin1'"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.sql);
    mysql::SqlError e = MustRefuse(c.sql);
    EXPECT_EQ(e.code, c.code);
    EXPECT_EQ(e.message, c.message);
    EXPECT_EQ(e.sqlstate.size(), 5u);
  }
}

TEST(TableSpecTest, Defaults) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a INT DEFAULT -5, b BIGINT UNSIGNED DEFAULT 18446744073709551615, "
      "c VARCHAR(5) DEFAULT 'abc', d INT DEFAULT NULL, e SMALLINT DEFAULT '12', "
      "f BIGINT DEFAULT -9223372036854775808, g TINYINT DEFAULT TRUE, h INT DEFAULT 0x10)");
  EXPECT_EQ(t.columns[0].default_value, schema::EncodeValue(t.columns[0], Le(-5, 4)));
  EXPECT_EQ(t.columns[1].default_value, schema::EncodeValue(t.columns[1], Le(~uint64_t{0}, 8)));
  EXPECT_EQ(t.columns[2].default_value, schema::EncodeValue(t.columns[2], "abc"));
  EXPECT_FALSE(t.columns[3].default_value.has_value());
  EXPECT_TRUE(t.columns[3].nullable);
  EXPECT_EQ(t.columns[4].default_value, schema::EncodeValue(t.columns[4], Le(12, 2)));
  EXPECT_EQ(t.columns[5].default_value,
            schema::EncodeValue(t.columns[5], Le(uint64_t{1} << 63, 8)));
  EXPECT_EQ(t.columns[6].default_value, schema::EncodeValue(t.columns[6], Le(1, 1)));
  EXPECT_EQ(t.columns[7].default_value, schema::EncodeValue(t.columns[7], Le(16, 4)));
}

TEST(TableSpecTest, DefaultErrors) {
  struct Case {
    const char* sql;
    int code;
    const char* message;
  };
  const char* kPkNull =
      "All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use UNIQUE "
      "instead";
  const Case kCases[] = {
      {"CREATE TABLE t (c INT DEFAULT 'abc')", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c TINYINT DEFAULT 300)", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c INT UNSIGNED DEFAULT -1)", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c CHAR(3) DEFAULT 'toolong')", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c INT NOT NULL DEFAULT NULL)", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c INT AUTO_INCREMENT DEFAULT 1 KEY)", 1067,
       "Invalid default value for 'c'"},
      {"CREATE TABLE t (c INT DEFAULT CURRENT_TIMESTAMP)", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c INT DEFAULT NULL PRIMARY KEY)", 1171, kPkNull},
      {"CREATE TABLE t (c INT NULL, PRIMARY KEY (c))", 1171, kPkNull},
      {"CREATE TABLE t (c TEXT DEFAULT 'x')", 1101,
       "BLOB, TEXT, GEOMETRY or JSON column 'c' can't have a default value"},
      {"CREATE TABLE t (c DATE DEFAULT CURRENT_TIMESTAMP)", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c TIME DEFAULT NOW())", 1067, "Invalid default value for 'c'"},
      // MySQL 8.0 wants the column's own precision (MariaDB truncates).
      {"CREATE TABLE t (c DATETIME(3) DEFAULT CURRENT_TIMESTAMP(6))", 1067,
       "Invalid default value for 'c'"},
      {"CREATE TABLE t (c DATETIME(6) DEFAULT CURRENT_TIMESTAMP)", 1067,
       "Invalid default value for 'c'"},
      {"CREATE TABLE t (c TIMESTAMP DEFAULT NOW(3))", 1067, "Invalid default value for 'c'"},
      {"CREATE TABLE t (c DATETIME DEFAULT NOW(7))", 1426,
       "Too-big precision 7 specified for 'now'. Maximum is 6."},
      {"CREATE TABLE t (c INT DEFAULT (1 + 1))", 1235,
       "This version of MySQL doesn't yet support 'expression defaults'"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.sql);
    mysql::SqlError e = MustRefuse(c.sql);
    EXPECT_EQ(e.code, c.code);
    EXPECT_EQ(e.sqlstate, "42000");
    EXPECT_EQ(e.message, c.message);
  }
}

TEST(TableSpecTest, CurrentTimestamp) {
  TableDef t = MustBuild(
      "CREATE TABLE t (id INT PRIMARY KEY, "
      "created TIMESTAMP DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, "
      "d DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6), "
      "updated_at datetime NOT NULL DEFAULT NOW() ON UPDATE NOW(), "
      "touched DATETIME(3) ON UPDATE LOCALTIMESTAMP(3), "
      "since DATETIME DEFAULT '2024-01-02 03:04:05' ON UPDATE LOCALTIME)");
  EXPECT_TRUE(t.columns[1].default_now);
  EXPECT_TRUE(t.columns[1].on_update_now);
  EXPECT_FALSE(t.columns[1].default_value.has_value());
  EXPECT_TRUE(t.columns[2].default_now);
  EXPECT_FALSE(t.columns[2].on_update_now);
  EXPECT_TRUE(t.columns[3].default_now && t.columns[3].on_update_now);
  EXPECT_FALSE(t.columns[3].nullable);
  EXPECT_FALSE(t.columns[4].default_now);
  EXPECT_TRUE(t.columns[4].on_update_now);
  EXPECT_TRUE(t.columns[5].default_value.has_value());
  EXPECT_TRUE(t.columns[5].on_update_now);
  // As MySQL 8.0 shows them.
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `t` (\n"
            "  `id` int NOT NULL,\n"
            "  `created` timestamp NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
            "  `d` datetime(6) DEFAULT CURRENT_TIMESTAMP(6),\n"
            "  `updated_at` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE "
            "CURRENT_TIMESTAMP,\n"
            "  `touched` datetime(3) DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP(3),\n"
            "  `since` datetime DEFAULT '2024-01-02 03:04:05' ON UPDATE CURRENT_TIMESTAMP,\n"
            "  PRIMARY KEY (`id`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  // What SHOW CREATE TABLE says is taken back as it was.
  TableDef again = MustBuild(ShowCreateTableText(t));
  EXPECT_EQ(ShowCreateTableText(again), ShowCreateTableText(t));

  struct Case {
    const char* sql;
    int code;
    const char* sqlstate;
    const char* message;
  };
  const Case kCases[] = {
      {"CREATE TABLE t (c INT ON UPDATE CURRENT_TIMESTAMP)", 1294, "HY000",
       "Invalid ON UPDATE clause for 'c' column"},
      {"CREATE TABLE t (c DATE ON UPDATE NOW())", 1294, "HY000",
       "Invalid ON UPDATE clause for 'c' column"},
      {"CREATE TABLE t (c DATETIME(3) DEFAULT NOW(3) ON UPDATE NOW())", 1294, "HY000",
       "Invalid ON UPDATE clause for 'c' column"},
      {"CREATE TABLE t (c DATETIME ON UPDATE NOW(2))", 1294, "HY000",
       "Invalid ON UPDATE clause for 'c' column"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.sql);
    mysql::SqlError e = MustRefuse(c.sql);
    EXPECT_EQ(e.code, c.code);
    EXPECT_EQ(e.sqlstate, c.sqlstate);
    EXPECT_EQ(e.message, c.message);
  }
}

TEST(TableSpecTest, Keys) {
  TableDef t = MustBuild(
      "CREATE TABLE t (a INT, b INT, k INT, u INT NOT NULL, v INT, PRIMARY KEY (b, a), KEY (k), "
      "KEY (k), UNIQUE (v), CONSTRAINT named UNIQUE (u))");
  EXPECT_FALSE(t.columns[0].nullable);  // key columns are NOT NULL without being asked
  EXPECT_FALSE(t.columns[1].nullable);
  EXPECT_TRUE(t.columns[2].nullable);
  ASSERT_EQ(t.indexes.size(), 5u);
  // MySQL's order: primary, unique over NOT NULL, other unique, the rest as written.
  EXPECT_EQ(t.indexes[0].name, "PRIMARY");
  EXPECT_EQ(t.indexes[0].columns, (std::vector<int>{1, 0}));
  EXPECT_EQ(t.indexes[1].name, "named");
  EXPECT_EQ(t.indexes[2].name, "v");
  EXPECT_EQ(t.indexes[3].name, "k");
  EXPECT_EQ(t.indexes[4].name, "k_2");

  EXPECT_TRUE(MustBuild("CREATE TABLE t (id INT KEY)").indexes[0].primary);
}

TEST(TableSpecTest, TableErrors) {
  struct Case {
    const char* sql;
    int code;
    const char* sqlstate;
    const char* message;
  };
  const Case kCases[] = {
      {"CREATE TABLE t (a INT, A INT)", 1060, "42S21", "Duplicate column name 'A'"},
      {"CREATE TABLE t (a INT, KEY x (a), KEY x (a))", 1061, "42000", "Duplicate key name 'x'"},
      {"CREATE TABLE t (a INT, KEY (b))", 1072, "42000", "Key column 'b' doesn't exist in table"},
      {"CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))", 1068, "42000",
       "Multiple primary key defined"},
      {"CREATE TABLE t (a INT AUTO_INCREMENT)", 1075, "42000",
       "Incorrect table definition; there can be only one auto column and it must be defined as "
       "a key"},
      {"CREATE TABLE t (a VARCHAR(3) AUTO_INCREMENT KEY)", 1063, "42000",
       "Incorrect column specifier for column 'a'"},
      {"CREATE TABLE t (a INT) ENGINE=foo", 1286, "42000", "Unknown storage engine 'foo'"},
      {"CREATE TABLE t (a TEXT PRIMARY KEY)", 1170, "42000",
       "BLOB/TEXT column 'a' used in key specification without a key length"},
      {"CREATE TABLE t", 1113, "42000", "A table must have at least 1 column"},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.sql);
    mysql::SqlError e = MustRefuse(c.sql);
    EXPECT_EQ(e.code, c.code);
    EXPECT_EQ(e.sqlstate, c.sqlstate);
    EXPECT_EQ(e.message, c.message);
  }
  mysql::SqlError e = MustRefuse("CREATE TABLE t (a INT)", "");
  EXPECT_EQ(e.code, 1046);
  EXPECT_EQ(e.sqlstate, "3D000");
}

TEST(TableSpecTest, TableLevelFields) {
  CreateTableStmt stmt = ParseCreate(
      "CREATE TABLE other.t (a INT PRIMARY KEY) ENGINE=MEMORY AUTO_INCREMENT=100 COMMENT='c' "
      "PARTITION BY KEY() PARTITIONS 6");
  auto r = TableDefFromSpec(stmt, "db");
  ASSERT_TRUE(std::holds_alternative<TableDef>(r));
  const TableDef& t = std::get<TableDef>(r);
  EXPECT_EQ(t.database, "other");  // the statement's database wins over the session's
  EXPECT_EQ(t.partitions, 6u);
  EXPECT_EQ(t.comment, "c");
  EXPECT_EQ(stmt.auto_increment, 100u);  // for the caller to seed the counter
  for (const char* engine : {"ndbcluster", "NDB", "InnoDB", "memory", "shoal", "MyISAM"}) {
    SCOPED_TRACE(engine);
    MustBuild(absl::StrCat("CREATE TABLE t (a INT) ENGINE=", engine));
  }
}

TEST(TableSpecTest, OrmTables) {
  TableDef t = MustBuild(
      "CREATE TABLE `auth_user` (`id` integer AUTO_INCREMENT NOT NULL PRIMARY KEY, `password` "
      "varchar(128) NOT NULL, `last_login` datetime(6) NULL, `is_superuser` bool NOT NULL, "
      "`username` varchar(150) NOT NULL UNIQUE, `price` numeric(10, 2) NOT NULL CHECK (`price` >= "
      "0)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci");
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `auth_user` (\n"
            "  `id` int NOT NULL AUTO_INCREMENT,\n"
            "  `password` varchar(128) NOT NULL,\n"
            "  `last_login` datetime(6) DEFAULT NULL,\n"
            "  `is_superuser` tinyint(1) NOT NULL,\n"
            "  `username` varchar(150) NOT NULL,\n"
            "  `price` decimal(10,2) NOT NULL,\n"
            "  PRIMARY KEY (`id`),\n"
            "  UNIQUE KEY `username` (`username`)\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  t = MustBuild(
      "create table Person (id bigint not null auto_increment, name varchar(255), birth date, "
      "primary key (id)) engine=InnoDB");
  EXPECT_EQ(t.columns[1].type, ColumnType::kVarChar);
  EXPECT_TRUE(t.columns[1].nullable);
}

TEST(TableSpecTest, ForeignKeys) {
  TableDef t = MustBuild(
      "CREATE TABLE c (id INT PRIMARY KEY, a INT, b INT, KEY ab (a, b), "
      "CONSTRAINT named FOREIGN KEY (a, b) REFERENCES other.p (x, y) ON UPDATE CASCADE, "
      "FOREIGN KEY (b) REFERENCES c (id) ON DELETE SET NULL)");
  ASSERT_EQ(t.foreign_keys.size(), 2u);
  EXPECT_EQ(t.foreign_keys[0].parent_database, "other");
  EXPECT_EQ(t.foreign_keys[1].parent_database, "db");  // the child's database when not named
  EXPECT_EQ(t.foreign_keys[1].name, "c_ibfk_1");
  // (a, b) has its index; b gets one of its own, named after it.
  EXPECT_EQ(ShowCreateTableText(t),
            "CREATE TABLE `c` (\n"
            "  `id` int NOT NULL,\n"
            "  `a` int DEFAULT NULL,\n"
            "  `b` int DEFAULT NULL,\n"
            "  PRIMARY KEY (`id`),\n"
            "  KEY `ab` (`a`,`b`),\n"
            "  KEY `b` (`b`),\n"
            "  CONSTRAINT `named` FOREIGN KEY (`a`, `b`) REFERENCES `other`.`p` (`x`, `y`) ON "
            "UPDATE CASCADE,\n"
            "  CONSTRAINT `c_ibfk_1` FOREIGN KEY (`b`) REFERENCES `c` (`id`) ON DELETE SET NULL\n"
            ") ENGINE=ndbcluster DEFAULT CHARSET=utf8mb4");
  auto missing = TableDefFromSpec(
      ParseCreate("CREATE TABLE c (a INT, FOREIGN KEY (nope) REFERENCES p (id))"), "db");
  ASSERT_TRUE(std::holds_alternative<mysql::SqlError>(missing));
  EXPECT_EQ(std::get<mysql::SqlError>(missing).code, 1072);
  auto set_default = TableDefFromSpec(
      ParseCreate(
          "CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES p (id) ON DELETE SET DEFAULT)"),
      "db");
  ASSERT_TRUE(std::holds_alternative<mysql::SqlError>(set_default));
  EXPECT_EQ(std::get<mysql::SqlError>(set_default).code, 1235);
  auto lengths = TableDefFromSpec(
      ParseCreate("CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES p (id, x))"), "db");
  ASSERT_TRUE(std::holds_alternative<mysql::SqlError>(lengths));
  EXPECT_EQ(std::get<mysql::SqlError>(lengths).code, 1239);
}

}  // namespace
}  // namespace shoal::sql
