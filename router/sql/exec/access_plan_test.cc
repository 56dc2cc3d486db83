#include "router/sql/exec/access_plan.h"

#include <gtest/gtest.h>

#include "engine/schema/program.h"
#include "router/sql/eval/field_codec.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql::internal {
namespace {

// t(id INT PRIMARY KEY, k INT, c VARCHAR(20), KEY k_1 (k))
schema::TableDef Table() {
  schema::TableDef t;
  t.database = "db";
  t.name = "t";
  schema::ColumnDef id;
  id.name = "id";
  id.type = schema::ColumnType::kInt;
  id.nullable = false;
  schema::ColumnDef k = id;
  k.name = "k";
  k.nullable = true;
  schema::ColumnDef c;
  c.name = "c";
  c.type = schema::ColumnType::kVarChar;
  c.length = 20;
  t.columns = {id, k, c};
  t.indexes = {{"PRIMARY", {0}, true, true}, {"k_1", {1}, false, false}};
  t.partitions = 4;
  return t;
}

class AccessPlanTest : public ::testing::Test {
 protected:
  AccessPlan Plan(const std::string& where, std::vector<mysql::Value> params = {}) {
    ParseOptions options;
    options.params = ParamMode::kAllowed;
    auto parsed = Parse("SELECT * FROM t WHERE " + where, options);
    EXPECT_TRUE(std::holds_alternative<Statement>(parsed)) << where;
    stmt_ = std::get<Statement>(std::move(parsed));
    params_ = std::move(params);
    ExecContext ctx{&state_, params_, absl::Now(), nullptr};
    return PlanAccess(table_, std::get<SelectStmt>(stmt_.node).where.get(), ctx);
  }
  std::string Key(int64_t v) { return std::get<std::string>(EncodeField(table_.columns[0], v, 1)); }
  std::string K(int64_t v) { return std::get<std::string>(EncodeField(table_.columns[1], v, 1)); }

  schema::TableDef table_ = Table();
  SessionState state_;
  Statement stmt_;
  std::vector<mysql::Value> params_;
};

TEST_F(AccessPlanTest, PrimaryKeyEqualityIsOneKeyLookup) {
  AccessPlan p = Plan("id = 5");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kKeyLookup);
  EXPECT_EQ(p.keys, std::vector<std::string>{Key(5)});
  p = Plan("? = id AND c = 'x'", {int64_t{7}});
  EXPECT_EQ(p.kind, AccessPlan::Kind::kKeyLookup);
  EXPECT_EQ(p.keys, std::vector<std::string>{Key(7)});
  EXPECT_EQ(Plan("id = NULL").kind, AccessPlan::Kind::kNothing);
}

TEST_F(AccessPlanTest, KeyListIsBatchedLookups) {
  AccessPlan p = Plan("id IN (1, 2, NULL, 3)");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kBatchedLookup);
  EXPECT_EQ(p.keys, (std::vector<std::string>{Key(1), Key(2), Key(3)}));
  // A key listed twice is read once (MySQL returns its row once).
  EXPECT_EQ(Plan("id IN (2, 1, 2)").keys, (std::vector<std::string>{Key(2), Key(1)}));
}

TEST_F(AccessPlanTest, RangesOnOrderedIndexes) {
  AccessPlan p = Plan("id BETWEEN ? AND ?", {int64_t{10}, int64_t{20}});
  EXPECT_EQ(p.kind, AccessPlan::Kind::kIndexRange);
  EXPECT_EQ(p.index, 0);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].lower, Key(10));
  EXPECT_EQ(p.ranges[0].upper, Key(20));

  p = Plan("k >= 3 AND k < 9");
  EXPECT_EQ(p.index, 1);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].lower, K(3));
  EXPECT_EQ(p.ranges[0].upper, K(9));  // inclusive: WHERE removes the edge

  p = Plan("k > 100");
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].lower, K(100));
  EXPECT_EQ(p.ranges[0].upper, "");
}

TEST_F(AccessPlanTest, DisjunctionsBecomeMergedRanges) {
  // Overlapping ranges merge; disjoint ones stay apart, in order.
  AccessPlan p = Plan("k BETWEEN 50 AND 60 OR k BETWEEN 1 AND 10 OR k BETWEEN 5 AND 20 OR k = 40");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kIndexRange);
  EXPECT_EQ(p.index, 1);
  ASSERT_EQ(p.ranges.size(), 3u);
  EXPECT_EQ(p.ranges[0].lower, K(1));
  EXPECT_EQ(p.ranges[0].upper, K(20));
  EXPECT_EQ(p.ranges[1].lower, K(40));
  EXPECT_EQ(p.ranges[1].upper, K(40));
  EXPECT_EQ(p.ranges[2].lower, K(50));
  EXPECT_EQ(p.ranges[2].upper, K(60));
  p = Plan("k IN (3, 1, 2)");
  EXPECT_EQ(p.ranges.size(), 3u);
  EXPECT_EQ(p.ranges[0].lower, K(1));
}

TEST_F(AccessPlanTest, WhatCannotBoundIsAFullScan) {
  EXPECT_EQ(Plan("c = 'x'").kind, AccessPlan::Kind::kFullScan);
  EXPECT_EQ(Plan("k = 1 OR c = 'x'").kind, AccessPlan::Kind::kFullScan);
  EXPECT_EQ(Plan("id + 1 = 5").kind, AccessPlan::Kind::kFullScan);
  // A value that does not convert exactly is not used as a bound: '5abc' compares as 5 in
  // MySQL, and 1.5 rounds; the router's WHERE check then decides.
  EXPECT_EQ(Plan("id = '5abc'").kind, AccessPlan::Kind::kFullScan);
  EXPECT_EQ(Plan("id = 1.5").kind, AccessPlan::Kind::kFullScan);
  EXPECT_EQ(Plan("id = 99999999999").kind, AccessPlan::Kind::kFullScan);
  EXPECT_EQ(Plan("NOT id BETWEEN 1 AND 2").kind, AccessPlan::Kind::kFullScan);
}

}  // namespace
}  // namespace shoal::sql::internal

namespace shoal::sql::internal {
namespace {

TEST_F(AccessPlanTest, PushedFilterKeepsWhatTheDataNodeComparesExactly) {
  auto filter = [&](const std::string& where) {
    ParseOptions options;
    stmt_ = std::get<Statement>(Parse("SELECT * FROM t WHERE " + where, options));
    ExecContext ctx{&state_, {}, absl::Now(), nullptr};
    return PushedFilter(table_, std::get<SelectStmt>(stmt_.node).where.get(), ctx);
  };
  // k > 5 and k IS NOT NULL go down; the string comparison stays in the router.
  std::string f = filter("k > 5 AND c = 'x' AND 7 >= k AND k IS NOT NULL");
  schema::FilterBuilder expected;
  expected.And(3)
      .CompareBytes(table_.columns[1], 1, schema::CompareOp::kGt, K(5))
      .CompareBytes(table_.columns[1], 1, schema::CompareOp::kLe, K(7))
      .IsNull(1, false);
  EXPECT_EQ(f, expected.bytes());
  EXPECT_TRUE(schema::ValidateFilter(table_, f).ok());
  EXPECT_EQ(filter("c = 'x'"), "");
  EXPECT_EQ(filter("k > 5 OR id = 1"), "");  // only whole conjuncts
  EXPECT_EQ(filter("k = 99999999999"), "");  // not a value k can hold: the router decides
  EXPECT_EQ(filter("k = 1.5"), "");
  // [NOT] LIKE on a text column with a plain string pattern goes down as the pattern's form
  // (the data node matches the column's form: engine/schema/program.h).
  table_.columns[2].collation = schema::Collation::kCaseInsensitive;
  schema::FilterBuilder like;
  like.And(2)
      .Like(table_.columns[2], 2, false, "Jos\xC3\xA9%")
      .Like(table_.columns[2], 2, true, "%x");
  bool whole = false;
  ParseOptions options;
  stmt_ = std::get<Statement>(
      Parse("SELECT * FROM t WHERE c LIKE 'Jos\xC3\xA9%' AND c NOT LIKE '%x'", options));
  ExecContext ctx{&state_, {}, absl::Now(), nullptr};
  EXPECT_EQ(PushedFilter(table_, std::get<SelectStmt>(stmt_.node).where.get(), ctx, &whole),
            like.bytes());
  EXPECT_TRUE(whole);
  EXPECT_NE(like.bytes().find("jose%"), std::string::npos);
  // Not: another escape, a binary pattern, a pattern computed, a column that is not text.
  EXPECT_EQ(filter("c LIKE 'a|%' ESCAPE '|'"), "");
  EXPECT_EQ(filter("c LIKE _binary 'a%'"), "");
  EXPECT_EQ(filter("c LIKE CONCAT('a', '%')"), "");
  EXPECT_EQ(filter("k LIKE '1%'"), "");
}

}  // namespace
}  // namespace shoal::sql::internal

namespace shoal::sql::internal {
namespace {

// A plan is exact — no row needs the WHERE checked again — only when the whole WHERE became
// integer keys or closed integer ranges.
TEST_F(AccessPlanTest, ExactOnlyWhenTheWholeWhereBecameIntegerKeysOrRanges) {
  EXPECT_TRUE(Plan("id = 5").exact);
  EXPECT_FALSE(Plan("id = 5 AND c = 'x'").exact);
  EXPECT_TRUE(Plan("id IN (1, 2, 3)").exact);
  EXPECT_FALSE(Plan("id IN (1, 2) AND k > 0").exact);
  EXPECT_TRUE(Plan("k BETWEEN 1 AND 5 OR k BETWEEN 10 AND 12 OR k = 20").exact);
  EXPECT_FALSE(Plan("k BETWEEN 1 AND 5 OR c = 'x'").exact);
  EXPECT_FALSE(Plan("k > 1 AND k < 5").exact);  // bounds kept inclusive: the edges are checked
  EXPECT_FALSE(Plan("(k BETWEEN 1 AND 5) AND id > 2").exact);
  EXPECT_FALSE(Plan("c = 'x'").exact);
}

}  // namespace
}  // namespace shoal::sql::internal

namespace shoal::sql::internal {
namespace {

// o(customer_id INT, line INT, note VARCHAR(20), qty INT, PRIMARY KEY (customer_id, line),
//   KEY q (qty))
schema::TableDef CompositeKeyTable() {
  schema::TableDef t = Table();
  t.name = "o";
  t.columns[0].name = "customer_id";
  t.columns[1].name = "line";
  t.columns[1].nullable = false;
  t.columns[2].name = "note";
  schema::ColumnDef qty = t.columns[0];
  qty.name = "qty";
  qty.nullable = true;
  t.columns.push_back(qty);
  t.indexes = {{"PRIMARY", {0, 1}, true, true}, {"q", {3}, false, false}};
  return t;
}

class CompositeKeyPlanTest : public AccessPlanTest {
 protected:
  CompositeKeyPlanTest() { table_ = CompositeKeyTable(); }
  std::string Key(int64_t customer, int64_t line) {
    return std::get<std::string>(EncodeField(table_.columns[0], customer, 1)) +
           std::get<std::string>(EncodeField(table_.columns[1], line, 1));
  }
  std::string Q(int64_t v) { return std::get<std::string>(EncodeField(table_.columns[3], v, 1)); }
  bool KeyOnly(const std::string& where) {
    AccessPlan p = Plan(where);
    return WhereIsKeyOnly(table_, std::get<SelectStmt>(stmt_.node).where.get(), p);
  }
};

TEST_F(CompositeKeyPlanTest, RowInOnTheWholeKeyIsBatchedLookups) {
  // In either column order; a row listed twice is read once, one with a NULL key part never.
  AccessPlan p = Plan("(customer_id, line) IN ((1, 2), (3, 4), (1, 2), (5, NULL))");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kBatchedLookup);
  EXPECT_EQ(p.keys, (std::vector<std::string>{Key(1, 2), Key(3, 4)}));
  EXPECT_TRUE(p.exact);
  p = Plan("(line, customer_id) IN ((2, 1), ROW(?, ?))", {int64_t{4}, int64_t{3}});
  EXPECT_EQ(p.keys, (std::vector<std::string>{Key(1, 2), Key(3, 4)}));
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(Plan("(customer_id, line) IN ((NULL, 1), (1, NULL))").kind, AccessPlan::Kind::kNothing);
  // More than the key, or more than the IN: the keys are read, the WHERE checked again.
  p = Plan("(customer_id, qty, line) IN ((1, 7, 2))");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kBatchedLookup);
  EXPECT_EQ(p.keys, std::vector<std::string>{Key(1, 2)});
  EXPECT_FALSE(p.exact);
  EXPECT_FALSE(Plan("(customer_id, line) IN ((1, 2)) AND qty > 0").exact);
  EXPECT_FALSE(Plan("(customer_id, line) IN (('a', 2))").kind == AccessPlan::Kind::kBatchedLookup);
  EXPECT_EQ(Plan("(customer_id, line) NOT IN ((1, 2))").kind, AccessPlan::Kind::kFullScan);
}

TEST_F(CompositeKeyPlanTest, RowEqualityOnTheKeyIsOneLookup) {
  AccessPlan p = Plan("(line, customer_id) = (2, 1)");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kKeyLookup);
  EXPECT_EQ(p.keys, std::vector<std::string>{Key(1, 2)});
  EXPECT_TRUE(p.exact);
  p = Plan("ROW(customer_id, 2) = (1, line)");
  EXPECT_EQ(p.keys, std::vector<std::string>{Key(1, 2)});
  EXPECT_TRUE(p.exact);
  p = Plan("(customer_id, qty) = (1, 5) AND line = 2");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kKeyLookup);
  EXPECT_FALSE(p.exact);
  EXPECT_EQ(Plan("(customer_id, line) = (1, NULL)").kind, AccessPlan::Kind::kNothing);
  EXPECT_EQ(Plan("(customer_id, line) <=> (1, 2)").kind, AccessPlan::Kind::kFullScan);
}

TEST_F(CompositeKeyPlanTest, RowsOnLeadingColumnsBecomeRanges) {
  // The key's first column bounds a range; the rest is the WHERE check's.
  AccessPlan p = Plan("(customer_id, note) IN ((3, 'a'), (1, 'b'))");
  EXPECT_EQ(p.kind, AccessPlan::Kind::kIndexRange);
  EXPECT_EQ(p.index, 0);
  ASSERT_EQ(p.ranges.size(), 2u);
  EXPECT_EQ(p.ranges[0].lower, std::get<std::string>(EncodeField(table_.columns[0], 1, 1)));
  EXPECT_FALSE(p.exact);
  p = Plan("(qty, note) = (7, 'x')");
  EXPECT_EQ(p.index, 1);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].lower, Q(7));
  EXPECT_EQ(p.ranges[0].upper, Q(7));
  EXPECT_FALSE(p.exact);
  p = Plan("(qty, line) < (9, 1)");
  EXPECT_EQ(p.index, 1);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0].lower, "");
  EXPECT_EQ(p.ranges[0].upper, Q(9));  // inclusive: (9, 0) is below (9, 1)
  EXPECT_EQ(Plan("(note, line) = ('x', 1)").kind, AccessPlan::Kind::kFullScan);
}

TEST_F(CompositeKeyPlanTest, KeyRowsModifyDirectly) {
  EXPECT_TRUE(KeyOnly("(customer_id, line) IN ((1, 2), (3, 4))"));
  EXPECT_TRUE(KeyOnly("(line, customer_id) = (2, 1)"));
  EXPECT_TRUE(KeyOnly("customer_id = 1 AND line = 2"));
  EXPECT_FALSE(KeyOnly("(customer_id, line) IN ((1, 2)) AND qty = 1"));
  EXPECT_FALSE(KeyOnly("(customer_id, qty, line) IN ((1, 7, 2))"));
  EXPECT_FALSE(KeyOnly("(customer_id, line) = (1, 2) AND customer_id = 1"));
}

TEST_F(CompositeKeyPlanTest, RowsAreNotPushedDown) {
  ParseOptions options;
  stmt_ = std::get<Statement>(
      Parse("SELECT * FROM o WHERE (qty, line) = (1, 2) AND qty IN ((1, 2))", options));
  ExecContext ctx{&state_, {}, absl::Now(), nullptr};
  bool whole = true;
  EXPECT_EQ(PushedFilter(table_, std::get<SelectStmt>(stmt_.node).where.get(), ctx, &whole), "");
  EXPECT_FALSE(whole);
}

}  // namespace
}  // namespace shoal::sql::internal
