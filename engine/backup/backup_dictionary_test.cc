// A backup's dictionary: parsing it from a manifest, and the order a restore creates its
// tables in (foreign keys' parents first, cycles reported and broken, ALTER copies left out).
#include "engine/backup/backup_dictionary.h"

#include <string>
#include <vector>

#include "engine/backup/backup_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::backup {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

schema::TableDef Table(uint32_t id, const std::string& name) {
  schema::ColumnDef parent = testing::Column("parent", schema::ColumnType::kInt);
  parent.nullable = true;
  return testing::TwoColumnTable(id, name, testing::Column("id", schema::ColumnType::kInt), parent);
}

void References(schema::TableDef* child, const std::string& parent) {
  schema::ForeignKeyDef fk;
  fk.name = child->name + "_ibfk_" + std::to_string(child->foreign_keys.size() + 1);
  fk.columns = {1};
  fk.parent_database = "db";
  fk.parent_table = parent;
  fk.parent_columns = {"id"};
  child->foreign_keys.push_back(fk);
}

Manifest WithTables(const std::vector<schema::TableDef>& tables, wire::Dictionary dictionary) {
  for (const schema::TableDef& t : tables) schema::AppendTableDef(t, dictionary.add_tables());
  Manifest m;
  m.set_node_id(2);
  m.set_dictionary(dictionary.SerializeAsString());
  return m;
}

std::vector<std::string> Names(const CreationOrder& order) {
  std::vector<std::string> names;
  for (const schema::TableDef* t : order.tables) names.push_back(t->name);
  return names;
}

TEST(BackupDictionaryTest, ParentsFirstCyclesBrokenAlterCopiesLeftOut) {
  schema::TableDef child = Table(1, "child");
  References(&child, "parent");
  schema::TableDef self = Table(2, "self");
  References(&self, "self");
  schema::TableDef parent = Table(3, "parent");
  schema::TableDef d = Table(4, "d");
  References(&d, "e");
  schema::TableDef e = Table(5, "e");
  References(&e, "d");
  schema::TableDef dangling = Table(6, "dangling");
  References(&dangling, "not_in_the_backup");
  schema::TableDef copy = Table(7, "#sql-alter-1-2");
  schema::TableDef locked_copy = Table(8, "copy_of_child");
  wire::Dictionary proto;
  wire::AlterLock* lock = proto.add_alter_locks();
  lock->set_table_id(1);
  lock->set_temp_table("copy_of_child");

  absl::StatusOr<BackupDictionary> dictionary = ParseBackupDictionary(
      WithTables({child, self, parent, d, e, dangling, copy, locked_copy}, proto));
  ASSERT_TRUE(dictionary.ok()) << dictionary.status();
  EXPECT_EQ(dictionary->tables.size(), 8u);
  EXPECT_TRUE(IsAlterCopy(*dictionary, dictionary->tables.at(7)));
  EXPECT_TRUE(IsAlterCopy(*dictionary, dictionary->tables.at(8)));
  EXPECT_FALSE(IsAlterCopy(*dictionary, dictionary->tables.at(1)));

  CreationOrder order = OrderForCreation(*dictionary);
  EXPECT_THAT(Names(order), ElementsAre("self", "parent", "child", "dangling", "d", "e"));
  EXPECT_THAT(order.cycles, ElementsAre("db.d -> db.e -> db.d"));
}

TEST(BackupDictionaryTest, NoForeignKeysIsIdOrder) {
  absl::StatusOr<BackupDictionary> dictionary =
      ParseBackupDictionary(WithTables({Table(9, "b"), Table(4, "a")}, wire::Dictionary()));
  ASSERT_TRUE(dictionary.ok());
  CreationOrder order = OrderForCreation(*dictionary);
  EXPECT_THAT(Names(order), ElementsAre("a", "b"));
  EXPECT_THAT(order.cycles, IsEmpty());
}

TEST(BackupDictionaryTest, CorruptDictionaryIsDataLoss) {
  Manifest m;
  m.set_node_id(2);
  m.set_dictionary("\xff\xff\xff");
  EXPECT_EQ(ParseBackupDictionary(m).status().code(), absl::StatusCode::kDataLoss);
  wire::Dictionary proto;
  proto.add_tables("not a table definition");
  m.set_dictionary(proto.SerializeAsString());
  EXPECT_EQ(ParseBackupDictionary(m).status().code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace shoal::backup
