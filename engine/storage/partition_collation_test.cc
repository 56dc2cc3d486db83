// A partition whose keys fold case (a _ci collation): one row per key whatever the case,
// found by any spelling, refused a second time, ordered and ranged as the collation orders;
// the row keeps the value as written.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/schema/collation.h"
#include "engine/schema/program.h"
#include "engine/storage/partition.h"
#include "gtest/gtest.h"

namespace shoal::storage {
namespace {

// people(name VARCHAR(40) PRIMARY KEY, email VARCHAR(40), n INT, UNIQUE KEY (email), KEY (n))
// with utf8mb4's default _ci collation on both character columns.
schema::TableDef People() {
  schema::TableDef t;
  t.id = 3;
  t.version = 1;
  t.database = "db";
  t.name = "people";
  auto column = [](const char* name, schema::ColumnType type) {
    schema::ColumnDef c;
    c.name = name;
    c.type = type;
    c.length = 40;
    c.collation = schema::Collation::kCaseInsensitive;
    return c;
  };
  t.columns = {column("name", schema::ColumnType::kVarChar),
               column("email", schema::ColumnType::kVarChar),
               column("n", schema::ColumnType::kInt)};
  t.columns[0].nullable = false;
  t.indexes = {{"PRIMARY", {0}, true, true}, {"email", {1}, true, false}, {"n", {2}, false, false}};
  t.partitions = 1;
  return t;
}

class CollationPartitionTest : public ::testing::Test {
 protected:
  std::string Row(absl::string_view name, absl::string_view email, int n) {
    schema::RowWriter w;
    w.BeginRow(3);
    w.Bytes(name);
    w.Bytes(email);
    w.Int(t_.columns[2], n);
    return std::string(w.view());
  }
  static std::string Key(absl::string_view text) {
    schema::RowWriter w;
    w.BeginKey();
    w.Bytes(text);
    return std::string(w.view());
  }
  // The names of the rows `bytes` holds (rows over all columns).
  std::vector<std::string> Names(absl::string_view bytes) {
    std::vector<std::string> out;
    const uint16_t all[] = {0, 1, 2};
    schema::Field f[3];
    while (!bytes.empty()) {
      size_t consumed = 0;
      if (!schema::SplitRow(t_, all, bytes, f, &consumed)) break;
      out.emplace_back(f[0].bytes);
      bytes.remove_prefix(consumed);
    }
    return out;
  }
  std::vector<std::string> Read(absl::string_view name) {
    schema::RowWriter w;
    OpResult r = p_.Read(kAutocommit, Key(name), kAll, LockMode::kNone, &w);
    return r.code == OpCode::kOk ? Names(w.view()) : std::vector<std::string>{};
  }
  std::vector<std::string> ReadEmail(absl::string_view email) {
    schema::RowWriter w;
    OpResult r = p_.ReadUnique(kAutocommit, 1, Key(email), kAll, LockMode::kNone, &w);
    return r.code == OpCode::kOk ? Names(w.view()) : std::vector<std::string>{};
  }
  std::vector<std::string> Scan(int index, absl::string_view lower, absl::string_view upper) {
    const std::string lo = lower.empty() ? "" : Key(lower), hi = upper.empty() ? "" : Key(upper);
    ScanSpec spec;
    spec.index = index;
    spec.lower = lo;
    spec.upper = hi;
    spec.columns = kAll;
    schema::RowWriter w;
    ScanBatch batch = p_.Scan(spec, &w);
    EXPECT_TRUE(batch.done);
    return Names(w.view());
  }

  static constexpr uint16_t kAll[] = {0, 1, 2};
  schema::TableDef t_ = People();
  MemoryBudget budget_{64 << 20};
  Partition p_{&t_, &budget_};
};

TEST_F(CollationPartitionTest, AKeyIsFoundByAnySpellingAndRefusedASecondTime) {
  ASSERT_EQ(p_.Insert(kAutocommit, Row("Ada Lovelace", "ada@x.org", 1)).code, OpCode::kOk);
  EXPECT_EQ(Read("ada lovelace"), std::vector<std::string>{"Ada Lovelace"});
  EXPECT_EQ(Read("ADA LOVELACE"), std::vector<std::string>{"Ada Lovelace"});
  EXPECT_TRUE(Read("Ada Lovelace ").empty());  // NO PAD: a trailing space is another key
  EXPECT_TRUE(Read("Ada Lovelac").empty());
  EXPECT_EQ(p_.Insert(kAutocommit, Row("ADA LOVELACE", "other@x.org", 2)).code,
            OpCode::kDuplicateKey);
  EXPECT_EQ(p_.row_count(), 1u);

  // REPLACE (Write) of another spelling replaces the row: it now holds the new text.
  ASSERT_EQ(p_.Write(kAutocommit, Row("ADA LOVELACE", "ada@x.org", 3)).code, OpCode::kOk);
  EXPECT_EQ(p_.row_count(), 1u);
  EXPECT_EQ(Read("Ada Lovelace"), std::vector<std::string>{"ADA LOVELACE"});

  // Every key operation folds: update, delete.
  EXPECT_EQ(
      p_.Update(kAutocommit, Key("ada lovelace"), schema::UpdateBuilder().AddInt(2, 1).Finish())
          .code,
      OpCode::kOk);
  EXPECT_EQ(p_.Delete(kAutocommit, Key("aDa LoVeLaCe")).code, OpCode::kOk);
  EXPECT_EQ(p_.row_count(), 0u);
}

TEST_F(CollationPartitionTest, UniqueSecondaryKeysFoldToo) {
  ASSERT_EQ(p_.Insert(kAutocommit, Row("a", "Ada@X.org", 1)).code, OpCode::kOk);
  OpResult dup = p_.Insert(kAutocommit, Row("b", "ada@x.ORG", 2));
  EXPECT_EQ(dup.code, OpCode::kDuplicateKey);
  EXPECT_EQ(dup.index, 1);
  EXPECT_EQ(ReadEmail("ADA@x.org"), std::vector<std::string>{"a"});
  // Inside a transaction (the unique hash hint is skipped while the row is held).
  const TxnId txn = 42;
  ASSERT_EQ(p_.Insert(txn, Row("c", "cy@x.org", 3)).code, OpCode::kOk);
  EXPECT_EQ(p_.Insert(txn, Row("d", "CY@X.ORG", 4)).code, OpCode::kDuplicateKey);
  schema::RowWriter w;
  ASSERT_EQ(p_.ReadUnique(txn, 1, Key("Cy@x.org"), kAll, LockMode::kNone, &w).code, OpCode::kOk);
  EXPECT_EQ(Names(w.view()), std::vector<std::string>{"c"});
  p_.Commit(txn);
  EXPECT_EQ(ReadEmail("cy@X.org"), std::vector<std::string>{"c"});
}

TEST_F(CollationPartitionTest, OrderAndRangesFollowTheCollation) {
  for (const char* name : {"bob", "Alice", "carol", "ALAN", "_x", "Bo"}) {
    ASSERT_EQ(p_.Insert(kAutocommit, Row(name, name, 0)).code, OpCode::kOk) << name;
  }
  // Bytes would put the upper-case names first; the collation reads them as lower case.
  EXPECT_EQ(Scan(0, "", ""),
            (std::vector<std::string>{"_x", "ALAN", "Alice", "Bo", "bob", "carol"}));
  EXPECT_EQ(Scan(0, "a", "b"), (std::vector<std::string>{"ALAN", "Alice"}));
  EXPECT_EQ(Scan(0, "BO", "BOB"), (std::vector<std::string>{"Bo", "bob"}));
  EXPECT_EQ(Scan(1, "alice", "ALICE"), std::vector<std::string>{"Alice"});
}

TEST_F(CollationPartitionTest, StoredKeysAreTheirCollationForm) {
  ASSERT_EQ(p_.Insert(kAutocommit, Row("Ada ", "a", 1)).code, OpCode::kOk);
  ASSERT_EQ(p_.Insert(kAutocommit, Row("Ada", "b", 1)).code, OpCode::kOk);
  std::vector<std::string> keys, names;
  schema::RowWriter scratch;
  p_.Export(
      [&](TxnId, absl::string_view key, absl::string_view row, uint64_t) {
        keys.emplace_back(key);
        names.push_back(Names(row).at(0));
      },
      &scratch);
  // The key a copy or the redo names is the folded one; the row keeps what was written.
  std::sort(keys.begin(), keys.end());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"Ada", "Ada "}));
  EXPECT_EQ(keys, (std::vector<std::string>{Key("ada"), Key("ada ")}));
  EXPECT_EQ(p_.Delete(kAutocommit, Key("ada ")).code, OpCode::kOk);
  EXPECT_EQ(Read("ADA"), std::vector<std::string>{"Ada"});
}

}  // namespace
}  // namespace shoal::storage
