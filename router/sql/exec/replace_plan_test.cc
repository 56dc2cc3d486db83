// ReplacePlanner: the deletes and writes a REPLACE amounts to, given what its rows' keys hold.
#include "router/sql/exec/replace_plan.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/schema/row.h"
#include "router/sql/exec/table_spec.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

schema::TableDef MustBuild(absl::string_view sql) {
  auto parsed = Parse(sql, ParseOptions{});
  if (auto* err = std::get_if<mysql::SqlError>(&parsed)) {
    ADD_FAILURE() << sql << ": " << err->message;
    return {};
  }
  Statement s = std::get<Statement>(std::move(parsed));
  auto built = TableDefFromSpec(std::get<CreateTableStmt>(std::move(s.node)), "db");
  if (auto* err = std::get_if<mysql::SqlError>(&built)) {
    ADD_FAILURE() << sql << ": " << err->message;
    return {};
  }
  return std::get<schema::TableDef>(std::move(built));
}

// t (id INT PRIMARY KEY, a VARCHAR UNIQUE, b INT UNIQUE, v INT); nullopt is NULL.
class ReplacePlanTest : public ::testing::Test {
 protected:
  std::string Row(int id, std::optional<std::string> a, std::optional<int> b, int v) {
    schema::RowWriter w;
    w.BeginRow(4);
    w.Int(table_.columns[0], id);
    if (a) {
      w.Bytes(*a);
    } else {
      w.Null();
    }
    if (b) {
      w.Int(table_.columns[2], *b);
    } else {
      w.Null();
    }
    w.Int(table_.columns[3], v);
    return std::string(w.view());
  }

  // The steps as text: "-<id>" a delete, "+<id>" a write, "+<id>/<before's id>" one that
  // replaces.
  std::string Plan(ReplacePlanner* planner, const std::vector<std::string>& rows) {
    std::vector<ReplaceStep> steps;
    for (const std::string& row : rows) planner->Add(row, &steps);
    std::string out;
    for (const ReplaceStep& step : steps) {
      if (!out.empty()) out += " ";
      const bool del = step.kind == ReplaceStep::Kind::kDelete;
      absl::StrAppend(&out, del ? "-" : "+", IdOf(step.row));
      if (step.before) absl::StrAppend(&out, "/", IdOf(*step.before), ",v", VOf(*step.before));
    }
    return out;
  }

  int64_t IdOf(const std::string& row) { return FieldOf(row, 0); }
  int64_t VOf(const std::string& row) { return FieldOf(row, 3); }
  int64_t FieldOf(const std::string& row, int c) {
    std::vector<uint16_t> all = {0, 1, 2, 3};
    schema::Field fields[4];
    size_t used = 0;
    EXPECT_TRUE(schema::SplitRow(table_, all, row, fields, &used));
    return schema::FieldInt(table_.columns[c], fields[c].bytes);
  }

  schema::TableDef table_ = MustBuild(
      "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), b INT, v INT, UNIQUE KEY(a), "
      "UNIQUE KEY(b))");
};

TEST_F(ReplacePlanTest, KnowsTheUniqueIndexes) {
  EXPECT_TRUE(HasUniqueSecondaryIndex(table_));
  EXPECT_EQ(ReplacePlanner(table_).unique_indexes(), (std::vector<int>{1, 2}));
  EXPECT_FALSE(HasUniqueSecondaryIndex(MustBuild("CREATE TABLE p (id INT PRIMARY KEY, k INT)")));
  EXPECT_FALSE(
      HasUniqueSecondaryIndex(MustBuild("CREATE TABLE p (id INT PRIMARY KEY, k INT, KEY(k))")));
}

TEST_F(ReplacePlanTest, NothingThereIsAnInsert) {
  ReplacePlanner planner(table_);
  EXPECT_EQ(Plan(&planner, {Row(1, "x", 1, 0)}), "+1");
}

TEST_F(ReplacePlanTest, PrimaryKeyCollisionIsAReplacingWrite) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(1, "x", 1, 7));
  EXPECT_EQ(Plan(&planner, {Row(1, "x", 1, 0)}), "+1/1,v7");
}

TEST_F(ReplacePlanTest, UniqueKeyCollisionDeletesTheOtherRow) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(2, "b", 20, 2));
  EXPECT_EQ(Plan(&planner, {Row(3, "b", 30, 99)}), "-2 +3");
}

TEST_F(ReplacePlanTest, OneRowMayTakeThePlaceOfThree) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(1, "x", 10, 1));
  planner.Stored(Row(2, "a", 20, 2));
  planner.Stored(Row(3, "c", 30, 3));
  planner.Stored(Row(2, "a", 20, 2));  // found by two keys: noted once
  EXPECT_EQ(Plan(&planner, {Row(1, "a", 30, 0)}), "-2 -3 +1/1,v1");
}

TEST_F(ReplacePlanTest, OneRowHoldingBothKeysIsDeletedOnce) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(2, "a", 20, 2));
  EXPECT_EQ(Plan(&planner, {Row(5, "a", 20, 0)}), "-2 +5");
}

TEST_F(ReplacePlanTest, NullsCollideWithNothing) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(2, std::nullopt, std::nullopt, 2));
  EXPECT_EQ(Plan(&planner, {Row(5, std::nullopt, std::nullopt, 0)}), "+5");
}

TEST_F(ReplacePlanTest, CaseInsensitiveKeysCollide) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(2, "Abc", 20, 2));
  EXPECT_EQ(Plan(&planner, {Row(5, "aBC", 50, 0)}), "-2 +5");
}

TEST_F(ReplacePlanTest, RowsOfOneStatementReplaceEachOther) {
  ReplacePlanner planner(table_);
  // The second row takes the first one's key; the third the second's primary key.
  EXPECT_EQ(Plan(&planner, {Row(1, "a", 1, 0), Row(2, "a", 2, 0), Row(2, "z", 3, 5)}),
            "+1 -1 +2 +2/2,v0");
}

TEST_F(ReplacePlanTest, AKeyAReplacedRowGaveUpIsFree) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(1, "x", 10, 1));
  // Row 1 moves from "x" to "y": a later row may take "x" without deleting row 1.
  EXPECT_EQ(Plan(&planner, {Row(1, "y", 10, 2), Row(7, "x", 70, 0)}), "+1/1,v1 +7");
}

TEST_F(ReplacePlanTest, ADeletedRowIsNotDeletedAgain) {
  ReplacePlanner planner(table_);
  planner.Stored(Row(2, "b", 20, 2));
  EXPECT_EQ(Plan(&planner, {Row(3, "b", 30, 0), Row(4, "q", 20, 0)}), "-2 +3 +4");
}

}  // namespace
}  // namespace shoal::sql::internal
