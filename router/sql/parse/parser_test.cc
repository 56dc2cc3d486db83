#include "router/sql/parse/parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser_test_util.h"

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::MustParse;
using testing::MustParseAs;
using testing::Syntax;

TEST(ParserTest, EveryStatementKindParses) {
  const char* kStatements[] = {
      "SELECT 1",
      "select 1;",
      "SELECT 'a', 2, NULL, 1.5",
      "select @@version_comment limit 1",
      "SELECT @@session.sql_mode",
      "SELECT @@global.max_connections, @@local.autocommit",
      "SELECT @a, @`b`, @'c'",
      "SELECT DATABASE(), SCHEMA(), USER(), CURRENT_USER(), CURRENT_USER, SESSION_USER(), "
      "SYSTEM_USER(), CONNECTION_ID(), LAST_INSERT_ID(), VERSION(), NOW(), CURRENT_TIMESTAMP, "
      "UTC_TIMESTAMP(), CURDATE()",
      "SELECT -1 + 2 * 3 / 4 - (5 % 2), 1 = 1, 1 <=> NULL, 2 >= 1 AND NOT 0 OR 1 XOR 0",
      "SELECT 1 FROM DUAL",
      "SELECT 1 AS one, 2 two, 3 AS 'three', 4 `four`",
      "SELECT 1 IN (1, 2), 2 BETWEEN 1 AND 3, 'a' LIKE 'a%', NULL IS NULL, 1 IS NOT TRUE",
      "SELECT 1 LIMIT 1, 2",
      "SELECT 1 LIMIT 2 OFFSET 1",
      "SELECT 1 WHERE 1 = 1",
      "SELECT _utf8mb4'x', N'y', X'41', 0x41, b'1', 'a' 'b'",
      "SET NAMES utf8mb4",
      "SET NAMES 'utf8mb4' COLLATE 'utf8mb4_general_ci'",
      "SET NAMES DEFAULT",
      "SET CHARACTER SET utf8mb4",
      "SET CHARSET latin1",
      "SET autocommit=0",
      "SET AUTOCOMMIT = 0",
      "SET @@session.autocommit = OFF",
      "SET character_set_results = NULL",
      "SET SESSION sql_mode = 'TRADITIONAL', @x = 1, GLOBAL max_connections = 10",
      "SET @@global.x = DEFAULT",
      "SET @a := 1, @b = @a + 1",
      "SET LOCAL wait_timeout = 10",
      "SET PERSIST wait_timeout = 10",
      "SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
      "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY",
      "SET GLOBAL TRANSACTION READ WRITE",
      "SET time_zone = SYSTEM",
      "SHOW VARIABLES",
      "SHOW SESSION VARIABLES LIKE 'char%'",
      "SHOW GLOBAL VARIABLES WHERE Variable_name = 'version'",
      "SHOW STATUS LIKE 'Uptime'",
      "SHOW WARNINGS",
      "SHOW WARNINGS LIMIT 5",
      "SHOW ERRORS",
      "SHOW COUNT(*) WARNINGS",
      "SHOW ENGINES",
      "SHOW STORAGE ENGINES",
      "SHOW COLLATION LIKE 'utf8mb4%'",
      "SHOW CHARACTER SET",
      "SHOW CHARSET LIKE 'utf8%'",
      "show databases",
      "SHOW SCHEMAS",
      "show tables",
      "SHOW FULL TABLES FROM db LIKE 'x%'",
      "USE db",
      "USE `my db`",
      "BEGIN",
      "BEGIN WORK",
      "START TRANSACTION",
      "START TRANSACTION READ ONLY",
      "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE",
      "COMMIT",
      "commit work",
      "COMMIT AND NO CHAIN NO RELEASE",
      "ROLLBACK",
      "ROLLBACK WORK",
      "PREPARE s FROM 'SELECT c FROM sbtest1 WHERE id=?'",
      "PREPARE s FROM @sql",
      "EXECUTE s",
      "EXECUTE s USING @a, @b",
      "DEALLOCATE PREPARE s",
      "DROP PREPARE s",
      "DO 1",
      "DO @a := 2, 3",
  };
  for (const char* sql : kStatements) MustParse(sql);
}

TEST(ParserTest, SelectShape) {
  Statement s = MustParse("SELECT  @@session.auto_increment_increment AS aii, 1+1, 'abc', NULL");
  const auto& select = std::get<SelectStmt>(s.node);
  ASSERT_EQ(select.items.size(), 4u);
  EXPECT_EQ(select.items[0].name, "aii");
  EXPECT_TRUE(select.items[0].has_alias);
  EXPECT_EQ(select.items[0].expr->kind, ExprKind::kSysVar);
  EXPECT_EQ(select.items[0].expr->scope, VarScope::kSession);
  EXPECT_EQ(select.items[0].expr->name, "auto_increment_increment");
  EXPECT_EQ(select.items[1].name, "1+1");
  EXPECT_EQ(select.items[2].name, "abc");
  EXPECT_EQ(select.items[3].name, "NULL");
}

TEST(ParserTest, ColumnNameIsTextAsWritten) {
  Statement s = MustParse("select  @@version_comment   limit 1");
  const auto& select = std::get<SelectStmt>(s.node);
  EXPECT_EQ(select.items[0].name, "@@version_comment");
  ASSERT_TRUE(select.limit.has_value());
  Statement t = MustParse("SELECT 1 +  2 ,now()");
  EXPECT_EQ(std::get<SelectStmt>(t.node).items[0].name, "1 +  2");
  EXPECT_EQ(std::get<SelectStmt>(t.node).items[1].name, "now()");
}

TEST(ParserTest, Precedence) {
  Statement s = MustParse("SELECT 1 + 2 * 3");
  const Expr& e = *std::get<SelectStmt>(s.node).items[0].expr;
  ASSERT_EQ(e.kind, ExprKind::kBinary);
  EXPECT_EQ(e.binary_op, BinaryOp::kAdd);
  EXPECT_EQ(e.args[1]->binary_op, BinaryOp::kMul);
  Statement n = MustParse("SELECT NOT 1 = 2");
  const Expr& ne = *std::get<SelectStmt>(n.node).items[0].expr;
  EXPECT_EQ(ne.kind, ExprKind::kUnary);
  EXPECT_EQ(ne.args[0]->binary_op, BinaryOp::kEq);
}

TEST(ParserTest, SetShape) {
  Statement s = MustParse("SET GLOBAL a = 1, b = ON, SESSION c = DEFAULT, @d = 'x', NAMES latin1");
  const auto& set = std::get<SetStmt>(s.node);
  ASSERT_EQ(set.assignments.size(), 5u);
  EXPECT_EQ(set.assignments[0].scope, VarScope::kGlobal);
  EXPECT_EQ(set.assignments[1].scope, VarScope::kGlobal);  // the keyword is sticky
  EXPECT_EQ(set.assignments[1].value->text, "ON");
  EXPECT_EQ(set.assignments[2].scope, VarScope::kSession);
  EXPECT_EQ(set.assignments[2].value, nullptr);
  EXPECT_EQ(set.assignments[3].kind, SetAssignment::Kind::kUserVar);
  EXPECT_EQ(set.assignments[4].kind, SetAssignment::Kind::kNames);
  EXPECT_EQ(set.assignments[4].charset, "latin1");
}

TEST(ParserTest, ExecutableCommentHoldsSql) {
  // mysqldump wraps ALTER TABLE … DISABLE KEYS in a version comment; its content is SQL.
  auto alter = MustParseAs<AlterTableStmt>("/*!40000 ALTER TABLE `sbtest1` DISABLE KEYS */");
  EXPECT_EQ(alter.table.name, "sbtest1");
  ASSERT_EQ(alter.actions.size(), 1u);
  EXPECT_EQ(alter.actions[0].kind, AlterAction::Kind::kDisableKeys);
  // MariaDB's own comments are plain comments to MySQL.
  EXPECT_EQ(MustFail("/*M!100100 SET WAIT_TIMEOUT=DEFAULT */").code, 1065);
}

// ALTER TABLE's alterations, in order, and RENAME TABLE.
TEST(ParserTest, AlterAndRenameTable) {
  auto alter = MustParseAs<AlterTableStmt>(
      "ALTER TABLE db.t ADD COLUMN (a INT, b INT), ADD c INT FIRST, CHANGE x y BIGINT AFTER a, "
      "MODIFY z INT NOT NULL, DROP COLUMN q, DROP PRIMARY KEY, DROP INDEX i, ADD UNIQUE u (b), "
      "RENAME COLUMN a TO aa, RENAME INDEX u TO v, ALTER b SET DEFAULT 3, ALTER b DROP DEFAULT, "
      "RENAME TO t2, ENGINE=InnoDB COMMENT='c', ALGORITHM=INPLACE, LOCK=NONE");
  using K = AlterAction::Kind;
  std::vector<K> kinds;
  for (const AlterAction& a : alter.actions) kinds.push_back(a.kind);
  EXPECT_EQ(kinds, (std::vector<K>{K::kAddColumn, K::kAddColumn, K::kAddColumn, K::kChangeColumn,
                                   K::kChangeColumn, K::kDropColumn, K::kDropIndex, K::kDropIndex,
                                   K::kAddIndex, K::kRenameColumn, K::kRenameIndex, K::kSetDefault,
                                   K::kDropDefault, K::kRenameTable, K::kTableOptions}));
  EXPECT_TRUE(alter.actions[2].first);
  EXPECT_EQ(alter.actions[3].name, "x");
  EXPECT_EQ(alter.actions[3].column.name, "y");
  EXPECT_EQ(alter.actions[3].after, "a");
  EXPECT_EQ(alter.actions[6].name, "PRIMARY");
  EXPECT_EQ(alter.actions[14].options.comment, "c");
  EXPECT_EQ(alter.algorithm, AlterTableStmt::Algorithm::kInplace);
  auto fk = MustParseAs<AlterTableStmt>(
      "ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a, b) REFERENCES d.u (x, y) ON UPDATE "
      "CASCADE ON DELETE SET NULL, DROP FOREIGN KEY g");
  ASSERT_EQ(fk.actions.size(), 2u);
  EXPECT_EQ(fk.actions[0].kind, K::kAddForeignKey);
  EXPECT_EQ(fk.actions[0].foreign_key.name, "f");
  EXPECT_EQ(fk.actions[0].foreign_key.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(fk.actions[0].foreign_key.parent.database, "d");
  EXPECT_EQ(fk.actions[0].foreign_key.parent_columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(fk.actions[0].foreign_key.on_update, ForeignKeySpec::Action::kCascade);
  EXPECT_EQ(fk.actions[0].foreign_key.on_delete, ForeignKeySpec::Action::kSetNull);
  EXPECT_EQ(fk.actions[1].kind, K::kDropForeignKey);
  EXPECT_EQ(fk.actions[1].name, "g");
  EXPECT_EQ(MustFail("ALTER TABLE t ADD FOREIGN KEY (a) REFERENCES u").code, 1064);
  EXPECT_EQ(MustFail("ALTER TABLE t PARTITION BY KEY() PARTITIONS 2").code, 1235);
  EXPECT_EQ(MustFail("ALTER TABLE t ALGORITHM=FAST").code, 1064);
  auto rename = MustParseAs<RenameTableStmt>("RENAME TABLE a TO b, db.c TO db2.d");
  ASSERT_EQ(rename.renames.size(), 2u);
  EXPECT_EQ(rename.renames[1].second.database, "db2");
}

// What mariadb-dump and mysqldump send around a table's rows, and what they restore with.
TEST(ParserTest, DumpStatements) {
  auto lock = MustParseAs<LockTablesStmt>(
      "LOCK TABLES `customer` READ /*!32311 LOCAL */,`t2` READ /*!32311 LOCAL */, db.x AS y "
      "LOW_PRIORITY WRITE, z WRITE");
  ASSERT_EQ(lock.tables.size(), 4u);
  EXPECT_EQ(lock.tables[0].table.name, "customer");
  EXPECT_FALSE(lock.tables[0].write);
  EXPECT_EQ(lock.tables[2].table.database, "db");
  EXPECT_EQ(lock.tables[2].alias, "y");
  EXPECT_TRUE(lock.tables[2].write);
  EXPECT_TRUE(lock.tables[3].write);
  MustParseAs<UnlockTablesStmt>("UNLOCK TABLES");
  // What mariadb-admin processlist and kill send.
  EXPECT_EQ(MustParseAs<ShowStmt>("SHOW PROCESSLIST").kind, ShowKind::kProcessList);
  EXPECT_TRUE(MustParseAs<ShowStmt>("show full processlist").full);
  EXPECT_FALSE(MustParseAs<KillStmt>("KILL 12").query);
  EXPECT_FALSE(MustParseAs<KillStmt>("KILL CONNECTION 12").query);
  EXPECT_TRUE(MustParseAs<KillStmt>("KILL QUERY CONNECTION_ID()").query);
  EXPECT_EQ(MustFail("KILL").code, 1064);
  EXPECT_EQ(MustFail("SHOW PROCESSLIST LIKE 'x'").code, 1064);
  EXPECT_EQ(MustParseAs<AlterTableStmt>("ALTER TABLE t ENABLE KEYS").actions.at(0).kind,
            AlterAction::Kind::kEnableKeys);
  EXPECT_EQ(MustFail("LOCK TABLES t").code, 1064);
  EXPECT_EQ(MustFail("LOCK TABLES t READ,").code, 1064);

  auto savepoint = MustParseAs<TransactionStmt>("SAVEPOINT sp");
  EXPECT_EQ(savepoint.action, TransactionStmt::Action::kSavepoint);
  EXPECT_EQ(savepoint.savepoint, "sp");
  EXPECT_EQ(MustParseAs<TransactionStmt>("ROLLBACK WORK TO SAVEPOINT sp").action,
            TransactionStmt::Action::kRollbackToSavepoint);
  EXPECT_EQ(MustParseAs<TransactionStmt>("ROLLBACK TO sp").savepoint, "sp");
  EXPECT_EQ(MustParseAs<TransactionStmt>("RELEASE SAVEPOINT sp").action,
            TransactionStmt::Action::kReleaseSavepoint);
  EXPECT_EQ(MustFail("SAVEPOINT").code, 1064);

  for (auto [sql, kind] : std::vector<std::pair<const char*, ShowKind>>{
           {"SHOW EVENTS", ShowKind::kEvents},
           {"SHOW FULL TRIGGERS FROM db LIKE 't%'", ShowKind::kTriggers},
           {"SHOW PROCEDURE STATUS WHERE Db = 'shop'", ShowKind::kProcedureStatus},
           {"SHOW FUNCTION STATUS", ShowKind::kFunctionStatus},
           {"SHOW TABLE STATUS FROM db LIKE 'c%'", ShowKind::kTableStatus}}) {
    SCOPED_TRACE(sql);
    EXPECT_EQ(MustParseAs<ShowStmt>(sql).kind, kind);
  }
  EXPECT_TRUE(MustParseAs<ShowStmt>("SHOW CREATE DATABASE IF NOT EXISTS `shop`").if_not_exists);
}

TEST(ParserTest, Subqueries) {
  Statement s = MustParse(
      "SELECT a FROM information_schema.files WHERE a NOT IN (SELECT DISTINCT b FROM "
      "information_schema.partitions WHERE c IN ('x')) AND EXISTS (SELECT 1) AND (SELECT 2) = 2");
  EXPECT_TRUE(s.has_subqueries);
  const Expr& where = *std::get<SelectStmt>(s.node).where;
  const Expr& in = *where.args[0]->args[0];
  EXPECT_EQ(in.kind, ExprKind::kInSubquery);
  EXPECT_TRUE(in.negated);
  EXPECT_TRUE(in.subquery->distinct);
  EXPECT_EQ(in.args[0]->name, "a");
  EXPECT_EQ(where.args[0]->args[1]->kind, ExprKind::kExists);
  EXPECT_EQ(where.args[1]->args[0]->kind, ExprKind::kSubquery);
  EXPECT_FALSE(MustParse("SELECT 1 IN (1, 2)").has_subqueries);
  EXPECT_EQ(MustFail("SELECT 1 IN (SELECT 1").code, 1064);
}

TEST(ParserTest, QuantifiedSubqueries) {
  Statement s = MustParse(
      "SELECT a > ANY (SELECT b FROM t), a <= SOME (SELECT b FROM t), a <> ALL (SELECT b FROM t), "
      "a = ANY (SELECT b FROM t), a = ALL (WITH c AS (SELECT 1) SELECT * FROM c)");
  EXPECT_TRUE(s.has_subqueries);
  const auto& items = std::get<SelectStmt>(s.node).items;
  EXPECT_EQ(items[0].expr->kind, ExprKind::kQuantified);
  EXPECT_EQ(items[0].expr->binary_op, BinaryOp::kGt);
  EXPECT_FALSE(items[0].expr->all);
  EXPECT_EQ(items[0].expr->args[0]->name, "a");
  EXPECT_EQ(items[0].name, "a > ANY (SELECT b FROM t)");
  EXPECT_EQ(items[1].expr->binary_op, BinaryOp::kLe);
  EXPECT_FALSE(items[1].expr->all);
  // <> ALL is NOT IN and = ANY is IN, as MySQL makes them.
  EXPECT_EQ(items[2].expr->kind, ExprKind::kInSubquery);
  EXPECT_TRUE(items[2].expr->negated);
  EXPECT_EQ(items[3].expr->kind, ExprKind::kInSubquery);
  EXPECT_FALSE(items[3].expr->negated);
  EXPECT_EQ(items[4].expr->kind, ExprKind::kQuantified);
  EXPECT_TRUE(items[4].expr->all);
  EXPECT_EQ(items[4].expr->binary_op, BinaryOp::kEq);

  EXPECT_EQ(MustFail("SELECT a > ANY (1, 2)").message, Syntax("1, 2)", 1));
  EXPECT_EQ(MustFail("SELECT a > ALL b").message, Syntax("b", 1));
  EXPECT_EQ(MustFail("SELECT a <=> ANY (SELECT 1)").code, 1064);
}

TEST(ParserTest, Collate) {
  auto select = MustParseAs<SelectStmt>(
      "SELECT a COLLATE utf8mb4_bin = 'x', -b COLLATE 'UTF8MB4_GENERAL_CI' FROM t "
      "WHERE a = b COLLATE latin1_bin ORDER BY name COLLATE utf8mb4_bin DESC");
  const Expr& eq = *select.items[0].expr;
  ASSERT_EQ(eq.kind, ExprKind::kBinary);
  EXPECT_EQ(eq.args[0]->kind, ExprKind::kCollate);
  EXPECT_EQ(eq.args[0]->name, "utf8mb4_bin");
  EXPECT_EQ(eq.args[0]->args[0]->name, "a");
  // COLLATE binds tighter than a unary minus.
  const Expr& neg = *select.items[1].expr;
  ASSERT_EQ(neg.kind, ExprKind::kUnary);
  EXPECT_EQ(neg.args[0]->kind, ExprKind::kCollate);
  EXPECT_EQ(neg.args[0]->name, "utf8mb4_general_ci");
  EXPECT_EQ(select.where->args[1]->kind, ExprKind::kCollate);
  ASSERT_EQ(select.order_by.size(), 1u);
  EXPECT_EQ(select.order_by[0].expr->kind, ExprKind::kCollate);
  EXPECT_TRUE(select.order_by[0].descending);
  EXPECT_EQ(MustFail("SELECT a COLLATE").message, Syntax("", 1));
}

TEST(ParserTest, RowConstructors) {
  // (a, b) and ROW(a, b), as comparison operands and in IN lists; elements may be rows.
  Statement row = MustParse("SELECT (1, 2) = ROW(a, b + 1)");
  const Expr& eq = *std::get<SelectStmt>(row.node).items[0].expr;
  EXPECT_EQ(eq.kind, ExprKind::kBinary);
  EXPECT_EQ(eq.binary_op, BinaryOp::kEq);
  ASSERT_EQ(eq.args[0]->kind, ExprKind::kRow);
  EXPECT_EQ(eq.args[0]->args.size(), 2u);
  ASSERT_EQ(eq.args[1]->kind, ExprKind::kRow);
  EXPECT_EQ(eq.args[1]->args[1]->kind, ExprKind::kBinary);

  Statement s = MustParse("SELECT * FROM t WHERE (id, k) NOT IN ((1, 2), (3, 4), ROW(5, 6))");
  const Expr& in = *std::get<SelectStmt>(s.node).where;
  EXPECT_EQ(in.kind, ExprKind::kIn);
  EXPECT_TRUE(in.negated);
  ASSERT_EQ(in.args.size(), 4u);
  for (const ExprPtr& a : in.args) {
    EXPECT_EQ(a->kind, ExprKind::kRow);
    EXPECT_EQ(a->args.size(), 2u);
  }
  for (const char* sql :
       {"SELECT (1, 2) <=> (1, 2), (1, 2) <> (1, 3), (1, 2) != (1, 3), (1, 2) < (1, 3)",
        "SELECT (1, 2) <= (1, 3), (1, 2) > (1, 3), (1, 2) >= (1, 3), (1, 2) IN ((1, 2))",
        "SELECT ((1, 2), 3) = ((1, 2), 3), ((SELECT 1), 2) = (1, 2)",
        "UPDATE t SET c = 1 WHERE (a, b) IN ((1, 2)) AND ROW(c, d) = (3, 4)",
        "DELETE FROM t WHERE (a, b) = (1, 2)", "SELECT (1, 2)", "SELECT (1, 2) + 1"}) {
    MustParse(sql);
  }
  // MySQL's grammar gives ROW two elements at least, and ROW is reserved.
  EXPECT_EQ(MustFail("SELECT ROW(1)").message, Syntax(")"));
  EXPECT_EQ(MustFail("SELECT row FROM t").message, Syntax("row FROM t"));
  EXPECT_EQ(MustFail("SELECT (1, )").message, Syntax(")"));
  EXPECT_EQ(MustFail("SELECT (1, 2").message, Syntax(""));
}

TEST(ParserTest, TemporalLiterals) {
  // A CAST of the text marked literal, TIMESTAMP a DATETIME, with the text's fraction digits.
  auto select = MustParseAs<SelectStmt>(
      "SELECT DATE '2024-01-02', TIME '10:00:00.25', TIMESTAMP '2024-01-02 10:00:00.123456789', "
      "date, `time` FROM t WHERE d > DATE '2024-01-01'");
  const Expr& date = *select.items[0].expr;
  EXPECT_EQ(date.kind, ExprKind::kCast);
  EXPECT_EQ(date.cast.name, "DATE");
  EXPECT_TRUE(date.cast.literal);
  EXPECT_EQ(date.args[0]->text, "2024-01-02");
  EXPECT_EQ(select.items[1].expr->cast.name, "TIME");
  EXPECT_EQ(select.items[1].expr->cast.scale, 2);
  EXPECT_EQ(select.items[2].expr->cast.name, "DATETIME");
  EXPECT_EQ(select.items[2].expr->cast.scale, 6);
  EXPECT_EQ(select.items[3].expr->kind, ExprKind::kColumn);  // a column named date
  EXPECT_TRUE(select.where->args[1]->cast.literal);
  EXPECT_FALSE(MustParseAs<SelectStmt>("SELECT CAST('1' AS DATE)").items[0].expr->cast.literal);
}

TEST(ParserTest, CaseAndCast) {
  auto select = MustParseAs<SelectStmt>(
      "SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END, "
      "CASE b WHEN 1 THEN 2 END, CAST(c AS DECIMAL(10, 2)), CONVERT(d, UNSIGNED INTEGER), "
      "CONVERT(e USING latin1), CAST(f AS CHAR(3) CHARACTER SET utf8mb4), CAST(g AS DATETIME(3))");
  ASSERT_EQ(select.items.size(), 7u);
  const Expr& searched = *select.items[0].expr;
  EXPECT_EQ(searched.kind, ExprKind::kCase);
  EXPECT_FALSE(searched.has_operand);
  EXPECT_TRUE(searched.has_else);
  EXPECT_EQ(searched.args.size(), 5u);
  const Expr& simple = *select.items[1].expr;
  EXPECT_TRUE(simple.has_operand);
  EXPECT_FALSE(simple.has_else);
  EXPECT_EQ(simple.args.size(), 3u);
  const Expr& decimal = *select.items[2].expr;
  EXPECT_EQ(decimal.kind, ExprKind::kCast);
  EXPECT_EQ(decimal.cast.name, "DECIMAL");
  EXPECT_EQ(decimal.cast.length, 10);
  EXPECT_EQ(decimal.cast.scale, 2);
  EXPECT_EQ(select.items[3].expr->cast.name, "UNSIGNED");
  EXPECT_EQ(select.items[4].expr->cast.name, "CHAR");
  EXPECT_EQ(select.items[4].expr->cast.charset, "latin1");
  EXPECT_EQ(select.items[5].expr->cast.length, 3);
  EXPECT_EQ(select.items[5].expr->cast.charset, "utf8mb4");
  EXPECT_EQ(select.items[6].expr->cast.scale, 3);
  EXPECT_EQ(MustFail("SELECT CASE END").code, 1064);
  EXPECT_EQ(MustFail("SELECT CASE WHEN 1 THEN 2").code, 1064);
  EXPECT_EQ(MustFail("SELECT CAST(1 AS NOSUCHTYPE)").code, 1064);
  EXPECT_EQ(MustFail("SELECT CAST(1, SIGNED)").code, 1064);
  EXPECT_EQ(MustFail("SELECT CONVERT(1 AS SIGNED)").code, 1064);
  EXPECT_EQ(MustFail("SELECT CAST(1 AS YEAR)").code, 1235);
  EXPECT_EQ(MustParseAs<SelectStmt>("SELECT CAST(1 AS JSON)").items[0].expr->cast.name, "JSON");
}

TEST(ParserTest, JsonArrows) {
  auto select = MustParseAs<SelectStmt>("SELECT t.j->'$.a', j->>'$[0]' FROM t");
  const Expr& extract = *select.items[0].expr;
  EXPECT_EQ(extract.name, "JSON_EXTRACT");
  EXPECT_EQ(extract.args[0]->qualifier, "t");
  EXPECT_EQ(extract.args[1]->text, "$.a");
  const Expr& unquote = *select.items[1].expr;
  EXPECT_EQ(unquote.name, "JSON_UNQUOTE");
  EXPECT_EQ(unquote.args[0]->name, "JSON_EXTRACT");
  EXPECT_EQ(MustFail("SELECT a->b FROM t").code, 1064);
  EXPECT_EQ(MustFail("SELECT 1->'$'").code, 1064);
  // `a - >` is still a minus and a comparison when written apart.
  EXPECT_EQ(MustParseAs<SelectStmt>("SELECT a - -1 > 0 FROM t").items.size(), 1u);
}

TEST(ParserTest, NotSupportedYet) {
  EXPECT_EQ(MustFail("create procedure p() begin end").message,
            "This version of MySQL doesn't yet support 'CREATE PROCEDURE'");
  EXPECT_EQ(MustFail("ALTER TABLE sbtest1 ORDER BY id").message,
            "This version of MySQL doesn't yet support 'ALTER TABLE … ORDER BY'");
  EXPECT_EQ(MustFail("SHOW OPEN TABLES").message,
            "This version of MySQL doesn't yet support 'SHOW OPEN'");
  EXPECT_EQ(MustFail("SHOW GRANTS FOR u USING r").message,
            "This version of MySQL doesn't yet support 'roles'");
}

TEST(ParserTest, SyntaxErrors) {
  mysql::SqlError e = MustFail("SELEC 1");
  EXPECT_EQ(e.code, 1064);
  EXPECT_EQ(e.sqlstate, "42000");
  EXPECT_EQ(e.message, Syntax("SELEC 1", 1));
  EXPECT_EQ(MustFail("SELECT 1 +").message, Syntax("", 1));
  EXPECT_EQ(MustFail("SELECT 1,\n2,\n").message, Syntax("", 3));
  EXPECT_EQ(MustFail("SELECT 1 FROM").message, Syntax("", 1));
  EXPECT_EQ(MustFail("SELECT ?").message, Syntax("?", 1));
  EXPECT_EQ(MustFail("SELECT 'abc").message, Syntax("'abc", 1));
  EXPECT_EQ(MustFail("SET @@").message, Syntax("", 1));
  EXPECT_EQ(MustFail("SELECT 1 2").message, Syntax("2", 1));
  EXPECT_EQ(MustFail("SELECT 1; SELECT 2").message, Syntax("SELECT 2", 1));
  EXPECT_EQ(MustFail("SELECT from").message, Syntax("from", 1));
  EXPECT_EQ(MustFail("SHOW").message, Syntax("", 1));
  EXPECT_EQ(MustFail("USE").message, Syntax("", 1));
  EXPECT_EQ(MustFail("START").message, Syntax("", 1));
  EXPECT_EQ(MustFail("hello world").message, Syntax("hello world", 1));
}

TEST(ParserTest, NearTextIsCutAt80Characters) {
  std::string tail(100, 'x');
  mysql::SqlError e = MustFail("SELECT 1 ) " + tail);
  EXPECT_EQ(e.message, Syntax(") " + std::string(78, 'x'), 1));
  // Characters, not bytes: a multi-byte character is never split.
  std::string wide;
  for (int i = 0; i < 90; ++i) wide += "\xc3\xa9";
  EXPECT_EQ(NearText(wide, 0).size(), 160u);
}

TEST(ParserTest, EmptyQuery) {
  EXPECT_EQ(MustFail("").code, 1065);
  EXPECT_EQ(MustFail("  /* nothing */ ").code, 1065);
  EXPECT_EQ(MustFail("-- x").message, "Query was empty");
}

TEST(ParserTest, Placeholders) {
  Statement s = MustParse("SELECT ?, ? + 1 LIMIT ?", ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 3);
  const auto& select = std::get<SelectStmt>(s.node);
  EXPECT_EQ(select.items[1].expr->args[0]->param_index, 1);
}

}  // namespace
}  // namespace shoal::sql

namespace shoal::sql {
namespace {

// Thousands of nested parentheses, NOTs, signs or subqueries must not overflow the stack: MySQL's
// parser answers "memory exhausted" past its depth, and so do we.
TEST(ParserTest, DeepNestingIsMemoryExhaustedNotACrash) {
  auto repeat = [](absl::string_view s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out.append(s.data(), s.size());
    return out;
  };
  for (const std::string& sql :
       {"SELECT " + repeat("(", 100000) + "1" + repeat(")", 100000),
        "SELECT " + repeat("-", 100000) + "1", "SELECT " + repeat("NOT ", 100000) + "1",
        "SELECT " + repeat("~", 100000) + "1",
        "SELECT * FROM " + repeat("(SELECT * FROM ", 20000) + "t" + repeat(") x", 20000),
        repeat("(", 100000) + "SELECT 1" + repeat(")", 100000),
        "SELECT " + repeat("(", 100000) + "SELECT 1" + repeat(")", 100000),
        "SELECT " + repeat("((SELECT 1) + ", 20000) + "1" + repeat(")", 20000)}) {
    mysql::SqlError e = MustFail(sql);
    EXPECT_EQ(e.code, 1064);
    EXPECT_TRUE(absl::StartsWith(e.message, "memory exhausted near '")) << e.message;
  }
  MustParse("SELECT " + repeat("(", 60) + "1" + repeat(")", 60));
  MustParse("SELECT " + repeat("- ", 60) + "1");
  MustParse(repeat("(", 60) + "SELECT 1" + repeat(")", 60));
  MustParse("SELECT " + repeat("(", 60) + "SELECT 1" + repeat(")", 60) + " + 1");
}

}  // namespace
}  // namespace shoal::sql

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::Syntax;

const Expr& FirstItem(const SelectStmt& select) { return *select.items[0].expr; }

// INTERVAL: the second argument of the date functions, `d + INTERVAL …` and `d - INTERVAL …`
// as DATE_ADD and DATE_SUB, `INTERVAL … + d`; nowhere else.
TEST(ParserTest, IntervalForms) {
  auto select = MustParseAs<SelectStmt>("SELECT d + INTERVAL '1:30' HOUR_MINUTE");
  const Expr& add = FirstItem(select);
  EXPECT_EQ(add.kind, ExprKind::kFunction);
  EXPECT_EQ(add.name, "DATE_ADD");
  ASSERT_EQ(add.args.size(), 2u);
  EXPECT_EQ(add.args[1]->kind, ExprKind::kInterval);
  EXPECT_EQ(add.args[1]->unit, "HOUR_MINUTE");
  EXPECT_EQ(add.args[1]->args[0]->text, "1:30");

  select = MustParseAs<SelectStmt>("SELECT INTERVAL 1 sql_tsi_day + d * 2");
  const Expr& mul = FirstItem(select);  // the INTERVAL form binds tighter than *
  EXPECT_EQ(mul.binary_op, BinaryOp::kMul);
  EXPECT_EQ(mul.args[0]->name, "DATE_ADD");
  EXPECT_EQ(mul.args[0]->args[1]->unit, "DAY");

  select = MustParseAs<SelectStmt>("SELECT d - INTERVAL 1 DAY - INTERVAL 2 HOUR");
  EXPECT_EQ(FirstItem(select).name, "DATE_SUB");
  EXPECT_EQ(FirstItem(select).args[0]->name, "DATE_SUB");

  select = MustParseAs<SelectStmt>("SELECT ADDDATE(d, 3)");
  EXPECT_EQ(FirstItem(select).args[1]->kind, ExprKind::kInterval);
  EXPECT_EQ(FirstItem(select).args[1]->unit, "DAY");
}

TEST(ParserTest, TimestampFunctionsTakeAUnit) {
  auto select = MustParseAs<SelectStmt>("SELECT TIMESTAMPDIFF(MONTH, a, b)");
  const Expr& diff = FirstItem(select);
  EXPECT_EQ(diff.unit, "MONTH");
  ASSERT_EQ(diff.args.size(), 2u);
  EXPECT_EQ(diff.args[0]->name, "a");
  select = MustParseAs<SelectStmt>("SELECT TIMESTAMPADD(HOUR, 2, d)");
  const Expr& add = FirstItem(select);
  ASSERT_EQ(add.args.size(), 2u);
  EXPECT_EQ(add.args[0]->name, "d");
  EXPECT_EQ(add.args[1]->unit, "HOUR");
}

TEST(ParserTest, ExtractTakesAnyUnitAndPositionIsLocate) {
  auto select =
      MustParseAs<SelectStmt>("SELECT EXTRACT(DAY_HOUR FROM d), EXTRACT(sql_tsi_year FROM d)");
  EXPECT_EQ(FirstItem(select).name, "EXTRACT");
  EXPECT_EQ(FirstItem(select).unit, "DAY_HOUR");
  ASSERT_EQ(FirstItem(select).args.size(), 1u);
  EXPECT_EQ(FirstItem(select).args[0]->name, "d");
  EXPECT_EQ(select.items[0].name, "EXTRACT(DAY_HOUR FROM d)");
  EXPECT_EQ(select.items[1].expr->unit, "YEAR");

  select = MustParseAs<SelectStmt>("SELECT POSITION('b' IN 'abc') IN (1, 2)");
  const Expr& in = FirstItem(select);
  ASSERT_EQ(in.kind, ExprKind::kIn);
  const Expr& locate = *in.args[0];
  EXPECT_EQ(locate.name, "LOCATE");
  ASSERT_EQ(locate.args.size(), 2u);
  EXPECT_EQ(locate.args[0]->text, "b");
  EXPECT_EQ(locate.args[1]->text, "abc");

  EXPECT_EQ(MustFail("SELECT EXTRACT(FORTNIGHT FROM d)").message, Syntax("FORTNIGHT FROM d)", 1));
  EXPECT_EQ(MustFail("SELECT EXTRACT(DAY, d)").message, Syntax(", d)", 1));
  EXPECT_EQ(MustFail("SELECT POSITION('a', 'b')").message, Syntax(", 'b')", 1));
}

TEST(ParserTest, IntervalElsewhereIsASyntaxError) {
  EXPECT_EQ(MustFail("SELECT INTERVAL 1 DAY").message, Syntax("", 1));
  EXPECT_EQ(MustFail("SELECT DATE_ADD(d, 1)").message, Syntax("1)", 1));
  EXPECT_EQ(MustFail("SELECT d + INTERVAL 1 FORTNIGHT").message, Syntax("FORTNIGHT", 1));
  EXPECT_EQ(MustFail("SELECT INTERVAL 1 DAY - d").message, Syntax("- d", 1));
  EXPECT_EQ(MustFail("SELECT TIMESTAMPDIFF(DAY_HOUR, a, b)").message, Syntax("DAY_HOUR, a, b)", 1));
  EXPECT_EQ(MustFail("SELECT INTERVAL(1, 2)").code, 1235);  // the INTERVAL() function
}

}  // namespace
TEST(ParserTest, CalcFoundRowsOnlyInTheStatementsOwnQuery) {
  // MySQL 8.0: ER_CANT_USE_OPTION_HERE for a subquery's, a derived table's or a common
  // table's SQL_CALC_FOUND_ROWS.
  for (const char* sql : {"SELECT * FROM (SELECT SQL_CALC_FOUND_ROWS 1) AS x",
                          "SELECT (SELECT SQL_CALC_FOUND_ROWS a FROM t LIMIT 1)",
                          "SELECT 1 FROM t WHERE a IN (SELECT SQL_CALC_FOUND_ROWS a FROM u)",
                          "SELECT EXISTS (SELECT 1 UNION SELECT SQL_CALC_FOUND_ROWS 2)",
                          "SELECT * FROM t JOIN (SELECT SQL_CALC_FOUND_ROWS a FROM u) d USING (a)",
                          "WITH c AS (SELECT SQL_CALC_FOUND_ROWS 1) SELECT * FROM c"}) {
    mysql::SqlError e = MustFail(sql);
    EXPECT_EQ(e.code, 1234) << sql;
    EXPECT_EQ(e.sqlstate, "42000") << sql;
    EXPECT_EQ(e.message, "Incorrect usage/placement of 'SQL_CALC_FOUND_ROWS'") << sql;
  }
  EXPECT_TRUE(
      MustParseAs<SelectStmt>("SELECT SQL_CALC_FOUND_ROWS a FROM t LIMIT 1").calc_found_rows);
  MustParse("SELECT SQL_CALC_FOUND_ROWS a FROM (SELECT a FROM t) d WHERE a IN (SELECT 1)");
}

}  // namespace shoal::sql
