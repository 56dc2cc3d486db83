// Partition scans: bounds, direction, resume tokens, duplicates in non-unique indexes,
// filters, limits, NULLs.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/storage/partition.h"
#include "engine/storage/storage_test_util.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

using testing::IntKey;
using testing::PackRow;
using testing::Value;

constexpr int kRows = 1000;

class ScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Insert in a scrambled order; u is NULL for every seventh row.
    for (int i = 0; i < kRows; ++i) {
      int id = (i * 389) % kRows;
      std::optional<int> u;
      if (id % 7 != 0) u = kRows - id;
      ASSERT_EQ(
          p_.Insert(kAutocommit, PackRow(t_, {id, id % 10, "c" + std::to_string(id), u})).code,
          OpCode::kOk);
    }
  }

  // Runs a scan to the end in batches of `batch_rows`; returns the ids.
  std::vector<int> Run(ScanSpec spec, uint32_t batch_rows = 0) {
    spec.columns = testing::AllColumns();
    spec.max_rows = batch_rows;
    std::vector<int> ids;
    std::string token;
    for (int batches = 0; batches < 100000; ++batches) {
      spec.resume_after = token;
      schema::RowWriter w;
      ScanBatch b = p_.Scan(spec, &w);
      EXPECT_EQ(b.result.code, OpCode::kOk);
      std::vector<Value> rows = testing::ParseRows(t_, w.view());
      EXPECT_EQ(rows.size(), b.rows);
      for (const Value& v : rows) ids.push_back(v.id);
      if (b.done) break;
      token = b.resume_after;
    }
    return ids;
  }
  static std::vector<int> Range(int from, int to) {  // [from, to)
    std::vector<int> v;
    for (int i = from; i < to; ++i) v.push_back(i);
    return v;
  }
  static std::vector<int> Reversed(std::vector<int> v) {
    std::reverse(v.begin(), v.end());
    return v;
  }

  schema::TableDef t_ = testing::MakeTable();
  MemoryBudget budget_{64 << 20};
  Partition p_{&t_, &budget_};
};

TEST_F(ScanTest, FullScanBothDirections) {
  ScanSpec spec;
  EXPECT_EQ(Run(spec), Range(0, kRows));
  spec.descending = true;
  EXPECT_EQ(Run(spec), Reversed(Range(0, kRows)));
}

TEST_F(ScanTest, BoundsInclusiveAndExclusive) {
  std::string lo = IntKey(t_, 0, 100);
  std::string hi = IntKey(t_, 0, 200);
  for (bool desc : {false, true}) {
    for (bool lx : {false, true}) {
      for (bool ux : {false, true}) {
        ScanSpec spec;
        spec.lower = lo;
        spec.upper = hi;
        spec.lower_exclusive = lx;
        spec.upper_exclusive = ux;
        spec.descending = desc;
        std::vector<int> want = Range(lx ? 101 : 100, ux ? 200 : 201);
        if (desc) want = Reversed(want);
        EXPECT_EQ(Run(spec), want) << desc << lx << ux;
        EXPECT_EQ(Run(spec, 7), want) << desc << lx << ux;
      }
    }
  }
  ScanSpec only_upper;
  only_upper.upper = lo;
  EXPECT_EQ(Run(only_upper), Range(0, 101));
  ScanSpec only_lower;
  only_lower.lower = hi;
  only_lower.descending = true;
  EXPECT_EQ(Run(only_lower), Reversed(Range(200, kRows)));
  ScanSpec empty;
  empty.lower = hi;
  empty.upper = lo;
  EXPECT_EQ(Run(empty), std::vector<int>{});
}

TEST_F(ScanTest, ResumeAfterEveryRow) {
  ScanSpec spec;
  EXPECT_EQ(Run(spec, 1), Range(0, kRows));
  spec.descending = true;
  EXPECT_EQ(Run(spec, 1), Reversed(Range(0, kRows)));
  // Secondary index: ordered by k, then id.
  ScanSpec by_k;
  by_k.index = 1;
  std::vector<int> want;
  for (int k = 0; k < 10; ++k) {
    for (int id = k; id < kRows; id += 10) want.push_back(id);
  }
  EXPECT_EQ(Run(by_k), want);
  EXPECT_EQ(Run(by_k, 1), want);
  by_k.descending = true;
  EXPECT_EQ(Run(by_k, 1), Reversed(want));
}

TEST_F(ScanTest, ResumeSurvivesDeletedRow) {
  ScanSpec spec;
  spec.columns = testing::AllColumns();
  spec.max_rows = 10;
  schema::RowWriter w;
  ScanBatch b = p_.Scan(spec, &w);
  ASSERT_FALSE(b.done);
  ASSERT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 9)).code, OpCode::kOk);
  ASSERT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 10)).code, OpCode::kOk);
  spec.resume_after = b.resume_after;
  spec.max_rows = 2;
  w.Clear();
  b = p_.Scan(spec, &w);
  std::vector<Value> rows = testing::ParseRows(t_, w.view());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].id, 11);
  EXPECT_EQ(rows[1].id, 12);
}

TEST_F(ScanTest, NonUniqueIndexWithDuplicates) {
  std::string three = IntKey(t_, 1, 3);
  ScanSpec spec;
  spec.index = 1;
  spec.lower = three;
  spec.upper = three;
  std::vector<int> want;
  for (int id = 3; id < kRows; id += 10) want.push_back(id);
  EXPECT_EQ(Run(spec), want);
  EXPECT_EQ(Run(spec, 3), want);
  spec.descending = true;
  EXPECT_EQ(Run(spec, 3), Reversed(want));
  spec.lower_exclusive = true;
  EXPECT_EQ(Run(spec), std::vector<int>{});
}

TEST_F(ScanTest, FiltersAndLimits) {
  std::string filter =
      schema::FilterBuilder().CompareInt(t_.columns[1], 1, schema::CompareOp::kGe, 8).bytes();
  ScanSpec spec;
  spec.filter = filter;
  std::vector<int> want;
  for (int id = 0; id < kRows; ++id) {
    if (id % 10 >= 8) want.push_back(id);
  }
  EXPECT_EQ(Run(spec), want);
  EXPECT_EQ(Run(spec, 5), want);
  // max_examined bounds the work per batch even when nothing passes.
  spec.max_examined = 5;
  spec.columns = testing::AllColumns();
  schema::RowWriter w;
  ScanBatch b = p_.Scan(spec, &w);
  EXPECT_FALSE(b.done);
  EXPECT_EQ(b.rows, 0u);
  spec.resume_after = b.resume_after;
  b = p_.Scan(spec, &w);
  EXPECT_EQ(b.rows, 2u);  // ids 8 and 9
}

TEST_F(ScanTest, NullsInSecondaryIndex) {
  ScanSpec spec;
  spec.index = 2;  // u = kRows - id, NULL when id % 7 == 0
  std::vector<int> ids = Run(spec, 13);
  ASSERT_EQ(ids.size(), static_cast<size_t>(kRows));
  // NULLs first (in id order), then u ascending = id descending.
  std::vector<int> want;
  for (int id = 0; id < kRows; id += 7) want.push_back(id);
  for (int id = kRows - 1; id >= 0; --id) {
    if (id % 7 != 0) want.push_back(id);
  }
  EXPECT_EQ(ids, want);
  // A bound never matches NULL.
  std::string hi = IntKey(t_, 3, kRows - 990);  // u <= 10: ids 990..999
  spec.upper = hi;
  want.clear();
  for (int id = kRows - 1; id >= 990; --id) {
    if (id % 7 != 0) want.push_back(id);
  }
  EXPECT_EQ(Run(spec), want);
  spec.descending = true;
  EXPECT_EQ(Run(spec, 1), Reversed(want));
}

TEST_F(ScanTest, LockingScanStopsAtLockedRow) {
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 5), testing::SetK(t_, 5)).code, OpCode::kOk);
  ScanSpec spec;
  spec.columns = testing::AllColumns();
  spec.lock = LockMode::kExclusive;
  spec.txn = 8;
  schema::RowWriter w;
  ScanBatch b = p_.Scan(spec, &w);
  EXPECT_EQ(b.result.code, OpCode::kLocked);
  EXPECT_EQ(b.result.holder, 7u);
  EXPECT_EQ(b.rows, 5u);
  EXPECT_FALSE(b.done);
  EXPECT_EQ(p_.Update(7, IntKey(t_, 0, 4), testing::SetK(t_, 5)).code, OpCode::kLocked);
  p_.Commit(7);
  spec.resume_after = b.resume_after;
  spec.max_rows = 1;
  w.Clear();
  b = p_.Scan(spec, &w);
  EXPECT_EQ(b.result.code, OpCode::kOk);
  EXPECT_EQ(testing::ParseRows(t_, w.view()).at(0).id, 5);
  p_.Abort(8);
  EXPECT_FALSE(p_.HasTransaction(8));
}

TEST_F(ScanTest, BadRequests) {
  ScanSpec spec;
  spec.index = 9;
  schema::RowWriter w;
  EXPECT_EQ(p_.Scan(spec, &w).result.code, OpCode::kBadRequest);
  spec.index = 0;
  spec.resume_after = "x";
  EXPECT_EQ(p_.Scan(spec, &w).result.code, OpCode::kBadRequest);
  spec.resume_after = {};
  spec.lower = "abcdefgh";
  EXPECT_EQ(p_.Scan(spec, &w).result.code, OpCode::kBadRequest);
}

}  // namespace
}  // namespace shoal::storage
