#include "common/metrics.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace shoal {
namespace {

using ::testing::HasSubstr;

TEST(MetricsRegistryTest, RendersFamiliesOnceWithEscapedLabels) {
  MetricsRegistry registry;
  registry.GetCounter("shoal_ops_total", "Operations.", {{"type", "read"}})->Increment(3);
  registry.GetCounter("shoal_ops_total", "Operations.", {{"type", "wr\"ite"}})->Increment();
  registry.GetGauge("shoal_up", "Up.")->Set(1);
  std::string text = registry.RenderPrometheus();
  EXPECT_THAT(text, HasSubstr("# HELP shoal_ops_total Operations.\n# TYPE shoal_ops_total counter\n"
                              "shoal_ops_total{type=\"read\"} 3\n"
                              "shoal_ops_total{type=\"wr\\\"ite\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE shoal_up gauge\nshoal_up 1\n"));
}

TEST(MetricsRegistryTest, SameNameAndLabelsIsTheSameMetric) {
  MetricsRegistry registry;
  Counter* a = registry.GetCounter("x_total", "X.", {{"k", "v"}});
  Counter* b = registry.GetCounter("x_total", "X.", {{"k", "v"}});
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace shoal
