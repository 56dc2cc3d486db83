#include "common/metrics.h"

#include <string>
#include <thread>
#include <vector>

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

// Scrapes run while threads register new families and bump counters; the
// shared family exists before the scraper starts, so no scrape may be empty.
TEST(MetricsRegistryTest, ConcurrentUpdatesRegistrationAndScrapesAgree) {
  MetricsRegistry registry;
  registry.GetCounter("shared_total", "Shared.");
  constexpr int kThreads = 4;
  constexpr int kIncrements = 10000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry, t] {
      Counter* shared = registry.GetCounter("shared_total", "Shared.");
      Counter* own = registry.GetCounter("own_total", "Own.", {{"thread", std::to_string(t)}});
      for (int i = 0; i < kIncrements; ++i) {
        shared->Increment();
        own->Increment();
      }
    });
  }
  std::thread scraper([&registry] {
    for (int i = 0; i < 50; ++i) EXPECT_FALSE(registry.RenderPrometheus().empty());
  });
  for (auto& thread : threads) thread.join();
  scraper.join();
  EXPECT_THAT(registry.RenderPrometheus(),
              ::testing::HasSubstr("shared_total " + std::to_string(kThreads * kIncrements)));
}

}  // namespace
}  // namespace shoal
