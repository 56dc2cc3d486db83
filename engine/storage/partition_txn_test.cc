// Partition: locks, before-images, commit and abort (indexes included), SetTable.
#include <string>

#include "engine/storage/partition.h"
#include "engine/storage/storage_test_util.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

using testing::Get;
using testing::IntKey;
using testing::PackRow;
using testing::Value;

class TxnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(p_.Insert(kAutocommit, PackRow(t_, {1, 10, "one", 100})).code, OpCode::kOk);
    ASSERT_EQ(p_.Insert(kAutocommit, PackRow(t_, {2, 20, "two", 200})).code, OpCode::kOk);
  }
  std::optional<Value> ReadU(int u, TxnId txn = kAutocommit, LockMode lock = LockMode::kNone,
                             OpCode* code = nullptr) {
    schema::RowWriter w;
    OpResult r = p_.ReadUnique(txn, 2, IntKey(t_, 3, u), testing::AllColumns(), lock, &w);
    if (code != nullptr) *code = r.code;
    if (r.code != OpCode::kOk) return std::nullopt;
    return testing::ParseRows(t_, w.view()).at(0);
  }
  // Ids of the rows with k in [lo, hi] through index k_1, as `txn` sees them.
  std::vector<int> ScanK(int lo, int hi, TxnId txn = kAutocommit) {
    std::string lower = IntKey(t_, 1, lo);
    std::string upper = IntKey(t_, 1, hi);
    ScanSpec spec;
    spec.index = 1;
    spec.lower = lower;
    spec.upper = upper;
    spec.columns = testing::AllColumns();
    spec.txn = txn;
    schema::RowWriter w;
    ScanBatch b = p_.Scan(spec, &w);
    EXPECT_TRUE(b.done);
    std::vector<int> ids;
    for (const Value& v : testing::ParseRows(t_, w.view())) ids.push_back(v.id);
    return ids;
  }

  schema::TableDef t_ = testing::MakeTable();
  MemoryBudget budget_{64 << 20};
  Partition p_{&t_, &budget_};
};

TEST_F(TxnTest, WriterLocksAndReadersSeeCommittedRow) {
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetK(t_, 11)).code, OpCode::kOk);
  EXPECT_TRUE(p_.HasTransaction(7));
  EXPECT_EQ(Get(p_, t_, 1, 7)->k, 11);  // own write
  EXPECT_EQ(Get(p_, t_, 1, 8)->k, 10);  // committed read by another txn
  EXPECT_EQ(Get(p_, t_, 1)->k, 10);     // and by autocommit
  OpResult r = p_.Update(8, IntKey(t_, 0, 1), testing::SetK(t_, 12));
  EXPECT_EQ(r.code, OpCode::kLocked);
  EXPECT_EQ(r.holder, 7u);
  EXPECT_FALSE(p_.HasTransaction(8));
  EXPECT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 1)).code, OpCode::kLocked);
  EXPECT_EQ(p_.Write(kAutocommit, PackRow(t_, {1, 0, "", 0})).code, OpCode::kLocked);
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {1, 0, "", 0})).code, OpCode::kLocked);
  schema::RowWriter w;
  EXPECT_EQ(p_.Read(8, IntKey(t_, 0, 1), testing::AllColumns(), LockMode::kExclusive, &w).code,
            OpCode::kLocked);
  EXPECT_EQ(ScanK(0, 100, 8), (std::vector<int>{1, 2}));
  p_.Commit(7);
  EXPECT_FALSE(p_.HasTransaction(7));
  EXPECT_EQ(Get(p_, t_, 1, 8)->k, 11);
  EXPECT_EQ(p_.Update(8, IntKey(t_, 0, 1), testing::SetK(t_, 12)).code, OpCode::kOk);
  p_.Abort(8);
  EXPECT_EQ(Get(p_, t_, 1)->k, 11);
}

TEST_F(TxnTest, LockingReadHoldsRow) {
  EXPECT_EQ(Get(p_, t_, 1, 7, LockMode::kExclusive)->id, 1);
  EXPECT_TRUE(p_.HasTransaction(7));
  EXPECT_EQ(p_.Delete(8, IntKey(t_, 0, 1)).code, OpCode::kLocked);
  EXPECT_EQ(Get(p_, t_, 1, 8)->id, 1);
  OpCode code;
  EXPECT_FALSE(ReadU(100, 8, LockMode::kExclusive, &code));
  EXPECT_EQ(code, OpCode::kLocked);
  p_.Commit(7);
  EXPECT_EQ(p_.Delete(8, IntKey(t_, 0, 1)).code, OpCode::kOk);
  p_.Commit(8);
  EXPECT_EQ(p_.row_count(), 1u);
}

TEST_F(TxnTest, UncommittedInsertInvisibleAndDeleteStillVisible) {
  ASSERT_EQ(p_.Insert(7, PackRow(t_, {3, 30, "three", 300})).code, OpCode::kOk);
  ASSERT_EQ(p_.Delete(7, IntKey(t_, 0, 2)).code, OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 3, 7)->id, 3);
  EXPECT_FALSE(Get(p_, t_, 2, 7));
  EXPECT_FALSE(Get(p_, t_, 3, 8));
  EXPECT_EQ(Get(p_, t_, 2, 8)->id, 2);
  EXPECT_FALSE(ReadU(300, 8));
  EXPECT_EQ(ReadU(300, 7)->id, 3);
  EXPECT_EQ(ReadU(200, 8)->id, 2);
  EXPECT_FALSE(ReadU(200, 7));
  EXPECT_EQ(ScanK(0, 100, 7), (std::vector<int>{1, 3}));
  EXPECT_EQ(ScanK(0, 100, 8), (std::vector<int>{1, 2}));
  EXPECT_EQ(p_.row_count(), 2u);
  // Another transaction's insert of the same keys waits.
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {3, 0, "", std::nullopt})).code, OpCode::kLocked);
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {4, 0, "", 300})).code, OpCode::kLocked);
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {4, 0, "", 200})).code, OpCode::kLocked);
  p_.Commit(7);
  EXPECT_EQ(p_.row_count(), 2u);
  EXPECT_EQ(Get(p_, t_, 3, 8)->id, 3);
  EXPECT_FALSE(Get(p_, t_, 2, 8));
  EXPECT_EQ(ScanK(0, 100), (std::vector<int>{1, 3}));
}

TEST_F(TxnTest, AbortRestoresRowsAndIndexes) {
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetK(t_, 25)).code, OpCode::kOk);
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetU(t_, 150)).code, OpCode::kOk);
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetC(std::string(3000, 'z'))).code,
            OpCode::kOk);  // grows the row: a new block
  ASSERT_EQ(p_.Delete(7, IntKey(t_, 0, 2)).code, OpCode::kOk);
  ASSERT_EQ(p_.Insert(7, PackRow(t_, {5, 5, "five", 200})).code, OpCode::kOk);  // u of row 2
  EXPECT_EQ(ScanK(0, 100, 7), (std::vector<int>{5, 1}));
  EXPECT_EQ(ScanK(0, 100, 8), (std::vector<int>{1, 2}));
  EXPECT_EQ(ScanK(21, 30, 8), (std::vector<int>{}));
  EXPECT_EQ(ScanK(21, 30, 7), (std::vector<int>{1}));
  EXPECT_EQ(ReadU(100, 8)->id, 1);
  EXPECT_FALSE(ReadU(100, 7));
  EXPECT_EQ(ReadU(150, 7)->id, 1);
  EXPECT_FALSE(ReadU(150, 8));
  EXPECT_EQ(ReadU(200, 7)->id, 5);
  EXPECT_EQ(ReadU(200, 8)->id, 2);
  p_.Abort(7);
  EXPECT_FALSE(p_.HasTransaction(7));
  EXPECT_EQ(Get(p_, t_, 1), (Value{1, 10, "one", 100}));
  EXPECT_EQ(Get(p_, t_, 2), (Value{2, 20, "two", 200}));
  EXPECT_FALSE(Get(p_, t_, 5));
  EXPECT_EQ(ScanK(0, 100), (std::vector<int>{1, 2}));
  EXPECT_EQ(ReadU(100)->id, 1);
  EXPECT_EQ(ReadU(200)->id, 2);
  EXPECT_FALSE(ReadU(150));
  EXPECT_EQ(p_.row_count(), 2u);
  // The unique index is whole again: duplicates are refused.
  EXPECT_EQ(p_.Insert(kAutocommit, PackRow(t_, {6, 0, "", 200})).code, OpCode::kDuplicateKey);
}

TEST_F(TxnTest, CommitKeepsChangedIndexes) {
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetU(t_, 200 + 1)).code, OpCode::kOk);
  // Swap unique values inside one transaction.
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 2), testing::SetU(t_, 100)).code, OpCode::kOk);
  ASSERT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetU(t_, 200)).code, OpCode::kOk);
  // Another transaction wanting the old value of a moved key waits.
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {9, 0, "", 100})).code, OpCode::kLocked);
  EXPECT_EQ(ReadU(100, 8)->id, 1);
  EXPECT_EQ(ReadU(100, 7)->id, 2);
  p_.Commit(7);
  EXPECT_EQ(ReadU(100)->id, 2);
  EXPECT_EQ(ReadU(200)->id, 1);
  EXPECT_FALSE(ReadU(201));
  EXPECT_EQ(p_.Insert(8, PackRow(t_, {9, 0, "", 201})).code, OpCode::kOk);
  p_.Commit(8);
  EXPECT_EQ(ReadU(201)->id, 9);
}

TEST_F(TxnTest, DeleteThenReinsertInOneTransaction) {
  ASSERT_EQ(p_.Delete(7, IntKey(t_, 0, 1)).code, OpCode::kOk);
  EXPECT_EQ(p_.Update(7, IntKey(t_, 0, 1), testing::SetK(t_, 1)).code, OpCode::kNotFound);
  ASSERT_EQ(p_.Insert(7, PackRow(t_, {1, 99, "again", 100})).code, OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 1, 7)->k, 99);
  EXPECT_EQ(Get(p_, t_, 1, 8)->k, 10);
  p_.Commit(7);
  EXPECT_EQ(Get(p_, t_, 1), (Value{1, 99, "again", 100}));
  EXPECT_EQ(p_.row_count(), 2u);
  EXPECT_EQ(ScanK(0, 100), (std::vector<int>{2, 1}));
}

TEST_F(TxnTest, SetTableAddsAndDropsIndexes) {
  schema::TableDef t2 = t_;
  t2.version = 2;
  t2.indexes.push_back({"k_unique", {1}, true, false});
  ASSERT_EQ(p_.Insert(kAutocommit, PackRow(t_, {3, 10, "dup k", std::nullopt})).code, OpCode::kOk);
  OpResult r = p_.SetTable(&t2);
  EXPECT_EQ(r.code, OpCode::kDuplicateKey);
  EXPECT_EQ(r.index, 3);
  // The old definition still works.
  EXPECT_EQ(ScanK(10, 10), (std::vector<int>{1, 3}));
  ASSERT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 3)).code, OpCode::kOk);
  ASSERT_EQ(p_.SetTable(&t2).code, OpCode::kOk);
  EXPECT_EQ(p_.Insert(kAutocommit, PackRow(t2, {4, 20, "", std::nullopt})).code,
            OpCode::kDuplicateKey);
  schema::RowWriter w;
  ASSERT_EQ(
      p_.ReadUnique(kAutocommit, 3, IntKey(t2, 1, 20), testing::AllColumns(), LockMode::kNone, &w)
          .code,
      OpCode::kOk);
  EXPECT_EQ(testing::ParseRows(t2, w.view()).at(0).id, 2);

  // Drop k_1 and u: k_unique moves to position 1.
  schema::TableDef t3 = t2;
  t3.version = 3;
  t3.indexes = {t2.indexes[0], t2.indexes[3]};
  ASSERT_EQ(p_.SetTable(&t3).code, OpCode::kOk);
  EXPECT_EQ(p_.Insert(kAutocommit, PackRow(t3, {4, 30, "", 100})).code, OpCode::kOk);
  EXPECT_EQ(p_.Insert(kAutocommit, PackRow(t3, {5, 30, "", 100})).code, OpCode::kDuplicateKey);
}

}  // namespace
}  // namespace shoal::storage
