#include "common/host_port.h"

#include "gtest/gtest.h"

namespace shoal {
namespace {

TEST(HostPortTest, Parses) {
  auto a = ParseHostPort("127.0.0.1:1186", 1);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 1186);
  auto b = ParseHostPort("localhost", 1186);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->port, 1186);
  auto c = ParseHostPort("[::1]:9", 1);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->port, 9);
}

TEST(HostPortTest, RejectsBadInput) {
  EXPECT_FALSE(ParseHostPort(":1186", 1).ok());
  EXPECT_FALSE(ParseHostPort("h:0", 1).ok());
  EXPECT_FALSE(ParseHostPort("h:70000", 1).ok());
  EXPECT_FALSE(ParseHostPort("h:x", 1).ok());
  EXPECT_FALSE(ParseHostPort("[::1", 1).ok());
}

}  // namespace
}  // namespace shoal
