#include "router/sql/eval/field_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "engine/schema/row.h"

namespace shoal::mysql {
// Readable failures: gtest finds these by argument-dependent lookup inside Value.
void PrintTo(const Decimal& d, std::ostream* os) { *os << "Decimal(" << d.text << ")"; }
void PrintTo(const DateTime& t, std::ostream* os) {
  *os << "DateTime(" << t.year << "-" << int{t.month} << "-" << int{t.day} << " " << int{t.hour}
      << ":" << int{t.minute} << ":" << int{t.second} << "." << t.microsecond << ")";
}
void PrintTo(const Time& t, std::ostream* os) {
  *os << "Time(" << (t.negative ? "-" : "") << t.days << "d " << int{t.hours} << ":"
      << int{t.minutes} << ":" << int{t.seconds} << "." << t.microsecond << ")";
}
void PrintTo(const Null&, std::ostream* os) { *os << "NULL"; }
}  // namespace shoal::mysql

namespace shoal::sql {
namespace {

using mysql::DateTime;
using mysql::Decimal;
using mysql::SqlError;
using mysql::Time;
using mysql::Value;
using schema::ColumnDef;

ColumnDef Col(schema::ColumnType type, uint32_t length = 0, uint8_t precision = 0,
              uint8_t scale = 0) {
  ColumnDef c;
  c.name = "c";
  c.type = type;
  c.length = length;
  c.precision = precision;
  c.scale = scale;
  // As CREATE TABLE makes text columns unless a _bin collation is named.
  if (type == schema::ColumnType::kChar || type == schema::ColumnType::kVarChar ||
      type == schema::ColumnType::kText) {
    c.collation = schema::Collation::kCaseInsensitive;
  }
  return c;
}

ColumnDef Members(schema::ColumnType type, std::vector<std::string> members) {
  ColumnDef c = Col(type);
  c.elements = std::move(members);
  return c;
}

ColumnDef Unsigned(ColumnDef c) {
  c.is_unsigned = true;
  return c;
}

// EncodeField, then the field read back the way a data node hands it over.
Value RoundTrip(const ColumnDef& c, const Value& v) {
  auto encoded = EncodeField(c, v, 1);
  if (const auto* err = std::get_if<SqlError>(&encoded)) {
    ADD_FAILURE() << "unexpected error " << err->code << ": " << err->message;
    return mysql::Null{};
  }
  const std::string& packed = std::get<std::string>(encoded);
  schema::Field field;
  size_t consumed = 0;
  if (!schema::ReadField(c, packed, &field, &consumed) || consumed != packed.size()) {
    ADD_FAILURE() << "malformed field";
    return mysql::Null{};
  }
  return DecodeField(c, field);
}

SqlError ErrorOf(const ColumnDef& c, const Value& v, int row = 1) {
  auto encoded = EncodeField(c, v, row);
  if (const auto* err = std::get_if<SqlError>(&encoded)) return *err;
  ADD_FAILURE() << "no error";
  return SqlError{};
}

void ExpectError(const ColumnDef& c, const Value& v, uint16_t code, const std::string& sqlstate,
                 const std::string& message) {
  SqlError err = ErrorOf(c, v);
  EXPECT_EQ(err.code, code) << message;
  EXPECT_EQ(err.sqlstate, sqlstate) << message;
  EXPECT_EQ(err.message, message);
}

void ExpectOutOfRange(const ColumnDef& c, const Value& v) {
  ExpectError(c, v, 1264, "22003", "Out of range value for column 'c' at row 1");
}

Value Int(int64_t v) { return Value{v}; }
Value Uint(uint64_t v) { return Value{v}; }
Value Str(std::string s) { return Value{std::move(s)}; }
Value Dec(std::string s) { return Value{Decimal{std::move(s)}}; }
Value Date(int y, int m, int d, int h = 0, int mi = 0, int s = 0, uint32_t us = 0) {
  return DateTime{static_cast<uint16_t>(y),
                  static_cast<uint8_t>(m),
                  static_cast<uint8_t>(d),
                  static_cast<uint8_t>(h),
                  static_cast<uint8_t>(mi),
                  static_cast<uint8_t>(s),
                  us};
}
Value Span(bool negative, uint32_t days, int h, int m, int s, uint32_t us = 0) {
  return Time{
      negative, days, static_cast<uint8_t>(h), static_cast<uint8_t>(m), static_cast<uint8_t>(s),
      us};
}

// ---------------------------------------------------------------------------------------------
// Integers

struct IntegerLimits {
  schema::ColumnType type;
  int64_t min, max;
  uint64_t umax;
};

TEST(FieldCodecInteger, LimitsOfEveryType) {
  const IntegerLimits limits[] = {
      {schema::ColumnType::kTinyInt, -128, 127, 255},
      {schema::ColumnType::kSmallInt, -32768, 32767, 65535},
      {schema::ColumnType::kMediumInt, -8388608, 8388607, 16777215},
      {schema::ColumnType::kInt, INT32_MIN, INT32_MAX, UINT32_MAX},
      {schema::ColumnType::kBigInt, INT64_MIN, INT64_MAX, UINT64_MAX},
  };
  for (const IntegerLimits& l : limits) {
    SCOPED_TRACE(static_cast<int>(l.type));
    ColumnDef s = Col(l.type);
    EXPECT_EQ(RoundTrip(s, Int(l.min)), Int(l.min));
    EXPECT_EQ(RoundTrip(s, Int(l.max)), Int(l.max));
    EXPECT_EQ(RoundTrip(s, Int(0)), Int(0));
    EXPECT_EQ(RoundTrip(s, Int(-1)), Int(-1));
    ColumnDef u = Unsigned(Col(l.type));
    EXPECT_EQ(RoundTrip(u, Uint(l.umax)), Uint(l.umax));
    EXPECT_EQ(RoundTrip(u, Int(0)), Uint(0));
    ExpectOutOfRange(u, Int(-1));
    if (l.type != schema::ColumnType::kBigInt) {
      ExpectOutOfRange(s, Int(l.min - 1));
      ExpectOutOfRange(s, Int(l.max + 1));
      ExpectOutOfRange(u, Uint(l.umax + 1));
    } else {
      ExpectOutOfRange(s, Uint(uint64_t{INT64_MAX} + 1));
      ExpectOutOfRange(s, Str("-9223372036854775809"));
      ExpectOutOfRange(u, Str("18446744073709551616"));
      EXPECT_EQ(RoundTrip(u, Str("18446744073709551615")), Uint(UINT64_MAX));
    }
  }
}

TEST(FieldCodecInteger, FromDoubleRoundsLikeRint) {
  ColumnDef c = Col(schema::ColumnType::kInt);
  EXPECT_EQ(RoundTrip(c, Value{3.5}), Int(4));
  EXPECT_EQ(RoundTrip(c, Value{3.4}), Int(3));
  EXPECT_EQ(RoundTrip(c, Value{-3.6}), Int(-4));
  // Field_long::store(double) uses rint(): halves go to the even neighbour.
  EXPECT_EQ(RoundTrip(c, Value{2.5}), Int(2));
  EXPECT_EQ(RoundTrip(c, Value{-2.5}), Int(-2));
  ExpectOutOfRange(c, Value{2147483647.5});
  ExpectOutOfRange(c, Value{std::numeric_limits<double>::quiet_NaN()});
  ExpectOutOfRange(c, Value{1e300});
}

TEST(FieldCodecInteger, FromDecimalRoundsHalfAwayFromZero) {
  ColumnDef c = Col(schema::ColumnType::kInt);
  EXPECT_EQ(RoundTrip(c, Dec("2.5")), Int(3));
  EXPECT_EQ(RoundTrip(c, Dec("-2.5")), Int(-3));
  EXPECT_EQ(RoundTrip(c, Dec("3.49999999999999999999")), Int(3));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kTinyInt), Dec("127.4")), Int(127));
  ExpectOutOfRange(Col(schema::ColumnType::kTinyInt), Dec("127.5"));
}

TEST(FieldCodecInteger, FromText) {
  ColumnDef c = Col(schema::ColumnType::kInt);
  EXPECT_EQ(RoundTrip(c, Str("42")), Int(42));
  EXPECT_EQ(RoundTrip(c, Str("  -42  ")), Int(-42));
  EXPECT_EQ(RoundTrip(c, Str("+7")), Int(7));
  EXPECT_EQ(RoundTrip(c, Str("1e3")), Int(1000));
  EXPECT_EQ(RoundTrip(c, Str("1.5E1")), Int(15));
  EXPECT_EQ(RoundTrip(c, Str("3.7")), Int(4));
  EXPECT_EQ(RoundTrip(c, Str("-2.5")), Int(-3));
  EXPECT_EQ(RoundTrip(c, Str(".5")), Int(1));
  EXPECT_EQ(RoundTrip(c, Str("0001")), Int(1));
  EXPECT_EQ(RoundTrip(c, Str("12e-1")), Int(1));
  EXPECT_EQ(RoundTrip(Unsigned(c), Str("-0.4")), Uint(0));
  ExpectOutOfRange(Unsigned(c), Str("-1"));
  ExpectOutOfRange(c, Str("99999999999999999999999999999999999"));
  ExpectOutOfRange(c, Str("1e100"));
  // Out of range is found before trailing garbage, as MySQL's get_int does.
  ExpectOutOfRange(c, Str("99999999999abc"));
}

TEST(FieldCodecInteger, BadText) {
  ColumnDef c = Col(schema::ColumnType::kInt);
  ExpectError(c, Str("12abc"), 1265, "01000", "Data truncated for column 'c' at row 1");
  ExpectError(c, Str("1.5.5"), 1265, "01000", "Data truncated for column 'c' at row 1");
  ExpectError(c, Str("abc"), 1366, "HY000",
              "Incorrect integer value: 'abc' for column 'c' at row 1");
  ExpectError(c, Str(""), 1366, "HY000", "Incorrect integer value: '' for column 'c' at row 1");
  ExpectError(c, Str("   "), 1366, "HY000",
              "Incorrect integer value: '   ' for column 'c' at row 1");
  ExpectError(c, Str("-"), 1366, "HY000", "Incorrect integer value: '-' for column 'c' at row 1");
  SqlError err = ErrorOf(c, Str("x"), 7);
  EXPECT_EQ(err.message, "Incorrect integer value: 'x' for column 'c' at row 7");
  // A long value is quoted as MySQL does ('%-.128s').
  err = ErrorOf(c, Str(std::string(300, 'z')));
  EXPECT_EQ(err.message,
            "Incorrect integer value: '" + std::string(128, 'z') + "' for column 'c' at row 1");
}

TEST(FieldCodecInteger, FromTemporal) {
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kBigInt), Date(2024, 1, 31, 12, 30, 0)),
            Int(20240131123000));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kInt), Date(2024, 1, 31)), Int(20240131));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kInt), Span(true, 0, 12, 30, 45, 600000)),
            Int(-123046));
  ExpectOutOfRange(Col(schema::ColumnType::kInt), Date(2024, 1, 31, 12, 30, 0));
}

// ---------------------------------------------------------------------------------------------
// FLOAT and DOUBLE

TEST(FieldCodecReal, RoundTrips) {
  ColumnDef d = Col(schema::ColumnType::kDouble);
  EXPECT_EQ(RoundTrip(d, Value{1.5}), Value{1.5});
  EXPECT_EQ(RoundTrip(d, Value{-1e300}), Value{-1e300});
  EXPECT_EQ(RoundTrip(d, Int(7)), Value{7.0});
  EXPECT_EQ(RoundTrip(d, Uint(UINT64_MAX)), Value{18446744073709551615.0});
  EXPECT_EQ(RoundTrip(d, Str(" 2.25 ")), Value{2.25});
  EXPECT_EQ(RoundTrip(d, Str("1e-400")), Value{0.0});
  EXPECT_EQ(RoundTrip(d, Dec("0.1")), Value{0.1});
  EXPECT_EQ(RoundTrip(d, Date(2024, 1, 31, 12, 0, 0, 500000)), Value{20240131120000.5});
  ColumnDef f = Col(schema::ColumnType::kFloat);
  // A FLOAT reads back as the float's exact value, as MySQL computes with it (1.1f + 0 is
  // 1.100000023841858); the protocols print and send it as a float.
  EXPECT_EQ(RoundTrip(f, Value{1.1}), Value{static_cast<double>(1.1f)});
  EXPECT_EQ(RoundTrip(f, Str("3.4e38")), Value{static_cast<double>(3.4e38f)});
  EXPECT_EQ(RoundTrip(f, Value{0.1 + 0.2}), Value{static_cast<double>(0.3f)});
}

TEST(FieldCodecReal, Errors) {
  ColumnDef d = Col(schema::ColumnType::kDouble);
  ColumnDef f = Col(schema::ColumnType::kFloat);
  ExpectOutOfRange(f, Value{3.5e38});
  ExpectOutOfRange(f, Str("-1e39"));
  ExpectOutOfRange(d, Str("1e309"));
  ExpectOutOfRange(d, Value{std::numeric_limits<double>::infinity()});
  ExpectOutOfRange(Unsigned(d), Value{-1.0});
  // MySQL's Field_real reports text that is not (only) a number as 1265, not 1366.
  ExpectError(d, Str("abc"), 1265, "01000", "Data truncated for column 'c' at row 1");
  ExpectError(d, Str(""), 1265, "01000", "Data truncated for column 'c' at row 1");
  ExpectError(f, Str("1.5x"), 1265, "01000", "Data truncated for column 'c' at row 1");
}

// ---------------------------------------------------------------------------------------------
// DECIMAL

TEST(FieldCodecDecimal, CanonicalText) {
  ColumnDef c = Col(schema::ColumnType::kDecimal, 0, 5, 2);
  EXPECT_EQ(RoundTrip(c, Dec("1.5")), Dec("1.50"));
  EXPECT_EQ(RoundTrip(c, Dec("-0.5")), Dec("-0.50"));
  EXPECT_EQ(RoundTrip(c, Dec("0")), Dec("0.00"));
  EXPECT_EQ(RoundTrip(c, Dec("-0")), Dec("0.00"));
  EXPECT_EQ(RoundTrip(c, Dec("-0.001")), Dec("0.00"));
  EXPECT_EQ(RoundTrip(c, Dec("000123.4")), Dec("123.40"));
  EXPECT_EQ(RoundTrip(c, Dec("+.5")), Dec("0.50"));
  EXPECT_EQ(RoundTrip(c, Int(12)), Dec("12.00"));
  EXPECT_EQ(RoundTrip(c, Int(-999)), Dec("-999.00"));
  EXPECT_EQ(RoundTrip(c, Str(" 1.5e2 ")), Dec("150.00"));
  EXPECT_EQ(RoundTrip(c, Str("1234500e-4")), Dec("123.45"));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kDecimal, 0, 10, 0), Dec("-42")), Dec("-42"));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kDecimal, 0, 2, 2), Dec("0.99")), Dec("0.99"));
}

TEST(FieldCodecDecimal, RoundsHalfAwayFromZero) {
  ColumnDef c = Col(schema::ColumnType::kDecimal, 0, 5, 2);
  EXPECT_EQ(RoundTrip(c, Dec("1.005")), Dec("1.01"));
  EXPECT_EQ(RoundTrip(c, Dec("-1.005")), Dec("-1.01"));
  EXPECT_EQ(RoundTrip(c, Dec("1.00499999")), Dec("1.00"));
  EXPECT_EQ(RoundTrip(c, Dec("-0.005")), Dec("-0.01"));
  EXPECT_EQ(RoundTrip(c, Dec("9.995")), Dec("10.00"));
  EXPECT_EQ(RoundTrip(c, Dec("999.994")), Dec("999.99"));
  // A double goes through its shortest text: 2.675 is "2.675", so it rounds up.
  EXPECT_EQ(RoundTrip(c, Value{2.675}), Dec("2.68"));
  EXPECT_EQ(RoundTrip(c, Value{1e-20}), Dec("0.00"));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kDecimal, 0, 3, 0), Dec("99.5")), Dec("100"));
}

TEST(FieldCodecDecimal, ExactBeyondDouble) {
  ColumnDef c = Col(schema::ColumnType::kDecimal, 0, 65, 30);
  const std::string v = "12345678901234567890123456789012345.123456789012345678901234567891";
  EXPECT_EQ(RoundTrip(c, Str(v)), Dec(v));
  const std::string up = "12345678901234567890123456789012345.123456789012345678901234567892";
  EXPECT_EQ(RoundTrip(c, Str(v + "5")), Dec(up));
  EXPECT_EQ(RoundTrip(c, Str("-" + v + "4999")), Dec("-" + v));
  EXPECT_EQ(RoundTrip(c, Str("-" + v + "5")), Dec("-" + up));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kDecimal, 0, 20, 0), Uint(UINT64_MAX)),
            Dec("18446744073709551615"));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kDecimal, 0, 20, 0), Int(INT64_MIN)),
            Dec("-9223372036854775808"));
}

TEST(FieldCodecDecimal, Errors) {
  ColumnDef c = Col(schema::ColumnType::kDecimal, 0, 5, 2);
  ExpectOutOfRange(c, Dec("1000"));
  ExpectOutOfRange(c, Dec("-1000.00"));
  ExpectOutOfRange(c, Dec("999.995"));
  ExpectOutOfRange(c, Value{1e10});
  ExpectOutOfRange(c, Value{std::numeric_limits<double>::quiet_NaN()});
  ExpectOutOfRange(Col(schema::ColumnType::kDecimal, 0, 2, 2), Dec("0.995"));
  ExpectOutOfRange(Col(schema::ColumnType::kDecimal, 0, 2, 2), Dec("1"));
  ExpectOutOfRange(Unsigned(c), Dec("-1"));
  ExpectOutOfRange(Unsigned(c), Dec("-0.001"));
  EXPECT_EQ(RoundTrip(Unsigned(c), Dec("-0.00")), Dec("0.00"));
  ExpectError(c, Str("abc"), 1366, "HY000",
              "Incorrect decimal value: 'abc' for column 'c' at row 1");
  ExpectError(c, Str(""), 1366, "HY000", "Incorrect decimal value: '' for column 'c' at row 1");
  ExpectError(c, Str("12abc"), 1366, "HY000",
              "Incorrect decimal value: '12abc' for column 'c' at row 1");
}

// ---------------------------------------------------------------------------------------------
// Strings

TEST(FieldCodecString, VarChar) {
  ColumnDef c = Col(schema::ColumnType::kVarChar, 5);
  EXPECT_EQ(RoundTrip(c, Str("hello")), Str("hello"));
  EXPECT_EQ(RoundTrip(c, Str("")), Str(""));
  EXPECT_EQ(RoundTrip(c, Str("h\xC3\xA9llo")), Str("h\xC3\xA9llo"));  // 5 characters, 6 bytes
  const std::string emoji = "\xF0\x9F\x98\x80";                       // one character
  EXPECT_EQ(RoundTrip(c, Str(emoji + emoji + emoji + emoji + emoji)),
            Str(emoji + emoji + emoji + emoji + emoji));
  EXPECT_EQ(RoundTrip(c, Str("ab  ")), Str("ab  "));       // VARCHAR keeps trailing spaces
  EXPECT_EQ(RoundTrip(c, Str("abcde   ")), Str("abcde"));  // excess spaces go quietly
  EXPECT_EQ(RoundTrip(c, Int(-42)), Str("-42"));
  EXPECT_EQ(RoundTrip(c, Value{1.5}), Str("1.5"));
  EXPECT_EQ(RoundTrip(c, Dec("1.50")), Str("1.50"));
  EXPECT_EQ(RoundTrip(Col(schema::ColumnType::kVarChar, 10), Date(2024, 1, 31)), Str("2024-01-31"));
  ExpectError(c, Str("hello!"), 1406, "22001", "Data too long for column 'c' at row 1");
  ExpectError(c, Str(emoji + emoji + emoji + emoji + emoji + emoji), 1406, "22001",
              "Data too long for column 'c' at row 1");
  ExpectError(c, Str("abcde x"), 1406, "22001", "Data too long for column 'c' at row 1");
  ExpectError(c, Int(123456), 1406, "22001", "Data too long for column 'c' at row 1");
}

TEST(FieldCodecString, CharDropsTrailingSpaces) {
  ColumnDef c = Col(schema::ColumnType::kChar, 4);
  EXPECT_EQ(RoundTrip(c, Str("ab  ")), Str("ab"));
  EXPECT_EQ(RoundTrip(c, Str("  ab")), Str("  ab"));
  EXPECT_EQ(RoundTrip(c, Str("    ")), Str(""));
  EXPECT_EQ(RoundTrip(c, Str("abcd    ")), Str("abcd"));
  ExpectError(c, Str("abcde"), 1406, "22001", "Data too long for column 'c' at row 1");
}

TEST(FieldCodecString, InvalidUtf8) {
  ColumnDef c = Col(schema::ColumnType::kVarChar, 20);
  ExpectError(c, Str("ab\xC3("), 1366, "HY000",
              "Incorrect string value: '\\xC3(' for column 'c' at row 1");
  ExpectError(c, Str("\xF0\x9F\x98"), 1366, "HY000",
              "Incorrect string value: '\\xF0\\x9F\\x98' for column 'c' at row 1");
  ExpectError(c,
              Str("\xFF"
                  "abcdefgh"),
              1366, "HY000", "Incorrect string value: '\\xFFabcde...' for column 'c' at row 1");
  ExpectError(c, Str("\xC0\x80"), 1366, "HY000",  // an overlong NUL
              "Incorrect string value: '\\xC0\\x80' for column 'c' at row 1");
  // As MariaDB's utf8mb4 checks it: overlong forms and code points past U+10FFFF are 1366, an
  // encoded surrogate is stored (common/utf8.h, Utf8Check::kUtf8mb4).
  ExpectError(c, Str("\xE0\x80\xAF"), 1366, "HY000",
              "Incorrect string value: '\\xE0\\x80\\xAF' for column 'c' at row 1");
  ExpectError(c, Str("\xF4\x90\x80\x80"), 1366, "HY000",
              "Incorrect string value: '\\xF4\\x90\\x80\\x80' for column 'c' at row 1");
  EXPECT_EQ(RoundTrip(c, Str("a\xED\xA0\x80")), Str("a\xED\xA0\x80"));
}

TEST(FieldCodecString, TextCountsBytes) {
  ColumnDef c = Col(schema::ColumnType::kText);
  const std::string full(65535, 'a');
  EXPECT_EQ(RoundTrip(c, Str(full)), Str(full));
  EXPECT_EQ(RoundTrip(c, Str(full + "   ")), Str(full));
  ExpectError(c, Str(full + "a"), 1406, "22001", "Data too long for column 'c' at row 1");
  // 16384 four-byte characters are 65536 bytes.
  std::string emoji;
  for (int i = 0; i < 16384; ++i) emoji += "\xF0\x9F\x98\x80";
  ExpectError(c, Str(emoji), 1406, "22001", "Data too long for column 'c' at row 1");
}

TEST(FieldCodecString, BinaryTypes) {
  ColumnDef b = Col(schema::ColumnType::kBinary, 4);
  EXPECT_EQ(RoundTrip(b, Str("ab")), Str(std::string("ab\0\0", 4)));
  EXPECT_EQ(RoundTrip(b, Str("")), Str(std::string(4, '\0')));
  EXPECT_EQ(RoundTrip(b, Int(7)), Str(std::string("7\0\0\0", 4)));
  ExpectError(b, Str("abcde"), 1406, "22001", "Data too long for column 'c' at row 1");
  ExpectError(b, Str("abcd "), 1406, "22001", "Data too long for column 'c' at row 1");
  ColumnDef vb = Col(schema::ColumnType::kVarBinary, 3);
  EXPECT_EQ(RoundTrip(vb, Str(std::string("\xFF\0\x01", 3))), Str(std::string("\xFF\0\x01", 3)));
  EXPECT_EQ(RoundTrip(vb, Str("a ")), Str("a "));
  ExpectError(vb, Str("abcd"), 1406, "22001", "Data too long for column 'c' at row 1");
  ColumnDef blob = Col(schema::ColumnType::kBlob);
  EXPECT_EQ(RoundTrip(blob, Str(std::string(65535, '\xFF'))), Str(std::string(65535, '\xFF')));
  ExpectError(blob, Str(std::string(65536, 'x')), 1406, "22001",
              "Data too long for column 'c' at row 1");
}

// ---------------------------------------------------------------------------------------------
// Dates and times

TEST(FieldCodecDate, Forms) {
  ColumnDef c = Col(schema::ColumnType::kDate);
  const Value want = Date(2024, 1, 31);
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31")), want);
  EXPECT_EQ(RoundTrip(c, Str(" 2024-1-31 ")), want);
  EXPECT_EQ(RoundTrip(c, Str("2024/01/31")), want);
  EXPECT_EQ(RoundTrip(c, Str("2024.01.31")), want);
  EXPECT_EQ(RoundTrip(c, Str("20240131")), want);
  EXPECT_EQ(RoundTrip(c, Str("240131")), want);
  EXPECT_EQ(RoundTrip(c, Str("24-01-31")), want);
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31 23:59:59.9")), want);  // the day, not rounded
  EXPECT_EQ(RoundTrip(c, Int(20240131)), want);
  EXPECT_EQ(RoundTrip(c, Int(240131)), want);
  EXPECT_EQ(RoundTrip(c, Date(2024, 1, 31, 10, 0, 0)), want);
  EXPECT_EQ(RoundTrip(c, Str("99-12-31")), Date(1999, 12, 31));
  EXPECT_EQ(RoundTrip(c, Str("9999-12-31")), Date(9999, 12, 31));
  EXPECT_EQ(RoundTrip(c, Str("0999-01-01")), Date(999, 1, 1));
}

TEST(FieldCodecDate, LeapDays) {
  ColumnDef c = Col(schema::ColumnType::kDate);
  EXPECT_EQ(RoundTrip(c, Str("2024-02-29")), Date(2024, 2, 29));
  EXPECT_EQ(RoundTrip(c, Str("2000-02-29")), Date(2000, 2, 29));
  ExpectError(c, Str("2023-02-29"), 1292, "22007",
              "Incorrect date value: '2023-02-29' for column 'c' at row 1");
  ExpectError(c, Str("1900-02-29"), 1292, "22007",
              "Incorrect date value: '1900-02-29' for column 'c' at row 1");
}

TEST(FieldCodecDate, Invalid) {
  ColumnDef c = Col(schema::ColumnType::kDate);
  for (const char* bad : {"0000-00-00", "2024-00-10", "2024-01-00", "2024-13-01", "2024-04-31", "",
                          "abc", "2024-01", "2024-01-31x", "2024-01-31 25:00:00", "12345"}) {
    ExpectError(c, Str(bad), 1292, "22007",
                std::string("Incorrect date value: '") + bad + "' for column 'c' at row 1");
  }
  ExpectError(c, Int(0), 1292, "22007", "Incorrect date value: '0' for column 'c' at row 1");
  ExpectError(c, Int(20241301), 1292, "22007",
              "Incorrect date value: '20241301' for column 'c' at row 1");
  ExpectError(c, Int(-20240131), 1292, "22007",
              "Incorrect date value: '-20240131' for column 'c' at row 1");
  ExpectError(c, Date(0, 0, 0), 1292, "22007",
              "Incorrect date value: '0000-00-00' for column 'c' at row 1");
}

TEST(FieldCodecDateTime, Forms) {
  ColumnDef c = Col(schema::ColumnType::kDateTime);
  const Value want = Date(2024, 1, 31, 12, 30, 45);
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31 12:30:45")), want);
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31T12:30:45")), want);
  EXPECT_EQ(RoundTrip(c, Str("20240131123045")), want);
  EXPECT_EQ(RoundTrip(c, Str("240131123045")), want);
  EXPECT_EQ(RoundTrip(c, Int(20240131123045)), want);
  EXPECT_EQ(RoundTrip(c, Value{20240131123045.0}), want);
  EXPECT_EQ(RoundTrip(c, want), want);
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31")), Date(2024, 1, 31));
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31 12:30")), Date(2024, 1, 31, 12, 30, 0));
  EXPECT_EQ(RoundTrip(c, Str("1000-01-01 00:00:00")), Date(1000, 1, 1));
  EXPECT_EQ(RoundTrip(c, Str("9999-12-31 23:59:59")), Date(9999, 12, 31, 23, 59, 59));
}

TEST(FieldCodecDateTime, FractionsRoundToPrecision) {
  ColumnDef c0 = Col(schema::ColumnType::kDateTime);
  EXPECT_EQ(RoundTrip(c0, Str("2024-01-31 12:30:45.4")), Date(2024, 1, 31, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c0, Str("2024-01-31 12:30:45.5")), Date(2024, 1, 31, 12, 30, 46));
  EXPECT_EQ(RoundTrip(c0, Str("2024-12-31 23:59:59.5")), Date(2025, 1, 1));
  EXPECT_EQ(RoundTrip(c0, Str("2024-02-28 23:59:59.7")), Date(2024, 2, 29));
  EXPECT_EQ(RoundTrip(c0, Date(2024, 1, 31, 0, 0, 0, 999999)), Date(2024, 1, 31, 0, 0, 1));
  ColumnDef c3 = Col(schema::ColumnType::kDateTime, 0, 3);
  EXPECT_EQ(RoundTrip(c3, Str("2024-01-31 12:30:45.1234")), Date(2024, 1, 31, 12, 30, 45, 123000));
  EXPECT_EQ(RoundTrip(c3, Str("2024-01-31 12:30:45.1235")), Date(2024, 1, 31, 12, 30, 45, 124000));
  ColumnDef c6 = Col(schema::ColumnType::kDateTime, 0, 6);
  EXPECT_EQ(RoundTrip(c6, Str("2024-01-31 12:30:45.123456")),
            Date(2024, 1, 31, 12, 30, 45, 123456));
  EXPECT_EQ(RoundTrip(c6, Str("2024-01-31 12:30:45.1234565")),
            Date(2024, 1, 31, 12, 30, 45, 123457));
  EXPECT_EQ(RoundTrip(c6, Str("20240131123045.5")), Date(2024, 1, 31, 12, 30, 45, 500000));
}

TEST(FieldCodecDateTime, Invalid) {
  ColumnDef c = Col(schema::ColumnType::kDateTime);
  for (const char* bad :
       {"0000-00-00 00:00:00", "2024-01-31 24:00:00", "2024-01-31 12:60:00", "2024-02-30 00:00:00",
        "9999-12-31 23:59:59.5", "2024-01-31 12:30:45x", "20240131.5"}) {
    ExpectError(c, Str(bad), 1292, "22007",
                std::string("Incorrect datetime value: '") + bad + "' for column 'c' at row 1");
  }
  ExpectError(c, Date(2024, 13, 1, 1, 2, 3), 1292, "22007",
              "Incorrect datetime value: '2024-13-01 01:02:03' for column 'c' at row 1");
  ExpectError(c, Span(false, 0, 1, 2, 3), 1292, "22007",
              "Incorrect datetime value: '01:02:03' for column 'c' at row 1");
}

TEST(FieldCodecTimestamp, Range) {
  ColumnDef c = Col(schema::ColumnType::kTimestamp);
  EXPECT_EQ(RoundTrip(c, Str("1970-01-01 00:00:01")), Date(1970, 1, 1, 0, 0, 1));
  EXPECT_EQ(RoundTrip(c, Str("2038-01-19 03:14:07")), Date(2038, 1, 19, 3, 14, 7));
  EXPECT_EQ(RoundTrip(c, Str("2024-02-29 12:00:00")), Date(2024, 2, 29, 12, 0, 0));
  for (const char* bad : {"1970-01-01 00:00:00", "2038-01-19 03:14:08", "1969-12-31 23:59:59",
                          "2038-01-19 03:14:07.5"}) {
    ExpectError(c, Str(bad), 1292, "22007",
                std::string("Incorrect datetime value: '") + bad + "' for column 'c' at row 1");
  }
  ColumnDef c6 = Col(schema::ColumnType::kTimestamp, 0, 6);
  EXPECT_EQ(RoundTrip(c6, Str("2038-01-19 03:14:07.999999")), Date(2038, 1, 19, 3, 14, 7, 999999));
}

// Given in a session's time zone, stored in UTC: the range is UTC's, and reading in another
// zone moves the value by the difference; a DATETIME never moves; the zero date stays zero.
TEST(FieldCodecTimestamp, SessionTimeZones) {
  ColumnDef c = Col(schema::ColumnType::kTimestamp, 0, 3);
  constexpr int kPlus2 = 2 * 3600, kMinus530 = -(5 * 3600 + 1800);
  auto encoded = EncodeField(c, Str("2024-03-01 01:00:00.250"), 1, kPlus2);
  ASSERT_TRUE(std::holds_alternative<std::string>(encoded));
  const std::string& packed = std::get<std::string>(encoded);
  schema::Field field{packed, false};
  EXPECT_EQ(DecodeField(c, field), Date(2024, 2, 29, 23, 0, 0, 250000));  // as stored: UTC
  EXPECT_EQ(DecodeField(c, field, kPlus2), Date(2024, 3, 1, 1, 0, 0, 250000));
  EXPECT_EQ(DecodeField(c, field, kMinus530), Date(2024, 2, 29, 17, 30, 0, 250000));
  // The first and last instants in UTC, written from +02:00; one second outside each.
  EXPECT_TRUE(
      std::holds_alternative<std::string>(EncodeField(c, Str("1970-01-01 02:00:01"), 1, kPlus2)));
  EXPECT_TRUE(
      std::holds_alternative<std::string>(EncodeField(c, Str("2038-01-19 05:14:07"), 1, kPlus2)));
  for (const char* bad : {"1970-01-01 02:00:00", "2038-01-19 05:14:08"}) {
    auto refused = EncodeField(c, Str(bad), 1, kPlus2);
    ASSERT_TRUE(std::holds_alternative<SqlError>(refused)) << bad;
    EXPECT_EQ(std::get<SqlError>(refused).code, 1292);
  }
  ColumnDef dt = Col(schema::ColumnType::kDateTime);
  auto same = EncodeField(dt, Str("2024-03-01 01:00:00"), 1, kPlus2);
  schema::Field dt_field{std::get<std::string>(same), false};
  EXPECT_EQ(DecodeField(dt, dt_field, kMinus530), Date(2024, 3, 1, 1, 0, 0));
  std::string zero(8, '\0');
  EXPECT_EQ(DecodeField(c, schema::Field{zero, false}, kPlus2), Date(0, 0, 0, 0, 0, 0));
}

TEST(FieldCodecTime, Forms) {
  ColumnDef c = Col(schema::ColumnType::kTime);
  EXPECT_EQ(RoundTrip(c, Str("12:30:45")), Span(false, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Str("-12:30:45")), Span(true, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Str("12:30")), Span(false, 0, 12, 30, 0));
  EXPECT_EQ(RoundTrip(c, Str("1 02:03:04")), Span(false, 1, 2, 3, 4));
  EXPECT_EQ(RoundTrip(c, Str("-2 3")), Span(true, 2, 3, 0, 0));
  EXPECT_EQ(RoundTrip(c, Str("123045")), Span(false, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Str("1230")), Span(false, 0, 0, 12, 30));
  EXPECT_EQ(RoundTrip(c, Str("5")), Span(false, 0, 0, 0, 5));
  EXPECT_EQ(RoundTrip(c, Str("100:00:00")), Span(false, 4, 4, 0, 0));
  EXPECT_EQ(RoundTrip(c, Str("838:59:59")), Span(false, 34, 22, 59, 59));
  EXPECT_EQ(RoundTrip(c, Str("-838:59:59")), Span(true, 34, 22, 59, 59));
  EXPECT_EQ(RoundTrip(c, Str("00:00:00")), Span(false, 0, 0, 0, 0));
  EXPECT_EQ(RoundTrip(c, Str("2024-01-31 12:30:45")), Span(false, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Int(123045)), Span(false, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Int(-123045)), Span(true, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Int(20240131123045)), Span(false, 0, 12, 30, 45));
  EXPECT_EQ(RoundTrip(c, Span(true, 1, 2, 3, 4)), Span(true, 1, 2, 3, 4));
  EXPECT_EQ(RoundTrip(c, Date(2024, 1, 31, 12, 30, 45)), Span(false, 0, 12, 30, 45));
}

TEST(FieldCodecTime, Fractions) {
  ColumnDef c0 = Col(schema::ColumnType::kTime);
  EXPECT_EQ(RoundTrip(c0, Str("10:00:00.5")), Span(false, 0, 10, 0, 1));
  EXPECT_EQ(RoundTrip(c0, Str("-10:00:00.5")), Span(true, 0, 10, 0, 1));
  EXPECT_EQ(RoundTrip(c0, Str("10:00:00.4")), Span(false, 0, 10, 0, 0));
  ColumnDef c1 = Col(schema::ColumnType::kTime, 0, 1);
  EXPECT_EQ(RoundTrip(c1, Str("-12:30:45.55")), Span(true, 0, 12, 30, 45, 600000));
  ColumnDef c6 = Col(schema::ColumnType::kTime, 0, 6);
  EXPECT_EQ(RoundTrip(c6, Str("-00:00:00.000001")), Span(true, 0, 0, 0, 0, 1));
  EXPECT_EQ(RoundTrip(c6, Str("123045.25")), Span(false, 0, 12, 30, 45, 250000));
  EXPECT_EQ(RoundTrip(c6, Value{-123045.5}), Span(true, 0, 12, 30, 45, 500000));
  EXPECT_EQ(RoundTrip(c6, Dec("1.000001")), Span(false, 0, 0, 0, 1, 1));
}

TEST(FieldCodecTime, Invalid) {
  ColumnDef c = Col(schema::ColumnType::kTime);
  for (const char* bad : {"839:00:00", "-839:00:00", "838:59:59.5", "12:60:00", "12:00:60", "abc",
                          "", "12:30:45x", "8385960", "35 00:00:00"}) {
    ExpectError(c, Str(bad), 1292, "22007",
                std::string("Incorrect time value: '") + bad + "' for column 'c' at row 1");
  }
  ExpectError(c, Int(8390000), 1292, "22007",
              "Incorrect time value: '8390000' for column 'c' at row 1");
  ExpectError(c, Int(1260), 1292, "22007", "Incorrect time value: '1260' for column 'c' at row 1");
  ExpectError(c, Span(false, 35, 0, 0, 0), 1292, "22007",
              "Incorrect time value: '840:00:00' for column 'c' at row 1");
}

// ---------------------------------------------------------------------------------------------
// NULL and rows

// ---------------------------------------------------------------------------------------------
// ENUM and SET (Field_enum::store, Field_set::store in strict mode)

TEST(FieldCodecEnum, MembersPositionsAndTruncation) {
  const ColumnDef e = Members(schema::ColumnType::kEnum, {"small", "Medium", "large"});
  EXPECT_EQ(RoundTrip(e, Str("small")), Str("small"));
  EXPECT_EQ(RoundTrip(e, Str("MEDIUM  ")), Str("Medium"));  // collation: case, trailing spaces
  EXPECT_EQ(RoundTrip(e, Int(3)), Str("large"));
  EXPECT_EQ(RoundTrip(e, Str("2")), Str("Medium"));  // text naming no member: a position
  EXPECT_EQ(RoundTrip(e, Str("0")), Str(""));        // MySQL takes '0' silently
  const std::string truncated = "Data truncated for column 'c' at row 1";
  for (const Value& bad : {Str("huge"), Str(""), Str("4"), Int(0), Int(4), Int(-1)}) {
    ExpectError(e, bad, 1265, "01000", truncated);
  }
}

TEST(FieldCodecSet, MembersBitsAndTruncation) {
  const ColumnDef s = Members(schema::ColumnType::kSet, {"red", "green", "blue"});
  EXPECT_EQ(RoundTrip(s, Str("blue,RED")), Str("red,blue"));  // declared order
  EXPECT_EQ(RoundTrip(s, Str("red,red")), Str("red"));
  EXPECT_EQ(RoundTrip(s, Str("")), Str(""));
  EXPECT_EQ(RoundTrip(s, Int(6)), Str("green,blue"));
  EXPECT_EQ(RoundTrip(s, Str("5")), Str("red,blue"));
  const std::string truncated = "Data truncated for column 'c' at row 1";
  for (const Value& bad : {Str("red,pink"), Str("red,,blue"), Int(8), Str("8"), Int(-1)}) {
    ExpectError(s, bad, 1265, "01000", truncated);
  }
}

// JSON (Field_json::store): text that parses, kept in MySQL's canonical form.
TEST(FieldCodecJson, CanonicalTextAndErrors) {
  const ColumnDef j = Col(schema::ColumnType::kJson);
  EXPECT_EQ(RoundTrip(j, Str("{\"b\":[1,2.50],\"a\":null}")),
            Str("{\"a\": null, \"b\": [1, 2.5]}"));
  EXPECT_EQ(RoundTrip(j, Str(" \"x\" ")), Str("\"x\""));
  ExpectError(j, Str("[1,"), 3140, "22032",
              "Invalid JSON text: \"Invalid value.\" at position 3 in value for column 'c'.");
  ExpectError(j, Int(1), 3140, "22032",
              "Invalid JSON text: \"not a JSON text, may need CAST\" at position 0 in value for "
              "column 'c'.");
  ExpectError(j, Str(std::string(101, '[') + std::string(101, ']')), 3157, "22032",
              "The JSON document exceeds the maximum depth.");
  schema::RowWriter writer;
  writer.BeginRow(1);
  auto err = AppendField(j, Str("{"), 7, &writer, "t");
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message,
            "Invalid JSON text: \"Missing a name for object member.\" at position 1 in value for "
            "column 't.c'.");
}

TEST(FieldCodecNull, NullableAndNotNull) {
  schema::TableDef table;
  table.columns = {Col(schema::ColumnType::kInt), Col(schema::ColumnType::kVarChar, 10)};
  table.columns[1].name = "v";
  table.columns[1].nullable = false;
  schema::RowWriter writer;
  writer.BeginRow(2);
  EXPECT_FALSE(AppendField(table.columns[0], mysql::Null{}, 1, &writer).has_value());
  EXPECT_FALSE(AppendField(table.columns[1], Str(""), 1, &writer).has_value());
  schema::Field fields[2];
  size_t consumed = 0;
  const uint16_t columns[] = {0, 1};
  ASSERT_TRUE(schema::SplitRow(table, columns, writer.view(), fields, &consumed));
  EXPECT_EQ(consumed, writer.view().size());
  EXPECT_EQ(DecodeField(table.columns[0], fields[0]), Value{mysql::Null{}});
  EXPECT_EQ(DecodeField(table.columns[1], fields[1]), Str(""));

  schema::RowWriter other;
  other.BeginRow(2);
  auto err = AppendField(table.columns[1], mysql::Null{}, 2, &other);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->code, 1048);
  EXPECT_EQ(err->sqlstate, "23000");
  EXPECT_EQ(err->message, "Column 'v' cannot be null");
  ExpectError(table.columns[0], mysql::Null{}, 1048, "23000", "Column 'c' cannot be null");
}

TEST(FieldCodecNull, AppendFieldWritesEveryType) {
  schema::TableDef table;
  table.columns = {Col(schema::ColumnType::kTinyInt),   Col(schema::ColumnType::kFloat),
                   Col(schema::ColumnType::kDouble),    Col(schema::ColumnType::kDecimal, 0, 6, 3),
                   Col(schema::ColumnType::kChar, 3),   Col(schema::ColumnType::kBinary, 2),
                   Col(schema::ColumnType::kDate),      Col(schema::ColumnType::kTime, 0, 2),
                   Col(schema::ColumnType::kTimestamp), Col(schema::ColumnType::kBigInt)};
  const Value values[] = {Int(-5),          Value{0.5},   Str("2.5"),        Str("-1.2345"),
                          Str("ab "),       Str("x"),     Str("2024-02-29"), Str("-1:02:03.456"),
                          Date(2024, 1, 1), mysql::Null{}};
  schema::RowWriter writer;
  writer.BeginRow(10);
  for (int i = 0; i < 10; ++i) {
    auto err = AppendField(table.columns[i], values[i], 1, &writer);
    ASSERT_FALSE(err.has_value()) << i << ": " << err->message;
  }
  schema::Field fields[10];
  size_t consumed = 0;
  const uint16_t columns[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  ASSERT_TRUE(schema::SplitRow(table, columns, writer.view(), fields, &consumed));
  const Value want[] = {Int(-5),           Value{0.5},
                        Value{2.5},        Dec("-1.235"),
                        Str("ab"),         Str(std::string("x\0", 2)),
                        Date(2024, 2, 29), Span(true, 0, 1, 2, 3, 460000),
                        Date(2024, 1, 1),  mysql::Null{}};
  for (int i = 0; i < 10; ++i) EXPECT_EQ(DecodeField(table.columns[i], fields[i]), want[i]) << i;
}

// Whatever arrives, a conversion either fails with a MySQL error or gives a well-formed field.
TEST(FieldCodecNull, OddInputsNeverBreakAField) {
  const ColumnDef columns[] = {Col(schema::ColumnType::kTinyInt),
                               Unsigned(Col(schema::ColumnType::kBigInt)),
                               Col(schema::ColumnType::kFloat),
                               Col(schema::ColumnType::kDouble),
                               Col(schema::ColumnType::kDecimal, 0, 65, 30),
                               Col(schema::ColumnType::kDecimal, 0, 1, 0),
                               Col(schema::ColumnType::kChar, 1),
                               Col(schema::ColumnType::kVarChar, 3),
                               Col(schema::ColumnType::kBinary, 1),
                               Col(schema::ColumnType::kVarBinary, 2),
                               Col(schema::ColumnType::kText),
                               Col(schema::ColumnType::kBlob),
                               Col(schema::ColumnType::kDate),
                               Col(schema::ColumnType::kTime, 0, 6),
                               Col(schema::ColumnType::kDateTime, 0, 6),
                               Col(schema::ColumnType::kTimestamp, 0, 6)};
  const Value values[] = {Str(""),
                          Str("-"),
                          Str("+"),
                          Str("."),
                          Str("-."),
                          Str("e5"),
                          Str("1e"),
                          Str("1e+"),
                          Str("1e99999999999999999999"),
                          Str("1e-99999999999999999999"),
                          Str("0e999999"),
                          Str(std::string(70000, '9')),
                          Str("0." + std::string(70000, '0') + "1"),
                          Str(std::string("\0\0", 2)),
                          Str("\xFF\xFE"),
                          Str("::"),
                          Str("1 "),
                          Str("1 1:1:1"),
                          Str("9999-12-31 23:59:59.9999999"),
                          Str("0000-01-01"),
                          Str("99999999999999999999"),
                          Str("-838:59:59.9999999"),
                          Str("2024-02-29T"),
                          Str("2024--02--29"),
                          Str("T12:00:00"),
                          Int(INT64_MIN),
                          Int(INT64_MAX),
                          Uint(UINT64_MAX),
                          Value{-0.0},
                          Value{5e-324},
                          Value{1.7976931348623157e308},
                          Value{std::numeric_limits<double>::infinity()},
                          Dec(""),
                          Dec("-"),
                          Dec("1e400"),
                          Date(9999, 12, 31, 23, 59, 59, 999999),
                          Date(0, 0, 0),
                          Date(65535, 255, 255, 255, 255, 255, 4294967295u),
                          Span(true, 4294967295u, 255, 255, 255, 4294967295u),
                          Span(false, 0, 0, 0, 0)};
  for (const ColumnDef& c : columns) {
    for (const Value& v : values) {
      auto encoded = EncodeField(c, v, 1);
      if (const auto* err = std::get_if<SqlError>(&encoded)) {
        EXPECT_NE(err->code, 0);
        EXPECT_EQ(err->sqlstate.size(), 5u);
        continue;
      }
      const std::string& packed = std::get<std::string>(encoded);
      schema::Field field;
      size_t consumed = 0;
      ASSERT_TRUE(schema::ReadField(c, packed, &field, &consumed)) << static_cast<int>(c.type);
      EXPECT_EQ(consumed, packed.size());
      DecodeField(c, field);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Result metadata

namespace flag = mysql::column_flag;
constexpr uint16_t kPartKey = 0x4000;

// sbtest1 as sysbench creates it, and a table of every type.
schema::TableDef SbTest() {
  schema::TableDef t;
  t.database = "sbtest";
  t.name = "sbtest1";
  ColumnDef id = Col(schema::ColumnType::kInt);
  id.name = "id";
  id.nullable = false;
  id.auto_increment = true;
  ColumnDef k = Col(schema::ColumnType::kInt);
  k.name = "k";
  k.nullable = false;
  k.default_value = std::string(4, '\0');
  ColumnDef c = Col(schema::ColumnType::kChar, 120);
  c.nullable = false;
  c.default_value = std::string(2, '\0');
  ColumnDef pad = Col(schema::ColumnType::kChar, 60);
  pad.name = "pad";
  pad.nullable = false;
  t.columns = {id, k, c, pad};
  t.indexes = {{"PRIMARY", {0}, true, true}, {"k_1", {1}, false, false}};
  return t;
}

TEST(FieldCodecResultColumn, ABinColumnIsOfItsCharsetsBinCollation) {
  schema::TableDef t = SbTest();
  t.columns[2].collation = schema::Collation::kBinary;  // c CHAR(120) COLLATE utf8mb4_bin
  EXPECT_EQ(ResultColumn(t, 2, 45, 4).charset, 46);     // utf8mb4_general_ci → utf8mb4_bin
  EXPECT_EQ(ResultColumn(t, 2, 255, 4).charset, 46);    // utf8mb4_0900_ai_ci → utf8mb4_bin
  EXPECT_EQ(ResultColumn(t, 2, 8, 1).charset, 47);      // latin1_swedish_ci → latin1_bin
  EXPECT_EQ(ResultColumn(t, 3, 45, 4).charset, 45);     // pad, case-insensitive
}

TEST(FieldCodecResultColumn, SysbenchTranscript) {
  schema::TableDef t = SbTest();
  mysql::ColumnDefinition c = ResultColumn(t, 2, 45, 4);
  EXPECT_EQ(c.schema, "sbtest");
  EXPECT_EQ(c.table, "sbtest1");
  EXPECT_EQ(c.org_table, "sbtest1");
  EXPECT_EQ(c.name, "c");
  EXPECT_EQ(c.org_name, "c");
  EXPECT_EQ(c.type, mysql::ColumnType::kString);
  EXPECT_EQ(c.charset, 45);
  EXPECT_EQ(c.length, 480u);
  EXPECT_EQ(c.flags, flag::kNotNull);
  EXPECT_EQ(c.decimals, 0);
  EXPECT_EQ(ResultColumn(t, 2, 33, 3).length, 360u);

  mysql::ColumnDefinition id = ResultColumn(t, 0, 45, 4);
  EXPECT_EQ(id.type, mysql::ColumnType::kLong);
  EXPECT_EQ(id.charset, 63);
  EXPECT_EQ(id.length, 11u);
  EXPECT_EQ(id.flags, flag::kNotNull | flag::kPrimaryKey | flag::kAutoIncrement | kPartKey);
  mysql::ColumnDefinition k = ResultColumn(t, 1, 45, 4);
  EXPECT_EQ(k.flags, flag::kNotNull | flag::kMultipleKey | kPartKey);
  // NOT NULL without a default.
  EXPECT_EQ(ResultColumn(t, 3, 45, 4).flags, flag::kNotNull | flag::kNoDefaultValue);
}

TEST(FieldCodecResultColumn, EveryType) {
  schema::TableDef t;
  t.database = "db";
  t.name = "t";
  t.columns = {Col(schema::ColumnType::kTinyInt),
               Unsigned(Col(schema::ColumnType::kTinyInt)),
               Col(schema::ColumnType::kSmallInt),
               Unsigned(Col(schema::ColumnType::kSmallInt)),
               Col(schema::ColumnType::kMediumInt),
               Unsigned(Col(schema::ColumnType::kMediumInt)),
               Unsigned(Col(schema::ColumnType::kInt)),
               Col(schema::ColumnType::kBigInt),
               Unsigned(Col(schema::ColumnType::kBigInt)),
               Col(schema::ColumnType::kFloat),
               Col(schema::ColumnType::kDouble),
               Col(schema::ColumnType::kDecimal, 0, 10, 2),
               Unsigned(Col(schema::ColumnType::kDecimal, 0, 10, 0)),
               Col(schema::ColumnType::kVarChar, 20),
               Col(schema::ColumnType::kText),
               Col(schema::ColumnType::kBinary, 16),
               Col(schema::ColumnType::kVarBinary, 100),
               Col(schema::ColumnType::kBlob),
               Col(schema::ColumnType::kDate),
               Col(schema::ColumnType::kTime),
               Col(schema::ColumnType::kTime, 0, 3),
               Col(schema::ColumnType::kDateTime),
               Col(schema::ColumnType::kDateTime, 0, 6),
               Col(schema::ColumnType::kTimestamp),
               Col(schema::ColumnType::kTimestamp, 0, 2),
               Members(schema::ColumnType::kEnum, {"a", "bcd"}),
               Members(schema::ColumnType::kSet, {"a", "bcd"})};
  struct Want {
    mysql::ColumnType type;
    uint16_t charset;
    uint32_t length;
    uint16_t flags;
    uint8_t decimals;
  };
  using T = mysql::ColumnType;
  const Want want[] = {
      {T::kTiny, 63, 4, 0, 0},
      {T::kTiny, 63, 3, flag::kUnsigned, 0},
      {T::kShort, 63, 6, 0, 0},
      {T::kShort, 63, 5, flag::kUnsigned, 0},
      {T::kInt24, 63, 9, 0, 0},
      {T::kInt24, 63, 8, flag::kUnsigned, 0},
      {T::kLong, 63, 10, flag::kUnsigned, 0},
      {T::kLongLong, 63, 20, 0, 0},
      {T::kLongLong, 63, 20, flag::kUnsigned, 0},
      {T::kFloat, 63, 12, 0, 31},
      {T::kDouble, 63, 22, 0, 31},
      {T::kNewDecimal, 63, 12, 0, 2},
      {T::kNewDecimal, 63, 10, flag::kUnsigned, 0},
      {T::kVarString, 255, 80, 0, 0},
      {T::kBlob, 255, 262140, flag::kBlob, 0},
      {T::kString, 63, 16, flag::kBinary, 0},
      {T::kVarString, 63, 100, flag::kBinary, 0},
      {T::kBlob, 63, 65535, flag::kBlob | flag::kBinary, 0},
      {T::kDate, 63, 10, flag::kBinary, 0},
      {T::kTime, 63, 10, flag::kBinary, 0},
      {T::kTime, 63, 14, flag::kBinary, 3},
      {T::kDateTime, 63, 19, flag::kBinary, 0},
      {T::kDateTime, 63, 26, flag::kBinary, 6},
      {T::kTimestamp, 63, 19, flag::kBinary, 0},
      {T::kTimestamp, 63, 22, flag::kBinary, 2},
      {T::kString, 255, 12, flag::kEnum, 0},
      {T::kString, 255, 20, flag::kSet, 0},
  };
  ASSERT_EQ(std::size(want), t.columns.size());
  for (size_t i = 0; i < t.columns.size(); ++i) {
    SCOPED_TRACE(i);
    mysql::ColumnDefinition d = ResultColumn(t, static_cast<int>(i), 255, 4);
    EXPECT_EQ(d.type, want[i].type);
    EXPECT_EQ(d.charset, want[i].charset);
    EXPECT_EQ(d.length, want[i].length);
    EXPECT_EQ(d.flags, want[i].flags);
    EXPECT_EQ(d.decimals, want[i].decimals);
  }
}

TEST(FieldCodecResultColumn, KeyFlags) {
  schema::TableDef t;
  t.database = "db";
  t.name = "t";
  for (const char* name : {"a", "b", "u", "m1", "m2"}) {
    ColumnDef c = Col(schema::ColumnType::kInt);
    c.name = name;
    t.columns.push_back(c);
  }
  t.columns[0].nullable = false;
  t.columns[1].nullable = false;
  t.indexes = {{"PRIMARY", {0, 1}, true, true},
               {"u", {2}, true, false},
               {"m", {3, 4}, true, false},
               {"b_m", {1}, false, false}};
  EXPECT_EQ(ResultColumn(t, 0, 255, 4).flags,
            flag::kNotNull | flag::kPrimaryKey | flag::kNoDefaultValue | kPartKey);
  EXPECT_EQ(ResultColumn(t, 1, 255, 4).flags, flag::kNotNull | flag::kPrimaryKey |
                                                  flag::kMultipleKey | flag::kNoDefaultValue |
                                                  kPartKey);
  EXPECT_EQ(ResultColumn(t, 2, 255, 4).flags, flag::kUniqueKey | kPartKey);
  EXPECT_EQ(ResultColumn(t, 3, 255, 4).flags, flag::kMultipleKey | kPartKey);
  EXPECT_EQ(ResultColumn(t, 4, 255, 4).flags, kPartKey);
}

TEST(FieldCodecResultColumn, UniqueNotNullKeyStandsInForHiddenPrimary) {
  schema::TableDef t;
  t.database = "db";
  t.name = "t";
  ColumnDef a = Col(schema::ColumnType::kInt);
  a.name = "a";
  ColumnDef u = Col(schema::ColumnType::kInt);
  u.name = "u";
  u.nullable = false;
  ColumnDef hidden = Unsigned(Col(schema::ColumnType::kBigInt));
  hidden.name = schema::kHiddenKeyColumn;
  hidden.nullable = false;
  hidden.hidden = true;
  t.columns = {a, u, hidden};
  t.indexes = {{"PRIMARY", {2}, true, true}, {"a", {0}, true, false}, {"u", {1}, true, false}};
  EXPECT_EQ(ResultColumn(t, 0, 255, 4).flags, flag::kUniqueKey | kPartKey);
  EXPECT_EQ(ResultColumn(t, 1, 255, 4).flags,
            flag::kNotNull | flag::kPrimaryKey | flag::kNoDefaultValue | kPartKey);
}

}  // namespace
}  // namespace shoal::sql
