// Partition: row operations, keys, memory limits, locks and transactions, SetTable.
#include "engine/storage/partition.h"

#include <string>

#include "engine/storage/storage_test_util.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

using testing::Get;
using testing::IntKey;
using testing::PackRow;
using testing::Value;

class PartitionTest : public ::testing::Test {
 protected:
  OpResult Insert(const Value& v, TxnId txn = kAutocommit) {
    return p_.Insert(txn, PackRow(t_, v));
  }
  std::optional<Value> ReadU(int u, TxnId txn = kAutocommit) {
    schema::RowWriter w;
    OpResult r =
        p_.ReadUnique(txn, 2, IntKey(t_, 3, u), testing::AllColumns(), LockMode::kNone, &w);
    if (r.code != OpCode::kOk) return std::nullopt;
    return testing::ParseRows(t_, w.view()).at(0);
  }

  schema::TableDef t_ = testing::MakeTable();
  MemoryBudget budget_{64 << 20};
  Partition p_{&t_, &budget_};
};

TEST_F(PartitionTest, InsertReadUpdateDeleteWrite) {
  ASSERT_EQ(Insert({1, 10, "one", 100}).code, OpCode::kOk);
  ASSERT_EQ(Insert({2, 20, "two", std::nullopt}).code, OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 1), (Value{1, 10, "one", 100}));
  EXPECT_EQ(Get(p_, t_, 2), (Value{2, 20, "two", std::nullopt}));
  EXPECT_FALSE(Get(p_, t_, 3));
  EXPECT_EQ(p_.row_count(), 2u);

  // A subset of columns, in any order.
  schema::RowWriter w;
  std::vector<uint16_t> cols = {2, 0};
  ASSERT_EQ(p_.Read(kAutocommit, IntKey(t_, 0, 1), cols, LockMode::kNone, &w).code, OpCode::kOk);
  schema::Field f[2];
  size_t consumed = 0;
  ASSERT_TRUE(schema::SplitRow(t_, cols, w.view(), f, &consumed));
  EXPECT_EQ(f[0].bytes, "one");

  OpResult updated = p_.Update(kAutocommit, IntKey(t_, 0, 1), testing::SetK(t_, 11));
  EXPECT_EQ(updated.code, OpCode::kOk);
  EXPECT_FALSE(updated.unchanged);
  EXPECT_EQ(Get(p_, t_, 1), (Value{1, 11, "one", 100}));
  // The same value again: matched, not changed (MySQL's "Changed: 0").
  updated = p_.Update(kAutocommit, IntKey(t_, 0, 1), testing::SetK(t_, 11));
  EXPECT_EQ(updated.code, OpCode::kOk);
  EXPECT_TRUE(updated.unchanged);
  EXPECT_EQ(p_.Update(kAutocommit, IntKey(t_, 0, 9), testing::SetK(t_, 11)).code,
            OpCode::kNotFound);
  std::string add = schema::UpdateBuilder().AddInt(1, 5).Finish();
  EXPECT_EQ(p_.Update(kAutocommit, IntKey(t_, 0, 1), add).code, OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 1)->k, 16);

  EXPECT_EQ(p_.Write(kAutocommit, PackRow(t_, {1, 1, "replaced", 7})).code, OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 1), (Value{1, 1, "replaced", 7}));
  EXPECT_EQ(p_.Write(kAutocommit, PackRow(t_, {3, 3, "new", std::nullopt})).code, OpCode::kOk);
  EXPECT_EQ(p_.row_count(), 3u);

  EXPECT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 2)).code, OpCode::kOk);
  EXPECT_EQ(p_.Delete(kAutocommit, IntKey(t_, 0, 2)).code, OpCode::kNotFound);
  EXPECT_FALSE(Get(p_, t_, 2));
  EXPECT_EQ(p_.row_count(), 2u);
  EXPECT_EQ(p_.max_auto_increment(), 3u);
  EXPECT_FALSE(p_.HasTransaction(kAutocommit));
}

TEST_F(PartitionTest, ConditionalUpdateAndDelete) {
  ASSERT_EQ(Insert({1, 10, "one", 100}).code, OpCode::kOk);
  std::string k_is_5 =
      schema::FilterBuilder().CompareInt(t_.columns[1], 1, schema::CompareOp::kEq, 5).bytes();
  std::string k_is_10 =
      schema::FilterBuilder().CompareInt(t_.columns[1], 1, schema::CompareOp::kEq, 10).bytes();
  EXPECT_EQ(p_.UpdateIf(kAutocommit, IntKey(t_, 0, 1), k_is_5, testing::SetK(t_, 1)).code,
            OpCode::kNotFound);
  EXPECT_EQ(p_.UpdateIf(kAutocommit, IntKey(t_, 0, 1), k_is_10, testing::SetK(t_, 1)).code,
            OpCode::kOk);
  EXPECT_EQ(Get(p_, t_, 1)->k, 1);
  EXPECT_EQ(p_.DeleteIf(kAutocommit, IntKey(t_, 0, 1), k_is_10).code, OpCode::kNotFound);
  std::string k_is_1 =
      schema::FilterBuilder().CompareInt(t_.columns[1], 1, schema::CompareOp::kEq, 1).bytes();
  EXPECT_EQ(p_.DeleteIf(kAutocommit, IntKey(t_, 0, 1), k_is_1).code, OpCode::kOk);
  EXPECT_FALSE(Get(p_, t_, 1));
}

TEST_F(PartitionTest, DuplicateKeys) {
  ASSERT_EQ(Insert({5, 1, "a", 50}).code, OpCode::kOk);
  OpResult r = Insert({5, 2, "b", 51});
  EXPECT_EQ(r.code, OpCode::kDuplicateKey);
  EXPECT_EQ(r.index, 0);
  r = Insert({6, 2, "b", 50});
  EXPECT_EQ(r.code, OpCode::kDuplicateKey);
  EXPECT_EQ(r.index, 2);
  EXPECT_FALSE(Get(p_, t_, 6));
  ASSERT_EQ(Insert({6, 2, "b", 60}).code, OpCode::kOk);
  r = p_.Update(kAutocommit, IntKey(t_, 0, 6), testing::SetU(t_, 50));
  EXPECT_EQ(r.code, OpCode::kDuplicateKey);
  EXPECT_EQ(r.index, 2);
  // An update's new row never reaches the reply: the result names the key that collided.
  EXPECT_EQ(DuplicateEntryMessage(t_, r.index, r.key), "Duplicate entry '50' for key 't1.u'");
  EXPECT_EQ(Get(p_, t_, 6)->u, 60);
  // Write replaces by primary key but still checks the unique index.
  EXPECT_EQ(p_.Write(kAutocommit, PackRow(t_, {6, 2, "b", 50})).code, OpCode::kDuplicateKey);
  EXPECT_EQ(ReadU(50)->id, 5);
  EXPECT_EQ(ReadU(60)->id, 6);
  EXPECT_FALSE(ReadU(61));

  EXPECT_EQ(DuplicateEntryMessage(t_, 0, IntKey(t_, 0, 5)),
            "Duplicate entry '5' for key 't1.PRIMARY'");
  std::string key;
  ASSERT_TRUE(schema::KeyOfRow(t_, 2, PackRow(t_, {6, 2, "b", 50}), &key));
  EXPECT_EQ(DuplicateEntryMessage(t_, 2, key), "Duplicate entry '50' for key 't1.u'");
  EXPECT_FALSE(schema::KeyOfRow(t_, 2, PackRow(t_, {6, 2, "b", std::nullopt}), &key));
}

TEST_F(PartitionTest, DuplicateEntryMessageFormatsValues) {
  schema::TableDef t;
  t.name = "t";
  schema::ColumnDef a;
  a.name = "a";
  a.type = schema::ColumnType::kVarChar;
  a.length = 10;
  schema::ColumnDef d;
  d.name = "d";
  d.type = schema::ColumnType::kDate;
  schema::ColumnDef n;
  n.name = "n";
  n.type = schema::ColumnType::kBigInt;
  n.is_unsigned = true;
  t.columns = {a, d, n};
  t.indexes = {{"PRIMARY", {0, 1, 2}, true, true}};
  schema::RowWriter w;
  w.BeginKey();
  w.Bytes("abc");
  w.Int(d, 2024 * 512 + 3 * 32 + 7);
  w.Int(n, -1);
  EXPECT_EQ(DuplicateEntryMessage(t, 0, w.view()),
            "Duplicate entry 'abc-2024-03-07-18446744073709551615' for key 't.PRIMARY'");
}

TEST_F(PartitionTest, NullsInUniqueIndex) {
  EXPECT_EQ(Insert({1, 1, "a", std::nullopt}).code, OpCode::kOk);
  EXPECT_EQ(Insert({2, 1, "a", std::nullopt}).code, OpCode::kOk);
  EXPECT_EQ(p_.Update(kAutocommit, IntKey(t_, 0, 1), testing::SetU(t_, 3)).code, OpCode::kOk);
  EXPECT_EQ(p_.Update(kAutocommit, IntKey(t_, 0, 1), testing::SetU(t_, std::nullopt)).code,
            OpCode::kOk);
  EXPECT_EQ(Insert({3, 1, "a", 3}).code, OpCode::kOk);
  EXPECT_EQ(ReadU(3)->id, 3);
}

TEST_F(PartitionTest, RejectsBadRequests) {
  OpResult r = p_.Update(kAutocommit, IntKey(t_, 0, 1), testing::SetK(t_, 1));
  EXPECT_EQ(r.code, OpCode::kNotFound);
  ASSERT_EQ(Insert({1, 1, "a", 1}).code, OpCode::kOk);
  std::string set_id = schema::UpdateBuilder().SetInt(t_.columns[0], 0, 2).Finish();
  r = p_.Update(kAutocommit, IntKey(t_, 0, 1), set_id);
  EXPECT_EQ(r.code, OpCode::kBadRequest);
  EXPECT_EQ(r.message, "updating the primary key is not supported");
  EXPECT_EQ(p_.Insert(kAutocommit, "garbage").code, OpCode::kBadRequest);
  std::string row = PackRow(t_, {2, 1, "a", 1});
  EXPECT_EQ(p_.Insert(kAutocommit, row + "x").code, OpCode::kBadRequest);
  EXPECT_FALSE(p_.HasTransaction(kAutocommit));
}

TEST_F(PartitionTest, TableFullAndReuse) {
  MemoryBudget small(1 << 20);
  Partition p(&t_, &small);
  const std::string c(100, 'x');
  int n = 0;
  while (true) {
    OpResult r = p.Insert(kAutocommit, PackRow(t_, {n, n, c, n}));
    if (r.code == OpCode::kTableFull) break;
    ASSERT_EQ(r.code, OpCode::kOk);
    ++n;
  }
  EXPECT_GT(n, 3000);
  EXPECT_LE(small.used(), small.limit());
  EXPECT_EQ(p.memory_bytes(), small.used());
  EXPECT_FALSE(Get(p, t_, n));
  EXPECT_EQ(p.row_count(), static_cast<uint64_t>(n));
  for (int i = 0; i < n; i += 2)
    ASSERT_EQ(p.Delete(kAutocommit, IntKey(t_, 0, i)).code, OpCode::kOk);
  // Freed rows are reused: about as many fit again.
  int again = 0;
  while (p.Insert(kAutocommit, PackRow(t_, {n + again, 0, c, n + again})).code == OpCode::kOk) {
    ++again;
  }
  EXPECT_GT(again, n / 2 - n / 20);
  EXPECT_EQ(Get(p, t_, 1), (Value{1, 1, c, 1}));
}

TEST_F(PartitionTest, DestructorReturnsMemory) {
  MemoryBudget budget(8 << 20);
  {
    Partition p(&t_, &budget);
    for (int i = 0; i < 1000; ++i) p.Insert(kAutocommit, PackRow(t_, {i, i, "abc", i}));
    p.Update(7, IntKey(t_, 0, 1), testing::SetC(std::string(5000, 'y')));
    EXPECT_GT(budget.used(), 0u);
  }
  EXPECT_EQ(budget.used(), 0u);
}

TEST_F(PartitionTest, LargeRowsGetDedicatedChunks) {
  schema::TableDef t = testing::MakeTable();
  t.columns[2].type = schema::ColumnType::kBlob;
  MemoryBudget budget(8 << 20);
  Partition p(&t, &budget);
  std::string big(60000, 'b');
  ASSERT_EQ(p.Insert(kAutocommit, PackRow(t, {1, 1, big, 1})).code, OpCode::kOk);
  EXPECT_EQ(Get(p, t, 1)->c, big);
  ASSERT_EQ(p.Update(5, IntKey(t, 0, 1), testing::SetC("small")).code, OpCode::kOk);
  EXPECT_EQ(Get(p, t, 1)->c, big);
  EXPECT_EQ(Get(p, t, 1, 5)->c, "small");
  p.Abort(5);
  EXPECT_EQ(Get(p, t, 1)->c, big);
  ASSERT_EQ(p.Delete(kAutocommit, IntKey(t, 0, 1)).code, OpCode::kOk);
}

}  // namespace
}  // namespace shoal::storage
