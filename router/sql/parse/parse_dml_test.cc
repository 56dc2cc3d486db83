// INSERT, REPLACE, UPDATE, DELETE and SELECT over a table: the trees the parser builds, the
// 1235 answers for forms Shoal does not run yet, and the 1064 texts where MySQL has them.
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "router/sql/parse/parser.h"
#include "router/sql/parse/parser_test_util.h"

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::MustParse;
using testing::NotYet;
using testing::Syntax;

template <typename T>
T Get(absl::string_view sql, ParamMode params = ParamMode::kForbidden) {
  return testing::MustParseAs<T>(sql, params);
}

bool IsColumn(const ExprPtr& e, absl::string_view name, absl::string_view qualifier = "") {
  return e != nullptr && e->kind == ExprKind::kColumn && e->name == name &&
         e->qualifier == qualifier;
}

bool IsLiteral(const ExprPtr& e, LiteralKind kind, absl::string_view text) {
  return e != nullptr && e->kind == ExprKind::kLiteral && e->literal == kind && e->text == text;
}

bool IsParam(const ExprPtr& e, int index) {
  return e != nullptr && e->kind == ExprKind::kParam && e->param_index == index;
}

// --- INSERT and REPLACE

TEST(DmlInsertTest, SysbenchPreparedInsert) {
  Statement s =
      MustParse("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 4);
  const auto& insert = std::get<InsertStmt>(s.node);
  EXPECT_EQ(insert.table.name, "sbtest1");
  EXPECT_EQ(insert.table.database, "");
  EXPECT_FALSE(insert.replace);
  EXPECT_FALSE(insert.ignore);
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"id", "k", "c", "pad"}));
  ASSERT_EQ(insert.rows.size(), 1u);
  ASSERT_EQ(insert.rows[0].size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(IsParam(insert.rows[0][i], i));
}

TEST(DmlInsertTest, SysbenchPrepareMultiRowInsert) {
  std::string sql = "INSERT INTO sbtest1(k, c, pad) VALUES";
  constexpr int kRows = 1000;
  for (int i = 0; i < kRows; ++i) {
    absl::StrAppend(&sql, i == 0 ? "" : ",", "(", 500 + i, ", '", std::string(119, 'c'), "', '",
                    std::string(59, 'p'), "')");
  }
  auto insert = Get<InsertStmt>(sql);
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"k", "c", "pad"}));
  ASSERT_EQ(insert.rows.size(), static_cast<size_t>(kRows));
  for (const auto& row : insert.rows) ASSERT_EQ(row.size(), 3u);
  EXPECT_TRUE(IsLiteral(insert.rows[0][0], LiteralKind::kInteger, "500"));
  EXPECT_TRUE(IsLiteral(insert.rows[999][0], LiteralKind::kInteger, "1499"));
  EXPECT_TRUE(IsLiteral(insert.rows[999][2], LiteralKind::kString, std::string(59, 'p')));
}

TEST(DmlInsertTest, Modifiers) {
  auto insert = Get<InsertStmt>("INSERT LOW_PRIORITY IGNORE INTO db.t VALUES (1)");
  EXPECT_EQ(insert.table.database, "db");
  EXPECT_EQ(insert.table.name, "t");
  EXPECT_TRUE(insert.ignore);
  EXPECT_TRUE(insert.columns.empty());
  Get<InsertStmt>("INSERT DELAYED t VALUE (1), (2)");
  Get<InsertStmt>("insert high_priority into `my db`.`my t` values (1)");
  auto replace = Get<InsertStmt>("REPLACE LOW_PRIORITY INTO t (a) VALUES (1)");
  EXPECT_TRUE(replace.replace);
  EXPECT_FALSE(replace.ignore);
  EXPECT_TRUE(Get<InsertStmt>("REPLACE t VALUES (1)").replace);
}

TEST(DmlInsertTest, EmptyRowsAndDefaults) {
  auto empty = Get<InsertStmt>("INSERT INTO t () VALUES ()");
  EXPECT_TRUE(empty.columns.empty());
  ASSERT_EQ(empty.rows.size(), 1u);
  EXPECT_TRUE(empty.rows[0].empty());
  EXPECT_EQ(Get<InsertStmt>("INSERT INTO t VALUES (), ()").rows.size(), 2u);

  auto defaults = Get<InsertStmt>("INSERT INTO t (a, b, c) VALUES (DEFAULT, DEFAULT(b), -1)");
  const auto& row = defaults.rows[0];
  EXPECT_EQ(row[0]->kind, ExprKind::kDefault);
  EXPECT_EQ(row[1]->kind, ExprKind::kFunction);
  EXPECT_EQ(row[1]->name, "DEFAULT");
  EXPECT_TRUE(IsColumn(row[1]->args[0], "b"));
  EXPECT_EQ(row[2]->kind, ExprKind::kUnary);
}

TEST(DmlInsertTest, QualifiedColumnsKeepTheName) {
  auto insert = Get<InsertStmt>("INSERT INTO db.t (t.a, db.t.b, `c`) VALUES (1, 2, 3)");
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(DmlInsertTest, SetForm) {
  auto insert =
      Get<InsertStmt>("INSERT INTO t SET a = 1, t.b := DEFAULT, c = ?", ParamMode::kAllowed);
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(insert.rows.size(), 1u);
  EXPECT_TRUE(IsLiteral(insert.rows[0][0], LiteralKind::kInteger, "1"));
  EXPECT_EQ(insert.rows[0][1]->kind, ExprKind::kDefault);
  EXPECT_TRUE(IsParam(insert.rows[0][2], 0));
}

TEST(DmlInsertTest, OnDuplicateKeyUpdate) {
  auto insert = Get<InsertStmt>(
      "INSERT INTO t (id, k) VALUES (1, 2) ON DUPLICATE KEY UPDATE k = VALUES(k) + k, "
      "c = DEFAULT, t.d = VALUES(t.d)");
  ASSERT_EQ(insert.on_duplicate.size(), 3u);
  EXPECT_EQ(insert.on_duplicate[0].column, "k");
  const Expr& sum = *insert.on_duplicate[0].value;
  ASSERT_EQ(sum.kind, ExprKind::kBinary);
  EXPECT_EQ(sum.args[0]->kind, ExprKind::kFunction);
  EXPECT_EQ(sum.args[0]->name, "VALUES");
  ASSERT_EQ(sum.args[0]->args.size(), 1u);
  EXPECT_TRUE(IsColumn(sum.args[0]->args[0], "k"));
  EXPECT_TRUE(IsColumn(sum.args[1], "k"));
  EXPECT_EQ(insert.on_duplicate[1].value->kind, ExprKind::kDefault);
  EXPECT_EQ(insert.on_duplicate[2].column, "d");
  EXPECT_TRUE(IsColumn(insert.on_duplicate[2].value->args[0], "d", "t"));
}

TEST(DmlInsertTest, RowAlias) {
  auto insert = Get<InsertStmt>(
      "INSERT INTO t (id, k) VALUES (1, 2) AS new ON DUPLICATE KEY UPDATE k = new.k + k");
  EXPECT_EQ(insert.row_alias, "new");
  EXPECT_TRUE(insert.column_aliases.empty());
  ASSERT_EQ(insert.on_duplicate.size(), 1u);
  EXPECT_TRUE(IsColumn(insert.on_duplicate[0].value->args[0], "k", "new"));
  auto aliased = Get<InsertStmt>(
      "INSERT INTO t SET id = 1, k = 2 AS n (i, kk) ON DUPLICATE KEY UPDATE k = n.kk + kk");
  EXPECT_EQ(aliased.columns, (std::vector<std::string>{"id", "k"}));
  EXPECT_EQ(aliased.row_alias, "n");
  EXPECT_EQ(aliased.column_aliases, (std::vector<std::string>{"i", "kk"}));
  EXPECT_EQ(Get<InsertStmt>("INSERT INTO t VALUES (1) AS `new`").row_alias, "new");
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1, 2) AS n (a, A)").code, 1060);
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1) AS").code, 1064);
  EXPECT_EQ(MustFail("REPLACE INTO t VALUES (1) AS new").code, 1064);
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1) AS n (").code, 1064);
}

TEST(DmlInsertTest, InsertSelect) {
  InsertStmt insert = Get<InsertStmt>(
      "INSERT IGNORE INTO t (a, b) SELECT x, y FROM u WHERE x > 1 UNION SELECT 1, 2 "
      "ON DUPLICATE KEY UPDATE b = b + 1");
  ASSERT_NE(insert.select, nullptr);
  EXPECT_TRUE(insert.ignore);
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(insert.rows.empty());
  EXPECT_EQ(insert.select->from->table.name, "u");
  EXPECT_EQ(insert.select->unions.size(), 1u);
  EXPECT_EQ(insert.on_duplicate.size(), 1u);
  EXPECT_NE(Get<InsertStmt>("REPLACE INTO t SELECT * FROM u").select, nullptr);
  // A parenthesized query, after the column list or in its place.
  InsertStmt parenthesized = Get<InsertStmt>("INSERT INTO t (a) (SELECT b FROM u LIMIT 1)");
  EXPECT_EQ(parenthesized.columns, std::vector<std::string>{"a"});
  ASSERT_NE(parenthesized.select, nullptr);
  EXPECT_TRUE(parenthesized.select->limit.has_value());
  EXPECT_EQ(Get<InsertStmt>("INSERT INTO t (SELECT 1) UNION (SELECT 2)").select->unions.size(), 1u);
}

TEST(DmlInsertTest, NotSupportedYet) {
  EXPECT_EQ(MustFail("INSERT INTO t TABLE u").code, 1235);
  EXPECT_EQ(MustFail("INSERT INTO t PARTITION (p0) VALUES (1)").message, NotYet("PARTITION"));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES ROW(1), ROW(2)").message, NotYet("VALUES ROW()"));
}

TEST(DmlInsertTest, SyntaxErrors) {
  EXPECT_EQ(MustFail("INSERT INTO t").message, Syntax(""));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1,)").message, Syntax(")"));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1) (2)").message, Syntax("(2)"));
  EXPECT_EQ(MustFail("INSERT INTO t (a) SET a = 1").message, Syntax("SET a = 1"));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (DEFAULT + 1)").message, Syntax("+ 1)"));
  EXPECT_EQ(MustFail("INSERT INTO select VALUES (1)").message, Syntax("select VALUES (1)"));
  EXPECT_EQ(MustFail("REPLACE IGNORE INTO t VALUES (1)").message,
            Syntax("IGNORE INTO t VALUES (1)"));
  EXPECT_EQ(MustFail("REPLACE INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 1").message,
            Syntax("ON DUPLICATE KEY UPDATE a = 1"));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(1)").message,
            Syntax("1)"));
  EXPECT_EQ(MustFail("INSERT INTO t VALUES (?)").message, Syntax("?)"));
}

// --- UPDATE

TEST(DmlUpdateTest, Sysbench) {
  Statement s = MustParse("UPDATE sbtest1 SET k=k+1 WHERE id=?", ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 1);
  const auto& update = std::get<UpdateStmt>(s.node);
  EXPECT_EQ(update.table.name, "sbtest1");
  ASSERT_EQ(update.set.size(), 1u);
  EXPECT_EQ(update.set[0].column, "k");
  EXPECT_EQ(update.set[0].value->binary_op, BinaryOp::kAdd);
  ASSERT_NE(update.where, nullptr);
  EXPECT_EQ(update.where->binary_op, BinaryOp::kEq);
  EXPECT_TRUE(IsParam(update.where->args[1], 0));

  Statement c = MustParse("UPDATE sbtest1 SET c=? WHERE id=?", ParamMode::kAllowed);
  EXPECT_EQ(c.param_count, 2);
  EXPECT_TRUE(IsParam(std::get<UpdateStmt>(c.node).set[0].value, 0));

  auto text = Get<UpdateStmt>("UPDATE sbtest1 SET k=k+1 WHERE id=5021");
  EXPECT_TRUE(IsLiteral(text.where->args[1], LiteralKind::kInteger, "5021"));
}

TEST(DmlUpdateTest, FullShape) {
  auto update = Get<UpdateStmt>(
      "UPDATE LOW_PRIORITY IGNORE db.t AS x SET x.a = DEFAULT, b := b * 2 WHERE a > 1 "
      "ORDER BY b DESC, 2 LIMIT 10");
  EXPECT_EQ(update.table.database, "db");
  EXPECT_EQ(update.table.name, "t");
  EXPECT_EQ(update.alias, "x");
  EXPECT_TRUE(update.ignore);
  ASSERT_EQ(update.set.size(), 2u);
  EXPECT_EQ(update.set[0].column, "a");
  EXPECT_EQ(update.set[0].value->kind, ExprKind::kDefault);
  EXPECT_EQ(update.set[1].column, "b");
  ASSERT_EQ(update.order_by.size(), 2u);
  EXPECT_TRUE(IsColumn(update.order_by[0].expr, "b"));
  EXPECT_TRUE(update.order_by[0].descending);
  EXPECT_TRUE(IsLiteral(update.order_by[1].expr, LiteralKind::kInteger, "2"));
  EXPECT_FALSE(update.order_by[1].descending);
  ASSERT_TRUE(update.limit.has_value());
  EXPECT_TRUE(IsLiteral(update.limit->count, LiteralKind::kInteger, "10"));
  EXPECT_EQ(update.limit->offset, nullptr);
  EXPECT_EQ(Get<UpdateStmt>("UPDATE t x SET a = 1").alias, "x");
}

TEST(DmlUpdateTest, SeveralTables) {
  UpdateStmt comma = Get<UpdateStmt>("UPDATE t1, db.t2 SET t1.a = t2.a, b = 2 WHERE t1.id = 1");
  ASSERT_EQ(comma.joins.size(), 1u);
  EXPECT_EQ(comma.joins[0].table.table.database, "db");
  EXPECT_EQ(comma.set[0].qualifier, "t1");
  EXPECT_EQ(comma.set[0].column, "a");
  EXPECT_EQ(comma.set[1].qualifier, "");
  UpdateStmt joined = Get<UpdateStmt>("UPDATE t1 AS a LEFT JOIN t2 USING (id) SET a.x = 1");
  EXPECT_EQ(joined.alias, "a");
  EXPECT_EQ(joined.joins[0].kind, JoinKind::kLeft);
  EXPECT_EQ(MustFail("UPDATE t1 JOIN t2 ON 1 SET t1.a = 1 LIMIT 1").code, 1235);
}

TEST(DmlUpdateTest, NotSupportedYet) {
  EXPECT_EQ(MustFail("UPDATE (SELECT 1) AS d SET a = 1").code, 1235);
  EXPECT_EQ(MustFail("UPDATE t PARTITION (p0) SET a = 1").message, NotYet("PARTITION"));
}

TEST(DmlUpdateTest, SyntaxErrors) {
  EXPECT_EQ(MustFail("UPDATE t SET").message, Syntax(""));
  EXPECT_EQ(MustFail("UPDATE t SET a").message, Syntax(""));
  EXPECT_EQ(MustFail("UPDATE t SET a = 1 LIMIT 1, 2").message, Syntax(", 2"));
  EXPECT_EQ(MustFail("UPDATE t SET a = 1 ORDER a").message, Syntax("a"));
  EXPECT_EQ(MustFail("UPDATE t WHERE a = 1").message, Syntax("WHERE a = 1"));
}

// --- DELETE

TEST(DmlDeleteTest, Sysbench) {
  Statement s = MustParse("DELETE FROM sbtest1 WHERE id=?", ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 1);
  const auto& del = std::get<DeleteStmt>(s.node);
  EXPECT_EQ(del.table.name, "sbtest1");
  EXPECT_TRUE(IsColumn(del.where->args[0], "id"));
  EXPECT_FALSE(del.ignore);
}

TEST(DmlDeleteTest, FullShape) {
  auto del = Get<DeleteStmt>(
      "DELETE LOW_PRIORITY QUICK IGNORE FROM db.t AS x WHERE x.a = 1 ORDER BY a LIMIT ?",
      ParamMode::kAllowed);
  EXPECT_EQ(del.table.database, "db");
  EXPECT_EQ(del.alias, "x");
  EXPECT_TRUE(del.ignore);
  EXPECT_TRUE(IsColumn(del.where->args[0], "a", "x"));
  ASSERT_EQ(del.order_by.size(), 1u);
  EXPECT_TRUE(IsParam(del.limit->count, 0));
  EXPECT_TRUE(Get<DeleteStmt>("DELETE IGNORE QUICK FROM t").ignore);
  EXPECT_EQ(Get<DeleteStmt>("DELETE FROM t").where, nullptr);
}

TEST(DmlDeleteTest, SeveralTables) {
  DeleteStmt from = Get<DeleteStmt>("DELETE t1, b.* FROM t1 JOIN t2 AS b ON t1.id = b.id WHERE 1");
  ASSERT_EQ(from.targets.size(), 2u);
  EXPECT_EQ(from.targets[1].name, "b");
  EXPECT_EQ(from.table.name, "t1");
  ASSERT_EQ(from.joins.size(), 1u);
  EXPECT_NE(from.where, nullptr);
  DeleteStmt using_ = Get<DeleteStmt>("DELETE FROM t1.*, t2 USING t1 JOIN t2");
  EXPECT_EQ(using_.targets.size(), 2u);
  EXPECT_EQ(using_.table.name, "t1");
  EXPECT_EQ(MustFail("DELETE t1 FROM t1 JOIN t2 ON 1 LIMIT 1").code, 1235);
}

TEST(DmlDeleteTest, NotSupportedYet) {
  EXPECT_EQ(MustFail("DELETE FROM t PARTITION (p0)").message, NotYet("PARTITION"));
}

TEST(DmlDeleteTest, SyntaxErrors) {
  EXPECT_EQ(MustFail("DELETE").message, Syntax(""));
  EXPECT_EQ(MustFail("DELETE FROM").message, Syntax(""));
  EXPECT_EQ(MustFail("DELETE FROM t LIMIT 1 OFFSET 2").message, Syntax("OFFSET 2"));
  EXPECT_EQ(MustFail("DELETE FROM t FORCE INDEX (PRIMARY)").message,
            Syntax("FORCE INDEX (PRIMARY)"));
}

// --- SELECT over a table

TEST(DmlSelectTest, SysbenchPointAndRanges) {
  Statement point = MustParse("SELECT c FROM sbtest1 WHERE id=?", ParamMode::kAllowed);
  EXPECT_EQ(point.param_count, 1);
  const auto& select = std::get<SelectStmt>(point.node);
  ASSERT_TRUE(select.from.has_value());
  EXPECT_EQ(select.from->table.name, "sbtest1");
  EXPECT_EQ(select.from->derived, nullptr);
  EXPECT_EQ(select.items[0].name, "c");
  EXPECT_TRUE(IsColumn(select.items[0].expr, "c"));
  EXPECT_EQ(select.lock, LockMode::kNone);

  auto range = Get<SelectStmt>("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
                               ParamMode::kAllowed);
  EXPECT_EQ(range.where->kind, ExprKind::kBetween);
  ASSERT_EQ(range.order_by.size(), 1u);
  EXPECT_TRUE(IsColumn(range.order_by[0].expr, "c"));

  auto distinct =
      Get<SelectStmt>("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5 AND 104 ORDER BY c");
  EXPECT_TRUE(distinct.distinct);
  EXPECT_FALSE(Get<SelectStmt>("SELECT ALL c FROM sbtest1").distinct);
  EXPECT_TRUE(Get<SelectStmt>("SELECT SQL_NO_CACHE DISTINCTROW c FROM sbtest1").distinct);

  auto sum =
      Get<SelectStmt>("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", ParamMode::kAllowed);
  EXPECT_EQ(sum.items[0].name, "SUM(k)");
  EXPECT_EQ(sum.items[0].expr->name, "SUM");
  EXPECT_TRUE(IsColumn(sum.items[0].expr->args[0], "k"));

  Statement in =
      MustParse("SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ?, ?, ?)", ParamMode::kAllowed);
  EXPECT_EQ(in.param_count, 4);
  EXPECT_EQ(std::get<SelectStmt>(in.node).items.size(), 4u);

  Statement ranges =
      MustParse("SELECT id, k, c, pad FROM sbtest1 WHERE k BETWEEN ? AND ? OR k BETWEEN ? AND ?",
                ParamMode::kAllowed);
  EXPECT_EQ(ranges.param_count, 4);
  EXPECT_EQ(std::get<SelectStmt>(ranges.node).where->binary_op, BinaryOp::kOr);
}

TEST(DmlSelectTest, SysbenchPrewarm) {
  auto avg = Get<SelectStmt>(
      "SELECT AVG(id) FROM (SELECT * FROM sbtest1 FORCE KEY (PRIMARY) LIMIT 10000) t");
  EXPECT_EQ(avg.items[0].name, "AVG(id)");
  ASSERT_TRUE(avg.from.has_value());
  EXPECT_EQ(avg.from->alias, "t");
  ASSERT_NE(avg.from->derived, nullptr);
  const SelectStmt& inner = *avg.from->derived;
  EXPECT_EQ(inner.items[0].expr, nullptr);
  EXPECT_EQ(inner.items[0].name, "*");
  EXPECT_EQ(inner.from->table.name, "sbtest1");
  EXPECT_EQ(inner.from->index_hint, "PRIMARY");
  EXPECT_TRUE(IsLiteral(inner.limit->count, LiteralKind::kInteger, "10000"));

  auto count = Get<SelectStmt>(
      "SELECT COUNT(*) FROM (SELECT * FROM sbtest1 WHERE k LIKE '%0%' LIMIT 10000) t");
  EXPECT_EQ(count.items[0].name, "COUNT(*)");
  const Expr& fn = *count.items[0].expr;
  EXPECT_EQ(fn.name, "COUNT");
  ASSERT_EQ(fn.args.size(), 1u);
  EXPECT_EQ(fn.args[0]->kind, ExprKind::kStar);
  EXPECT_EQ(count.from->derived->where->kind, ExprKind::kLike);
}

TEST(DmlSelectTest, Aggregates) {
  auto select = Get<SelectStmt>(
      "SELECT COUNT(DISTINCT c), COUNT(ALL *), COUNT(DISTINCT a, b), MAX(ALL k), "
      "GROUP_CONCAT(DISTINCT c, d) FROM t");
  EXPECT_TRUE(select.items[0].expr->distinct);
  EXPECT_TRUE(IsColumn(select.items[0].expr->args[0], "c"));
  EXPECT_EQ(select.items[1].expr->args[0]->kind, ExprKind::kStar);
  EXPECT_FALSE(select.items[1].expr->distinct);
  EXPECT_EQ(select.items[2].expr->args.size(), 2u);
  EXPECT_FALSE(select.items[3].expr->distinct);
  EXPECT_EQ(select.items[4].expr->args.size(), 2u);

  EXPECT_EQ(MustFail("SELECT SUM(*) FROM t").message, Syntax("*) FROM t"));
  EXPECT_EQ(MustFail("SELECT SUM(a, b) FROM t").message, Syntax(", b) FROM t"));
  EXPECT_EQ(MustFail("SELECT COUNT() FROM t").message, Syntax(") FROM t"));
  EXPECT_EQ(MustFail("SELECT ABS(DISTINCT a) FROM t").message, Syntax("DISTINCT a) FROM t"));
  EXPECT_EQ(MustFail("SELECT COUNT(DISTINCT *) FROM t").message, Syntax("*) FROM t"));
  SelectStmt windowed = Get<SelectStmt>(
      "SELECT COUNT(*) OVER (), RANK() OVER (PARTITION BY a, b ORDER BY c DESC) FROM t");
  ASSERT_NE(windowed.items[0].expr->window, nullptr);
  EXPECT_TRUE(windowed.items[0].expr->window->partition_by.empty());
  const WindowSpec& rank = *windowed.items[1].expr->window;
  EXPECT_EQ(rank.partition_by.size(), 2u);
  ASSERT_EQ(rank.order_by.size(), 1u);
  EXPECT_TRUE(rank.order_by[0].descending);
  // Frames: a lone start ends at the current row.
  SelectStmt framed = Get<SelectStmt>(
      "SELECT SUM(a) OVER (ORDER BY a ROWS 2 PRECEDING), SUM(a) OVER (ROWS BETWEEN 1 FOLLOWING "
      "AND UNBOUNDED FOLLOWING), COUNT(*) OVER (ORDER BY a RANGE CURRENT ROW) FROM t");
  using Kind = FrameBound::Kind;
  const WindowFrame& last2 = *framed.items[0].expr->window->frame;
  EXPECT_TRUE(last2.rows);
  EXPECT_EQ(last2.start.kind, Kind::kPreceding);
  EXPECT_EQ(last2.start.offset, 2u);
  EXPECT_EQ(last2.end.kind, Kind::kCurrentRow);
  const WindowFrame& ahead = *framed.items[1].expr->window->frame;
  EXPECT_EQ(ahead.start.kind, Kind::kFollowing);
  EXPECT_EQ(ahead.start.offset, 1u);
  EXPECT_EQ(ahead.end.kind, Kind::kUnboundedFollowing);
  const WindowFrame& peers = *framed.items[2].expr->window->frame;
  EXPECT_FALSE(peers.rows);
  EXPECT_EQ(peers.start.kind, Kind::kCurrentRow);
  EXPECT_FALSE(windowed.items[0].expr->window->frame.has_value());
  // RANGE offsets become the bound's value over the ORDER BY value (parameter 0): minus for
  // PRECEDING in an ascending order, plus in a descending one; INTERVAL as DATE_ADD/DATE_SUB.
  SelectStmt ranged = Get<SelectStmt>(
      "SELECT SUM(a) OVER (ORDER BY a RANGE BETWEEN 2 PRECEDING AND 1.5 FOLLOWING), "
      "SUM(a) OVER (ORDER BY d DESC RANGE INTERVAL 1 DAY PRECEDING) FROM t");
  const WindowFrame& by_value = *ranged.items[0].expr->window->frame;
  EXPECT_FALSE(by_value.rows);
  ASSERT_NE(by_value.start.value, nullptr);
  EXPECT_EQ(by_value.start.value->binary_op, BinaryOp::kSub);
  EXPECT_EQ(by_value.start.value->args[0]->kind, ExprKind::kParam);
  EXPECT_EQ(by_value.start.value->args[0]->param_index, 0);
  EXPECT_EQ(by_value.end.value->binary_op, BinaryOp::kAdd);
  EXPECT_FALSE(by_value.end.interval);
  const WindowFrame& by_day = *ranged.items[1].expr->window->frame;
  ASSERT_NE(by_day.start.value, nullptr);
  EXPECT_TRUE(by_day.start.interval);
  EXPECT_EQ(by_day.start.value->name, "DATE_ADD") << "PRECEDING in a descending order adds";
  EXPECT_EQ(by_day.end.value, nullptr);
  EXPECT_EQ(MustFail("SELECT SUM(a) OVER (ORDER BY a RANGE 'x' PRECEDING) FROM t").message,
            Syntax("'x' PRECEDING) FROM t"));
  EXPECT_EQ(MustFail("SELECT SUM(a) OVER (ROWS BETWEEN 1 PRECEDING) FROM t").message,
            Syntax(") FROM t"));
  EXPECT_EQ(MustFail("SELECT SUM(a) OVER (ROWS -1 PRECEDING) FROM t").message,
            Syntax("-1 PRECEDING) FROM t"));
  SelectStmt grouped = Get<SelectStmt>(
      "SELECT GROUP_CONCAT(DISTINCT a, b ORDER BY a DESC, b SEPARATOR '; ') FROM t");
  const Expr& concat = *grouped.items[0].expr;
  EXPECT_TRUE(concat.distinct);
  EXPECT_EQ(concat.args.size(), 2u);
  EXPECT_EQ(concat.concat_order.size(), 2u);
  EXPECT_EQ(concat.concat_descending, (std::vector<bool>{true, false}));
  EXPECT_EQ(concat.separator, "; ");
  EXPECT_EQ(MustFail("SELECT GROUP_CONCAT(c SEPARATOR 1) FROM t").code, 1064);
  // JSON_ARRAYAGG's one argument becomes a one-member JSON_ARRAY (exec/aggregates.cc).
  SelectStmt arrayed = Get<SelectStmt>("SELECT JSON_ARRAYAGG(a + 1) FROM t");
  const Expr& arrayagg = *arrayed.items[0].expr;
  ASSERT_EQ(arrayagg.args.size(), 1u);
  EXPECT_EQ(arrayagg.args[0]->name, "JSON_ARRAY");
  ASSERT_EQ(arrayagg.args[0]->args.size(), 1u);
  EXPECT_EQ(arrayagg.args[0]->args[0]->kind, ExprKind::kBinary);
  EXPECT_EQ(MustFail("SELECT JSON_ARRAYAGG(a, b) FROM t").code, 1064);
}

TEST(DmlSelectTest, NamedWindows) {
  // OVER w takes the named window whole; OVER (w …) and WINDOW v AS (w …) inherit its
  // partitioning and order and add an order or a frame; each use owns its expressions.
  SelectStmt s = Get<SelectStmt>(
      "SELECT SUM(a) OVER w, RANK() OVER (w ORDER BY b DESC), COUNT(*) OVER v, "
      "SUM(a) OVER (v RANGE 2 PRECEDING) FROM t WINDOW w AS (PARTITION BY c), "
      "v AS (W ORDER BY d DESC) ORDER BY ROW_NUMBER() OVER v");
  const WindowSpec& whole = *s.items[0].expr->window;
  ASSERT_EQ(whole.partition_by.size(), 1u);
  EXPECT_EQ(whole.partition_by[0]->name, "c");
  EXPECT_TRUE(whole.order_by.empty());
  const WindowSpec& ordered = *s.items[1].expr->window;
  ASSERT_EQ(ordered.partition_by.size(), 1u);
  EXPECT_NE(ordered.partition_by[0].get(), whole.partition_by[0].get());
  ASSERT_EQ(ordered.order_by.size(), 1u);
  EXPECT_EQ(ordered.order_by[0].expr->name, "b");
  const WindowSpec& chained = *s.items[2].expr->window;
  EXPECT_EQ(chained.partition_by.size(), 1u);
  ASSERT_EQ(chained.order_by.size(), 1u);
  EXPECT_TRUE(chained.order_by[0].descending);
  // A RANGE frame's offset follows the inherited descending order: PRECEDING adds.
  const WindowSpec& ranged = *s.items[3].expr->window;
  ASSERT_TRUE(ranged.frame.has_value());
  ASSERT_NE(ranged.frame->start.value, nullptr);
  EXPECT_EQ(ranged.frame->start.value->binary_op, BinaryOp::kAdd);
  ASSERT_EQ(s.order_by.size(), 1u);
  ASSERT_NE(s.order_by[0].expr->window, nullptr);
  EXPECT_EQ(s.order_by[0].expr->window->order_by.size(), 1u);
  // Windows belong to their SELECT: a subquery has its own, and a UNION's next SELECT too.
  Get<SelectStmt>(
      "SELECT (SELECT MAX(a) OVER w FROM u WINDOW w AS (ORDER BY a) LIMIT 1) FROM t "
      "WINDOW w AS (PARTITION BY b)");
  EXPECT_EQ(MustFail("SELECT (SELECT MAX(a) OVER w FROM u) FROM t WINDOW w AS ()").code, 3579);
  EXPECT_EQ(MustFail("SELECT a FROM t WINDOW w AS () UNION SELECT SUM(a) OVER w FROM u").code,
            3579);
  // Parameters in a window used twice keep their numbers.
  Statement params =
      MustParse("SELECT SUM(a) OVER (w), SUM(a) OVER w, ? FROM t WINDOW w AS (PARTITION BY a + ?)",
                ParamMode::kAllowed);
  EXPECT_EQ(params.param_count, 2);
  // MySQL's errors.
  auto fails = [](absl::string_view sql, uint16_t code, absl::string_view message) {
    mysql::SqlError e = MustFail(sql);
    EXPECT_EQ(e.code, code) << sql;
    EXPECT_EQ(e.sqlstate, "HY000") << sql;
    EXPECT_EQ(e.message, message) << sql;
  };
  fails("SELECT SUM(a) OVER w FROM t", 3579, "Window name 'w' is not defined.");
  fails("SELECT SUM(a) OVER (x ORDER BY a) FROM t WINDOW w AS ()", 3579,
        "Window name 'x' is not defined.");
  fails("SELECT a FROM t WINDOW w AS (x)", 3579, "Window name 'x' is not defined.");
  fails("SELECT a FROM t WINDOW w AS (v), v AS (w)", 3580,
        "There is a circularity in the window dependency graph.");
  fails("SELECT a FROM t WINDOW w AS (w)", 3580,
        "There is a circularity in the window dependency graph.");
  fails("SELECT SUM(a) OVER (w PARTITION BY b) FROM t WINDOW w AS ()", 3581,
        "A window which depends on another cannot define partitioning.");
  fails("SELECT SUM(a) OVER (w) FROM t WINDOW w AS (ROWS 1 PRECEDING)", 3582,
        "Window 'w' has a frame definition, so cannot be referenced by another window.");
  fails("SELECT SUM(a) OVER (w ORDER BY b) FROM t WINDOW w AS (ORDER BY a)", 3583,
        "Window '<unnamed window>' cannot inherit 'w' since both contain an ORDER BY clause.");
  fails("SELECT a FROM t WINDOW w AS (ORDER BY a), v AS (w ORDER BY b)", 3583,
        "Window 'v' cannot inherit 'w' since both contain an ORDER BY clause.");
  fails("SELECT a FROM t WINDOW w AS (), W AS ()", 3591, "Window 'W' is defined twice.");
  fails("SELECT a FROM t WINDOW a AS (c), b AS (a), c AS (b)", 3580,
        "There is a circularity in the window dependency graph.");
  // Chains: 60 windows deep is fine; one too deep to parse again is refused, as MySQL refuses
  // a statement too big, and a long WINDOW clause is checked in one pass.
  auto chain = [](int n) {
    std::string sql = "SELECT SUM(a) OVER w0 FROM t WINDOW w" + std::to_string(n) + " AS ()";
    for (int i = n - 1; i >= 0; --i) absl::StrAppend(&sql, ", w", i, " AS (w", i + 1, ")");
    return sql;
  };
  Get<SelectStmt>(chain(60));
  mysql::SqlError deep = MustFail(chain(200));
  EXPECT_EQ(deep.code, 1064);
  EXPECT_TRUE(absl::StartsWith(deep.message, "memory exhausted")) << deep.message;
  std::string wide = "SELECT a FROM t WINDOW w0 AS ()";
  for (int i = 1; i < 20000; ++i) absl::StrAppend(&wide, ", w", i, " AS (w", i / 2, ")");
  Get<SelectStmt>(wide);
  // OVER w with a frame of its own is the window itself, not another built on it.
  Get<SelectStmt>("SELECT SUM(a) OVER w FROM t WINDOW w AS (ORDER BY a ROWS 1 PRECEDING)");
  EXPECT_EQ(MustFail("SELECT a FROM t WINDOW w").code, 1064);
  EXPECT_EQ(MustFail("SELECT a FROM t WINDOW w AS (ORDER BY a").code, 1064);
}

TEST(DmlSelectTest, QualifiedNamesAndStars) {
  auto select = Get<SelectStmt>("SELECT t.c, db.t.d, `t`.`select`, t.*, db.u.* FROM db.t");
  EXPECT_TRUE(IsColumn(select.items[0].expr, "c", "t"));
  EXPECT_EQ(select.items[0].name, "t.c");
  EXPECT_TRUE(IsColumn(select.items[1].expr, "d", "t"));
  EXPECT_EQ(select.items[1].name, "db.t.d");
  EXPECT_TRUE(IsColumn(select.items[2].expr, "select", "t"));
  EXPECT_EQ(select.from->table.database, "db");

  EXPECT_EQ(MustFail("SELECT a, * FROM t").message, Syntax("* FROM t"));
  EXPECT_EQ(MustFail("SELECT * AS x FROM t").message, Syntax("AS x FROM t"));
  EXPECT_EQ(MustFail("SELECT t.* + 1 FROM t").message, Syntax("+ 1 FROM t"));
  EXPECT_EQ(MustFail("SELECT COUNT(t.*) FROM t").message, Syntax("*) FROM t"));
  EXPECT_EQ(MustFail("SELECT a.b.c.d FROM t").message, Syntax(".d FROM t"));
}

TEST(DmlSelectTest, StarItems) {
  auto select = Get<SelectStmt>("SELECT *, t.*, db.u.* FROM t");
  ASSERT_EQ(select.items.size(), 3u);
  for (const SelectItem& item : select.items) {
    EXPECT_EQ(item.expr, nullptr);
    EXPECT_EQ(item.name, "*");
  }
  EXPECT_EQ(select.items[0].star_qualifier, "");
  EXPECT_EQ(select.items[1].star_qualifier, "t");
  EXPECT_EQ(select.items[2].star_qualifier, "u");
}

TEST(DmlSelectTest, TableAliasesAndIndexHints) {
  auto aliased = Get<SelectStmt>("SELECT x.c FROM sbtest1 AS x USE INDEX (k_1) WHERE x.id = 1");
  EXPECT_EQ(aliased.from->alias, "x");
  EXPECT_EQ(aliased.from->index_hint, "k_1");
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM sbtest1 x").from->alias, "x");
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t IGNORE INDEX (k) FORCE INDEX FOR ORDER BY (`primary`)")
                .from->index_hint,
            "PRIMARY");
  EXPECT_EQ(
      Get<SelectStmt>("SELECT c FROM t USE INDEX () USE KEY FOR JOIN (a, b)").from->index_hint,
      "a");
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t IGNORE KEY FOR GROUP BY (k)").from->index_hint, "");
  EXPECT_EQ(MustFail("SELECT c FROM t FORCE INDEX ()").message, Syntax(")"));
  EXPECT_EQ(MustFail("SELECT c FROM t AS 'x'").message, Syntax("'x'"));
}

TEST(DmlSelectTest, Clauses) {
  auto select = Get<SelectStmt>(
      "SELECT k, COUNT(*) AS n FROM sbtest1 WHERE id > 1 GROUP BY k, c HAVING n > 1 "
      "ORDER BY 2 DESC, k ASC LIMIT 5, 10 FOR UPDATE");
  EXPECT_EQ(select.items[1].name, "n");
  ASSERT_EQ(select.group_by.size(), 2u);
  EXPECT_TRUE(IsColumn(select.group_by[1], "c"));
  EXPECT_EQ(select.having->binary_op, BinaryOp::kGt);
  ASSERT_EQ(select.order_by.size(), 2u);
  EXPECT_TRUE(IsLiteral(select.order_by[0].expr, LiteralKind::kInteger, "2"));
  EXPECT_TRUE(select.order_by[0].descending);
  EXPECT_FALSE(select.order_by[1].descending);
  EXPECT_TRUE(IsLiteral(select.limit->offset, LiteralKind::kInteger, "5"));
  EXPECT_EQ(select.lock, LockMode::kForUpdate);
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t FOR SHARE").lock, LockMode::kShare);
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t LOCK IN SHARE MODE").lock, LockMode::kShare);
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t FOR UPDATE").lock_wait, LockWait::kWait);
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t FOR UPDATE NOWAIT").lock_wait, LockWait::kNoWait);
  SelectStmt skip =
      Get<SelectStmt>("SELECT c FROM t ORDER BY c LIMIT 1 FOR SHARE OF t SKIP LOCKED");
  EXPECT_EQ(skip.lock, LockMode::kShare);
  EXPECT_EQ(skip.lock_wait, LockWait::kSkipLocked);
  EXPECT_EQ(MustFail("SELECT c FROM t FOR UPDATE SKIP").code, 1064);
  EXPECT_EQ(Get<SelectStmt>("SELECT 1 FOR UPDATE").lock, LockMode::kForUpdate);
}

TEST(DmlSelectTest, DerivedTables) {
  Statement s =
      MustParse("SELECT x.c FROM (SELECT c FROM t WHERE id = ? LIMIT ?) AS x WHERE x.c <> ?",
                ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 3);
  const auto& select = std::get<SelectStmt>(s.node);
  EXPECT_TRUE(IsParam(select.from->derived->where->args[1], 0));
  EXPECT_TRUE(IsParam(select.from->derived->limit->count, 1));
  EXPECT_TRUE(IsParam(select.where->args[1], 2));
  EXPECT_TRUE(select.from->table.name.empty());

  mysql::SqlError e = MustFail("SELECT * FROM (SELECT 1)");
  EXPECT_EQ(e.code, 1248);
  EXPECT_EQ(e.sqlstate, "42000");
  EXPECT_EQ(e.message, "Every derived table must have its own alias");
  EXPECT_EQ(MustFail("SELECT * FROM (SELECT 1) WHERE 1").code, 1248);
  // A derived table's column list names its query's columns.
  SelectStmt named = Get<SelectStmt>("SELECT * FROM (SELECT 1, 2) AS d (a, b)");
  EXPECT_EQ(named.from->derived->items[1].name, "b");
  EXPECT_TRUE(named.from->derived->items[1].has_alias);
  EXPECT_EQ(MustFail("SELECT * FROM (SELECT 1) AS d (a, b)").code, 1353);
  EXPECT_EQ(MustFail("SELECT * FROM (SELECT 1, 2) AS d (a, A)").code, 1060);
  EXPECT_EQ(MustFail("SELECT * FROM (SELECT * FROM t) AS d (a)").message,
            NotYet("a column list over *"));
  // A subquery parses; whether it can run is the executor's to say (exec/subqueries.h).
  EXPECT_TRUE(MustParse("SELECT * FROM t WHERE id IN (SELECT id FROM u)").has_subqueries);
}

TEST(DmlSelectTest, SetOperations) {
  // Each part keeps the operation that joins it and its ALL; ORDER BY and LIMIT after the last
  // are the whole's.
  SelectStmt s = Get<SelectStmt>(
      "SELECT a FROM t UNION SELECT b FROM u INTERSECT ALL SELECT c FROM v EXCEPT DISTINCT "
      "SELECT d FROM w ORDER BY 1 LIMIT 2");
  using SetOp = SelectStmt::SetOp;
  ASSERT_EQ(s.unions.size(), 3u);
  EXPECT_EQ(s.unions[0].op, SetOp::kUnion);
  EXPECT_FALSE(s.unions[0].all);
  EXPECT_EQ(s.unions[1].op, SetOp::kIntersect);
  EXPECT_TRUE(s.unions[1].all);
  EXPECT_EQ(s.unions[2].op, SetOp::kExcept);
  EXPECT_FALSE(s.unions[2].all);
  ASSERT_NE(s.union_tail, nullptr);
  EXPECT_EQ(s.union_tail->order_by.size(), 1u);
  EXPECT_TRUE(s.unions[2].select->order_by.empty());
  EXPECT_EQ(MustFail("SELECT a FROM t INTERSECT").code, 1064);
}

TEST(DmlSelectTest, RecursiveCommonTables) {
  // Non-recursive SELECTs, then SELECTs reading the rows of the round before.
  SelectStmt s = Get<SelectStmt>(
      "WITH RECURSIVE c (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) "
      "SELECT a.n FROM c a JOIN c b ON b.n = a.n");
  const SelectStmt& c = *s.from->derived;
  ASSERT_TRUE(c.recursive.has_value());
  EXPECT_EQ(c.recursive->name, "c");
  EXPECT_EQ(c.recursive->first_step, 1u);
  EXPECT_EQ(c.items[0].name, "n");
  const SelectStmt& step = *c.unions[0].select;
  ASSERT_NE(step.from->derived, nullptr);
  EXPECT_TRUE(step.from->derived->recursive_rows);
  EXPECT_EQ(step.from->alias, "c");
  // Each reference is a query of its own, rounds included.
  const SelectStmt& again = *s.joins[0].table.derived;
  ASSERT_TRUE(again.recursive.has_value());
  EXPECT_NE(again.unions[0].select->from->derived.get(), step.from->derived.get());
  // Several of each kind, a join in a step, a later common table reading a recursive one.
  SelectStmt more = Get<SelectStmt>(
      "WITH RECURSIVE t (id) AS (SELECT 1 UNION SELECT 2 UNION ALL "
      "SELECT x.id FROM t JOIN x ON x.parent = t.id UNION ALL SELECT id + 10 FROM t), "
      "u AS (SELECT id FROM t) SELECT * FROM u");
  const SelectStmt& t = *more.from->derived->from->derived;
  ASSERT_TRUE(t.recursive.has_value());
  EXPECT_EQ(t.recursive->first_step, 2u);
  EXPECT_TRUE(t.unions[1].select->from->derived->recursive_rows);
  EXPECT_EQ(t.unions[1].select->joins[0].table.table.name, "x");
  // WITH RECURSIVE over a table that does not read itself: an ordinary common table.
  EXPECT_FALSE(Get<SelectStmt>("WITH RECURSIVE p AS (SELECT 1 AS x) SELECT * FROM p")
                   .from->derived->recursive.has_value());
  // MySQL's errors for the shapes it refuses.
  EXPECT_EQ(MustFail("WITH RECURSIVE c AS (SELECT * FROM c) SELECT 1").code, 3573);
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT n FROM c UNION SELECT 1) SELECT 1").code,
            3574);
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT n FROM c UNION SELECT 2) "
                     "SELECT 1")
                .code,
            3574);
  mysql::SqlError twice =
      MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT a.n FROM c a, c b) SELECT 1");
  EXPECT_EQ(twice.code, 3577);
  EXPECT_EQ(twice.message,
            "In recursive query block of Recursive Common Table Expression 'c', the recursive "
            "table must be referenced only once, and not in any subquery");
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT k FROM t WHERE k IN "
                     "(SELECT n FROM c)) SELECT 1")
                .code,
            3577);
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT d.n FROM "
                     "(SELECT n FROM c) d) SELECT 1")
                .code,
            3577);
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT t.k FROM t LEFT JOIN c "
                     "ON c.n = t.k) SELECT 1")
                .code,
            3576);
  EXPECT_EQ(MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT n FROM c ORDER BY n LIMIT 3) "
                     "SELECT 1")
                .message,
            NotYet("ORDER BY over UNION in recursive Common Table Expression"));
  EXPECT_EQ(
      MustFail("WITH RECURSIVE c (n) AS (SELECT 1 INTERSECT SELECT n FROM c) SELECT 1").message,
      NotYet("INTERSECT or EXCEPT in a recursive common table expression"));
  EXPECT_EQ(
      MustFail("WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT DISTINCT n FROM c) SELECT 1").code,
      1235);
}

TEST(DmlSelectTest, CommonTableExpressions) {
  // Each reference is a derived table of the common table's query, named as written or by
  // the common table; a later one sees an earlier one; each owns its expressions.
  Statement s = MustParse(
      "WITH a (x) AS (SELECT k FROM t WHERE k > ?), b AS (SELECT x FROM a) "
      "SELECT * FROM a JOIN b ON b.x = a.x JOIN a AS a2 WHERE ? IN (SELECT x FROM b)",
      ParamMode::kAllowed);
  EXPECT_EQ(s.param_count, 2);
  const auto& select = std::get<SelectStmt>(s.node);
  ASSERT_NE(select.from->derived, nullptr);
  EXPECT_EQ(select.from->alias, "a");
  EXPECT_TRUE(select.from->table.name.empty());
  EXPECT_EQ(select.from->derived->items[0].name, "x");
  EXPECT_TRUE(IsParam(select.from->derived->where->args[1], 0));
  ASSERT_EQ(select.joins.size(), 2u);
  const SelectStmt& b = *select.joins[0].table.derived;
  ASSERT_NE(b.from->derived, nullptr) << "b reads a, which is a derived table in b too";
  EXPECT_EQ(b.from->alias, "a");
  EXPECT_EQ(select.joins[1].table.alias, "a2");
  EXPECT_NE(select.joins[1].table.derived->where.get(), select.from->derived->where.get());
  EXPECT_TRUE(IsParam(select.joins[1].table.derived->where->args[1], 0));
  EXPECT_TRUE(IsParam(select.where->args[0], 1));
  EXPECT_NE(select.where->subquery->from->derived, nullptr);
  // A common table hides a table of its name, but not db.name, nor itself in its query.
  SelectStmt hidden = Get<SelectStmt>("WITH t AS (SELECT * FROM t) SELECT * FROM t, db.t");
  ASSERT_NE(hidden.from->derived, nullptr);
  EXPECT_EQ(hidden.from->derived->from->table.name, "t");
  EXPECT_EQ(hidden.from->derived->from->derived, nullptr);
  EXPECT_EQ(hidden.joins[0].table.derived, nullptr);
  // In scope for the UNION after it, subqueries and derived tables, and no further.
  Get<SelectStmt>("WITH c AS (SELECT 1 AS x) SELECT x FROM c UNION SELECT x FROM c");
  Get<SelectStmt>("SELECT * FROM (WITH c AS (SELECT 1 AS x) SELECT x FROM c) d");
  Get<SelectStmt>("SELECT EXISTS (WITH c AS (SELECT 1) SELECT * FROM c)");
  SelectStmt outside = Get<SelectStmt>("SELECT * FROM (WITH c AS (SELECT 1) SELECT 1) d, c");
  EXPECT_EQ(outside.joins[0].table.table.name, "c");
  EXPECT_EQ(outside.joins[0].table.derived, nullptr);
  Get<InsertStmt>("INSERT INTO t WITH c AS (SELECT 1) SELECT * FROM c");
  Get<CreateViewStmt>("CREATE VIEW v AS WITH c AS (SELECT 1 AS x) SELECT x FROM c");
  // MySQL's errors, and what is not built.
  EXPECT_EQ(MustFail("WITH c AS (SELECT 1), c AS (SELECT 2) SELECT * FROM c").code, 1066);
  EXPECT_EQ(MustFail("WITH c (a, b) AS (SELECT 1) SELECT * FROM c").code, 1353);
  EXPECT_EQ(MustFail("WITH c AS (SELECT 1) DELETE FROM t").message, NotYet("WITH … DELETE"));
  EXPECT_EQ(MustFail("WITH c AS SELECT 1 SELECT 2").code, 1064);
  EXPECT_EQ(MustFail("WITH c AS (SELECT 1)").code, 1064);
  // Each common table read twice by the next: 2^20 reads, refused as too big to parse.
  std::string doubling = "WITH c0 AS (SELECT 1 AS x)";
  for (int i = 1; i <= 20; ++i) {
    absl::StrAppend(&doubling, ", c", i, " AS (SELECT a.x FROM c", i - 1, " a, c", i - 1, " b)");
  }
  absl::StrAppend(&doubling, " SELECT * FROM c20");
  mysql::SqlError big = MustFail(doubling);
  EXPECT_EQ(big.code, 1064);
  EXPECT_TRUE(absl::StartsWith(big.message, "memory exhausted")) << big.message;
  // So is a WITH of more common tables than the parser looks through by name.
  std::string many = "WITH c0 AS (SELECT 1)";
  for (int i = 1; i < 2000; ++i) absl::StrAppend(&many, ", c", i, " AS (SELECT 1)");
  absl::StrAppend(&many, " SELECT * FROM c0");
  EXPECT_EQ(MustFail(many).code, 1064);
  std::string enough = "WITH c0 AS (SELECT 1)";
  for (int i = 1; i < 500; ++i) absl::StrAppend(&enough, ", c", i, " AS (SELECT 1)");
  Get<SelectStmt>(enough + " SELECT * FROM c499");
}

TEST(DmlSelectTest, Joins) {
  SelectStmt comma = Get<SelectStmt>("SELECT * FROM t1, db.t2 AS b, t3 c");
  ASSERT_EQ(comma.joins.size(), 2u);
  EXPECT_EQ(comma.joins[0].kind, JoinKind::kInner);
  EXPECT_EQ(comma.joins[0].table.table.database, "db");
  EXPECT_EQ(comma.joins[0].table.alias, "b");
  EXPECT_EQ(comma.joins[1].table.alias, "c");
  EXPECT_EQ(comma.joins[1].on, nullptr);

  SelectStmt kinds = Get<SelectStmt>(
      "SELECT a.x FROM t1 a JOIN t2 b ON a.id = b.id LEFT OUTER JOIN t3 USING (id, k) "
      "RIGHT JOIN t4 d ON d.id = a.id CROSS JOIN t5 STRAIGHT_JOIN t6 ON t6.id = 1 "
      "INNER JOIN (SELECT 1 AS id) e ON e.id = a.id WHERE a.id > 1");
  ASSERT_EQ(kinds.joins.size(), 6u);
  EXPECT_EQ(kinds.joins[0].kind, JoinKind::kInner);
  ASSERT_NE(kinds.joins[0].on, nullptr);
  EXPECT_EQ(kinds.joins[0].on->args[0]->qualifier, "a");
  EXPECT_EQ(kinds.joins[1].kind, JoinKind::kLeft);
  EXPECT_EQ(kinds.joins[1].using_columns, (std::vector<std::string>{"id", "k"}));
  EXPECT_EQ(kinds.joins[2].kind, JoinKind::kRight);
  EXPECT_EQ(kinds.joins[3].kind, JoinKind::kInner);
  EXPECT_EQ(kinds.joins[3].on, nullptr);
  EXPECT_TRUE(kinds.joins[4].straight);
  EXPECT_NE(kinds.joins[5].table.derived, nullptr);
  EXPECT_NE(kinds.where, nullptr);

  EXPECT_EQ(MustFail("SELECT * FROM t1 LEFT JOIN t2").code, 1064);  // an outer join needs ON
  EXPECT_EQ(MustFail("SELECT * FROM t1 JOIN t2 USING ()").code, 1064);
  EXPECT_EQ(MustFail("SELECT * FROM t1 JOIN (SELECT 1) ON 1").code, 1248);
  SelectStmt natural = Get<SelectStmt>(
      "SELECT * FROM t1 NATURAL JOIN t2 NATURAL LEFT OUTER JOIN t3 NATURAL RIGHT JOIN t4 "
      "NATURAL INNER JOIN t5");
  ASSERT_EQ(natural.joins.size(), 4u);
  for (const JoinClause& join : natural.joins) {
    EXPECT_TRUE(join.natural);
    EXPECT_EQ(join.on, nullptr);
  }
  EXPECT_EQ(natural.joins[1].kind, JoinKind::kLeft);
  EXPECT_EQ(natural.joins[2].kind, JoinKind::kRight);
  EXPECT_EQ(natural.joins[3].kind, JoinKind::kInner);
  EXPECT_FALSE(kinds.joins[0].natural);
  EXPECT_EQ(MustFail("SELECT * FROM t1 NATURAL JOIN t2 ON 1").code, 1064);
  EXPECT_EQ(MustFail("SELECT * FROM t1 NATURAL JOIN t2 USING (a)").code, 1064);
  EXPECT_EQ(MustFail("SELECT * FROM t1 NATURAL CROSS JOIN t2").code, 1064);
  EXPECT_EQ(MustFail("SELECT * FROM t1 NATURAL STRAIGHT_JOIN t2").code, 1064);
  EXPECT_EQ(MustFail("SELECT * FROM t1 JOIN (t2 JOIN t3) ON 1").code, 1235);

  // A group at the left, as MySQL and MariaDB print a view's joins, is the same join.
  SelectStmt grouped = Get<SelectStmt>(
      "select `c`.`name` AS `n` from ((`c` join `o` on(`o`.`cid` = `c`.`id`)) left join `l` "
      "on(`l`.`oid` = `o`.`id`)) where 1");
  EXPECT_EQ(grouped.from->table.name, "c");
  ASSERT_EQ(grouped.joins.size(), 2u);
  EXPECT_EQ(grouped.joins[0].table.table.name, "o");
  EXPECT_EQ(grouped.joins[1].kind, JoinKind::kLeft);
  EXPECT_NE(grouped.where, nullptr);
  EXPECT_EQ(Get<SelectStmt>("SELECT * FROM (t1)").from->table.name, "t1");
  EXPECT_EQ(MustFail("SELECT * FROM (t1 JOIN t2").code, 1064);
}

TEST(DmlSelectTest, Unions) {
  SelectStmt u = Get<SelectStmt>(
      "SELECT a FROM t WHERE a > 1 UNION ALL SELECT b FROM u UNION DISTINCT SELECT c FROM v "
      "ORDER BY 1 DESC LIMIT 5");
  ASSERT_EQ(u.unions.size(), 2u);
  EXPECT_TRUE(u.unions[0].all);
  EXPECT_FALSE(u.unions[1].all);
  EXPECT_EQ(u.unions[0].select->from->table.name, "u");
  EXPECT_EQ(u.unions[1].select->from->table.name, "v");
  EXPECT_TRUE(u.unions[1].select->order_by.empty());
  EXPECT_FALSE(u.unions[1].select->limit.has_value());
  ASSERT_NE(u.union_tail, nullptr);
  EXPECT_EQ(u.union_tail->order_by.size(), 1u);
  EXPECT_TRUE(u.union_tail->order_by[0].descending);
  EXPECT_TRUE(u.union_tail->limit.has_value());
  EXPECT_NE(u.where, nullptr);

  SelectStmt plain = Get<SelectStmt>("SELECT 1 UNION SELECT 2");
  ASSERT_EQ(plain.unions.size(), 1u);
  EXPECT_EQ(plain.union_tail, nullptr);
  EXPECT_TRUE(MustParse("SELECT * FROM t WHERE id IN (SELECT a FROM u UNION SELECT b FROM v)")
                  .has_subqueries);
  EXPECT_EQ(MustFail("SELECT 1 UNION").code, 1064);
}

// A parenthesized SELECT keeps its own ORDER BY and LIMIT; those after the last `)` of a UNION
// are the whole union's; a parenthesized UNION inside another is a SELECT over it.
TEST(DmlSelectTest, ParenthesizedUnionParts) {
  SelectStmt u = Get<SelectStmt>(
      "(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL (SELECT b FROM u ORDER BY b DESC LIMIT 2) "
      "ORDER BY 1 LIMIT 3");
  EXPECT_EQ(u.from->table.name, "t");
  EXPECT_EQ(u.order_by.size(), 1u);
  EXPECT_TRUE(u.limit.has_value());
  ASSERT_EQ(u.unions.size(), 1u);
  EXPECT_TRUE(u.unions[0].all);
  const SelectStmt& second = *u.unions[0].select;
  EXPECT_EQ(second.from->table.name, "u");
  ASSERT_EQ(second.order_by.size(), 1u);
  EXPECT_TRUE(second.order_by[0].descending);
  EXPECT_TRUE(second.limit.has_value());
  ASSERT_NE(u.union_tail, nullptr);
  EXPECT_EQ(u.union_tail->order_by.size(), 1u);
  EXPECT_TRUE(u.union_tail->limit.has_value());

  SelectStmt mixed = Get<SelectStmt>("SELECT 1 UNION (SELECT a FROM t LIMIT 1) EXCEPT SELECT 2");
  ASSERT_EQ(mixed.unions.size(), 2u);
  EXPECT_TRUE(mixed.unions[0].select->limit.has_value());
  EXPECT_EQ(mixed.unions[1].op, SelectStmt::SetOp::kExcept);
  EXPECT_EQ(mixed.union_tail, nullptr);

  // (A UNION B) INTERSECT C is not A UNION (B INTERSECT C): the inner union is one operand.
  SelectStmt nested =
      Get<SelectStmt>("SELECT 1 INTERSECT (SELECT a FROM t UNION SELECT b FROM u) ORDER BY 1");
  ASSERT_EQ(nested.unions.size(), 1u);
  const SelectStmt& over = *nested.unions[0].select;
  ASSERT_TRUE(over.from.has_value());
  ASSERT_NE(over.from->derived, nullptr);
  EXPECT_EQ(over.from->derived->unions.size(), 1u);
  ASSERT_NE(nested.union_tail, nullptr);
  EXPECT_TRUE(MustParse("(SELECT 1 UNION SELECT 2) UNION SELECT 3").has_subqueries);

  EXPECT_EQ(MustFail("(SELECT 1) UNION (SELECT 2").code, 1064);
  EXPECT_EQ(MustFail("(SELECT 1) UNION (2)").code, 1064);
  EXPECT_EQ(MustFail("(SELECT 1) (SELECT 2)").code, 1064);
}

// A parenthesized query as the statement: ORDER BY and LIMIT after it join its own when they
// mean the same, else order and limit a SELECT over it.
TEST(DmlSelectTest, ParenthesizedStatement) {
  SelectStmt alone = Get<SelectStmt>("((SELECT a FROM t WHERE a > 1 ORDER BY a))");
  EXPECT_EQ(alone.from->table.name, "t");
  EXPECT_EQ(alone.order_by.size(), 1u);

  SelectStmt merged = Get<SelectStmt>("(SELECT a FROM t ORDER BY a) LIMIT 2");
  EXPECT_EQ(merged.from->table.name, "t");
  EXPECT_EQ(merged.order_by.size(), 1u);
  EXPECT_TRUE(merged.limit.has_value());

  SelectStmt reordered = Get<SelectStmt>("(SELECT a FROM t ORDER BY a) ORDER BY a DESC");
  ASSERT_EQ(reordered.order_by.size(), 1u);
  EXPECT_TRUE(reordered.order_by[0].descending);

  SelectStmt over = Get<SelectStmt>("(SELECT a FROM t ORDER BY a LIMIT 3) ORDER BY a DESC");
  ASSERT_NE(over.from->derived, nullptr);
  EXPECT_TRUE(over.from->derived->limit.has_value());
  EXPECT_EQ(over.items[0].name, "*");
  EXPECT_TRUE(over.order_by[0].descending);

  SelectStmt no_table = Get<SelectStmt>("(SELECT 1 AS x) ORDER BY x");
  ASSERT_NE(no_table.from->derived, nullptr);

  SelectStmt united = Get<SelectStmt>("(SELECT a FROM t UNION SELECT b FROM u) LIMIT 1");
  ASSERT_EQ(united.unions.size(), 1u);
  ASSERT_NE(united.union_tail, nullptr);
  EXPECT_TRUE(united.union_tail->limit.has_value());
}

// Where a `(` may open an expression, a group of joins or a query, it opens a query when one
// follows it as a query goes on.
TEST(DmlSelectTest, ParenthesizedQueriesInExpressionsAndFrom) {
  SelectStmt in = Get<SelectStmt>("SELECT a FROM t WHERE a IN ((SELECT 1) UNION (SELECT 2))");
  ASSERT_EQ(in.where->kind, ExprKind::kInSubquery);
  EXPECT_EQ(in.where->subquery->unions.size(), 1u);
  EXPECT_EQ(Get<SelectStmt>("SELECT a FROM t WHERE a IN ((SELECT 1), 2)").where->kind,
            ExprKind::kIn);
  SelectStmt scalar = Get<SelectStmt>("SELECT ((SELECT 1) + 1), ((SELECT 2))");
  EXPECT_EQ(scalar.items[0].expr->kind, ExprKind::kBinary);
  EXPECT_EQ(scalar.items[1].expr->kind, ExprKind::kSubquery);
  EXPECT_EQ(Get<SelectStmt>("SELECT EXISTS ((SELECT 1))").items[0].expr->kind, ExprKind::kExists);
  EXPECT_EQ(Get<SelectStmt>("SELECT 1 = ANY ((SELECT 1) UNION (SELECT 2))").items[0].expr->kind,
            ExprKind::kInSubquery);

  SelectStmt derived =
      Get<SelectStmt>("SELECT * FROM ((SELECT a FROM t) UNION (SELECT b FROM u)) x");
  ASSERT_NE(derived.from->derived, nullptr);
  EXPECT_EQ(derived.from->derived->unions.size(), 1u);
  EXPECT_EQ(derived.from->alias, "x");
  SelectStmt group = Get<SelectStmt>("SELECT * FROM ((SELECT 1 AS a) x JOIN t ON t.a = x.a)");
  ASSERT_NE(group.from->derived, nullptr);
  EXPECT_EQ(group.joins.size(), 1u);
  EXPECT_EQ(MustFail("SELECT * FROM ((SELECT 1) UNION (SELECT 2))").code, 1248);
}

TEST(DmlSelectTest, LockingReadOfTables) {
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t b1_0 WHERE id = 1 FOR UPDATE OF b1_0").lock,
            LockMode::kForUpdate);
  EXPECT_EQ(Get<SelectStmt>("SELECT c FROM t, u FOR SHARE OF t, u").lock, LockMode::kShare);
  EXPECT_EQ(MustFail("SELECT c FROM t FOR UPDATE OF").code, 1064);
}

TEST(DmlSelectTest, WithRollup) {
  const auto select = Get<SelectStmt>("SELECT a, b, SUM(c) FROM t GROUP BY a, b WITH ROLLUP");
  EXPECT_TRUE(select.rollup);
  EXPECT_EQ(select.group_by.size(), 2u);
  EXPECT_FALSE(Get<SelectStmt>("SELECT a FROM t GROUP BY a").rollup);
  EXPECT_TRUE(
      Get<SelectStmt>("SELECT a FROM t GROUP BY a WITH ROLLUP HAVING a > 1 ORDER BY a").rollup);
  EXPECT_EQ(MustFail("SELECT a FROM t GROUP BY a WITH CUBE").message, Syntax("CUBE"));
}

// INTO the statement's own SELECT, in any of MySQL's places, or after a UNION's last SELECT;
// anywhere else 3954 (MySQL 8.0's).
TEST(DmlSelectTest, SelectInto) {
  EXPECT_EQ(Get<SelectStmt>("SELECT a, b INTO @x, @y FROM t WHERE id = 1").into,
            (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(Get<SelectStmt>("SELECT a FROM t ORDER BY a LIMIT 1 INTO @x").into,
            std::vector<std::string>{"x"});
  EXPECT_EQ(Get<SelectStmt>("SELECT a FROM t WHERE id = 1 FOR UPDATE INTO @x").into,
            std::vector<std::string>{"x"});
  const auto united = Get<SelectStmt>("SELECT 1 UNION SELECT 2 UNION SELECT 3 INTO @u");
  EXPECT_EQ(united.into, std::vector<std::string>{"u"});
  for (const auto& part : united.unions) EXPECT_TRUE(part.select->into.empty());
  for (const char* misplaced :
       {"SELECT * FROM (SELECT 1 INTO @x) t", "SELECT 1 INTO @a UNION SELECT 2",
        "SELECT 1 UNION SELECT 2 INTO @a UNION SELECT 3", "SELECT (SELECT 1 INTO @x)",
        "WITH c AS (SELECT 1 INTO @x) SELECT * FROM c", "INSERT INTO t SELECT 1 INTO @x",
        "SELECT 1 INTO @a INTO @b"}) {
    EXPECT_EQ(MustFail(misplaced).code, 3954) << misplaced;
  }
  EXPECT_EQ(MustFail("SELECT 5 INTO x").message, "Undeclared variable: x");
  EXPECT_EQ(MustFail("SELECT 1 INTO OUTFILE '/tmp/f'").message, NotYet("SELECT INTO OUTFILE"));
  EXPECT_EQ(MustFail("SELECT 1 INTO").code, 1064);
}

TEST(DmlSelectTest, NotSupportedYet) {
  EXPECT_EQ(MustFail("SELECT c FROM t PARTITION (p0)").message, NotYet("PARTITION"));
  // Without a table these stay unsupported: the executor runs no grouping or sorting there.
  EXPECT_EQ(MustFail("SELECT 1 ORDER BY 1").message, NotYet("ORDER without tables"));
  EXPECT_EQ(MustFail("SELECT 1 FROM DUAL GROUP BY 1").message, NotYet("GROUP without tables"));
}

TEST(DmlSelectTest, SyntaxErrors) {
  EXPECT_EQ(MustFail("SELECT c FROM t WHERE").message, Syntax(""));
  EXPECT_EQ(MustFail("SELECT c FROM t ORDER c").message, Syntax("c"));
  EXPECT_EQ(MustFail("SELECT c FROM t GROUP BY").message, Syntax(""));
  EXPECT_EQ(MustFail("SELECT c FROM t FOR").message, Syntax(""));
  EXPECT_EQ(MustFail("SELECT c FROM t LOCK IN SHARE").message, Syntax(""));
  EXPECT_EQ(MustFail("SELECT c FROM t t2 t3").message, Syntax("t3"));
  EXPECT_EQ(MustFail("SELECT c FROM where").message, Syntax("where"));
  EXPECT_EQ(MustFail("SELECT c FROM t WHERE id = ?").message, Syntax("?"));
}

TEST(DmlSelectTest, TextProtocolSysbench) {
  // What sysbench sends with --db-ps-mode=disable.
  const char* kStatements[] = {
      "SELECT c FROM sbtest1 WHERE id=5021",
      "SELECT c FROM sbtest1 WHERE id BETWEEN 4985 AND 5084",
      "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 4985 AND 5084",
      "SELECT c FROM sbtest1 WHERE id BETWEEN 4985 AND 5084 ORDER BY c",
      "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 4985 AND 5084 ORDER BY c",
      "UPDATE sbtest1 SET k=k+1 WHERE id=5021",
      "UPDATE sbtest1 SET c='83868641912-28773972837' WHERE id=5021",
      "DELETE FROM sbtest1 WHERE id=5021",
      "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5021, 4993, '8386864', '6795')",
      "SELECT id, k, c, pad FROM sbtest1 WHERE k IN (4993, 5012, 4970)",
      "SELECT id, k, c, pad FROM sbtest1 WHERE k BETWEEN 4993 AND 5012 OR k BETWEEN 1 AND 9",
      "SELECT COUNT(*) FROM sbtest1",
      "SELECT * FROM sbtest1 LIMIT 1",
  };
  for (const char* sql : kStatements) MustParse(sql);
}

}  // namespace
}  // namespace shoal::sql
