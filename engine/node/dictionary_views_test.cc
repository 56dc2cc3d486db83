// The dictionary master's views: CREATE [OR REPLACE], ALTER and DROP VIEW, the names they
// share with tables, and what a failed request leaves: nothing.
#include <gtest/gtest.h>

#include <string>

#include "engine/node/dictionary.h"
#include "engine/node/dictionary_test_util.h"
#include "engine/schema/schema.h"

namespace shoal::node {
namespace {

class DictionaryViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    wire::DictReq db;
    db.mutable_create_database()->set_name("db");
    ASSERT_EQ(Apply(db).error_code(), 0u);
    ASSERT_EQ(CreateTable("t").error_code(), 0u);
  }

  wire::DictConf CreateTable(const std::string& name) {
    wire::DictReq req;
    schema::AppendTableDef(Def(name), req.mutable_create_table()->mutable_table());
    return Apply(req);
  }
  wire::DictConf Apply(const wire::DictReq& req) {
    wire::DictConf conf;
    DictionaryDelta delta;
    dictionary_.Apply(req, &conf, &delta);
    return conf;
  }
  wire::DictConf CreateView(const std::string& name, const std::string& select,
                            bool or_replace = false, bool must_exist = false,
                            const std::string& database = "db") {
    wire::DictReq req;
    wire::CreateView* create = req.mutable_create_view();
    create->set_or_replace(or_replace);
    create->set_must_exist(must_exist);
    create->mutable_view()->set_database(database);
    create->mutable_view()->set_name(name);
    create->mutable_view()->set_select(select);
    return Apply(req);
  }
  wire::DictConf DropViews(std::initializer_list<std::string> names, bool if_exists = false) {
    wire::DictReq req;
    req.mutable_drop_views()->set_if_exists(if_exists);
    for (const std::string& name : names) {
      wire::ObjectName* n = req.mutable_drop_views()->add_names();
      n->set_database("db");
      n->set_name(name);
    }
    return Apply(req);
  }
  // The view's SELECT in the dictionary every node installs, or "" when it has none.
  std::string Select(const std::string& name) const {
    wire::Dictionary proto;
    dictionary_.ToProto(&proto);
    for (const wire::View& view : proto.views()) {
      if (view.database() == "db" && view.name() == name) return view.select();
    }
    return "";
  }

  Dictionary dictionary_{4};
};

TEST_F(DictionaryViewsTest, AViewIsMadeReplacedAndAlteredByName) {
  uint32_t before = dictionary_.version();
  wire::DictConf made = CreateView("v", "SELECT 1");
  ASSERT_EQ(made.error_code(), 0u) << made.error_message();
  EXPECT_GT(dictionary_.version(), before);
  ASSERT_EQ(made.dictionary().views_size(), 1);
  EXPECT_EQ(Select("v"), "SELECT 1");

  wire::DictConf again = CreateView("v", "SELECT 2");
  EXPECT_EQ(again.error_code(), 1050u);
  EXPECT_EQ(again.error_message(), "Table 'v' already exists");
  EXPECT_EQ(Select("v"), "SELECT 1");

  EXPECT_EQ(CreateView("v", "SELECT 2", /*or_replace=*/true).error_code(), 0u);
  EXPECT_EQ(Select("v"), "SELECT 2");
  EXPECT_EQ(CreateView("v", "SELECT 3", false, /*must_exist=*/true).error_code(), 0u);
  EXPECT_EQ(Select("v"), "SELECT 3");

  wire::DictConf missing = CreateView("w", "SELECT 1", false, /*must_exist=*/true);
  EXPECT_EQ(missing.error_code(), 1146u);
  EXPECT_EQ(missing.error_message(), "Table 'db.w' doesn't exist");
  EXPECT_EQ(Select("w"), "");
  EXPECT_EQ(CreateView("v", "SELECT 1", false, false, "nodb").error_code(), 1049u);
}

TEST_F(DictionaryViewsTest, ViewsAndTablesShareNames) {
  wire::DictConf over_table = CreateView("t", "SELECT 1");
  EXPECT_EQ(over_table.error_code(), 1050u);
  wire::DictConf replace_table = CreateView("t", "SELECT 1", /*or_replace=*/true);
  EXPECT_EQ(replace_table.error_code(), 1347u);
  EXPECT_EQ(replace_table.error_message(), "'db.t' is not VIEW");

  ASSERT_EQ(CreateView("v", "SELECT 1").error_code(), 0u);
  EXPECT_EQ(CreateTable("v").error_code(), 1050u);

  wire::DictReq drop_table;
  drop_table.mutable_drop_table()->set_database("db");
  drop_table.mutable_drop_table()->set_name("v");
  EXPECT_EQ(Apply(drop_table).error_code(), 1051u);
  EXPECT_EQ(Select("v"), "SELECT 1");
}

TEST_F(DictionaryViewsTest, DropViewDropsAllOrNone) {
  ASSERT_EQ(CreateView("a", "SELECT 1").error_code(), 0u);
  ASSERT_EQ(CreateView("b", "SELECT 2").error_code(), 0u);

  wire::DictConf some_missing = DropViews({"a", "x", "y"});
  EXPECT_EQ(some_missing.error_code(), 1051u);
  EXPECT_EQ(some_missing.error_message(), "Unknown table 'db.x,db.y'");
  EXPECT_EQ(Select("a"), "SELECT 1");

  wire::DictConf a_table = DropViews({"a", "t"});
  EXPECT_EQ(a_table.error_code(), 1347u);
  EXPECT_EQ(a_table.error_message(), "'db.t' is not VIEW");
  EXPECT_EQ(Select("a"), "SELECT 1");

  wire::DictConf if_exists = DropViews({"a", "x"}, /*if_exists=*/true);
  EXPECT_EQ(if_exists.error_code(), 0u);
  EXPECT_EQ(if_exists.note_code(), 1051u);
  EXPECT_EQ(Select("a"), "");
  EXPECT_EQ(DropViews({"b"}).error_code(), 0u);
  EXPECT_EQ(Select("b"), "");
}

// A router that still has the old SELECT reads the tables at their old versions: they are
// refused (1412), and it reads the new dictionary.
TEST_F(DictionaryViewsTest, ReplacingOrDroppingAViewMakesNewVersionsOfWhatItRead) {
  auto version_of_t = [&] {
    for (const auto& [id, table] : dictionary_.tables()) {
      if (table->name == "t") return table->version;
    }
    return 0u;
  };
  wire::DictReq req;
  wire::View* view = req.mutable_create_view()->mutable_view();
  view->set_database("db");
  view->set_name("v");
  view->set_select("SELECT id FROM t");
  wire::ObjectName* read = view->add_reads();
  read->set_database("db");
  read->set_name("t");
  ASSERT_EQ(Apply(req).error_code(), 0u);
  const uint32_t made = version_of_t();

  req.mutable_create_view()->set_or_replace(true);
  req.mutable_create_view()->mutable_view()->clear_reads();
  wire::DictConf conf;
  DictionaryDelta delta;
  dictionary_.Apply(req, &conf, &delta);
  ASSERT_EQ(conf.error_code(), 0u);
  EXPECT_EQ(version_of_t(), made + 1);
  ASSERT_EQ(delta.created.size(), 1u);
  EXPECT_EQ(delta.created[0]->name, "t");

  // The new SELECT reads nothing: dropping it changes no table.
  ASSERT_EQ(DropViews({"v"}).error_code(), 0u);
  EXPECT_EQ(version_of_t(), made + 1);
}

TEST_F(DictionaryViewsTest, RenameTableOfAViewStaysInItsDatabase) {
  ASSERT_EQ(CreateView("v", "SELECT 1").error_code(), 0u);
  ASSERT_EQ(CreateView("w", "SELECT 2").error_code(), 0u);
  auto rename = [&](const std::string& to, const std::string& to_db = "db") {
    wire::DictReq req;
    req.mutable_rename_view()->mutable_from()->set_database("db");
    req.mutable_rename_view()->mutable_from()->set_name("v");
    req.mutable_rename_view()->mutable_to()->set_database(to_db);
    req.mutable_rename_view()->mutable_to()->set_name(to);
    return Apply(req);
  };
  EXPECT_EQ(rename("w").error_code(), 1050u);
  EXPECT_EQ(rename("t").error_code(), 1050u);
  wire::DictConf other_db = rename("v", "db2");
  EXPECT_EQ(other_db.error_code(), 1450u);
  EXPECT_EQ(other_db.error_message(), "Changing schema from 'db' to 'db2' is not allowed.");
  EXPECT_EQ(Select("v"), "SELECT 1");
  ASSERT_EQ(rename("u").error_code(), 0u);
  EXPECT_EQ(Select("v"), "");
  EXPECT_EQ(Select("u"), "SELECT 1");
  EXPECT_EQ(rename("x").error_code(), 1146u);
}

TEST_F(DictionaryViewsTest, ViewsGoWithTheirDatabaseAndTravelToOtherNodes) {
  ASSERT_EQ(CreateView("v", "SELECT id FROM t").error_code(), 0u);
  wire::Dictionary proto;
  dictionary_.ToProto(&proto);

  Dictionary replica(4);
  DictionaryDelta delta;
  ASSERT_TRUE(replica.Install(proto, {}, &delta).ok());
  wire::Dictionary installed;
  replica.ToProto(&installed);
  ASSERT_EQ(installed.views_size(), 1);
  EXPECT_EQ(installed.views(0).select(), "SELECT id FROM t");

  wire::DictReq drop;
  drop.mutable_drop_database()->set_name("db");
  ASSERT_EQ(Apply(drop).error_code(), 0u);
  EXPECT_EQ(Select("v"), "");
}

}  // namespace
}  // namespace shoal::node
