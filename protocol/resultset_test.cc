#include "protocol/resultset.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "protocol/codec.h"
#include "protocol/test_util.h"
#include "protocol/text_format.h"

namespace shoal::mysql {
namespace {

using testing::FromHex;
using testing::Span;
using testing::ToHex;

constexpr uint32_t kEofCaps = kServerCapabilities & ~capability::kDeprecateEof;
constexpr uint32_t kNoEofCaps = kServerCapabilities;

ColumnDefinition Col(absl::string_view name, ColumnType type, uint16_t charset, uint32_t length,
                     uint16_t flags, uint8_t decimals = 0) {
  ColumnDefinition c;
  c.name = std::string(name);
  c.type = type;
  c.charset = charset;
  c.length = length;
  c.flags = flags;
  c.decimals = decimals;
  return c;
}

// The types_demo table of the transcripts (connector_j.txt, mysql_connector_python.txt).
std::vector<ColumnDefinition> TypesDemo() {
  return {
      Col("id", ColumnType::kLong, 63, 11, column_flag::kNotNull | column_flag::kPrimaryKey),
      Col("v", ColumnType::kVarString, 45, 80, 0),
      Col("d", ColumnType::kDouble, 63, 22, 0, 31),
      Col("n", ColumnType::kNewDecimal, 63, 12, 0, 2),
      Col("ts", ColumnType::kDateTime, 63, 19, column_flag::kBinary),
      Col("b", ColumnType::kLongLong, 63, 20, column_flag::kUnsigned),
  };
}

std::vector<Value> TypesDemoRow1() {
  return {int64_t{1},
          std::string("abc"),
          1.5,
          Decimal{"12.34"},
          DateTime{2024, 1, 2, 3, 4, 5},
          uint64_t{18446744073709551615ULL}};
}

TEST(ResultSetTest, SelectOneTextWithEof) {
  ResultSet rs;
  rs.columns = {Col("1", ColumnType::kLong, 63, 1, column_flag::kNotNull | column_flag::kBinary)};
  rs.rows = {{int64_t{1}}};
  std::string out;
  uint8_t seq = 1;
  AppendResultSet(rs, RowFormat::kText, kEofCaps, status::kAutocommit, 0, &seq, &out);
  EXPECT_EQ(ToHex(out),
            "0100000101"
            "17000002036465660000000131000c3f0001000000038100000000"
            "05000003fe00000200"
            "020000040131"
            "05000005fe00000200");
  EXPECT_EQ(seq, 6);
}

TEST(ResultSetTest, SelectOneTextDeprecateEof) {
  ResultSet rs;
  rs.columns = {Col("1", ColumnType::kLong, 63, 1, column_flag::kNotNull | column_flag::kBinary)};
  rs.rows = {{int64_t{1}}};
  std::string out;
  uint8_t seq = 1;
  AppendResultSet(rs, RowFormat::kText, kNoEofCaps, status::kAutocommit, 0, &seq, &out);
  EXPECT_EQ(ToHex(out),
            "0100000101"
            "17000002036465660000000131000c3f0001000000038100000000"
            "020000030131"
            "07000004fe000002000000");
}

TEST(ResultSetTest, ColumnDefinitionRoundTrip) {
  ColumnDefinition c = Col("c", ColumnType::kString, 45, 480, column_flag::kNotNull);
  c.schema = "sbtest";
  c.table = "sbtest1";
  c.org_table = "sbtest1";
  c.org_name = "c";
  std::string bytes;
  Writer w(&bytes);
  EncodeColumnDefinition(c, &w);
  ColumnDefinition decoded;
  ASSERT_EQ(DecodeColumnDefinition(Span(bytes), &decoded), DecodeStatus::kOk);
  EXPECT_EQ(decoded.schema, "sbtest");
  EXPECT_EQ(decoded.org_name, "c");
  EXPECT_EQ(decoded.type, ColumnType::kString);
  EXPECT_EQ(decoded.length, 480u);
  EXPECT_EQ(decoded.charset, 45);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);
    EXPECT_EQ(DecodeColumnDefinition(Span(prefix), &decoded), DecodeStatus::kMalformed) << n;
  }
}

// A column's name is cut to 255 bytes, never inside a character, as MariaDB cuts a select
// item's.
TEST(ResultSetTest, ColumnNamesAreCutTo255BytesAtACharacter) {
  for (auto [name, expected_bytes] : {std::pair{std::string(300, 'x'), size_t{255}},
                                      {std::string(255, 'y'), size_t{255}},
                                      {std::string(80, 'z'), size_t{80}}}) {
    ColumnDefinition c = Col(name, ColumnType::kVarString, 45, 80, 0);
    std::string bytes;
    Writer w(&bytes);
    EncodeColumnDefinition(c, &w);
    ColumnDefinition decoded;
    ASSERT_EQ(DecodeColumnDefinition(Span(bytes), &decoded), DecodeStatus::kOk);
    EXPECT_EQ(decoded.name, name.substr(0, expected_bytes));
  }
  std::string accents;
  for (int i = 0; i < 300; ++i) accents += "\xc3\xa9";  // é
  std::string bytes;
  Writer w(&bytes);
  EncodeColumnDefinition(Col(accents, ColumnType::kVarString, 45, 80, 0), &w);
  ColumnDefinition decoded;
  ASSERT_EQ(DecodeColumnDefinition(Span(bytes), &decoded), DecodeStatus::kOk);
  EXPECT_EQ(decoded.name, accents.substr(0, 254));  // 127 characters
}

TEST(ResultSetTest, BinaryRowLongLongVarStringNull) {
  const std::vector<ColumnDefinition> cols = {Col("id", ColumnType::kLongLong, 63, 20, 0),
                                              Col("c", ColumnType::kVarString, 45, 80, 0),
                                              Col("n", ColumnType::kLong, 63, 11, 0)};
  const std::vector<Value> row = {int64_t{5}, std::string("abc"), Null{}};
  std::string bytes;
  Writer w(&bytes);
  EncodeBinaryRow(row, cols, &w);
  // header 00, null bitmap: column 2 -> bit 4.
  EXPECT_EQ(ToHex(bytes),
            "0010"
            "0500000000000000"
            "03616263");
  std::vector<Value> decoded;
  ASSERT_EQ(DecodeBinaryRow(Span(bytes), cols, &decoded), DecodeStatus::kOk);
  EXPECT_EQ(decoded, row);
}

TEST(ResultSetTest, TypesDemoBinaryRowsAsObserved) {
  const auto cols = TypesDemo();
  std::string bytes;
  Writer w(&bytes);
  EncodeBinaryRow(TypesDemoRow1(), cols, &w);
  EXPECT_EQ(ToHex(bytes),
            "0000"
            "01000000"
            "03616263"
            "000000000000f83f"
            "0531322e3334"
            "07e8070102030405"
            "ffffffffffffffff");
  std::vector<Value> decoded;
  ASSERT_EQ(DecodeBinaryRow(Span(bytes), cols, &decoded), DecodeStatus::kOk);
  EXPECT_EQ(decoded, TypesDemoRow1());
  // Row 2 of the transcript: id 2, the rest NULL -> bitmap f8.
  bytes.clear();
  EncodeBinaryRow({int64_t{2}, Null{}, Null{}, Null{}, Null{}, Null{}}, cols, &w);
  EXPECT_EQ(ToHex(bytes), "00f802000000");
}

TEST(ResultSetTest, TypesDemoTextRow) {
  const auto cols = TypesDemo();
  std::string bytes;
  Writer w(&bytes);
  EncodeTextRow(TypesDemoRow1(), cols, &w);
  std::vector<Value> decoded;
  ASSERT_EQ(DecodeTextRow(Span(bytes), cols, &decoded), DecodeStatus::kOk);
  const std::vector<Value> expected = {std::string("1"),
                                       std::string("abc"),
                                       std::string("1.5"),
                                       std::string("12.34"),
                                       std::string("2024-01-02 03:04:05"),
                                       std::string("18446744073709551615")};
  EXPECT_EQ(decoded, expected);
  bytes.clear();
  EncodeTextRow({int64_t{2}, Null{}, Null{}, Null{}, Null{}, Null{}}, cols, &w);
  EXPECT_EQ(ToHex(bytes), "0132fbfbfbfbfb");
}

TEST(ResultSetTest, BinaryTemporalLengths) {
  const std::vector<ColumnDefinition> cols = {Col("d", ColumnType::kDate, 63, 10, 0),
                                              Col("t", ColumnType::kTime, 63, 10, 0),
                                              Col("z", ColumnType::kDateTime, 63, 26, 0, 6)};
  std::string bytes;
  Writer w(&bytes);
  EncodeBinaryRow({DateTime{2024, 1, 2}, Time{true, 1, 2, 3, 4, 0}, DateTime{}}, cols, &w);
  EXPECT_EQ(ToHex(bytes),
            "0000"
            "04e8070102"
            "080101000000020304"
            "00");
  bytes.clear();
  EncodeBinaryRow({DateTime{2024, 1, 2, 3, 4, 5, 6}, Time{false, 0, 0, 0, 1, 500000}, DateTime{}},
                  cols, &w);
  EXPECT_EQ(ToHex(bytes),
            "00000be807010203040506000000"
            "0c0000000000000001"
            "20a10700"
            "00");
}

TEST(ResultSetTest, PrepareOkSysbenchWithEofs) {
  const std::vector<ColumnDefinition> cols = {
      Col("c", ColumnType::kString, 45, 480, column_flag::kNotNull)};
  std::string out;
  uint8_t seq = 1;
  AppendPrepareOk(45, 1, cols, 0, kEofCaps, status::kAutocommit, &seq, &out);
  std::string expected;
  uint8_t s = 1;
  AppendPacket(FromHex("002d00000001000100000000"), &s, &expected);
  // "?" param: type NULL(6), charset 63, flags BINARY, length 0.
  AppendPacket(FromHex("0364656600000001 3f 00 0c 3f00 00000000 06 8000 00 0000"), &s, &expected);
  AppendPacket(FromHex("fe00000200"), &s, &expected);
  std::string col;
  Writer w(&col);
  EncodeColumnDefinition(cols[0], &w);
  AppendPacket(col, &s, &expected);
  AppendPacket(FromHex("fe00000200"), &s, &expected);
  EXPECT_EQ(ToHex(out), ToHex(expected));
  EXPECT_EQ(seq, 6);
}

TEST(ResultSetTest, PrepareOkOmitsEofs) {
  std::string out;
  uint8_t seq = 1;
  AppendPrepareOk(3, 0, {}, 0, kEofCaps, status::kAutocommit, &seq, &out);  // sysbench BEGIN
  EXPECT_EQ(ToHex(out),
            "0c000001"
            "000300000000000000000000");
  EXPECT_EQ(seq, 2);
  out.clear();
  seq = 1;
  AppendPrepareOk(4, 2, {Col("c", ColumnType::kString, 45, 480, 0)}, 0, kNoEofCaps, 0, &seq, &out);
  EXPECT_EQ(seq, 5);  // PREPARE_OK, 2 params, 1 column, no EOFs
}

struct TextCase {
  Value value;
  ColumnType type;
  uint8_t decimals;
  const char* text;
};

TEST(TextFormatTest, MatchesMysql) {
  const TextCase cases[] = {
      {int64_t{-42}, ColumnType::kLongLong, 0, "-42"},
      {uint64_t{18446744073709551615ULL}, ColumnType::kLongLong, 0, "18446744073709551615"},
      {0.1, ColumnType::kDouble, 31, "0.1"},
      {1e300, ColumnType::kDouble, 31, "1e300"},
      {1.5, ColumnType::kDouble, 31, "1.5"},
      {-2.5, ColumnType::kDouble, 31, "-2.5"},
      {100.0, ColumnType::kDouble, 31, "100"},
      {0.0, ColumnType::kDouble, 31, "0"},
      {1e15, ColumnType::kDouble, 31, "1e15"},
      {1e14, ColumnType::kDouble, 31, "100000000000000"},
      {123456789012.5, ColumnType::kDouble, 31, "123456789012.5"},
      {0.00001, ColumnType::kDouble, 31, "0.00001"},
      {1.7976931348623157e308, ColumnType::kDouble, 31, "1.7976931348623157e308"},
      {2.2250738585072014e-308, ColumnType::kDouble, 31, "2.2250738585072014e-308"},
      {-1.7976931348623157e308, ColumnType::kDouble, 31, "-1.7976931348623157e308"},
      {-1.2345678901234567e-100, ColumnType::kDouble, 31, "-1.2345678901234567e-100"},
      {0.3333333333333333, ColumnType::kDouble, 31, "0.3333333333333333"},
      {1.0 / 3, ColumnType::kFloat, 31, "0.333333"},
      {static_cast<double>(0.1f), ColumnType::kFloat, 31, "0.1"},
      {static_cast<double>(3.14f), ColumnType::kFloat, 31, "3.14"},
      {1e20, ColumnType::kFloat, 31, "1e20"},
      {1.5, ColumnType::kDouble, 2, "1.50"},
      {Decimal{"12.34"}, ColumnType::kNewDecimal, 2, "12.34"},
      {DateTime{2024, 1, 2}, ColumnType::kDate, 0, "2024-01-02"},
      {DateTime{2024, 1, 2, 3, 4, 5, 123456}, ColumnType::kDateTime, 0, "2024-01-02 03:04:05"},
      {DateTime{2024, 1, 2, 3, 4, 5, 123456}, ColumnType::kDateTime, 3, "2024-01-02 03:04:05.123"},
      {DateTime{2024, 1, 2, 3, 4, 5, 120}, ColumnType::kTimestamp, 6, "2024-01-02 03:04:05.000120"},
      {Time{false, 1, 2, 3, 4, 0}, ColumnType::kTime, 0, "26:03:04"},
      {Time{true, 34, 22, 59, 59, 0}, ColumnType::kTime, 0, "-838:59:59"},
      {Time{false, 0, 0, 0, 1, 500000}, ColumnType::kTime, 1, "00:00:01.5"},
      {std::string("abc"), ColumnType::kVarString, 0, "abc"},
  };
  for (const TextCase& c : cases) {
    std::string out;
    AppendTextValue(c.value, c.type, c.decimals, &out);
    EXPECT_EQ(out, c.text);
  }
}

// The temporal layouts on their own, with as many fraction digits as asked (0 prints no point).
TEST(TextFormatTest, TemporalLayouts) {
  const DateTime dt{987, 12, 31, 23, 5, 9, 120};
  std::string out;
  AppendDateText(dt, &out);
  EXPECT_EQ(out, "0987-12-31");
  out.clear();
  AppendDateTimeText(dt, 0, &out);
  EXPECT_EQ(out, "0987-12-31 23:05:09");
  out.clear();
  AppendDateTimeText(dt, 4, &out);
  EXPECT_EQ(out, "0987-12-31 23:05:09.0001");
  out.clear();
  AppendDateTimeText(dt, 6, &out);
  EXPECT_EQ(out, "0987-12-31 23:05:09.000120");
  out.clear();
  AppendTimeText(Time{true, 4, 3, 2, 1, 999999}, 6, &out);
  EXPECT_EQ(out, "-99:02:01.999999");
  out.clear();
  AppendTimeText(Time{false, 0, 0, 0, 0, 500000}, 2, &out);
  EXPECT_EQ(out, "00:00:00.50");
  out.clear();
  AppendTimeText(Time{false, 0, 5, 0, 0, 500000}, 0, &out);
  EXPECT_EQ(out, "05:00:00");
}

TEST(ResultSetTest, StreamingPiecesEqualWhole) {
  ResultSet rs;
  rs.columns = TypesDemo();
  rs.rows = {TypesDemoRow1(), {int64_t{2}, Null{}, Null{}, Null{}, Null{}, Null{}}};
  for (uint32_t caps : {kEofCaps, kNoEofCaps}) {
    for (RowFormat format : {RowFormat::kText, RowFormat::kBinary}) {
      std::string whole, pieces;
      uint8_t seq1 = 1, seq2 = 1;
      AppendResultSet(rs, format, caps, status::kAutocommit, 0, &seq1, &whole);
      AppendResultSetHeader(rs.columns, caps, status::kAutocommit, &seq2, &pieces);
      for (const auto& row : rs.rows) AppendRow(row, rs.columns, format, &seq2, &pieces);
      AppendResultSetEnd(status::kAutocommit, 0, caps, &seq2, &pieces);
      EXPECT_EQ(whole, pieces);
      EXPECT_EQ(seq1, seq2);
    }
  }
}

}  // namespace
}  // namespace shoal::mysql
