// Table definitions: type facts, date packing, ValidateAndComplete's MySQL errors and
// completions, the serialized form (round trips, every truncation rejected) and KeyHash.
#include "engine/schema/schema.h"

#include <string>

#include "engine/schema/bytes.h"
#include "engine/schema/collation.h"
#include "engine/schema/row.h"
#include "engine/schema/schema_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal::schema {
namespace {

using ::testing::HasSubstr;

using testutil::Column;

IndexDef Index(std::string name, std::vector<int> columns, bool primary = false,
               bool unique = false) {
  IndexDef index;
  index.name = std::move(name);
  index.columns = std::move(columns);
  index.primary = primary;
  index.unique = unique || primary;
  return index;
}

// CREATE TABLE db.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT, c CHAR(120), KEY k (k)).
TableDef Sbtest() {
  TableDef t;
  t.id = 7;
  t.version = 3;
  t.database = "db";
  t.name = "t";
  t.columns = {Column("id", ColumnType::kInt), Column("k", ColumnType::kInt),
               Column("c", ColumnType::kChar, 120)};
  t.columns[0].auto_increment = true;
  t.indexes = {Index("", {0}, true), Index("k", {1})};
  return t;
}

// Sbtest with its character column made BINARY: its bytes read the same in every format
// (format 4 added a collation byte after each CHAR, VARCHAR and TEXT column).
TableDef SbtestWithoutText() {
  TableDef t = Sbtest();
  t.columns[2].type = ColumnType::kBinary;
  return t;
}

std::string Message(const absl::Status& status) { return std::string(status.message()); }

TEST(ColumnTypeTest, Facts) {
  EXPECT_EQ(ColumnTypeName(ColumnType::kTinyInt), "TINYINT");
  EXPECT_EQ(ColumnTypeName(ColumnType::kVarBinary), "VARBINARY");
  EXPECT_EQ(ColumnTypeName(ColumnType::kTimestamp), "TIMESTAMP");
  EXPECT_EQ(FixedSize(ColumnType::kTinyInt), 1);
  EXPECT_EQ(FixedSize(ColumnType::kSmallInt), 2);
  EXPECT_EQ(FixedSize(ColumnType::kMediumInt), 4);
  EXPECT_EQ(FixedSize(ColumnType::kInt), 4);
  EXPECT_EQ(FixedSize(ColumnType::kBigInt), 8);
  EXPECT_EQ(FixedSize(ColumnType::kFloat), 4);
  EXPECT_EQ(FixedSize(ColumnType::kDouble), 8);
  EXPECT_EQ(FixedSize(ColumnType::kDate), 4);
  EXPECT_EQ(FixedSize(ColumnType::kTime), 8);
  EXPECT_EQ(FixedSize(ColumnType::kDateTime), 8);
  EXPECT_EQ(FixedSize(ColumnType::kTimestamp), 8);
  EXPECT_EQ(FixedSize(ColumnType::kEnum), 2);
  EXPECT_EQ(FixedSize(ColumnType::kSet), 8);
  EXPECT_EQ(FixedSize(ColumnType::kJson), 0);
  EXPECT_EQ(ColumnTypeName(ColumnType::kJson), "JSON");
  EXPECT_TRUE(IsEnumOrSet(ColumnType::kSet));
  EXPECT_FALSE(IsString(ColumnType::kEnum));
  EXPECT_FALSE(IsInteger(ColumnType::kEnum));
  for (ColumnType t :
       {ColumnType::kDecimal, ColumnType::kChar, ColumnType::kVarChar, ColumnType::kBinary,
        ColumnType::kVarBinary, ColumnType::kText, ColumnType::kBlob}) {
    EXPECT_EQ(FixedSize(t), 0) << ColumnTypeName(t);
    EXPECT_TRUE(IsString(t));
    EXPECT_FALSE(IsInteger(t));
  }
  EXPECT_TRUE(IsInteger(ColumnType::kMediumInt));
  EXPECT_FALSE(IsInteger(ColumnType::kFloat));
  EXPECT_FALSE(IsString(ColumnType::kDate));
  EXPECT_EQ(FixedSize(static_cast<ColumnType>(0)), 0);
  EXPECT_EQ(FixedSize(static_cast<ColumnType>(200)), 0);
}

TEST(DateTimeTest, PackRoundTripAndOrder) {
  int64_t a = PackDateTime(2024, 2, 29, 23, 59, 59, 999999);
  DateTimeParts p = UnpackDateTime(a);
  EXPECT_EQ(p.year, 2024);
  EXPECT_EQ(p.month, 2);
  EXPECT_EQ(p.day, 29);
  EXPECT_EQ(p.hour, 23);
  EXPECT_EQ(p.minute, 59);
  EXPECT_EQ(p.second, 59);
  EXPECT_EQ(p.microsecond, 999999);
  EXPECT_LT(a, PackDateTime(2024, 3, 1, 0, 0, 0, 0));
  EXPECT_LT(PackDateTime(1999, 12, 31, 23, 59, 59, 999999), PackDateTime(2000, 1, 1, 0, 0, 0, 0));
  EXPECT_LT(PackDateTime(2000, 1, 1, 0, 0, 0, 0), PackDateTime(2000, 1, 1, 0, 0, 0, 1));
  EXPECT_EQ(PackDateTime(0, 0, 0, 0, 0, 0, 0), 0);
  DateTimeParts max = UnpackDateTime(PackDateTime(9999, 12, 31, 23, 59, 59, 999999));
  EXPECT_EQ(max.year, 9999);
  EXPECT_EQ(max.microsecond, 999999);
}

TEST(TableDefTest, Lookups) {
  TableDef t = Sbtest();
  EXPECT_EQ(t.FindColumn("K"), 1);
  EXPECT_EQ(t.FindColumn("c"), 2);
  EXPECT_EQ(t.FindColumn("nope"), -1);
  EXPECT_EQ(t.FindIndex("K"), 1);
  EXPECT_EQ(t.auto_increment_column(), 0);
  t.columns[0].auto_increment = false;
  EXPECT_EQ(t.auto_increment_column(), -1);
}

TEST(ValidateTest, CompletesSbtest) {
  TableDef t = Sbtest();
  t.columns[0].nullable = true;
  ASSERT_TRUE(ValidateAndComplete(&t).ok());
  EXPECT_EQ(t.primary_key().name, "PRIMARY");
  EXPECT_TRUE(t.primary_key().unique);
  EXPECT_FALSE(t.columns[0].nullable);  // PRIMARY KEY columns become NOT NULL
  EXPECT_FALSE(t.has_hidden_key());
  EXPECT_EQ(t.partitions, 0u);
}

TEST(ValidateTest, AddsHiddenKey) {
  TableDef t = Sbtest();
  t.columns[0].auto_increment = false;
  t.indexes.erase(t.indexes.begin());
  ASSERT_TRUE(ValidateAndComplete(&t).ok());
  ASSERT_EQ(t.columns.size(), 4u);
  const ColumnDef& key = t.columns.back();
  EXPECT_EQ(key.name, "$PK");
  EXPECT_EQ(key.type, ColumnType::kBigInt);
  EXPECT_TRUE(key.is_unsigned);
  EXPECT_FALSE(key.nullable);
  EXPECT_TRUE(key.hidden);
  EXPECT_TRUE(t.has_hidden_key());
  ASSERT_EQ(t.indexes.size(), 2u);
  EXPECT_EQ(t.primary_key().name, "PRIMARY");
  EXPECT_TRUE(t.primary_key().primary);
  EXPECT_EQ(t.primary_key().columns, std::vector<int>{3});
  EXPECT_EQ(t.indexes[1].name, "k");
  // Completing again changes nothing.
  TableDef again = t;
  ASSERT_TRUE(ValidateAndComplete(&again).ok());
  EXPECT_EQ(again.columns.size(), 4u);
  EXPECT_EQ(again.indexes.size(), 2u);
}

TEST(ValidateTest, MovesPrimaryFirstAndNamesIndexes) {
  TableDef t = Sbtest();
  t.indexes = {Index("", {1}), Index("", {1}), Index("pk", {0}, true)};
  ASSERT_TRUE(ValidateAndComplete(&t).ok());
  ASSERT_EQ(t.indexes.size(), 3u);
  EXPECT_EQ(t.indexes[0].name, "PRIMARY");
  EXPECT_EQ(t.indexes[1].name, "k");
  EXPECT_EQ(t.indexes[2].name, "k_2");
}

TEST(ValidateTest, Errors) {
  struct Case {
    const char* what;
    void (*edit)(TableDef*);
    const char* message;
  };
  const Case cases[] = {
      {"duplicate column", [](TableDef* t) { t->columns[2].name = "K"; },
       "1060: Duplicate column name 'K'"},
      {"two auto columns", [](TableDef* t) { t->columns[1].auto_increment = true; },
       "1075: Incorrect table definition; there can be only one auto column and it must be "
       "defined as a key"},
      {"auto not a key", [](TableDef* t) { t->indexes[0].columns = {2}; },
       "1075: Incorrect table definition; there can be only one auto column and it must be "
       "defined as a key"},
      {"auto second in key",
       [](TableDef* t) {
         t->indexes[1].columns = {1, 0};
         t->indexes.erase(t->indexes.begin());
       },
       "1075: Incorrect table definition; there can be only one auto column and it must be "
       "defined as a key"},
      {"auto on char", [](TableDef* t) { t->columns[2].auto_increment = true; },
       "1063: Incorrect column specifier for column 'c'"},
      {"two primaries", [](TableDef* t) { t->indexes[1].primary = true; },
       "1068: Multiple primary key defined"},
      {"missing key column", [](TableDef* t) { t->indexes[1].columns = {9}; },
       "1072: Key column '9' doesn't exist in table"},
      {"varchar too long",
       [](TableDef* t) { t->columns[2] = Column("c", ColumnType::kVarChar, 16384); },
       "1074: Column length too big for column 'c' (max = 16383); use BLOB or TEXT instead"},
      {"char too long", [](TableDef* t) { t->columns[2].length = 256; },
       "1074: Column length too big for column 'c' (max = 255); use BLOB or TEXT instead"},
      {"duplicate key", [](TableDef* t) { t->indexes.push_back(Index("K", {2})); },
       "1061: Duplicate key name 'K'"},
      {"index named PRIMARY", [](TableDef* t) { t->indexes[1].name = "primary"; },
       "1280: Incorrect index name 'primary'"},
      {"no columns",
       [](TableDef* t) {
         t->columns.clear();
         t->indexes.clear();
       },
       "1113: A table must have at least 1 column"},
      {"empty column name", [](TableDef* t) { t->columns[1].name = ""; },
       "1166: Incorrect column name ''"},
      {"reserved name", [](TableDef* t) { t->columns[1].name = "$pk"; },
       "1166: Incorrect column name '$pk'"},
      {"user hidden column", [](TableDef* t) { t->columns[1].hidden = true; },
       "1166: Incorrect column name 'k'"},
      {"bad table name", [](TableDef* t) { t->name = ""; }, "1103: Incorrect table name ''"},
      {"blob key",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kBlob);
         t->indexes[1].columns = {2};
       },
       "1170: BLOB/TEXT column 'c' used in key specification without a key length"},
      {"decimal precision",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kDecimal);
         t->columns[2].precision = 66;
       },
       "1426: Too big precision 66 specified for 'c'. Maximum is 65."},
      {"decimal scale",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kDecimal);
         t->columns[2].precision = 5;
         t->columns[2].scale = 6;
       },
       "1427: For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column 'c')."},
      {"datetime precision",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kDateTime);
         t->columns[2].precision = 7;
       },
       "1426: Too big precision 7 specified for 'c'. Maximum is 6."},
      {"bad default", [](TableDef* t) { t->columns[1].default_value = "abc"; },
       "1067: Invalid default value for 'k'"},
      {"text default",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kText);
         t->columns[2].default_value = std::string(2, '\0');
       },
       "1101: BLOB, TEXT, GEOMETRY or JSON column 'c' can't have a default value"},
      {"on update of an int", [](TableDef* t) { t->columns[1].on_update_now = true; },
       "1294: Invalid ON UPDATE clause for 'k' column"},
      {"current time of an int", [](TableDef* t) { t->columns[1].default_now = true; },
       "1067: Invalid default value for 'k'"},
      {"current time and a constant",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kDateTime);
         t->columns[2].default_now = true;
         t->columns[2].default_value = EncodeValue(t->columns[2], std::string(8, '\0'));
       },
       "1067: Invalid default value for 'c'"},
      {"too many key parts",
       [](TableDef* t) {
         for (int i = 0; i < 17; ++i)
           t->columns.push_back(Column("x" + std::to_string(i), ColumnType::kInt));
         t->indexes[1].columns.clear();
         for (int i = 0; i < 17; ++i) t->indexes[1].columns.push_back(3 + i);
       },
       "1070: Too many key parts specified; max 16 parts allowed"},
      {"key too long",
       [](TableDef* t) {
         t->columns[2] = Column("c", ColumnType::kVarChar, 1000);
         t->indexes[1].columns = {2};
       },
       "1071: Specified key was too long; max key length is 3072 bytes"},
      {"duplicate key part",
       [](TableDef* t) {
         t->indexes[1].columns = {1, 1};
       },
       "1060: Duplicate column name 'k'"},
  };
  for (const Case& c : cases) {
    TableDef t = Sbtest();
    c.edit(&t);
    absl::Status status = ValidateAndComplete(&t);
    EXPECT_TRUE(absl::IsInvalidArgument(status)) << c.what;
    EXPECT_EQ(Message(status), c.message) << c.what;
  }
}

TEST(ValidateTest, AcceptsLimitsAndDefaults) {
  TableDef t = Sbtest();
  t.columns[2] = Column("c", ColumnType::kVarChar, 16383);
  t.columns.push_back(Column("d", ColumnType::kDecimal));
  t.columns[1].default_value = EncodeValue(t.columns[1], std::string("\x05\0\0\0", 4));
  ColumnDef v = Column("v", ColumnType::kVarChar, 3);
  v.default_value = EncodeValue(v, "abc");
  t.columns.push_back(v);
  ASSERT_TRUE(ValidateAndComplete(&t).ok()) << Message(ValidateAndComplete(&t));
  EXPECT_EQ(t.columns[3].precision, 10);  // DECIMAL means DECIMAL(10, 0)
}

TEST(ValidateTest, AcceptsCurrentTimestamp) {
  TableDef t = Sbtest();
  ColumnDef created = Column("created", ColumnType::kTimestamp);
  created.default_now = true;
  ColumnDef updated = Column("updated", ColumnType::kDateTime);
  updated.precision = 6;
  updated.default_now = true;
  updated.on_update_now = true;
  ColumnDef touched = Column("touched", ColumnType::kDateTime);  // ON UPDATE alone
  touched.on_update_now = true;
  t.columns.insert(t.columns.end(), {created, updated, touched});
  EXPECT_TRUE(ValidateAndComplete(&t).ok()) << Message(ValidateAndComplete(&t));
}

TEST(ValidateTest, TooManyColumnsAndIndexes) {
  TableDef t = Sbtest();
  for (int i = 0; i < 4094; ++i)
    t.columns.push_back(Column("x" + std::to_string(i), ColumnType::kInt));
  EXPECT_EQ(Message(ValidateAndComplete(&t)), "1117: Too many columns");
  t = Sbtest();
  for (int i = 0; i < 63; ++i) t.indexes.push_back(Index("i" + std::to_string(i), {1}));
  EXPECT_EQ(Message(ValidateAndComplete(&t)), "1069: Too many keys specified; max 64 keys allowed");
}

TableDef EveryType() {
  TableDef t;
  t.id = 0xDEADBEEF;
  t.version = 42;
  t.database = "shop";
  t.name = "all_types";
  t.partitions = 8;
  t.comment = "every column type";
  for (int type = 1; type <= static_cast<int>(kMaxColumnType); ++type) {
    ColumnDef c = Column("c" + std::to_string(type), static_cast<ColumnType>(type), 17);
    c.is_unsigned = type % 2 == 0;
    c.nullable = type % 3 != 0;
    c.precision = static_cast<uint8_t>(type);
    c.scale = 2;
    if (type == 4) c.default_value = std::string("\x01\x02\x03\x04", 4);
    if (type == 10) c.default_value = std::string("\x00\x00", 2);
    // DATETIME: DEFAULT CURRENT_TIMESTAMP; TIMESTAMP: ON UPDATE too, the two new flag bits.
    c.default_now = type >= static_cast<int>(ColumnType::kDateTime);
    c.on_update_now = type == static_cast<int>(ColumnType::kTimestamp);
    if (IsEnumOrSet(c.type)) c.elements = {"small", "", "large, or more"};
    if (type % 4 == 1) c.comment = "column " + std::to_string(type);
    t.columns.push_back(c);
  }
  t.columns[0].auto_increment = true;
  t.columns.push_back(Column("$PK", ColumnType::kBigInt));
  t.columns.back().hidden = true;
  const int hidden = static_cast<int>(t.columns.size()) - 1;
  t.indexes = {Index("PRIMARY", {hidden}, true), Index("k", {0, 9, 3}, false, true)};
  return t;
}

void ExpectSame(const TableDef& a, const TableDef& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.database, b.database);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.partitions, b.partitions);
  EXPECT_EQ(a.comment, b.comment);
  EXPECT_EQ(a.collation, b.collation);
  ASSERT_EQ(a.columns.size(), b.columns.size());
  for (size_t i = 0; i < a.columns.size(); ++i) {
    const ColumnDef& x = a.columns[i];
    const ColumnDef& y = b.columns[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.type, y.type);
    EXPECT_EQ(x.is_unsigned, y.is_unsigned);
    EXPECT_EQ(x.length, y.length);
    EXPECT_EQ(x.precision, y.precision);
    EXPECT_EQ(x.scale, y.scale);
    EXPECT_EQ(x.nullable, y.nullable);
    EXPECT_EQ(x.auto_increment, y.auto_increment);
    EXPECT_EQ(x.default_value, y.default_value);
    EXPECT_EQ(x.default_now, y.default_now);
    EXPECT_EQ(x.on_update_now, y.on_update_now);
    EXPECT_EQ(x.hidden, y.hidden);
    EXPECT_EQ(x.elements, y.elements);
    EXPECT_EQ(x.comment, y.comment);
    EXPECT_EQ(x.collation, y.collation);
  }
  ASSERT_EQ(a.indexes.size(), b.indexes.size());
  for (size_t i = 0; i < a.indexes.size(); ++i) {
    EXPECT_EQ(a.indexes[i].name, b.indexes[i].name);
    EXPECT_EQ(a.indexes[i].columns, b.indexes[i].columns);
    EXPECT_EQ(a.indexes[i].unique, b.indexes[i].unique);
    EXPECT_EQ(a.indexes[i].primary, b.indexes[i].primary);
  }
}

TEST(SerializeTest, RoundTrip) {
  for (const TableDef& t : {EveryType(), Sbtest(), TableDef{}}) {
    std::string bytes;
    AppendTableDef(t, &bytes);
    bytes += "tail";
    absl::string_view in = bytes;
    absl::StatusOr<TableDef> parsed = ParseTableDef(&in);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(in, "tail");
    ExpectSame(t, *parsed);
  }
}

TEST(SerializeTest, ConcatenatedDefinitions) {
  std::string bytes;
  AppendTableDef(Sbtest(), &bytes);
  AppendTableDef(EveryType(), &bytes);
  absl::string_view in = bytes;
  ASSERT_TRUE(ParseTableDef(&in).ok());
  absl::StatusOr<TableDef> second = ParseTableDef(&in);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->name, "all_types");
  EXPECT_TRUE(in.empty());
}

TEST(SerializeTest, EveryTruncationRejected) {
  std::string bytes;
  AppendTableDef(EveryType(), &bytes);
  for (size_t n = 0; n < bytes.size(); ++n) {
    absl::string_view in(bytes.data(), n);
    absl::StatusOr<TableDef> parsed = ParseTableDef(&in);
    EXPECT_FALSE(parsed.ok()) << n;
    EXPECT_EQ(in.size(), n);  // untouched on failure
  }
}

TEST(SerializeTest, ForeignKeysRoundTripAndTheFirstFormatStillParses) {
  TableDef t = Sbtest();
  ForeignKeyDef fk;
  fk.name = "fk";
  fk.columns = {1};
  fk.parent_database = "db";
  fk.parent_table = "parent";
  fk.parent_columns = {"id"};
  fk.on_delete = ReferenceAction::kCascade;
  fk.on_update = ReferenceAction::kSetNull;
  t.foreign_keys = {fk};
  t.indexes[1].for_foreign_key = true;
  std::string bytes;
  AppendTableDef(t, &bytes);
  absl::string_view in = bytes;
  absl::StatusOr<TableDef> parsed = ParseTableDef(&in);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->foreign_keys.size(), 1u);
  EXPECT_EQ(parsed->foreign_keys[0].columns, std::vector<int>{1});
  EXPECT_EQ(parsed->foreign_keys[0].parent_columns, std::vector<std::string>{"id"});
  EXPECT_EQ(parsed->foreign_keys[0].on_delete, ReferenceAction::kCascade);
  EXPECT_EQ(parsed->foreign_keys[0].on_update, ReferenceAction::kSetNull);
  EXPECT_TRUE(parsed->indexes[1].for_foreign_key);

  // Format 1 (before foreign keys): no count after the indexes. (Formats before 4 have no
  // collation byte after a character column: these tables have none.)
  std::string old;
  AppendTableDef(SbtestWithoutText(), &old);
  old[0] = 1;
  old.pop_back();  // the table's collation (format 5)
  old.pop_back();  // the foreign key count (0)
  absl::string_view old_in = old;
  absl::StatusOr<TableDef> from_old = ParseTableDef(&old_in);
  ASSERT_TRUE(from_old.ok()) << from_old.status();
  EXPECT_TRUE(from_old->foreign_keys.empty());
  EXPECT_TRUE(old_in.empty());

  // Format 2 (before ENUM and SET): a table of other types reads the same.
  std::string two;
  AppendTableDef(SbtestWithoutText(), &two);
  two[0] = 2;
  two.pop_back();  // the table's collation
  absl::string_view two_in = two;
  absl::StatusOr<TableDef> from_two = ParseTableDef(&two_in);
  ASSERT_TRUE(from_two.ok()) << from_two.status();
  ExpectSame(SbtestWithoutText(), *from_two);

  // A foreign key naming a column the table does not have is refused.
  t.foreign_keys[0].columns = {99};
  EXPECT_FALSE(ValidateAndComplete(&t).ok());
}

TEST(SerializeTest, CollationsRoundTripAndOlderFormatsReadAsBinary) {
  TableDef t = Sbtest();
  t.columns[2].collation = Collation::kCaseInsensitive;
  t.columns.push_back(Column("v", ColumnType::kVarChar, 10));  // binary, as _bin names it
  t.columns.push_back(Column("txt", ColumnType::kText));
  t.columns.back().collation = Collation::kCaseInsensitive;
  t.collation = Collation::kBinary;  // COLLATE=utf8mb4_bin
  std::string bytes;
  AppendTableDef(t, &bytes);
  absl::string_view in = bytes;
  absl::StatusOr<TableDef> parsed = ParseTableDef(&in);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ExpectSame(t, *parsed);

  // Format 4 had no table collation: its tables read as case-insensitive ones, the default.
  std::string four = bytes;
  four[0] = 4;
  four.pop_back();
  in = four;
  parsed = ParseTableDef(&in);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(in.empty());
  EXPECT_EQ(parsed->collation, Collation::kCaseInsensitive);
  std::string unknown = bytes;
  unknown.back() = 7;
  in = unknown;
  EXPECT_FALSE(ParseTableDef(&in).ok());

  // Format 3 had no collation byte: its character columns read as binary, as they compared.
  TableDef three = Sbtest();
  three.columns.push_back(Column("v", ColumnType::kVarChar, 10));
  std::string old;
  AppendTableDef(three, &old);
  // Drop each character column's collation byte (0: binary) and say format 3.
  std::string without;
  {
    TableDef probe = three;
    probe.columns[2].collation = Collation::kCaseInsensitive;
    probe.columns[3].collation = Collation::kCaseInsensitive;
    std::string marked;
    AppendTableDef(probe, &marked);
    ASSERT_EQ(marked.size(), old.size());
    for (size_t i = 0; i < old.size(); ++i) {
      if (marked[i] != old[i]) continue;  // the bytes that differ are the collation bytes
      without.push_back(old[i]);
    }
    ASSERT_EQ(without.size(), old.size() - 2);
  }
  without[0] = 3;
  without.pop_back();  // the table's collation
  in = without;
  parsed = ParseTableDef(&in);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(in.empty());
  ExpectSame(three, *parsed);
  EXPECT_FALSE(FoldsCase(parsed->columns[2]));

  // An unknown collation is refused.
  std::string bad = bytes;
  TableDef marked = t;
  std::string marked_bytes;
  marked.columns[2].collation = Collation::kBinary;
  AppendTableDef(marked, &marked_bytes);
  for (size_t i = 0; i < bad.size(); ++i) {
    if (bad[i] != marked_bytes[i]) bad[i] = 2;
  }
  in = bad;
  EXPECT_FALSE(ParseTableDef(&in).ok());
}

TEST(ValidateTest, EnumAndSetMembers) {
  TableDef t = Sbtest();
  t.columns.push_back(Column("e", ColumnType::kEnum));
  EXPECT_THAT(Message(ValidateAndComplete(&t)), HasSubstr("1097"));  // no members
  t = Sbtest();
  t.columns.push_back(Column("s", ColumnType::kSet));
  for (int i = 0; i < 65; ++i) t.columns.back().elements.push_back(std::to_string(i));
  EXPECT_THAT(Message(ValidateAndComplete(&t)), HasSubstr("Too many strings for column s and SET"));
  t.columns.back().elements.pop_back();
  EXPECT_TRUE(ValidateAndComplete(&t).ok());
  // Other types carry no members.
  t = Sbtest();
  t.columns[1].elements = {"x"};
  ASSERT_TRUE(ValidateAndComplete(&t).ok());
  EXPECT_TRUE(t.columns[1].elements.empty());
}

TEST(RowTest, EnumAndSetOrderAsUnsignedPositions) {
  ColumnDef e = Column("e", ColumnType::kEnum);
  e.elements.resize(40000, "m");
  std::string small, big;
  internal::AppendLe(2, 2, &small);
  internal::AppendLe(39000, 2, &big);
  EXPECT_LT(CompareField(e, small, big), 0);
  EXPECT_EQ(FieldInt(e, big), 39000);
  ColumnDef set = Column("s", ColumnType::kSet);
  set.elements = {"a", "b"};
  EXPECT_EQ(MemberText(set, 3), "a,b");
  EXPECT_EQ(MemberText(e, 0), "");
  EXPECT_EQ(MemberText(e, 40001), "");
}

TEST(SerializeTest, CorruptionRejected) {
  std::string good;
  AppendTableDef(Sbtest(), &good);
  auto parses = [](std::string bytes) {
    absl::string_view in = bytes;
    return ParseTableDef(&in).ok();
  };
  ASSERT_TRUE(parses(good));
  std::string bad = good;
  bad[0] = 6;  // unknown format
  EXPECT_FALSE(parses(bad));
  // The first column's type byte follows header (1+12), three strings and the count, and
  // the column name "id".
  size_t header = 1 + 12 + (4 + 2) + (4 + 1) + (4 + 0) + 2;
  size_t type_at = header + 4 + 2;
  ASSERT_EQ(good[type_at], static_cast<char>(ColumnType::kInt));
  bad = good;
  bad[type_at] = 0;
  EXPECT_FALSE(parses(bad));
  bad[type_at] = 19;
  EXPECT_FALSE(parses(bad));
  bad = good;
  bad[type_at + 1] = static_cast<char>(0x80);  // unknown flag
  EXPECT_FALSE(parses(bad));
  // A huge column count with no bytes behind it.
  bad = good.substr(0, header - 2) + std::string("\xFF\x0F", 2);
  EXPECT_FALSE(parses(bad));
  // An index over a column that does not exist: the last int<2> is the `k` index's column.
  bad = good;
  bad[bad.size() - 2] = 3;
  EXPECT_FALSE(parses(bad));
  // A string length beyond the input.
  bad = good;
  bad[1 + 12] = static_cast<char>(0xFF);
  EXPECT_FALSE(parses(bad));
}

TEST(KeyHashTest, MatchesXxHash32) {
  // Reference values of XXH32(input, seed 0).
  EXPECT_EQ(KeyHash(""), 0x02CC5D05u);
  EXPECT_EQ(KeyHash("a"), 0x550D7456u);
  EXPECT_EQ(KeyHash("abc"), 0x32D153FFu);
  EXPECT_EQ(KeyHash("Nobody inspects the spammish repetition"), 0xE2293B2Fu);
}

TEST(KeyHashTest, Spreads) {
  int buckets[16] = {};
  for (uint32_t i = 0; i < 16000; ++i) {
    std::string key(reinterpret_cast<const char*>(&i), 4);
    ++buckets[KeyHash(key) % 16];
  }
  for (int count : buckets) {
    EXPECT_GT(count, 800);
    EXPECT_LT(count, 1200);
  }
}

}  // namespace
}  // namespace shoal::schema
