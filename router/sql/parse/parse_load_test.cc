// LOAD DATA's grammar: every clause, in MySQL's order, and what is refused.
#include <gtest/gtest.h>

#include "router/sql/parse/parser.h"
#include "router/sql/parse/parser_test_util.h"

namespace shoal::sql {
namespace {

using testing::MustFail;
using testing::NotYet;

LoadDataStmt Get(absl::string_view sql) { return testing::MustParseAs<LoadDataStmt>(sql); }

TEST(ParseLoadTest, Defaults) {
  LoadDataStmt s = Get("LOAD DATA LOCAL INFILE 'rows.tsv' INTO TABLE t");
  EXPECT_TRUE(s.local);
  EXPECT_FALSE(s.replace);
  EXPECT_FALSE(s.ignore);
  EXPECT_EQ(s.file, "rows.tsv");
  EXPECT_EQ(s.table.name, "t");
  EXPECT_EQ(s.field_terminator, "\t");
  EXPECT_EQ(s.enclosure, "");
  EXPECT_EQ(s.escape, "\\");
  EXPECT_EQ(s.line_terminator, "\n");
  EXPECT_EQ(s.ignore_lines, 0u);
  EXPECT_TRUE(s.targets.empty());
}

TEST(ParseLoadTest, EveryClause) {
  LoadDataStmt s =
      Get("LOAD DATA LOW_PRIORITY LOCAL INFILE '/tmp/x.csv' REPLACE INTO TABLE db.t "
          "CHARACTER SET utf8mb4 COLUMNS ESCAPED BY '' OPTIONALLY ENCLOSED BY '\"' "
          "TERMINATED BY ',' LINES STARTING BY 'x' TERMINATED BY '\\r\\n' IGNORE 1 ROWS "
          "(a, @v, `b c`) SET d = @v + 1, e = DEFAULT");
  EXPECT_TRUE(s.replace);
  EXPECT_EQ(s.table.database, "db");
  EXPECT_EQ(s.charset, "utf8mb4");
  EXPECT_EQ(s.field_terminator, ",");
  EXPECT_EQ(s.enclosure, "\"");
  EXPECT_TRUE(s.optionally_enclosed);
  EXPECT_EQ(s.escape, "");
  EXPECT_EQ(s.line_starting, "x");
  EXPECT_EQ(s.line_terminator, "\r\n");
  EXPECT_EQ(s.ignore_lines, 1u);
  ASSERT_EQ(s.targets.size(), 3u);
  EXPECT_FALSE(s.targets[0].user_var);
  EXPECT_TRUE(s.targets[1].user_var);
  EXPECT_EQ(s.targets[1].name, "v");
  EXPECT_EQ(s.targets[2].name, "b c");
  ASSERT_EQ(s.set.size(), 2u);
  EXPECT_EQ(s.set[1].value->kind, ExprKind::kDefault);
}

TEST(ParseLoadTest, IgnoreAndServerSide) {
  LoadDataStmt s =
      Get("LOAD DATA CONCURRENT INFILE 'f' IGNORE INTO TABLE t FIELDS TERMINATED BY X'2C'");
  EXPECT_FALSE(s.local);
  EXPECT_TRUE(s.ignore);
  EXPECT_EQ(s.field_terminator, ",");
}

TEST(ParseLoadTest, Refused) {
  EXPECT_EQ(MustFail("LOAD XML LOCAL INFILE 'f' INTO TABLE t").message, NotYet("LOAD XML"));
  EXPECT_EQ(MustFail("LOAD DATA LOCAL INFILE 'f' INTO TABLE t PARTITION (p0)").message,
            NotYet("PARTITION"));
  EXPECT_EQ(MustFail("LOAD DATA LOCAL INFILE f INTO TABLE t").code, 1064);
  EXPECT_EQ(MustFail("LOAD DATA LOCAL INFILE 'f' INTO TABLE t FIELDS").code, 1064);
  EXPECT_EQ(MustFail("LOAD DATA LOCAL INFILE 'f' INTO TABLE t IGNORE x LINES").code, 1064);
}

}  // namespace
}  // namespace shoal::sql
