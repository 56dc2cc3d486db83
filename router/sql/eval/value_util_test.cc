// The text of values (ValueText) for the types whose layout is shared with results
// (protocol/text_format.h), and character counts.
#include "router/sql/eval/value_util.h"

#include "gtest/gtest.h"

namespace shoal::sql {
namespace {

TEST(ValueTextTest, TemporalValuesShowAFractionOnlyWhenThereIsOne) {
  EXPECT_EQ(ValueText(mysql::DateTime{2024, 1, 2}), "2024-01-02 00:00:00");
  EXPECT_EQ(ValueText(mysql::DateTime{2024, 1, 2, 3, 4, 5, 120}), "2024-01-02 03:04:05.000120");
  EXPECT_EQ(ValueText(mysql::Time{false, 1, 2, 3, 4, 0}), "26:03:04");
  EXPECT_EQ(ValueText(mysql::Time{true, 0, 0, 0, 1, 500000}), "-00:00:01.500000");
}

TEST(ValueTextTest, OtherTypes) {
  EXPECT_EQ(ValueText(mysql::Value{}), "NULL");
  EXPECT_EQ(ValueText(int64_t{-7}), "-7");
  EXPECT_EQ(ValueText(uint64_t{18446744073709551615ULL}), "18446744073709551615");
  EXPECT_EQ(ValueText(1.5), "1.5");
  EXPECT_EQ(ValueText(mysql::Decimal{"-1.50"}), "-1.50");
  EXPECT_EQ(ValueText(std::string("abc")), "abc");
}

TEST(CharLengthTest, CountsCharactersAndMalformedBytes) {
  EXPECT_EQ(CharLength("héllo"), 5u);
  EXPECT_EQ(CharLength("\xE2\x82"), 2u);  // each malformed byte is one, as MariaDB counts
}

}  // namespace
}  // namespace shoal::sql
