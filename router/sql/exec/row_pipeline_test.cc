#include "router/sql/exec/row_pipeline.h"

#include <gtest/gtest.h>

#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;

// Rows of (id INT, k INT NULL, c VARCHAR) as the data nodes would return them; `table`
// qualifies them (database "db") when given.
FetchedRows Rows(const std::string& table = "") {
  FetchedRows f;
  f.columns = {Named(IntColumn(11, false, Nullability::kNotNull, mysql::ColumnType::kLong), "id"),
               Named(IntColumn(11, false, Nullability::kNullable, mysql::ColumnType::kLong), "k"),
               Named(StringColumn(20, SessionState{}, Nullability::kNullable), "c")};
  if (!table.empty()) {
    for (mysql::ColumnDefinition& column : f.columns) {
      column.schema = "db";
      column.table = table;
    }
  }
  auto row = [](int64_t id, Value k, std::string c) {
    return std::vector<Value>{id, std::move(k), std::move(c)};
  };
  f.rows = {row(1, int64_t{10}, "b"), row(2, int64_t{20}, "a"), row(3, Value{}, "c"),
            row(4, int64_t{10}, "a"), row(5, int64_t{30}, "b")};
  return f;
}

class RowPipelineTest : public ::testing::Test {
 protected:
  // The result rows of `sql` over Rows(), as text ("1,b;2,a").
  std::string Run(const std::string& sql) {
    auto parsed = Parse(sql, ParseOptions{});
    if (auto* err = std::get_if<mysql::SqlError>(&parsed)) return "parse: " + err->message;
    stmt_ = std::get<Statement>(std::move(parsed));
    ExecContext ctx{&state_, {}, absl::Now(), nullptr};
    StatementResult r = FinishSelect(std::get<SelectStmt>(stmt_.node), Rows(table_), ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&r)) {
      return "error " + std::to_string(err->code) + (full_errors_ ? " " + err->message : "");
    }
    std::string out;
    for (const auto& row : std::get<mysql::ResultSet>(r).rows) {
      if (!out.empty()) out += ";";
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) out += ",";
        out += ValueText(row[i]);
      }
    }
    return out;
  }

  void SetSqlMode(const std::string& modes) { SetSessionVar("sql_mode", modes, &state_); }

  SessionState state_;
  Statement stmt_;
  std::string table_;         // what qualifies Rows()' columns
  bool full_errors_ = false;  // errors with their message
};

TEST_F(RowPipelineTest, WhereOrderLimit) {
  EXPECT_EQ(Run("SELECT id FROM t WHERE k = 10"), "1;4");
  EXPECT_EQ(Run("SELECT id, c FROM t ORDER BY c, id DESC"), "4,a;2,a;5,b;1,b;3,c");
  EXPECT_EQ(Run("SELECT id FROM t ORDER BY k DESC LIMIT 2"), "5;2");
  EXPECT_EQ(Run("SELECT id FROM t ORDER BY k LIMIT 1, 2"), "1;4");  // NULL sorts first
  EXPECT_EQ(Run("SELECT id AS x FROM t ORDER BY x DESC LIMIT 1"), "5");
  EXPECT_EQ(Run("SELECT c, id FROM t ORDER BY 2 DESC LIMIT 1"), "b,5");
  EXPECT_EQ(Run("SELECT * FROM t WHERE id = 3"), "3,NULL,c");
}

// Plain column items take the row's value (moved when nothing else reads it), and ORDER BY on
// a selected column sorts on the output value: a column selected twice, sorted on while
// aliased, sorted on without being selected, or beside `*` keeps its value everywhere.
TEST_F(RowPipelineTest, PlainColumnsSelectedTwiceOrSortedOn) {
  EXPECT_EQ(Run("SELECT c, c FROM t ORDER BY c, id"), "a,a;a,a;b,b;b,b;c,c");
  EXPECT_EQ(Run("SELECT c AS x, id FROM t ORDER BY c DESC, id"), "c,3;b,1;b,5;a,2;a,4");
  EXPECT_EQ(Run("SELECT id FROM t ORDER BY c, id"), "2;4;1;5;3");
  EXPECT_EQ(Run("SELECT id, k + 1 FROM t WHERE id < 3 ORDER BY k"), "1,11;2,21");
  EXPECT_EQ(Run("SELECT *, c FROM t WHERE id = 2"), "2,20,a,a");
  EXPECT_EQ(Run("SELECT k, ANY_VALUE(id) FROM t GROUP BY k ORDER BY k"), "NULL,3;10,1;20,2;30,5");
  EXPECT_EQ(Run("SELECT id, c FROM t ORDER BY 3"), "error 1054");
}

TEST_F(RowPipelineTest, AggregatesAndGroups) {
  EXPECT_EQ(Run("SELECT COUNT(*), COUNT(k), SUM(k), MIN(c), MAX(k), AVG(k) FROM t"),
            "5,4,70,a,30,17.5000");
  EXPECT_EQ(Run("SELECT COUNT(*), SUM(k) FROM t WHERE id > 100"), "0,NULL");
  EXPECT_EQ(Run("SELECT COUNT(DISTINCT k) FROM t"), "3");
  EXPECT_EQ(Run("SELECT c, COUNT(*) AS n FROM t GROUP BY c ORDER BY c"), "a,2;b,2;c,1");
  EXPECT_EQ(Run("SELECT c, SUM(k) AS s FROM t GROUP BY c HAVING s > 25 ORDER BY s DESC"),
            "b,40;a,30");
  EXPECT_EQ(Run("SELECT k FROM t GROUP BY k HAVING COUNT(*) > 1"), "10");
}

// ONLY_FULL_GROUP_BY, in MySQL 8.0's default sql_mode: its errors word for word (MariaDB's
// differ), and the old behaviour once the mode is off.
TEST_F(RowPipelineTest, OnlyFullGroupBy) {
  table_ = "t";
  full_errors_ = true;
  const std::string not_grouped =
      " is not in GROUP BY clause and contains nonaggregated column 'db.t.id' which is not "
      "functionally dependent on columns in GROUP BY clause; this is incompatible with "
      "sql_mode=only_full_group_by";
  EXPECT_EQ(Run("SELECT k, id FROM t GROUP BY k"),
            "error 1055 Expression #2 of SELECT list" + not_grouped);
  EXPECT_EQ(Run("SELECT * FROM t GROUP BY k"),
            "error 1055 Expression #1 of SELECT list" + not_grouped);
  EXPECT_EQ(Run("SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY c, id"),
            "error 1055 Expression #1 of ORDER BY clause is not in GROUP BY clause and contains "
            "nonaggregated column 'db.t.c' which is not functionally dependent on columns in "
            "GROUP BY clause; this is incompatible with sql_mode=only_full_group_by");
  EXPECT_EQ(Run("SELECT k FROM t GROUP BY k HAVING id > 1"),
            "error 1055 Expression #1 of HAVING clause" + not_grouped);
  EXPECT_EQ(Run("SELECT k + 1, id + COUNT(*) FROM t GROUP BY k + 1"),
            "error 1055 Expression #2 of SELECT list" + not_grouped);
  EXPECT_EQ(Run("SELECT c, COUNT(*) FROM t"),
            "error 1140 In aggregated query without GROUP BY, expression #1 of SELECT list "
            "contains nonaggregated column 'db.t.c'; this is incompatible with "
            "sql_mode=only_full_group_by");
  EXPECT_EQ(Run("SELECT COUNT(*) FROM t HAVING id > 1"),
            "error 1140 In aggregated query without GROUP BY, expression #1 of HAVING clause "
            "contains nonaggregated column 'db.t.id'; this is incompatible with "
            "sql_mode=only_full_group_by");
  EXPECT_EQ(Run("SELECT id, SUM(k) OVER () FROM t GROUP BY id ORDER BY id"),
            "error 1055 Expression #2 of SELECT list is not in GROUP BY clause and contains "
            "nonaggregated column 'db.t.k' which is not functionally dependent on columns in "
            "GROUP BY clause; this is incompatible with sql_mode=only_full_group_by");
  // What is determined: grouped columns and expressions, aggregates, ANY_VALUE, aliases and
  // positions of the select list, columns equal to a grouped one or a constant in WHERE.
  EXPECT_EQ(Run("SELECT k, ANY_VALUE(id), COUNT(c) FROM t GROUP BY k ORDER BY k"),
            "NULL,3,1;10,1,2;20,2,1;30,5,1");
  EXPECT_EQ(Run("SELECT k + 1 AS x, MAX(id) AS m FROM t GROUP BY k + 1 HAVING m > 1 ORDER BY x, 2"),
            "NULL,3;11,4;21,2;31,5");
  EXPECT_EQ(Run("SELECT c AS x FROM t GROUP BY x ORDER BY x"), "a;b;c");
  EXPECT_EQ(Run("SELECT c, id FROM t WHERE id = k AND k = 10 GROUP BY c"), "");
  EXPECT_EQ(Run("SELECT id, c FROM t WHERE id = 2 GROUP BY c"), "2,a");
  EXPECT_EQ(Run("SELECT c, COUNT(*) FROM t WHERE c = 'a'"), "a,2");
  // A column equal to a constant expression, a variable or an expression of determined
  // columns is determined too (MySQL's Group_check::is_in_fd); a random value or an
  // undetermined column is not.
  EXPECT_EQ(Run("SELECT id, c FROM t WHERE id = 1 + 1 GROUP BY c"), "2,a");
  EXPECT_EQ(Run("SELECT id, c FROM t WHERE id = -1 GROUP BY c"), "");
  EXPECT_EQ(Run("SELECT c, COUNT(*) FROM t WHERE c = CONCAT('a', '')"), "a,2");
  state_.user_vars["v"] = int64_t{4};
  EXPECT_EQ(Run("SELECT id, c FROM t WHERE id = @v GROUP BY c"), "4,a");
  EXPECT_EQ(Run("SELECT k, id FROM t WHERE id = k / 10 GROUP BY k ORDER BY k"), "10,1;20,2");
  EXPECT_EQ(Run("SELECT id, c FROM t WHERE id = RAND() GROUP BY c"),
            "error 1055 Expression #1 of SELECT list" + not_grouped);
  EXPECT_EQ(Run("SELECT c, id FROM t WHERE id = k + 1 GROUP BY c"),
            "error 1055 Expression #2 of SELECT list" + not_grouped);
  EXPECT_EQ(Run("SELECT k, SUM(SUM(id)) OVER () FROM t GROUP BY k ORDER BY k"),
            "NULL,15;10,15;20,15;30,15");
  // WITH ROLLUP determines the grouped columns only.
  EXPECT_EQ(Run("SELECT k, id FROM t WHERE id = k GROUP BY k WITH ROLLUP"),
            "error 1055 Expression #2 of SELECT list" + not_grouped);
  SetSqlMode("");
  EXPECT_EQ(Run("SELECT k, id FROM t GROUP BY k ORDER BY k"), "NULL,3;10,1;20,2;30,5");
  EXPECT_EQ(Run("SELECT c, COUNT(*) FROM t"), "b,5");
}

TEST_F(RowPipelineTest, Distinct) {
  EXPECT_EQ(Run("SELECT DISTINCT c FROM t ORDER BY c"), "a;b;c");
  EXPECT_EQ(Run("SELECT DISTINCT k FROM t WHERE k IS NOT NULL ORDER BY k DESC"), "30;20;10");
}

TEST_F(RowPipelineTest, UnknownColumnsAreErrors) {
  EXPECT_EQ(Run("SELECT nope FROM t"), "error 1054");
  EXPECT_EQ(Run("SELECT id FROM t WHERE nope = 1"), "error 1054");
}

TEST(CompareValuesTest, MySqlOrder) {
  EXPECT_LT(CompareValues(Value{}, int64_t{-5}), 0);
  EXPECT_LT(CompareValues(int64_t{-5}, uint64_t{3}), 0);
  EXPECT_EQ(CompareValues(std::string("a"), std::string("a")), 0);
  EXPECT_GT(CompareValues(std::string("b"), std::string("a")), 0);
  EXPECT_LT(CompareValues(mysql::DateTime{2024, 2, 29}, mysql::DateTime{2024, 3, 1}), 0);
  EXPECT_LT(CompareValues(mysql::Decimal{"1.50"}, double{2}), 0);
}

}  // namespace
}  // namespace shoal::sql::internal

namespace shoal::sql::internal {
namespace {

TEST(RowsNeededTest, OnlyWhenTheRouterTakesRowsAsTheyCome) {
  SessionState state;
  auto needed = [&](const std::string& sql) {
    Statement stmt = std::get<Statement>(Parse(sql, ParseOptions{}));
    ExecContext ctx{&state, {}, absl::Now(), nullptr};
    return RowsNeeded(std::get<SelectStmt>(stmt.node), ctx);
  };
  EXPECT_EQ(needed("SELECT * FROM t LIMIT 10"), 10u);
  EXPECT_EQ(needed("SELECT c FROM t LIMIT 5, 10"), 15u);
  EXPECT_EQ(needed("SELECT c FROM t LIMIT 0"), 1u);
  EXPECT_EQ(needed("SELECT c FROM t"), 0u);
  EXPECT_EQ(needed("SELECT c FROM t WHERE k = 1 LIMIT 10"), 0u);
  EXPECT_EQ(needed("SELECT c FROM t ORDER BY c LIMIT 10"), 0u);
  EXPECT_EQ(needed("SELECT DISTINCT c FROM t LIMIT 10"), 0u);
  EXPECT_EQ(needed("SELECT COUNT(*) FROM t LIMIT 10"), 0u);
}

}  // namespace
}  // namespace shoal::sql::internal
