// Ldm::RestoreWrite over a key that folds case: a row restored into the partition its key
// hashes to is simply restored; one restored elsewhere (placed under an older folding of text)
// is restored too, and counted, so that the operator hears of it.
#include <memory>
#include <string>

#include "engine/node/ldm/ldm.h"
#include "engine/node/node_test_util.h"
#include "engine/schema/row.h"
#include "gtest/gtest.h"

namespace shoal::node {
namespace {

constexpr uint32_t kTablePartitions = 4;

class RestoreWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Keys that compare without case: their rows are placed by the folded text.
    schema::ColumnDef name;
    name.name = "name";
    name.type = schema::ColumnType::kVarChar;
    name.length = 40;
    name.nullable = false;
    name.collation = schema::Collation::kCaseInsensitive;
    table_ = testing::KeyValueTable(kTablePartitions, name);
    DictionaryDelta delta;
    delta.created = {table_};
    ldm_.Apply(delta);
  }

  std::string Row(absl::string_view name, int n) const {
    schema::RowWriter w;
    w.BeginRow(2);
    w.Bytes(name);
    w.Int(table_->columns[1], n);
    return std::string(w.view());
  }
  uint32_t PartitionOf(absl::string_view name) const {
    schema::RowWriter w;
    w.BeginKey();
    w.Bytes(name);
    return schema::KeyHash(*table_, w.view()) % kTablePartitions;
  }

  std::shared_ptr<schema::TableDef> table_;
  storage::MemoryBudget budget_{64 << 20};
  Ldm ldm_{PartitionPlacement{1, 1, 0, 1, 0}, &budget_, absl::Milliseconds(100)};
};

TEST_F(RestoreWriteTest, ARowOutsideItsKeysPartitionIsRestoredAndCounted) {
  // "José" hashes as "jose" does.
  const uint32_t home = PartitionOf("jose");
  EXPECT_EQ(PartitionOf("Jos\xC3\xA9"), home);
  ASSERT_TRUE(ldm_.RestoreWrite(table_->id, home, Row("Jos\xC3\xA9", 1), 1));
  EXPECT_EQ(ldm_.stats().misplaced_restored_rows, 0u);
  // A row an older folding placed elsewhere: kept, counted.
  const uint32_t elsewhere = (PartitionOf("M\xC3\xBCller") + 1) % kTablePartitions;
  ASSERT_TRUE(ldm_.RestoreWrite(table_->id, elsewhere, Row("M\xC3\xBCller", 2), 1));
  EXPECT_EQ(ldm_.stats().misplaced_restored_rows, 1u);
  EXPECT_EQ(ldm_.row_count(), 2u);
}

}  // namespace
}  // namespace shoal::node
