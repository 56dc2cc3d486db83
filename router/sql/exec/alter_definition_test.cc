// ALTER TABLE's plans: the new definition, where its columns come from, in place or by a copy,
// and MySQL's errors.
#include "router/sql/exec/alter_definition.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "router/sql/exec/table_spec.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
namespace {

using schema::TableDef;

template <typename T>
T ParseAs(absl::string_view sql) {
  auto r = Parse(sql, ParseOptions{});
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << sql << ": " << err->message;
    return {};
  }
  Statement s = std::get<Statement>(std::move(r));
  if (!std::holds_alternative<T>(s.node)) {
    ADD_FAILURE() << sql << ": another statement";
    return {};
  }
  return std::get<T>(std::move(s.node));
}

TableDef Table(absl::string_view create) {
  auto r = TableDefFromSpec(ParseAs<CreateTableStmt>(create), "db");
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << create << ": " << err->message;
    return {};
  }
  TableDef table = std::get<TableDef>(std::move(r));
  table.id = 7;
  table.version = 3;
  table.partitions = 8;
  return table;
}

std::variant<AlterPlan, mysql::SqlError> Plan(const TableDef& table, absl::string_view alter) {
  return PlanAlter(table, ParseAs<AlterTableStmt>(alter), "db");
}

AlterPlan MustPlan(const TableDef& table, absl::string_view alter) {
  auto r = Plan(table, alter);
  if (auto* err = std::get_if<mysql::SqlError>(&r)) {
    ADD_FAILURE() << alter << ": " << err->code << " " << err->message;
    return {};
  }
  return std::get<AlterPlan>(std::move(r));
}

uint16_t MustRefuse(const TableDef& table, absl::string_view alter) {
  auto r = Plan(table, alter);
  if (!std::holds_alternative<mysql::SqlError>(r)) {
    ADD_FAILURE() << alter << ": accepted";
    return 0;
  }
  return std::get<mysql::SqlError>(r).code;
}

std::vector<std::string> Names(const TableDef& table) {
  std::vector<std::string> names;
  for (const auto& c : table.columns) names.push_back(c.name);
  return names;
}

constexpr char kShop[] =
    "CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20) NOT NULL, k INT, "
    "KEY ik (k))";

TEST(AlterPlanTest, NamesDefaultsKeysAndWiderVarcharsChangeInPlace) {
  TableDef t = Table(kShop);
  AlterPlan p = MustPlan(t, "ALTER TABLE t RENAME COLUMN name TO nm, ALTER k SET DEFAULT 7");
  EXPECT_EQ(p.way, AlterPlan::Way::kInPlace);
  EXPECT_EQ(Names(p.table), (std::vector<std::string>{"id", "nm", "k"}));
  EXPECT_TRUE(p.table.columns[2].default_value.has_value());
  EXPECT_EQ(p.table.id, 7u);
  EXPECT_EQ(p.table.version, 3u);
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t MODIFY name VARCHAR(40) NOT NULL").way,
            AlterPlan::Way::kInPlace);
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t ADD INDEX i2 (name, k), DROP INDEX ik").way,
            AlterPlan::Way::kInPlace);
  AlterPlan renamed = MustPlan(t, "ALTER TABLE t RENAME TO other.u");
  EXPECT_EQ(renamed.way, AlterPlan::Way::kInPlace);
  EXPECT_EQ(renamed.table.database, "other");
  EXPECT_EQ(renamed.table.name, "u");
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t ENGINE=InnoDB, DISABLE KEYS").way, AlterPlan::Way::kNothing);
}

// As in MySQL: columns added or redefined without a collation of their own take the table's;
// COLLATE = x changes that default for columns defined later, not the columns there.
TEST(AlterPlanTest, ATablesCollateIsTheDefaultOfColumnsDefinedLater) {
  TableDef bin = Table("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(5)) COLLATE=utf8mb4_bin");
  AlterPlan added = MustPlan(
      bin,
      "ALTER TABLE t ADD b VARCHAR(5), ADD c TEXT COLLATE utf8mb4_general_ci, MODIFY a CHAR(5)");
  ASSERT_EQ(added.table.columns.size(), 4u);
  EXPECT_EQ(added.table.columns[1].collation, schema::Collation::kBinary);  // a, redefined
  EXPECT_EQ(added.table.columns[2].collation, schema::Collation::kBinary);  // b
  EXPECT_EQ(added.table.columns[3].collation, schema::Collation::kCaseInsensitive);
  EXPECT_EQ(added.table.collation, schema::Collation::kBinary);

  AlterPlan ci = MustPlan(bin, "ALTER TABLE t COLLATE=utf8mb4_0900_ai_ci");
  EXPECT_EQ(ci.way, AlterPlan::Way::kInPlace);
  EXPECT_EQ(ci.table.collation, schema::Collation::kCaseInsensitive);
  EXPECT_EQ(ci.table.columns[1].collation, schema::Collation::kBinary) << "a keeps its own";
  AlterPlan then_added = MustPlan(bin, "ALTER TABLE t COLLATE=utf8mb4_general_ci, ADD b CHAR(3)");
  EXPECT_EQ(then_added.table.columns[2].collation, schema::Collation::kCaseInsensitive);
  // A charset alone means its default collation, as in MySQL.
  EXPECT_EQ(MustPlan(bin, "ALTER TABLE t DEFAULT CHARSET=utf8mb4").table.collation,
            schema::Collation::kCaseInsensitive);
  EXPECT_EQ(MustPlan(bin, "ALTER TABLE t ENGINE=ndbcluster").table.collation,
            schema::Collation::kBinary);
}

TEST(AlterPlanTest, StoredChangesCopyWithEachColumnsSource) {
  TableDef t = Table(kShop);
  AlterPlan added = MustPlan(t, "ALTER TABLE t ADD COLUMN x INT DEFAULT 5 AFTER id");
  EXPECT_EQ(added.way, AlterPlan::Way::kCopy);
  EXPECT_EQ(Names(added.table), (std::vector<std::string>{"id", "x", "name", "k"}));
  EXPECT_EQ(added.source, (std::vector<int>{0, -1, 1, 2}));
  AlterPlan first = MustPlan(t, "ALTER TABLE t ADD COLUMN y INT FIRST, DROP COLUMN name");
  EXPECT_EQ(Names(first.table), (std::vector<std::string>{"y", "id", "k"}));
  EXPECT_EQ(first.source, (std::vector<int>{-1, 0, 2}));
  AlterPlan moved = MustPlan(t, "ALTER TABLE t CHANGE k kk BIGINT FIRST");
  EXPECT_EQ(Names(moved.table), (std::vector<std::string>{"kk", "id", "name"}));
  EXPECT_EQ(moved.source, (std::vector<int>{2, 0, 1}));
  // The key on k follows it under its new name.
  EXPECT_EQ(moved.table.indexes.back().columns, (std::vector<int>{0}));
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t MODIFY k INT NOT NULL").way, AlterPlan::Way::kCopy);
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t ADD UNIQUE (k)").way, AlterPlan::Way::kCopy);
  EXPECT_EQ(MustPlan(t, "ALTER TABLE t FORCE").way, AlterPlan::Way::kCopy);
  AlterPlan counted = MustPlan(t, "ALTER TABLE t ADD COLUMN z INT, AUTO_INCREMENT = 100");
  EXPECT_EQ(counted.way, AlterPlan::Way::kCopy);
  EXPECT_EQ(counted.auto_increment, 100u);
}

TEST(AlterPlanTest, PrimaryKeysComeAndGoWithTheHiddenKey) {
  TableDef t = Table("CREATE TABLE t (id INT NOT NULL, v INT, PRIMARY KEY (id))");
  AlterPlan dropped = MustPlan(t, "ALTER TABLE t DROP PRIMARY KEY");
  EXPECT_EQ(dropped.way, AlterPlan::Way::kCopy);
  EXPECT_TRUE(dropped.table.has_hidden_key());
  EXPECT_EQ(dropped.source, (std::vector<int>{0, 1, -1}));  // the hidden key is generated
  TableDef keyless = Table("CREATE TABLE t (a INT, b INT)");
  AlterPlan keyed = MustPlan(keyless, "ALTER TABLE t ADD PRIMARY KEY (a)");
  EXPECT_FALSE(keyed.table.has_hidden_key());
  EXPECT_FALSE(keyed.table.columns[0].nullable);  // a key's column becomes NOT NULL
  EXPECT_EQ(keyed.source, (std::vector<int>{0, 1}));
  AlterPlan kept = MustPlan(keyless, "ALTER TABLE t ADD COLUMN c INT");
  EXPECT_EQ(kept.source, (std::vector<int>{0, 1, -1, 2}));  // the hidden key keeps its values
  // An AUTO_INCREMENT column must stay a key's first column (1075), as in MySQL; also as the
  // data nodes hand the definition back.
  EXPECT_EQ(MustRefuse(Table(kShop), "ALTER TABLE t DROP PRIMARY KEY"), 1075);
  TableDef stored = Table(kShop);
  ASSERT_TRUE(schema::ValidateAndComplete(&stored).ok());
  std::string bytes;
  schema::AppendTableDef(stored, &bytes);
  absl::string_view in = bytes;
  EXPECT_EQ(MustRefuse(*schema::ParseTableDef(&in), "ALTER TABLE t DROP PRIMARY KEY"), 1075);
}

TEST(AlterPlanTest, CurrentTimestampDefaultsComeAndGoInPlace) {
  TableDef t = Table("CREATE TABLE t (id INT PRIMARY KEY, at DATETIME DEFAULT CURRENT_TIMESTAMP)");
  AlterPlan dropped = MustPlan(t, "ALTER TABLE t ALTER COLUMN at DROP DEFAULT");
  EXPECT_EQ(dropped.way, AlterPlan::Way::kInPlace);
  EXPECT_FALSE(dropped.table.columns[1].default_now);
  AlterPlan fixed = MustPlan(t, "ALTER TABLE t ALTER COLUMN at SET DEFAULT '2024-01-02 03:04:05'");
  EXPECT_FALSE(fixed.table.columns[1].default_now);
  EXPECT_TRUE(fixed.table.columns[1].default_value.has_value());
  AlterPlan now = MustPlan(fixed.table, "ALTER TABLE t ALTER COLUMN at SET DEFAULT NOW()");
  EXPECT_TRUE(now.table.columns[1].default_now);
  EXPECT_FALSE(now.table.columns[1].default_value.has_value());
  EXPECT_EQ(MustPlan(t,
                     "ALTER TABLE t MODIFY at DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE "
                     "CURRENT_TIMESTAMP")
                .way,
            AlterPlan::Way::kInPlace);
}

TEST(AlterPlanTest, MysqlErrors) {
  TableDef t = Table(kShop);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD COLUMN k INT"), 1060);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t RENAME COLUMN name TO k"), 1060);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t MODIFY nosuch INT"), 1054);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD COLUMN x INT AFTER nosuch"), 1054);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t DROP COLUMN nosuch"), 1091);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t DROP INDEX nosuch"), 1091);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t DROP id, DROP name, DROP k"), 1090);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD INDEX ik (name)"), 1061);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD PRIMARY KEY (name)"), 1068);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD INDEX (nosuch)"), 1072);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t RENAME INDEX nosuch TO x"), 1176);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ENGINE=Aria"), 1286);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD COLUMN x INT, ALGORITHM=INPLACE"), 1846);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE t ADD COLUMN x INT DEFAULT 'abc'"), 1067);
}

TEST(AlterPlanTest, ForeignKeysFollowTheirColumnsAndKeepTheirIndex) {
  TableDef t = Table(
      "CREATE TABLE c (id INT PRIMARY KEY, pid INT, note INT, "
      "FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE)");
  ASSERT_EQ(t.foreign_keys.size(), 1u);
  EXPECT_EQ(t.foreign_keys[0].name, "c_ibfk_1");
  ASSERT_EQ(t.indexes.size(), 2u);
  EXPECT_EQ(t.indexes[1].name, "pid");  // made for the key, named after its column
  EXPECT_TRUE(t.indexes[1].for_foreign_key);

  // A column moving ahead of it: the key follows by name. A new unnamed key is numbered on.
  AlterPlan p =
      MustPlan(t,
               "ALTER TABLE c ADD COLUMN first_one INT FIRST, RENAME COLUMN pid TO parent, "
               "ADD FOREIGN KEY (note) REFERENCES p (id)");
  ASSERT_EQ(p.table.foreign_keys.size(), 2u);
  EXPECT_EQ(p.table.columns[p.table.foreign_keys[0].columns[0]].name, "parent");
  EXPECT_EQ(p.table.foreign_keys[1].name, "c_ibfk_2");
  EXPECT_EQ(p.new_foreign_keys, 1u);

  EXPECT_EQ(MustRefuse(t, "ALTER TABLE c DROP COLUMN pid"), 1828);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE c DROP INDEX pid"), 1553);
  EXPECT_EQ(MustRefuse(t, "ALTER TABLE c DROP FOREIGN KEY nope"), 1091);

  // An index the user adds that serves the key replaces the one made for it (as MySQL).
  AlterPlan indexed = MustPlan(t, "ALTER TABLE c ADD INDEX both_ (pid, note)");
  ASSERT_EQ(indexed.table.indexes.size(), 2u);
  EXPECT_EQ(indexed.table.indexes[1].name, "both_");
  EXPECT_EQ(indexed.way, AlterPlan::Way::kInPlace);

  // Without the key, its index stays, and may then go.
  AlterPlan dropped = MustPlan(t, "ALTER TABLE c DROP FOREIGN KEY c_ibfk_1, DROP INDEX pid");
  EXPECT_TRUE(dropped.table.foreign_keys.empty());
  EXPECT_EQ(dropped.table.indexes.size(), 1u);
  EXPECT_EQ(dropped.way, AlterPlan::Way::kInPlace);
}

}  // namespace
}  // namespace shoal::sql
