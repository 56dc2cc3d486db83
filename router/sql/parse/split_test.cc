#include "router/sql/parse/split.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace shoal::sql {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(SplitTest, Basic) {
  EXPECT_THAT(SplitStatements("SELECT 1; SELECT 2"), ElementsAre("SELECT 1", "SELECT 2"));
  EXPECT_THAT(SplitStatements("SELECT 1;"), ElementsAre("SELECT 1"));
  EXPECT_THAT(SplitStatements("SELECT 1 ;  \n "), ElementsAre("SELECT 1"));
  EXPECT_THAT(SplitStatements("SELECT 1; -- trailing comment"), ElementsAre("SELECT 1"));
  EXPECT_THAT(SplitStatements("SELECT 1"), ElementsAre("SELECT 1"));
}

TEST(SplitTest, QuotesAndComments) {
  EXPECT_THAT(SplitStatements("SELECT ';'; SELECT `a;b`; SELECT \";\""),
              ElementsAre("SELECT ';'", "SELECT `a;b`", "SELECT \";\""));
  EXPECT_THAT(SplitStatements("SELECT 1 /* ; */; SELECT 2 # ;\n; SELECT 3"),
              ElementsAre("SELECT 1 /* ; */", "SELECT 2 # ;", "SELECT 3"));
  EXPECT_THAT(SplitStatements("SELECT 'it\\'s;'; SELECT 2"),
              ElementsAre("SELECT 'it\\'s;'", "SELECT 2"));
}

TEST(SplitTest, EmptyPieces) {
  EXPECT_THAT(SplitStatements(""), ElementsAre(""));
  EXPECT_THAT(SplitStatements("SELECT 1;;SELECT 2"), ElementsAre("SELECT 1", "", "SELECT 2"));
  EXPECT_THAT(SplitStatements("/* only */"), ElementsAre("/* only */"));
}

TEST(SplitTest, Unterminated) {
  EXPECT_THAT(SplitStatements("SELECT 1; SELECT 'x; SELECT 3"),
              ElementsAre("SELECT 1", "SELECT 'x; SELECT 3"));
}

}  // namespace
}  // namespace shoal::sql
