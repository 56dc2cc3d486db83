// Packed rows and keys: RowWriter → SplitRow round trips over every type, NULLs and limits,
// malformed input, and CompareField's orders.
#include "engine/schema/row.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace shoal::schema {
namespace {

ColumnDef Column(ColumnType type, bool is_unsigned = false, uint32_t length = 0) {
  ColumnDef c;
  c.name = "c";
  c.type = type;
  c.is_unsigned = is_unsigned;
  c.length = length;
  return c;
}

// One column of every type (signed integers, then unsigned ones).
TableDef AllTypes() {
  TableDef t;
  t.database = "db";
  t.name = "t";
  for (int type = 1; type <= static_cast<int>(kMaxColumnType); ++type) {
    ColumnDef c = Column(static_cast<ColumnType>(type), false, 10);
    c.name = "c" + std::to_string(type);
    c.precision = 10;
    c.scale = 2;
    t.columns.push_back(c);
  }
  for (int type = 1; type <= 5; ++type) {
    t.columns.push_back(Column(static_cast<ColumnType>(type), true));
  }
  return t;
}

std::vector<uint16_t> AllColumns(const TableDef& t) {
  std::vector<uint16_t> columns(t.columns.size());
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<uint16_t>(i);
  return columns;
}

// Writes value `row` (0: minimums, 1: maximums, 2: NULLs on even columns) for AllTypes.
void WriteRow(const TableDef& t, int row, RowWriter* w) {
  w->BeginRow(static_cast<int>(t.columns.size()));
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const ColumnDef& c = t.columns[i];
    if (row == 2 && i % 2 == 0) {
      w->Null();
      continue;
    }
    bool max = row == 1;
    switch (c.type) {
      case ColumnType::kFloat:
        w->Float(max ? std::numeric_limits<float>::max() : -1.5f);
        break;
      case ColumnType::kDouble:
        w->Double(max ? std::numeric_limits<double>::max() : -2.25);
        break;
      case ColumnType::kDecimal:
        w->Bytes(max ? "99999999.99" : "-99999999.99");
        break;
      case ColumnType::kVarChar:
      case ColumnType::kChar:
        w->Bytes(max ? std::string(40, 'x') : "");
        break;
      case ColumnType::kBinary:
      case ColumnType::kVarBinary:
        w->Bytes(max ? std::string(10, '\0') : "");
        break;
      case ColumnType::kText:
      case ColumnType::kBlob:
        w->Bytes(max ? std::string(65535, 'b') : "");
        break;
      case ColumnType::kJson:
        w->Bytes(max ? "[1, 2]" : "{}");
        break;
      case ColumnType::kBigInt:
        w->Int(c, c.is_unsigned ? (max ? -1 : 0)
                                : (max ? std::numeric_limits<int64_t>::max()
                                       : std::numeric_limits<int64_t>::min()));
        break;
      default:
        w->Int(c, (max ? 1 : -1) * (int64_t{1} << (FixedSize(c.type) * 8 - 2)));
    }
  }
}

TEST(RowTest, RoundTripEveryType) {
  TableDef t = AllTypes();
  std::vector<uint16_t> columns = AllColumns(t);
  for (int row = 0; row < 3; ++row) {
    RowWriter w;
    WriteRow(t, row, &w);
    std::vector<Field> fields(columns.size());
    size_t consumed = 0;
    ASSERT_TRUE(SplitRow(t, columns, w.view(), fields.data(), &consumed)) << row;
    EXPECT_EQ(consumed, w.view().size());
    for (size_t i = 0; i < columns.size(); ++i) {
      const ColumnDef& c = t.columns[i];
      SCOPED_TRACE(testing::Message() << "row " << row << " column " << i);
      EXPECT_EQ(fields[i].null, row == 2 && i % 2 == 0);
      if (fields[i].null) continue;
      bool max = row == 1;
      if (FixedSize(c.type) > 0) {
        EXPECT_EQ(fields[i].bytes.size(), size_t(FixedSize(c.type)));
      }
      switch (c.type) {
        case ColumnType::kFloat:
          EXPECT_EQ(FieldDouble(c, fields[i].bytes),
                    max ? double{std::numeric_limits<float>::max()} : -1.5);
          break;
        case ColumnType::kDouble:
          EXPECT_EQ(FieldDouble(c, fields[i].bytes),
                    max ? std::numeric_limits<double>::max() : -2.25);
          break;
        case ColumnType::kDecimal:
          EXPECT_EQ(fields[i].bytes, max ? "99999999.99" : "-99999999.99");
          EXPECT_EQ(FieldDouble(c, fields[i].bytes), max ? 99999999.99 : -99999999.99);
          break;
        case ColumnType::kText:
        case ColumnType::kBlob:
          EXPECT_EQ(fields[i].bytes.size(), max ? 65535u : 0u);
          break;
        case ColumnType::kBigInt:
          if (c.is_unsigned) {
            EXPECT_EQ(FieldUint(c, fields[i].bytes),
                      max ? std::numeric_limits<uint64_t>::max() : 0u);
          } else {
            EXPECT_EQ(FieldInt(c, fields[i].bytes), max ? std::numeric_limits<int64_t>::max()
                                                        : std::numeric_limits<int64_t>::min());
          }
          break;
        default:
          if (FixedSize(c.type) > 0) {
            int64_t v = int64_t{1} << (FixedSize(c.type) * 8 - 2);
            if ((c.is_unsigned || IsEnumOrSet(c.type)) && !max) {
              // Negative values written to an unsigned column read back as their bit pattern.
              EXPECT_EQ(FieldUint(c, fields[i].bytes),
                        static_cast<uint64_t>(-v) & (~uint64_t{0} >> (64 - 8 * FixedSize(c.type))));
            } else {
              EXPECT_EQ(FieldInt(c, fields[i].bytes), max ? v : -v);
            }
          }
      }
    }
  }
}

TEST(RowTest, IntegerLimits) {
  struct Case {
    ColumnType type;
    bool is_unsigned;
    int64_t value;
  };
  const Case cases[] = {
      {ColumnType::kTinyInt, false, -128},
      {ColumnType::kTinyInt, false, 127},
      {ColumnType::kTinyInt, true, 255},
      {ColumnType::kSmallInt, false, -32768},
      {ColumnType::kSmallInt, true, 65535},
      {ColumnType::kMediumInt, false, -8388608},
      {ColumnType::kMediumInt, true, 16777215},
      {ColumnType::kInt, false, INT32_MIN},
      {ColumnType::kInt, true, UINT32_MAX},
      {ColumnType::kDate, false, 2024 * 512 + 2 * 32 + 29},
      {ColumnType::kTime, false, -3020399000000},
      {ColumnType::kDateTime, false, 0},
  };
  for (const Case& c : cases) {
    ColumnDef column = Column(c.type, c.is_unsigned);
    RowWriter w;
    w.BeginKey();
    w.Int(column, c.value);
    EXPECT_EQ(w.view().size(), size_t(FixedSize(c.type)));
    if (c.is_unsigned) {
      EXPECT_EQ(FieldUint(column, w.view()), static_cast<uint64_t>(c.value));
    }
    EXPECT_EQ(FieldInt(column, w.view()), c.value);
  }
}

TEST(RowTest, KeyRoundTripAndConcatenation) {
  TableDef t;
  t.columns = {Column(ColumnType::kBigInt, true), Column(ColumnType::kVarChar, false, 5)};
  RowWriter w;
  w.BeginKey();
  w.Int(t.columns[0], -1);
  w.Bytes("héllo");  // 6 bytes, within 5 characters × 4
  w.BeginKey();
  w.Int(t.columns[0], 7);
  w.Bytes("");
  std::vector<uint16_t> columns = {0, 1};
  Field fields[2];
  size_t consumed;
  absl::string_view in = w.view();
  ASSERT_TRUE(SplitKey(t, columns, in, fields, &consumed));
  EXPECT_EQ(consumed, 8u + 2 + 6);
  EXPECT_EQ(FieldUint(t.columns[0], fields[0].bytes), UINT64_MAX);
  EXPECT_EQ(fields[1].bytes, "héllo");
  in.remove_prefix(consumed);
  ASSERT_TRUE(SplitKey(t, columns, in, fields, &consumed));
  EXPECT_EQ(FieldInt(t.columns[0], fields[0].bytes), 7);
  EXPECT_TRUE(fields[1].bytes.empty());
  EXPECT_FALSE(fields[1].null);
  EXPECT_EQ(consumed, in.size());
}

// A table (id BIGINT, name VARCHAR(5), score INT NULL) with PRIMARY KEY (id) and a unique
// index (score, name): index columns come in the index's order, not the table's.
TableDef KeyedTable() {
  TableDef t;
  t.columns = {Column(ColumnType::kBigInt), Column(ColumnType::kVarChar, false, 5),
               Column(ColumnType::kInt)};
  t.columns[2].nullable = true;
  t.indexes = {IndexDef{"PRIMARY", {0}, true, true}, IndexDef{"u", {2, 1}, true, false}};
  return t;
}

std::string KeyedRow(const TableDef& t, int64_t id, absl::string_view name,
                     std::optional<int64_t> score) {
  RowWriter w;
  w.BeginRow(3);
  w.Int(t.columns[0], id);
  w.Bytes(name);
  if (score.has_value()) {
    w.Int(t.columns[2], *score);
  } else {
    w.Null();
  }
  return w.buffer();
}

TEST(KeyOfRowTest, PacksTheIndexColumnsInIndexOrder) {
  TableDef t = KeyedTable();
  const std::string row = KeyedRow(t, 7, "héllo", -3);
  RowWriter expected;
  std::string key;
  ASSERT_TRUE(KeyOfRow(t, 0, row, &key));
  expected.BeginKey();
  expected.Int(t.columns[0], 7);
  EXPECT_EQ(key, expected.view());

  ASSERT_TRUE(KeyOfRow(t, 1, row, &key));
  expected.Clear();
  expected.BeginKey();
  expected.Int(t.columns[2], -3);
  expected.Bytes("héllo");
  EXPECT_EQ(key, expected.view());
  // The key splits back into the index's columns.
  std::vector<uint16_t> columns = {2, 1};
  Field fields[2];
  size_t consumed = 0;
  ASSERT_TRUE(SplitKey(t, columns, key, fields, &consumed));
  EXPECT_EQ(consumed, key.size());
  EXPECT_EQ(FieldInt(t.columns[2], fields[0].bytes), -3);
  EXPECT_EQ(fields[1].bytes, "héllo");
}

TEST(KeyOfRowTest, RefusesNullKeysMalformedRowsAndUnknownIndexes) {
  TableDef t = KeyedTable();
  const std::string row = KeyedRow(t, 7, "abc", std::nullopt);
  std::string key = "unchanged";
  EXPECT_FALSE(KeyOfRow(t, 1, row, &key));  // NULL score: no entry in the unique index
  EXPECT_FALSE(KeyOfRow(t, 2, row, &key));
  EXPECT_FALSE(KeyOfRow(t, -1, row, &key));
  EXPECT_FALSE(KeyOfRow(t, 0, row + "x", &key));  // bytes past the last column
  EXPECT_FALSE(KeyOfRow(t, 0, row.substr(0, row.size() - 1), &key));
  EXPECT_FALSE(KeyOfRow(t, 0, "", &key));
  EXPECT_EQ(key, "unchanged");
  EXPECT_TRUE(KeyOfRow(t, 0, row, &key));
}

TEST(RowTest, EveryTruncationRejected) {
  TableDef t = AllTypes();
  std::vector<uint16_t> columns = AllColumns(t);
  for (int row = 0; row < 3; ++row) {
    RowWriter w;
    WriteRow(t, row, &w);
    std::vector<Field> fields(columns.size());
    size_t consumed;
    std::string bytes(w.view());
    for (size_t n = 0; n < bytes.size(); n += (n > 200 && n < bytes.size() - 200) ? 97 : 1) {
      EXPECT_FALSE(
          SplitRow(t, columns, absl::string_view(bytes.data(), n), fields.data(), &consumed))
          << row << " " << n;
    }
  }
}

TEST(RowTest, LengthLimits) {
  struct Case {
    ColumnDef column;
    size_t max;
  };
  ColumnDef decimal = Column(ColumnType::kDecimal);
  decimal.precision = 5;
  const Case cases[] = {
      {Column(ColumnType::kChar, false, 3), 12},
      {Column(ColumnType::kVarChar, false, 10), 40},
      {Column(ColumnType::kBinary, false, 3), 3},
      {Column(ColumnType::kVarBinary, false, 0), 0},
      {Column(ColumnType::kText), 65535},
      {Column(ColumnType::kBlob), 65535},
      {decimal, 8},
      {Column(ColumnType::kVarChar, false, 100000), 65535},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(MaxValueBytes(c.column), c.max);
    TableDef t;
    t.columns = {c.column};
    uint16_t column = 0;
    Field field;
    size_t consumed;
    if (c.max < 65535) {
      std::string too_long = EncodeValue(c.column, std::string(c.max + 1, 'a'));
      EXPECT_FALSE(SplitKey(t, {&column, 1}, too_long, &field, &consumed)) << c.max;
    }
    std::string fits = EncodeValue(c.column, std::string(c.max, 'a'));
    ASSERT_TRUE(SplitKey(t, {&column, 1}, fits, &field, &consumed)) << c.max;
    EXPECT_EQ(field.bytes.size(), c.max);
    EXPECT_TRUE(ReadField(c.column, fits, &field, &consumed));
    EXPECT_EQ(consumed, fits.size());
  }
}

TEST(RowTest, BadColumnListRejected) {
  TableDef t;
  t.columns = {Column(ColumnType::kInt)};
  uint16_t columns[] = {0, 1};
  Field fields[2];
  size_t consumed;
  std::string bytes(16, '\0');
  EXPECT_FALSE(SplitRow(t, columns, bytes, fields, &consumed));
  EXPECT_FALSE(SplitKey(t, columns, bytes, fields, &consumed));
  EXPECT_TRUE(SplitRow(t, {columns, 1}, bytes, fields, &consumed));
  EXPECT_EQ(consumed, 5u);
}

TEST(RowTest, EmptyRow) {
  TableDef t;
  RowWriter w;
  w.BeginRow(0);
  size_t consumed = 99;
  EXPECT_TRUE(SplitRow(t, {}, w.view(), nullptr, &consumed));
  EXPECT_EQ(consumed, 0u);
}

TEST(RowTest, RawCopiesFields) {
  TableDef t = AllTypes();
  std::vector<uint16_t> columns = AllColumns(t);
  for (int row = 0; row < 3; ++row) {
    RowWriter w;
    WriteRow(t, row, &w);
    std::vector<Field> fields(columns.size());
    size_t consumed;
    ASSERT_TRUE(SplitRow(t, columns, w.view(), fields.data(), &consumed));
    RowWriter copy;
    copy.BeginRow(static_cast<int>(columns.size()));
    for (size_t i = 0; i < columns.size(); ++i) copy.Raw(t.columns[i], fields[i]);
    EXPECT_EQ(copy.view(), w.view());
  }
  RowWriter w;
  w.BeginRow(3);
  w.Null();
  w.Clear();
  EXPECT_TRUE(w.view().empty());
}

std::string Packed(const ColumnDef& c, int64_t v) {
  RowWriter w;
  w.BeginKey();
  w.Int(c, v);
  return std::string(w.view());
}

int Sign(int v) { return (v > 0) - (v < 0); }

TEST(CompareTest, Integers) {
  ColumnDef s = Column(ColumnType::kBigInt);
  ColumnDef u = Column(ColumnType::kBigInt, true);
  EXPECT_LT(CompareField(s, Packed(s, -1), Packed(s, 0)), 0);
  EXPECT_GT(CompareField(u, Packed(u, -1), Packed(u, 0)), 0);  // UINT64_MAX > 0
  EXPECT_LT(CompareField(s, Packed(s, INT64_MIN), Packed(s, INT64_MAX)), 0);
  EXPECT_EQ(CompareField(s, Packed(s, 42), Packed(s, 42)), 0);
  for (ColumnType type :
       {ColumnType::kTinyInt, ColumnType::kSmallInt, ColumnType::kMediumInt, ColumnType::kInt,
        ColumnType::kDate, ColumnType::kTime, ColumnType::kDateTime, ColumnType::kTimestamp}) {
    ColumnDef c = Column(type);
    EXPECT_LT(CompareField(c, Packed(c, -5), Packed(c, 3)), 0) << ColumnTypeName(type);
    EXPECT_GT(CompareField(c, Packed(c, 100), Packed(c, -100)), 0) << ColumnTypeName(type);
    EXPECT_LT(CompareField(c, Packed(c, 1), Packed(c, 256 / (FixedSize(type) == 1 ? 4 : 1))), 0);
  }
  ColumnDef ut = Column(ColumnType::kTinyInt, true);
  EXPECT_GT(CompareField(ut, Packed(ut, 200), Packed(ut, 100)), 0);
  ColumnDef st = Column(ColumnType::kTinyInt);
  EXPECT_LT(CompareField(st, Packed(st, 200), Packed(st, 100)), 0);  // 200 is -56 signed
  ColumnDef dt = Column(ColumnType::kDateTime);
  EXPECT_LT(CompareField(dt, Packed(dt, PackDateTime(2023, 12, 31, 23, 0, 0, 0)),
                         Packed(dt, PackDateTime(2024, 1, 1, 0, 0, 0, 0))),
            0);
}

TEST(CompareTest, Floats) {
  ColumnDef f = Column(ColumnType::kFloat);
  ColumnDef d = Column(ColumnType::kDouble);
  auto packf = [](float v) {
    RowWriter w;
    w.Float(v);
    return std::string(w.view());
  };
  auto packd = [](double v) {
    RowWriter w;
    w.Double(v);
    return std::string(w.view());
  };
  EXPECT_LT(CompareField(f, packf(-2.5f), packf(1.0f)), 0);
  EXPECT_GT(CompareField(f, packf(1e30f), packf(-1e30f)), 0);
  EXPECT_EQ(CompareField(f, packf(0.0f), packf(-0.0f)), 0);
  EXPECT_LT(CompareField(d, packd(-1e300), packd(-1e299)), 0);
  EXPECT_EQ(CompareField(d, packd(3.25), packd(3.25)), 0);
}

TEST(CompareTest, Decimals) {
  ColumnDef d = Column(ColumnType::kDecimal);
  struct Case {
    const char* a;
    const char* b;
    int want;
  };
  const Case cases[] = {
      {"1.00", "2.00", -1},   {"-1.00", "1.00", -1},
      {"-2.00", "-1.00", -1}, {"10.00", "9.99", 1},
      {"0.00", "-0.00", 0},   {"123.45", "123.45", 0},
      {"123.45", "123.4", 1}, {"-123.45", "-123.4", -1},
      {"0.01", "0.10", -1},   {"100", "99", 1},
      {"-100", "-99", -1},    {"0", "0.00", 0},
      {"007", "7", 0},        {"12345678901234567890.5", "12345678901234567890.4", 1},
      {"", "0", 0},           {"-", "1", -1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Sign(CompareField(d, c.a, c.b)), c.want) << c.a << " vs " << c.b;
    EXPECT_EQ(Sign(CompareField(d, c.b, c.a)), -c.want) << c.b << " vs " << c.a;
  }
}

TEST(CompareTest, StringsByteWise) {
  for (ColumnType type : {ColumnType::kChar, ColumnType::kVarChar, ColumnType::kBinary,
                          ColumnType::kVarBinary, ColumnType::kText, ColumnType::kBlob}) {
    ColumnDef c = Column(type, false, 10);
    EXPECT_LT(CompareField(c, "abc", "abd"), 0);
    EXPECT_LT(CompareField(c, "ab", "abc"), 0);
    EXPECT_GT(CompareField(c, "b", "abc"), 0);
    EXPECT_EQ(CompareField(c, "", ""), 0);
    EXPECT_LT(CompareField(c, "", "a"), 0);
    EXPECT_GT(CompareField(c, "\xff", "a"), 0);  // unsigned bytes
    EXPECT_LT(CompareField(c, "A", "a"), 0);     // binary collation
  }
}

TEST(CompareTest, WrongSizesStaySafe) {
  ColumnDef c = Column(ColumnType::kBigInt);
  EXPECT_LT(CompareField(c, "a", "ab"), 0);
}

TEST(RowWriterTest, IntOnVariableColumnsWritesText) {
  ColumnDef d = Column(ColumnType::kDecimal);
  d.scale = 2;
  RowWriter w;
  w.BeginKey();
  w.Int(d, -12);
  EXPECT_EQ(w.view(), std::string("\x06\x00", 2) + "-12.00");
  EXPECT_EQ(EncodeValue(Column(ColumnType::kInt), "abcd"), "abcd");
  EXPECT_EQ(EncodeValue(Column(ColumnType::kText), "ab"), std::string("\x02\x00", 2) + "ab");
}

}  // namespace
}  // namespace shoal::schema
