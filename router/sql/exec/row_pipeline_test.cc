#include "router/sql/exec/row_pipeline.h"

#include <gtest/gtest.h>

#include "router/sql/eval/result_columns.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

using mysql::Value;

// Rows of (id INT, k INT NULL, c VARCHAR) as the data nodes would return them.
FetchedRows Rows() {
  FetchedRows f;
  f.columns = {Named(IntColumn(11, false, Nullability::kNotNull, mysql::ColumnType::kLong), "id"),
               Named(IntColumn(11, false, Nullability::kNullable, mysql::ColumnType::kLong), "k"),
               Named(StringColumn(20, SessionState{}, Nullability::kNullable), "c")};
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
    StatementResult r = FinishSelect(std::get<SelectStmt>(stmt_.node), Rows(), ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&r)) return "error " + std::to_string(err->code);
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

  SessionState state_;
  Statement stmt_;
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
  EXPECT_EQ(Run("SELECT k, id FROM t GROUP BY k ORDER BY k"), "NULL,3;10,1;20,2;30,5");
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
