#include "protocol/wire.h"

#include <string>

#include "gtest/gtest.h"
#include "protocol/test_util.h"

namespace shoal::mysql {
namespace {

using testing::FromHex;
using testing::Span;
using testing::ToHex;

TEST(WireTest, FixedIntsAreLittleEndian) {
  std::string buf;
  Writer w(&buf);
  w.WriteInt1(0x01);
  w.WriteInt2(0x0302);
  w.WriteInt3(0x060504);
  w.WriteInt4(0x0a090807);
  w.WriteInt6(0x100f0e0d0c0bULL);
  w.WriteInt8(0x1817161514131211ULL);
  EXPECT_EQ(ToHex(buf), "0102030405060708090a0b0c0d0e0f101112131415161718");
  Reader r(Span(buf));
  uint8_t a;
  uint16_t b;
  uint32_t c, d;
  uint64_t e, f;
  ASSERT_TRUE(r.ReadInt1(&a) && r.ReadInt2(&b) && r.ReadInt3(&c) && r.ReadInt4(&d) &&
              r.ReadInt6(&e) && r.ReadInt8(&f));
  EXPECT_EQ(a, 0x01);
  EXPECT_EQ(b, 0x0302);
  EXPECT_EQ(c, 0x060504u);
  EXPECT_EQ(d, 0x0a090807u);
  EXPECT_EQ(e, 0x100f0e0d0c0bULL);
  EXPECT_EQ(f, 0x1817161514131211ULL);
  EXPECT_TRUE(r.empty());
  EXPECT_FALSE(r.ReadInt1(&a));
}

TEST(WireTest, LenencIntBoundaries) {
  struct Case {
    uint64_t value;
    const char* hex;
  };
  const Case cases[] = {
      {0, "00"},
      {250, "fa"},
      {251, "fcfb00"},
      {0xFFFF, "fcffff"},
      {0x10000, "fd000001"},
      {0xFFFFFF, "fdffffff"},
      {0x1000000, "fe0000000100000000"},
      {~0ULL, "feffffffffffffffff"},
  };
  for (const Case& c : cases) {
    std::string buf;
    Writer(&buf).WriteLenencInt(c.value);
    EXPECT_EQ(ToHex(buf), c.hex) << c.value;
    EXPECT_EQ(buf.size(), Writer::LenencIntSize(c.value));
    Reader r(Span(buf));
    uint64_t v;
    ASSERT_TRUE(r.ReadLenencInt(&v));
    EXPECT_EQ(v, c.value);
    EXPECT_TRUE(r.empty());
    // Every truncation fails and leaves the reader where it was.
    for (size_t n = 0; n < buf.size(); ++n) {
      Reader t(Span(buf).subspan(0, n));
      EXPECT_FALSE(t.ReadLenencInt(&v)) << c.value << " truncated to " << n;
      EXPECT_EQ(t.position(), 0u);
    }
  }
}

TEST(WireTest, LenencIntRejectsNullAndFf) {
  uint64_t v;
  std::string null_marker = FromHex("fb");
  std::string ff = FromHex("ff");
  EXPECT_FALSE(Reader(Span(null_marker)).ReadLenencInt(&v));
  EXPECT_FALSE(Reader(Span(ff)).ReadLenencInt(&v));
}

TEST(WireTest, LenencStringThatOverflowsFails) {
  absl::string_view s;
  std::string ok = FromHex("03616263");
  Reader r(Span(ok));
  ASSERT_TRUE(r.ReadLenencString(&s));
  EXPECT_EQ(s, "abc");
  std::string overflow = FromHex("0461626364").substr(0, 4);
  Reader r2(Span(overflow));
  EXPECT_FALSE(r2.ReadLenencString(&s));
  EXPECT_EQ(r2.position(), 0u);
  // A length near 2^64 must not wrap around.
  std::string huge = FromHex("feffffffffffffffff00");
  Reader r3(Span(huge));
  EXPECT_FALSE(r3.ReadLenencString(&s));
}

TEST(WireTest, NulAndFixedStrings) {
  std::string buf = std::string("root\0db", 7);
  Reader r(Span(buf));
  absl::string_view s;
  ASSERT_TRUE(r.ReadNulString(&s));
  EXPECT_EQ(s, "root");
  EXPECT_FALSE(r.ReadNulString(&s));  // "db" has no NUL
  EXPECT_FALSE(r.ReadFixedString(3, &s));
  ASSERT_TRUE(r.ReadFixedString(2, &s));
  EXPECT_EQ(s, "db");
  EXPECT_EQ(r.ReadRest(), "");
  Reader empty(absl::Span<const uint8_t>{});
  EXPECT_FALSE(empty.ReadNulString(&s));
  EXPECT_TRUE(empty.Skip(0));
  EXPECT_FALSE(empty.Skip(1));
}

TEST(WireTest, WriterStrings) {
  std::string buf;
  Writer w(&buf);
  w.WriteLenencString("hi");
  w.WriteNulString("x");
  w.WriteLenencString(std::string(300, 'a'));
  EXPECT_EQ(ToHex(buf.substr(0, 8)), "0268697800fc2c01");
  EXPECT_EQ(buf.size(), 8u + 300u);
}

}  // namespace
}  // namespace shoal::mysql
