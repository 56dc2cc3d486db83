// JSON path syntax: every leg kind, MySQL's canonical text, and the positions MySQL reports
// in 3143. Positions marked "MySQL" are from mysql-test's json_no_table.result (8.0).
#include "router/sql/json/json_path.h"

#include <gtest/gtest.h>

#include <string>

#include "router/sql/json/json_test_util.h"

namespace shoal::sql {
namespace {

using testing::Path;
using Leg = JsonPathLegType;

JsonArrayIndex Index(uint32_t i) { return {i, false}; }
JsonArrayIndex Last(uint32_t minus) { return {minus, true}; }

TEST(JsonPathTest, Legs) {
  JsonPath p = Path(R"($.a."b c"[1][last][last-2][1 to 3][last-3 to last-1].*[*]**.d)");
  std::vector<JsonPathLeg> want = {
      JsonPathLeg::Member("a"),
      JsonPathLeg::Member("b c"),
      JsonPathLeg::Cell(Index(1)),
      JsonPathLeg::Cell(Last(0)),
      JsonPathLeg::Cell(Last(2)),
      JsonPathLeg::Range(Index(1), Index(3)),
      JsonPathLeg::Range(Last(3), Last(1)),
      JsonPathLeg::Of(Leg::kMemberWildcard),
      JsonPathLeg::Of(Leg::kArrayWildcard),
      JsonPathLeg::Of(Leg::kEllipsis),
      JsonPathLeg::Member("d"),
  };
  EXPECT_EQ(p.legs(), want);
  EXPECT_TRUE(Path("$").empty());
}

TEST(JsonPathTest, CanonicalText) {
  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {"$", "$"},
      {"  $  ", "$"},
      {"$.a", "$.a"},
      {"$ . a [ 0 ] ", "$.a[0]"},
      {"$.\"a\"", "$.a"},
      {"$.\"a b\"", "$.\"a b\""},
      {"$.\"a.b\"", "$.\"a.b\""},
      {"$.\"\"", "$.\"\""},
      {"$.\"\\\"a\\\"\"", "$.\"\\\"a\\\"\""},
      {"$.a\\u0062", "$.ab"},
      {"$.\"\\u00e9t\\u00e9\"", "$.\xC3\xA9t\xC3\xA9"},
      {"$[ last ]", "$[last]"},
      {"$[last - 2]", "$[last-2]"},
      {"$[last-0]", "$[last]"},
      {"$[007]", "$[7]"},
      {"$[4294967295]", "$[4294967295]"},
      {"$[1 to 3]", "$[1 to 3]"},
      {"$[last-3\tto\nlast]", "$[last-3 to last]"},
      {"$[last to 2]", "$[last to 2]"},
      {"$[ * ]", "$[*]"},
      {"$. *", "$.*"},
      {"$**.a", "$**.a"},
      {"$**[0]**[1]", "$**[0]**[1]"},
      {"$._$1", "$._$1"},
      {"$.a\xCC\x80", "$.a\xCC\x80"},  // a combining mark after the first character
      {"$.\xC3\xA9", "$.\xC3\xA9"},
      {"$.\"1a\"", "$.\"1a\""},
      {"$.\"\\u0001\"", "$.\"\\u0001\""},
  };
  for (const Case& c : cases) {
    JsonPath p = Path(c.in);
    EXPECT_EQ(p.ToString(), c.out) << c.in;
    EXPECT_EQ(Path(p.ToString()), p) << c.in;
  }
}

TEST(JsonPathTest, CanMatchMany) {
  EXPECT_FALSE(Path("$").CanMatchMany());
  EXPECT_FALSE(Path("$.a[1][last-1].b").CanMatchMany());
  EXPECT_TRUE(Path("$.*").CanMatchMany());
  EXPECT_TRUE(Path("$[*]").CanMatchMany());
  EXPECT_TRUE(Path("$**.a").CanMatchMany());
  EXPECT_TRUE(Path("$[1 to 1]").CanMatchMany());
}

TEST(JsonPathTest, AutoWrapAndPositions) {
  EXPECT_TRUE(JsonPathLeg::Cell(Index(0)).IsAutoWrap());
  EXPECT_TRUE(JsonPathLeg::Cell(Last(0)).IsAutoWrap());
  EXPECT_FALSE(JsonPathLeg::Cell(Index(1)).IsAutoWrap());
  EXPECT_FALSE(JsonPathLeg::Cell(Last(1)).IsAutoWrap());
  EXPECT_TRUE(JsonPathLeg::Range(Index(0), Index(5)).IsAutoWrap());
  EXPECT_TRUE(JsonPathLeg::Range(Last(1), Last(0)).IsAutoWrap());
  EXPECT_FALSE(JsonPathLeg::Range(Index(1), Index(5)).IsAutoWrap());
  EXPECT_FALSE(JsonPathLeg::Of(Leg::kArrayWildcard).IsAutoWrap());

  EXPECT_EQ(Index(2).Position(5), 2u);
  EXPECT_EQ(Index(9).Position(5), 5u);  // past the end: append
  EXPECT_EQ(Last(1).Position(5), 3u);
  EXPECT_EQ(Last(9).Position(5), 0u);  // before the start: prepend
  EXPECT_FALSE(Last(5).Within(5));
  using Range = std::pair<size_t, size_t>;
  EXPECT_EQ(JsonPathLeg::Range(Index(3), Index(10000)).Positions(5), Range(3, 5));
  EXPECT_EQ(JsonPathLeg::Range(Last(1), Index(2)).Positions(4), Range(2, 3));
  EXPECT_EQ(JsonPathLeg::Range(Last(0), Index(2)).Positions(4), Range(3, 3));
  EXPECT_EQ(JsonPathLeg::Of(Leg::kArrayWildcard).Positions(4), Range(0, 4));
}

TEST(JsonPathTest, ErrorPositions) {
  struct Case {
    std::string text;
    size_t position;
  };
  const Case cases[] = {
      // MySQL.
      {"$[", 2},
      {"$a.***[3]", 1},
      {"c$", 1},
      {"$.foo[bar]", 6},
      {"$[1", 3},
      {"$[2", 3},
      {"$.b[ 1 ].", 9},
      {"$.", 2},
      {"1010", 1},
      {"$a", 1},
      {"$b", 1},
      {"$[2 to 1]", 8},
      {"$[last to last-1]", 16},
      // The reader's own stops.
      {"", 0},
      {"   ", 3},
      {"a", 1},
      {"$**", 3},
      {"$.a**", 5},
      {"$***.a", 3},
      {"$*.a", 3},
      {"$[1x]", 4},
      {"$[-1]", 2},
      {"$[1 to3]", 5},
      {"$[last-]", 7},
      {"$[lastx]", 7},
      {"$[4294967296]", 2},
      {"$[99999999999999999999999]", 2},
      {"$[1 to ]", 7},
      {"$[*", 3},
      {"$.1a", 4},
      {"$.a-b", 5},
      {"$..a", 2},
      {"$.[0]", 2},
      {"$.\"a", 4},
      {"$.\"a\\x\"", 7},
      {"$.a\"b", 5},
      {"$.\"a\"b", 5},
      {"$.\xFF", 3},
      {std::string("$.a\0b", 5), 5},
      {"$.\xC4\x80", 4},  // U+0100: its low byte is no letter to MySQL
  };
  for (const Case& c : cases) {
    JsonPathParseResult r = ParseJsonPath(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(*r.error_position, c.position) << c.text;
  }
}

}  // namespace
}  // namespace shoal::sql
