// The dictionary master's ALTER TABLE requests: ReplaceTable in place, LockForAlter and
// FinishAlter around a copy (commit and abort), and what each leaves when it fails: nothing.
#include <gtest/gtest.h>

#include <string>

#include "engine/node/dictionary.h"
#include "engine/node/dictionary_test_util.h"
#include "engine/schema/schema.h"

namespace shoal::node {
namespace {

class DictionaryAlterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    wire::DictReq db;
    db.mutable_create_database()->set_name("db");
    ASSERT_EQ(Apply(db).error_code(), 0u);
    ASSERT_EQ(Create(Def("t")).error_code(), 0u);
  }

  wire::DictConf Apply(const wire::DictReq& req, DdlOwner owner = {}) {
    wire::DictConf conf;
    DictionaryDelta delta;
    dictionary_.Apply(req, &conf, &delta, owner);
    return conf;
  }
  wire::DictConf Create(const schema::TableDef& def) {
    wire::DictReq req;
    schema::AppendTableDef(def, req.mutable_create_table()->mutable_table());
    return Apply(req);
  }
  wire::DictConf Replace(const schema::TableDef& def) {
    wire::DictReq req;
    schema::AppendTableDef(def, req.mutable_replace_table()->mutable_table());
    return Apply(req);
  }
  TablePtr Find(const std::string& name) const {
    for (const auto& [id, table] : dictionary_.tables()) {
      if (table->name == name) return table;
    }
    return nullptr;
  }

  Dictionary dictionary_{4};
};

TEST_F(DictionaryAlterTest, ReplaceTableChangesNamesAndWidensInPlace) {
  TablePtr t = Find("t");
  schema::TableDef changed = *t;
  changed.name = "u";
  changed.columns[1].name = "w";
  changed.columns[1].length = 20;
  EXPECT_EQ(Replace(changed).error_code(), 0u);
  TablePtr u = Find("u");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->id, t->id);
  EXPECT_EQ(u->version, t->version + 1);
  EXPECT_EQ(u->columns[1].name, "w");
  EXPECT_EQ(Find("t"), nullptr);
  // Planned on the old version: 1412. Stored differently (narrower): 1235, nothing changed.
  EXPECT_EQ(Replace(changed).error_code(), 1412u);
  schema::TableDef narrower = *u;
  narrower.columns[1].length = 5;
  EXPECT_EQ(Replace(narrower).error_code(), 1235u);
  EXPECT_EQ(Find("u")->columns[1].length, 20u);
  // Onto a name taken: 1050.
  ASSERT_EQ(Create(Def("taken")).error_code(), 0u);
  schema::TableDef clash = *Find("u");
  clash.name = "taken";
  EXPECT_EQ(Replace(clash).error_code(), 1050u);
}

TEST_F(DictionaryAlterTest, ACopyTakesTheTablesPlaceOrIsDropped) {
  TablePtr t = Find("t");
  schema::TableDef copy = Def("#sql-alter-1", /*with_v=*/false);
  ASSERT_EQ(Create(copy).error_code(), 0u);
  wire::DictReq lock;
  lock.mutable_lock_for_alter()->set_database("db");
  lock.mutable_lock_for_alter()->set_name("t");
  lock.mutable_lock_for_alter()->set_temp_table("#sql-alter-1");
  lock.mutable_lock_for_alter()->set_version(t->version);
  ASSERT_EQ(Apply(lock, DdlOwner{2, 17, 99}).error_code(), 0u);
  const wire::AlterLock* held = dictionary_.AlterLockOf(t->id);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->owner_conn(), 17u);
  EXPECT_EQ(held->owner_run(), 99u);
  EXPECT_EQ(Find("t")->version, t->version + 1);  // writes planned before are refused
  // Locked: an ALTER planned before is refused (1412), TRUNCATE waits (1205); the lock travels
  // with the dictionary.
  EXPECT_EQ(Apply(lock).error_code(), 1412u);
  wire::DictReq truncate;
  truncate.mutable_truncate_table()->set_database("db");
  truncate.mutable_truncate_table()->set_name("t");
  EXPECT_EQ(Apply(truncate).error_code(), 1205u);
  wire::Dictionary proto;
  dictionary_.ToProto(&proto);
  ASSERT_EQ(proto.alter_locks_size(), 1);

  wire::DictReq finish;
  finish.mutable_finish_alter()->set_database("db");
  finish.mutable_finish_alter()->set_name("t");
  finish.mutable_finish_alter()->set_commit(true);
  finish.mutable_finish_alter()->set_next_auto_increment(42);
  ASSERT_EQ(Apply(finish).error_code(), 0u);
  TablePtr now = Find("t");
  ASSERT_NE(now, nullptr);
  EXPECT_NE(now->id, t->id);
  EXPECT_EQ(now->columns.size(), 1u);
  EXPECT_EQ(Find("#sql-alter-1"), nullptr);
  EXPECT_EQ(dictionary_.AlterLockOf(now->id), nullptr);
  wire::DictReq reserve;
  reserve.mutable_reserve_auto_increment()->set_table_id(now->id);
  reserve.mutable_reserve_auto_increment()->set_count(1);
  wire::DictConf values;
  dictionary_.ReserveAutoIncrement(reserve.reserve_auto_increment(), &values);
  EXPECT_EQ(values.auto_increment_first(), 42u);

  // An aborted ALTER drops the copy and leaves the table as it was, unlocked.
  ASSERT_EQ(Create(Def("#sql-alter-2")).error_code(), 0u);
  lock.mutable_lock_for_alter()->set_temp_table("#sql-alter-2");
  lock.mutable_lock_for_alter()->set_version(now->version);
  ASSERT_EQ(Apply(lock).error_code(), 0u);
  finish.mutable_finish_alter()->set_commit(false);
  ASSERT_EQ(Apply(finish).error_code(), 0u);
  EXPECT_EQ(Find("#sql-alter-2"), nullptr);
  EXPECT_EQ(Find("t")->id, now->id);
  EXPECT_EQ(dictionary_.AlterLockOf(now->id), nullptr);
  EXPECT_EQ(Apply(finish).error_code(), 1146u);  // nothing in progress
}

// A parent table goes only with its children (3730), unless the client says checks are off;
// renaming it or its referenced column carries the children's foreign keys along (as MySQL).
TEST_F(DictionaryAlterTest, ForeignKeysHoldTheirParentAndFollowItsNames) {
  schema::TableDef child = Def("child");
  schema::ForeignKeyDef fk;
  fk.name = "child_ibfk_1";
  fk.columns = {1};
  fk.parent_database = "db";
  fk.parent_table = "t";
  fk.parent_columns = {"id"};
  child.columns[1].type = schema::ColumnType::kInt;
  child.columns[1].length = 0;
  child.foreign_keys = {fk};
  ASSERT_EQ(Create(child).error_code(), 0u);

  wire::DictReq drop;
  drop.mutable_drop_table()->set_database("db");
  drop.mutable_drop_table()->set_name("t");
  wire::DictConf refused = Apply(drop);
  EXPECT_EQ(refused.error_code(), 3730u);
  EXPECT_EQ(refused.error_message(),
            "Cannot drop table 't' referenced by a foreign key constraint 'child_ibfk_1' on "
            "table 'child'.");
  ASSERT_NE(Find("t"), nullptr);

  schema::TableDef renamed = *Find("t");
  renamed.name = "parent";
  renamed.columns[0].name = "pid";
  ASSERT_EQ(Replace(renamed).error_code(), 0u);
  TablePtr after = Find("child");
  ASSERT_EQ(after->foreign_keys.size(), 1u);
  EXPECT_EQ(after->foreign_keys[0].parent_table, "parent");
  EXPECT_EQ(after->foreign_keys[0].parent_columns, std::vector<std::string>{"pid"});
  EXPECT_GT(after->version, 1u);  // routers drop their cached definition

  drop.mutable_drop_table()->set_name("parent");
  drop.mutable_drop_table()->set_ignore_foreign_keys(true);
  EXPECT_EQ(Apply(drop).error_code(), 0u);
  EXPECT_EQ(Find("parent"), nullptr);
}

// CREATE TABLE … AUTO_INCREMENT = n starts the counter at n; a reservation from at_least (an
// explicit value a router stored) moves it past that for everyone; ReadAutoIncrement only reads.
TEST_F(DictionaryAlterTest, AutoIncrementCounterStartsAtNAndFollowsExplicitValues) {
  wire::DictReq create;
  schema::AppendTableDef(Def("counted"), create.mutable_create_table()->mutable_table());
  create.mutable_create_table()->set_auto_increment(1000);
  ASSERT_EQ(Apply(create).error_code(), 0u);
  TablePtr counted = Find("counted");
  ASSERT_NE(counted, nullptr);
  auto read = [&] {
    wire::DictReq req;
    req.mutable_read_auto_increment()->add_table_ids(counted->id);
    req.mutable_read_auto_increment()->add_table_ids(9999);  // unknown: left out
    wire::DictConf conf;
    dictionary_.ReadAutoIncrement(req.read_auto_increment(), &conf);
    EXPECT_EQ(conf.next_auto_increment_size(), 1);
    return conf.next_auto_increment().at(counted->id);
  };
  EXPECT_EQ(read(), 1000u);
  EXPECT_EQ(read(), 1000u);
  auto reserve = [&](uint64_t count, uint64_t at_least) {
    wire::DictReq req;
    req.mutable_reserve_auto_increment()->set_table_id(counted->id);
    req.mutable_reserve_auto_increment()->set_count(count);
    req.mutable_reserve_auto_increment()->set_at_least(at_least);
    wire::DictConf conf;
    dictionary_.ReserveAutoIncrement(req.reserve_auto_increment(), &conf);
    return conf;
  };
  EXPECT_EQ(reserve(4, 0).auto_increment_first(), 1000u);
  EXPECT_EQ(reserve(4, 1).auto_increment_first(), 1004u);     // below the counter: no change
  EXPECT_EQ(reserve(4, 5001).auto_increment_first(), 5001u);  // past an explicit 5000
  EXPECT_EQ(read(), 5005u);
  wire::DictConf spent = reserve(4, UINT64_MAX - 1);
  EXPECT_EQ(spent.error_code(), 1467u);
}

}  // namespace
}  // namespace shoal::node
